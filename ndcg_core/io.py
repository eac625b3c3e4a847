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

The bytes are decoded in :mod:`ndcg_core._decode` and TREC files parsed in
:mod:`ndcg_core._trec`; this module chooses between TREC and CSV, reads CSV, and holds the
public readers.
"""

from __future__ import annotations

import csv
import io
import math
import warnings

import numpy as np
import pandas as pd

from ._decode import _decode, _finite, _read_bytes, _tidy_numbers
from ._shape import MAX_COLUMNS, csv_shape
from ._trec import _big_path, _read_trec

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


def _first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line
    return ""


def _is_header(first):
    """Names a query column and a document column (``topic 0 d1 1`` names only the first:
    a TREC line whose query is called "topic")."""
    tokens = [t.strip().strip('"').lower() for t in first.replace(",", " ").split()]
    names = {_ALIASES.get(t) for t in tokens}
    return {"qid", "docid"} <= names and not first.lstrip()[:1].isdigit()


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


def _quoting(sep: str) -> int:
    """Quotes group a comma-separated field; in a blank-separated file a double quote is
    part of an id, as in a TREC file (a quoted field there could run over many lines)."""
    return csv.QUOTE_MINIMAL if sep == "," else csv.QUOTE_NONE


def _read_csv_fast(raw: bytes, first: str, required) -> pd.DataFrame | None:
    """A well-formed CSV straight from its bytes, or None: then ``_read_csv`` reads the text
    again and names what is wrong.

    Ids are read as text and numbers by the C parser: no decoded copy of the file, no
    column of number strings (a 107 MB CSV peaked at 8.4x its size through ``_read_csv``).
    Every column is read, as ``usecols`` would hide a row's extra field (at most
    ``MAX_COLUMNS``; a long line's fields were counted by ``csv_shape``). A row with too
    many fields, an empty id, a number that does not parse or is not finite, or bytes that
    are not UTF-8 send the file to ``_read_csv``.
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
                             encoding="utf-8", engine="c", quoting=_quoting(sep))
    except (pd.errors.ParserWarning, pd.errors.ParserError, ValueError, UnicodeDecodeError,
            OverflowError):
        return None
    ids = {c: df.pop(pos[c]) for c in ("qid", "docid")}
    out = pd.DataFrame(ids if _nothing_to_strip(raw) else
                       {c: col.str.strip() for c, col in ids.items()})
    del ids
    if (out.isna() | (out == "")).to_numpy().any():
        return None
    for c in required[2:]:
        out[c] = df.pop(pos[c]).to_numpy()
        if not np.isfinite(out[c].to_numpy()).all():
            return None
    return out


# ASCII bytes that str.strip() removes and a line can hold, and the quote that lets a field
# hold a line feed: a file with none of them has no id to strip.
_STRIPPABLE = (b" ", b"\t", b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\x1f", b'"')


def _nothing_to_strip(raw: bytes) -> bool:
    r"""True when no field of the file can begin or end with white space: ASCII without a
    blank, a tab, a carriage return, a quote or the other bytes ``str.strip`` removes (one
    scan each: under 0.2 s for 100 MB). Then the ids need no stripping, which would build a
    second copy of them (1.3x the file, at the parse's peak).

    >>> _nothing_to_strip(b"qid,docid,score\nq1,d1,0.5\n"), _nothing_to_strip(b"q1, d1,0.5\n")
    (True, False)
    """
    return raw.isascii() and not any(b in raw for b in _STRIPPABLE)


def _read_csv(text, name, required):
    sep = "," if "," in _first_line(text) else r"\s+"
    try:
        # index_col=False: a first data row with one field more than the header must not
        # silently turn the qid column into the index and shift every column left
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(io.StringIO(text), sep=sep, dtype=str, skip_blank_lines=True,
                             keep_default_na=False, index_col=False, quoting=_quoting(sep))
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


def _first_line_bytes(head: bytes) -> bytes:
    """The first line that is not blank, ended where trec_eval ends it (at LF only: a VT,
    FF or lone CR is a blank inside the line)."""
    for line in head.split(b"\n"):
        if line.strip():
            return line
    return b""


def _number(field: bytes) -> bool:
    try:
        return math.isfinite(float(field))
    except ValueError:
        return False


def _trec_line(parts: list, kind: str) -> bool:
    """A first line the TREC reader reads whole: its fields (split as trec_eval splits)
    are as many as the format has and its grade or score is a number, and not every field
    but the last ends with a comma (``1, 0, d1, 2``: a CSV line, though trec_eval would
    read ids "1," and "d1,")."""
    if kind == "qrels":
        fits = len(parts) == 4 and _number(parts[3])
    else:
        fits = len(parts) >= 6 and _number(parts[4])
    return fits and not all(p.endswith(b",") for p in parts[:-1])


def _looks_like_csv(parts: list, kind: str) -> bool:
    """A first data line with commas that is not a TREC line: fields of the wrong number, or
    every field but the last ending in a comma (``1, 0, d1, 2``)."""
    if not any(b"," in p for p in parts):
        return False
    fits = len(parts) == 4 if kind == "qrels" else len(parts) >= 6
    return not fits or all(p.endswith(b",") for p in parts[:-1])


def _header_width(raw: bytes, name: str, first: bytes) -> tuple[int, int]:
    """The header's line end in ``raw`` (where the data lines start) and how many fields it
    has; ValueError when it has more than any reader needs (a header of 10^6 columns
    took pandas 86 s and 2.2 GB)."""
    start = raw.find(first)
    end = raw.find(b"\n", start)
    end = len(raw) if end < 0 else end
    cr = raw.find(b"\r", start, end)  # pandas ends a line at a lone CR too
    end = (end if cr < 0 else cr) + 1
    comma = b"," in first
    if end - start < 65536:  # the exact count, quotes read as the CSV reader reads them
        width = len(_header_fields(raw[start:end].decode("utf-8", errors="replace"),
                                   "," if comma else r"\s+"))
    else:  # too long to be a header any reader needs: count without making its fields
        width = raw.count(b",", start, end) + 1 if comma else MAX_COLUMNS + 1
    if width > MAX_COLUMNS:
        raise ValueError(f"{name} has {width:,} columns in its header line; judgments and "
                         f"runs need at most {MAX_COLUMNS} (qid, docid, relevance or score, "
                         "and a few more): keep those columns and upload it again.")
    return end, width


def _read(source, kind):
    path, head_bytes = _big_path(source)
    if path is not None:
        raw, name = None, path
    else:
        raw, name = _read_bytes(source)
        head_bytes = raw[:65536]
    required = _QRELS if kind == "qrels" else _RUN
    first_bytes = _first_line_bytes(head_bytes)
    # a line of 64 kB or more is seen in part: enough to tell a header from data
    parts = first_bytes.split()
    if first_bytes.lstrip()[:1] == b"#" or _trec_line(parts, kind):  # CSV has no comments
        return _read_trec(raw, name, kind, path)
    first = first_bytes.decode("utf-8", errors="replace")
    if _is_header(first):
        if raw is None:
            raw, name = _read_bytes(source)
        body, width = _header_width(raw, name, first_bytes)
        sep = "," if "," in first else r"\s+"
        csv_shape(raw, name, sep, width, body)
        out = _read_csv_fast(raw, first, required)
        if out is None:
            out = _read_csv(_decode(raw, name), name, required)
        if kind == "qrels":
            out["relevance"] = _tidy_numbers(out["relevance"].to_numpy())
        return out
    if _looks_like_csv(parts, kind):
        raise ValueError(f"{name} looks like CSV but its first line is not a header: start "
                         f"it with '{','.join(required)}'.")
    return _read_trec(raw, name, kind, path)


def read_qrels(source) -> pd.DataFrame:
    """Read judgments into a DataFrame ``qid, docid, relevance`` (ids as strings).

    ``source`` is a path or a file object holding TREC qrels (``qid 0 docid grade``) or a CSV
    with a header ``qid,docid,relevance``. A TREC file is split as trec_eval splits it (see
    the module's notes): quotes are part of an id, ``#`` starts a comment line. A malformed
    line raises ValueError naming the line number and the line. A TREC grade written with
    an exponent is read as the number written ("1e1": 10); ``attrs["atol_grades"]`` keeps
    how trec_eval reads it (C ``atol``: 1), which ``fractional="truncate"`` then uses, as
    it reads "2.9" as 2.

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
