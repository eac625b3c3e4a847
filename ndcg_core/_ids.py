"""The qrels' and run's columns as arrays: id columns coded as integers over one shared
vocabulary (Arrow, no Python ``str`` per id), numbers checked, rows sorted by query and
score, repeated (query, document) pairs found and named.

Apart from :mod:`ndcg_core.evaluate` because it knows nothing of NDCG: it turns the two
tables into integer arrays, which :mod:`ndcg_core._ranking` ranks and scores.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["id_codes"]


def _frame(df, name, columns):
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame with columns {columns}; "
                         f"got {type(df).__name__}.")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks column(s) {missing}: it needs {columns}, it has "
                         f"{list(df.columns)}.")
    return df


def _id_column(df, name, column):
    """An id column as text; a missing id is refused, naming its row."""
    values = df[column]
    missing = values.isna().to_numpy()
    if missing.any():
        i = int(np.argmax(missing))
        raise ValueError(f"{name} row {i + 1} has no {column} (the cell is empty): every row "
                         "needs a qid and a docid.")
    return _as_text(values)


def _as_text(values):
    """An id column as text: numbers and mixed object columns compare as text."""
    if pd.api.types.is_string_dtype(values.dtype) and values.dtype != object:
        return values
    return values.astype(str)


def _arrow_text(values):
    """An id column (text, no missing id) as one Arrow ``large_string`` chunked array, or
    None when Arrow cannot hold it (a lone surrogate, say: then pandas factorizes it).

    pandas' text dtype already keeps its strings in Arrow, so this is no copy of them.
    """
    try:
        arr = pa.array(values.array)
    except (pa.ArrowException, UnicodeError, TypeError, ValueError):
        return None
    if isinstance(arr, pa.Array):
        arr = pa.chunked_array([arr])
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    return arr.cast(pa.large_string())


def _fill(out, values):
    """Copy an Arrow array or chunked array of integers into the numpy array ``out``."""
    at = 0
    for chunk in values.chunks if isinstance(values, pa.ChunkedArray) else [values]:
        out[at: at + len(chunk)] = chunk.to_numpy()
        at += len(chunk)


# _codes sorts ids rather than hashing them when more than this share of a sample of rows
# (the run's first _SAMPLE) holds distinct ids: documents, not queries.
_SAMPLE = 65_536
_SORT_ABOVE = 0.25


def _codes(a, b, *, sort, ids=True):
    """Integer codes for two id columns over one shared vocabulary (ids compared as text),
    and that vocabulary: the distinct ids in code order, an Arrow array (or an array of
    ``str`` when pandas factorized them) that :func:`_ids` reads ids from; only its size
    when not ``ids``.

    ``sort``: codes in the ids' order as Python compares ``str`` (code point by code point,
    which is the byte order of their UTF-8 that Arrow sorts by); else any order.

    Arrow codes both columns in place, from their own buffers: no Python ``str`` is made
    for an id (a 150 MB run's 3 M docids as Python objects took about 8x the file's size).
    Few distinct ids (queries) are hashed (``dictionary_encode``); many
    (documents, mostly distinct) are sorted instead (``rank``): a hash table of 3 M
    strings took twice the file's size, a sort a third of it at most, in no more time.
    The first column's codes are a copy, the second's a view of the codes of both: when
    the second is let go (a run's, the large one), so are they.
    """
    ta, tb = _arrow_text(a), _arrow_text(b)
    if ta is None or tb is None:
        ca, cb, uniq = _codes_pandas(a, b, sort=sort)
        return ca, cb, uniq if ids else len(uniq)
    both = pa.chunked_array(ta.chunks + tb.chunks, type=pa.large_string())
    del ta, tb
    codes = np.empty(len(both), np.int32)  # Arrow's dictionary indices are 32-bit too
    sample = both.slice(len(a) if len(b) else 0, _SAMPLE)  # b's first rows: the run's
    if pc.count_distinct(sample).as_py() > _SORT_ABOVE * len(sample):
        _fill(codes, pc.rank(both, tiebreaker="dense"))  # 1, 2, ... in id order
        codes -= 1
        n = int(codes.max()) + 1 if codes.size else 0
        if ids:
            first = np.empty(n, np.int64)
            first[codes] = np.arange(codes.size)  # a row of each id (the last one)
            uniq = both.take(pa.array(first)).combine_chunks()
        return codes[: len(a)].copy(), codes[len(a):], uniq if ids else n
    encoded = pc.dictionary_encode(both)  # one dictionary shared by every chunk
    del both
    uniq = (encoded.chunk(0).dictionary if encoded.num_chunks
            else pa.array([], type=pa.large_string()))
    _fill(codes, pa.chunked_array([chunk.indices for chunk in encoded.chunks],
                                  type=pa.int32()))
    del encoded
    if sort and len(uniq) > 1:
        order = pc.array_sort_indices(uniq).to_numpy()
        rank = np.empty(order.size, np.int32)
        rank[order] = np.arange(order.size, dtype=np.int32)
        codes = rank[codes]
        del rank
        uniq = uniq.take(pa.array(order)) if ids else uniq
    return codes[: len(a)].copy(), codes[len(a):], uniq if ids else len(uniq)


def id_codes(a, b, *, ids=True):
    """One integer code per distinct id across two id columns, as :func:`evaluate` matches a
    run's ids to its judgments' (compared as text), and the ids in code order.

    Returns ``(codes_a, codes_b, vocabulary)``: code ``i`` is the ``i``-th id in text order,
    and ``vocabulary`` those ids as an array of ``str``, or only their number when not
    ``ids`` (a run's millions of document ids need not become Python strings: Arrow codes
    them from their own buffers).

    >>> ca, cb, vocabulary = id_codes(pd.Series(["q2", "q1"]), pd.Series(["q1", "q3", 2]))
    >>> ca.tolist(), cb.tolist(), vocabulary.tolist()
    ([2, 1], [1, 3, 0], ['2', 'q1', 'q2', 'q3'])
    >>> id_codes(pd.Series(["d1", "d2"]), pd.Series(["d2"]), ids=False)[2]  # 2 distinct ids
    2
    """
    ca, cb, uniq = _codes(_as_text(a), _as_text(b), sort=True, ids=ids)
    return ca, cb, (_ids(uniq, np.arange(len(uniq))) if ids else uniq)


def _codes_pandas(a, b, *, sort):
    """:func:`_codes` by pandas, for ids Arrow cannot hold. Each column is factorized on its
    own; only the two much smaller sets of unique ids are merged."""
    ca, ua = pd.factorize(a)
    cb, ub = pd.factorize(b)
    merged, uniq = pd.factorize(np.concatenate([np.asarray(ua, dtype=object),
                                                np.asarray(ub, dtype=object)]), sort=sort)
    return merged[: len(ua)][ca], merged[len(ua):][cb], np.asarray(uniq, dtype=object)


def _ids(uniq, codes):
    """The ids of ``codes`` in a vocabulary from :func:`_codes`, as an array of ``str``."""
    if isinstance(uniq, np.ndarray):
        return uniq[codes]
    return uniq.take(pa.array(codes)).to_numpy(zero_copy_only=False)


def _dense_rank(values):
    """0-based rank of each value among the distinct values (equal values share a rank), as
    32-bit integers below 2**31 rows (half the memory of a large run's ranks).

    >>> _dense_rank(np.array([2.5, 1.0, 2.5, 7.0])).tolist()
    [1, 0, 1, 2]
    """
    n = values.size
    ranks = np.empty(n, np.int32 if n < 2**31 else np.int64)
    if not n:
        return ranks
    order = np.argsort(values)
    sv = values[order]
    new = np.empty(n, bool)  # each step built in place: a few arrays of n rows at a time
    new[0] = True
    np.not_equal(sv[1:], sv[:-1], out=new[1:])
    del sv
    rank = np.cumsum(new, dtype=ranks.dtype)
    del new
    rank -= 1
    ranks[order] = rank
    return ranks


def _sort_rows(q, primary_desc, tiebreak=None, *, tiebreak_desc=False):
    """Row order by query, then ``primary_desc`` descending, then ``tiebreak`` ascending
    (descending with ``tiebreak_desc``; stable input order when None). One int64 argsort
    of a packed key: much faster than np.lexsort; falls back to it when the key would not
    fit in 63 bits.

    >>> _sort_rows(np.array([1, 0, 0, 0]), np.array([5., 1., 2., 2.]), np.array([0, 3, 1, 2]),
    ...            tiebreak_desc=True).tolist()  # query 0: score 2 (codes 2, 1), 1; query 1
    [3, 2, 1, 0]
    """
    n = q.size
    if n == 0:
        return np.arange(0)
    if tiebreak_desc and tiebreak is not None and tiebreak.dtype.kind not in "iu":
        tiebreak = -tiebreak
    p = _dense_rank(primary_desc)
    if tiebreak is None:
        t = np.arange(n, dtype=p.dtype)
    elif tiebreak.dtype.kind in "iu":  # integer codes already order rows: no ranking pass
        lo, hi = int(tiebreak.min()), int(tiebreak.max())
        # 32-bit when the codes' range fits (the arithmetic below wraps to the true value)
        t = tiebreak.astype(np.int32 if np.can_cast(tiebreak.dtype, np.int32)
                            and hi - lo < 2**31 else np.int64)
        if tiebreak_desc:  # max - code, in place: no negated copy of the codes
            np.subtract(hi, t, out=t)
        else:
            t -= lo
    else:
        t = _dense_rank(tiebreak)
    np_, nt = int(p.max()) + 1, int(t.max()) + 1
    bp, bt = np_.bit_length(), nt.bit_length()
    if int(q.max()).bit_length() + bp + bt > 62:
        return np.lexsort((t, -p, q))
    # key = q << (bp + bt) | (np_ - 1 - p) << bt | t, built in place: p and t 32-bit, at
    # most the key and one more array of n rows at a time (a large upload's peak)
    key = np.subtract(np_ - 1, p, dtype=np.int64)
    del p
    key <<= bt
    key |= t
    del t
    high = q.astype(np.int64)
    high <<= bp + bt
    key |= high
    del high
    return np.argsort(key, kind="stable" if tiebreak is None else "quicksort")


def _numbers(df, name, column):
    values = df[column]
    # a float64 column is read in place (read-only; its NaN are NaN): pd.to_numeric and
    # to_numpy(na_value=...) each copy it, 26 MB of a 150 MB run's scores
    values = (values.to_numpy() if values.dtype == np.float64 else pd.to_numeric(
        values, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan))
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.argmax(bad))
        row = df.iloc[i]
        raise ValueError(
            f"{name} row {i + 1} (qid {row['qid']!r}, docid {row['docid']!r}) has {column} "
            f"{df[column].iloc[i]}: it must be a finite number."
        )
    return values


def _repeats(keys, n_keys, dense):
    """True when a (query, document) key appears twice. ``keys`` is sorted in place when
    not ``dense`` (keys below ``n_keys`` are then counted in a table instead).

    >>> _repeats(np.array([7, 3, 7]), 8, dense=True), _repeats(np.array([9, 3]), 10, False)
    (True, False)
    """
    if dense:
        seen = np.zeros(n_keys, bool)
        seen[keys] = True
        return bool(np.count_nonzero(seen) != keys.size)
    keys.sort()
    return bool((keys[1:] == keys[:-1]).any())


def _duplicates(keys, df, name, rows=None):
    """Raise ValueError naming the first repeated (qid, docid) pair in file order.

    ``rows``: the frame rows ``keys`` belong to (ascending), when only some rows count.
    """
    dup = pd.Series(keys).duplicated().to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        i = i if rows is None else int(rows[i])
        row = df.iloc[i]
        raise ValueError(
            f"{name} lists docid {row['docid']!r} twice for qid {row['qid']!r} (row {i + 1}): "
            "each document may appear once per query."
        )
