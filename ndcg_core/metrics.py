"""DCG, IDCG, NDCG and the comparison metrics, for one ranked list.

Formulas
--------
DCG@k = sum_{i=1..k} gain(rel_i) / d(i), with

* gain(rel) = rel (linear; Järvelin & Kekäläinen 2002) or 2^rel − 1 (exponential;
  Burges et al. 2005), or any mapping grade -> gain;
* d(i) = log2(i + 1) (the usual discount), ln(i + 1) (same NDCG: the base cancels), or
  Järvelin & Kekäläinen's original: 1 for i < b, log_b(i) from rank b on.

IDCG@k is the DCG@k of the ideal ordering (gains sorted descending) of the judged pool,
and NDCG@k = DCG@k / IDCG@k.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ._exact import ZERO_BOUND, dcg_sum as _dcg_sum, ndcg_ratio as _ratio, prefix_sums
from ._ranx import ranx_order
from ._checks import OVERFLOW, apply_negative, as_numbers, check_k, denominators, gains_of
from .options import ZERO_IDCG_VALUES, check_option

__all__ = [
    "dcg", "idcg", "ndcg", "ndcg_parts", "NDCGParts", "dcg_table", "ideal_table", "ndcg_curve",
    "cg", "precision_at_k", "reciprocal_rank", "mean_reciprocal_rank", "average_precision",
]


def _zero_idcg_value(rule: str) -> float:
    return ZERO_IDCG_VALUES[rule]


def _prepare(relevance, gain, negative, name="relevance"):
    raw = as_numbers(relevance, name)
    grades = apply_negative(raw, negative, name)
    gains = gains_of(grades, gain, name)
    if negative == "zero" and (raw < 0).any():
        # trec_eval: a negative grade gains nothing, whatever a gain map gives grade 0
        gains = np.where(raw < 0, 0.0, gains)
    return grades, gains


def _rank(gains, scores, ties, docids):
    """Order items by score (descending) and resolve ties.

    Returns ``(order, ranked_gains)``; with ``ties='average'`` every tied item carries the mean
    gain of its tie group, which makes DCG the expected DCG over all orders of the tie
    (McSherry & Najork 2008, as scikit-learn's ``_tie_averaged_dcg``).
    """
    n = gains.size
    if scores is None:
        return np.arange(n), gains
    ties = check_option("ties", ties)
    s = as_numbers(scores, "scores")
    if s.size != n:
        raise ValueError(
            f"scores has {s.size} values but relevance has {n}: give one score per item."
        )
    if ties == "docid":
        if docids is None:
            raise ValueError("ties='docid' needs docids=[...], one id per item.")
        ids = np.asarray([str(d) for d in docids], dtype=object)
        if ids.size != n:
            raise ValueError(f"docids has {ids.size} ids but relevance has {n}.")
        codes = pd.factorize(ids, sort=True)[0]
        order = np.lexsort((-codes, -s))  # trec_eval: score desc, then doc id desc
    elif ties == "optimistic":
        order = np.lexsort((-gains, -s))
    elif ties == "pessimistic":
        order = np.lexsort((gains, -s))
    elif ties == "ranx":
        order = ranx_order(s)  # numba's quicksort: stable up to 15 items only
    else:
        order = np.argsort(-s, kind="stable")
    ranked = gains[order]
    if ties == "average":
        ss = s[order]
        starts = np.flatnonzero(np.r_[True, ss[1:] != ss[:-1]])
        sizes = np.diff(np.r_[starts, n])
        low, high = np.minimum.reduceat(ranked, starts), np.maximum.reduceat(ranked, starts)
        # a tie among equal gains keeps its gain exactly (a mean of equal values may not)
        ranked = np.repeat(np.where(low == high, low, np.add.reduceat(ranked, starts) / sizes),
                           sizes)
    return order, ranked


def _dcg_of(ranked_gains, k, discount, base, shift=0) -> float:
    return _dcg_sum(ranked_gains, k, discount, base, shift)[0]


def _ideal_gains(grades, gains, ideal, gain, negative, negative_ideal="drop"):
    if ideal is None:
        return np.sort(gains)[::-1]
    pool_grades, pool_gains = _prepare(ideal, gain, negative, "ideal")
    # every relevant item of the ranking must be in the judged pool, or NDCG could pass 1
    have = np.sort(grades[grades > 0])
    pool = np.sort(pool_grades[pool_grades > 0])
    vals, counts = np.unique(have, return_counts=True)
    pvals, pcounts = np.unique(pool, return_counts=True)
    pc = dict(zip(pvals.tolist(), pcounts.tolist()))
    for v, c in zip(vals.tolist(), counts.tolist()):
        if pc.get(v, 0) < c:
            raise ValueError(
                f"ideal holds {pc.get(v, 0)} item(s) of grade {v:g} but the ranking has {c}: "
                "the ideal pool must contain every graded item of the ranking plus the judged "
                "items that were not retrieved."
            )
    # An ideal ranker drawing on a judged pool retrieves only items that help: negative
    # gains (negative='keep') never enter it, so NDCG stays <= 1 for a short ranking too
    # (unless negative_ideal='keep' reproduces scikit-learn 0.22, which sorted them in).
    if check_option("negative_ideal", negative_ideal) == "keep":
        return np.sort(pool_gains)[::-1]
    return np.sort(np.maximum(pool_gains, 0.0))[::-1]


def dcg(relevance, *, k=None, gain="linear", discount="log2", base=2, scores=None,
        ties="average", docids=None, negative="keep", shift=0) -> float:
    """Discounted cumulative gain of a ranked list.

    Parameters
    ----------
    relevance : sequence of numbers
        Grades in ranked order (position 1 first); with ``scores``, one grade per item in any
        order.
    k : int or None, keyword-only
        Cutoff: only positions 1..k count. None (default) or k > n uses the whole list.
    gain : {'linear', 'exponential'} or mapping
        ``rel`` (Järvelin & Kekäläinen 2002) or ``2**rel - 1`` (Burges et al. 2005), or a
        mapping grade -> gain.
    discount : {'log2', 'ln', 'jarvelin'}
        Denominator ``log2(i + 1)``, ``ln(i + 1)``, or 1 for ``i < base`` then
        ``log_base(i)``.
    base : float
        Base ``b`` of the 'jarvelin' discount (default 2).
    scores : sequence of numbers, optional
        Rank the items by these scores, descending, instead of taking ``relevance`` as ranked.
    ties : {'average', 'docid', 'input', 'ranx', 'optimistic', 'pessimistic'}
        How equal scores are ordered (see ``ndcg_core.OPTIONS['ties']``).
    docids : sequence of str, optional
        Document ids, needed by ``ties='docid'`` (doc id descending, as trec_eval).
    negative : {'keep', 'zero', 'error'}
        Negative grades used as written, counted as 0, or refused.
    shift : {0, 1}
        Ranks moved down this many places before the discount: 1 divides rank i by
        ``log2(i + 2)``, a formula written for ranks counted from 0 given ranks counted
        from 1 (a mistake; see ``ndcg_core.MISTAKE_OPTIONS``).

    Returns
    -------
    float

    Examples
    --------
    Document 000's ranking, linear gain:

    >>> round(dcg([3, 2, 3, 0, 1, 2]), 4)   # 3/1 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7)
    6.8611
    >>> round(dcg([3, 2, 3, 0, 1, 2], k=4, gain="exponential"), 4)   # 7 + 3/1.585 + 7/2 + 0
    12.3928
    """
    _, gains = _prepare(relevance, gain, negative)
    _, ranked = _rank(gains, scores, ties, docids)
    return _dcg_of(ranked, k, discount, base, shift)


def idcg(relevance, *, k=None, gain="linear", discount="log2", base=2,
         negative="keep", shift=0) -> float:
    """Ideal DCG: the DCG@k of the judged pool ``relevance`` sorted by gain, descending.

    Takes the same keywords as :func:`dcg`.

    Examples
    --------
    >>> round(idcg([3, 2, 3, 0, 1, 2], k=4), 4)   # ideal [3, 3, 2, 2]: 3 + 3/1.585 + 2/2 + 2/2.322
    6.7541
    """
    _, gains = _prepare(relevance, gain, negative)
    return _dcg_of(np.sort(gains)[::-1], k, discount, base, shift)


class NDCGParts(NamedTuple):
    """DCG@k, IDCG@k and NDCG@k of one ranking, computed together (see :func:`ndcg_parts`)."""

    dcg: float
    idcg: float
    ndcg: float


def ndcg_parts(relevance, *, k=None, gain="linear", discount="log2", base=2, scores=None,
               ties="average", docids=None, ideal=None, zero_idcg="zero",
               negative="keep", shift=0, cut="both", ideal_discount=None,
               negative_ideal="drop") -> NDCGParts:
    """DCG@k, IDCG@k and NDCG@k in one call, the IDCG being the one :func:`ndcg` divides by.

    Takes the keywords of :func:`ndcg`. With a judged pool (``ideal``) holding negative
    grades, IDCG@k is not ``idcg(ideal)``: the ideal drawn from a pool leaves negative gains
    out, so show this IDCG next to an NDCG, never one recomputed from the grades.

    Examples
    --------
    >>> parts = ndcg_parts([2, -1, -1], k=3, ideal=[2, -1, -1, 1])
    >>> round(parts.dcg, 4)     # 2/1 - 1/log2(3) - 1/log2(4)
    0.8691
    >>> round(parts.idcg, 4)    # ideal [2, 1]: the -1s are left out; 2/1 + 1/log2(3)
    2.6309
    >>> round(parts.ndcg, 4)    # 0.8691 / 2.6309
    0.3303

    The options that reproduce published mistakes (``ndcg_core.MISTAKE_OPTIONS``; each
    default is the right convention):

    cut : {'both', 'ideal_only', 'list_length'}
        Where k applies: both sums (default); IDCG only, DCG summing the whole list
        (lenskit #309); or k above the list's length cut to it on both sides, so IDCG is
        summed over fewer than k items (mlflow #24541).
    shift : {0, 1}
        1: rank i divided by ``log2(i + 2)`` in DCG and IDCG (ranks counted from 0).
    ideal_discount : {None, 'log2', 'ln'}
        IDCG's discount when it is not DCG's: ``discount='ln', ideal_discount='log2'`` is
        DCG in natural logs over IDCG in log2 (Cohere's documentation #574).
    negative_ideal : {'drop', 'keep'}
        With ``negative='keep'``, 'keep' sorts negative gains into an ideal drawn from a
        pool too and divides by any IDCG that is not 0, negative included (scikit-learn
        0.22, #17639).

    >>> round(ndcg_parts([3, 2, 1], k=2, cut="ideal_only").ndcg, 4)  # 4.7619 / 4.2619
    1.1173
    >>> # (3 + 2/log2(3) + 1/2) / (3 + 2/log2(3)): DCG of all three, IDCG@2
    >>> ndcg_parts([1], k=5, ideal=[1, 1, 1], cut="list_length").ndcg   # 1/1 over 1/1
    1.0
    >>> round(ndcg_parts([0, 1], shift=1).ndcg, 4)            # (1/log2(4)) / (1/log2(3))
    0.7925
    >>> round(ndcg_parts([1], discount="ln", ideal_discount="log2").ndcg, 4)   # (1/ln 2) / 1
    1.4427
    >>> round(ndcg_parts([-2, 1], negative_ideal="keep").idcg, 4)   # 1/1 - 2/log2(3)
    -0.2619
    >>> round(ndcg_parts([-2, 1], negative_ideal="keep").ndcg, 3)   # -1.3691 / -0.2619
    5.228
    >>> # DCG = -2/1 + 1/log2(3): both negative, so the ratio is positive and far above 1
    """
    rule = check_option("zero_idcg", zero_idcg)
    cut = check_option("cut", cut)
    loose = check_option("negative_ideal", negative_ideal) == "keep"
    grades, gains = _prepare(relevance, gain, negative)
    _, ranked = _rank(gains, scores, ties, docids)
    ideal_gains = _ideal_gains(grades, gains, ideal, gain, negative, negative_ideal)
    kk = check_k(k)
    if cut == "list_length" and kk is not None:
        kk = min(kk, ranked.size)
    dk = None if cut == "ideal_only" else kk
    discount = check_option("discount", discount)
    ideal_discount = check_option("ideal_discount", ideal_discount) or discount
    actual, a_size = _dcg_sum(ranked, dk, discount, base, shift)
    best, b_size = _dcg_sum(ideal_gains, kk, ideal_discount, base, shift)
    if discount == ideal_discount == "ln":
        # ln(i + 1) = ln 2 · log2(i + 1): the base cancels, so the ratio and its rules are
        # taken from the log2 sums and every log base gives the very same NDCG
        actual2, a_size = _dcg_sum(ranked, dk, "log2", base, shift)
        best2, b_size = _dcg_sum(ideal_gains, kk, "log2", base, shift)
        actual, best = (actual if actual2 else 0.0), (best if best2 else 0.0)
        value = _ratio(actual2, best2, (a_size, b_size), _zero_idcg_value(rule), loose)
    else:
        value = _ratio(actual, best, (a_size, b_size), _zero_idcg_value(rule), loose)
    return NDCGParts(actual, best, value)


def ndcg(relevance, *, k=None, gain="linear", discount="log2", base=2, scores=None,
         ties="average", docids=None, ideal=None, zero_idcg="zero", negative="keep",
         shift=0, cut="both", ideal_discount=None, negative_ideal="drop") -> float:
    """Normalized DCG: DCG@k / IDCG@k.

    Takes the keywords of :func:`dcg`, the mistake options of :func:`ndcg_parts` (``cut``,
    ``ideal_discount``, ``negative_ideal``, ``shift``), and:

    ideal : sequence of numbers, optional
        The judged pool the ideal ordering is built from: every graded item of the ranking
        plus judged items that were not retrieved. None (default) builds the ideal from the
        ranking's own grades. An ideal drawn from a pool leaves negative gains out (an ideal
        ranker would not retrieve them); one built from the ranking keeps them, last.
    zero_idcg : {'zero', 'nan', 'one'} or 0.0 / nan / 1.0
        The value when IDCG@k ≤ 0 (no positive gain to find): 0 (scikit-learn, trec_eval),
        NaN (undefined: skipped in means) or 1 (LightGBM, XGBoost).

    With non-negative grades the result lies in [0, 1]. With ``negative='keep'`` it can be
    negative; with the mistake options at their defaults it never exceeds 1. :func:`ndcg_parts` returns DCG@k and IDCG@k with it.

    The rules are decided on exact sums: each gain is divided by its discount, the terms
    are summed exactly and rounded once, and a sum within ``8 · 2**-53 · Σ|gain / d(i)|``
    of 0 is 0, since the terms' rounding (at most 6 units of 2**-53 each) cannot tell it
    from 0 (:mod:`ndcg_core._exact`). So an ideal that cancels has IDCG 0 on every machine,
    DCG equal to IDCG within that bound gives exactly 1, and ``discount='ln'`` gives the
    very NDCG of ``'log2'``.

    Examples
    --------
    >>> round(ndcg([3, 2, 3, 0, 1, 2], k=4), 4)             # 5.7619 / 6.7541
    0.8531
    >>> ndcg([0, 2, 1], scores=[1.0, 1.0, 0.5], k=1)        # tie averaged: (0 + 2) / 2 / 2
    0.5
    >>> ndcg([-3, 0, 0, 0, 0, 0, 1])   # ideal [1, 0, ..., -3]: 1/1 - 3/log2(8) = 0, the rule
    0.0
    """
    return ndcg_parts(relevance, k=k, gain=gain, discount=discount, base=base, scores=scores,
                      ties=ties, docids=docids, ideal=ideal, zero_idcg=zero_idcg,
                      negative=negative, shift=shift, cut=cut, ideal_discount=ideal_discount,
                      negative_ideal=negative_ideal).ndcg


def dcg_table(relevance, *, k=None, gain="linear", discount="log2", base=2, labels=None,
              scores=None, ties="average", docids=None, negative="keep",
              shift=0) -> pd.DataFrame:
    """One row per position: how each item adds to DCG.

    Columns: ``position, label, relevance, gain, discount, contribution, cumulative_dcg,
    in_cutoff``. ``discount`` is the denominator (``log2(i + 1)`` by default) and
    ``contribution = gain / discount``; ``cumulative_dcg`` in row i is DCG@i, and
    ``in_cutoff`` marks the rows that count in DCG@k. Rounded to 3 decimals, the table for
    ``[3, 2, 3, 0, 1, 2]`` is document 000's first table.
    """
    grades, gains = _prepare(relevance, gain, negative)
    n = grades.size
    order, ranked = _rank(gains, scores, ties, docids)
    if labels is None:
        labels = [f"item {i + 1}" for i in range(n)]
    labels = list(labels)
    if len(labels) != n:
        raise ValueError(f"labels has {len(labels)} entries but relevance has {n}.")
    kk = check_k(k, n)
    den = denominators(n, discount, base, shift)
    with np.errstate(over="ignore", invalid="ignore"):
        contribution = ranked / den
    # each row's DCG@i summed exactly, as ndcg_parts sums it: the last in-cutoff row is
    # the DCG printed beside the table, to the last bit
    cumulative = prefix_sums(contribution)
    if not np.isfinite(cumulative).all():
        raise ValueError(OVERFLOW)
    return pd.DataFrame({
        "position": np.arange(1, n + 1),
        "label": [str(labels[i]) for i in order],
        "relevance": grades[order],
        "gain": ranked,
        "discount": den,
        "contribution": contribution,
        "cumulative_dcg": cumulative,
        "in_cutoff": np.arange(1, n + 1) <= kk,
    })


def ideal_table(relevance, *, k=None, gain="linear", discount="log2", base=2, labels=None,
                ideal=None, ideal_labels=None, negative="keep", shift=0,
                negative_ideal="drop") -> pd.DataFrame:
    """The DCG table of the ideal ordering :func:`ndcg` divides by (columns of :func:`dcg_table`).

    Without ``ideal`` it is the ranking's own items sorted by gain, best first (equal gains
    keep the ranking's order; ``labels`` follow their items). With a judged pool ``ideal``
    (validated as in :func:`ndcg`) it is the pool sorted by gain with negative gains left
    out, labelled by ``ideal_labels`` (one per pool grade; default ``judged 1``, ...). Its
    ``cumulative_dcg`` at row k is IDCG@k, as :func:`ndcg_parts` returns it (with the same
    ``shift`` and ``negative_ideal``; pass IDCG's own discount as ``discount``).

    Examples
    --------
    >>> t = ideal_table([1, 3, 2], labels=["Doc C", "Doc A", "Doc B"])
    >>> list(t["label"]), list(t["relevance"])
    (['Doc A', 'Doc B', 'Doc C'], [3.0, 2.0, 1.0])
    >>> round(float(t["cumulative_dcg"].iloc[-1]), 4)   # 3/1 + 2/log2(3) + 1/2
    4.7619
    """
    grades, gains = _prepare(relevance, gain, negative)
    n = grades.size
    labels = [f"item {i + 1}" for i in range(n)] if labels is None else list(labels)
    if len(labels) != n:
        raise ValueError(f"labels has {len(labels)} entries but relevance has {n}.")
    # the grades as written go to dcg_table, which gives each its gain as ndcg does: a
    # negative grade counted as 0 (negative='zero') gains 0, not a gain map's gain of 0
    if ideal is None:
        order = np.argsort(-gains, kind="stable")
        return dcg_table(as_numbers(relevance)[order], k=k, gain=gain, discount=discount,
                         base=base, labels=[labels[i] for i in order], negative=negative,
                         shift=shift)
    _ideal_gains(grades, gains, ideal, gain, negative)  # the pool must hold the ranking
    pool_grades, pool_gains = _prepare(ideal, gain, negative, "ideal")
    pool_raw = as_numbers(ideal, "ideal")
    names = ([f"judged {i + 1}" for i in range(pool_grades.size)] if ideal_labels is None
             else list(ideal_labels))
    if len(names) != pool_grades.size:
        raise ValueError(f"ideal_labels has {len(names)} entries but ideal has "
                         f"{pool_grades.size}.")
    keep = np.flatnonzero((pool_gains >= 0)
                          | (check_option("negative_ideal", negative_ideal) == "keep"))
    order = keep[np.argsort(-pool_gains[keep], kind="stable")]
    if order.size == 0:  # nothing an ideal ranker would retrieve: IDCG is 0
        return dcg_table([0.0], gain=gain).iloc[:0]
    return dcg_table(pool_raw[order], k=k, gain=gain, discount=discount, base=base,
                     labels=[names[i] for i in order], negative=negative, shift=shift)


def ndcg_curve(relevance, *, gain="linear", discount="log2", base=2, ideal=None, scores=None,
               ties="average", docids=None, zero_idcg="zero",
               negative="keep") -> pd.DataFrame:
    """DCG@k, IDCG@k and NDCG@k for every k = 1..n, as columns ``k, dcg, idcg, ndcg``."""
    rule = check_option("zero_idcg", zero_idcg)
    grades, gains = _prepare(relevance, gain, negative)
    n = grades.size
    _, ranked = _rank(gains, scores, ties, docids)
    ideal_gains = _ideal_gains(grades, gains, ideal, gain, negative)
    m = max(n, ideal_gains.size)
    discount = check_option("discount", discount)

    def curves(disc):
        den = denominators(m, disc, base)
        with np.errstate(over="ignore", invalid="ignore"):
            terms = ranked / den[:n], ideal_gains / den[:ideal_gains.size]
            sizes = np.cumsum(np.abs(terms[0])), np.cumsum(np.abs(terms[1]))
        d, ig = prefix_sums(terms[0]), prefix_sums(terms[1])
        pad = m - ig.size
        ig = np.r_[ig, np.full(pad, ig[-1])][:n]
        sizes = sizes[0], np.r_[sizes[1], np.full(pad, sizes[1][-1])][:n]
        if not (np.isfinite(d).all() and np.isfinite(ig).all()):
            raise ValueError(OVERFLOW)
        return d, ig, sizes

    d, ig, sizes = curves(discount)
    if discount == "ln":  # the base cancels: the ratio of the log2 sums, as ndcg_parts
        d2, ig2, sizes = curves("log2")
        d, ig = np.where(d2 == 0, 0.0, d), np.where(ig2 == 0, 0.0, ig)
    else:
        d2, ig2 = d, ig
    with np.errstate(divide="ignore", invalid="ignore"):
        nd = np.where(ig2 > 0, d2 / np.where(ig2 > 0, ig2, 1.0), _zero_idcg_value(rule))
    nd = np.where((ig2 > 0) & (np.abs(d2 - ig2) <= ZERO_BOUND * (sizes[0] + sizes[1])),
                  1.0, nd)
    return pd.DataFrame({"k": np.arange(1, n + 1), "dcg": d, "idcg": ig, "ndcg": nd})


# the comparison metrics live in other_metrics.py (imported at the end: it reads _prepare)
from .other_metrics import (  # noqa: E402
    average_precision, cg, mean_reciprocal_rank, precision_at_k, reciprocal_rank)
