"""AppTest checks of Start here: the tour's steps, the one relevant item, the shop's grades.
Every Learn page also runs without an exception."""

from __future__ import annotations

import math

import pytest

import ndcg_core as nc
from lab import tour
from lab import lessons as L
from page_tests import DOC000, LEARN_PAGES, open_page

# ------------------------------------------------------------------ every page runs

@pytest.mark.parametrize("path", LEARN_PAGES)
def test_learn_page_runs_without_exception(path):
    """Each of the three pages renders with no exception."""
    at = open_page(path)
    assert at.title, "the page shows its lesson title"


@pytest.mark.parametrize("path", LEARN_PAGES)
def test_learn_page_runs_in_chinese(path):
    """Each of the three pages renders with ?lang=zh, its lesson title in Chinese."""
    from page_tests import chinese, in_language
    assert chinese(in_language(path, "zh").title[0].value)


# ------------------------------------------------------------------ start here

def test_start_here_steps_advance_from_cg_to_ndcg():
    """Next walks CG → DCG → IDCG → NDCG, each step with its lesson text and live number."""
    at = open_page("pages/start_here.py")
    sections = L.lesson(tour.START)["sections"]
    expected = [  # (section id, metric label, value as shown)
        ("step-cg", "CG@5 of [3, 2, 3, 0, 1]", "9"),  # 3 + 2 + 3 + 0 + 1
        ("step-dcg", "DCG@6",  # rel = 3, 2, 3, 0, 1, 2
         f"{3 + 2 / math.log2(3) + 3 / 2 + 1 / math.log2(6) + 2 / math.log2(7):.3f}"),
        ("step-idcg", "IDCG@6",  # rel = 3, 3, 2, 2, 1, 0
         f"{3 + 3 / math.log2(3) + 1 + 2 / math.log2(5) + 1 / math.log2(6):.3f}"),
        ("step-ndcg", "NDCG@6 (linear)", f"{nc.ndcg(DOC000, k=6):.3f}"),
    ]
    assert expected[1][2] == "6.861" and expected[2][2] == "7.141"
    for i, (sid, label, value) in enumerate(expected):
        heading = sections[sid][0]
        progress = at.get("progress")[0]
        assert progress.proto.text == f"{i + 1} of 4 · {heading}"
        assert any(m.value.lstrip("#").startswith(f" {heading}") for m in at.markdown)
        shown = {m.label: m.value for m in at.metric}
        assert shown[label] == value
        assert at.button(key="sh_prev").disabled == (i == 0)
        assert at.button(key="sh_next").disabled == (i == 3)
        if i < 3:
            at.button(key="sh_next").click().run()
            assert not at.exception
    at.button(key="sh_prev").click().run()
    assert at.get("progress")[0].proto.text.startswith("3 of 4")


def test_start_here_precision_cannot_see_position_but_ndcg_can():
    """One relevant item at 1 or at 10: precision@10 is 0.1 both times, NDCG@10 1 vs 0.2891."""
    at = open_page("pages/start_here.py")
    at.slider(key="sh_hit_pos").set_value(10).run()
    metrics = [(m.label, m.value) for m in at.metric]
    assert metrics.count(("precision@10", "0.100")) == 2
    assert ("NDCG@10", "1.000") in metrics
    assert ("NDCG@10", f"{1 / math.log2(11):.3f}") in metrics  # grade 1 at position 10


def test_start_here_binary_mapping_changes_the_shop_ndcg():
    """Switching the action → grade mapping to binary rescores the shop list."""
    at = open_page("pages/start_here.py")
    actions = [a for _, a in tour.SHOP]
    for mapping in tour.MAPPINGS:
        at.radio(key="sh_mapping").set_value(mapping).run()
        grades = tour.grades_of(actions, mapping)
        shown = {m.label: m.value for m in at.metric}
        assert shown["shop list NDCG@6 (linear)"] == f"{nc.ndcg(grades, k=6):.3f}"
        assert shown["shop list NDCG@6 (exponential)"] == \
            f"{nc.ndcg(grades, k=6, gain='exponential'):.3f}"
    assert tour.grades_of(actions, "0–3: purchased 3 · cart 2 · viewed 1 · ignored 0") == \
        [1, 3, 0, 2, 0, 3]


# ------------------------------------------------------------------ in 中文

def test_start_here_in_chinese_labels_its_widgets_and_keeps_every_figure():
    """?lang=zh: the tour, the slider, the mapping and the shop speak Chinese; the numbers
    (CG 9, DCG 6.861, the shop's NDCG) are the English page's."""
    from page_tests import assert_chinese_labels, assert_same_figures_in_both_languages, chinese
    at = assert_same_figures_in_both_languages("pages/start_here.py")
    assert_chinese_labels([at.button(key="sh_prev"), at.button(key="sh_next"),
                           at.slider(key="sh_hit_pos"), at.radio(key="sh_mapping")])
    assert at.get("progress")[0].proto.text.startswith("第 1 步，共 4 步 · ")
    # the mapping is stored in English (the grades' key), shown in Chinese
    radio = at.radio(key="sh_mapping")
    assert radio.value in tour.MAPPINGS and all(chinese(o) for o in radio.options)
    shown = {m.label: m.value for m in at.metric}
    assert shown["[3, 2, 3, 0, 1] 的 CG@5"] == "9"  # 3 + 2 + 3 + 0 + 1
    assert shown["商品列表 NDCG@6（线性增益）"] == f"{nc.ndcg([1, 3, 0, 2, 0, 3], k=6):.3f}"
    shop = next(df.value for df in at.dataframe if "what the shopper did" in df.value.columns)
    assert list(shop["product"]) == ["越野跑鞋", "跑步袜", "水壶", "运动手表", "运动发带", "健身包"]


def test_start_here_in_chinese_walks_the_tour_to_ndcg():
    """The Chinese tour's last step shows NDCG@6 under both gains with the same values."""
    from page_tests import in_language
    at = in_language("pages/start_here.py", "zh")
    for _ in range(3):
        at.button(key="sh_next").click().run()
        assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert shown["NDCG@6（线性增益）"] == f"{nc.ndcg(DOC000, k=6):.3f}"
    assert shown["NDCG@6（指数增益）"] == f"{nc.ndcg(DOC000, k=6, gain='exponential'):.3f}"
