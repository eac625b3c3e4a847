"""The app's gain table (lab/gains.py) is the one place a gain is described: it covers the
engine's choices, its browser twin holds the same formulas, and every renderer's words and
numerators come from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ndcg_core as nc
from lab import formula
from lab.gains import GAINS, formula_words, long_names, names
from lab.i18n import LANGUAGES
from ui.ranking_table.words import labels

FIGURES_JS = Path(__file__).resolve().parents[2] / "ui" / "ranking_table" / "figures.js"


def test_the_table_has_a_row_for_every_gain_the_engine_takes():
    assert set(GAINS) == set(nc.OPTIONS["gain"].choices)


def test_the_browser_twin_holds_each_gains_formula_as_the_table_declares_it():
    block = re.search(r"const GAIN_FORMULAS = \{(.*?)\};", FIGURES_JS.read_text(), re.S)
    declared = dict(re.findall(r"(\w+): (.+),\n", block.group(1)))
    assert declared == {name: gain.js for name, gain in GAINS.items()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_gain_has_its_words_in_every_language(lang):
    for words in (names(lang), long_names(lang), formula_words(lang)):
        assert set(GAINS) <= set(words) and all(words[g] for g in GAINS)
    words = labels(lang, None)
    assert all(words[f"formula_{g}"] == formula_words(lang)[g] for g in GAINS)
    assert all(words[f"caption_{g}"] for g in GAINS)  # the figures' caption, per gain


def test_the_formula_text_writes_each_gains_numerator():
    table = nc.dcg_table([3, 1], k=2, gain="exponential")
    assert formula.sum_line(table, "DCG", 2, "exponential").startswith(
        "DCG@2 = (2^3−1)/log₂2 + (2^1−1)/log₂3")  # 7/1 + 1/log2(3)
    assert r"\frac{(2^{3}-1)}{\log_2 2}" in formula.latex([3, 1], k=2, gain="exponential")
