"""lab.options_text: the engine's options in the page's language. English is the engine's
own text; each Chinese message translates the engine's current English (a message that no
longer matches the engine's text would translate something the engine stopped saying)."""

import pytest

from lab import options_text as O
from lab import runs as R
from ndcg_core import COMPARE_OPTIONS, OPTIONS

NAMES = list(dict.fromkeys([*R.SETTING_NAMES, *OPTIONS, *COMPARE_OPTIONS]))  # every option


def option(name):
    return OPTIONS[name] if name in OPTIONS else COMPARE_OPTIONS[name]


@pytest.mark.parametrize("name", NAMES)
def test_english_is_the_engines_text(name):
    opt = option(name)
    assert O.label(name, lang="en") == opt.label
    assert O.help_text(name, lang="en") == opt.help()
    assert all(O.choice(name, v, lang="en") == text for v, text in opt.choices.items())


@pytest.mark.parametrize("name", NAMES)
def test_the_catalogs_messages_are_the_engines_current_english(name):
    """The msgids (what t() returns in English) equal the engine's wording, word for word."""
    opt = option(name)
    assert O._labels("en")[name] == opt.label
    assert O._descriptions("en")[name] == opt.description
    for value, text in opt.choices.items():
        assert O._choices("en")[name, value] == text


@pytest.mark.parametrize("name", NAMES)
def test_chinese_help_keeps_the_choice_values_as_code(name):
    help_zh = O.help_text(name, lang="zh")
    for value in option(name).choices:
        assert f"- `{value}`：" in help_zh  # a full-width colon in Chinese text
    assert O.label(name, lang="zh") != option(name).label


@pytest.mark.parametrize("test", list(COMPARE_OPTIONS["test"].choices))
def test_short_names_in_english_are_cut_from_the_engines_text(test):
    assert COMPARE_OPTIONS["test"].choices[test].startswith(O.short_name("test", test,
                                                                         lang="en"))
    assert O.short_name("test", test, lang="zh") != O.short_name("test", test, lang="en")


def test_headers_drawn_in_chinese_keep_run_names_and_notation():
    assert R.header("my run.txt NDCG@5 unjudged=top", lang="zh") == \
        "my run.txt NDCG@5（未标注计为最高等级）"
    assert R.header("baseline NDCG@20", lang="zh") == "基线 NDCG@20"
    for notation in ("qid", "NDCG@20", "Judged@10", "Δ", "p", "d_z", "trec_eval"):
        assert R.header(notation, lang="zh") == notation
    assert R.header("relevant judged", lang="en") == "relevant judged"


def test_the_runs_modules_docstring_examples_hold():
    import doctest
    assert doctest.testmod(R).failed == 0
