"""The flip finder of the gain lesson: two orderings of the same grades that linear and
exponential gain rank oppositely. Rendered by ``pages/gain.py`` (each flip by
``ui/learn.py``); prose in ``assets/lessons/03_gain.md``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

import ndcg_core as nc
from lab.i18n import t

GAIN = "03_gain"


EXHAUSTIVE_LIMIT = 5040  # every ordering of 7 distinct items
SAMPLES = 3000
_EPS = 1e-12


@dataclass(frozen=True)
class Flip:
    """Two orderings of the same items, linear gain preferring ``a`` and exponential ``b``;
    or, when none exists or none was found, ``a is None`` and ``reason`` says why."""

    k: int
    searched: int = 0
    exhaustive: bool = True
    a: tuple | None = None
    b: tuple | None = None
    ndcg: dict | None = None  # {"a": (linear, exponential), "b": (...)}
    reason: str | None = None


def _count_sequences(counts, k, cap):
    """How many distinct sequences of k grades the multiset gives (saturating at ``cap``)."""
    ways = [1] + [0] * k  # ways[m]: sequences of length m from the values seen so far
    for c in counts:
        ways = [min(cap, sum(ways[m - j] * math.comb(m, j) for j in range(min(c, m) + 1)))
                for m in range(k + 1)]
    return ways[k]


def _distinct_prefixes(grades, k, limit):
    """Every distinct sequence of k grades drawn from the multiset, best-first; None when
    there are more than ``limit``."""
    counts = Counter(grades)
    if _count_sequences(counts.values(), k, limit + 1) > limit:
        return None
    values = sorted(counts, reverse=True)
    out, seq = [], []

    def walk():
        if len(seq) == k:
            out.append(tuple(seq))
            return
        for v in values:
            if counts[v]:
                counts[v] -= 1
                seq.append(v)
                walk()
                seq.pop()
                counts[v] += 1

    walk()
    return out


def _sampled_prefixes(grades, k, seed, samples):
    rng = np.random.default_rng(seed)
    g = np.asarray(grades, dtype=float)
    seen = {tuple(sorted(grades, reverse=True)[:k]), tuple(sorted(grades)[:k])}
    for _ in range(samples):
        seen.add(tuple(g[rng.permutation(g.size)[:k]].tolist()))
    return sorted(seen, reverse=True)


def _complete(prefix, grades):
    """A full ordering: the prefix, then the remaining grades best-first (past k they do not
    count; sorting them makes the answer depend on the grades only, not on their order)."""
    rest = Counter(grades)
    rest.subtract(prefix)
    return tuple(prefix) + tuple(sorted(rest.elements(), reverse=True))


def find_flip(grades, k=None, *, ideal=None, seed=0, limit=EXHAUSTIVE_LIMIT,
              samples=SAMPLES) -> Flip:
    """Search two orderings of ``grades`` that linear and exponential gain rank oppositely
    at cutoff ``k``: NDCG@k(A) > NDCG@k(B) under linear gain, the reverse under 2^rel − 1.

    Every distinct top-k sequence is tried when there are at most ``limit`` (so always for
    n ≤ 7), otherwise a seeded random sample. Of all flipping pairs the one whose smaller
    margin is largest is returned. ``ideal`` is the judged pool the ideal comes from (as in
    ``ndcg_core.ndcg``). Raises ValueError for grades the engine refuses.
    """
    grades = [float(g) for g in grades]
    n = len(grades)
    kk = n if k is None else max(1, min(int(k), n))
    idcg = {g: nc.idcg(ideal or grades, k=kk, gain=g) for g in ("linear", "exponential")}
    if kk == 1:
        return Flip(kk, reason="k1")
    if min(idcg.values()) <= 0:
        return Flip(kk, reason="no-positive")
    values = np.unique(grades)
    gain = {g: nc.dcg_table(values, gain=g)["gain"].to_numpy() for g in idcg}
    ratios = [e / v for v, e in zip(values, gain["exponential"]) if v != 0]
    if len(ratios) <= 1 or max(ratios) - min(ratios) < _EPS * max(ratios):
        # exponential gain is a fixed multiple of linear gain on these grades
        return Flip(kk, reason="proportional")
    prefixes = _distinct_prefixes(grades, kk, limit)
    exhaustive = prefixes is not None
    if not exhaustive:
        prefixes = _sampled_prefixes(grades, kk, seed, samples)
    w = 1.0 / nc.dcg_table([0] * kk)["discount"].to_numpy()
    seqs = np.searchsorted(values, np.asarray(prefixes))
    lin, exp = ((gain[g][seqs] @ w) / idcg[g] for g in idcg)
    best, pair = 0.0, None
    for start in range(0, len(prefixes), 400):
        a = slice(start, start + 400)
        margin = np.minimum(lin[a, None] - lin[None, :], exp[None, :] - exp[a, None])
        i, j = np.unravel_index(np.argmax(margin), margin.shape)
        if margin[i, j] > best + _EPS:
            best, pair = float(margin[i, j]), (start + i, j)
    found = Flip(kk, len(prefixes), exhaustive,
                 reason="none-exhaustive" if exhaustive else "none-sampled")
    if pair is None:
        return found
    a, b = (_complete(prefixes[i], grades) for i in pair)
    scores = {name: tuple(nc.ndcg(list(order), k=kk, gain=g, ideal=ideal) for g in idcg)
              for name, order in (("a", a), ("b", b))}
    if not (scores["a"][0] > scores["b"][0] and scores["a"][1] < scores["b"][1]):
        return found
    return replace(found, a=a, b=b, ndcg=scores, reason=None)


def flip_reasons(lang: str) -> dict:
    """Why no flip is shown, per :attr:`Flip.reason`, in ``lang`` (``{searched}`` to fill)."""
    return {
        "k1": t("At k = 1 only the top item counts, and both gains rank grades in the same "
                "order, so they always agree.", lang),
        "no-positive": t("No item has a positive grade, so the ideal DCG is 0 and every "
                         "ordering scores the same.", lang),
        "proportional": t("On these grades exponential gain is a fixed multiple of linear "
                          "gain (binary grades, or a single non-zero grade): every DCG scales "
                          "by the same factor, so the two gains can never disagree.", lang),
        "none-exhaustive": t("Every ordering was tried ({searched} distinct top-k sequences) "
                             "and the two gains agreed on every pair.", lang),
        "none-sampled": t("No flip among {searched} orderings sampled with seed 0; with more "
                          "items one may still exist.", lang),
    }


FLIP_REASONS = flip_reasons("en")


def arrange(labels, grades, order):
    """The labels of the items put in the grade ``order`` (equal grades keep their order)."""
    left = list(zip(labels, grades))
    out = []
    for g in order:
        i = next(i for i, (_, h) in enumerate(left) if h is not None and float(h) == g)
        out.append(left.pop(i)[0])
    return out


