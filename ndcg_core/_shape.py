"""How many fields each line of a file holds, counted on its bytes before any parser sees it.

pandas' C parser spends memory on every field it tokenizes, and on a CSV's first data row
builds one column per field: one 1 MB line of ``q,q,q,...`` cost 800 times its size and
27 s, a 150 MB TREC run on one line 20 times. Counting separators with numpy, a
block of bytes at a time, costs a few passes over the file and a few MB, whatever its shape;
a line wider than any reader needs is then refused (CSV), or read without pandas (a TREC
run's trailing fields, which trec_eval ignores).

Apart from :mod:`ndcg_core.io` and :mod:`ndcg_core._trec` because both formats need it: it
knows separators and line ends, not columns.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_COLUMNS", "Widths", "widths", "fields_in", "csv_shape"]

MAX_COLUMNS = 32  # qid, docid, relevance and score, with room for any columns a tool adds
_BLOCK = 1 << 20  # bytes counted at a time: a few MB of numpy arrays, whatever the file


class Widths:
    """Fields per line, counted a block of bytes at a time (:meth:`feed`, then
    :meth:`close`): the first line of ``long`` bytes or more with more than ``limit``
    fields is kept in :attr:`wide` as ``(start, end, fields)`` (byte offsets, the end
    excluded) with :attr:`wide_line` its line number. Shorter lines cost the parser little
    whatever they hold, and it names them; only their line ends are looked at here.

    ``sep`` is ``b","`` (fields = commas outside double quotes + 1) or None (fields are runs
    of non-blank bytes, as ``bytes.split()`` splits). ``cr``: a lone CR ends a line too
    (pandas), else only LF does (trec_eval). With ``sep``, quotes are checked as RFC 4180
    places them (:meth:`_quotes`); :attr:`bad_quote` holds the offset of the first that is
    not, so a quoted field never runs over a line end into the next (pandas would make
    one record, of any number of fields, of the lines it joins).

    >>> w = Widths(None, 6, long=16)
    >>> w.feed(b"q Q0 d 1 2.0 t\\nq Q0 d"); w.feed(b" 1 2.0 t x y\\n"); w.close()
    >>> w.wide, w.wide_line
    ((15, 33, 8), 2)
    """

    def __init__(self, sep: bytes | None, limit: int, *, cr: bool = False, long: int = 1024):
        self.sep, self.limit, self.cr, self.long = sep, limit, cr, long
        self.count = 0  # fields counted so far on the current line (blank mode: starts)
        self.blank = True  # blank mode: the byte before the next block is a blank
        self.inside = False  # comma mode: the next block starts inside a quoted field
        self.last = 10  # the byte before the next block
        self.offset = self.start = self.lines = 0  # bytes and LFs fed; the line's start
        self.wide: tuple[int, int, int] | None = None
        self.wide_line = 0
        self.bad_quote: int | None = None

    def feed(self, block) -> None:
        """Look at the lines in ``block``, the bytes after those fed before."""
        if self.wide is not None or self.bad_quote is not None or not len(block):
            self.offset += len(block)
            return
        a = np.frombuffer(block, np.uint8)
        brk = a == 10
        if self.cr:
            brk |= a == 13
        ends = np.flatnonzero(brk)
        marks = self._marks(a)
        if self.bad_quote is not None:
            return
        # marks before each line end: only lines of ``long`` bytes or more are counted
        lengths = np.diff(ends, prepend=-1)
        lengths[:1] += self.offset - self.start
        for i in np.flatnonzero(lengths > self.long) if ends.size else ():
            begin = 0 if i == 0 else int(ends[i - 1]) + 1
            fields = self._fields(marks[begin: ends[i]], carry=i == 0)
            if fields > self.limit:
                start = self.start if i == 0 else self.offset + begin
                self.wide = (start, self.offset + int(ends[i]), fields)
                self.wide_line = self.lines + int(np.count_nonzero(a[: ends[i]] == 10)) + 1
                self.offset += len(block)
                return
        if ends.size:
            self.count = 0
            self.lines += int(np.count_nonzero(a == 10)) if self.cr else ends.size
            self.start = self.offset + int(ends[-1]) + 1
        tail = marks[int(ends[-1]) + 1:] if ends.size else marks
        self.count += int(np.count_nonzero(tail))
        self.offset += len(block)

    def _fields(self, marks, carry):
        n = int(np.count_nonzero(marks)) + (self.count if carry else 0)
        return n if self.sep is None else n + 1

    def _marks(self, a):
        """Per byte: a field starts here (blank mode) or a separator is here (comma mode)."""
        if self.sep is None:
            space = (a == 32) | ((a >= 9) & (a <= 13))  # C's isspace, as bytes.split()
            marks = ~space
            marks[1:] &= space[:-1]  # a field starts after a blank or a line end
            marks[0] &= self.blank
            self.blank = bool(space[-1])
            return marks
        marks = a == self.sep[0]
        quote = a == 34
        if quote.any() or self.inside:
            marks &= ~self._quotes(a, quote)
        self.last = int(a[-1])
        return marks

    def _quotes(self, a, quote):
        """Bytes inside double quotes (and the quotes); :attr:`bad_quote` set at the first
        quote outside a quoted field that does not open one (at a field's start) or double
        the quote closing one, or at a line end inside quotes. Where quotes are so placed,
        the parity of the quotes before a byte says whether it is inside one, as pandas' C
        parser (and the csv module) read it: a line's commas outside quotes are then its
        separators, and every quoted field closes on its line."""
        inside = np.bitwise_xor.accumulate(quote, dtype=np.uint8).astype(bool)
        inside ^= self.inside  # the parity carried from the blocks before
        before = np.empty_like(inside)  # inside quotes just before this byte
        before[0] = self.inside
        before[1:] = inside[:-1]
        prev = np.empty_like(a)
        prev[0] = self.last
        prev[1:] = a[:-1]
        # a quote outside quotes opens a field (after a comma or a line end) or doubles
        # the closing one before it; pandas reads any other as a letter, parity would not
        boundary = (prev == 44) | (prev == 10) | (prev == 13) | (prev == 34)
        bad = quote & ~before & ~boundary
        if self.cr:
            bad |= ((a == 10) | (a == 13)) & before
        else:
            bad |= (a == 10) & before
        if bad.any():
            self.bad_quote = self.offset + int(np.argmax(bad))
        self.inside = bool(inside[-1])
        return inside | quote

    def close(self) -> None:
        """The last line, when the file does not end with a line break."""
        if self.inside and self.bad_quote is None:
            self.bad_quote = self.offset
        if self.wide is not None or self.bad_quote is not None or self.offset == self.start:
            return
        fields = self.count if self.sep is None else self.count + 1
        if self.offset - self.start > self.long and fields > self.limit:
            self.wide = (self.start, self.offset, fields)
            self.wide_line = self.lines + 1


def widths(raw: bytes, sep: bytes | None, limit: int, *, cr: bool = False,
           start: int = 0) -> Widths:
    """:class:`Widths` fed ``raw[start:]`` (offsets stay those of ``raw``)."""
    w = Widths(sep, limit, cr=cr)
    w.offset = w.start = start
    w.lines = raw.count(b"\n", 0, start)
    view = memoryview(raw)
    for at in range(start, len(raw), _BLOCK):
        w.feed(view[at: at + _BLOCK])
    w.close()
    return w


def fields_in(raw: bytes, start: int, end: int) -> int:
    """How many runs of non-blank bytes ``raw[start:end]`` holds (the fields
    ``bytes.split()`` would make), counted a block at a time, without splitting it.

    >>> fields_in(b"q Q0 d1\\t1 2.5 t x", 2, 16)
    5
    """
    w = Widths(None, 0)
    view = memoryview(raw)
    n = 0
    for at in range(start, end, _BLOCK):
        n += int(np.count_nonzero(w._marks(np.frombuffer(view[at: min(end, at + _BLOCK)],
                                                         np.uint8))))
    return n


def _preview(raw: bytes, start: int, end: int) -> str:
    return raw[start: min(end, start + 480)].decode("utf-8", errors="replace").strip()[:120]


def csv_shape(raw: bytes, name: str, sep: str, width: int, body: int) -> None:
    """Refuse, before pandas tokenizes it, a CSV with a long line (1 kB or more) holding
    more fields than its header's ``width``, or a double quote out of place (a quoted field
    that would run over its line end), naming the first such line; ``body`` is the byte
    where the data lines start.

    Commas outside double quotes are counted for a comma-separated file, runs of non-blank
    bytes for a blank-separated one (read without quoting). A short line with extra fields
    costs pandas little, and it names that line.

    >>> csv_shape(b"qid,docid,score\\n" + b"q," * 600 + b"\\n", "x.csv", ",", 3, 16)
    Traceback (most recent call last):
    ...
    ValueError: x.csv line 2: expected 3 fields as in the header, found 601: 'q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,q,'.
    """
    w = widths(raw, b"," if sep == "," else None, width, cr=True, start=body)
    if w.bad_quote is not None:
        begin = raw.rfind(b"\n", 0, w.bad_quote) + 1
        end = raw.find(b"\n", w.bad_quote)
        text = _preview(raw, begin, len(raw) if end < 0 else end)
        line = raw.count(b"\n", 0, begin) + 1
        raise ValueError(f"{name} line {line}: a double quote out "
                         "of place (a quoted field starts after a comma, doubles every quote "
                         f"inside it and closes on its own line): {text!r}.")
    if w.wide is not None:
        start, end, fields = w.wide
        raise ValueError(f"{name} line {w.wide_line}: expected {width} fields as in the "
                         f"header, found {fields}: {_preview(raw, start, end)!r}.")
