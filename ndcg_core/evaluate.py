"""NDCG for many queries at once, vectorized: no Python loop per query."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._checks import OVERFLOW, check_k, denominators, gains_of
from ._ranx import SMALL, ranx_order
from .options import CONVENTIONS, ZERO_IDCG_VALUES, check_option

__all__ = ["evaluate", "ranking", "judged_at_k", "ndcg_bounds", "conventions_table"]


def _column_name(k):
    return "ndcg" if k is None else f"ndcg@{k}"


def _cutoffs(k):
    ks = [k] if k is None or isinstance(k, (numbers.Number, str)) else list(k)
    if not ks:
        raise ValueError("k is empty: give at least one cutoff, e.g. k=(5, 10), or None.")
    out = []
    for c in ks:
        c = check_k(c)
        if c not in out:
            out.append(c)
    return out


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


_DENSE_SLACK = 65_536  # key tables up to this size (plus twice the rows) are always fine


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
    for an id (a 150 MB run's 3 M docids as Python objects took about 8x the file's size,
    issue 16). Few distinct ids (queries) are hashed (``dictionary_encode``); many
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
    them from their own buffers, issue 16).

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
    # most the key and one more array of n rows at a time (issue 16: a large upload's peak)
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
    # to_numpy(na_value=...) each copy it, 26 MB of a 150 MB run's scores (issue 16)
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


def _fractional(grades, rule, qrels):
    """Apply the fractional-grade rule: keep, truncate toward zero (C atol), or refuse."""
    whole = np.trunc(grades)
    if rule == "keep" or (whole == grades).all():
        return grades
    if rule == "truncate":
        return whole + 0.0  # + 0.0 turns trec_eval's -0 (atol("-0.5")) into 0
    i = int(np.argmax(whole != grades))
    row = qrels.iloc[i]
    raise ValueError(
        f"qrels row {i + 1} (qid {row['qid']!r}, docid {row['docid']!r}) has grade "
        f"{grades[i]:g}, not a whole number, refused by fractional='error' (pytrec_eval takes "
        "integer grades only); choose fractional='truncate' (trec_eval) or 'keep'."
    )


def _gains(grades, gain, negative, qrels, name="qrels"):
    if negative == "error" and (grades < 0).any():
        i = int(np.argmax(grades < 0))
        row = qrels.iloc[i]
        raise ValueError(
            f"{name} row {i + 1} (qid {row['qid']!r}, docid {row['docid']!r}) has negative "
            f"grade {grades[i]:g}, refused by negative='error'; choose negative='zero' "
            "(trec_eval) or 'keep'."
        )
    negatives = grades < 0 if negative == "zero" else None
    if negatives is not None and negatives.any():
        # trec_eval: a negative grade marks a pooled but unjudged document, gain 0 whatever
        # the gain map gives grade 0 (get_gain() never matches it); looked up as grade 0
        grades = np.maximum(grades, 0.0)
    else:
        negatives = None
    def where(i):
        row = qrels.iloc[i]
        return f"{name} row {i + 1} (qid {row['qid']!r}, docid {row['docid']!r})"

    out = gains_of(grades, gain, name, where)
    if negatives is not None:
        out = np.where(negatives, 0.0, out)
    return out


def _group_ranks(q):
    """1-based rank of each row within its run of equal (sorted) query codes.

    >>> _group_ranks(np.array([0, 0, 0, 2, 5, 5])).tolist()
    [1, 2, 3, 1, 1, 2]
    """
    n = q.size
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]]) if n else np.array([], int)
    sizes = np.diff(np.r_[starts, n])
    # 32-bit (half the memory of a large run's ranks); the group's start repeated over its
    # rows, subtracted in place: two arrays of n rows at a time, not three (issue 16)
    kind = np.int32 if n < 2**31 else np.int64
    ranks = np.arange(1, n + 1, dtype=kind)
    ranks -= np.repeat(starts.astype(kind), sizes)
    return ranks


def _dcg_at(q, ranks, gains, cutoffs, nq, discount, base):
    """DCG@c per query for every cutoff c; rows with zero gain add nothing and are dropped."""
    nz = gains != 0
    q, ranks, gains = q[nz], ranks[nz], gains[nz]
    maxrank = int(ranks.max()) if ranks.size else 1
    w = gains / denominators(maxrank, discount, base)[ranks - 1]
    out = {}
    for c in cutoffs:
        sel = w if c is None else np.where(ranks <= c, w, 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            out[c] = np.bincount(q, weights=sel, minlength=nq)
    return out


def _ideal_at(q, gains, cutoffs, nq, discount, base):
    """IDCG@c per query: the DCG of each query's gains sorted descending.

    Gains usually take a handful of values, so no row sort is needed: count the items of
    each gain level per query; the level's items fill ranks ``start+1 .. end`` and add
    ``gain * (D[end] - D[start])`` with D the cumulative discount.
    """
    codes, levels = pd.factorize(gains)
    n_levels = len(levels)
    if n_levels == 0:
        return {c: np.zeros(nq) for c in cutoffs}
    if n_levels > 64 or nq * n_levels > 20_000_000:
        order = _sort_rows(q, gains)
        qs = q[order]
        return _dcg_at(qs, _group_ranks(qs), gains[order], cutoffs, nq, discount, base)
    by_gain = np.argsort(-levels, kind="stable")
    level_of = np.empty(n_levels, np.int64)
    level_of[by_gain] = np.arange(n_levels)
    counts = np.bincount(q.astype(np.int64) * n_levels + level_of[codes],
                         minlength=nq * n_levels).reshape(nq, n_levels)
    ends = np.cumsum(counts, axis=1)
    starts = ends - counts
    longest = int(ends[:, -1].max())
    cum = np.r_[0.0, np.cumsum(1.0 / denominators(max(longest, 1), discount, base))]
    level_gain = np.asarray(levels, dtype=np.float64)[by_gain]
    out = {}
    for c in cutoffs:
        cap = longest if c is None else min(c, longest)
        e, b = np.minimum(ends, cap), np.minimum(starts, cap)
        with np.errstate(over="ignore", invalid="ignore"):
            out[c] = (cum[e] - cum[b]) @ level_gain
    return out


_PRESET_OPTIONS = ("gain", "ties", "zero_idcg", "negative", "ideal_pool", "score_precision",
                   "fractional")


def _settings(convention, given):
    """The convention's options, each overridden by the keyword given (None: the preset's)."""
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {sorted(CONVENTIONS)}; got "
                         f"{convention!r}.")
    preset = CONVENTIONS[convention]
    return {name: check_option(name, preset[name] if given.get(name) is None else given[name])
            for name in _PRESET_OPTIONS}


def _check_depth(depth):
    if depth is None:
        return None
    if isinstance(depth, (bool, np.bool_)) or not isinstance(depth, numbers.Integral) \
            or depth < 1:
        raise ValueError(f"depth must be a whole number of at least 1 (the documents kept "
                         f"from the top of each query's ranking, trec_eval -M), or None; got "
                         f"{depth!r}.")
    return int(depth)


def _ranx_tiebreak(q, s):
    """Integer tie-break codes that make the (query, score desc, code) order ranx's order.

    Only queries of more than 15 documents holding tied scores can differ from the order
    given (see ``_ranx``); None when there is none.
    """
    n = q.size
    by_q = np.argsort(q, kind="stable")  # each query's rows, in the order given
    qs = q[by_q]
    starts = np.flatnonzero(np.r_[True, qs[1:] != qs[:-1]]) if n else np.array([], int)
    sizes = np.diff(np.r_[starts, n])
    by_score = np.lexsort((s, q))
    qq, ss = q[by_score], s[by_score]
    tied = np.zeros(int(q.max()) + 1 if n else 0, bool)
    tied[qq[1:][(qq[1:] == qq[:-1]) & (ss[1:] == ss[:-1])]] = True
    todo = [i for i in np.flatnonzero(sizes > SMALL) if tied[qs[starts[i]]]]
    if not todo:
        return None
    t = np.arange(n)
    for i in todo:
        rows = by_q[starts[i]: starts[i] + sizes[i]]  # ascending: the order given
        t[rows[ranx_order(s[rows])]] = rows
    return t


class _Ranking:
    """Every query's ranking, ready for DCG: built once, shared by evaluate, judged_at_k
    and ndcg_bounds. Arrays over ranked rows are grouped by query, best first."""

    def __init__(self, qrels, run, st, depth=None, judged_only=False, need_judged=True,
                 need_docids=False):
        _frame(qrels, "qrels", ["qid", "docid", "relevance"])
        _frame(run, "run", ["qid", "docid", "score"])
        grades = _numbers(qrels, "qrels", "relevance")
        if qrels["relevance"].dtype.kind not in "iub":  # whole numbers need no check
            grades = _fractional(grades, st["fractional"], qrels)
        scores = _numbers(run, "run", "score")
        if st["score_precision"] == "float32":
            with np.errstate(over="ignore"):  # beyond float32's range: inf, as a C cast
                scores = scores.astype(np.float32).astype(np.float64)

        # one integer code per query and per document, shared by both frames
        jq, rq, quniq = _codes(_id_column(qrels, "qrels", "qid"),
                               _id_column(run, "run", "qid"), sort=True)
        quniq = _ids(quniq, np.arange(len(quniq)))  # a few: as str, for the result's index
        jd, rd, duniq = _codes(_id_column(qrels, "qrels", "docid"),
                               _id_column(run, "run", "docid"), sort=(st["ties"] == "docid"),
                               ids=need_docids)
        nq, nd = len(quniq), max(len(duniq) if need_docids else duniq, 1)
        jkey = jq.astype(np.int64) * nd + jd
        rkey = rq.astype(np.int64) * nd
        rkey += rd
        # (query, document) keys index a table when there are not many more keys than rows:
        # repeats and look-ups then cost one pass, not a sort and a hash of each frame
        n_keys = nq * nd
        dense = n_keys <= 2 * (jkey.size + rkey.size) + _DENSE_SLACK
        if dense:
            seen = np.zeros(n_keys, bool)
            seen[jkey] = True
            if np.count_nonzero(seen) != jkey.size:
                _duplicates(jkey, qrels, "qrels")  # names the first repeated row
            del seen
        else:
            jorder = np.argsort(jkey)
            jsorted = jkey[jorder]
            if jsorted.size > 1 and (jsorted[1:] == jsorted[:-1]).any():
                _duplicates(jkey, qrels, "qrels")

        judged_gain = _gains(grades, st["gain"], st["negative"], qrels)
        # trec_eval reads a negative grade as "pooled but not judged" (RELVALUE_UNJUDGED)
        counts = grades >= 0 if st["negative"] == "zero" else np.ones(grades.size, bool)
        judged_q = np.zeros(nq, bool)
        judged_q[jq] = True
        in_run = np.zeros(nq, bool)
        in_run[rq] = True

        # keep run rows of judged queries (a query without judgments is never evaluated,
        # so trec_eval never looks at it: a repeated line there is no error). Below, each
        # array over the run's rows is let go once used: a large upload's peak is the
        # number of them alive at once (issue 16).
        keep = judged_q[rq]
        rows = None  # the run rows kept, when not all are
        if keep.all():
            rk, s = rkey, scores
        else:
            rows = np.flatnonzero(keep)
            rq, rd, rk, s = rq[rows], rd[rows], rkey[rows], scores[rows]
        del keep, rkey, scores
        need_judged = need_judged or judged_only
        judged = None
        if dense:
            gain_of = np.zeros(n_keys)
            gain_of[jkey] = judged_gain
            g = gain_of[rk]  # 0 for documents without a judgment
            del gain_of
            if need_judged:
                judged_of = np.zeros(n_keys, bool)
                judged_of[jkey] = counts
                judged = judged_of[rk]
                del judged_of
        elif jsorted.size:
            pos = np.searchsorted(jsorted, rk)
            np.minimum(pos, jsorted.size - 1, out=pos)
            found = jsorted[pos] == rk
            np.take(jorder, pos, out=pos)  # the qrels row of each run row's key, where found
            g = judged_gain[pos]  # then 0 where not found: no third array of n rows
            g[~found] = 0.0
            if need_judged:
                judged = counts[pos]
                judged &= found
            del pos, found
        else:
            g = np.zeros(rk.size)
            judged = np.zeros(rk.size, bool) if need_judged else None

        # a repeated document in an evaluated ranking is an error (trec_eval: "duplicate
        # docs"). Without a depth every kept row is evaluated: the keys are checked before
        # the sort, sorted in place, and go before it (one array of n rows fewer through it)
        if depth is None:
            if _repeats(rk, n_keys, dense):
                rk = rq.astype(np.int64) * nd + rd  # the keys again, in file order
                _duplicates(rk, run, "run", rows)
            del rk

        # rank: query, then score descending, then the tie rule
        ties = st["ties"]
        if ties == "ranx":
            tiebreak = _ranx_tiebreak(rq, s)
        else:
            tiebreak = {"docid": rd, "optimistic": g, "pessimistic": g}.get(ties)
        # 'input' and 'average' keep the input order
        order = _sort_rows(rq, s, tiebreak, tiebreak_desc=ties in ("docid", "optimistic"))
        del tiebreak
        if order.size < 2**31:  # 32-bit: the arrays below are taken through it
            order = order.astype(np.int32)
        if not need_docids:
            del rd  # with jd a copy (_codes), the run's docid codes go here
        q_sorted = rq[order]
        ranks = _group_ranks(q_sorted)
        if depth is not None and ranks.size and ranks.max() > depth:
            order = order[ranks <= depth]  # trec_eval -M: cut before anything else
            q_sorted = rq[order]
            ranks = _group_ranks(q_sorted)
        del rq
        if depth is not None:  # only the rows above the depth are evaluated and checked
            if _repeats(rk[order], n_keys, dense):
                kept = np.sort(order)  # file order, to name the first repeated line
                _duplicates(rk[kept], run, "run", kept if rows is None else rows[kept])
            del rk
        del rows
        if judged_only:  # condensed list: unjudged documents leave, the others move up
            stay = judged[order]
            order, q_sorted = order[stay], q_sorted[stay]
            ranks = _group_ranks(q_sorted)

        self.settings, self.nq, self.quniq, self.duniq = st, nq, quniq, duniq
        self.jq, self.jd, self.grades, self.judged_gain = jq, jd, grades, judged_gain
        self.counts, self.judged_q, self.in_run = counts, judged_q, in_run
        self.q, self.ranks = q_sorted, ranks
        self.s = s[order]
        del s
        self.g = g[order]
        del g
        self.judged = None if judged is None else judged[order]
        self.d = rd[order] if need_docids else None

    def tie_groups(self):
        """Group number of each ranked row: rows of one query with equal scores share one."""
        q, s = self.q, self.s
        if not q.size:
            return np.zeros(0, np.int64)
        return np.cumsum(np.r_[True, (q[1:] != q[:-1]) | (s[1:] != s[:-1])]) - 1

    def scores(self, cutoffs, discount, base, missing, g=None, extra_ideal=None):
        """(NDCG, DCG, IDCG) per query code for every cutoff, and the evaluated queries.

        ``g`` replaces the ranked rows' gains; ``extra_ideal`` = (query codes, gains) adds
        items to the judged pool the ideal is built from.
        """
        st = self.settings
        g = self.g if g is None else g
        ranked = g
        if st["ties"] == "average" and g.size:
            grp = self.tie_groups()
            ranked = (np.bincount(grp, g) / np.bincount(grp))[grp]
        dcgs = _dcg_at(self.q, self.ranks, ranked, cutoffs, self.nq, discount, base)
        # ideal: gains sorted descending within each query
        if st["ideal_pool"] == "judged":  # an ideal from the judged pool leaves harm out
            iq, ig = self.jq, np.maximum(self.judged_gain, 0.0)
            if extra_ideal is not None:
                iq, ig = np.r_[iq, extra_ideal[0]], np.r_[ig, np.maximum(extra_ideal[1], 0)]
        else:
            iq, ig = self.q, g
        idcgs = _ideal_at(iq, ig, cutoffs, self.nq, discount, base)
        for c in cutoffs:
            if not (np.isfinite(dcgs[c]).all() and np.isfinite(idcgs[c]).all()):
                raise ValueError(OVERFLOW)
        zero_value = ZERO_IDCG_VALUES[st["zero_idcg"]]
        # a judged query absent from the run (missing='zero') is an empty ranking: 0 when
        # its judgments hold something to find, else the all-zero rule (NaN stays NaN)
        findable = np.bincount(self.jq, weights=(self.judged_gain > 0).astype(float),
                               minlength=self.nq) > 0
        absent = np.where(findable, 0.0, zero_value)
        ndcgs = {}
        for c in cutoffs:
            d, i = dcgs[c], idcgs[c]
            with np.errstate(divide="ignore", invalid="ignore"):
                v = np.where(i > 0, d / np.where(i > 0, i, 1.0), zero_value)
            ndcgs[c] = np.where(self.in_run, v, absent)
        evaluated = self.judged_q & (self.in_run | (missing == "zero"))
        return ndcgs, dcgs, idcgs, evaluated

    def frame(self, columns, evaluated, missing):
        out = pd.DataFrame(columns, index=pd.Index(self.quniq[evaluated].astype(object),
                                                   name="qid"))
        out.attrs["unjudged_queries"] = list(self.quniq[self.in_run & ~self.judged_q])
        out.attrs["missing_queries"] = list(self.quniq[self.judged_q & ~self.in_run])
        return out


def evaluate(qrels, run, *, k=(5, 10), convention="trec_eval", gain=None, discount="log2",
             base=2, ties=None, zero_idcg=None, negative=None, ideal_pool=None,
             score_precision=None, fractional=None, judged_only=False, depth=None,
             missing="skip", details=False) -> pd.DataFrame:
    """NDCG@k of every query of a run against judgments.

    Parameters
    ----------
    qrels : DataFrame
        Judgments, columns ``qid, docid, relevance``.
    run : DataFrame
        Retrieved documents, columns ``qid, docid, score`` (higher score ranks first).
    k : int, None or sequence of them
        Cutoffs; one output column each, ``ndcg@5`` ... and ``ndcg`` for None (whole run).
    convention : {'trec_eval', 'pytrec_eval', 'sklearn', 'lightgbm', 'xgboost', 'ranx'}
        A named bundle of ``gain, ties, zero_idcg, negative, ideal_pool, score_precision,
        fractional`` (see ``ndcg_core.CONVENTIONS``); each keyword given explicitly
        overrides it.
    gain, discount, base, ties, zero_idcg, negative
        As in :func:`ndcg_core.ndcg` (``ties`` also takes 'ranx').
    ideal_pool : {'judged', 'retrieved'}
        Build the ideal from every judged document of the query (trec_eval) or from the
        retrieved ones only (scikit-learn).
    score_precision : {'float64', 'float32'}
        Compare scores as read (trec_eval 10) or as 32-bit floats (trec_eval 9, pytrec_eval).
    fractional : {'keep', 'truncate', 'error'}
        Grades such as 2.5: kept, cut toward zero (trec_eval reads qrels with atol), or
        refused (pytrec_eval).
    judged_only : bool
        Drop unjudged documents from each ranking before cutting at k (condensed lists,
        Sakai 2007; trec_eval -J; pytrec_eval ``judged_docs_only_flag=True``).
    depth : int or None
        Keep only the top ``depth`` documents of each query's ranking (trec_eval -M), before
        ``judged_only``.
    missing : {'skip', 'zero'}
        Judged queries absent from the run: left out (trec_eval 9, pytrec_eval) or evaluated
        as an empty ranking (trec_eval -c): 0, or the ``zero_idcg`` value when the query has
        no relevant document.
    details : bool
        Also return ``dcg@k``, ``idcg@k``, ``n_retrieved`` (documents ranked, after
        ``depth`` and ``judged_only``) and ``n_relevant`` columns.

    Returns
    -------
    DataFrame indexed by ``qid`` (sorted as strings, like trec_eval), one column per cutoff.
    Run queries without judgments are left out (they are not checked either: a repeated line
    there is ignored, as trec_eval ignores it); ``.attrs['unjudged_queries']`` and
    ``.attrs['missing_queries']`` list them.

    With ``convention='trec_eval'`` this reproduces trec_eval 10's ``ndcg`` and
    ``ndcg_cut.k``: gain = the grade (negative grades gain 0), ranking by score descending
    then doc id descending, the ideal from all judged documents, a query with no relevant
    document 0. ``convention='pytrec_eval'`` also compares scores as 32-bit floats.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["q"] * 2, "docid": ["a", "b"], "relevance": [0, 1]})
    >>> run = pd.DataFrame({"qid": ["q"] * 3, "docid": ["a", "b", "x"],
    ...                     "score": [1.00000001, 1.0, 0.5]})
    >>> float(evaluate(qrels, run, k=1, convention="pytrec_eval").iloc[0, 0])  # tie: b first
    1.0
    >>> round(float(evaluate(qrels, run, k=None).iloc[0, 0]), 4)  # a first: 1/log2(3)
    0.6309
    >>> run = pd.DataFrame({"qid": ["q"] * 3, "docid": ["x", "a", "b"], "score": [3, 2, 1]})
    >>> float(evaluate(qrels, run, k=2).iloc[0, 0])  # unjudged x, then a: grades 0, 0
    0.0
    >>> round(float(evaluate(qrels, run, k=2, judged_only=True).iloc[0, 0]), 4)  # a, b
    0.6309
    """
    st = _settings(convention, dict(gain=gain, ties=ties, zero_idcg=zero_idcg,
                                    negative=negative, ideal_pool=ideal_pool,
                                    score_precision=score_precision, fractional=fractional))
    missing = check_option("missing", missing)
    judged_only = check_option("judged_only", judged_only)
    check_option("discount", discount)
    cutoffs = _cutoffs(k)
    depth = _check_depth(depth)
    r = _Ranking(qrels, run, st, depth, judged_only, need_judged=False)
    ndcgs, dcgs, idcgs, evaluated = r.scores(cutoffs, discount, base, missing)
    result = {}
    for c in cutoffs:
        result[_column_name(c)] = ndcgs[c][evaluated]
        if details:
            result[f"dcg@{c}" if c else "dcg"] = dcgs[c][evaluated]
            result[f"idcg@{c}" if c else "idcg"] = idcgs[c][evaluated]
    if details:
        result["n_retrieved"] = np.bincount(r.q, minlength=r.nq)[evaluated]
        result["n_relevant"] = np.bincount(r.jq, weights=(r.grades > 0).astype(float),
                                           minlength=r.nq)[evaluated].astype(int)
    out = r.frame(result, evaluated, missing)
    out.attrs["settings"] = dict(convention=convention, **st, missing=missing,
                                 discount=discount, judged_only=judged_only, depth=depth)
    return out


def ranking(qrels, run, *, qids=None, convention="trec_eval", gain=None, ties=None,
            negative=None, score_precision=None, fractional=None, depth=None,
            judged_only=False) -> pd.DataFrame:
    """Each evaluated query's ranking, in the order :func:`evaluate` scores it.

    One row per ranked document, best first: ``qid, rank, docid, score, grade, gain,
    judged``. ``score`` is the score as compared (rounded to float32 under
    ``score_precision='float32'``); ``grade`` is the qrels grade as read by the convention
    (NaN for a document without one); ``gain`` is what the document adds before the
    discount (0 when unjudged; the tie average is not applied); ``judged`` is False for a
    document without a grade, and for a negative grade under ``negative='zero'``. Only
    queries with judgments appear, as in :func:`evaluate`; ``qids`` keeps just those.

    Parameters
    ----------
    qids : sequence of str, optional
        The queries to return (all evaluated queries when None).
    convention, gain, ties, negative, score_precision, fractional, depth, judged_only
        As in :func:`evaluate`.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["q"] * 2, "docid": ["a", "b"], "relevance": [0, 1]})
    >>> run = pd.DataFrame({"qid": ["q"] * 3, "docid": ["a", "b", "x"],
    ...                     "score": [1.00000001, 1.0, 0.5]})
    >>> ranking(qrels, run)["docid"].tolist()                             # doubles: a > b
    ['a', 'b', 'x']
    >>> ranking(qrels, run, convention="pytrec_eval")["docid"].tolist()  # a tie: b > a
    ['b', 'a', 'x']
    """
    st = _settings(convention, dict(gain=gain, ties=ties, negative=negative,
                                    score_precision=score_precision, fractional=fractional))
    judged_only = check_option("judged_only", judged_only)
    r = _Ranking(qrels, run, st, _check_depth(depth), judged_only, need_docids=True)
    rows = slice(None)
    if qids is not None:  # only those queries' rows are made into a table
        rows = np.flatnonzero(np.isin(r.quniq, [str(q) for q in qids])[r.q])
    q, d = r.q[rows], r.d[rows]
    grade_of = pd.Series(r.grades, index=pd.MultiIndex.from_arrays([r.jq, r.jd]))
    grade = grade_of.reindex(pd.MultiIndex.from_arrays([q, d])).to_numpy()
    out = pd.DataFrame({"qid": r.quniq[q].astype(object), "rank": r.ranks[rows].astype(np.int64),
                        "docid": _ids(r.duniq, d).astype(object), "score": r.s[rows],
                        "grade": grade, "gain": r.g[rows], "judged": r.judged[rows]})
    return out.reset_index(drop=True)


def judged_at_k(qrels, run, *, k=(5, 10), convention="trec_eval", ties=None, negative=None,
                score_precision=None, fractional=None, depth=None,
                missing="skip") -> pd.DataFrame:
    """Judged@k: the share of each query's top k retrieved documents that are judged.

    A document is judged when the qrels grade it for that query; with ``negative='zero'``
    (trec_eval, pytrec_eval, ranx) a negative grade counts as unjudged, as trec_eval reads
    it ("pooled but not judged"). The denominator is ``min(k, n)`` for a query with ``n``
    documents retrieved (ir_measures' ``Judged@k``); a query with none (``missing='zero'``)
    gives NaN. Documents are ranked as :func:`evaluate` ranks them under the same keywords.

    Parameters
    ----------
    k : int, None or sequence of them
        One column ``judged@k`` per cutoff; ``judged`` for None (the whole ranking).
    convention, ties, negative, score_precision, fractional, depth, missing
        As in :func:`evaluate`.

    Returns
    -------
    DataFrame indexed by ``qid`` with the queries :func:`evaluate` reports; its mean over
    queries (``.mean()``) is mean Judged@k.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["q"] * 2, "docid": ["a", "c"], "relevance": [2, 0]})
    >>> run = pd.DataFrame({"qid": ["q"] * 3, "docid": ["a", "b", "c"], "score": [3, 2, 1]})
    >>> judged_at_k(qrels, run, k=[1, 2, 10]).iloc[0].tolist()   # 1/1, 1/2, 2/3
    [1.0, 0.5, 0.6666666666666666]
    """
    st = _settings(convention, dict(ties=ties, negative=negative,
                                    score_precision=score_precision, fractional=fractional))
    missing = check_option("missing", missing)
    cutoffs = _cutoffs(k)
    r = _Ranking(qrels, run, st, _check_depth(depth))
    evaluated = r.judged_q & (r.in_run | (missing == "zero"))
    n = np.bincount(r.q, minlength=r.nq)
    result = {}
    for c in cutoffs:
        # the judged rows in the top c counted per query (only their query codes are taken:
        # no float array of every row, issue 16)
        hits = np.bincount(r.q[r.judged if c is None else r.judged & (r.ranks <= c)],
                           minlength=r.nq)
        shown = np.minimum(n, c) if c is not None else n
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(shown > 0, hits / np.maximum(shown, 1), np.nan)
        result["judged" if c is None else f"judged@{c}"] = value[evaluated]
    return r.frame(result, evaluated, missing)


def ndcg_bounds(qrels, run, *, k=(5, 10), convention="trec_eval", gain=None,
                discount="log2", base=2, ties=None, zero_idcg=None, negative=None,
                ideal_pool=None, score_precision=None, fractional=None, depth=None,
                missing="skip") -> pd.DataFrame:
    """NDCG@k if the unjudged documents in each query's top k were judged 0, and if they
    were all judged the query's top grade.

    * ``ndcg@k_unjudged_0``: every unjudged document gains 0, the ideal is unchanged. This
      is :func:`evaluate`'s ``ndcg@k``.
    * ``ndcg@k_unjudged_top``: every unjudged document in the top k (the whole ranking for
      ``k=None``) takes the query's *top grade*, the highest grade its qrels give a judged
      document (0 when none is judged), with that grade's gain; those documents also join
      the judged pool, so the ideal gains them too (``ideal_pool='judged'``; with
      ``'retrieved'`` they are in the pool already). Unjudged documents below k stay out.

    The ranking itself is the one :func:`evaluate` uses (promotion does not reorder a tie
    under ``ties='optimistic'`` or ``'pessimistic'``). The two differ only where the top k
    holds unjudged documents. They bracket what
    judging those documents could do, but the second is not always the larger: a document
    promoted to the top grade low in the ranking raises the ideal more than the DCG.

    Parameters
    ----------
    k, convention, gain, discount, base, ties, zero_idcg, negative, ideal_pool, \
score_precision, fractional, depth, missing
        As in :func:`evaluate` (``judged_only`` would leave no unjudged document).

    Returns
    -------
    DataFrame indexed by ``qid``, two columns per cutoff.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["q"] * 2, "docid": ["a", "c"], "relevance": [2, 0]})
    >>> run = pd.DataFrame({"qid": ["q"] * 3, "docid": ["a", "b", "c"], "score": [3, 2, 1]})
    >>> t = ndcg_bounds(qrels, run, k=2)   # b is unjudged, at rank 2; top grade 2
    >>> t.columns.tolist()
    ['ndcg@2_unjudged_0', 'ndcg@2_unjudged_top']
    >>> t.iloc[0].round(4).tolist()        # 2/2 = 1; (2 + 2/log2(3)) / (2 + 2/log2(3)) = 1
    [1.0, 1.0]
    >>> t = ndcg_bounds(qrels, run.assign(score=[3, 1, 2]), k=None)  # ranked a, c, b
    >>> t.iloc[0].round(4).tolist()        # 2/2 = 1; (2 + 0 + 2/2) / (2 + 2/log2(3)) = 0.9197
    [1.0, 0.9197]
    """
    st = _settings(convention, dict(gain=gain, ties=ties, zero_idcg=zero_idcg,
                                    negative=negative, ideal_pool=ideal_pool,
                                    score_precision=score_precision, fractional=fractional))
    missing = check_option("missing", missing)
    check_option("discount", discount)
    cutoffs = _cutoffs(k)
    r = _Ranking(qrels, run, st, _check_depth(depth))
    low, _, _, evaluated = r.scores(cutoffs, discount, base, missing)
    # each query's top grade among its judged documents, and that grade's gain
    top_grade = np.full(r.nq, -np.inf)
    np.maximum.at(top_grade, r.jq[r.counts], r.grades[r.counts])
    top_gain = np.zeros(r.nq)
    best = r.counts & (r.grades == top_grade[r.jq])
    top_gain[r.jq[best]] = r.judged_gain[best]
    result = {}
    for c in cutoffs:
        promoted = ~r.judged
        if c is not None:
            promoted &= r.ranks <= c
        # the promoted rows' gains replaced in a copy: one more array of the run's rows, not
        # three (issue 16: a large upload's peak)
        extra = (r.q[promoted], top_gain[r.q[promoted]])
        g = r.g.copy()
        g[promoted] = extra[1]
        del promoted
        high, _, _, _ = r.scores([c], discount, base, missing, g=g, extra_ideal=extra)
        del g
        name = _column_name(c)
        result[f"{name}_unjudged_0"] = low[c][evaluated]
        result[f"{name}_unjudged_top"] = high[c][evaluated]
    return r.frame(result, evaluated, missing)


def conventions_table() -> pd.DataFrame:
    """The convention presets as a table: one row per library, one column per option."""
    return pd.DataFrame(CONVENTIONS).T.rename_axis("convention")
