"""AppTest checks of Cutoffs: NDCG@k curves, a longer cutoff scoring lower, the same-cutoff
ideal and where the ideal comes from."""

from __future__ import annotations



import ndcg_core as nc
from page_tests import metrics, page

# ------------------------------------------------------------------ cutoffs

def test_cutoffs_shows_ndcg10_below_ndcg5():
    """The twelve-item example: NDCG@5 = 1.0, NDCG@10 = 0.865119."""
    shown = metrics(page("pages/cutoffs.py"))
    g = [3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2]
    assert shown["NDCG@5"] == f"{nc.ndcg(g, k=5):.3f}" == "1.000"
    assert shown["NDCG@10"] == f"{nc.ndcg(g, k=10):.3f}" == "0.865"


def test_cutoffs_ideal_pool_and_mixed_cutoffs():
    """Ideal from the list scores 1.0, from all judgments 0.808082; an IDCG cut at 1 exceeds 1."""
    at = page("pages/cutoffs.py")
    shown = metrics(at)
    assert shown["ideal from the list · NDCG@3"] == "1.000"
    assert shown["ideal from all judgments · NDCG@3"] == "0.808"
    at.slider(key="cut_k2").set_value(1).run()
    ratio = nc.dcg([3, 2, 3, 0, 1, 2], k=3) / nc.idcg([3, 2, 3, 0, 1, 2], k=1)
    assert metrics(at)["DCG@3 / IDCG@1"] == f"{ratio:.3f}"
    assert ratio > 1 and "more than 1" in at.error[0].value


def test_open_in_playground_carries_the_unretrieved_item():
    """"Open in playground" on the ideal-pool example loads d1 d2 d3 with d4 in the pool."""
    at = page("pages/cutoffs.py")
    at.button(key="cut_open_pool").click().run()
    assert not at.exception
    pg = at.session_state["pg"]
    assert pg.grades == (3, 2, 1) and pg.unretrieved == (3,) and pg.k == 3


# ------------------------------------------------------------------ in 中文

def test_cutoffs_in_chinese_labels_its_widgets_and_keeps_every_figure():
    """?lang=zh: sliders, the pool choice and the layouts in Chinese; NDCG@5 = 1.000,
    NDCG@10 = 0.865 and the ideal-pool figures as on the English page."""
    from page_tests import assert_chinese_labels, assert_same_figures_in_both_languages, chinese
    at = assert_same_figures_in_both_languages("pages/cutoffs.py")
    assert_chinese_labels([at.slider(key="cut_k"), at.slider(key="cut_k2"),
                           at.radio(key="cut_pool"), at.segmented_control(key="cut_layout"),
                           at.button(key="cut_open_drop"), at.button(key="cut_open_pool")])
    # the stored choices stay language-independent, their names are Chinese
    layout = at.segmented_control(key="cut_layout")
    assert layout.value == "widget (6 slots)" and all(chinese(o) for o in layout.options)
    assert at.radio(key="cut_pool").value == "all judgments"
    shown = metrics(at)
    assert shown["NDCG@10"] == "0.865"
    assert shown["理想排序取自全部标注 · NDCG@3"] == "0.808"


def test_cutoffs_in_chinese_warns_about_mixed_cutoffs():
    from page_tests import in_language
    at = in_language("pages/cutoffs.py", "zh")
    at.slider(key="cut_k2").set_value(1).run()
    ratio = nc.dcg([3, 2, 3, 0, 1, 2], k=3) / nc.idcg([3, 2, 3, 0, 1, 2], k=1)
    assert metrics(at)["DCG@3 / IDCG@1"] == f"{ratio:.3f}"
    assert at.error[0].value.startswith("截断位置不一致：") and f"{ratio:.3f}" in \
        at.error[0].value and "大于 1" in at.error[0].value
