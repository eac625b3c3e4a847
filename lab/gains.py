"""The app's gains, one row each: what every renderer writes and draws for a gain.

The engine declares the choices (``ndcg_core.OPTIONS["gain"]``); this table adds what the
app shows for each: its short name (the ranking table's column heads and CSS classes when
two gains sit side by side), one term's numerator as text and as LaTeX (``{g}``: the
grade), whether that numerator is wide (fewer terms per line in a formula), and its
formula in the browser's twin (``ui/ranking_table/figures.js``, ``GAIN_FORMULAS``:
tests/lab/test_gains.py checks the file holds it). Its words in each language are
:func:`names`, :func:`long_names` and :func:`formula_words`. A third gain is a row here, its
words, and its line in ``GAIN_FORMULAS``; the pages follow.

>>> GAINS["exponential"].numerator.format(g=3)
'(2^3−1)'
"""

from __future__ import annotations

from dataclasses import dataclass

from lab.i18n import t


@dataclass(frozen=True)
class Gain:
    name: str             # the engine's choice
    short: str            # beside the other gain: a column's sub-head, a CSS class
    numerator: str        # one term's numerator as text; {g}: the grade
    numerator_latex: str  # the same in LaTeX
    wide: bool            # a numerator wider than the grade: fewer terms per formula line
    js: str               # its formula in figures.js's GAIN_FORMULAS, of the grade g
    dash: str             # its line in a chart beside the other gain's (Plotly's line_dash)


GAINS: dict[str, Gain] = {gain.name: gain for gain in (
    # Järvelin & Kekäläinen 2002: gain = rel
    Gain("linear", "lin", "{g}", "{g}", False, "(g) => g", "solid"),
    # Burges et al. 2005: gain = 2^rel − 1
    Gain("exponential", "exp", "(2^{g}−1)", "(2^{{{g}}}-1)", True, "(g) => Math.pow(2, g) - 1",
         "dot"),
)}
BOTH = ("linear", "exponential")  # the settings' "both": the two side by side


def names(lang: str) -> dict[str, str]:
    """Each gain's name, and "both", as the settings' choices write them."""
    return {"linear": t("linear", lang), "exponential": t("exponential", lang),
            "both": t("both", lang)}


def long_names(lang: str) -> dict[str, str]:
    """Each gain's name as a phrase: "linear gain"."""
    return {"linear": t("linear gain", lang), "exponential": t("exponential gain", lang)}


def formula_words(lang: str) -> dict[str, str]:
    """Each gain's formula in words, as the ranking table's gain column explains it."""
    return {"linear": t("gain = grade", lang), "exponential": t("gain = 2^grade − 1", lang)}


def chart_words(lang: str) -> dict[str, dict[str, str]]:
    """Each gain's words in the charts: the contributions' title ("contributions"), the gain
    curve's legend ("curve"), and a run's line ("run", with ``{run}`` to fill)."""
    return {
        "linear": {"contributions": t("What each position adds to DCG (linear gain)", lang),
                   "curve": t("linear: rel", lang),
                   "run": t("{run}, linear gain", lang)},
        "exponential": {"contributions": t("What each position adds to DCG (exponential gain)",
                                           lang),
                        "curve": t("exponential: 2^rel − 1", lang),
                        "run": t("{run}, exponential gain", lang)},
    }
