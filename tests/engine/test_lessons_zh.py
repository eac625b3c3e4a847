"""The Chinese lessons (assets/lessons/zh/) are twins of the English ones (assets/lessons/).

A class that switches language mid-lesson must see the same sections in the same order, the
same numbers and the same formulas; only the prose changes. The files are read by the app's
own parser, ``lab.lessons`` (front matter, then ``## <id> | <Heading>`` sections).
"""

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt  # CommonMark, as Streamlit's Markdown renderer

from lab import lessons as L
from reference_data import needs_source_documents, source_documents, source_text

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "assets" / "lessons"
ZH = LESSONS / "zh"
ENGLISH = sorted(LESSONS.glob("[0-9][0-9]_*.md"))
NAMES = [p.stem for p in ENGLISH]

DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
INLINE_MATH = re.compile(r"\$([^$\n]+?)\$")
CODE_BLOCK = re.compile(r"^```.*?^```", re.S | re.M)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
# a decimal (0.9608, 1.0) or a number with thousands separators (2,147,483,647)
NUMBER = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![\d,]*\d)")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")


def parse(path: Path) -> dict:
    """``{"meta": {...}, "sections": [(id, heading, body), ...]}`` in file order, as the app
    reads it (``lab.lessons``, the one parser)."""
    lang = "zh" if path.parent == ZH else "en"
    doc = L.lesson(path.stem, lang)
    assert L.path(path.stem, lang) == path
    return {"meta": doc["meta"],
            "sections": [(sid, head, body) for sid, (head, body) in doc["sections"].items()]}


def pairs(name: str):
    """(id, English heading + body, Chinese heading + body) for each section, in order."""
    en, zh = parse(LESSONS / f"{name}.md"), parse(ZH / f"{name}.md")
    assert [s for s, _, _ in en["sections"]] == [s for s, _, _ in zh["sections"]]
    for (sid, eh, eb), (_, zh_h, zb) in zip(en["sections"], zh["sections"]):
        yield sid, f"{eh}\n{eb}", f"{zh_h}\n{zb}"


def formulas(text: str) -> set:
    display = set(DISPLAY_MATH.findall(text))
    return display | set(INLINE_MATH.findall(DISPLAY_MATH.sub(" ", text)))


def prose(text: str) -> str:
    """The words a reader reads: no formulas, code or link targets."""
    text = CODE_BLOCK.sub(" ", text)
    text = DISPLAY_MATH.sub(" ", text)
    text = INLINE_MATH.sub(" ", text)
    text = CODE_SPAN.sub(" ", text)
    return LINK_TARGET.sub("]", text)


def test_there_are_lessons_to_translate():
    assert len(NAMES) >= 7, NAMES


def test_every_english_lesson_has_a_chinese_twin_and_no_orphans():
    assert sorted(p.stem for p in ZH.glob("*.md") if p.stem != "README") == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_front_matter_has_the_same_keys_and_order(name):
    en, zh = parse(LESSONS / f"{name}.md")["meta"], parse(ZH / f"{name}.md")["meta"]
    assert list(zh) == list(en)
    assert zh["order"] == en["order"]  # the sidebar order must not depend on the language
    assert all(CJK.search(zh[key]) for key in ("title", "summary")), zh


@pytest.mark.parametrize("name", NAMES)
def test_sections_have_the_same_ids_in_the_same_order(name):
    en, zh = parse(LESSONS / f"{name}.md"), parse(ZH / f"{name}.md")
    assert [s for s, _, _ in zh["sections"]] == [s for s, _, _ in en["sections"]]


@pytest.mark.parametrize("name", NAMES)
def test_every_number_of_an_english_section_appears_in_its_translation(name):
    """0.9608 stays 0.9608, 2,147,483,647 stays 2,147,483,647: number format unchanged."""
    for sid, en, zh in pairs(name):
        missing = set(NUMBER.findall(en)) - set(NUMBER.findall(zh))
        assert not missing, f"{name} / {sid}: {sorted(missing)}"


@pytest.mark.parametrize("name", NAMES)
def test_formulas_code_and_link_targets_are_identical(name):
    for sid, en, zh in pairs(name):
        assert formulas(zh) == formulas(en), f"{name} / {sid}"
        assert set(CODE_BLOCK.findall(zh)) == set(CODE_BLOCK.findall(en)), f"{name} / {sid}"
        assert set(CODE_SPAN.findall(DISPLAY_MATH.sub(" ", zh))) == set(
            CODE_SPAN.findall(DISPLAY_MATH.sub(" ", en))), f"{name} / {sid}"
        assert set(LINK_TARGET.findall(zh)) == set(LINK_TARGET.findall(en)), f"{name} / {sid}"


SHAPE = ("table_open", "tr_open", "th_open", "td_open", "bullet_list_open", "ordered_list_open",
         "list_item_open", "blockquote_open", "fence", "code_block")


@pytest.mark.parametrize("name", NAMES)
def test_tables_lists_and_quotes_have_the_same_shape(name):
    """Same rows and cells, same list items: a table translated is the same table."""
    md = MarkdownIt("commonmark").enable("table")
    for sid, en, zh in pairs(name):
        shape = [[t.type for t in md.parse(text) if t.type in SHAPE] for text in (en, zh)]
        assert shape[1] == shape[0], f"{name} / {sid}"


@pytest.mark.parametrize("name", NAMES)
def test_chinese_sections_are_mostly_chinese(name):
    """Tool names (trec_eval, LightGBM) stay Latin; the prose around them is Chinese."""
    for sid, _, zh in pairs(name):
        text = prose(zh)
        cjk, latin = len(CJK.findall(text)), len(LATIN.findall(text))
        assert cjk > 0.3 * (cjk + latin), f"{name} / {sid}: {cjk} CJK, {latin} Latin letters"


@pytest.mark.parametrize("name", NAMES)
def test_chinese_emphasis_renders(name):
    """CommonMark ignores ** next to CJK punctuation unless spaced (**“理想”**。 stays literal):
    after rendering, no asterisk may be left in the text."""
    md = MarkdownIt("commonmark").enable("table")
    for sid, _, zh in pairs(name):
        text = INLINE_MATH.sub(" ", DISPLAY_MATH.sub(" ", CODE_BLOCK.sub(" ", zh)))
        html = CODE_SPAN.sub(" ", md.render(text).replace("<code>", "`").replace("</code>", "`"))
        assert "*" not in html, f"{name} / {sid}: {html[max(html.find('*') - 40, 0):][:80]}"


def _chinese_quote(body: str) -> list:
    """The blockquote lines of a section that are Chinese prose (not formulas)."""
    lines = [ln[1:].strip() for ln in body.splitlines() if ln.startswith(">")]
    return [ln for ln in lines if CJK.search(ln) and not ln.startswith("$$")]


def _doc004_quotes() -> tuple[list, list]:
    en = dict((s, b) for s, _, b in parse(LESSONS / "02_worked_examples.md")["sections"])
    zh = dict((s, b) for s, _, b in parse(ZH / "02_worked_examples.md")["sections"])
    return _chinese_quote(en["doc004"]), _chinese_quote(zh["doc004"])


def test_the_chinese_tutorial_is_quoted_alike_in_both_languages():
    en, zh = _doc004_quotes()
    assert len(en) >= 3
    assert zh == en


@needs_source_documents
def test_the_chinese_tutorial_is_quoted_in_its_own_words():
    source = source_documents("004_*.txt")[0].read_text(encoding="utf-8")
    for line in _doc004_quotes()[0]:
        assert line in source, line


def _errata_originals() -> list:
    """An erratum quotes the sentence it corrects: 原文是：“…”."""
    return re.findall(r"原文是：“(.+?)”", (ZH / "02_worked_examples.md").read_text("utf-8"))


def test_every_chinese_erratum_quotes_the_original_wording():
    assert len(_errata_originals()) >= 9  # every erratum


@needs_source_documents
def test_every_original_wording_quoted_in_the_chinese_errata_is_verbatim():
    """原文是：“…” is word for word from its source."""
    sources = source_text()
    for sentence in _errata_originals():
        assert " ".join(sentence.split()) in sources, sentence
