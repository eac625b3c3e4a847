"""AppTest checks of Beyond NDCG: the five metrics on the playground list, MRR."""

from __future__ import annotations



import ndcg_core as nc
from lab import playground as P
from page_tests import metrics, page

# ------------------------------------------------------------------ beyond

def expected_beyond(grades, k, threshold=1):
    return {f"CG@{k}": nc.cg(grades, k=k), f"Precision@{k}": nc.precision_at_k(
        grades, k=k, threshold=threshold), "Reciprocal rank": nc.reciprocal_rank(grades),
        "Average precision": nc.average_precision(grades), f"NDCG@{k}": nc.ndcg(grades, k=k)}


def test_beyond_metrics_follow_a_reorder():
    """Reordering the shared playground ranking moves every order-aware metric."""
    at = page("pages/beyond.py")
    pg = at.session_state["pg"]
    k = pg.cutoff
    before = metrics(at)
    for name, value in expected_beyond(pg.grades, k).items():
        assert before[name] == f"{value:.3f}"
    worst = P.worst_order(pg)
    at.session_state["pg"] = worst
    at.run()
    after = metrics(at)
    for name, value in expected_beyond(worst.grades, k).items():
        assert after[name] == f"{value:.3f}"
    assert after[f"NDCG@{k}"] != before[f"NDCG@{k}"]
    assert after["Reciprocal rank"] != before["Reciprocal rank"]


def test_beyond_threshold_slider_changes_binary_metrics():
    at = page("pages/beyond.py")
    grades = at.session_state["pg"].grades
    at.slider(key="beyond_threshold").set_value(3).run()
    assert metrics(at)["Precision@6"] == f"{nc.precision_at_k(grades, k=6, threshold=3):.3f}"
    assert metrics(at)["MRR of ranks [1, 4, 2, 9]"] == "0.465"


# ------------------------------------------------------------------ in 中文

def test_beyond_in_chinese_labels_its_widgets_and_keeps_every_figure():
    """?lang=zh: the sliders, the gain choice and the metric names in Chinese; the five
    metrics and MRR 0.465 as on the English page."""
    from page_tests import assert_chinese_labels, assert_same_figures_in_both_languages, chinese
    at = assert_same_figures_in_both_languages("pages/beyond.py")
    assert_chinese_labels([at.slider(key="beyond_k"), at.slider(key="beyond_threshold"),
                           at.radio(key="beyond_gain")])
    gain = at.radio(key="beyond_gain")
    assert gain.value == "linear" and gain.options == ["线性", "指数"]
    grades = at.session_state["pg"].grades
    shown = metrics(at)
    assert shown["倒数排名"] == f"{nc.reciprocal_rank(grades):.3f}"
    assert shown["平均精度（AP）"] == f"{nc.average_precision(grades):.3f}"
    assert shown["排名 [1, 4, 2, 9] 的 MRR"] == "0.465"  # (1 + 1/4 + 1/2 + 1/9) / 4
    assert all(chinese(m.proto.help) for m in at.metric if m.label != "排名 [1, 4, 2, 9] 的 MRR")
