"""NDCG for many queries at once, vectorized: no Python loop per query.

The public functions, their options and examples. The tables become integer arrays in
:mod:`ndcg_core._ids`; each query's ranking and its DCG are built in
:mod:`ndcg_core._ranking`.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ._checks import check_k
from ._ids import _ids
from ._ranking import _Ranking
from .options import CONVENTIONS, check_option

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
    return _evaluate_discounts(
        qrels, run, [(discount, base)], k=k, convention=convention, gain=gain, ties=ties,
        zero_idcg=zero_idcg, negative=negative, ideal_pool=ideal_pool,
        score_precision=score_precision, fractional=fractional, judged_only=judged_only,
        depth=depth, missing=missing, details=details)[0]


def _evaluate_discounts(qrels, run, discounts, *, k, convention, gain, ties, zero_idcg,
                        negative, ideal_pool, score_precision, fractional, judged_only, depth,
                        missing, details) -> list:
    """:func:`evaluate`'s frame under each ``(discount, base)`` of ``discounts``, the run
    ranked once: the discount only enters the sums, after the ranking (how
    :func:`~ndcg_core.choice_scores` weighs several discounts without ranking again)."""
    st = _settings(convention, dict(gain=gain, ties=ties, zero_idcg=zero_idcg,
                                    negative=negative, ideal_pool=ideal_pool,
                                    score_precision=score_precision, fractional=fractional))
    missing = check_option("missing", missing)
    judged_only = check_option("judged_only", judged_only)
    for discount, _ in discounts:
        check_option("discount", discount)
    cutoffs = _cutoffs(k)
    depth = _check_depth(depth)
    r = _Ranking(qrels, run, st, depth, judged_only, need_judged=False)
    frames = []
    for discount, base in discounts:
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
        frames.append(out)
    return frames


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
    return r.frame(_judged_columns(r, cutoffs, evaluated), evaluated, missing)


def _judged_columns(r, cutoffs, evaluated) -> dict:
    """{``judged@k``: Judged@k of the ``evaluated`` queries} for each cutoff of ranking ``r``."""
    n = np.bincount(r.q, minlength=r.nq)
    result = {}
    for c in cutoffs:
        # the judged rows in the top c counted per query (only their query codes are taken:
        # no float array of every row)
        hits = np.bincount(r.q[r.judged if c is None else r.judged & (r.ranks <= c)],
                           minlength=r.nq)
        shown = np.minimum(n, c) if c is not None else n
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(shown > 0, hits / np.maximum(shown, 1), np.nan)
        result["judged" if c is None else f"judged@{c}"] = value[evaluated]
    return result


def ndcg_bounds(qrels, run, *, k=(5, 10), convention="trec_eval", gain=None,
                discount="log2", base=2, ties=None, zero_idcg=None, negative=None,
                ideal_pool=None, score_precision=None, fractional=None, depth=None,
                missing="skip", judged=False) -> pd.DataFrame:
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
    judged : bool
        Also the ``judged@k`` columns :func:`judged_at_k` gives under the same keywords,
        from the same ranking (the run is read and ranked once, not twice).

    Returns
    -------
    DataFrame indexed by ``qid``, two columns per cutoff (with ``judged``, first the
    ``judged@k`` columns).

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
    result = _judged_columns(r, cutoffs, evaluated) if judged else {}
    # each query's top grade among its judged documents, and that grade's gain
    top_grade = np.full(r.nq, -np.inf)
    np.maximum.at(top_grade, r.jq[r.counts], r.grades[r.counts])
    top_gain = np.zeros(r.nq)
    best = r.counts & (r.grades == top_grade[r.jq])
    top_gain[r.jq[best]] = r.judged_gain[best]
    for c in cutoffs:
        promoted = ~r.judged
        if c is not None:
            promoted &= r.ranks <= c
        # the promoted rows' gains replaced in a copy: one more array of the run's rows, not
        # three (a large upload's peak)
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
