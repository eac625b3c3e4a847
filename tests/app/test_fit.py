"""Every page writes numbers one way, and the small inconsistencies of issue 12 stay fixed.

The number format is declared once (``lab.text``: 3 decimals on learner pages, as the
exercises' ±0.001 asks; 4 on the data page, as trec_eval prints). These tests read what each
page shows -- metrics, the formats of number columns, the cells of static tables, the
formulas and the feedback boxes -- and fail on any figure written with other decimals.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import documents, exercises as X, lessons, tour
from lab.i18n import t
from lab.text import DATA_DECIMALS, LEARN_DECIMALS, number_format
from ui import state as app_state

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
LEARNER_PAGES = ["pages/start_here.py", "pages/worked_examples.py", "pages/gain.py",
                 "pages/cutoffs.py", "pages/conventions.py", "pages/beyond.py",
                 "pages/mistakes.py",
                 "pages/playground.py", "pages/practice.py"]
# a figure with decimals: 0.961, 13.848 (not a grade list [3, 2], not "log_2 3")
DECIMAL = re.compile(r"(?<![\d.])\d+\.(\d+)(?![\d.])")


def open_page(path: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(path).run()
    assert not at.exception, at.exception
    return at


def decimals_in(text: str) -> set[int]:
    return {len(d) for d in DECIMAL.findall(text)}


def table_cells(el) -> list[str]:
    """The cells a static table (st.table) shows: its Styler's display values."""
    styler = el.proto.arrow_data.styler
    shown = pa.ipc.open_stream(io.BytesIO(styler.display_values)).read_pandas()
    floats = [c for c in el.value.columns if el.value[c].dtype.kind == "f"]
    return [str(v) for c in floats for v in shown[c]]


def stray_formats(at: AppTest, digits: int) -> list[str]:
    """Every figure on the page not written with ``digits`` decimals, as 'where: what'."""
    stray = []
    for m in at.metric:
        if decimals_in(m.value) - {digits}:
            stray.append(f"metric {m.label!r}: {m.value}")
    for el in at.dataframe:
        if el.proto.editing_mode:  # a data editor shows the values as the user typed them
            continue
        config = json.loads(el.proto.columns or "{}")
        for col in el.value.columns:
            if el.value[col].dtype.kind != "f":
                continue
            fmt = config.get(col, {}).get("type_config", {}).get("format")
            if fmt != number_format(digits):
                stray.append(f"dataframe column {col!r}: format {fmt}")
    for el in at.table:
        for cell in table_cells(el):
            if decimals_in(cell) - {digits}:
                stray.append(f"table cell {cell!r}")
    for el in at.latex:
        if decimals_in(el.value) - {digits}:
            stray.append(f"formula {el.value!r}")
    # the app's own messages (lesson prose, errata included, quotes the documents' digits)
    for kind in ("success", "error", "info"):
        for el in getattr(at, kind):
            if decimals_in(el.value) - {digits}:
                stray.append(f"{kind} {el.value!r}")
    return stray


@pytest.mark.parametrize("path", LEARNER_PAGES)
def test_learner_pages_write_every_figure_with_3_decimals(path):
    at = open_page(path)
    assert LEARN_DECIMALS == 3
    assert not stray_formats(at, LEARN_DECIMALS)


def test_every_worked_example_tab_writes_3_decimals():
    """The tabs are all rendered at once: every document's tables, formulas and claims."""
    at = open_page("pages/worked_examples.py")
    assert len(at.latex) >= 2 * sum(len(d.rankings) for d in documents.DOCUMENTS)
    assert not stray_formats(at, LEARN_DECIMALS)


def practice_with_feedback() -> AppTest:
    """The exercises page after a Check with nothing typed: the red "nothing typed" errors."""
    at = open_page("pages/practice.py")
    at.button(key="px_check").click().run()
    assert at.error, "an empty answer is reported"
    return at


def test_exercise_solution_and_feedback_write_3_decimals():
    at = practice_with_feedback()
    for step, value in X.solution(X.generate(1, "medium", "compute")).items():
        if step in X.STEPS:
            at.text_input(key=app_state.PX_ANSWER.format(step)).input(f"{value:.3f}")
    at.button(key="px_check").click().run()
    assert at.success and not stray_formats(at, LEARN_DECIMALS)
    at.button(key="px_reveal").click().run()
    assert at.latex and not stray_formats(at, LEARN_DECIMALS)


def test_spot_the_mistake_feedback_and_solution_write_3_decimals():
    """Every option picked in turn (the report quotes each one's figure), then the
    solution."""
    at = open_page("pages/practice.py")
    at.radio(key=app_state.PX_KIND).set_value("spot").run()
    ex = X.generate(1, "medium", "spot")
    for key in ex.options:
        at.radio(key=app_state.PX_CHOICE).set_value(key)
        at.button(key="px_check").click().run()
        assert (at.success or at.error) and not stray_formats(at, LEARN_DECIMALS), key
    at.button(key="px_reveal").click().run()
    assert at.latex and not stray_formats(at, LEARN_DECIMALS)


def test_the_data_page_writes_4_decimals_as_trec_eval_prints():
    at = open_page("pages/your_data.py")
    at.button(key="yd_sample").click().run()
    assert not at.exception and at.dataframe  # the means are a table now
    assert DATA_DECIMALS == 4
    assert not stray_formats(at, DATA_DECIMALS)


# ------------------------------------------------------------------ one name per page

def test_the_exercises_page_has_the_name_the_sidebar_gives_it():
    registered = re.search(r'st\.Page\("pages/practice\.py", title=t\("([^"]+)"',
                           (ROOT / "app.py").read_text())[1]
    at = open_page("pages/practice.py")
    assert at.title[0].value == registered == "Exercises"
    # in Chinese too: the sidebar's name (the catalog's) is the lesson's title
    zh = lessons.LESSONS / "zh" / "07_practice.md"
    assert f"title: {t(registered, 'zh')}\n" in zh.read_text(encoding="utf-8")


def test_the_stepper_and_the_lesson_count_the_same_steps():
    """The tour shows "1 of 4 · Step 1: ...", and the lesson says four steps, listing four."""
    n = len(tour.TOUR)
    for i, step in enumerate(tour.TOUR, start=1):
        assert tour.heading(step).startswith(f"Step {i}: ")
    zh = lessons.LESSONS / "zh" / "01_start_here.md"
    for i, sid in enumerate((s.section for s in tour.TOUR), start=1):
        assert f"## {sid} | 第 {i} 步：" in zh.read_text(encoding="utf-8")
    meta, intro = lessons.lesson(tour.START)["meta"], lessons.lesson(tour.START)["sections"]
    words = {4: "four"}
    assert words[n] in meta["title"] and words[n] in meta["summary"]
    assert f"built in {words[n]} steps" in intro["intro"][1]
    assert len(re.findall(r"^\d\. ", intro["intro"][1], re.M)) == n
    at = open_page("pages/start_here.py")
    for i in range(1, n + 1):
        shown = at.get("progress")[0].proto.text
        assert shown.startswith(f"{i} of {n} · Step {i}: "), shown
        if i < n:
            at.button(key="sh_next").click().run()


def test_show_solution_clears_the_stale_errors_above_it():
    """After "Show solution", the "nothing typed" errors of the attempt are gone."""
    at = practice_with_feedback()
    at.button(key="px_reveal").click().run()
    assert not at.error
    assert any(h.value == "Solution" for h in at.markdown) or any(
        "Solution" in m.value for m in at.markdown)


def test_the_checker_grades_all_three_answers_together():
    """A right DCG alone is not graded as right; the lesson says all three count."""
    ex = X.generate(1, "medium", "compute")
    right = {s: f"{v:.3f}" for s, v in X.solution(ex).items() if s in X.STEPS}
    assert X.check(ex, right).status == "correct"
    assert X.check(ex, {**right, "ndcg": "0.001"}).status == "wrong"
    text = lessons.lesson("07_practice")["sections"]["how-checked"][1]
    assert "DCG first" not in text and "graded together" in text


def test_example_003_code_and_its_playground_use_the_same_cutoff():
    """The code's NDCG@5 of a four-item list is NDCG@4: the tables and the playground
    button use k = 4, and the title says why. No worked example cuts past its list."""
    for doc in documents.DOCUMENTS:
        for r in [*doc.rankings, *(c.ranking for c in doc.code if c.ranking)]:
            assert r.cutoff <= len(r.grades), r.key
    ex2 = next(c for d in documents.DOCUMENTS for c in d.code if c.title == "Example 2")
    assert ex2.ranking.cutoff == 4 and "NDCG@4" in ex2.ranking.title
    # grades [3, 0, 2, 1]: 3 + 0 + 2/2 + 1/log2 5 = 4.4307 over 3 + 2/log2 3 + 1/2 = 4.7619
    printed = float(ex2.prints().split(": ")[1])
    assert printed == pytest.approx(nc.ndcg([3, 0, 2, 1], k=4), abs=1e-11)
    assert "NDCG@5" in ex2.code


def test_the_flip_finder_and_its_lesson_name_the_orderings_p_and_q():
    at = open_page("pages/gain.py")
    table = next(d.value for d in at.dataframe if "ordering" in d.value.columns)
    assert list(table["ordering"]) == ["P", "Q"]
    for name in ("03_gain.md", "zh/03_gain.md"):
        text = (lessons.LESSONS / name).read_text(encoding="utf-8")
        assert "**P**" in text and "**Q**" in text, name
