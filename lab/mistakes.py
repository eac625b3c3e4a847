"""Common NDCG mistakes, each one a real tool's bug: the catalogue and its numbers.

Every mistake is a :class:`Mistake` record: a stable ``key``, a one-line ``name``, ``what``
it does, the real ``case`` that had it (project and issue number), and ``value``, which
computes the mistaken NDCG@k of a ranking. The numbers come from ``ndcg_core``'s options,
each mistake being a setting of the playground (:data:`RULES`, :mod:`lab.rules`), so
*Open in playground* shows the same number (:func:`playground`). No Streamlit here: the lesson page, the
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
from lab import rules as R

__all__ = ["Mistake", "CATALOGUE", "KEYS", "RUNNING", "RULES", "GAINS", "mistaken_values",
           "right_value", "with_rules", "mean_values", "name", "what", "case",
           "distinct_mistakes", "matching", "example", "figures", "mistake", "playground",
           "playground_value", "recommenders_1749"]

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


# ---------------------------------------------------------------- the mistaken numbers

# Each per-query mistake is a setting of the playground (lab.rules), computed by ndcg_core's
# options; two are a gain where the other was meant. The right convention is Rules().
RULES = {
    "retrieved_ideal": R.Rules(ideal="retrieved", zero="zero"),  # as scikit-learn scores it
    "short_ideal": R.Rules(cut="list_length"),
    "cutoff_ignored": R.Rules(cut="ideal_only"),
    "discount_offset": R.Rules(discount="jarvelin"),
    "rank_from_zero": R.Rules(discount="shifted"),
    "natural_log_dcg": R.Rules(discount="ln_dcg"),
    "numerator_one": R.Rules(numerator="one"),
    "negative_grades": R.Rules(negative="through", zero="zero"),   # scikit-learn 0.22
    "zero_query_one": R.Rules(zero="one"),
    "zero_query_averaged": R.Rules(zero="zero"),
    "mixed_depths": R.Rules(cut="list_length"),
}
GAINS = {"linear_for_exponential": "linear", "exponential_for_linear": "exponential"}


def with_rules(grades, *, k, gain="linear", unretrieved=(), rules=R.RIGHT) -> float:
    """NDCG@k of ``grades`` under the playground's settings ``rules``, by ndcg_core (the
    playground computes exactly this): the ideal from every judged grade unless
    ``rules.ideal`` is "retrieved".

    recommenders #1749: Wikipedia's example at k = 6, every judged item counted 1, grade 0
    too (its DCG added 1/log(1 + rank) for every retrieved item the user had rated):

    >>> with_rules([3, 2, 3, 0, 1, 2], k=6, unretrieved=(3, 2), rules=R.Rules(numerator="one"))
    1.0
    >>> # (1/log2(2) + 1/log2(3) + ... + 1/log2(7)) / (1/log2(2) + ... + 1/log2(7)): 6 of 8 ones
    """
    grades, unretrieved = list(grades), list(unretrieved)
    pool = grades + unretrieved if unretrieved and rules.ideal == "judged" else None
    return nc.ndcg(grades, k=k, ideal=pool,
                   **R.engine_options(rules, gain, grades + unretrieved))


def _by_rules(key):
    def value(grades, k, gain, unretrieved):
        return with_rules(grades, k=k, gain=GAINS.get(key, gain), unretrieved=unretrieved,
                          rules=RULES.get(key, R.RIGHT))
    return value


def recommenders_1749(grades, k, unretrieved):
    """recommenders 1.1.0's ndcg_at_k written out: every retrieved item the user rated is a
    hit worth 1 / ln(1 + rank), grade 0 included; the ideal is min(rated, k) such hits.

    >>> recommenders_1749([3, 2, 3, 0, 1, 2], 6, (3, 2))   # 8 rated, 6 retrieved, k = 6
    1.0
    """
    hits = len(grades[:k])                    # every retrieved item in the top k is rated
    dcg = sum(1 / math.log1p(rank) for rank in range(1, hits + 1))
    ideal = min(len(grades) + len(unretrieved), k)
    return dcg / sum(1 / math.log1p(rank) for rank in range(1, ideal + 1))


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


_ORDER = ("retrieved_ideal", "short_ideal", "cutoff_ignored", "discount_offset",
          "rank_from_zero", "natural_log_dcg", "numerator_one", "linear_for_exponential",
          "exponential_for_linear", "negative_grades", "zero_query_one", "zero_query_averaged",
          "mixed_depths")   # the last is seen in a mean over queries (mean_values)
_FUNCTIONS = {key: _by_rules(key) for key in _ORDER}
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


def playground(key: str) -> dict:
    """What *Open in playground* opens for mistake ``key``, with the mistake on: ``grades``,
    ``unretrieved``, ``k`` (at most the judged items: past them NDCG@k no longer changes),
    ``gain`` and ``rules``; for a mistake seen in a mean, the query it is about. Its NDCG
    is :func:`playground_value`.

    >>> pg = playground("short_ideal")
    >>> pg["k"], len(pg["grades"]), pg["rules"].cut
    (8, 6, 'list_length')
    """
    ex = example(key)
    grades, pool = ex["queries"][1] if "queries" in ex else (ex["grades"], ex["unretrieved"])
    return dict(grades=tuple(grades), unretrieved=tuple(pool),
                k=min(ex["k"], len(grades) + len(pool)), gain=GAINS.get(key, ex["gain"]),
                rules=RULES.get(key, R.RIGHT))


def playground_value(key: str) -> float:
    """The mistake's number on the query the playground opens (for a per-query mistake, the
    figure the lesson shows beside the right one).

    >>> round(playground_value("numerator_one"), 4), round(playground_value("zero_query_one"), 4)
    (1.0, 1.0)
    """
    ex, pg = example(key), playground(key)
    return mistake(key).mistaken(pg["grades"], k=ex["k"], gain=ex["gain"],
                                 unretrieved=pg["unretrieved"])


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
