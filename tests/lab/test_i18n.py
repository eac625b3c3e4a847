"""The catalogs and the code agree: every message the code asks for with ``t("...")`` has a
Chinese translation, the catalog holds nothing the code no longer asks for, and each
translation keeps its message's placeholders. The calls are found with :mod:`ast`, so a
message split over lines ("..." "...") is read as Python reads it."""

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from lab import i18n
from lab import lessons as L
from lab import playground as P

REPO = Path(__file__).resolve().parents[2]
# everything the app runs: the entry file, its pages, the renderers and the teaching logic
SOURCES = [REPO / "app.py"] + sorted(p for d in ("pages", "ui", "lab")
                                     for p in (REPO / d).glob("**/*.py"))


def _is_t(call: ast.Call) -> bool:
    f = call.func
    return (isinstance(f, ast.Name) and f.id == "t") or (
        isinstance(f, ast.Attribute) and f.attr == "t")


def calls() -> list:
    """(file, line, first argument node) of every ``t(...)`` call in the app's sources."""
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _is_t(node) and node.args:
                found.append((path.relative_to(REPO), node.lineno, node.args[0]))
    return found


def used() -> dict:
    """{msgid: where it is used} of every literal ``t("...")``."""
    ids = {}
    for where, line, arg in calls():
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            ids.setdefault(arg.value, f"{where}:{line}")
    return ids


def test_the_sources_are_found_and_use_t():
    assert REPO / "app.py" in SOURCES
    assert "Playground" in used()  # app.py's page title


def test_every_t_call_has_a_literal_message():
    """A message built at run time (a variable, an f-string) cannot be found or translated."""
    bad = [f"{where}:{line}" for where, line, arg in calls()
           if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str))]
    assert not bad, f"t() needs a string literal as its first argument: {bad}"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_every_message_the_code_uses_is_translated(lang):
    missing = {msgid: where for msgid, where in used().items()
               if msgid not in i18n.catalog(lang)}
    assert not missing, f"no {lang} translation in {i18n.catalog_path(lang)}: {missing}"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_the_catalog_holds_no_message_the_code_no_longer_uses(lang):
    unused = sorted(set(i18n.catalog(lang)) - set(used()))
    assert not unused, f"{i18n.catalog_path(lang)} has messages no t() call uses: {unused}"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_translations_keep_every_placeholder_and_no_other(lang):
    """t("Cut at k = {k}", lang, k=3) must fill the same names in every language."""
    wrong = {msgid: text for msgid, text in i18n.catalog(lang).items()
             if i18n.placeholders(text) != i18n.placeholders(msgid)}
    assert not wrong


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_no_message_is_in_the_catalog_twice(lang):
    """Babel keeps the first of two entries with one msgid and drops the other without a word
    (and ``msgfmt --check`` refuses the file): each message once."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in i18n.catalog_paths(lang))
    entries = re.findall(r'^msgid ((?:"(?:[^"\\]|\\.)*"\s*)+)^msgstr', text, flags=re.M)
    # each file's header is the empty msgid: one per file, not a message
    twice = [m for m, n in Counter(entries).items() if n > 1 and m.strip() != '""']
    assert len(entries) > len(i18n.catalog(lang)) // 2 and not twice, \
         f"messages in {i18n.catalog_paths(lang)} more than once: {twice}"


def test_a_placeholder_is_filled_in_the_translation():
    # a catalog of our own: the real one need not hold a message with a placeholder
    i18n.catalog.cache_clear()
    try:
        i18n.catalog("zh")["Cut at k = {k}"] = "在 k = {k} 处截断"
        assert i18n.t("Cut at k = {k}", "zh", k=3) == "在 k = 3 处截断"
        assert i18n.t("Cut at k = {k}", "en", k=3) == "Cut at k = 3"
    finally:
        i18n.catalog.cache_clear()


def test_english_is_the_source_and_needs_no_catalog():
    assert i18n.catalog("en") == {}
    assert i18n.t("Start here", "en") == "Start here"
    assert i18n.t("Start here", "zh") == "从这里开始"  # the glossary's page title


def test_an_unknown_language_is_refused_with_the_languages_there_are():
    with pytest.raises(ValueError, match="'fr' is not one of en, zh"):
        i18n.catalog("fr")
    with pytest.raises(ValueError, match="'fr' is not one of en, zh"):
        L.lesson("03_gain", "fr")


@pytest.mark.parametrize("tag, lang", [("zh", "zh"), ("zh-CN", "zh"), ("zh_TW", "zh"),
                                       ("zh-Hant-HK", "zh"), ("en", "en"), ("en-US", "en"),
                                       ("EN-gb", "en"), ("de-DE", None), ("", None),
                                       (None, None), ("zhx", None)])
def test_language_tags_read_as_the_apps_languages(tag, lang):
    assert i18n.language_of(tag) == lang


def test_the_page_titles_agree_with_the_lessons_titles():
    """The sidebar and the lesson's own title say the same in Chinese (the glossary's page
    titles), for the pages whose sidebar title is the lesson's title."""
    assert L.lesson("03_gain", "zh")["meta"]["title"] == i18n.t("Linear vs exponential gain",
                                                               "zh")
    assert L.lesson("03_gain", "en")["meta"]["title"] == "Linear vs exponential gain"


def test_a_chinese_lesson_is_read_from_its_folder_with_the_same_sections():
    en, zh = L.lesson("04_cutoffs"), L.lesson("04_cutoffs", "zh")
    assert list(zh["sections"]) == list(en["sections"])
    assert zh["meta"]["order"] == en["meta"]["order"]
    assert L.path("04_cutoffs", "zh") == REPO / "assets" / "lessons" / "zh" / "04_cutoffs.md"


def test_a_link_carrying_lang_opens_the_same_playground():
    """?lang= belongs to the app, not to the ranking: old links without it and new links
    with it read the same."""
    params = P.ranking_query_params(["a", "b"], [3, 0], k=2)

    def reader(extra):
        q = {**params, **extra}
        return lambda name: (q[name] if isinstance(q[name], list) else [q[name]]
                             ) if name in q else []

    plain, _ = P.from_query_params(reader({}))
    with_lang, problem = P.from_query_params(reader({"lang": "zh"}))
    assert problem is None and with_lang == plain and plain is not None
    # a link with only a language opens no ranking and raises no complaint
    assert P.from_query_params(lambda name: ["zh"] if name == "lang" else []) == (None, None)


def test_the_modules_docstring_examples_hold():
    import doctest
    result = doctest.testmod(i18n)
    assert result.failed == 0 and result.attempted >= 6
