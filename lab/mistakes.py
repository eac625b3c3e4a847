"""Common NDCG mistakes, each one a real tool's bug: the catalogue and its numbers.

Every mistake is a :class:`Mistake` record: a stable ``key``, a one-line ``name``, ``what``
it does, the real ``case`` that had it (project and issue number), and ``value``, which
computes the mistaken NDCG@k of a ranking. The numbers come from ``ndcg_core``: through its
options where one exists (``ideal``, ``zero_idcg``, ``discount``, ``gain``, ``negative``),
arithmetic on its ``dcg`` where none does. No Streamlit here: the lesson page, the
exercises' checker and the class mode's multiple-choice options read the same records.

A ranking is given as grades in rank order, plus the judged grades of documents it did not
retrieve (``unretrieved``), from which the right ideal is built. The right NDCG@k
(:func:`right_value`) uses every judged grade for the ideal, cut at k; a negative grade
counts as 0 (trec_eval); a query whose IDCG is 0 has no NDCG (NaN: left out of means).

>>> right_value([3, 2, 3, 0, 1, 2], k=4, gain="linear")  # doctest: +ELLIPSIS
0.853...
>>> # 5.7619 / 6.7541 above; with judged D7 = 3 and D8 = 2 (Wikipedia's example) never found:
>>> round(right_value([3, 2, 3, 0, 1, 2], k=6, gain="linear", unretrieved=(3, 2)), 3)
0.785
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import ndcg_core as nc
from lab import mistakes_text as text

__all__ = ["Mistake", "CATALOGUE", "KEYS", "RUNNING", "mistaken_values", "right_value",
           "mean_values", "name", "what", "case", "distinct_mistakes", "matching", "example",
           "figures", "mistake"]

TOLERANCE = 0.001  # the exercises' tolerance (lab.exercises.TOLERANCE)


def _pool(grades, unretrieved):
    """Every judged grade of the query: the retrieved ones, then those never retrieved."""
    return [*grades, *unretrieved]


def _kw(grades, unretrieved, gain):
    """The right convention's keywords for ``nc.ndcg``."""
    return dict(gain=gain, ideal=_pool(grades, unretrieved) if len(unretrieved) else None,
                zero_idcg="nan", negative="zero")


def right_value(grades, *, k, gain="linear", unretrieved=()) -> float:
    """The right NDCG@k: the ideal from every judged grade, cut at k; NaN when IDCG@k is 0.

    mlflow #24541's case: one document retrieved, relevant, four more relevant never found:

    >>> round(right_value([1], k=5, gain="linear", unretrieved=(1, 1, 1, 1)), 4)
    0.3392
    >>> # 1 / (1 + 1/log2(3) + 1/log2(4) + 1/log2(5) + 1/log2(6)) = 1 / 2.9485
    """
    return nc.ndcg(grades, k=k, **_kw(grades, unretrieved, gain))


def _parts(grades, k, gain, unretrieved):
    return nc.ndcg_parts(grades, k=k, **_kw(grades, unretrieved, gain))


def _ratio(top: float, bottom: float, when_zero: float = math.nan) -> float:
    return top / bottom if bottom > 0 else when_zero


def _sorted_ideal(grades, unretrieved):
    """The judged grades, best first, negatives counted as 0 (the right ideal's grades)."""
    return sorted((max(float(g), 0.0) for g in _pool(grades, unretrieved)), reverse=True)


# ---------------------------------------------------------------- the mistaken numbers

def _retrieved_ideal(grades, k, gain, unretrieved):
    """Ideal from the ranking's own grades: ndcg_core's ``ideal=None``; a list without a
    relevant item scores 0, as scikit-learn scores it."""
    return nc.ndcg(grades, k=k, **{**_kw(grades, (), gain), "zero_idcg": "zero"})


def _short_ideal(grades, k, gain, unretrieved):
    """NDCG@min(k, n): both sides cut at the list's length n (mlflow's k=len(retrieved))."""
    return right_value(grades, k=min(k, len(grades)), gain=gain, unretrieved=unretrieved)


def _cutoff_ignored(grades, k, gain, unretrieved):
    """DCG of the whole list over IDCG@k.

    >>> round(_cutoff_ignored([5, 4, 3], 2, "linear", ()), 4)   # lenskit #309, ratings 5, 4, 3
    1.1994
    >>> # (5 + 4/log2(3) + 3/2) / (5 + 4/log2(3)) = 9.0237 / 7.5237; lenskit's discount
    >>> # log2(max(i, 2)) gives (5 + 4/1 + 3/log2(3)) / (5 + 4) = 10.893 / 9 = 1.21
    """
    return _ratio(nc.dcg(grades, gain=gain, negative="zero"),
                  _parts(grades, k, gain, unretrieved).idcg)


def _discount_offset(grades, k, gain, unretrieved):
    """Discount max(1, log2(i)): ndcg_core's ``discount='jarvelin'`` with b = 2.

    >>> round(_discount_offset([0, 1, 0], 3, "linear", ()), 4)   # 1/log2(2) over 1/1
    1.0
    """
    return nc.ndcg(grades, k=k, discount="jarvelin", base=2, **_kw(grades, unretrieved, gain))


def _rank_from_zero(grades, k, gain, unretrieved):
    """Rank i divided by log2(i + 2): every item one place lower, a 0 put in front.

    >>> round(_rank_from_zero([0, 1], 2, "linear", ()), 4)   # (1/log2(4)) / (1/log2(3))
    0.7925
    """
    top = nc.dcg([0, *grades], k=k + 1, gain=gain, negative="zero")
    bottom = nc.dcg([0, *_sorted_ideal(grades, unretrieved)], k=k + 1, gain=gain)
    return _ratio(top, bottom)


def _natural_log_dcg(grades, k, gain, unretrieved):
    """DCG with ln(i + 1) over IDCG with log2(i + 1): the right NDCG times 1/ln 2.

    >>> round(_natural_log_dcg([1], 1, "linear", ()), 4)   # (1/ln 2) / (1/log2 2)
    1.4427
    """
    return _ratio(nc.dcg(grades, k=k, gain=gain, discount="ln", negative="zero"),
                  _parts(grades, k, gain, unretrieved).idcg)


def _numerator_one(grades, k, gain, unretrieved):
    """Gain 1 for every positive grade: ndcg_core's ``gain=`` as a mapping grade -> 0 or 1.

    >>> round(_numerator_one([1, 3], 2, "linear", ()), 4)   # (1 + 1/log2(3)) / (1 + 1/log2(3))
    1.0
    """
    ones = {_grade_key(g): (1 if g > 0 else 0) for g in [0, *_pool(grades, unretrieved)]}
    return right_value(grades, k=k, gain=ones, unretrieved=unretrieved)


def _grade_key(g):
    g = max(float(g), 0.0)  # negative='zero' turns a negative grade into 0 before its gain
    return int(g) if g.is_integer() else g


def _linear_for_exponential(grades, k, gain, unretrieved):
    return right_value(grades, k=k, gain="linear", unretrieved=unretrieved)


def _exponential_for_linear(grades, k, gain, unretrieved):
    return right_value(grades, k=k, gain="exponential", unretrieved=unretrieved)


def _negative_grades(grades, k, gain, unretrieved):
    """Negatives kept in DCG and in the ideal, 0 when that IDCG is 0 (scikit-learn 0.22).

    >>> round(_negative_grades([-0.47, 0.39, -0.53, 0.56, -0.89], 5, "linear", ()), 2)
    396.03
    >>> # scikit-learn #17639: (-0.47 + 0.39/log2(3) - 0.53/2 + 0.56/log2(5) - 0.89/log2(6))
    >>> #                    / (0.56 + 0.39/log2(3) - 0.47/2 - 0.53/log2(5) - 0.89/log2(6))
    """
    top = nc.dcg(grades, k=k, gain=gain, negative="keep")
    bottom = nc.dcg(sorted(_pool(grades, unretrieved), reverse=True), k=k, gain=gain,
                    negative="keep")
    return top / bottom if bottom != 0 else 0.0


def _zero_query_one(grades, k, gain, unretrieved):
    """ndcg_core's ``zero_idcg='one'`` (LightGBM, XGBoost's ``ndcg``)."""
    return nc.ndcg(grades, k=k, **{**_kw(grades, unretrieved, gain), "zero_idcg": "one"})


def _zero_query_averaged(grades, k, gain, unretrieved):
    """ndcg_core's ``zero_idcg='zero'`` (scikit-learn, XGBoost's ``ndcg-``)."""
    return nc.ndcg(grades, k=k, **{**_kw(grades, unretrieved, gain), "zero_idcg": "zero"})


@dataclass(frozen=True)
class Mistake:
    """One catalogued mistake. ``value(grades, k, gain, unretrieved)`` is its NDCG@k of a
    ranking (:func:`example` gives the settings that show it); ``per_query`` is False for a
    mistake that only shows in a mean over queries."""

    key: str
    name: str
    what: str
    case: str
    value: Callable
    per_query: bool = True

    def mistaken(self, grades, *, k, gain="linear", unretrieved=()) -> float:
        """This mistake's NDCG@k of ``grades``."""
        return float(self.value(list(grades), k, gain, tuple(unretrieved)))


def _mixed_depths(grades, k, gain, unretrieved):
    return _short_ideal(grades, k, gain, unretrieved)


_FUNCTIONS = {
    "retrieved_ideal": _retrieved_ideal,
    "short_ideal": _short_ideal,
    "cutoff_ignored": _cutoff_ignored,
    "discount_offset": _discount_offset,
    "rank_from_zero": _rank_from_zero,
    "natural_log_dcg": _natural_log_dcg,
    "numerator_one": _numerator_one,
    "linear_for_exponential": _linear_for_exponential,
    "exponential_for_linear": _exponential_for_linear,
    "negative_grades": _negative_grades,
    "zero_query_one": _zero_query_one,
    "zero_query_averaged": _zero_query_averaged,
    "mixed_depths": _mixed_depths,   # seen in a mean over queries (mean_values)
}
_ENGLISH = (text.names("en"), text.whats("en"), text.cases("en"))
CATALOGUE: tuple[Mistake, ...] = tuple(
    Mistake(key, _ENGLISH[0][key], _ENGLISH[1][key], _ENGLISH[2][key], fn,
            per_query=key != "mixed_depths")
    for key, fn in _FUNCTIONS.items())
KEYS = tuple(m.key for m in CATALOGUE)
_BY_KEY = {m.key: m for m in CATALOGUE}

# The running example: Wikipedia's DCG example (document 000's ranking), D7 = 3 and D8 = 2
# judged but never retrieved, cut at k = 4, linear gain.
RUNNING = dict(grades=(3, 2, 3, 0, 1, 2), unretrieved=(3, 2), k=4, gain="linear")


_EXAMPLES = {  # the running example changed only where a mistake needs it to show
    "short_ideal": dict(k=8),
    "linear_for_exponential": dict(gain="exponential"),
    "negative_grades": dict(grades=(3, 2, 3, -1, 1, 2)),   # rank 4 graded -1
    "zero_query_one": dict(queries=(((0, 0, 0, 0), ()),)),
    "zero_query_averaged": dict(queries=(((0, 0, 0, 0), ()),)),
    "mixed_depths": dict(k=8, queries=(((2, 0), (2, 1)),)),
}


def example(key: str) -> dict:
    """The settings that show mistake ``key``: ``grades``, ``unretrieved``, ``k``, ``gain``,
    and for a mistake seen in a mean, ``queries``: the running example and the others.

    >>> example("short_ideal")["k"], example("zero_query_one")["queries"][1]
    (8, ((0, 0, 0, 0), ()))
    """
    mistake(key)
    out = {**RUNNING, **_EXAMPLES.get(key, {})}
    if "queries" in out:
        out["queries"] = ((out["grades"], out["unretrieved"]), *out["queries"])
    return out


def figures(key: str) -> tuple[float, float]:
    """(right, mistaken) on the example of ``key``: NDCG@k, or the mean over its queries."""
    ex = example(key)
    if "queries" in ex:
        means = mean_values(ex["queries"], k=ex["k"], gain=ex["gain"])
        return means["right"], means[key]
    kw = dict(k=ex["k"], gain=ex["gain"], unretrieved=ex["unretrieved"])
    return right_value(ex["grades"], **kw), mistake(key).mistaken(ex["grades"], **kw)


def mistake(key: str) -> Mistake:
    if key not in _BY_KEY:
        raise ValueError(f"no mistake {key!r}: the catalogue has {', '.join(KEYS)}.")
    return _BY_KEY[key]


def name(key: str, lang: str = "en") -> str:
    """The mistake's one-line name in ``lang``."""
    mistake(key)
    return text.names(lang)[key]


def what(key: str, lang: str = "en") -> str:
    """What the mistake does, one sentence in ``lang``."""
    mistake(key)
    return text.whats(lang)[key]


def case(key: str, lang: str = "en") -> str:
    """The real case that had the mistake, in ``lang``."""
    mistake(key)
    return text.cases(lang)[key]


def mistaken_values(grades, *, k, gain="linear", unretrieved=()) -> dict[str, float]:
    """Each per-query mistake's NDCG@k of ``grades`` (rank order), by key.

    Running example, linear gain, k = 4, D7 = 3 and D8 = 2 never retrieved; the right
    NDCG@4 is 5.7619 / IDCG@4 of [3, 3, 3, 2] = 5.7619 / 7.2542 = 0.7943:

    >>> v = mistaken_values([3, 2, 3, 0, 1, 2], k=4, unretrieved=(3, 2))
    >>> round(v["retrieved_ideal"], 4)   # 5.7619 / (3 + 3/log2(3) + 2/2 + 2/log2(5))
    0.8531
    >>> round(v["cutoff_ignored"], 4)    # (5.7619 + 1/log2(6) + 2/log2(7)) / 7.2542
    0.9458
    """
    grades, unretrieved = list(grades), tuple(unretrieved)
    return {m.key: m.mistaken(grades, k=k, gain=gain, unretrieved=unretrieved)
            for m in CATALOGUE if m.per_query}


def mean_values(queries, *, k, gain="linear") -> dict[str, float]:
    """The mean NDCG@k over ``queries`` ((grades, unretrieved) pairs), right and mistaken.

    ``right``: each query's right value, queries without a relevant document (NaN) left
    out (NaN if every query is such); ``zero_query_averaged``/``zero_query_one``: those
    scored 0/1 and kept; ``mixed_depths``: each query cut at its own length.

    >>> m = mean_values([([1, 1, 0], ()), ([0, 0, 0], ())], k=3)   # scikit-learn #29521
    >>> m["right"], m["zero_query_averaged"], m["zero_query_one"]
    (1.0, 0.5, 1.0)
    """
    queries = [(list(g), tuple(u)) for g, u in queries]
    if not queries:
        raise ValueError("no queries given: a mean needs at least one.")

    def mean(values, skip_nan=False):
        values = [v for v in values if not (skip_nan and math.isnan(v))]
        return sum(values) / len(values) if values else math.nan

    out = {"right": mean([right_value(g, k=k, gain=gain, unretrieved=u) for g, u in queries],
                         skip_nan=True)}
    for key in ("zero_query_averaged", "zero_query_one", "mixed_depths"):
        out[key] = mean([mistake(key).mistaken(g, k=k, gain=gain, unretrieved=u)
                         for g, u in queries], skip_nan=key == "mixed_depths")
    return out


def _apart(a: float, b: float, tolerance: float) -> bool:
    """Two numbers an answer checked to ±tolerance can tell apart (NaN differs from any
    number and equals NaN)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) != math.isnan(b)
    return abs(a - b) > tolerance + 1e-9


def distinct_mistakes(grades, *, k, gain="linear", unretrieved=(),
                      tolerance: float = TOLERANCE) -> dict[str, float]:
    """The mistakes whose numbers differ from the right one and from each other by more
    than ``tolerance`` (twice it between two mistakes, so no answer sits within the
    tolerance of both): the options of an unambiguous "spot the mistake" question.

    A mistake whose number equals another's is left out with it (neither is named).
    """
    right = right_value(grades, k=k, gain=gain, unretrieved=unretrieved)
    values = {key: v for key, v in mistaken_values(grades, k=k, gain=gain,
                                                   unretrieved=unretrieved).items()
              if math.isfinite(v)}
    # apart from every other mistake's number, also those too close to the right one to be
    # offered themselves (else an answer could match the option and that one)
    return {key: v for key, v in values.items() if _apart(v, right, 2 * tolerance)
            and all(_apart(v, w, 2 * tolerance) for other, w in values.items() if other != key)}


def matching(answer: float, grades, *, k, gain="linear", unretrieved=(),
             tolerance: float = TOLERANCE) -> list[str]:
    """Keys of the mistakes whose number ``answer`` equals within ``tolerance`` while it
    is not the right number: what the checker names. Empty when the answer is right.

    >>> matching(0.853, [3, 2, 3, 0, 1, 2], k=4, unretrieved=(3, 2))
    ['retrieved_ideal']
    """
    right = right_value(grades, k=k, gain=gain, unretrieved=unretrieved)
    if not _apart(answer, right, tolerance):
        return []
    return [key for key, v in mistaken_values(grades, k=k, gain=gain,
                                              unretrieved=unretrieved).items()
            if math.isfinite(v) and not _apart(answer, v, tolerance)]
