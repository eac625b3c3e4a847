"""A file's bytes as UTF-8 and its number fields as finite floats: byte order marks,
UTF-16/32 (with or without a mark) recoded, a byte that is not UTF-8 named by its line, a
number field checked finite and whole grades kept as integers.

Apart from :mod:`ndcg_core.io` (the CSV reader and the public readers) and
:mod:`ndcg_core._trec` (the TREC paths) because both need it and neither should import
the other: it knows nothing of a file's columns, only its bytes and its numbers.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd


_BOMS = (  # longest first: a UTF-32-LE mark starts with the UTF-16-LE one
    (b"\xff\xfe\x00\x00", "UTF-32", "utf-32-le"), (b"\x00\x00\xfe\xff", "UTF-32", "utf-32-be"),
    (b"\xff\xfe", "UTF-16", "utf-16-le"), (b"\xfe\xff", "UTF-16", "utf-16-be"),
)


def _bomless_utf16(head: bytes) -> str | None:
    """"utf-16-le"/"utf-16-be" when ``head`` reads as UTF-16 text without a byte order mark.

    Latin letters, digits and whitespace in UTF-16 have a zero byte in every other position
    (the odd ones little-endian, the even ones big-endian), which UTF-8 text never has: at
    least half of one side zero (ids in other scripts make the rest) and few on the other
    side (U+4E00 is 00 4E) is the sign. Binary data has zeros on both sides, and the caller
    still calls a file binary when it does not decode.
    """
    head = head[: len(head) // 2 * 2]
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    for zeros, other, codec in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if zeros.count(0) >= 0.5 * len(zeros) and other.count(0) <= 0.1 * len(other):
            return codec
    return None


def _recode(raw: bytes, codec: str, label: str, name: str, bom: int = 0) -> bytes:
    """UTF-16/32 bytes (``bom``: the length of the byte order mark before them) -> UTF-8
    bytes, or ValueError naming the encoding, the line and the byte of the file."""
    try:
        return raw.decode(codec).encode("utf-8")
    except UnicodeError as exc:
        line = raw[: exc.start].decode(codec, errors="replace").count("\n") + 1
        raise ValueError(f"{name} is {label} text but line {line} cannot be decoded (byte "
                         f"{bom + exc.start}): save it as UTF-8 and upload it again.") from None


def _read_bytes(source) -> tuple[bytes, str]:
    """Return (UTF-8 bytes without a byte order mark, name) from a path or a file object.

    UTF-16 and UTF-32 (with a byte order mark, or UTF-16 without one) are converted to UTF-8;
    UTF-8 is checked later, by the reader that names the line with a bad byte.
    """
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        with open(source, "rb") as fh:
            raw = fh.read()
    elif hasattr(source, "read"):
        name = getattr(source, "name", "the file")
        if hasattr(source, "seek"):
            source.seek(0)
        raw = source.read()
    else:
        raise ValueError(f"expected a file path or an open file; got {type(source).__name__}.")
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    for bom, label, codec in _BOMS:
        if raw.startswith(bom):
            raw = _recode(raw[len(bom):], codec, label, name, len(bom))
            break
    else:
        if b"\x00" in raw[:8192]:
            try:
                codec = _bomless_utf16(raw[:8192])
                if codec is None:
                    raise ValueError
                raw = _recode(raw, codec, "UTF-16", name)
            except ValueError:
                raise ValueError(f"{name} is not a text file (it holds binary data): upload "
                                 "a TREC or CSV text file.") from None
        elif raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
    if not raw or raw.isspace():  # no copy of a large file
        raise ValueError(f"{name} is empty: it holds no lines to read.")
    return raw, name


def _not_utf8(raw: bytes, name: str, exc: UnicodeDecodeError, offset: int = 0):
    start = offset + exc.start
    line = raw.count(b"\n", 0, start) + 1
    return ValueError(f"{name} is not UTF-8 text (line {line}, byte {start} cannot be "
                      "decoded): save it as UTF-8 and upload it again.")


def _decode(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(raw, name, exc) from None


def _finite(values, column, lines, name):
    nums = pd.to_numeric(values, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(nums)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name} line {lines[i]}: {column} is {values.iloc[i]!r}, expected a "
                         "finite number.")
    return nums


def _tidy_numbers(nums):
    return nums.astype(np.int64) if np.all(np.mod(nums, 1) == 0) and np.all(
        np.abs(nums) < 2**53) else nums


# read_qrels' attrs key: {(qid, docid): (grade as read, grade as C's atol reads it)} for the
# TREC grades written with an exponent, where the two differ ("1e1": 10.0 and 1)
ATOL_GRADES = "atol_grades"


def _atol(text: bytes) -> int:
    """A grade as C's ``atol`` reads it: blanks, a sign, then digits up to the first other
    character ("1e1" -> 1, "-2.5" -> -2, "5e-1" -> 5, ".5" -> 0), as trec_eval 10 reads
    qrels grades (get_qrels.c).

    >>> [_atol(t) for t in (b"1e1", b"-2.5", b"5e-1", b".5", b"+7E0")]
    [1, -2, 5, 0, 7]
    """
    text = text.lstrip()
    sign = -1 if text[:1] == b"-" else 1
    text = text[1:] if text[:1] in (b"-", b"+") else text
    digits = len(text) - len(text.lstrip(b"0123456789"))
    return sign * int(text[:digits] or b"0")
