"""Numbers one way (issue 21): the learner pages write every figure with 3 decimals, the data
page ("Evaluate your runs") with 4, as trec_eval prints and the README promises: tables,
metrics, captions, notices, lessons, widget labels, options and help.

Each page is run under AppTest and everything it renders is read as the reader sees it:
Markdown text, metric values, static tables as their Styler draws them, data frames' number
formats (``st.column_config``) and text cells, widgets' labels, options and help. A number
with a decimal point must have the page's decimals. Not figures, and so left out: integers
(``3``, ``k = 5``), ids and versions (``NDCG@5``, ``trec_eval 10.0``, ``9.0.8``), the
sources' own words on the worked-examples page and any quotation (“…”, a block quote),
code, the exact value a tooltip gives on purpose ("Exact: …"), and the few inputs a lesson
writes as a user would type them (grades 2.5 and 2.7, model scores 0.9 and 1.0, the
rounding example 0.51 → 0.5, the significance level α = 0.05): :data:`AS_TYPED`.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from lab.text import DATA_DECIMALS, LEARN_DECIMALS

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))
DATA_PAGE = "pages/your_data.py"
# a decimal number, not part of an id, a version (9.0.8) or a formula's subscript
NUMBER = re.compile(r"(?<![\w.@^/])[-−]?\d+\.\d+(?![\w]|\.\d)")
QUOTED = re.compile(r"“[^”]*”|「[^」]*」|`[^`\n]*`|^\s*>.*$", re.M)
VERSION = re.compile(r"(?:trec_eval|pytrec_eval|ranx|Python|Streamlit|pandas|scikit-learn) \d+\.\d+")
# inputs written as a user types them, not figures (each names where it is)
AS_TYPED = [
    re.compile(r"2\.7 → 2[,，] ?0\.5 → 0[,，] ?−1\.5 → −1"),  # fractional grades truncated
    re.compile(r"1\.00000001 and 1\.0|1\.00000001 和 1\.0"),  # float32 scores that tie (help)
    re.compile(r"such as 2\.5|例如 2\.5"),  # a fractional grade (help)
    re.compile(r"0\.51 and 0\.49[^.]*0\.5|0\.51 和 0\.49[^。]*0\.5"),  # rounding scores
    re.compile(r"score 1\.0; d3 \(grade 1\) gets 0\.5|分数都是 1\.0；d3（等级 1）的分数是 0\.5"),
    # (the ties example's model scores)
    re.compile(r"p < 0\.\d+|α = 0\.\d+"),  # the significance level, as set
    re.compile(r"rounded to 0\.39|舍入成 0\.39"),  # a discount rounded early
]
INPUT_COLUMNS = {"score"}  # model scores a learner types into a lesson's editor
EXACT = re.compile(r"(?:Exact|精确值)[:：][^.。]*")  # a tooltip's exact value, on purpose


def open_page(page: str, lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page(page).run()
    if page == DATA_PAGE:
        at.button(key="yd_sample").click().run()
    assert not at.exception
    return at


def _styled(table) -> list[str]:
    """A static table's cells as drawn: its Styler's display values, else the raw frame."""
    arrow = table.proto.arrow_data
    if arrow.HasField("styler") and arrow.styler.display_values:
        frame = pa.ipc.open_stream(io.BytesIO(arrow.styler.display_values)).read_pandas()
    else:
        frame = table.value
    return [str(v) for v in frame.to_numpy().ravel().tolist()]


def _frame(frame, decimals: int) -> tuple[list[str], list[str]]:
    """(text cells, problems) of a data frame: a column of fractions needs a number format
    with the page's decimals; text cells are read as text."""
    config = json.loads(frame.proto.columns or "{}")
    df, texts, problems = frame.value, [], []
    for column in df.columns:
        values = df[column]
        if column in INPUT_COLUMNS:
            continue
        if values.dtype.kind == "f" and not (values.dropna() % 1 == 0).all():
            form = config.get(str(column), {}).get("type_config", {}).get("format")
            if form != f"%.{decimals}f":
                problems.append(f"data frame column {column!r} shows fractions with format "
                                f"{form!r}, not '%.{decimals}f'")
        elif values.dtype.kind in "OU" or str(values.dtype) in ("str", "string"):
            texts += [str(v) for v in values if isinstance(v, str)]
    return texts, problems


def shown(at, decimals: int) -> tuple[list[tuple[str, str]], list[str]]:
    """(where, text) of everything the page renders that may hold a figure, and the data
    frames' format problems."""
    out = []
    page_is_quotes = any(t.value in ("Worked examples", "算例") for t in at.title)
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "toast",
                 "title", "header", "subheader"):
        if page_is_quotes and kind in ("markdown", "error", "warning", "info", "success"):
            continue  # the sources quoted, with their errata: their numbers as written
        out += [(kind, str(el.value)) for el in at.get(kind)]
    out += [("metric", f"{m.value} {m.delta or ''}") for m in at.metric]
    out += [("table", cell) for table in at.table for cell in _styled(table)]
    problems = []
    for frame in at.dataframe:
        texts, wrong = _frame(frame, decimals)
        if not page_is_quotes:  # there: the claims table, what each source says
            out += [("data frame cell", text) for text in texts]
        problems += wrong
    for kind in ("selectbox", "radio", "multiselect", "segmented_control", "slider",
                 "select_slider", "number_input", "text_input", "toggle", "checkbox"):
        for widget in at.get(kind):
            out.append((f"{kind} label", widget.label))
            out.append((f"{kind} help", getattr(widget, "help", None) or ""))
            out += [(f"{kind} option", str(o)) for o in getattr(widget, "options", [])]
    return out, problems


def wrong_numbers(text: str, decimals: int) -> list[str]:
    text = QUOTED.sub(" ", text)
    for pattern in (VERSION, EXACT, *AS_TYPED):
        text = pattern.sub(" ", text)
    return [n for n in NUMBER.findall(text) if len(n.split(".")[1]) != decimals]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_every_figure_has_the_pages_decimals(page, lang):
    """3 decimals on learner pages, 4 on the data page: no 0.5 beside 0.500, no 0.809953,
    no row with four decimals beside three."""
    at = open_page(page, lang)
    decimals = DATA_DECIMALS if page == DATA_PAGE else LEARN_DECIMALS
    texts, problems = shown(at, decimals)
    assert len(texts) >= 3, "the page shows almost nothing: the test tests nothing"
    for where, text in texts:
        wrong = wrong_numbers(text, decimals)
        if wrong:
            problems.append(f"{where}: {wrong} in {text[:160]!r}")
    assert problems == [], "\n".join(problems)


def test_the_check_sees_a_wrong_number():
    """The reading above fails on the issue's own examples."""
    assert wrong_numbers("NDCG 0.5, then 0.809953, then 0.500", 3) == ["0.5", "0.809953"]
    assert wrong_numbers("DCG 0.2619, NDCG 0.100", 3) == ["0.2619"]
    assert wrong_numbers("trec_eval 10.0 and 9.0.8; “about 4.53”; NDCG@5 = 0.973", 3) == []
