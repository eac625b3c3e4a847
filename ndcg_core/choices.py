"""Choose a gain, a cutoff and the other NDCG settings by evidence, on a team's own runs.

A *choice* is a set of :func:`~ndcg_core.evaluate` keywords (``gain``, ``k``, ``discount``,
``judged_only``, ...). :func:`choice_scores` scores every run under every choice; the
functions below weigh the choices by the criteria the IR literature uses to choose a metric:

- **agreement**: Kendall's τ-b between the systems' orderings by mean NDCG (Voorhees 2000),
  and τ_AP, which weighs swaps near the top more (Yilmaz, Aslam & Robertson, SIGIR 2008):
  :func:`tau_matrix`, :func:`swapped_pairs`;
- **discriminative power**: the share of system pairs a paired test separates at α (Sakai,
  SIGIR 2006), and the achieved significance curve: :func:`pair_pvalues`,
  :func:`achieved_significance`;
- **stability**: the swap rate between disjoint query sets by topic-set size (Buckley &
  Voorhees 2000; Voorhees & Buckley, SIGIR 2002): :func:`swap_curve`,
  :func:`queries_for_swap_rate`; the topic-set size a paired t-test needs for the smallest
  difference of interest (Sakai, "Topic set size design", Information Retrieval Journal
  19(3), 2016): :func:`topic_set_size`.

Kanoulas & Aslam (CIKM 2009) chose nDCG's gain and discount by such criteria (the stability
of the evaluation, the induced ranking of systems, discriminative power); :func:`compare_choices`
puts them in one table. The statistics run on all pairs at once in
:mod:`ndcg_core._choice_stats`; each p-value is the one :func:`~ndcg_core.compare` gives. The
stability functions live in :mod:`ndcg_core.stability` and are re-exported here.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Mapping

import numpy as np
import pandas as pd

from . import _choice_stats as S
from ._compare_input import _choice, _open_unit, _whole
from .compare import adjust_pvalues
from .evaluate import _evaluate_discounts, evaluate
from .stability import queries_for_swap_rate, swap_curve, topic_set_size

__all__ = ["compare_choices", "choice_scores", "tau_matrix", "pair_pvalues",
           "achieved_significance", "swapped_pairs", "disagreement", "swap_curve",
           "queries_for_swap_rate", "topic_set_size", "CHOICE_COLUMNS", "MAX_CHOICE_RUNS",
           "CHOICE_RESAMPLES"]

#: The columns of :func:`compare_choices`'s table, in order.
CHOICE_COLUMNS = ("kendall_tau", "tau_ap", "discriminative_power", "significant_pairs",
                  "pairs", "swap_rate", "swapped_pairs", "best", "note")

#: The most runs :func:`compare_choices` takes (30 runs: 435 pairs per choice).
MAX_CHOICE_RUNS = 30

#: Resamples of the randomization and bootstrap tests here (compare's default is 10,000):
#: 1,000 give p to ±0.014 at α = 0.05 (binomial s.e. √(0.05 · 0.95 / 1000)), enough to count
#: pairs below α, and keep 30 runs × 250 queries × 12 choices within seconds.
CHOICE_RESAMPLES = 1_000

#: Random splits of the queries into two disjoint halves behind ``swap_rate``.
SPLITS = 200

_EVALUATE_KEYWORDS = tuple(p for p in inspect.signature(evaluate).parameters
                           if p not in ("qrels", "run", "details"))
_AFTER = ("k", "discount", "base")  # the keywords that do not change a run's ranking
_EVALUATE_DEFAULTS = {p.name: p.default for p in inspect.signature(evaluate).parameters.values()
                      if p.name in _EVALUATE_KEYWORDS and p.name not in _AFTER}


def _discount_of(kw) -> tuple:
    return kw.get("discount", "log2"), kw.get("base", 2)


def _side_by_side(frames: dict, column) -> pd.DataFrame:
    """One column of each run's evaluate frame, side by side by qid: the arrays taken as
    they are when every frame has the same queries (the usual case with missing='zero'),
    else aligned by pandas."""
    first = next(iter(frames.values()))
    if all(f.index.equals(first.index) for f in frames.values()):
        return pd.DataFrame(np.column_stack([f.to_numpy()[:, f.columns.get_loc(column)]
                                             for f in frames.values()]),
                            index=first.index, columns=list(frames))
    return pd.concat({s: f[column] for s, f in frames.items()}, axis=1)


# ------------------------------------------------------------------ scores

def _check_choices(choices) -> dict:
    if not isinstance(choices, Mapping) or not choices:
        raise ValueError("choices must be a non-empty mapping name -> evaluate keywords, e.g. "
                         "{'linear@10': dict(gain='linear', k=10)}.")
    out = {}
    for name, kw in choices.items():
        if not isinstance(kw, Mapping):
            raise ValueError(f"choice {name!r} must be a mapping of evaluate keywords, e.g. "
                             f"dict(gain='exponential', k=10); got {type(kw).__name__}.")
        unknown = [key for key in kw if key not in _EVALUATE_KEYWORDS]
        if unknown:
            raise ValueError(f"choice {name!r}: {unknown[0]!r} is not an evaluate keyword; "
                             f"use {', '.join(_EVALUATE_KEYWORDS)}.")
        k = kw.get("k", 10)
        if not (k is None or isinstance(k, (numbers.Integral, str))):
            raise ValueError(f"choice {name!r}: k must be one cutoff (e.g. k=10) or None, "
                             f"not {k!r}: make one choice per cutoff.")
        out[name] = {**kw, "k": k}
    return out


def _check_runs(runs) -> dict:
    if not isinstance(runs, Mapping):
        raise ValueError("runs must be a mapping name -> run (a DataFrame qid, docid, "
                         f"score); got {type(runs).__name__}.")
    if len(runs) < 2:
        raise ValueError(f"comparing choices needs at least 2 runs to order; got {len(runs)}. "
                         "Add a run.")
    if len(runs) > MAX_CHOICE_RUNS:
        raise ValueError(f"comparing choices takes at most {MAX_CHOICE_RUNS} runs; got "
                         f"{len(runs)}: leave some out.")
    return dict(runs)


def choice_scores(qrels, runs, choices, *, progress=None) -> dict:
    """Per-query NDCG of every run under every choice, over the same queries.

    Parameters
    ----------
    qrels : DataFrame
        Judgments, as for :func:`~ndcg_core.evaluate`.
    runs : mapping name -> run
        2 to :data:`MAX_CHOICE_RUNS` runs.
    choices : mapping name -> dict
        :func:`~ndcg_core.evaluate` keywords per choice; ``k`` one cutoff (default 10).
        ``missing`` defaults to ``"zero"`` here (trec_eval ``-c``): a query a run leaves
        out counts 0 for it, so every system is scored on every judged query.
    progress : callable, optional
        Called with the fraction of the evaluations done, after each one.

    Returns
    -------
    dict
        ``{choice: DataFrame}``, each indexed by qid with one column per run. Only queries
        scored (not NaN) by every run under every choice are kept, so each figure of every
        choice is over the same queries; the first frame's ``attrs["dropped_qids"]`` lists
        the others (e.g. queries with no relevant document under ``zero_idcg="nan"``).

    Raises
    ------
    ValueError
        Fewer than 2 runs or more than :data:`MAX_CHOICE_RUNS`, a choice that is not
        keywords of ``evaluate`` or holds several cutoffs, a run ``evaluate`` refuses (its
        message, with the run's and choice's names), fewer than 2 queries left.
    """
    choices, runs = _check_choices(choices), _check_runs(runs)
    # one ranking of each run per group of choices that differ only in k and the discount:
    # both enter after the ranking (evaluate's own code, once per discount)
    groups: dict[tuple, list] = {}
    for name, kw in choices.items():
        rest = tuple(sorted((key, repr(v)) for key, v in kw.items() if key not in _AFTER))
        groups.setdefault(rest, []).append(name)
    frames = {}
    tell, done, total = progress or (lambda fraction: None), 0, len(groups) * len(runs)
    for names in groups.values():
        kw = {key: v for key, v in choices[names[0]].items() if key not in _AFTER}
        kw = {**_EVALUATE_DEFAULTS, "missing": "zero", **kw}
        discounts = list(dict.fromkeys(_discount_of(choices[n]) for n in names))
        ks = list(dict.fromkeys(choices[n]["k"] for n in names))
        per_run = {}
        for system, run in runs.items():
            try:
                per_run[system] = _evaluate_discounts(qrels, run, discounts, k=ks, details=False,
                                                     **kw)
            except ValueError as exc:
                raise ValueError(f"run {system!r} under choice {names[0]!r}: {exc}") from None
            done += 1
            tell(done / total)
        for n in names:
            column = "ndcg" if choices[n]["k"] is None else f"ndcg@{int(choices[n]['k'])}"
            at = discounts.index(_discount_of(choices[n]))
            frames[n] = _side_by_side({s: f[at] for s, f in per_run.items()}, column)
    frames = {n: frames[n] for n in choices}
    queries = frames[next(iter(frames))].index
    for frame in frames.values():
        queries = queries.union(frame.index)
    complete = pd.Series(True, index=queries)
    for frame in frames.values():
        complete &= frame.notna().all(axis=1).reindex(queries, fill_value=False)
    kept = complete.index[complete]
    dropped = complete.index[~complete].tolist()
    if len(kept) < 2:
        raise ValueError(f"comparing choices needs at least 2 queries scored by every run "
                         f"under every choice; {len(kept)} are ({len(dropped)} left out). "
                         "Check that the runs and the judgments share query ids.")
    out = {n: f.loc[kept].astype(float) for n, f in frames.items()}
    first = next(iter(out.values()))
    first.attrs["dropped_qids"] = dropped
    return out


def _matrix(scores: dict, name) -> np.ndarray:
    return scores[name].to_numpy()


def _systems(scores: dict) -> list:
    return list(next(iter(scores.values())).columns)


def _pair_labels(scores: dict) -> pd.MultiIndex:
    systems = _systems(scores)
    i, j = S.pair_index(len(systems))
    return pd.MultiIndex.from_arrays([[systems[a] for a in i], [systems[b] for b in j]],
                                     names=["system_1", "system_2"])


# ------------------------------------------------------------------ agreement

def tau_matrix(scores: dict, *, measure="kendall_tau") -> pd.DataFrame:
    """τ between the systems' orderings by mean NDCG under every pair of choices.

    ``measure="kendall_tau"``: Kendall's τ-b (symmetric; equal to
    ``scipy.stats.kendalltau(means_a, means_b)``). ``measure="tau_ap"``: τ_AP of the row's
    ordering against the column's as the truth (not symmetric; ties as in
    :func:`compare_choices`). NaN where a choice gives every system the same mean.
    """
    if measure not in ("kendall_tau", "tau_ap"):
        raise ValueError(f"measure must be 'kendall_tau' or 'tau_ap'; got {measure!r}.")
    names = list(scores)
    means = {n: scores[n].mean().to_numpy() for n in names}
    f = S.kendall_tau_b if measure == "kendall_tau" else S.tau_ap
    table = pd.DataFrame([[f(means[a], means[b]) for b in names] for a in names],
                         index=pd.Index(names, name="choice"), columns=names)
    return table


def swapped_pairs(scores: dict, choice, *, reference) -> pd.DataFrame:
    """The pairs of systems that ``choice`` orders the other way from ``reference`` (by
    mean NDCG; a pair tied under one and not the other is listed too), with both means."""
    systems = _systems(scores)
    a, b = scores[reference].mean().to_numpy(), scores[choice].mean().to_numpy()
    i, j = S.pair_index(len(systems))
    differ = np.sign(a[j] - a[i]) != np.sign(b[j] - b[i])
    rows = [(systems[p], systems[q], a[p], a[q], b[p], b[q])
            for p, q in zip(i[differ], j[differ])]
    return pd.DataFrame(rows, columns=["system_1", "system_2", "reference_1", "reference_2",
                                       "choice_1", "choice_2"])


def disagreement(scores: dict, choice, *, reference) -> dict:
    """The query and run whose NDCG moves most between ``reference`` and ``choice``:
    ``{"qid", "system", "reference", "choice"}`` (the first in query order on a tie); None
    when no score moves."""
    moved = (scores[choice] - scores[reference]).abs()
    if not (moved.to_numpy() > 0).any():
        return None
    flat = moved.to_numpy().argmax()
    q, s = divmod(int(flat), moved.shape[1])
    qid, system = moved.index[q], moved.columns[s]
    return {"qid": qid, "system": system, "reference": float(scores[reference].iat[q, s]),
            "choice": float(scores[choice].iat[q, s])}


# ------------------------------------------------------------------ discriminative power

def pair_pvalues(scores: dict, *, test="t", n_resamples=CHOICE_RESAMPLES, seed=0):
    """Two-sided p-value of every pair of systems under every choice, unadjusted.

    Each p is what :func:`~ndcg_core.compare` gives for the pair (``system_2`` against
    baseline ``system_1``) with the same ``test``, ``n_resamples`` and ``seed``: the
    randomization and bootstrap tests draw the same resamples for every pair, as compare
    does for every system. Rows: the pairs (``system_1``, ``system_2``) in the runs' order;
    columns: the choices.
    """
    test = _choice("test", test)
    n_resamples = _whole("n_resamples", n_resamples, 1)
    seed = _whole("seed", seed, 0)
    names = list(scores)
    p = S.pair_pvalues_all([_matrix(scores, n) for n in names], test, n_resamples, seed)
    return pd.DataFrame(dict(zip(names, p)), index=_pair_labels(scores))


def achieved_significance(pvalues: pd.DataFrame) -> pd.DataFrame:
    """The achieved significance level curve (Sakai 2006): each choice's p-values sorted
    ascending, by rank 1..pairs (long format: ``choice, rank, p``). The lower and longer a
    curve stays under α, the more pairs the choice separates."""
    rows = [pd.DataFrame({"choice": n, "rank": np.arange(1, len(pvalues) + 1),
                          "p": np.sort(pvalues[n].to_numpy())}) for n in pvalues.columns]
    return pd.concat(rows, ignore_index=True)


# ------------------------------------------------------------------ the table

def compare_choices(qrels, runs, choices, *, reference=None, test="t", alpha=0.05, seed=0,
                    correction=None, n_resamples=CHOICE_RESAMPLES, n_splits=SPLITS, progress=None,
                    scores=None, pvalues=None) -> pd.DataFrame:
    """How each choice of gain, cutoff, discount ... orders and separates a team's systems.

    Parameters
    ----------
    qrels, runs, choices
        As for :func:`choice_scores` (2 to 30 runs; ``missing`` defaults to ``"zero"``).
    reference : choice name, optional
        The choice the others are compared with (default: the first).
    test : {"t", "wilcoxon", "randomization", "bootstrap"}, default "t"
        The paired two-sided test behind ``discriminative_power`` (see
        :func:`~ndcg_core.compare`; no correction: Sakai 2006 counts unadjusted pairs).
    alpha : float, default 0.05
        A pair is separated when its p-value is < alpha.
    seed : int, default 0
        Seeds the resampling tests and the query splits.
    correction : {None, "holm", "bh"}, default None
        Adjust each choice's p-values over its pairs (:func:`~ndcg_core.adjust_pvalues`)
        before they are compared with alpha. None, Sakai's (2006) count: unadjusted.
    n_resamples : int, default :data:`CHOICE_RESAMPLES` (1,000)
        Resamples of the randomization and bootstrap tests.
    n_splits : int, default 200
        Random splits into two halves behind ``swap_rate``.
    progress : callable, optional
        Called with a fraction in [0, 1] as the work advances (for a progress bar).
    scores : dict, optional
        :func:`choice_scores`'s result, when already computed (qrels and runs unused).
    pvalues : DataFrame, optional
        :func:`pair_pvalues` of ``scores`` with the same ``test``, ``n_resamples`` and
        ``seed``, when already computed.

    Returns
    -------
    pandas.DataFrame
        One row per choice (index ``choice``), columns :data:`CHOICE_COLUMNS`:

        - ``kendall_tau``: Kendall's τ-b between the systems' orderings by mean NDCG under
          this choice and under the reference (1 for the reference itself);
        - ``tau_ap``: τ_AP of this choice's ordering against the reference's (Yilmaz,
          Aslam & Robertson 2008). Ties, which τ_AP's definition leaves out: a pair tied
          in either ordering counts ½; tied systems take their places in the reference's
          order;
        - ``discriminative_power``: the share of system pairs with p < alpha under
          ``test``, unadjusted unless ``correction`` says otherwise (Sakai 2006);
          ``significant_pairs`` and ``pairs`` count them;
        - ``swap_rate``: the share of pairs ordered one way by one half of the queries and
          the other way by the other half, over ``n_splits`` random splits into two
          disjoint halves (Voorhees & Buckley 2002);
        - ``swapped_pairs``: how many pairs this choice orders the other way from the
          reference (:func:`swapped_pairs` names them);
        - ``best``: the system with the highest mean (several: tied);
        - ``note``: why a figure is NaN, else empty.

        ``attrs``: ``reference``, ``test``, ``correction``, ``alpha``, ``seed``, ``n_resamples``,
        ``n_splits``, ``n_queries``, ``systems``, ``dropped_qids``.

    Raises
    ------
    ValueError
        As :func:`choice_scores`; an unknown ``reference`` or ``test``; ``alpha`` outside
        (0, 1).

    Examples
    --------
    Three systems, four queries; under linear gain at k = 2 they order a > b > c, and
    exponential gain agrees:

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3, "docid": list("xyzxyz"),
    ...                       "relevance": [3, 1, 0, 2, 2, 0]})
    >>> def run(order):
    ...     return pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3, "docid": list(order * 2),
    ...                          "score": [3, 2, 1] * 2})
    >>> table = compare_choices(qrels, {"a": run("xyz"), "b": run("yxz"), "c": run("zyx")},
    ...                         {"linear@2": dict(gain="linear", k=2),
    ...                          "exp@2": dict(gain="exponential", k=2)})
    >>> table[["kendall_tau", "tau_ap", "best"]]
              kendall_tau  tau_ap best
    choice
    linear@2          1.0     1.0    a
    exp@2             1.0     1.0    a
    """
    if scores is None:
        scores = choice_scores(qrels, runs, choices)
    names = list(scores)
    reference = names[0] if reference is None else reference
    if reference not in scores:
        raise ValueError(f"reference {reference!r} is not a choice; choose one of "
                         f"{', '.join(repr(n) for n in names)}.")
    test = _choice("test", test)
    correction = _choice("correction", correction)
    alpha = _open_unit("alpha", alpha)
    seed = _whole("seed", seed, 0)
    n_resamples = _whole("n_resamples", n_resamples, 1)
    n_splits = _whole("n_splits", n_splits, 1)
    tell = progress or (lambda fraction: None)
    systems = _systems(scores)
    n_queries = len(scores[reference])
    ref_means = scores[reference].mean().to_numpy()
    half = n_queries // 2
    one, two = S.split_halves(n_queries, half, n_splits, seed) if half else (None, None)
    if pvalues is None:
        pvalues = dict(zip(names, S.pair_pvalues_all([_matrix(scores, n) for n in names],
                                                     test, n_resamples, seed)))
    rows = {}
    for done, name in enumerate(names):
        x = _matrix(scores, name)
        means = x.mean(axis=0)
        p = adjust_pvalues(np.asarray(pvalues[name]), correction=correction)
        notes = []
        if np.all(means == means[0]):
            notes.append("every system has the same mean NDCG under this choice: no "
                         "ordering to compare")
        elif np.all(ref_means == ref_means[0]):
            notes.append("every system has the same mean NDCG under the reference: no "
                         "ordering to compare with")
        swapped, counted = S.swaps(x, one, two, 0.0) if half else (0, 0)
        if not counted:
            notes.append("no pair of systems differs on half of the queries: no swap rate")
        i, j = S.pair_index(len(systems))
        rows[name] = dict(
            kendall_tau=S.kendall_tau_b(means, ref_means),
            tau_ap=S.tau_ap(means, ref_means),
            discriminative_power=float((p < alpha).mean()),
            significant_pairs=int((p < alpha).sum()), pairs=int(p.size),
            swap_rate=swapped / counted if counted else math.nan,
            swapped_pairs=int((np.sign(means[j] - means[i])
                               != np.sign(ref_means[j] - ref_means[i])).sum()),
            best=", ".join(str(s) for s, m in zip(systems, means) if m == means.max()),
            note="; ".join(notes))
        tell((done + 1) / len(names))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(CHOICE_COLUMNS))
    table.index = pd.Index(names, name="choice")
    table.attrs.update(reference=reference, test=test, correction=correction, alpha=alpha,
                       seed=seed,
                       n_resamples=n_resamples, n_splits=n_splits, n_queries=n_queries,
                       systems=systems,
                       dropped_qids=scores[names[0]].attrs.get("dropped_qids", []))
    return table
