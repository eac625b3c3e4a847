"""The playground in 中文 (AppTest): the same page, the same figures, every word Chinese.

A Chinese-speaking teacher projects the playground: its settings, buttons, tabs, notices and
the ranking table's own words (headers, buttons, the refused-grade messages, what a screen
reader hears) are in Chinese; every number is the English page's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lab import grades, playground as P
from lab import ranking_table as RT
from lab.i18n import t
from playground_events import fire, formula_data, item_id, metrics, table_data
from ui import state as app_state

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def open_playground(lang: str, query_params=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def widget_labels(at) -> dict:
    """The settings row's and the buttons' labels, by widget key."""
    return {
        "gain": at.radio(key=app_state.GAIN_WIDGET).label,
        "k": at.slider(key=app_state.K_WIDGET).label,
        "scale": at.selectbox(key=app_state.SCALE_WIDGET).label,
        "pool": at.text_input(key=app_state.UNRETRIEVED_WIDGET).label,
        **{action: at.button(key=f"pg_btn_{action}").label
           for action in ("ideal", "worst", "reverse", "shuffle", "reset")},
    }


def test_the_playground_in_chinese_runs_and_labels_every_widget_in_chinese():
    at = open_playground("zh")
    assert at.title[0].value == "演练场"
    assert widget_labels(at) == {"gain": "增益", "k": "截断位置 k", "scale": "等级体系",
                                 "pool": "已标注但未检索到", "ideal": "理想", "worst": "最差",
                                 "reverse": "倒序", "shuffle": "打乱", "reset": "重置"}
    # the options keep their values (the link's gain=, scale=) and show Chinese names
    gain = at.radio(key=app_state.GAIN_WIDGET)
    assert gain.options == ["线性", "指数", "两者"] and gain.value == "linear"
    assert at.selectbox(key=app_state.SCALE_WIDGET).options == ["0–3", "0–4", "二值（0/1）",
                                                            "自由（任意数字）"]
    assert [tab.label for tab in at.tabs] == ["公式", "图表"]


def test_the_playground_in_english_keeps_its_english_words():
    at = open_playground("en")
    assert at.title[0].value == "Playground"
    assert widget_labels(at)["k"] == "Cutoff k"
    assert table_data(at)["labels"]["your_ranking"] == "Your ranking"


@pytest.mark.parametrize("params", [
    {},
    {"g": "3,2,3,0,1,2,3,0", "k": "5", "gain": "both", "pool": "3,1", "scale": "0-3"},
    {"g": "1.5,0.5,2", "scale": "free", "gain": "exponential"},
])
def test_the_figures_are_the_english_pages(params):
    """Numbers are never translated: the table's figures and rows, the formula's."""
    en, zh = open_playground("en", params), open_playground("zh", params)
    assert metrics(zh) == metrics(en)
    for key in ("figures", "ideal_figures", "idcg", "k", "gains", "max_gain"):
        assert table_data(zh)[key] == table_data(en)[key], key
    assert [r["grade_text"] for r in table_data(zh)["rows"]] == \
        [r["grade_text"] for r in table_data(en)["rows"]]
    assert formula_data(zh) == formula_data(en)


def test_the_ranking_table_receives_its_words_in_chinese():
    at = open_playground("zh")
    d = table_data(at)
    words = d["labels"]
    assert words["your_ranking"] == "你的排序" and words["add_item"] == "+ 添加条目"
    assert words["col_grade"] == "等级" and words["col_cum"] == "累计 DCG"
    assert words["past"] == "（在截断位置 k 之后：不计分）"
    assert words["moved_ndcg"] == "{label} 已移到第 {pos} 位；NDCG@{k} {ndcg}"
    # the refused-grade messages of this scale (0-3), bounds filled, the rest for the browser
    assert words["grade"]["outside"] == ("{value} 超出等级范围：请输入 0 到 3 之间的整数。"
                                         "等级保持为 {current}。")
    assert d["scale_text"] == "等级：0 到 3 之间的整数"
    assert CJK.search(d["hint"])
    # every word the table shows is Chinese, not the English fallback
    english = open_playground("en")
    en_words = table_data(english)["labels"]
    same = [key for key, value in words.items()
            if key != "grade" and value == en_words[key] and not value.startswith("log")]
    assert same == [], same


def test_a_refused_grade_reads_in_chinese():
    """The table's check and the state's check, as the page calls them in Chinese."""
    at = open_playground("zh")
    pg = at.session_state[app_state.PG]
    rows = [{"id": it.id, "label": it.label, "grade": it.grade} for it in pg.items]
    doc_d = item_id(at, "Doc D")
    _, message, row = RT.check_event({"action": "grade", "id": doc_d, "grade": 9}, rows,
                                     scale=grades.SCALES[pg.scale], lang="zh")
    assert (message, row) == ("9 超出等级范围：请输入 0 到 3 之间的整数。等级保持为 0。", doc_d)
    with pytest.raises(ValueError, match="^9 超出等级范围：请输入 0 到 3 之间的整数。"
                                         "等级保持为 0。$"):  # the same words
        P.apply_event(pg, {"action": "grade", "id": doc_d, "grade": 9}, lang="zh")
    # the English page is unchanged (one whole message per case in each language)
    assert fire(open_playground("en"), {"action": "grade", "id": doc_d, "grade": 2.5}) == (
        "2.5 is not a whole number: this scale takes a whole number from 0 to 3. "
        "The grade stays 0.")


def test_a_link_that_cannot_be_read_is_explained_in_chinese():
    at = open_playground("zh", {"g": "3,abc"})
    warning = at.warning[0].value
    assert warning.startswith("无法读取链接中的排序（") and "不是数字" in warning
    assert "改为显示默认示例" in warning


def test_a_pool_that_cannot_be_read_is_explained_in_chinese():
    at = open_playground("zh")
    at.text_input(key=app_state.UNRETRIEVED_WIDGET).set_value("3, two").run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        t("{problem}: write grades separated by commas, e.g. 3, 2, 1.", "zh",
          problem="未检索到的等级中有 'two'，它不是数字")]
    assert at.error[0].value == "未检索到的等级中有 'two'，它不是数字：请输入用逗号分隔的等级，例如 3, 2, 1。"


def test_the_charts_speak_chinese_with_a_cjk_font():
    """The charts tab: titles, axes and legends in Chinese, and a font list with CJK faces."""
    import json

    at = open_playground("zh")
    at.session_state[app_state.VIEW] = "图表"
    at.run()
    assert not at.exception
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert specs, "the charts tab drew no chart"
    titles = [s["layout"]["title"]["text"] for s in specs]
    assert titles == ["每个位置为 DCG 贡献多少（线性增益）", "每个截断位置 k 的 NDCG@k"]
    for spec in specs:
        assert "WenQuanYi Micro Hei" in spec["layout"]["font"]["family"]
        assert "Noto Sans CJK SC" in spec["layout"]["font"]["family"]
    assert [tr["name"] for tr in specs[0]["data"]] == ["你的排序：DCG@6 = 6.861",
                                                       "理想排序：IDCG@6 = 7.141"]
    assert [tr["name"] for tr in specs[1]["data"]] == ["线性增益", "指数增益"]


def test_an_added_item_is_named_in_chinese():
    """A new row's name is the page's word for "Item" (then a label like any other)."""
    at = open_playground("zh")
    assert fire(at, {"action": "add"}) is None
    assert at.session_state[app_state.PG].labels[-1] == "条目 7"
    assert P.apply_event(P.default(), {"action": "add"}).labels[-1] == "Item 7"
