"""Every convention option of NDCG Lab, declared once.

Validation, the app's widget choices and its help text are all derived from
:data:`OPTIONS`, so they cannot drift apart (the pattern of ir_measures'
parameter declarations).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Option", "OPTIONS", "CONVENTIONS", "check_option"]


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
                "input": "the order given, a stable sort (ranx, LightGBM, XGBoost).",
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
                "zero": "count them as 0 (trec_eval, ranx).",
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
                "skip": "left out (trec_eval's default).",
                "zero": "scores 0 (trec_eval -c).",
            },
            "skip",
        ),
    ]
}

# Named bundles of the options above, as each library computes NDCG
# (measured in shared/reference/conventions.md).
CONVENTIONS: dict[str, dict] = {
    "trec_eval": dict(gain="linear", ties="docid", zero_idcg="zero", negative="zero",
                      ideal_pool="judged"),
    "sklearn": dict(gain="linear", ties="average", zero_idcg="zero", negative="error",
                    ideal_pool="retrieved"),
    "lightgbm": dict(gain="exponential", ties="input", zero_idcg="one", negative="error",
                     ideal_pool="retrieved"),
    "xgboost": dict(gain="exponential", ties="input", zero_idcg="one", negative="error",
                    ideal_pool="retrieved"),
    "ranx": dict(gain="linear", ties="input", zero_idcg="zero", negative="zero",
                 ideal_pool="judged"),
}

_ZERO_IDCG_NUMBERS = {0.0: "zero", 1.0: "one"}


def check_option(name: str, value):
    """Return the canonical value of option ``name``, or raise ValueError naming the choices.

    ``gain`` also accepts a mapping grade -> gain; ``zero_idcg`` also accepts the numbers
    0.0, 1.0 and NaN.
    """
    opt = OPTIONS[name]
    if name == "gain" and isinstance(value, Mapping):
        return value
    if name == "zero_idcg" and isinstance(value, (int, float)) and not isinstance(value, bool):
        if math.isnan(value):
            return "nan"
        if float(value) in _ZERO_IDCG_NUMBERS:
            return _ZERO_IDCG_NUMBERS[float(value)]
    if isinstance(value, str) and value in opt.choices:
        return value
    choices = ", ".join(repr(c) for c in opt.choices)
    extra = " or a mapping grade -> gain" if name == "gain" else ""
    if name == "zero_idcg":
        extra = " (or the numbers 0.0, 1.0, nan)"
    raise ValueError(f"{name} must be one of {choices}{extra}; got {value!r}.")
