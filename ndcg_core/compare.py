"""Compare many systems against a baseline, query by query, with the statistics IR papers use.

:func:`compare` takes per-query scores (one row per query, one column per system) and tests
every system against one baseline: a paired test per system, a multiple-comparison correction
across the systems (Urbano et al., SIGIR 2019, and Otero et al., ECIR 2025, show why it is
needed), a confidence interval of the mean difference and Cohen's d_z effect size.
:func:`wins_losses` counts the queries each system wins, ties and loses, and
:func:`to_markdown` / :func:`to_latex` write the table for a paper or a README (CSV is
``table.to_csv()``).

The tests are SciPy's: ``scipy.stats.ttest_rel``, ``wilcoxon``, ``permutation_test`` and
``monte_carlo_test``; nothing here re-derives a distribution. Like PyTerrier's
``pt.Experiment(baseline=...)`` the p-values are two-sided and the baseline's row has none.

The public functions and their examples. The options, limits and input checks are declared
in :mod:`ndcg_core._compare_input`, the tests and intervals run in
:mod:`ndcg_core._significance`, and the cells the writers share are built in
:mod:`ndcg_core._export`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._compare_input import (
    COLUMNS,
    COMPARE_OPTIONS,
    MAX_SYSTEMS,
    _choice,
    _open_unit,
    _paired_scores,
    _whole,
)
from ._export import _export_rows
from ._significance import _interval, _p_value

__all__ = ["compare", "wins_losses", "adjust_pvalues", "to_markdown", "to_latex",
           "COMPARE_OPTIONS", "COLUMNS", "MAX_SYSTEMS"]


def adjust_pvalues(pvalues, *, correction):
    """Adjust p-values for multiple comparisons: Holm, Benjamini-Hochberg, or none.

    Equal, bit for bit, to ``statsmodels.stats.multitest.multipletests(pvalues,
    method="holm" | "fdr_bh")[1]``: the same operations in the same order.

    Parameters
    ----------
    pvalues : array-like of float
        One p-value per comparison, each in [0, 1].
    correction : {"holm", "bh", None}
        ``"holm"``: sort ascending, multiply the i-th smallest (i = 1..m) by m - i + 1, make
        the sequence non-decreasing, cap at 1 (Holm 1979). ``"bh"``: multiply the i-th
        smallest by m / i, take the running minimum from the largest down, cap at 1
        (Benjamini & Hochberg 1995). ``None``: the p-values unchanged.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the input's order.

    Examples
    --------
    Three p-values 0.01, 0.04, 0.03; Holm multiplies the sorted 0.01, 0.03, 0.04 by 3, 2, 1:
    0.03, 0.06, 0.04, and the running maximum makes the last 0.06:

    >>> adjust_pvalues([0.01, 0.04, 0.03], correction="holm").round(4).tolist()
    [0.03, 0.06, 0.06]

    Benjamini-Hochberg multiplies them by 3/1, 3/2, 3/3: 0.03, 0.045, 0.04, and the running
    minimum from the top makes the middle one 0.04:

    >>> adjust_pvalues([0.01, 0.04, 0.03], correction="bh").round(4).tolist()
    [0.03, 0.04, 0.04]
    """
    correction = _choice("correction", correction)
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"pvalues must be a flat list of numbers; got shape {p.shape}.")
    if p.size and not ((p >= 0) & (p <= 1)).all():
        bad = p[~((p >= 0) & (p <= 1))][0]
        raise ValueError(f"every p-value must lie in [0, 1]; got {bad}.")
    if correction is None or p.size == 0:
        return p.copy()
    order = np.argsort(p)
    ranked = p[order]
    m = p.size
    if correction == "holm":
        adjusted = np.maximum.accumulate(ranked * np.arange(m, 0, -1))
    else:
        adjusted = np.minimum.accumulate((ranked / (np.arange(1, m + 1) / m))[::-1])[::-1]
    adjusted[adjusted > 1] = 1
    out = np.empty_like(adjusted)
    out[order] = adjusted
    return out


# ------------------------------------------------------------------ the comparison

def compare(per_query, *, baseline, test="t", correction="holm", alpha=0.05,
            n_resamples=10_000, seed=0, confidence=0.95) -> pd.DataFrame:
    """Test every system against a baseline over the same queries.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query (the index holds the query ids, each once), one column per system
        (2 to :data:`MAX_SYSTEMS`), one score per cell, e.g. NDCG@10. A query with NaN in
        any column is left out of every comparison (listwise deletion), so every row of the
        table, means included, is computed over the same queries; ``attrs["dropped"]``
        counts them and ``attrs["dropped_qids"]`` lists them. Neither reference library
        meets NaN: ranx scores a query a run misses as 0 and PyTerrier aligns the systems on
        the baseline's queries, where SciPy would turn a NaN into a NaN p-value. ±inf is
        refused.
    baseline : column label
        The system the others are compared with.
    test : {"t", "wilcoxon", "randomization", "bootstrap"}, default "t"
        The paired two-sided test, on d = system - baseline per query:

        - ``"t"``: ``scipy.stats.ttest_rel(system, baseline)``.
        - ``"wilcoxon"``: ``scipy.stats.wilcoxon(system, baseline, zero_method="wilcox",
          method="auto")``: queries with d = 0 are left out of the ranks (Wilcoxon's rule,
          SciPy's and R's default); the p-value is exact when at most 50 differences
          and no ties or zeros, from all permutations when there are ties or zeros and at
          most 13 queries, and from the normal approximation with the tie correction
          otherwise.
        - ``"randomization"``: under H0 each d is equally likely +d or -d; the statistic is
          the mean of d. Exact (all 2^n sign flips, ``scipy.stats.permutation_test`` with
          ``permutation_type="samples"``) when 2^n <= ``n_resamples``, i.e. up to 13
          queries for 10,000; else ``n_resamples`` random flips drawn from ``seed``
          (``scipy.stats.monte_carlo_test``).
        - ``"bootstrap"``: the shift method (Efron & Tibshirani 1993, ch. 16): z = d -
          mean(d) obeys H0; ``n_resamples`` times, draw n queries of z with replacement
          (``numpy.random.default_rng(seed)``) and take the mean of z*; the null
          distribution of those means is set against mean(d)
          (``scipy.stats.monte_carlo_test``). Sakai (2006) studentizes the statistic; here
          it is the mean difference, as in the randomization test.

        Both resampling tests count like SciPy: two-sided p = 2 · min(P(T* <= t),
        P(T* >= t)), capped at 1; each one-sided share is (k + 1) / (R + 1) with R random
        resamples (an observed arrangement is one of them; Phipson & Smyth 2010) and
        k / 2^n when exact. ranx's randomization test reports k / R.
        When no query differs (d = 0 everywhere) every test reports p = 1 (SciPy's t-test
        gives NaN there). When the mean difference is 0 but for the scores' rounding to
        binary (+0.1 on some queries, −0.1 on as many), the t, randomization and bootstrap
        tests report p = 1 exactly: SciPy would count resampled means of 1e-17 as less
        extreme than an observed one of 1e-17.
    correction : {"holm", "bh", None}, default "holm"
        Adjusts the p-values of the non-baseline systems together: see
        :func:`adjust_pvalues` (equal to statsmodels' ``multipletests``, "holm" and
        "fdr_bh").
    alpha : float, default 0.05
        A system is ``significant`` when its adjusted p-value is < alpha.
    n_resamples : int, default 10_000
        Resamples of the randomization and bootstrap tests and of the bootstrap intervals.
    seed : int, default 0
        Seeds every random draw. Each comparison starts afresh from ``seed``, so a system's
        row is the same whichever other systems sit beside it (its ``p_adj`` aside).
    confidence : float, default 0.95
        Level of the interval ``ci_low``..``ci_high`` of the mean difference: the paired
        t-interval (``ttest_rel(...).confidence_interval``) for ``test="t"``; for every
        other test the percentile bootstrap interval (``scipy.stats.bootstrap``,
        ``method="percentile"``, ``n_resamples`` resamples of the queries, ``seed``). The
        interval is per comparison: no correction widens it. When d is the same on every
        query it is that single value.

    Returns
    -------
    pandas.DataFrame
        Indexed by system, the baseline first, then the others in ``per_query``'s order;
        columns :data:`COLUMNS`:

        - ``mean``: the system's mean score over the compared queries;
        - ``delta``: mean(system - baseline);
        - ``ci_low``, ``ci_high``: the interval of ``delta``;
        - ``p``, ``p_adj``: the test's p-value and its corrected value;
        - ``effect_size``: Cohen's d_z = mean(d) / std(d, ddof=1) (NaN when std(d) = 0);
        - ``significant``: ``p_adj < alpha``.

        The baseline's row has delta 0, ``significant`` False and NaN in every other
        comparison column. ``attrs`` holds ``baseline``, ``test``, ``correction``,
        ``alpha``, ``confidence``, ``n_resamples``, ``seed``, ``n_queries`` (compared),
        ``dropped`` (how many queries had a NaN) and ``dropped_qids``.

    Raises
    ------
    ValueError
        Naming the bad value and the fix: ``baseline`` not a column, fewer than 2 or more
        than :data:`MAX_SYSTEMS` systems, fewer than 2 complete queries, a non-numeric or
        infinite score, a repeated query id or column, an unknown ``test`` or
        ``correction``, ``alpha`` or ``confidence`` outside (0, 1).

    Examples
    --------
    Four queries; "dense" gains 0.1, 0.1, 0.2 and 0.0 over "bm25":

    >>> import pandas as pd
    >>> runs = pd.DataFrame({"bm25": [0.5, 0.4, 0.6, 0.2], "dense": [0.6, 0.5, 0.8, 0.2]},
    ...                     index=["q1", "q2", "q3", "q4"])
    >>> table = compare(runs, baseline="bm25")
    >>> table[["mean", "delta", "p", "effect_size"]].round(4)
             mean  delta       p  effect_size
    system
    bm25    0.425    0.0     NaN          NaN
    dense   0.525    0.1  0.0917       1.2247

    delta = (0.1 + 0.1 + 0.2 + 0.0) / 4 = 0.1; the differences from it are 0, 0, 0.1, -0.1,
    so std = √((0.01 + 0.01) / 3) = 0.0816 and d_z = 0.1 / 0.0816 = 1.2247; t = d_z · √4 =
    2.449 with 3 degrees of freedom: p = 0.0917, above alpha = 0.05 (with one system to
    compare, Holm leaves p as it is):

    >>> round(0.1 / ((0.0**2 + 0.0**2 + 0.1**2 + 0.1**2) / 3) ** 0.5, 4)  # d_z
    1.2247
    >>> bool(table.loc["dense", "significant"]), table.attrs["n_queries"]
    (False, 4)
    """
    scores, dropped = _paired_scores(per_query, baseline)
    test = _choice("test", test)
    correction = _choice("correction", correction)
    alpha = _open_unit("alpha", alpha)
    confidence = _open_unit("confidence", confidence)
    n_resamples = _whole("n_resamples", n_resamples, 1)
    seed = _whole("seed", seed, 0)

    b = scores[baseline].to_numpy()
    others = [s for s in scores.columns if s != baseline]
    rows = {baseline: dict(mean=b.mean(), delta=0.0, ci_low=np.nan, ci_high=np.nan,
                           p=np.nan, p_adj=np.nan, effect_size=np.nan, significant=False)}
    for system in others:
        x = scores[system].to_numpy()
        d = x - b
        sd = d.std(ddof=1)
        low, high = _interval(x, b, test, confidence, n_resamples, seed)
        rows[system] = dict(mean=x.mean(), delta=d.mean(), ci_low=low, ci_high=high,
                            p=_p_value(x, b, test, n_resamples, seed),
                            effect_size=d.mean() / sd if sd > 0 else np.nan)
    p_adj = adjust_pvalues([rows[s]["p"] for s in others], correction=correction)
    for system, q in zip(others, p_adj):
        rows[system].update(p_adj=float(q), significant=bool(q < alpha))

    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(COLUMNS))
    table.index = pd.Index(list(rows), name="system")
    table["significant"] = table["significant"].astype(bool)
    table.attrs.update(baseline=baseline, test=test, correction=correction, alpha=alpha,
                       confidence=confidence, n_resamples=n_resamples, seed=seed,
                       n_queries=len(scores), dropped=len(dropped), dropped_qids=dropped)
    return table


def wins_losses(per_query, *, baseline) -> pd.DataFrame:
    """Count the queries each system wins, ties and loses against the baseline.

    A win is a query where the system scores strictly more than the baseline, a loss
    strictly less, a tie exactly the same (PyTerrier's ``+`` and ``-`` columns count the
    same way). Queries with a NaN anywhere are left out, as in :func:`compare`, so the
    three counts add up to ``compare(...).attrs["n_queries"]``.

    Parameters
    ----------
    per_query : pandas.DataFrame
        As for :func:`compare`: index qid, one column per system.
    baseline : column label
        The system the others are compared with.

    Returns
    -------
    pandas.DataFrame
        Indexed by the non-baseline systems in ``per_query``'s order, integer columns
        ``wins``, ``ties``, ``losses``; ``attrs`` holds ``baseline``, ``n_queries`` and
        ``dropped``.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"bm25": [0.5, 0.4, 0.6, 0.2], "dense": [0.6, 0.3, 0.6, 0.9]},
    ...                     index=["q1", "q2", "q3", "q4"])
    >>> wins_losses(runs, baseline="bm25")
            wins  ties  losses
    system
    dense      2     1       1
    """
    scores, dropped = _paired_scores(per_query, baseline)
    b = scores[baseline].to_numpy()
    others = [s for s in scores.columns if s != baseline]
    counts = [((x > b).sum(), (x == b).sum(), (x < b).sum())
              for x in (scores[s].to_numpy() for s in others)]
    table = pd.DataFrame(counts, index=pd.Index(others, name="system"),
                         columns=["wins", "ties", "losses"], dtype=int)
    table.attrs.update(baseline=baseline, n_queries=len(scores), dropped=len(dropped))
    return table


# ------------------------------------------------------------------ exports

def to_markdown(table, *, digits=4) -> str:
    """Write :func:`compare`'s table as a GitHub-flavoured Markdown table.

    A dagger (†) follows the Δ of every system whose adjusted p-value is below alpha
    (``significant``); a footnote under the table states the rule, the test, the
    correction and the number of queries. Values are rounded to ``digits`` decimals; a
    p-value below 10^-digits is written "< 0.0001" (for ``digits=4``; the < escaped);
    NaN is "–".
    Every ASCII punctuation character of a system name is backslash-escaped (and a line
    break becomes a space), so a name cannot break the table or become a link, emphasis,
    math or HTML.

    Parameters
    ----------
    table : pandas.DataFrame
        What :func:`compare` returned (its ``attrs`` give the footnote).
    digits : int, default 4
        Decimals of every number.

    Returns
    -------
    str
        The table, then a blank line and the footnote.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"bm25": [0.5, 0.4, 0.6, 0.2], "dense_v2": [0.6, 0.5, 0.8, 0.3]},
    ...                     index=["q1", "q2", "q3", "q4"])
    >>> print(to_markdown(compare(runs, baseline="bm25"), digits=2))
    | System | Mean | Δ | 95% CI | p | p (adj.) | d\\_z |
    |:---|---:|---:|---:|---:|---:|---:|
    | bm25 (baseline) | 0.42 | 0.00 | – | – | – | – |
    | dense\\_v2 | 0.55 | 0.12† | [0.05, 0.20] | 0.02 | 0.02 | 2.50 |
    <BLANKLINE>
    † adjusted p \\< 0.05 against bm25 (paired t-test, Holm-corrected), 4 queries.
    """
    header, cells, note = _export_rows(table, digits, latex=False)
    lines = ["| " + " | ".join(header) + " |", "|:---|" + "---:|" * (len(header) - 1)]
    lines += ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join(lines) + "\n\n" + note


def to_latex(table, *, digits=4) -> str:
    """Write :func:`compare`'s table as a LaTeX ``tabular`` (booktabs rules).

    The same cells and dagger rule as :func:`to_markdown`: ``$^{\\dagger}$`` follows the Δ
    of every significant system, and the footnote is the table's last row. System names
    have LaTeX's special characters escaped (``\\ { } _ % & # $ ~ ^`` and ``< >``), so any
    name compiles and prints as typed. The output needs ``\\usepackage{booktabs}``.

    Parameters
    ----------
    table : pandas.DataFrame
        What :func:`compare` returned.
    digits : int, default 4
        Decimals of every number.

    Returns
    -------
    str
        A ``tabular`` environment, ready for ``\\input`` inside a ``table`` float.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"bm25": [0.5, 0.4, 0.6, 0.2], "x_1 & 50%": [0.6, 0.5, 0.8, 0.3]},
    ...                     index=["q1", "q2", "q3", "q4"])
    >>> print(to_latex(compare(runs, baseline="bm25"), digits=2))  # doctest: +ELLIPSIS
    % needs \\usepackage{booktabs}
    \\begin{tabular}{lrrrrrr}
    \\toprule
    System & Mean & $\\Delta$ & 95\\% CI & $p$ & $p_{\\mathrm{adj}}$ & $d_z$ \\\\
    \\midrule
    bm25 (baseline) & 0.42 & 0.00 & -- & -- & -- & -- \\\\
    x\\_1 \\& 50\\% & 0.55 & 0.12$^{\\dagger}$ & [0.05, 0.20] & 0.02 & 0.02 & 2.50 \\\\
    \\bottomrule
    \\multicolumn{7}{l}{$^{\\dagger}$ adjusted p $<$ 0.05 against bm25 (paired t-test, ...} \\\\
    \\end{tabular}
    """
    header, cells, note = _export_rows(table, digits, latex=True)
    lines = [r"% needs \usepackage{booktabs}",
             r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\toprule",
             " & ".join(header) + r" \\", r"\midrule"]
    lines += [" & ".join(row) + r" \\" for row in cells]
    lines += [r"\bottomrule", rf"\multicolumn{{{len(header)}}}{{l}}{{{note}}} \\",
              r"\end{tabular}"]
    return "\n".join(lines)
