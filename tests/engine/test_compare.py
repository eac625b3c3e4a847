"""Many systems against a baseline: each p-value against SciPy, each correction against
statsmodels, the resampling tests by hand and by seed, and the exports against hostile names."""

import doctest
import importlib
import itertools
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from ndcg_core import adjust_pvalues, compare, to_latex, to_markdown, wins_losses
from ndcg_core.compare import COLUMNS, COMPARE_OPTIONS, MAX_SYSTEMS

TESTS = list(COMPARE_OPTIONS["test"].choices)


def random_runs(n_queries, n_systems, *, seed, decimals=None):
    """Per-query NDCG-like scores in [0, 1]; each system a noisy shift of the first."""
    rng = np.random.default_rng(seed)
    base = rng.random(n_queries)
    cols = {"s0": base}
    for i in range(1, n_systems):
        cols[f"s{i}"] = np.clip(base + rng.normal(0.03 * i, 0.15, n_queries), 0, 1)
    frame = pd.DataFrame(cols, index=[f"q{i}" for i in range(n_queries)])
    return frame.round(decimals) if decimals is not None else frame


# ------------------------------------------------------------------ SciPy's tests, exactly

def test_t_test_p_values_and_intervals_equal_scipy_ttest_rel():
    runs = random_runs(30, 5, seed=1)
    table = compare(runs, baseline="s0", test="t", confidence=0.9)
    for system in ["s1", "s2", "s3", "s4"]:
        res = stats.ttest_rel(runs[system], runs["s0"])
        ci = res.confidence_interval(confidence_level=0.9)
        assert table.loc[system, "p"] == pytest.approx(res.pvalue, abs=1e-9)
        assert table.loc[system, "ci_low"] == pytest.approx(ci.low, abs=1e-12)
        assert table.loc[system, "ci_high"] == pytest.approx(ci.high, abs=1e-12)


@pytest.mark.parametrize("n_queries, n_systems, decimals", [
    (30, 4, None),  # distinct differences, n <= 50: SciPy's exact null
    (80, 4, None),  # n > 50: normal approximation
    (10, 2, 1),  # ties and zero differences, n <= 13: all permutations (slow in SciPy)
    (60, 4, 1),  # ties and zeros, larger n: normal approximation with the tie correction
])
def test_wilcoxon_p_values_equal_scipy_wilcoxon(n_queries, n_systems, decimals):
    runs = random_runs(n_queries, n_systems, seed=n_queries, decimals=decimals)
    table = compare(runs, baseline="s0", test="wilcoxon")
    for system in runs.columns[1:]:
        expected = stats.wilcoxon(runs[system], runs["s0"]).pvalue  # SciPy's defaults
        assert table.loc[system, "p"] == pytest.approx(expected, abs=1e-9)


def test_wilcoxon_leaves_zero_differences_out_of_the_ranks():
    """Two tied queries leave the ranks as they were; being zeros, they switch SciPy from the
    exact null to the normal approximation, over the 20 non-zero differences."""
    runs = random_runs(20, 2, seed=7)
    tied = pd.DataFrame({"s0": [0.5, 0.25], "s1": [0.5, 0.25]}, index=["t1", "t2"])
    with_ties = compare(pd.concat([runs, tied]), baseline="s0", test="wilcoxon")
    normal = stats.wilcoxon(runs["s1"], runs["s0"], method="asymptotic").pvalue
    assert with_ties.loc["s1", "p"] == pytest.approx(normal, abs=1e-12)
    exact = compare(runs, baseline="s0", test="wilcoxon").loc["s1", "p"]
    assert exact == pytest.approx(stats.wilcoxon(runs["s1"], runs["s0"], method="exact").pvalue,
                                  abs=1e-12)


# ------------------------------------------------------------------ corrections

def p_value_sets():
    rng = np.random.default_rng(3)
    yield [0.01, 0.04, 0.03]
    yield [0.0, 1.0, 0.5, 0.5, 0.02]  # the ends of [0, 1] and a tie
    yield [0.2]
    yield [0.01, 0.01, 0.01, 0.04]
    for m in (3, 9):  # statsmodels' Holm runs gc.collect(): ~0.15 s a call
        yield rng.random(m).tolist()
        yield (rng.random(m) ** 4).tolist()  # mostly small, as with real differences


@pytest.mark.parametrize("correction, statsmodels_name", [("holm", "holm"), ("bh", "fdr_bh")])
def test_holm_and_bh_equal_statsmodels_multipletests_bit_for_bit(correction, statsmodels_name):
    for p in p_value_sets():
        expected = multipletests(p, alpha=0.05, method=statsmodels_name)[1]
        np.testing.assert_array_equal(adjust_pvalues(p, correction=correction), expected)


def test_bh_agrees_with_scipy_false_discovery_control():
    for p in p_value_sets():
        assert np.allclose(adjust_pvalues(p, correction="bh"),
                           stats.false_discovery_control(p, method="bh"), rtol=1e-14)


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1 = 0.03, 0.06, 0.04; running max: 0.03, 0.06, 0.06
    adjusted = adjust_pvalues([0.01, 0.04, 0.03], correction="holm")
    assert adjusted.tolist() == pytest.approx([3 * 0.01, 2 * 0.03, 2 * 0.03], abs=1e-15)
    assert adjust_pvalues([0.01, 0.04], correction=None).tolist() == [0.01, 0.04]


@pytest.mark.parametrize("correction, statsmodels_name",
                         [("holm", "holm"), ("bh", "fdr_bh"), (None, None)])
def test_compare_adjusts_across_the_non_baseline_systems(correction, statsmodels_name):
    runs = random_runs(25, 6, seed=11)
    table = compare(runs, baseline="s2", correction=correction, alpha=0.1)
    others = table.drop(index="s2")
    if statsmodels_name is None:
        np.testing.assert_array_equal(others["p_adj"], others["p"])
    else:
        reject, adjusted, _, _ = multipletests(others["p"], alpha=0.1, method=statsmodels_name)
        np.testing.assert_array_equal(others["p_adj"], adjusted)
        np.testing.assert_array_equal(others["significant"], reject)
    assert (table["significant"] == (table["p_adj"] < 0.1)).all()


# ------------------------------------------------------------------ randomization test

def test_randomization_p_for_four_queries_enumerates_all_sixteen_sign_flips():
    # differences 0.4, -0.1, 0.2, 0.1 (in tenths: 4, -1, 2, 1; sum 6). Under H0 each sign is
    # a coin flip; the 16 sums of ±4 ±1 ±2 ±1 are
    #   8, 6, 6, 4, 4, 2, 2, 0, 0, -2, -2, -4, -4, -6, -6, -8
    # three are >= 6 and three are <= -6: p = 2 * 3/16.
    baseline = [0.25, 0.5, 0.25, 0.5]
    system = [0.65, 0.4, 0.45, 0.6]
    runs = pd.DataFrame({"a": baseline, "b": system}, index=["q1", "q2", "q3", "q4"])
    sums = sorted((sum(s * t for s, t in zip(signs, [4, 1, 2, 1]))
                   for signs in itertools.product([1, -1], repeat=4)), reverse=True)
    assert sums == [8, 6, 6, 4, 4, 2, 2, 0, 0, -2, -2, -4, -4, -6, -6, -8]
    table = compare(runs, baseline="a", test="randomization")
    assert table.loc["b", "p"] == pytest.approx(2 * 3 / 16, abs=1e-12)
    assert table.loc["b", "delta"] == pytest.approx(0.6 / 4, abs=1e-12)


def test_randomization_is_exact_while_2_to_the_n_fits_in_n_resamples():
    """13 queries, 2^13 = 8192 <= 10,000: all sign flips, the seed plays no part."""
    rng = np.random.default_rng(5)
    # multiples of 1/64: every flipped sum is exact in floating point
    runs = pd.DataFrame({"a": rng.integers(0, 64, 13) / 64, "b": rng.integers(0, 64, 13) / 64})
    d = (runs["b"] - runs["a"]).to_numpy()
    signs = np.array(list(itertools.product([1, -1], repeat=13)))
    flipped = signs @ d
    expected = 2 * min((flipped >= d.sum()).mean(), (flipped <= d.sum()).mean())
    p0 = compare(runs, baseline="a", test="randomization", seed=0).loc["b", "p"]
    p1 = compare(runs, baseline="a", test="randomization", seed=1).loc["b", "p"]
    assert p0 == p1 == pytest.approx(min(expected, 1.0), abs=1e-12)


def test_randomization_monte_carlo_is_seeded_and_agrees_with_scipy_permutation_test():
    runs = random_runs(40, 2, seed=21)  # 2^40 flips: 10,000 random ones
    p = [compare(runs, baseline="s0", test="randomization", seed=s).loc["s1", "p"]
         for s in (0, 0, 1)]
    assert p[0] == p[1]
    assert abs(p[0] - p[2]) < 0.03  # the Monte Carlo error of p ~ 0.5 is ~0.005
    scipy_p = stats.permutation_test(
        (runs["s1"].to_numpy(), runs["s0"].to_numpy()),
        lambda x, y, axis: np.mean(x - y, axis=axis), permutation_type="samples",
        vectorized=True, n_resamples=10_000, rng=123).pvalue
    assert abs(p[0] - scipy_p) < 0.03


# ------------------------------------------------------------------ bootstrap test

def test_bootstrap_p_follows_the_documented_shift_procedure():
    """Recomputed in numpy: shift d to mean 0, resample queries, count both tails, +1."""
    runs = random_runs(500, 2, seed=8)
    d = (runs["s1"] - runs["s0"]).to_numpy()
    rng = np.random.default_rng(42)
    null = (d - d.mean())[rng.integers(0, d.size, size=(10_000, d.size))].mean(axis=1)
    below = ((null <= d.mean()).sum() + 1) / (10_000 + 1)
    above = ((null >= d.mean()).sum() + 1) / (10_000 + 1)
    table = compare(runs, baseline="s0", test="bootstrap", seed=42)
    assert table.loc["s1", "p"] == pytest.approx(min(1.0, 2 * min(below, above)), abs=1e-12)


def test_bootstrap_is_seeded_and_near_the_t_test_on_many_queries():
    runs = random_runs(200, 2, seed=9)
    p = [compare(runs, baseline="s0", test="bootstrap", seed=s).loc["s1", "p"]
         for s in (0, 0, 1)]
    assert p[0] == p[1]
    assert abs(p[0] - p[2]) < 0.03
    # with 200 queries the mean difference is close to normal: both tests agree
    assert abs(p[0] - stats.ttest_rel(runs["s1"], runs["s0"]).pvalue) < 0.05


@pytest.mark.parametrize("test", ["wilcoxon", "randomization", "bootstrap"])
def test_resampling_interval_is_scipy_percentile_bootstrap_with_the_seed(test):
    runs = random_runs(50, 2, seed=4)
    d = (runs["s1"] - runs["s0"]).to_numpy()
    ci = stats.bootstrap((d,), np.mean, method="percentile", n_resamples=2000,
                         confidence_level=0.9, rng=7).confidence_interval
    table = compare(runs, baseline="s0", test=test, n_resamples=2000, seed=7, confidence=0.9)
    assert table.loc["s1", ["ci_low", "ci_high"]].tolist() == pytest.approx(
        [ci.low, ci.high], abs=1e-12)


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
def test_a_systems_row_does_not_depend_on_the_other_systems(test):
    """Each comparison restarts from the seed: adding s2 leaves s1's p and CI as they were."""
    runs = random_runs(30, 3, seed=12)
    alone = compare(runs[["s0", "s1"]], baseline="s0", test=test)
    beside = compare(runs, baseline="s0", test=test)
    cols = ["mean", "delta", "ci_low", "ci_high", "p", "effect_size"]
    assert alone.loc["s1", cols].tolist() == beside.loc["s1", cols].tolist()


# ------------------------------------------------------------------ the table

def test_effect_size_is_cohens_d_z():
    runs = pd.DataFrame({"a": [0.5, 0.5, 0.5, 0.5], "b": [0.6, 0.8, 0.4, 0.7]})
    # d = 0.1, 0.3, -0.1, 0.2: mean 0.125, deviations -0.025, 0.175, -0.225, 0.075
    sd = ((0.025 ** 2 + 0.175 ** 2 + 0.225 ** 2 + 0.075 ** 2) / (4 - 1)) ** 0.5
    table = compare(runs, baseline="a")
    assert table.loc["b", "delta"] == pytest.approx(0.125, abs=1e-12)
    assert table.loc["b", "effect_size"] == pytest.approx(0.125 / sd, abs=1e-12)
    # t = d_z * sqrt(n): the t-test and the effect size tell the same story
    t = stats.ttest_rel(runs["b"], runs["a"]).statistic
    assert t == pytest.approx(0.125 / sd * 4 ** 0.5, abs=1e-9)


def test_table_lists_the_baseline_first_then_the_systems_in_input_order():
    runs = random_runs(10, 4, seed=2)[["s3", "s1", "s0", "s2"]]
    table = compare(runs, baseline="s0", correction="bh", alpha=0.1)
    assert table.index.tolist() == ["s0", "s3", "s1", "s2"]
    assert table.index.name == "system"
    assert tuple(table.columns) == COLUMNS
    assert table["significant"].dtype == bool
    base = table.loc["s0"]
    assert base["mean"] == pytest.approx(runs["s0"].mean(), abs=1e-15)
    assert base["delta"] == 0.0 and not base["significant"]
    assert base[["ci_low", "ci_high", "p", "p_adj", "effect_size"]].isna().all()
    assert table.loc["s1", "mean"] == pytest.approx(runs["s1"].mean(), abs=1e-15)
    assert table.attrs == {"baseline": "s0", "test": "t", "correction": "bh", "alpha": 0.1,
                           "confidence": 0.95, "n_resamples": 10_000, "seed": 0,
                           "n_queries": 10, "dropped": 0, "dropped_qids": []}


def test_a_query_with_nan_anywhere_is_left_out_of_every_comparison():
    runs = random_runs(12, 3, seed=6)
    holed = runs.copy()
    holed.loc["q3", "s2"] = np.nan  # e.g. zero_idcg="nan" for one system
    table = compare(holed, baseline="s0")
    complete = compare(runs.drop(index="q3"), baseline="s0")
    pd.testing.assert_frame_equal(table, complete, check_like=False)  # s1 too, means too
    assert table.attrs["n_queries"] == 11
    assert table.attrs["dropped"] == 1 and table.attrs["dropped_qids"] == ["q3"]
    assert table.loc["s0", "mean"] == pytest.approx(runs["s0"].drop(index="q3").mean())


@pytest.mark.parametrize("test", TESTS)
def test_a_system_equal_to_the_baseline_has_p_one(test):
    runs = random_runs(20, 2, seed=1).assign(copy=lambda f: f["s0"])
    table = compare(runs, baseline="s0", test=test)
    row = table.loc["copy"]
    assert row["p"] == 1.0 and row["delta"] == 0.0 and not row["significant"]
    assert (row["ci_low"], row["ci_high"]) == (0.0, 0.0)
    assert np.isnan(row["effect_size"])  # 0 / 0: no spread, no standardized effect


def test_a_clear_improvement_is_significant_under_every_test():
    runs = random_runs(60, 2, seed=5)
    runs["better"] = runs["s0"] + 0.2 + np.linspace(-0.05, 0.05, 60)
    for test in TESTS:
        table = compare(runs, baseline="s0", test=test, n_resamples=2000)
        assert table.loc["better", "significant"], test
        assert table.loc["better", "ci_low"] > 0, test


# ------------------------------------------------------------------ wins, ties, losses

def test_wins_ties_losses_count_queries_against_the_baseline():
    runs = pd.DataFrame({"bm25": [0.5, 0.4, 0.6, 0.2, 0.3],
                         "dense": [0.6, 0.3, 0.6, 0.9, np.nan],  # q5 dropped everywhere
                         "splade": [0.1, 0.4, 0.7, 0.2, 0.8]},
                        index=["q1", "q2", "q3", "q4", "q5"])
    counts = wins_losses(runs, baseline="bm25")
    assert counts.index.tolist() == ["dense", "splade"]
    assert counts.loc["dense"].tolist() == [2, 1, 1]  # wins q1, q4; ties q3; loses q2
    assert counts.loc["splade"].tolist() == [1, 2, 1]  # wins q3; ties q2, q4; loses q1
    assert counts.attrs == {"baseline": "bm25", "n_queries": 4, "dropped": 1}
    assert (counts.sum(axis=1) == compare(runs, baseline="bm25").attrs["n_queries"]).all()


# ------------------------------------------------------------------ errors

GOOD = pd.DataFrame({"a": [0.1, 0.2, 0.3], "b": [0.2, 0.2, 0.5]}, index=["q1", "q2", "q3"])


@pytest.mark.parametrize("per_query, options, message", [
    (GOOD, dict(baseline="c"), r"baseline 'c' is not a column of per_query; choose one of "
                               r"'a', 'b'\."),
    (GOOD, dict(baseline=["a"]), r"baseline \['a'\] is not a column"),
    (GOOD[["a"]], dict(baseline="a"), r"at least 2 systems .*1 column: 'a'"),
    (pd.DataFrame({f"s{i}": [0.1, 0.2] for i in range(MAX_SYSTEMS + 1)}), dict(baseline="s0"),
     r"at most 10 systems .*has 11"),
    (GOOD.iloc[:1], dict(baseline="a"), r"at least 2 queries .*has 1 \(0 of 1 dropped"),
    (GOOD.assign(b=[np.nan, np.nan, 0.5]), dict(baseline="a"),
     r"at least 2 queries .*has 1 \(2 of 3 dropped for a NaN"),
    (GOOD.assign(b=["x", "y", "z"]), dict(baseline="a"), r"system 'b' holds (object|str) values"),
    (GOOD.assign(b=[True, False, True]), dict(baseline="a"), r"system 'b' holds bool"),
    (GOOD.assign(b=[0.1, np.inf, 0.3]), dict(baseline="a"),
     r"system 'b' scores inf on query 'q2'"),
    (GOOD.set_axis(["q1", "q1", "q2"]), dict(baseline="a"), r"query 'q1' appears twice"),
    (GOOD.set_axis(["a", "a"], axis=1), dict(baseline="a"), r"two columns named 'a'"),
    ([[0.1, 0.2]], dict(baseline="a"), r"per_query must be a pandas DataFrame .*got list"),
    (GOOD, dict(baseline="a", test="ttest"),
     r"test must be one of 't', 'wilcoxon', 'randomization', 'bootstrap'; got 'ttest'"),
    (GOOD, dict(baseline="a", correction="bonferroni"),
     r"correction must be one of 'holm', 'bh', None; got 'bonferroni'"),
    (GOOD, dict(baseline="a", alpha=0), r"alpha must be a number strictly between 0 and 1"),
    (GOOD, dict(baseline="a", alpha=5), r"alpha .* got 5\."),
    (GOOD, dict(baseline="a", alpha=True), r"alpha .* got True\."),
    (GOOD, dict(baseline="a", confidence=95), r"confidence .*between 0 and 1.* got 95"),
    (GOOD, dict(baseline="a", n_resamples=0), r"n_resamples must be a whole number >= 1"),
    (GOOD, dict(baseline="a", seed=-1), r"seed must be a whole number >= 0; got -1"),
    (GOOD, dict(baseline="a", seed=1.5), r"seed must be a whole number >= 0; got 1\.5"),
])
def test_bad_input_raises_a_value_error_naming_it(per_query, options, message):
    with pytest.raises(ValueError, match=message):
        compare(per_query, **options)


def test_bad_input_to_the_helpers_raises_a_value_error_naming_it():
    with pytest.raises(ValueError, match=r"baseline 'z' is not a column"):
        wins_losses(GOOD, baseline="z")
    with pytest.raises(ValueError, match=r"every p-value must lie in \[0, 1\]; got 1\.5"):
        adjust_pvalues([0.1, 1.5], correction="holm")
    with pytest.raises(ValueError, match=r"correction must be one of"):
        adjust_pvalues([0.1], correction="fdr_bh")
    with pytest.raises(ValueError, match=r"the table compare\(\) returns; missing columns: "
                                         r"ci_high, ci_low"):
        to_markdown(compare(GOOD, baseline="a").drop(columns=["ci_low", "ci_high"]))
    with pytest.raises(ValueError, match=r"digits must be a whole number >= 0; got -1"):
        to_latex(compare(GOOD, baseline="a"), digits=-1)


# ------------------------------------------------------------------ exports

HOSTILE = ["a|b", "x_1 & 50%", "<img src=x>"]


def hostile_table():
    runs = random_runs(30, 4, seed=3)
    runs.columns = ["base\\line"] + HOSTILE
    runs[HOSTILE[1]] = runs["base\\line"] + 0.3 + np.linspace(0, 0.01, 30)  # surely significant
    return compare(runs, baseline="base\\line")


def markdown_cells(line):
    """GFM splits a row on every | not preceded by a backslash."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def unescape_markdown(text):
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def test_markdown_escapes_hostile_names_and_keeps_the_columns():
    table = hostile_table()
    text = to_markdown(table)
    rows = text.split("\n\n")[0].splitlines()
    assert all(len(markdown_cells(r)) == 7 for r in rows)
    names = [markdown_cells(r)[0] for r in rows[2:]]
    assert [unescape_markdown(n) for n in names] == ["base\\line (baseline)"] + HOSTILE
    assert names[1:] == [r"a\|b", r"x\_1 \& 50\%", r"\<img src\=x\>"]
    assert re.search(r"(?<!\\)<", text) is None  # every < escaped: no HTML tag can open


def test_latex_escapes_hostile_names():
    text = to_latex(hostile_table())
    assert r"base\textbackslash{}line (baseline) &" in text
    assert r"a|b &" in text  # | is an ordinary character in a tabular cell
    assert r"x\_1 \& 50\% &" in text
    assert r"\textless{}img src=x\textgreater{} &" in text
    body = text.split(r"\midrule")[1].split(r"\bottomrule")[0]
    for line in body.strip().splitlines():  # 6 unescaped & per row: 7 cells
        assert len(re.findall(r"(?<!\\)&", line)) == 6


@pytest.mark.parametrize("export, mark", [(to_markdown, "†"), (to_latex, r"$^{\dagger}$")])
def test_a_dagger_marks_exactly_the_significant_systems(export, mark):
    table = hostile_table()
    lines = export(table, digits=3).splitlines()
    for system, row in table.iterrows():
        delta = f"{row['delta']:.3f}".replace("-", "$-$") if export is to_latex else \
            f"{row['delta']:.3f}"
        marked = [ln for ln in lines if f" {delta}{mark} " in ln]
        assert len(marked) == int(row["significant"]), system
    assert table["significant"].sum() >= 1
    assert sum(mark in ln for ln in lines) == table["significant"].sum() + 1  # + the note


def test_tiny_p_values_are_written_as_below_the_last_digit():
    table = hostile_table()
    assert table.loc[HOSTILE[1], "p"] < 1e-4
    assert r"\< 0.0001" in to_markdown(table)
    assert "$<$0.0001" in to_latex(table)
    assert r"\< 0.01" in to_markdown(table, digits=2)


def test_csv_export_is_pandas_to_csv():
    table = compare(GOOD, baseline="a")
    back = pd.read_csv(pd.io.common.StringIO(table.to_csv()), index_col="system")
    assert back.columns.tolist() == list(COLUMNS)
    assert back.loc["b", "delta"] == pytest.approx(table.loc["b", "delta"])


def test_docstring_examples_hold():
    module = importlib.import_module("ndcg_core.compare")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 10
