"""The engine's options as the app names and explains them, in English and 中文.

:data:`ndcg_core.OPTIONS` and :data:`ndcg_core.COMPARE_OPTIONS` declare every option once,
with an English label, description and one line per choice (the engine and the CLI are
English). The app's widgets show them in the page's language: English is the engine's own
text, unchanged; Chinese comes from the catalog (``t("...")`` needs a literal message, so the
wording of each option is listed here, beside the engine's names). An option or choice the
engine adds later and this module does not know yet is shown in English.

The choice *values* (``linear``, ``docid``, ``holm``) are code, written as the engine and the
libraries write them; a dropdown shows them by :func:`value_name`: as written in English, and
in Chinese a Chinese name with the value after it ("取平均（average）"), so the reader can still
find the value in the help, the code and the libraries' documents.
"""

from __future__ import annotations

from functools import partial

from ndcg_core import COMPARE_OPTIONS, OPTIONS
from lab.i18n import SOURCE, t


def _option(name):
    return OPTIONS[name] if name in OPTIONS else COMPARE_OPTIONS[name]


def _labels(lang: str) -> dict:
    return {
        "gain": t("Gain", lang),
        "discount": t("Discount", lang),
        "ties": t("Ties in scores", lang),
        "zero_idcg": t("All-zero queries", lang),
        "negative": t("Negative grades", lang),
        "ideal_pool": t("Ideal built from", lang),
        "missing": t("Judged queries not in the run", lang),
        "score_precision": t("Scores compared as", lang),
        "fractional": t("Fractional grades", lang),
        "judged_only": t("Judged documents only", lang),
        "test": t("Significance test", lang),
        "correction": t("Multiple-comparison correction", lang),
    }


def _descriptions(lang: str) -> dict:
    return {
        "gain": t("How a relevance grade becomes the gain added at its position.", lang),
        "discount": t("How much a position is worth: the gain at rank i is divided by this.",
                      lang),
        "ties": t("How items with equal scores are ordered (only used when ranking by "
                  "scores).", lang),
        "zero_idcg": t("What NDCG is when the ideal DCG is 0 (no item has a positive gain): "
                       "the ratio 0/0 is undefined and every library picks a rule.", lang),
        "negative": t("What happens to grades below 0.", lang),
        "ideal_pool": t("Which items the ideal ordering is built from (evaluate only).", lang),
        "missing": t("How a query with judgments but no retrieved items counts (evaluate "
                     "only).", lang),
        "score_precision": t("The precision in which run scores are compared: two scores that "
                             "differ only beyond a float32's 7 significant digits tie in 32 "
                             "bits, and the tie rule then decides their order.", lang),
        "fractional": t("What happens to a grade that is not a whole number, such as 2.5.",
                        lang),
        "judged_only": t("Whether unjudged documents stay in the ranking (evaluate only). A "
                         "document is judged when the qrels grade it for that query (with "
                         "negative='zero', a negative grade means 'pooled but not judged', as "
                         "in trec_eval).", lang),
        "test": t("The paired two-sided test of each system against the baseline, over the "
                  "same queries.", lang),
        "correction": t("How the p-values of the systems compared with the baseline are "
                        "adjusted together before they are compared with alpha.", lang),
    }


def _choices(lang: str) -> dict:
    return {
        ("gain", "linear"): t("gain = rel (Järvelin & Kekäläinen 2002; trec_eval, "
                              "scikit-learn).", lang),
        ("gain", "exponential"): t("gain = 2^rel − 1 (Burges et al. 2005; LightGBM, XGBoost, "
                                   "TF-Ranking).", lang),
        ("discount", "log2"): t("log2(i + 1): rank 1 undiscounted, rank 3 counts half.", lang),
        ("discount", "ln"): t("ln(i + 1): other DCG values, identical NDCG (the base "
                              "cancels).", lang),
        ("discount", "jarvelin"): t("Järvelin & Kekäläinen 2002: no discount for ranks i < b, "
                                    "then log_b(i).", lang),
        ("ties", "average"): t("every tied item gets the group's mean gain: the expected DCG "
                               "over all orders of the tie (McSherry & Najork 2008; "
                               "scikit-learn).", lang),
        ("ties", "docid"): t("doc id descending, as trec_eval and pytrec_eval do.", lang),
        ("ties", "input"): t("the order given, a stable sort (LightGBM, XGBoost).", lang),
        ("ties", "ranx"): t("as ranx orders them: numba's quicksort of the scores, which keeps "
                            "the order given for a query of up to 15 documents only; with 16 "
                            "or more, tied documents can change places (reproduced exactly).",
                            lang),
        ("ties", "optimistic"): t("the best order of each tie: highest gain first.", lang),
        ("ties", "pessimistic"): t("the worst order of each tie: lowest gain first.", lang),
        ("zero_idcg", "zero"): t("NDCG = 0 (scikit-learn, trec_eval, ranx).", lang),
        ("zero_idcg", "nan"): t("undefined (NaN): the query is left out of means.", lang),
        ("zero_idcg", "one"): t("NDCG = 1 (LightGBM, XGBoost).", lang),
        ("negative", "keep"): t("use them in the formula as written: gains can be negative "
                                "and NDCG can drop below 0 (an ideal drawn from a judged pool "
                                "leaves them out).", lang),
        ("negative", "zero"): t("gain 0 and left out of the ideal, whatever the gain rule "
                                "(trec_eval reads a negative grade as 'pooled but not "
                                "judged'; ranx drops them). With judged_only, such a document "
                                "counts as unjudged, as in trec_eval.", lang),
        ("negative", "error"): t("refuse them with an error (scikit-learn, LightGBM).", lang),
        ("ideal_pool", "judged"): t("every judged item of the query, retrieved or not "
                                    "(trec_eval, ranx).", lang),
        ("ideal_pool", "retrieved"): t("only the retrieved items, unjudged ones as 0 "
                                       "(scikit-learn, LightGBM, XGBoost).", lang),
        ("missing", "skip"): t("left out (trec_eval 9 and pytrec_eval; trec_eval 10.0 stops "
                               "with an error instead).", lang),
        ("missing", "zero"): t("evaluated as an empty ranking (trec_eval -c): DCG 0, so NDCG "
                               "0, or the all-zero rule's value when the query has no "
                               "relevant document.", lang),
        ("score_precision", "float64"): t("64-bit doubles, as read (trec_eval 10, "
                                          "scikit-learn, ranx, LightGBM, XGBoost given "
                                          "doubles).", lang),
        ("score_precision", "float32"): t("32-bit floats (trec_eval up to 9.0.8 and "
                                          "pytrec_eval, which bundles it): 1.00000001 and 1.0 "
                                          "tie.", lang),
        ("fractional", "keep"): t("used as given (scikit-learn; the LightGBM and XGBoost "
                                  "presets).", lang),
        ("fractional", "truncate"): t("cut toward zero, as trec_eval reads qrels (C atol) and "
                                      "ranx stores them (integers): 2.7 → 2, 0.5 → 0, −1.5 → "
                                      "−1.", lang),
        ("fractional", "error"): t("refused with an error (pytrec_eval accepts integer grades "
                                   "only).", lang),
        ("judged_only", False): t("every retrieved document keeps its rank; an unjudged one "
                                  "adds gain 0.", lang),
        ("judged_only", True): t("unjudged documents are dropped and the judged ones move up "
                                 "before the cut at k: condensed lists (Sakai 2007; trec_eval "
                                 "-J; pytrec_eval judged_docs_only_flag=True).", lang),
        ("test", "t"): t("paired t-test on the per-query differences (scipy.stats.ttest_rel; "
                         "PyTerrier's and ranx's default).", lang),
        ("test", "wilcoxon"): t("Wilcoxon signed-rank test (scipy.stats.wilcoxon): queries "
                                "with a zero difference are left out (zero_method='wilcox'), "
                                "exact or normal p-value by SciPy's method='auto'.", lang),
        ("test", "randomization"): t("paired randomization (sign-flip) test of the mean "
                                     "difference (Fisher; Smucker et al. 2007): exact over all "
                                     "2^n sign flips when 2^n <= n_resamples, else "
                                     "n_resamples seeded random flips.", lang),
        ("test", "bootstrap"): t("paired bootstrap test of the mean difference, shift method "
                                 "(Efron & Tibshirani 1993, ch. 16): n_resamples seeded "
                                 "resamples of the queries.", lang),
        ("correction", "holm"): t("Holm (1979) step-down: controls the family-wise error "
                                  "rate, never less powerful than Bonferroni.", lang),
        ("correction", "bh"): t("Benjamini & Hochberg (1995): controls the false discovery "
                                "rate.", lang),
        ("correction", None): t("none: each p-value is compared with alpha on its own.", lang),
    }


def label(name: str, *, lang: str) -> str:
    """The option's name as a widget label: "Gain" / "增益"."""
    return _option(name).label if lang == SOURCE else _labels(lang).get(name, _option(name)
                                                                       .label)


def choice(name: str, value, *, lang: str) -> str:
    """What one choice of an option does, one sentence."""
    english = _option(name).choices[value]
    return english if lang == SOURCE else _choices(lang).get((name, value), english)


def help_text(name: str, *, lang: str) -> str:
    """Markdown help: the description, then one line per choice (``Option.help``'s layout)."""
    opt = _option(name)
    if lang == SOURCE:
        return opt.help()
    lines = [_descriptions(lang).get(name, opt.description), ""]
    # a full-width colon after the value in Chinese text
    lines += [f"- `{value}`：{choice(name, value, lang=lang)}" for value in opt.choices]
    return "\n".join(lines)


def short_name(name: str, value, *, lang: str) -> str:
    """A test's or a correction's name as a footnote says it: "paired t-test on the
    per-query differences", "Holm (1979) step-down", "no correction"."""
    if lang == SOURCE:
        if value is None:
            return "no correction"
        return _option(name).choices[value].split(" (")[0].split(":")[0] if name == "test" \
            else _option(name).choices[value].split(":")[0]
    return {
        ("test", "t"): t("paired t-test on the per-query differences", lang),
        ("test", "wilcoxon"): t("Wilcoxon signed-rank test", lang),
        ("test", "randomization"): t("paired randomization", lang),
        ("test", "bootstrap"): t("paired bootstrap test of the mean difference, shift method",
                                 lang),
        ("correction", "holm"): t("Holm (1979) step-down", lang),
        ("correction", "bh"): t("Benjamini & Hochberg (1995)", lang),
        ("correction", None): t("no correction", lang),
    }.get((name, value)) or short_name(name, value, lang=SOURCE)


def _value_names(lang: str) -> dict:
    # msgids name the option and the value (one value means different things in two options)
    return {
        ("gain", "linear"): t("gain=linear", lang),
        ("gain", "exponential"): t("gain=exponential", lang),
        ("discount", "jarvelin"): t("discount=jarvelin", lang),
        ("ties", "average"): t("ties=average", lang),
        ("ties", "docid"): t("ties=docid", lang),
        ("ties", "input"): t("ties=input", lang),
        ("ties", "ranx"): t("ties=ranx", lang),
        ("ties", "optimistic"): t("ties=optimistic", lang),
        ("ties", "pessimistic"): t("ties=pessimistic", lang),
        ("zero_idcg", "zero"): t("zero_idcg=zero", lang),
        ("zero_idcg", "nan"): t("zero_idcg=nan", lang),
        ("zero_idcg", "one"): t("zero_idcg=one", lang),
        ("negative", "keep"): t("negative=keep", lang),
        ("negative", "zero"): t("negative=zero", lang),
        ("negative", "error"): t("negative=error", lang),
        ("ideal_pool", "judged"): t("ideal_pool=judged", lang),
        ("ideal_pool", "retrieved"): t("ideal_pool=retrieved", lang),
        ("missing", "skip"): t("missing=skip", lang),
        ("missing", "zero"): t("missing=zero", lang),
        ("score_precision", "float64"): t("score_precision=float64", lang),
        ("score_precision", "float32"): t("score_precision=float32", lang),
        ("fractional", "keep"): t("fractional=keep", lang),
        ("fractional", "truncate"): t("fractional=truncate", lang),
        ("fractional", "error"): t("fractional=error", lang),
        ("judged_only", False): t("judged_only=False", lang),
        ("judged_only", True): t("judged_only=True", lang),
        ("test", "t"): t("test=t", lang),
        ("test", "wilcoxon"): t("test=wilcoxon", lang),
        ("test", "randomization"): t("test=randomization", lang),
        ("test", "bootstrap"): t("test=bootstrap", lang),
        ("correction", "holm"): t("correction=holm", lang),
        ("correction", "bh"): t("correction=bh", lang),
        ("correction", None): t("correction=None", lang),
    }


def value_name(name: str, value, *, lang: str) -> str:
    """A choice as a dropdown or a table cell shows it (the value itself stays the widget's
    value): in English the value as the engine writes it ("docid", "none" for no
    correction); in Chinese a Chinese name, then the value in brackets when the name does not
    already hold it ("按 doc id 降序（docid）"). A value this module does not know yet, and
    one that is a formula's name (log2, ln), is shown as written.

    >>> value_name("ties", "docid", lang="en"), value_name("correction", None, lang="en")
    ('docid', 'none')
    """
    written = "none" if value is None else str(value)
    if lang == SOURCE:
        return written
    shown = _value_names(lang).get((name, value))
    if shown is None:
        return written
    return shown if written in shown else t("{name} ({value})", lang, name=shown, value=written)


def namer(name: str, *, lang: str):
    """A dropdown's ``format_func`` for option ``name``: :func:`value_name` in ``lang``."""
    return partial(value_name, name, lang=lang)


def value_names(table, *, lang: str):
    """A table of choices (a column per option, as ``ndcg_core.conventions_table``) with
    each cell as :func:`value_name` shows it; the index (the libraries' names) as it is."""
    return table.apply(lambda column: column.map(
        lambda value: value_name(column.name, value, lang=lang)))


def changes(preset: dict, chosen: dict, names, *, lang: str) -> str:
    """The options of ``names`` set apart from ``preset``, as a caption lists them: "gain →
    exponential; ties → average" ("增益 → 指数（exponential）；…" in Chinese); "" if none."""
    changed = [(label(n, lang=lang), value_name(n, chosen[n], lang=lang)) for n in names
               if n in preset and chosen[n] != preset[n]]
    return t("; ", lang).join(f"{name.lower() if lang == SOURCE else name} → {value}"
                              for name, value in changed)
