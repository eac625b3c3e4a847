"""AppTest checks of Beyond NDCG: the five metrics on the playground list, MRR."""

from __future__ import annotations



import ndcg_core as nc
from lab import playground as S
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
    worst = S.worst_order(pg)
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
