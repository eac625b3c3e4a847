"""Every convention option of NDCG Lab, declared once.

Validation, the app's widget choices and its help text are all derived from
:data:`OPTIONS`, so they cannot drift apart (the pattern of ir_measures'
parameter declarations).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Option", "OPTIONS", "CONVENTIONS", "MISTAKE_OPTIONS", "check_option"]


@dataclass(frozen=True)
class Option:
    """One keyword option: its name, allowed values with a description each, and default."""

    name: str
    label: str
    description: str
    choices: dict = field(default_factory=dict)
    default: object = None

    def help(self) -> str:
        """Markdown help text: the description, then one line per choice."""
        lines = [self.description, ""]
        lines += [f"- `{value}`: {text}" for value, text in self.choices.items()]
        return "\n".join(lines)


OPTIONS: dict[str, Option] = {
    opt.name: opt
    for opt in [
        Option(
            "gain",
            "Gain",
            "How a relevance grade becomes the gain added at its position.",
            {
                "linear": "gain = rel (Järvelin & Kekäläinen 2002; trec_eval, scikit-learn).",
                "exponential": "gain = 2^rel − 1 (Burges et al. 2005; LightGBM, XGBoost, "
                "TF-Ranking).",
            },
            "linear",
        ),
        Option(
            "discount",
            "Discount",
            "How much a position is worth: the gain at rank i is divided by this.",
            {
                "log2": "log2(i + 1): rank 1 undiscounted, rank 3 counts half.",
                "ln": "ln(i + 1): other DCG values, identical NDCG (the base cancels).",
                "jarvelin": "Järvelin & Kekäläinen 2002: no discount for ranks i < b, "
                "then log_b(i).",
            },
            "log2",
        ),
        Option(
            "ties",
            "Ties in scores",
            "How items with equal scores are ordered (only used when ranking by scores).",
            {
                "average": "every tied item gets the group's mean gain: the expected DCG "
                "over all orders of the tie (McSherry & Najork 2008; scikit-learn).",
                "docid": "doc id descending, as trec_eval and pytrec_eval do.",
                "input": "the order given, a stable sort (LightGBM, XGBoost).",
                "ranx": "as ranx orders them: numba's quicksort of the scores, which keeps "
                "the order given for a query of up to 15 documents only; with 16 or more, "
                "tied documents can change places (reproduced exactly).",
                "optimistic": "the best order of each tie: highest gain first.",
                "pessimistic": "the worst order of each tie: lowest gain first.",
            },
            "average",
        ),
        Option(
            "zero_idcg",
            "All-zero queries",
            "What NDCG is when the ideal DCG is 0 (no item has a positive gain): the ratio "
            "0/0 is undefined and every library picks a rule.",
            {
                "zero": "NDCG = 0 (scikit-learn, trec_eval, ranx).",
                "nan": "undefined (NaN): the query is left out of means.",
                "one": "NDCG = 1 (LightGBM, XGBoost).",
            },
            "zero",
        ),
        Option(
            "negative",
            "Negative grades",
            "What happens to grades below 0.",
            {
                "keep": "use them in the formula as written: gains can be negative and "
                "NDCG can drop below 0 (an ideal drawn from a judged pool leaves them out).",
                "zero": "gain 0 and left out of the ideal, whatever the gain rule "
                "(trec_eval reads a negative grade as 'pooled but not judged'; ranx drops "
                "them). With judged_only, such a document counts as unjudged, as in trec_eval.",
                "error": "refuse them with an error (scikit-learn, LightGBM).",
            },
            "keep",
        ),
        Option(
            "ideal_pool",
            "Ideal built from",
            "Which items the ideal ordering is built from (evaluate only).",
            {
                "judged": "every judged item of the query, retrieved or not (trec_eval, "
                "ranx).",
                "retrieved": "only the retrieved items, unjudged ones as 0 (scikit-learn, "
                "LightGBM, XGBoost).",
            },
            "judged",
        ),
        Option(
            "missing",
            "Judged queries not in the run",
            "How a query with judgments but no retrieved items counts (evaluate only).",
            {
                "skip": "left out (trec_eval 9 and pytrec_eval; trec_eval 10.0 stops with "
                "an error instead).",
                "zero": "evaluated as an empty ranking (trec_eval -c): DCG 0, so NDCG 0, or "
                "the all-zero rule's value when the query has no relevant document.",
            },
            "skip",
        ),
        Option(
            "score_precision",
            "Scores compared as",
            "The precision in which run scores are compared: two scores that differ only "
            "beyond a float32's 7 significant digits tie in 32 bits, and the tie rule then "
            "decides their order.",
            {
                "float64": "64-bit doubles, as read (trec_eval 10, scikit-learn, ranx, "
                "LightGBM, XGBoost given doubles).",
                "float32": "32-bit floats (trec_eval up to 9.0.8 and pytrec_eval, which "
                "bundles it): 1.00000001 and 1.0 tie.",
            },
            "float64",
        ),
        Option(
            "fractional",
            "Fractional grades",
            "What happens to a grade that is not a whole number, such as 2.5.",
            {
                "keep": "used as given (scikit-learn; the LightGBM and XGBoost presets).",
                "truncate": "cut toward zero, as trec_eval reads qrels (C atol) and ranx "
                "stores them (integers): 2.7 → 2, 0.5 → 0, −1.5 → −1.",
                "error": "refused with an error (pytrec_eval accepts integer grades only).",
            },
            "keep",
        ),
        Option(
            "judged_only",
            "Judged documents only",
            "Whether unjudged documents stay in the ranking (evaluate only). A document is "
            "judged when the qrels grade it for that query (with negative='zero', a negative "
            "grade means 'pooled but not judged', as in trec_eval).",
            {
                False: "every retrieved document keeps its rank; an unjudged one adds "
                "gain 0.",
                True: "unjudged documents are dropped and the judged ones move up before the "
                "cut at k: condensed lists (Sakai 2007; trec_eval -J; pytrec_eval "
                "judged_docs_only_flag=True).",
            },
            False,
        ),
    ]
}

# Options of ndcg / ndcg_parts / dcg_table / ideal_table that reproduce published mistakes
# (lab.mistakes, the playground's mistake settings). Each default is the right convention, so
# a call that does not name them computes NDCG as above. Declared apart from OPTIONS: they are
# not conventions a library chooses, and the evaluation of runs does not take them.
MISTAKE_OPTIONS: dict[str, Option] = {
    opt.name: opt
    for opt in [
        Option(
            "cut",
            "Cutoff k applied to",
            "Where the cutoff k applies.",
            {
                "both": "DCG@k over IDCG@k: both sums stop at k (right).",
                "ideal_only": "DCG summed over the whole list, IDCG stopped at k: the ratio "
                "can pass 1 (lenskit #309).",
                "list_length": "k above the list's length is cut to it on both sides, so "
                "IDCG is summed over fewer than k items (mlflow #24541).",
            },
            "both",
        ),
        Option(
            "shift",
            "Ranks shifted by",
            "Ranks moved down by this many places before the discount: log2(i + 1 + shift).",
            {
                0: "log2(i + 1): rank 1 undiscounted (right).",
                1: "log2(i + 2): a formula written for ranks counted from 0 given ranks "
                "counted from 1, so even rank 1 is discounted.",
            },
            0,
        ),
        Option(
            "ideal_discount",
            "Discount of the ideal",
            "The discount of IDCG, when it is not the one of DCG.",
            {
                None: "the same discount as DCG (right).",
                "log2": "log2(i + 1) in IDCG whatever DCG uses: with discount='ln', DCG in "
                "natural logs over IDCG in log2 (Cohere's documentation #574).",
                "ln": "ln(i + 1) in IDCG whatever DCG uses.",
            },
            None,
        ),
        Option(
            "negative_ideal",
            "Negative grades in the ideal",
            "With negative='keep': what an ideal drawn from a judged pool does with negative "
            "gains, and when the ratio is replaced by the zero_idcg value.",
            {
                "drop": "left out of an ideal drawn from a judged pool; the zero_idcg value "
                "when IDCG <= 0 (right).",
                "keep": "kept in the ideal wherever it comes from, and NDCG = DCG / IDCG "
                "whenever IDCG is not 0, negative too (scikit-learn 0.22, #17639: 396.03).",
            },
            "drop",
        ),
    ]
}

# Named bundles of the options above, as each library computes NDCG
# (measured in shared/reference/conventions.md).
CONVENTIONS: dict[str, dict] = {
    # trec_eval 10.x: scores read as doubles, grades read as whole numbers
    "trec_eval": dict(gain="linear", ties="docid", zero_idcg="zero", negative="zero",
                      ideal_pool="judged", score_precision="float64", fractional="truncate"),
    # pytrec_eval bundles trec_eval 9 (scores as 32-bit floats) and takes integer grades only
    "pytrec_eval": dict(gain="linear", ties="docid", zero_idcg="zero", negative="zero",
                        ideal_pool="judged", score_precision="float32", fractional="error"),
    "sklearn": dict(gain="linear", ties="average", zero_idcg="zero", negative="error",
                    ideal_pool="retrieved", score_precision="float64", fractional="keep"),
    "lightgbm": dict(gain="exponential", ties="input", zero_idcg="one", negative="error",
                     ideal_pool="retrieved", score_precision="float64", fractional="keep"),
    "xgboost": dict(gain="exponential", ties="input", zero_idcg="one", negative="error",
                    ideal_pool="retrieved", score_precision="float64", fractional="keep"),
    "ranx": dict(gain="linear", ties="ranx", zero_idcg="zero", negative="zero",
                 ideal_pool="judged", score_precision="float64", fractional="truncate"),
}

# the value NDCG takes under each zero-IDCG rule, and the numbers accepted for a rule
ZERO_IDCG_VALUES = {"zero": 0.0, "nan": float("nan"), "one": 1.0}
_ZERO_IDCG_NUMBERS = {0.0: "zero", 1.0: "one"}


def check_option(name: str, value):
    """Return the canonical value of option ``name``, or raise ValueError naming the choices.

    ``gain`` also accepts a mapping grade -> gain; ``zero_idcg`` also accepts the numbers
    0.0, 1.0 and NaN.
    """
    opt = OPTIONS[name] if name in OPTIONS else MISTAKE_OPTIONS[name]
    if name == "gain" and isinstance(value, Mapping):
        return value
    if name == "zero_idcg" and isinstance(value, (int, float)) and not isinstance(value, bool):
        if math.isnan(value):
            return "nan"
        if float(value) in _ZERO_IDCG_NUMBERS:
            return _ZERO_IDCG_NUMBERS[float(value)]
    if isinstance(value, str) and value in opt.choices:
        return value
    if name in MISTAKE_OPTIONS:
        # None, or a whole number (shift); never a bool read as 0 or 1
        if isinstance(value, np.integer):
            value = int(value)
        for choice in opt.choices:
            if type(choice) is type(value) and choice == value:
                return choice
        raise ValueError(f"{name} must be one of {', '.join(map(repr, opt.choices))}; "
                         f"got {value!r}.")
    if isinstance(value, (bool, np.bool_)) and bool(value) in opt.choices:
        return bool(value)
    choices = ", ".join(repr(c) for c in opt.choices)
    extra = " or a mapping grade -> gain" if name == "gain" else ""
    if name == "zero_idcg":
        extra = " (or the numbers 0.0, 1.0, nan)"
    raise ValueError(f"{name} must be one of {choices}{extra}; got {value!r}.")
