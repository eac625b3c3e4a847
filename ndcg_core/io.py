"""Read judgments (qrels) and runs: TREC formats or CSV with a header.

TREC qrels: ``qid iteration docid relevance``. TREC run: ``qid Q0 docid rank score tag``
(trailing fields ignored, as trec_eval does). TREC files are read as trec_eval reads them:
fields are separated by any run of ASCII whitespace (space, tab, CR, vertical tab, form
feed), lines end at a line feed, a line whose first non-blank character is ``#`` is a comment
(trec_eval 10 skips it), and every other character is part of a field: double quotes, commas
and ``#`` inside an id are kept, ``"d1"`` and ``d1`` are different ids, and ``nan`` or ``NA``
is an id like any other. Blank lines are skipped (trec_eval skips them in a run; its qrels
reader refuses them, and takes ``#`` as a comment only in the first column, and only on one
line at a time: two comment lines in a row make it report a malformed line).

CSV: a header naming ``qid, docid, relevance`` (qrels) or ``qid, docid, score`` (run); one
file holding ``qid, docid, relevance, score`` serves as both. CSV fields may be quoted.

Text is UTF-8, with or without a byte order mark; UTF-16 and UTF-32 files with a byte order
mark (and UTF-16 without one) are read too. Ids are kept as strings.
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

__all__ = ["read_qrels", "read_run"]

_ALIASES = {
    "qid": "qid", "query": "qid", "query_id": "qid", "queryid": "qid", "topic": "qid",
    "docid": "docid", "doc": "docid", "doc_id": "docid", "docno": "docid",
    "document": "docid", "document_id": "docid",
    "relevance": "relevance", "rel": "relevance", "grade": "relevance", "label": "relevance",
    "score": "score", "rank": "rank", "tag": "tag",
}
_QRELS = ("qid", "docid", "relevance")
_RUN = ("qid", "docid", "score")


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


def _first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line
    return ""


def _is_header(first):
    tokens = [t.strip().strip('"').lower() for t in first.replace(",", " ").split()]
    return "qid" in [_ALIASES.get(t) for t in tokens] and not first.lstrip()[:1].isdigit()


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


def _too_many_fields(text, name, sep):
    """Raise ValueError naming the first data line with more fields than the header."""
    lines = text.splitlines()
    if sep == ",":
        reader = csv.reader(io.StringIO(text))
        rows = ((reader.line_num, fields) for fields in reader)
    else:
        rows = ((n, line.split()) for n, line in enumerate(lines, 1))
    width = None
    for n, fields in rows:
        if not any(f.strip() for f in fields):
            continue
        if width is None:
            width = len(fields)
        elif len(fields) > width:
            raise ValueError(f"{name} line {n}: expected {width} fields as in the header, "
                             f"found {len(fields)}: {lines[n - 1].strip()[:120]!r}.")
    raise ValueError(f"{name} has rows with more fields than its header.")


def _header_fields(first: str, sep: str) -> list[str]:
    """The header line's column names, aliases resolved, as ``_read_csv`` names them."""
    fields = next(csv.reader([first])) if sep == "," else first.split()
    return [_ALIASES.get(f.strip().lower(), f.strip().lower()) for f in fields]


def _read_csv_fast(raw: bytes, first: str, required) -> pd.DataFrame | None:
    """A well-formed CSV straight from its bytes, or None: then ``_read_csv`` reads the text
    again and names what is wrong.

    Ids are read as text and numbers by the C parser: no decoded copy of the file, no
    column of number strings (a 107 MB CSV peaked at 8.4x its size through ``_read_csv``).
    Every column is read, as ``usecols`` would hide a row's extra field. A row with too
    many fields, an empty id, a
    number that does not parse or is not finite, or bytes that are not UTF-8 send the file
    to ``_read_csv``.
    """
    sep = "," if "," in first else r"\s+"
    names = _header_fields(first, sep)
    if any(c not in names for c in required) or len(set(names)) != len(names):
        return None
    pos = {c: names.index(c) for c in required}
    dtype = {pos["qid"]: "str", pos["docid"]: "str"}
    dtype.update({pos[c]: np.float64 for c in required[2:]})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(io.BytesIO(raw), sep=sep, header=0, names=range(len(names)),
                             dtype=dtype, index_col=False,
                             keep_default_na=False, na_values=[""], skip_blank_lines=True,
                             encoding="utf-8", engine="c")
    except (pd.errors.ParserWarning, pd.errors.ParserError, ValueError, UnicodeDecodeError,
            OverflowError):
        return None
    out = pd.DataFrame({c: df.pop(pos[c]).str.strip() for c in ("qid", "docid")})
    if (out.isna() | (out == "")).to_numpy().any():
        return None
    for c in required[2:]:
        out[c] = df.pop(pos[c]).to_numpy()
        if not np.isfinite(out[c].to_numpy()).all():
            return None
    return out


def _read_csv(text, name, required):
    sep = "," if "," in _first_line(text) else r"\s+"
    try:
        # index_col=False: a first data row with one field more than the header must not
        # silently turn the qid column into the index and shift every column left
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(io.StringIO(text), sep=sep, dtype=str, skip_blank_lines=True,
                             keep_default_na=False, index_col=False)
    except pd.errors.ParserWarning:
        _too_many_fields(text, name, sep)  # raises ValueError naming the line
    except (pd.errors.ParserError, ValueError) as exc:
        raise ValueError(f"{name} is not a well-formed CSV file: {str(exc).strip()}") from None
    df.columns = [_ALIASES.get(str(c).strip().lower(), str(c).strip().lower())
                  for c in df.columns]
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(f"{name} has columns {list(df.columns)} but needs {list(required)} "
                         f"(missing {missing}); write a header line such as "
                         f"'{','.join(required)}'.")
    # header is line 1; data rows follow (blank lines were skipped)
    data_lines = [i for i, line in enumerate(text.splitlines(), 1) if line.strip()][1:]
    lines = np.asarray(data_lines[: len(df)] + [0] * (len(df) - len(data_lines)))
    out = pd.DataFrame({"qid": df["qid"].str.strip(), "docid": df["docid"].str.strip()})
    for col in ("qid", "docid"):
        empty = (out[col] == "").to_numpy()
        if empty.any():
            raise ValueError(f"{name} line {lines[int(np.argmax(empty))]}: {col} is empty.")
    for col in required[2:]:
        out[col] = _finite(df[col].str.strip(), col, lines, name)
    return out


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

    offset = 0
    for n, line in enumerate(io.BytesIO(raw), 1):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_utf8(raw, name, exc, offset) from None
        offset += len(line)
        parts = line.split()
        if not parts or parts[0][:1] == b"#":
            continue
        if len(parts) < fields or (fields == 4 and len(parts) != 4):
            raise ValueError(f"{name} line {n}: expected {fields} fields ({what}), found "
                             f"{len(parts)}: {text.strip()[:120]!r}.")
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


def _read_trec(raw, name, kind, path=None):
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
    return out


_BIG = 8 * 2**20  # a file path at least this large is handed to pandas whole


def _big_path(source):
    """Return ``(path, head bytes)`` for a large plain file path, else ``(None, None)``.

    pandas reads a large file *path* faster than a byte buffer, so big files are not read
    into memory first. A byte order mark, binary data, a comment line or characters pandas
    splits differently from trec_eval (``_pandas_splits_like_trec_eval``) take the byte
    route; the file is scanned a block at a time for them.
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
            while block:
                block = cr + block
                cr = b"\r" if block.endswith(b"\r") else b""  # may start the next's CRLF
                if b"#" in block or not _pandas_splits_like_trec_eval(block[:len(block)
                                                                            - len(cr)]):
                    return None, None
                block = fh.read(1 << 20)
    except OSError:
        return None, None
    return os.fspath(source), head


def _looks_like_csv(line: str, kind: str) -> bool:
    """A first data line with commas that is not a TREC line: fields of the wrong number, or
    every field but the last ending in a comma (``1, 0, d1, 2``)."""
    if "," not in line:
        return False
    parts = line.split()
    fits = len(parts) == 4 if kind == "qrels" else len(parts) >= 6
    return not fits or all(p.endswith(",") for p in parts[:-1])


def _read(source, kind):
    path, head_bytes = _big_path(source)
    if path is not None:
        raw, name = None, path
    else:
        raw, name = _read_bytes(source)
        head_bytes = raw[:65536]
    head = head_bytes.decode("utf-8", errors="replace")
    required = _QRELS if kind == "qrels" else _RUN
    first = _first_line(head)
    if first.lstrip().startswith("#"):  # a comment: CSV files have none
        return _read_trec(raw, name, kind, path)
    if _is_header(first):
        if raw is None:
            raw, name = _read_bytes(source)
        out = _read_csv_fast(raw, first, required)
        if out is None:
            out = _read_csv(_decode(raw, name), name, required)
        if kind == "qrels":
            out["relevance"] = _tidy_numbers(out["relevance"].to_numpy())
        return out
    if _looks_like_csv(first, kind):
        raise ValueError(f"{name} looks like CSV but its first line is not a header: start "
                         f"it with '{','.join(required)}'.")
    return _read_trec(raw, name, kind, path)


def read_qrels(source) -> pd.DataFrame:
    """Read judgments into a DataFrame ``qid, docid, relevance`` (ids as strings).

    ``source`` is a path or a file object holding TREC qrels (``qid 0 docid grade``) or a CSV
    with a header ``qid,docid,relevance``. A TREC file is split as trec_eval splits it (see
    the module's notes): quotes are part of an id, ``#`` starts a comment line. A malformed
    line raises ValueError naming the line number and the line.

    Examples
    --------
    >>> import io
    >>> read_qrels(io.BytesIO(b'# judged twice\\nq1 0 "d1" 2\\nq1 0 nan 0\\n')).values.tolist()
    [['q1', '"d1"', 2], ['q1', 'nan', 0]]
    """
    return _read(source, "qrels")


def read_run(source) -> pd.DataFrame:
    """Read a run into a DataFrame ``qid, docid, score`` (ids as strings).

    ``source`` is a path or a file object holding a TREC run (``qid Q0 docid rank score tag``)
    or a CSV with a header ``qid,docid,score``. The rank column is ignored, as trec_eval does:
    documents are ranked by score. A TREC file is split as trec_eval splits it.

    Examples
    --------
    >>> import io
    >>> read_run(io.BytesIO(b'q1 Q0 "a 1 3 t\\nq1 Q0 b,c 2 2.5 t\\n')).values.tolist()
    [['q1', '"a', 3.0], ['q1', 'b,c', 2.5]]
    """
    return _read(source, "run")
