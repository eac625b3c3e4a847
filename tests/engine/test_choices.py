"""compare_choices and its curves: each figure against SciPy, statsmodels or its definition,
on random data with seeds; the edge cases give a message naming the fix, or NaN with a reason."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ndcg_core as nc
from ndcg_core import _choice_stats as S
from ndcg_core._significance import _p_value

SEEDS = [3, 17, 2024]


def random_data(seed, n_queries=20, n_systems=5, n_docs=15):
    """Judgments graded 0-3 and runs whose skill differs (score = skill * grade + noise)."""
    rng = np.random.default_rng(seed)
    qids = [f"q{i:02d}" for i in range(n_queries)]
    rows = [(q, f"d{d}", int(g)) for q in qids
            for d, g in enumerate(rng.choice(4, n_docs, p=[.5, .25, .15, .1]))]
    qrels = pd.DataFrame(rows, columns=["qid", "docid", "relevance"])
    runs = {}
    for s in range(n_systems):
        score = rng.uniform(0, 1.5) * qrels["relevance"] + rng.normal(size=len(qrels))
        runs[f"s{s}"] = qrels[["qid", "docid"]].assign(score=score.round(6))
    return qrels, runs


CHOICES = {"linear@10": dict(gain="linear", k=10), "exp@10": dict(gain="exponential", k=10),
           "linear@3": dict(gain="linear", k=3), "exp@5 judged": dict(gain="exponential", k=5,
                                                                   judged_only=True)}


def tau_ap_by_definition(x, truth):
    """Yilmaz, Aslam & Robertson (2008), eq. 1, transcribed: items in x's order (no ties);
    C(i) = how many of the i-1 items above the i-th the truth also ranks above it."""
    order = sorted(range(len(x)), key=lambda a: -x[a])
    total = 0.0
    for i in range(1, len(order)):
        item = order[i]
        c = sum(1 for above in order[:i] if truth[above] > truth[item])
        total += c / i
    return 2 / (len(x) - 1) * total - 1


# ------------------------------------------------------------------ agreement

@pytest.mark.parametrize("seed", SEEDS)
def test_kendall_tau_is_scipys_tau_b_between_the_mean_orderings(seed):
    """kendall_tau of each choice equals scipy.stats.kendalltau of the systems' means."""
    qrels, runs = random_data(seed)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    table = nc.compare_choices(qrels, runs, CHOICES, scores=scores)
    ref = scores["linear@10"].mean()
    for name in CHOICES:
        expected = stats.kendalltau(scores[name].mean(), ref).statistic
        assert table.loc[name, "kendall_tau"] == pytest.approx(expected, abs=1e-9)
    matrix = nc.tau_matrix(scores)
    for a, b in itertools.product(CHOICES, CHOICES):
        expected = stats.kendalltau(scores[a].mean(), scores[b].mean()).statistic
        assert matrix.loc[a, b] == pytest.approx(expected, abs=1e-9)


def test_kendall_tau_b_with_ties_matches_scipy():
    """Tied means: τ-b's tie adjustment is SciPy's (to 1e-12)."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        x, y = rng.integers(0, 4, 8).astype(float), rng.integers(0, 4, 8).astype(float)
        expected = stats.kendalltau(x, y).statistic
        got = S.kendall_tau_b(x, y)
        assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected,
                                                                                  abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_tau_ap_follows_its_definition_without_ties(seed):
    """τ_AP equals a direct transcription of Yilmaz et al.'s definition on random orders."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    x, truth = rng.permutation(n).astype(float), rng.permutation(n).astype(float)
    assert S.tau_ap(x, truth) == pytest.approx(tau_ap_by_definition(x, truth), abs=1e-12)


def test_tau_ap_weighs_a_swap_at_the_top_more():
    """Swapping the top two of five costs τ_AP more than swapping the bottom two; τ-b sees
    one discordant pair of ten either way ((9 - 1) / 10 = 0.8)."""
    truth = np.array([5.0, 4, 3, 2, 1])
    top, bottom = np.array([4.0, 5, 3, 2, 1]), np.array([5.0, 4, 3, 1, 2])
    assert S.kendall_tau_b(top, truth) == S.kendall_tau_b(bottom, truth) == pytest.approx(0.8)
    # top swap: C = 0, 2, 3, 4 -> 2/4 (0/1 + 2/2 + 3/3 + 4/4) - 1 = 0.5
    assert S.tau_ap(top, truth) == pytest.approx(2 / 4 * (0 + 1 + 1 + 1) - 1)
    # bottom swap: C = 1, 2, 3, 3 -> 2/4 (1 + 1 + 1 + 3/4) - 1 = 0.875
    assert S.tau_ap(bottom, truth) == pytest.approx(2 / 4 * (1 + 1 + 1 + 3 / 4) - 1)


def test_tau_ap_counts_a_tied_pair_half():
    """Two systems tied under the choice: their pair counts ½ (the stated rule)."""
    truth = np.array([3.0, 2, 1])
    tied = np.array([2.0, 2, 1])
    # list: a, b (tied, in the truth's order), c; C(2) = ½, C(3) = 2 -> 2/2 (½ + 2/2) - 1
    assert S.tau_ap(tied, truth) == pytest.approx(2 / 2 * (0.5 / 1 + 2 / 2) - 1)


def test_swapped_pairs_are_named_with_their_means():
    """A pair ordered one way by the reference and the other by the choice is listed."""
    scores = {"ref": pd.DataFrame({"a": [0.9, 0.7], "b": [0.5, 0.6], "c": [0.1, 0.2]},
                                  index=["q1", "q2"]),
              "other": pd.DataFrame({"a": [0.4, 0.5], "b": [0.5, 0.6], "c": [0.1, 0.2]},
                                    index=["q1", "q2"])}
    pairs = nc.swapped_pairs(scores, "other", reference="ref")
    assert pairs[["system_1", "system_2"]].values.tolist() == [["a", "b"]]
    assert pairs.loc[0, "reference_1"] == pytest.approx(0.8)
    assert pairs.loc[0, "choice_1"] == pytest.approx(0.45)


def test_disagreement_finds_the_query_that_moves_most():
    scores = {"ref": pd.DataFrame({"a": [0.9, 0.7], "b": [0.5, 0.6]}, index=["q1", "q2"]),
              "other": pd.DataFrame({"a": [0.8, 0.1], "b": [0.5, 0.6]}, index=["q1", "q2"])}
    assert nc.disagreement(scores, "other", reference="ref") == {
        "qid": "q2", "system": "a", "reference": 0.7, "choice": 0.1}
    assert nc.disagreement(scores, "ref", reference="ref") is None


# ------------------------------------------------------------------ p-values

def pair_columns(scores, name):
    frame = scores[name]
    for a, b in itertools.combinations(frame.columns, 2):
        yield a, b, frame[b].to_numpy(), frame[a].to_numpy()


@pytest.mark.parametrize("seed", SEEDS)
def test_t_test_pvalues_are_scipys_ttest_rel(seed):
    qrels, runs = random_data(seed)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    p = nc.pair_pvalues(scores, test="t")
    for name in CHOICES:
        for a, b, x, y in pair_columns(scores, name):
            expected = stats.ttest_rel(x, y).pvalue if (x != y).any() else 1.0
            assert p.loc[(a, b), name] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_wilcoxon_pvalues_are_scipys_wilcoxon(seed):
    qrels, runs = random_data(seed, n_queries=60)  # above 50: SciPy's normal approximation
    scores = nc.choice_scores(qrels, runs, CHOICES)
    p = nc.pair_pvalues(scores, test="wilcoxon")
    for name in CHOICES:
        for a, b, x, y in pair_columns(scores, name):
            expected = stats.wilcoxon(x, y).pvalue if (x != y).any() else 1.0
            assert p.loc[(a, b), name] == pytest.approx(expected, abs=1e-9)


def test_wilcoxon_on_few_queries_is_scipys_exact_test():
    """On 8 queries, every pair of every choice: SciPy's exact distribution where no query
    ties or differs by 0, its permutation test over all 2^8 sign flips where one does (on
    13 queries or fewer; 12 queries cost 2^12 flips, 17 s of CPU, for the same check)."""
    qrels, runs = random_data(8, n_queries=8)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    p = nc.pair_pvalues(scores, test="wilcoxon")
    paths = set()
    for name in CHOICES:
        for a, b, x, y in pair_columns(scores, name):
            expected = stats.wilcoxon(x, y).pvalue if (x != y).any() else 1.0
            assert p.loc[(a, b), name] == pytest.approx(expected, abs=1e-9)
            d = np.abs(x - y)
            if d.any():
                paths.add("permutation" if (d == 0).any() or len(set(d)) < d.size
                          else "exact")
    assert paths == {"exact", "permutation"}  # both of SciPy's small-sample paths checked


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
@pytest.mark.parametrize("n_queries", [10, 40])
def test_resampling_pvalues_are_compares_with_the_same_draws(test, n_queries):
    """Each pair's p is what ndcg_core.compare's per-pair code gives with the same seed and
    resamples (exact enumeration for 10 queries, 2^10 <= 2,000)."""
    qrels, runs = random_data(11, n_queries=n_queries)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    p = nc.pair_pvalues(scores, test=test, n_resamples=2000, seed=4)
    for a, b, x, y in pair_columns(scores, "linear@10"):
        assert p.loc[(a, b), "linear@10"] == pytest.approx(_p_value(x, y, test, 2000, 4),
                                                           abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_discriminative_power_counts_pairs_below_alpha(seed):
    qrels, runs = random_data(seed)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    table = nc.compare_choices(qrels, runs, CHOICES, scores=scores, alpha=0.1)
    p = nc.pair_pvalues(scores)
    for name in CHOICES:
        assert table.loc[name, "significant_pairs"] == (p[name] < 0.1).sum()
        assert table.loc[name, "pairs"] == 10  # 5 systems
        assert table.loc[name, "discriminative_power"] == pytest.approx((p[name] < 0.1).mean())


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_a_correction_adjusts_each_choices_pairs_before_alpha(correction):
    """With Holm or BH, a pair counts when its adjusted p (statsmodels' multipletests) is
    below alpha; never more pairs than unadjusted."""
    from statsmodels.stats.multitest import multipletests
    qrels, runs = random_data(4, n_queries=30)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    p = nc.pair_pvalues(scores)
    table = nc.compare_choices(qrels, runs, CHOICES, scores=scores, correction=correction)
    plain = nc.compare_choices(qrels, runs, CHOICES, scores=scores)
    method = {"holm": "holm", "bh": "fdr_bh"}[correction]
    for name in CHOICES:
        adjusted = multipletests(p[name], method=method)[1]
        assert table.loc[name, "significant_pairs"] == (adjusted < 0.05).sum()
        assert table.loc[name, "significant_pairs"] <= plain.loc[name, "significant_pairs"]


def test_achieved_significance_curve_is_each_choices_sorted_pvalues():
    qrels, runs = random_data(1)
    p = nc.pair_pvalues(nc.choice_scores(qrels, runs, CHOICES))
    curve = nc.achieved_significance(p)
    for name in CHOICES:
        part = curve[curve["choice"] == name]
        assert part["rank"].tolist() == list(range(1, 11))
        assert part["p"].tolist() == sorted(p[name])


# ------------------------------------------------------------------ stability

def swap_rate_by_loops(frame, size, n_splits, seed, difference):
    """Voorhees & Buckley's count, one split and one pair at a time, on the same splits."""
    one, two = S.split_halves(len(frame), size, n_splits, seed)
    x = frame.to_numpy()
    swapped = counted = 0
    for s in range(n_splits):
        first, second = one[s], two[s]
        assert not set(first) & set(second) and len(set(first)) == len(set(second)) == size
        for a, b in itertools.combinations(range(x.shape[1]), 2):
            d1 = x[first, b].mean() - x[first, a].mean()
            d2 = x[second, b].mean() - x[second, a].mean()
            if d1 != 0 and abs(d1) >= difference:
                counted += 1
                swapped += (d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)
    return swapped / counted


@pytest.mark.parametrize("difference", [0.0, 0.02])
def test_swap_curve_counts_reversals_between_disjoint_sets(difference):
    qrels, runs = random_data(7, n_queries=30)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    curve = nc.swap_curve(scores, difference=difference, sizes=[5, 15], n_splits=30, seed=2)
    for name in CHOICES:
        for size in (5, 15):
            got = curve[(curve["choice"] == name) & (curve["size"] == size)]["swap_rate"]
            assert got.item() == pytest.approx(
                swap_rate_by_loops(scores[name], size, 30, 2, difference), abs=1e-12)


def test_swap_rate_column_is_the_curve_at_half_the_queries():
    qrels, runs = random_data(7, n_queries=30)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    table = nc.compare_choices(qrels, runs, CHOICES, scores=scores, n_splits=50, seed=3)
    curve = nc.swap_curve(scores, sizes=[15], n_splits=50, seed=3).set_index("choice")
    assert table["swap_rate"].tolist() == pytest.approx(curve["swap_rate"].tolist())


def test_queries_for_swap_rate_reads_or_extrapolates_the_curve():
    """Measured where the curve falls under 5 %; else log-linear (V&B 2002) extrapolation."""
    curve = pd.DataFrame({"choice": ["a"] * 3 + ["b"] * 3, "size": [5, 10, 15] * 2,
                          "swap_rate": [0.2, 0.04, 0.03, 0.4, 0.2, 0.1], "counted": 10})
    found = nc.queries_for_swap_rate(curve, target=0.05)
    assert found.loc["a"].tolist() == [10, "measured"]
    # b halves every 5 queries: 0.4 · 2^(-(n-5)/5) = 0.05 at n = 20
    assert found.loc["b"].tolist() == [20, "extrapolated"]


def test_topic_set_size_is_the_smallest_n_with_power_by_statsmodels():
    """Sakai's n: statsmodels' paired t-test power reaches 0.8 at n and not at n - 1."""
    from statsmodels.stats.power import TTestPower
    qrels, runs = random_data(9, n_queries=40)
    scores = nc.choice_scores(qrels, runs, CHOICES)
    sizes = nc.topic_set_size(scores, difference=0.05, alpha=0.05, power=0.8)
    for name in CHOICES:
        x = scores[name].to_numpy()
        resid = x - x.mean(0) - x.mean(1, keepdims=True) + x.mean()
        sigma = math.sqrt(2 * (resid ** 2).sum() / ((x.shape[0] - 1) * (x.shape[1] - 1)))
        assert sizes.loc[name, "sigma_d"] == pytest.approx(sigma, abs=1e-12)
        n = int(sizes.loc[name, "queries"])
        power = TTestPower().power
        assert power(effect_size=0.05 / sigma, nobs=n, alpha=0.05) >= 0.8
        assert power(effect_size=0.05 / sigma, nobs=n - 1, alpha=0.05) < 0.8
        assert sizes.loc[name, "power_now"] == pytest.approx(
            power(effect_size=0.05 / sigma, nobs=40, alpha=0.05), abs=1e-9)


# ------------------------------------------------------------------ edge cases

def small(n_systems=2):
    qrels = pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3, "docid": list("xyzxyz"),
                          "relevance": [3, 1, 0, 2, 2, 0]})
    orders = ["xyz", "zyx", "yxz", "yzx"][:n_systems]
    runs = {f"r{i}": pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3, "docid": list(o * 2),
                                   "score": [3, 2, 1] * 2}) for i, o in enumerate(orders)}
    return qrels, runs


def test_two_systems_make_one_pair():
    qrels, runs = small(2)
    table = nc.compare_choices(qrels, runs, CHOICES)
    assert (table["pairs"] == 1).all()
    assert table.loc["linear@10", "kendall_tau"] == 1.0


def test_tied_means_give_nan_with_the_reason():
    """Two identical runs: every choice ties them; τ is NaN and the note says why."""
    qrels, runs = small(1)
    runs["copy"] = runs["r0"].copy()
    table = nc.compare_choices(qrels, runs, CHOICES)
    assert table["kendall_tau"].isna().all() and table["tau_ap"].isna().all()
    assert table["note"].str.contains("same mean NDCG").all()
    assert (table["discriminative_power"] == 0).all()  # p = 1 for a pair that never differs


def test_a_choice_where_every_query_scores_zero_is_nan_with_a_reason():
    """Under a gain mapping every grade to 0, every system scores 0 on every query."""
    qrels, runs = small(3)
    choices = {"linear": dict(k=2), "nothing": dict(k=2, gain={0: 0, 1: 0, 2: 0, 3: 0},
                                                    zero_idcg="zero")}
    table = nc.compare_choices(qrels, runs, choices)
    assert math.isnan(table.loc["nothing", "kendall_tau"])
    assert "every system has the same mean" in table.loc["nothing", "note"]
    assert math.isnan(table.loc["nothing", "swap_rate"])
    assert table.loc["nothing", "discriminative_power"] == 0
    assert nc.tau_matrix(nc.choice_scores(qrels, runs, choices)).loc["linear", "nothing"] != 1


@pytest.mark.parametrize("make, message", [
    (lambda q, r: nc.compare_choices(q, {"only": r["r0"]}, CHOICES), "at least 2 runs.*Add a run"),
    (lambda q, r: nc.compare_choices(q, r, {}), "non-empty mapping"),
    (lambda q, r: nc.compare_choices(q, r, {"x": dict(k=(5, 10))}),
     "one cutoff.*one choice per cutoff"),
    (lambda q, r: nc.compare_choices(q, r, {"x": dict(gian="linear")}),
     "'gian' is not an evaluate keyword"),
    (lambda q, r: nc.compare_choices(q, r, CHOICES, reference="nope"),
     "reference 'nope' is not a choice"),
    (lambda q, r: nc.compare_choices(q, r, CHOICES, test="sign"), "test must be one of"),
    (lambda q, r: nc.compare_choices(q, r, CHOICES, alpha=5), "alpha must be"),
    (lambda q, r: nc.compare_choices(q[q.qid == "1"], r, CHOICES),
     "at least 2 queries.*share query ids"),
    (lambda q, r: nc.compare_choices(q, r, {"x": dict(gain="cubic")}),
     "run 'r0' under choice 'x'"),
])
def test_bad_input_names_the_fix(make, message):
    qrels, runs = small(3)
    with pytest.raises(ValueError, match=message):
        make(qrels, runs)


def test_reference_defaults_to_the_first_choice_and_can_be_named():
    qrels, runs = random_data(2)
    table = nc.compare_choices(qrels, runs, CHOICES)
    assert table.attrs["reference"] == "linear@10"
    assert table.loc["linear@10", ["kendall_tau", "tau_ap"]].tolist() == [1.0, 1.0]
    other = nc.compare_choices(qrels, runs, CHOICES, reference="exp@10")
    assert other.loc["exp@10", "kendall_tau"] == 1.0


def test_progress_reaches_one():
    """Both steps report their progress, rising to 1 (the page's progress bar reads it)."""
    qrels, runs = random_data(2)
    seen, scored = [], []
    nc.compare_choices(qrels, runs, CHOICES, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0
    nc.choice_scores(qrels, runs, CHOICES, progress=scored.append)
    # CHOICES share their keywords but k in 3 groups (linear, exponential, exponential
    # judged-only): 3 groups x 5 runs evaluations
    assert len(scored) == 15 and scored == sorted(scored) and scored[-1] == 1.0
