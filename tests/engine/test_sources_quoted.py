"""Each worked example stands on its own: it quotes its source's own words for the list, the
claim and the number, and names the source by what it is, never by a file number.

The five sources sit beside the repository in ``../shared/reference/documents/`` (a student
never sees that folder, so a page that said "document 002" could not be checked). A quoted
passage must be the source's words exactly (whitespace aside: the sources break lines
mid-sentence). The sources are not shipped with the project: the word-for-word comparisons
wait for them (``needs_source_documents``); that every example and erratum quotes something
is checked everywhere.
"""

import re
from pathlib import Path

import pytest

from lab.documents import DOCUMENTS
from reference_data import needs_source_documents, source_text

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "assets" / "lessons"
WORKED = ["02_worked_examples.md", "zh/02_worked_examples.md"]
# a quotation in curly quotes, not a translation in parentheses: “…” but not (“…”)
QUOTE = re.compile(r"(?<!\()“([^”]+)”")
FILE_NUMBER = re.compile(r"\b[Dd]ocument 00\d\b|\(00\d\)|（00\d）|文档 00\d|00\d ·")


def sections(name: str) -> dict:
    text = (LESSONS / name).read_text(encoding="utf-8")
    out, current = {}, None
    for line in text.splitlines():
        if line.startswith("## ") and "|" in line:
            current = line[3:].partition("|")[0].strip()
            out[current] = []
        elif current:
            out[current].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def blockquote(body: str) -> list:
    """The quoted lines of a section (formulas set as LaTeX are the app's, not quotes)."""
    lines = [ln[1:].strip() for ln in body.splitlines() if ln.startswith(">")]
    return [ln for ln in lines if ln and not ln.startswith("$$")]


@pytest.mark.parametrize("name", WORKED)
@pytest.mark.parametrize("doc", [d.section for d in DOCUMENTS])
def test_each_worked_example_quotes_a_passage(name, doc):
    quoted = blockquote(sections(name)[doc])
    assert len(quoted) >= 2, f"{name} / {doc}: no quoted passage"


@needs_source_documents
@pytest.mark.parametrize("name", WORKED)
@pytest.mark.parametrize("doc", [d.section for d in DOCUMENTS])
def test_each_worked_example_quotes_its_source_word_for_word(name, doc):
    """The list, the claim and the number, in the source's words: "An example for K=4 with
    relevance values [3, 2, 3, 0]:" ... "NDCG@4 = 5.76 / 5.89 = 0.978 approximately"."""
    text = source_text()
    for line in blockquote(sections(name)[doc]):
        assert " ".join(line.split()) in text, f"{name} / {doc}: {line}"


def errata_quotations(name: str) -> dict:
    """Each erratum section's quotations, from its first ("The tutorial says ...") paragraph."""
    errata = {k: v for k, v in sections(name).items() if k.startswith("erratum-")}
    return {sid: QUOTE.findall(body.strip().split("\n\n")[0]) for sid, body in errata.items()}


@pytest.mark.parametrize("name", WORKED)
def test_every_erratum_quotes_something(name):
    said = errata_quotations(name)
    assert len(said) == sum(len(d.errata) for d in DOCUMENTS)
    for sid, quotes in said.items():
        if sid != "erratum-doc004-rounding":  # that one quotes a formula, shown as LaTeX
            assert quotes, f"{name} / {sid}: no quotation"


@needs_source_documents
@pytest.mark.parametrize("name", WORKED)
def test_every_erratum_quotes_the_words_it_corrects(name):
    text = source_text()
    for sid, quotes in errata_quotations(name).items():
        for q in quotes:
            assert " ".join(q.split()) in text, f"{name} / {sid}: {q}"


def lesson_and_page_texts():
    for path in sorted(LESSONS.glob("*.md")) + sorted(LESSONS.glob("zh/*.md")):
        yield path.relative_to(REPO), path.read_text(encoding="utf-8")
    for path in sorted((REPO / "pages").glob("*.py")):
        yield path.relative_to(REPO), path.read_text(encoding="utf-8")


def test_no_page_names_a_source_by_its_file_number():
    """Tabs, titles, lessons and pages say "the e-commerce explainer", not "document 001"."""
    for where, text in lesson_and_page_texts():
        assert not FILE_NUMBER.search(text), f"{where}: {FILE_NUMBER.search(text)[0]}"
    for doc in DOCUMENTS:
        shown = [doc.tab] + [r.title for r in doc.rankings] + [
            c.ranking.title for c in doc.code if c.ranking]
        for label in shown:
            assert not FILE_NUMBER.search(label) and not re.search(r"\b00\d\b", label), label


def test_the_e_commerce_tab_says_what_the_source_is_and_its_cutoff():
    assert [d.tab for d in DOCUMENTS][1] == "E-commerce explainer, K = 4"


@needs_source_documents
@pytest.mark.parametrize("name", ["04_cutoffs.md", "06_beyond.md", "zh/04_cutoffs.md",
                                  "zh/06_beyond.md"])
def test_other_lessons_quote_the_example_they_borrow(name):
    text, src = (LESSONS / name).read_text(encoding="utf-8"), source_text()
    said = QUOTE.findall(text)
    borrowed = [q for q in said if q in src]
    assert borrowed, f"{name}: the borrowed example is not quoted"
