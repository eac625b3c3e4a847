"""Every query's ranking built once from coded arrays, and its DCG and ideal DCG at each
cutoff: gains from grades, ranks within a query, ranx's tie-break, and :class:`_Ranking`,
which :func:`~ndcg_core.evaluate`, :func:`~ndcg_core.ranking`,
:func:`~ndcg_core.judged_at_k` and :func:`~ndcg_core.ndcg_bounds` share.

Apart from :mod:`ndcg_core.evaluate` (the public functions, their options and docstrings)
and :mod:`ndcg_core._ids` (the tables as integer arrays): this is the vectorized arithmetic,
no Python loop per query.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._checks import OVERFLOW, denominators, gains_of
from ._decode import ATOL_GRADES
from ._exact import ZERO_BOUND, segment_sums, split_terms
from ._ids import _codes, _duplicates, _frame, _id_column, _ids, _numbers, _repeats, _sort_rows
from ._ranx import SMALL, ranx_order
from .options import ZERO_IDCG_VALUES

_DENSE_SLACK = 65_536  # key tables up to this size (plus twice the rows) are always fine


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


def _atol_grades(grades, qrels):
    """Grades as trec_eval reads them (C atol) where read_qrels found a grade written with
    an exponent ("1e1": 1, not 10); a row still holding the value read (its ids and grade
    unchanged since) gets atol's. Few rows: the loop is over them only."""
    atol = qrels.attrs[ATOL_GRADES]
    qid, docid = qrels["qid"].astype(str), qrels["docid"].astype(str)
    rows = np.flatnonzero(qid.isin({q for q, _ in atol}).to_numpy()
                          & docid.isin({d for _, d in atol}).to_numpy())
    grades = np.array(grades, dtype=np.float64)
    for i in rows:
        read, trec_eval = atol.get((qid.iat[i], docid.iat[i]), (None, None))
        if read is not None and grades[i] == read:
            grades[i] = trec_eval
    return grades


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
    # rows, subtracted in place: two arrays of n rows at a time, not three (a large upload's peak)
    kind = np.int32 if n < 2**31 else np.int64
    ranks = np.arange(1, n + 1, dtype=kind)
    ranks -= np.repeat(starts.astype(kind), sizes)
    return ranks


def _dcg_at(q, ranks, gains, cutoffs, nq, discount, base):
    """(DCG@c, Σ|term|) per query for every cutoff c, rows grouped by query. Each gain is
    divided by its discount and each query's terms summed nearly exactly
    (:func:`~ndcg_core._exact.segment_sums`: no BLAS, a sum within its rounding bound of 0
    is 0); rows with zero gain add nothing and are dropped."""
    nz = gains != 0
    if None not in cutoffs:  # ranks below the largest cutoff never count
        nz &= ranks <= max(cutoffs)
    q, ranks, gains = q[nz], ranks[nz], gains[nz]
    maxrank = int(ranks.max()) if ranks.size else 1
    with np.errstate(over="ignore", invalid="ignore"):
        w = gains / denominators(maxrank, discount, base)[ranks - 1]
    high, low = split_terms(q, w, nq)  # split once: valid for every cutoff's subset
    size = np.abs(w)
    out = {}
    for c in cutoffs:
        if c is None or c >= maxrank:
            out[c] = segment_sums(q, high, low, size, nq)
        else:
            keep = np.flatnonzero(ranks <= c)  # rows stay grouped by query
            out[c] = segment_sums(q[keep], high[keep], low[keep], size[keep], nq)
    return out


def _ideal_at(q, gains, cutoffs, nq, discount, base):
    """(IDCG@c, Σ|term|) per query: the DCG of each query's gains sorted descending, each
    divided by its own discount as in :func:`_dcg_at` (a ranking in the ideal order sums
    the very same terms as its ideal).

    Gains usually take a handful of values, so no row sort is needed: count the items of
    each gain level per query; the ideal lists the levels best first, each repeated its
    count, and only up to the largest cutoff.
    """
    codes, levels = pd.factorize(gains)
    n_levels = len(levels)
    if n_levels > 64 or nq * n_levels > 20_000_000:
        order = _sort_rows(q, gains)
        qs = q[order]
        return _dcg_at(qs, _group_ranks(qs), gains[order], cutoffs, nq, discount, base)
    if n_levels == 0:
        return {c: (np.zeros(nq), np.zeros(nq)) for c in cutoffs}
    by_gain = np.argsort(-levels, kind="stable")
    level_of = np.empty(n_levels, np.int64)
    level_of[by_gain] = np.arange(n_levels)
    counts = np.bincount(q.astype(np.int64) * n_levels + level_of[codes],
                         minlength=nq * n_levels).reshape(nq, n_levels)
    if None not in cutoffs:  # ranks below the largest cutoff never count
        deepest = max(cutoffs)
        ends = np.minimum(np.cumsum(counts, axis=1), deepest)
        counts = np.diff(ends, axis=1, prepend=0)
    level_gain = np.asarray(levels, dtype=np.float64)[by_gain]
    flat = counts.ravel()
    gains_seq = np.repeat(np.tile(level_gain, nq), flat)
    qs = np.repeat(np.arange(nq, dtype=np.int32 if nq < 2**31 else np.int64),
                   counts.sum(axis=1))
    return _dcg_at(qs, _group_ranks(qs), gains_seq, cutoffs, nq, discount, base)


def _ndcg_of(d, i, zero_value):
    """NDCG per query from (DCG, Σ|term|) and (IDCG, Σ|term|): the zero-IDCG rule where
    IDCG <= 0, exactly 1 where DCG equals IDCG within the rounding bound of their terms."""
    (d, dsize), (i, isize) = d, i
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(i > 0, d / np.where(i > 0, i, 1.0), zero_value)
    return np.where((i > 0) & (np.abs(d - i) <= ZERO_BOUND * (dsize + isize)), 1.0, v)


def _tie_means(grp, g):
    """Each row's mean gain over its tie group (group numbers 0, 1, ... in row order); a
    group of equal gains keeps its gain exactly (a mean of equal values may round)."""
    if not g.size:
        return g
    counts = np.bincount(grp)
    first = np.cumsum(counts) - counts  # each group's first row
    lead = g[first]
    uneven = np.bincount(grp, g != lead[grp], minlength=counts.size)
    means = np.where(uneven == 0, lead, np.bincount(grp, g, minlength=counts.size) / counts)
    return means[grp]


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
        if st["fractional"] == "truncate" and qrels.attrs.get(ATOL_GRADES):
            grades = _atol_grades(grades, qrels)
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
        # number of them alive at once.
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
            ranked = _tie_means(self.tie_groups(), g)
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
            if not (np.isfinite(dcgs[c][0]).all() and np.isfinite(idcgs[c][0]).all()
                    and np.isfinite(dcgs[c][1]).all() and np.isfinite(idcgs[c][1]).all()):
                raise ValueError(OVERFLOW)
        # ln(i + 1) = ln 2 · log2(i + 1): the base cancels, so the ratio and its rules come
        # from the log2 sums and every log base gives the very same NDCG
        same = dcgs, idcgs
        if discount == "ln":
            same = (_dcg_at(self.q, self.ranks, ranked, cutoffs, self.nq, "log2", base),
                    _ideal_at(iq, ig, cutoffs, self.nq, "log2", base))
        zero_value = ZERO_IDCG_VALUES[st["zero_idcg"]]
        # a judged query absent from the run (missing='zero') is an empty ranking: 0 when
        # its judgments hold something to find, else the all-zero rule (NaN stays NaN)
        findable = np.bincount(self.jq, weights=(self.judged_gain > 0).astype(float),
                               minlength=self.nq) > 0
        absent = np.where(findable, 0.0, zero_value)
        ndcgs = {}
        for c in cutoffs:
            v = _ndcg_of(same[0][c], same[1][c], zero_value)
            ndcgs[c] = np.where(self.in_run, v, absent)
        dcgs = {c: v[0] for c, v in dcgs.items()}
        idcgs = {c: v[0] for c, v in idcgs.items()}
        evaluated = self.judged_q & (self.in_run | (missing == "zero"))
        return ndcgs, dcgs, idcgs, evaluated

    def frame(self, columns, evaluated, missing):
        out = pd.DataFrame(columns, index=pd.Index(self.quniq[evaluated].astype(object),
                                                   name="qid"))
        out.attrs["unjudged_queries"] = list(self.quniq[self.in_run & ~self.judged_q])
        out.attrs["missing_queries"] = list(self.quniq[self.judged_q & ~self.in_run])
        return out
