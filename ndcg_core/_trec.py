"""TREC files read as trec_eval reads them: the C parser's fast path on a whole file
(a large file path handed to pandas unread, comment lines skipped, ids turned into pandas'
text dtype without a Python ``str`` per id) and the line-by-line path that splits each line
as trec_eval does and names the first bad line.

Apart from :mod:`ndcg_core.io` (the public readers, the CSV reader, and the choice between
TREC and CSV) because it is the TREC format's own tokenizing, and what keeps large files
fast; :mod:`ndcg_core._decode` turns the bytes into UTF-8 first.
"""

from __future__ import annotations

import csv
import ctypes
import io
import os
import re
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._decode import ATOL_GRADES, _atol, _finite, _not_utf8, _read_bytes, _tidy_numbers
from ._shape import MAX_COLUMNS, Widths, fields_in, widths


_TEXT = pd.Series(["x"], dtype=object).astype(str).dtype  # pandas' own text dtype


def _as_text(values: np.ndarray) -> pd.Series | None:
    """Ids held as ``str`` objects -> a Series of pandas' text dtype (as ``astype(str)``).

    Returns None when an id is missing (pandas read "NA", "null", ... as NaN).

    pandas' C parser hands back *one* ``str`` object for equal ids that are near each other,
    and a run lists each query's documents together. So the object pointers (not the text)
    are compared to find runs of one object; only the first of each run is checked and
    converted, then the runs are expanded (Arrow's run-end decoding). Equal text behind
    different pointers just makes more runs: the result is the same, only slower. For 7M
    qids this takes 0.03 s where ``astype(str)`` takes 0.4 s.
    """
    values = np.ascontiguousarray(values, dtype=object)
    n = len(values)
    if n == 0 or getattr(_TEXT, "storage", None) != "pyarrow":
        return None if pd.isna(values).any() else pd.Series(values).astype(str)
    # the array's PyObject* pointers, read in place (the array keeps its objects alive)
    ptrs = np.ctypeslib.as_array((ctypes.c_ssize_t * n).from_address(values.ctypes.data))
    new_run = np.empty(n, dtype=bool)
    new_run[0] = True
    np.not_equal(ptrs[1:], ptrs[:-1], out=new_run[1:])
    firsts = np.flatnonzero(new_run)
    heads = values[firsts]  # every value is one of these very objects
    if pd.isna(heads).any():
        return None
    run_ends = np.append(firsts[1:], n)
    runs = pa.RunEndEncodedArray.from_arrays(pa.array(run_ends, type=pa.int64()),
                                             pa.array(heads, type=pa.large_string()))
    return pd.Series(pd.array(pc.run_end_decode(runs), dtype=_TEXT))


def _text_piece(values: list):
    """A list of ``str`` -> an Arrow array (pandas' text storage), so the list can go."""
    if getattr(_TEXT, "storage", None) == "pyarrow":
        return pa.array(values, type=pa.large_string())
    return values[:]


def _text_column(pieces: list) -> pd.Series:
    """Pieces made by ``_text_piece`` -> one Series of pandas' text dtype."""
    if getattr(_TEXT, "storage", None) == "pyarrow":
        return pd.Series(pd.array(pa.chunked_array(pieces, type=pa.large_string()),
                                  dtype=_TEXT))
    return pd.Series([v for p in pieces for v in p], dtype=_TEXT)


_CHUNK = 1 << 17  # lines per piece on the line-by-line path: bounds its Python objects


def _read_trec_lines(raw: bytes, name: str, kind: str, layout) -> pd.DataFrame:
    """Read a TREC file line by line, exactly as trec_eval splits it; name the first bad line.

    Lines end at LF; fields are split on ASCII whitespace (``bytes.split``: space, tab,
    CR, VT, FF, the characters C's ``isspace`` accepts, as in trec_eval's parser); a line
    whose first field starts with ``#`` is a comment. Ids are decoded one piece of
    ``_CHUNK`` lines at a time, so a large file never becomes one big list of strings.
    """
    fields, what, (qcol, dcol), num, column = layout
    qids, docids, nums = [], [], []
    piece, lines = ([], [], []), []

    def flush():
        if lines:
            q, d, v = piece
            qids.append(_text_piece(q))
            docids.append(_text_piece(d))
            nums.append(_finite(pd.Series(v), column, np.asarray(lines), name))
            for part in (q, d, v, lines):
                part.clear()

    n, pos, size = 0, 0, len(raw)
    while pos < size:
        end = raw.find(b"\n", pos)
        end = size if end < 0 else end + 1
        n += 1
        if end - pos > _LONG:
            parts = _long_line(raw, pos, end, name, n, layout)
        else:
            line = raw[pos:end]
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _not_utf8(raw, name, exc, pos) from None
            parts = line.split()
            if parts and parts[0][:1] != b"#" and (
                    len(parts) < fields or (fields == 4 and len(parts) != 4)):
                raise ValueError(f"{name} line {n}: expected {fields} fields ({what}), found "
                                 f"{len(parts)}: {text.strip()[:120]!r}.")
        pos = end
        if not parts or parts[0][:1] == b"#":
            continue
        piece[0].append(parts[qcol].decode("utf-8"))
        piece[1].append(parts[dcol].decode("utf-8"))
        piece[2].append(parts[num].decode("utf-8"))
        lines.append(n)
        if len(lines) >= _CHUNK:
            flush()
    flush()
    values = np.concatenate(nums) if nums else np.empty(0)
    return pd.DataFrame({"qid": _text_column(qids), "docid": _text_column(docids),
                         column: values})


_LONG = 1 << 16  # a line this long is read without splitting it whole
_FIELD = re.compile(rb"\S+")  # bytes: \s is C's isspace, the blanks bytes.split() knows


def _long_line(raw: bytes, start: int, end: int, name: str, n: int, layout) -> list:
    """The fields of a long line that the reader uses, found in place: a run line's
    trailing fields, which trec_eval ignores, are neither split nor copied (a 150 MB run on
    one line took 20x its size split whole). Only the fields used are decoded."""
    fields, what = layout[0], layout[1]
    parts = []
    for match in _FIELD.finditer(raw, start, end):
        parts.append(match.group())
        if len(parts) > fields:
            break
    if parts and parts[0][:1] == b"#":
        return []
    if len(parts) < fields or (fields == 4 and len(parts) != 4):
        found = fields_in(raw, start, end)
        text = raw[start: start + 480].decode("utf-8", errors="replace").strip()[:120]
        raise ValueError(f"{name} line {n}: expected {fields} fields ({what}), found "
                         f"{found}: {text!r}.")
    for part in parts[:fields]:
        try:
            part.decode("utf-8")
        except UnicodeDecodeError as exc:
            at = raw.find(part, start, end)
            raise _not_utf8(raw, name, exc, at) from None
    return parts[:fields]


def _parse_trec_fast(src, width, cols, num, skip=None):
    """The C parser on a whole TREC file, or None when any line needs the line-by-line path.

    ``src`` is a path or a byte buffer; ``skip`` lists the (0-based) comment lines. Quoting
    is off (a double quote is an ordinary character, as in trec_eval) and no text reads as
    missing (``NA`` and ``nan`` are ids): a field is missing only when a line is short.
    Of a run, only the columns used are kept (``usecols``: less memory, no slower). Not of
    qrels: pandas counts the columns on the first line and refuses ``usecols`` that name
    more, and a qrels line has one field fewer than ``width``. qids are read as Python
    objects (ids stay text: "007" is not 7), for ``_as_text``: much
    cheaper than asking the parser for text; so is the last column, which only shows
    whether a line is short (missing) or, for qrels, long (present). The docid column is
    left to type inference, which is also much faster than asking for text; when inference
    did not give text for *every* line (all-numeric docids, or numeric in one chunk of the
    file and text in another, where "007" would come back as "7"), the file is read again
    with docids as text. A short line, a number that does not parse or is not finite sends
    the file down the line-by-line path, which names the line.
    """
    last = width - 1
    dtype = {cols[0]: object, num: np.float64, last: object}
    usecols = [*cols, num, last] if width == 6 else None
    if usecols is None:
        dtype[1] = object  # the qrels' iteration: one shared str, not a text column
    for attempt in range(2):
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", pd.errors.DtypeWarning)
                warnings.simplefilter("ignore", pd.errors.ParserWarning)
                if hasattr(src, "seek"):
                    src.seek(0)
                # na_values [""]: only a field that is not there (a short line) is missing
                df = pd.read_csv(src, sep=r"\s+", header=None, names=range(width),
                                 dtype=dtype, index_col=False, engine="c", encoding="utf-8",
                                 quoting=csv.QUOTE_NONE, keep_default_na=False,
                                 na_values=[""], skiprows=skip or None,
                                 usecols=usecols)
        except (pd.errors.ParserError, ValueError, UnicodeDecodeError, OverflowError):
            return None
        mixed = any(issubclass(w.category, pd.errors.DtypeWarning) for w in caught)
        if not mixed and pd.api.types.is_string_dtype(df[cols[1]].dtype):
            break
        dtype[cols[1]] = "string[pyarrow]"
    if df[cols[1]].isna().any() or not np.isfinite(df[num].to_numpy()).all():
        return None
    qids = _as_text(df[cols[0]].to_numpy())
    if qids is None:
        return None
    df[cols[0]] = qids
    return df


def _pandas_splits_like_trec_eval(chunk: bytes) -> bool:
    """False when pandas' tokenizer would split ``chunk`` differently from trec_eval.

    pandas ends a line at a lone CR and keeps VT and FF inside a field; trec_eval (C's
    ``isspace``) reads all three as field separators. Such files take the line-by-line path.
    """
    if b"\x0b" in chunk or b"\x0c" in chunk:
        return False
    return b"\r" not in chunk or chunk.count(b"\r") == chunk.count(b"\r\n")


_COMMENT = re.compile(rb"\n[ \t\r]*#")  # a leading LF makes re scan fast (10x a ^ search)


def _comment_lines(raw: bytes) -> list[int] | None:
    """0-based numbers of the comment lines (first non-blank character ``#``), or None."""
    if b"#" not in raw:
        return None
    skip = [0] if re.match(rb"[ \t\r]*#", raw) else []
    line, pos = 0, 0
    for match in _COMMENT.finditer(raw):
        line += raw.count(b"\n", pos, match.start() + 1)
        pos = match.start() + 1
        skip.append(line)
    return skip or None


_LAYOUTS = {  # fields, what, (qid, docid) columns, number column, its name
    "qrels": (4, "qid iteration docid relevance", (0, 2), 3, "relevance"),
    "run": (6, "qid Q0 docid rank score tag", (0, 2), 4, "score"),
}


_FIRST_BYTE = re.compile(rb"[ \t\r\x0b\x0c]*([^ \t\r\x0b\x0c\n])")


def _has_data(raw: bytes) -> bool:
    """True when a line is neither blank nor a comment (the first line usually says)."""
    pos, size = 0, len(raw)
    while pos < size:
        end = raw.find(b"\n", pos)
        end = size if end < 0 else end
        match = _FIRST_BYTE.match(raw, pos, end)
        if match and match.group(1) != b"#":
            return True
        pos = end + 1
    return False


def _read_trec(raw, name, kind, path=None):
    if raw is not None and not _has_data(raw):  # comments only: as an empty file
        raise ValueError(f"{name} is empty: it holds no lines to read.")
    layout = _LAYOUTS[kind]
    fields, _, (qcol, dcol), num, column = layout
    # qrels: one column more, to catch a fifth field; runs: trec_eval ignores anything
    # after the tag
    width = 5 if kind == "qrels" else 6
    last = width - 1  # empty when a line is short: missing fields can only be trailing ones
    if raw is not None and b"\n" not in raw and raw.count(b"\r") > 1:
        # trec_eval ends lines at LF only: the whole file would be one line
        raise ValueError(f"{name} ends its lines with CR only (old Mac line ends): save it "
                         "with LF or CRLF line ends and upload it again.")
    df = None
    if path is not None:  # _big_path checked it holds no comment and splits like trec_eval
        df = _parse_trec_fast(path, width, [qcol, dcol], num)
    elif widths(raw, None, MAX_COLUMNS).wide is not None:
        pass  # pandas would tokenize every field of a long, wide line: read it line by line
    elif _pandas_splits_like_trec_eval(raw):
        df = _parse_trec_fast(io.BytesIO(raw), width, [qcol, dcol], num, _comment_lines(raw))
    if df is not None:
        missing_last = df[last].isna()
        short_or_long = missing_last.any() if width == fields else not missing_last.all()
        if short_or_long:
            df = None
    if df is None:
        # the line-by-line path, which names the first bad line
        if raw is None:
            raw, name = _read_bytes(path)
        out = _read_trec_lines(raw, name, kind, layout)
    else:
        out = pd.DataFrame({"qid": df[qcol].astype(str), "docid": df[dcol].astype(str),
                            column: df[num].to_numpy()})
        del df
    if kind == "qrels":
        out["relevance"] = _tidy_numbers(out["relevance"].to_numpy())
        atol = _exponent_grades(raw if raw is not None else _read_bytes(path)[0])
        if atol:
            out.attrs[ATOL_GRADES] = atol
    return out


# a grade (a qrels line's last field) written with an exponent: "1e1", "2.5E-1"
_EXPONENT = re.compile(rb"[eE][-+]?[0-9]+[ \t\r\x0b\x0c]*(?:\n|\Z)")
_EXPONENT_BLOCK = 1 << 20


def _exponent_grades(raw: bytes) -> dict:
    """{(qid, docid): (grade as read, grade as atol reads it)} of the qrels lines whose
    grade is written with an exponent and whose two readings differ. ``fractional=
    "truncate"`` (trec_eval's rule) then takes atol's: "1e1" is 1 to trec_eval, 10 to
    Python. Few files have any. Only an "e" or "E" followed by a digit or a sign can start
    one: numpy finds those a block at a time, and the pattern is tried there alone (tried at
    every byte, it took 6 s for 39 MB of judgments whose ids hold "e", holding the
    interpreter's lock).
    """
    out = {}
    for at in _exponent_starts(raw):
        match = _EXPONENT.match(raw, at)
        if match is None:
            continue
        start = raw.rfind(b"\n", 0, match.start()) + 1
        parts = raw[start: match.end()].split()
        if len(parts) != 4 or parts[0][:1] == b"#":
            continue
        try:
            value = float(parts[3])
        except ValueError:
            continue
        if _atol(parts[3]) != np.trunc(value):
            out[(parts[0].decode("utf-8", "replace"), parts[2].decode("utf-8", "replace"))] = (
                value, _atol(parts[3]))
    return out


def _exponent_starts(raw: bytes):
    """Offsets of each "e" or "E" followed by a digit, "+" or "-", in order (1 MB at a time:
    a few MB of arrays whatever the file).

    >>> list(_exponent_starts(b"q1 0 de1 1e1\\nq 0 e 2E-1"))
    [6, 10, 20]
    """
    view = np.frombuffer(raw, np.uint8)
    for begin in range(0, max(len(view) - 1, 0), _EXPONENT_BLOCK):
        block = view[begin: begin + _EXPONENT_BLOCK + 1]  # and the byte after its last
        after = block[1:]
        hit = ((block[:-1] | 0x20) == ord("e")) & (
            ((after >= ord("0")) & (after <= ord("9"))) | (after == ord("+"))
            | (after == ord("-")))
        yield from (begin + np.flatnonzero(hit)).tolist()


_BIG = 8 * 2**20  # a file path at least this large is handed to pandas whole


def _big_path(source):
    """Return ``(path, head bytes)`` for a large plain file path, else ``(None, None)``.

    pandas reads a large file *path* faster than a byte buffer, so big files are not read
    into memory first. A byte order mark, binary data, a comment line, characters pandas
    splits differently from trec_eval (``_pandas_splits_like_trec_eval``) or a long line of
    many fields (:class:`~ndcg_core._shape.Widths`) take the byte route; the file is
    scanned a block at a time for them.
    """
    if not isinstance(source, (str, os.PathLike)):
        return None, None
    try:
        if os.path.getsize(source) < _BIG:
            return None, None
        with open(source, "rb") as fh:
            head = fh.read(65536)
            if (head.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"))
                    or b"\x00" in head[:8192] or head.isspace()):
                return None, None
            block, cr = head, b""
            wide = Widths(None, MAX_COLUMNS)  # a long, wide line takes the byte route
            while block:
                wide.feed(block)
                if wide.wide is not None:
                    return None, None
                block = cr + block
                cr = b"\r" if block.endswith(b"\r") else b""  # may start the next's CRLF
                if b"#" in block or not _pandas_splits_like_trec_eval(block[:len(block)
                                                                            - len(cr)]):
                    return None, None
                block = fh.read(1 << 20)
            wide.close()
            if wide.wide is not None:
                return None, None
    except OSError:
        return None, None
    return os.fspath(source), head
