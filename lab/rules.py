"""The playground's mistake settings: how its NDCG is computed beyond gain and k, each a
real ndcg_core option (``ndcg_core.MISTAKE_OPTIONS`` and the conventions), defaulting to the
right convention. Pure Python: the playground's state carries a :class:`Rules`, its link
the settings that differ from the defaults, and the ranking table and the formula the
options actually used.

Each setting names the catalogued mistake it shows (lab/mistakes.py):

- ``ideal``: ``judged`` (every judged grade) or ``retrieved`` (the ranking's alone:
  *retrieved_ideal*);
- ``cut``: ndcg_core's ``cut`` (*cutoff_ignored*: ``ideal_only``; *short_ideal*:
  ``list_length``);
- ``discount``: ``log2``; ``ln`` (same NDCG); ``ln_dcg`` (ln in DCG, log2 in IDCG:
  *natural_log_dcg*); ``jarvelin`` (max(1, log2 i): *discount_offset*); ``shifted``
  (log2(i + 2): *rank_from_zero*);
- ``numerator``: ``gain`` or ``one`` (1 for every judged item, grade 0 included:
  *numerator_one*, recommenders #1749);
- ``negative``: ``zero`` (trec_eval), ``keep`` (as written in DCG, left out of a pool's
  ideal: ndcg_core's ``negative='keep'``) or ``through`` (in the ideal too, scikit-learn
  0.22: *negative_grades*);
- ``zero``: NDCG when IDCG@k is 0: ``nan`` (undefined), ``zero`` or ``one``
  (*zero_query_averaged*, *zero_query_one*).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from lab.i18n import t

CHOICES = {
    "ideal": ("judged", "retrieved"),
    "cut": ("both", "ideal_only", "list_length"),
    "discount": ("log2", "ln", "ln_dcg", "jarvelin", "shifted"),
    "numerator": ("gain", "one"),
    "negative": ("zero", "keep", "through"),
    "zero": ("nan", "zero", "one"),
}
# the link's parameter of each setting (written only when it is not the default)
PARAMS = {"ideal": "ideal", "cut": "cut", "discount": "disc", "numerator": "num",
          "negative": "neg", "zero": "zero"}


@dataclass(frozen=True)
class Rules:
    """How the playground computes NDCG beyond gain and k; the defaults are right."""

    ideal: str = "judged"
    cut: str = "both"
    discount: str = "log2"
    numerator: str = "gain"
    negative: str = "zero"
    zero: str = "nan"

    def __post_init__(self):
        for f in fields(self):
            if getattr(self, f.name) not in CHOICES[f.name]:
                raise ValueError(f"{f.name} must be one of {', '.join(CHOICES[f.name])}; "
                                 f"got {getattr(self, f.name)!r}.")

    @property
    def changed(self) -> dict:
        """The settings that differ from the right convention."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != f.default}


RIGHT = Rules()


def _key(g: float):
    g = float(g)
    return int(g) if g.is_integer() else g


def engine_options(rules: Rules, gain: str, grades=()) -> dict:
    """ndcg_core's keywords for ``rules`` and ``gain``, the grades (ranking and pool) given
    for a numerator of 1 (a gain mapping covering each of them).

    >>> engine_options(Rules(discount="ln_dcg", negative="through"), "linear")
    {'gain': 'linear', 'cut': 'both', 'zero_idcg': 'nan', 'negative': 'keep', \
'negative_ideal': 'keep', 'discount': 'ln', 'ideal_discount': 'log2'}
    >>> engine_options(Rules(numerator="one"), "exponential", [3, 0, 1.5])["gain"]
    {0: 1, 3: 1, 1.5: 1}
    """
    through = rules.negative == "through"
    kw = {"gain": gain, "cut": rules.cut, "zero_idcg": rules.zero,
          "negative": "zero" if rules.negative == "zero" else "keep",
          "negative_ideal": "keep" if through else "drop"}
    if rules.numerator == "one":  # every judged item counts 1, whatever its grade
        kw["gain"] = {_key(g): 1 for g in (0, *grades)}
    kw.update({"ln": {"discount": "ln"}, "ln_dcg": {"discount": "ln", "ideal_discount": "log2"},
               "jarvelin": {"discount": "jarvelin", "base": 2},
               "shifted": {"shift": 1}}.get(rules.discount, {}))
    return kw


def ideal_options(rules: Rules, gain: str, grades=()) -> dict:
    """The keywords of ``ndcg_core.ideal_table`` for the ideal IDCG is read from (its own
    discount when DCG's differs)."""
    kw = engine_options(rules, gain, grades)
    kw.pop("cut"), kw.pop("zero_idcg")
    kw["discount"] = kw.pop("ideal_discount", kw.get("discount", "log2"))
    return kw


def table_options(rules: Rules, gain: str, grades=()) -> dict:
    """The keywords of ``ndcg_core.dcg_table`` for the ranking's rows."""
    kw = ideal_options(rules, gain, grades)
    kw.pop("negative_ideal")
    kw["discount"] = engine_options(rules, gain, grades).get("discount", "log2")
    return kw


def to_params(rules: Rules) -> dict:
    """The link's parameters of the settings that are not the defaults (none: old links and
    links without mistakes stay as they were)."""
    return {PARAMS[name]: value for name, value in rules.changed.items()}


def from_params(get_all, *, lang: str = "en") -> Rules:
    """The settings a link carries (``get_all(name)`` lists a parameter's values); absent
    ones are the defaults. ValueError names a value that is not a choice."""
    values = {}
    for name, param in PARAMS.items():
        got = get_all(param)
        if not got:
            continue
        value = got[-1]
        if value not in CHOICES[name]:
            raise ValueError(t("{name} {value} is not one of {choices}", lang, name=param,
                               value=repr(value[:40]), choices=", ".join(CHOICES[name])))
        values[name] = value
    return replace(RIGHT, **values)


def conv(rules: Rules) -> dict:
    """What the browser's twin of the engine (ui/ranking_table/figures.js) and the formula
    (formula.js) need to compute and write the figures these settings give."""
    return {"discount": rules.discount, "numerator": rules.numerator,
            "negative": rules.negative, "cut": rules.cut, "zero": rules.zero}


def setting_names(lang: str) -> dict[str, str]:
    """Each setting's label in ``lang``."""
    return {
        "ideal": t("Ideal built from", lang),
        "cut": t("Cutoff k applied to", lang),
        "discount": t("Discount", lang),
        "numerator": t("Numerator", lang),
        "negative": t("Negative grades", lang),
        "zero": t("When IDCG@k is 0", lang),
    }


def choice_names(lang: str) -> dict[str, dict[str, str]]:
    """Each choice's name in ``lang``: the right one first, each mistake named by its case."""
    return {
        "ideal": {"judged": t("every judged item (right)", lang),
                  "retrieved": t("the retrieved list only (scikit-learn, LightGBM)", lang)},
        "cut": {"both": t("DCG and IDCG (right)", lang),
                "ideal_only": t("IDCG only: DCG sums the whole list (lenskit #309)", lang),
                "list_length": t("both, at the list's length when k passes it (mlflow "
                                 "#24541)", lang)},
        "discount": {"log2": "log₂(i + 1) " + t("(right)", lang),
                     "ln": t("ln(i + 1): same NDCG, other DCG", lang),
                     "ln_dcg": t("ln(i + 1) in DCG, log₂(i + 1) in IDCG (Cohere docs #574)",
                                 lang),
                     "jarvelin": t("max(1, log₂ i): ranks 1 and 2 alike (openagent-eval #223)",
                                   lang),
                     "shifted": t("log₂(i + 2): ranks counted from 0", lang)},
        "numerator": {"gain": t("the grade's gain (right)", lang),
                      "one": t("1 for every item, grade 0 too (recommenders #1749)", lang)},
        "negative": {"zero": t("counted as 0 (trec_eval; right)", lang),
                     "keep": t("kept in DCG, left out of a judged pool's ideal", lang),
                     "through": t("let through, in the ideal too (scikit-learn 0.22, #17639)",
                                  lang)},
        "zero": {"nan": t("undefined, left out of means (right)", lang),
                 "zero": t("0 (scikit-learn #29521)", lang),
                 "one": t("1 (LightGBM, XGBoost's ndcg)", lang)},
    }


def summary(rules: Rules, lang: str) -> str:
    """The settings that are not the right ones, as "name: choice; …" in ``lang``."""
    names, choices = setting_names(lang), choice_names(lang)
    return "; ".join(f"{names[n]}: {choices[n][v]}" for n, v in rules.changed.items())
