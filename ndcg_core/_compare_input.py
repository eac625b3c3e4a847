"""What :func:`~ndcg_core.compare` and :func:`~ndcg_core.wins_losses` take: the options,
the limits and the table's columns, declared once, and the checks of their input (each
message names the bad value and the fix).

Apart from :mod:`ndcg_core.compare` (the public functions and their examples; it re-exports
:data:`COMPARE_OPTIONS`, :data:`COLUMNS` and :data:`MAX_SYSTEMS`) so that
:mod:`ndcg_core._export` reads the same declarations without importing the functions.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from .options import Option

__all__ = ["COMPARE_OPTIONS", "COLUMNS", "MAX_SYSTEMS"]

#: The most systems one comparison takes (the baseline included): the page offers up to 10 runs.
MAX_SYSTEMS = 10

#: The columns of :func:`compare`'s table, in order.
COLUMNS = ("mean", "delta", "ci_low", "ci_high", "p", "p_adj", "effect_size", "significant")

#: :func:`compare`'s two choices, declared once: validation, the page's widgets and their help
#: text all read these.
COMPARE_OPTIONS: dict[str, Option] = {
    opt.name: opt
    for opt in [
        Option(
            "test",
            "Significance test",
            "The paired two-sided test of each system against the baseline, over the same "
            "queries.",
            {
                "t": "paired t-test on the per-query differences (scipy.stats.ttest_rel; "
                "PyTerrier's and ranx's default).",
                "wilcoxon": "Wilcoxon signed-rank test (scipy.stats.wilcoxon): queries with a "
                "zero difference are left out (zero_method='wilcox'), exact or normal "
                "p-value by SciPy's method='auto'.",
                "randomization": "paired randomization (sign-flip) test of the mean "
                "difference (Fisher; Smucker et al. 2007): exact over all 2^n sign flips when "
                "2^n <= n_resamples, else n_resamples seeded random flips.",
                "bootstrap": "paired bootstrap test of the mean difference, shift method "
                "(Efron & Tibshirani 1993, ch. 16): n_resamples seeded resamples of the "
                "queries.",
            },
            "t",
        ),
        Option(
            "correction",
            "Multiple-comparison correction",
            "How the p-values of the systems compared with the baseline are adjusted together "
            "before they are compared with alpha.",
            {
                "holm": "Holm (1979) step-down: controls the family-wise error rate, never "
                "less powerful than Bonferroni.",
                "bh": "Benjamini & Hochberg (1995): controls the false discovery rate.",
                None: "none: each p-value is compared with alpha on its own.",
            },
            "holm",
        ),
    ]
}


def _choice(name: str, value):
    choices = COMPARE_OPTIONS[name].choices
    if isinstance(value, str) or value is None:
        if value in choices:
            return value
    listed = ", ".join(repr(c) for c in choices)
    raise ValueError(f"{name} must be one of {listed}; got {value!r}.")


def _open_unit(name: str, value) -> float:
    if (isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
            and 0 < float(value) < 1):
        return float(value)
    raise ValueError(f"{name} must be a number strictly between 0 and 1, e.g. 0.05; "
                     f"got {value!r}.")


def _whole(name: str, value, smallest: int) -> int:
    if (isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
            and int(value) >= smallest):
        return int(value)
    raise ValueError(f"{name} must be a whole number >= {smallest}; got {value!r}.")


def _paired_scores(per_query, baseline) -> tuple[pd.DataFrame, list]:
    """Check ``per_query`` and ``baseline``; return the complete rows and the dropped qids."""
    if not isinstance(per_query, pd.DataFrame):
        raise ValueError("per_query must be a pandas DataFrame indexed by query id with one "
                         f"column per system; got {type(per_query).__name__}.")
    columns = list(per_query.columns)
    if per_query.columns.has_duplicates:
        dup = per_query.columns[per_query.columns.duplicated()][0]
        raise ValueError(f"per_query has two columns named {dup!r}: give each system a "
                         "unique name.")
    try:
        known = baseline in columns
    except TypeError:  # an unhashable baseline, e.g. a list
        known = False
    if not known:
        listed = ", ".join(repr(c) for c in columns) or "(none)"
        raise ValueError(f"baseline {baseline!r} is not a column of per_query; choose one of "
                         f"{listed}.")
    if len(columns) < 2:
        raise ValueError(f"compare needs at least 2 systems (the baseline and one more); "
                         f"per_query has 1 column: {columns[0]!r}.")
    if len(columns) > MAX_SYSTEMS:
        raise ValueError(f"compare takes at most {MAX_SYSTEMS} systems (the baseline "
                         f"included); per_query has {len(columns)}: drop some columns.")
    for col in columns:
        dtype = per_query[col].dtype
        if not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
            raise ValueError(f"system {col!r} holds {dtype} values, not numbers: give one "
                             "score (e.g. NDCG) per query as a float.")
    if per_query.index.has_duplicates:
        qid = per_query.index[per_query.index.duplicated()][0]
        raise ValueError(f"query {qid!r} appears twice in per_query's index: give one row "
                         "per query.")
    values = per_query.to_numpy(dtype=float)
    infinite = np.isinf(values)
    if infinite.any():
        row, col = np.argwhere(infinite)[0]
        raise ValueError(f"system {columns[col]!r} scores {values[row, col]} on query "
                         f"{per_query.index[row]!r}: every score must be finite (NaN marks "
                         "a query to leave out).")
    incomplete = np.isnan(values).any(axis=1)
    dropped = per_query.index[incomplete].tolist()
    kept = per_query.loc[~incomplete].astype(float)
    if len(kept) < 2:
        raise ValueError(f"compare needs at least 2 queries scored by every system; "
                         f"per_query has {len(kept)} ({len(dropped)} of {len(per_query)} "
                         "dropped for a NaN score).")
    return kept, dropped
