"""The "Choose gain and cutoff" tab's logic, apart from rendering: the grid of choices a team
weighs, their names in each language, the table as shown and the recommendation in words.

Every figure comes from :mod:`ndcg_core.choices`; this module only picks, names and says.
No Streamlit here.
"""

from __future__ import annotations

import math

import pandas as pd

from lab.i18n import t
from lab.text import DATA_DECIMALS, fmt, gain_name, sentences

GAINS = ("linear", "exponential")
DEFAULT_CUTOFFS = (5, 10, 20)
# The discounts weighed, as ndcg_core's discount options: log2(i + 1), and Järvelin &
# Kekäläinen's log_b(i) (rank 1 undiscounted) with b = 1.5, below which every rank's weight
# falls faster than under log2(i + 1): w(1)/w(2) = log_1.5 2 = 1.71 against log2 3 = 1.58,
# and from rank 2 on w(i)/w(i+1) = ln(i+1)/ln(i) > ln(i+2)/ln(i+1). J&K's own b = 2 is
# flatter than log2(i + 1), and ln(i + 1) gives the same NDCG: neither is a steeper discount.
STEEP_BASE = 1.5
DISCOUNTS = {"log2": dict(discount="log2"),
             "steep": dict(discount="jarvelin", base=STEEP_BASE)}
DEFAULT_DIFFERENCE = 0.02  # the smallest difference in mean NDCG worth detecting
POWER = 0.8  # Sakai (2016) designs for 80 % power, as Cohen's conventions do
SWAP_TARGET = 0.05  # Voorhees & Buckley (2002): a swap rate under 5 % is a reliable difference
TAU_AGREE = 0.9  # Voorhees (2000): orderings with τ >= 0.9 are "equivalent"


def grid(gains, cutoffs, judged: bool, discounts=("log2",)) -> dict:
    """``{name: evaluate keywords}`` of every gain × cutoff × discount (× judged-only when
    ``judged``), named in a language-free way (``"exponential@10"``, ``"linear@5 steep"``,
    ``"linear@5 judged"``); the first is the reference by default.

    >>> list(grid(["linear"], [10, 5], False, ["log2", "steep"]))
    ['linear@5', 'linear@10', 'linear@5 steep', 'linear@10 steep']
    """
    out = {}
    for only in (False, True) if judged else (False,):
        for discount in [d for d in DISCOUNTS if d in discounts]:
            for gain in gains:
                for k in sorted(cutoffs):
                    name = (f"{gain}@{k}" + (" steep" if discount == "steep" else "")
                            + (" judged" if only else ""))
                    out[name] = dict(gain=gain, k=int(k), judged_only=only,
                                     **DISCOUNTS[discount])
    return out


def discount_name(discount: str, *, lang: str) -> str:
    """A discount of :data:`DISCOUNTS` as the tab names it."""
    return {"log2": t("log2(i + 1)", lang),
            "steep": t("steeper: log_1.5(i)", lang)}[discount]


def is_steep(spec: dict) -> bool:
    return spec.get("discount") == "jarvelin"


def label(name: str, spec: dict, *, lang: str) -> str:
    """A choice's name as drawn: "exponential@10", "linear@5, steeper", "指数@10，只看已标注" ...

    >>> label("linear@5 judged", dict(gain="linear", k=5, judged_only=True), lang="en")
    'linear@5, judged only'
    >>> label("linear@5 steep", grid(["linear"], [5], False, ["steep"])["linear@5 steep"],
    ...       lang="en")
    'linear@5, steeper'
    """
    gain = gain_name(spec["gain"], lang=lang)
    if is_steep(spec):
        if spec.get("judged_only"):
            return t("{gain}@{k}, steeper, judged only", lang, gain=gain, k=spec["k"])
        return t("{gain}@{k}, steeper", lang, gain=gain, k=spec["k"])
    if spec.get("judged_only"):
        return t("{gain}@{k}, judged only", lang, gain=gain, k=spec["k"])
    return t("{gain}@{k}", lang, gain=gain, k=spec["k"])


def note_text(note: str, *, lang: str) -> str:
    """compare_choices's ``note`` (why a figure is NaN) in ``lang``, sentence by sentence."""
    words = {
        "every system has the same mean NDCG under this choice: no ordering to compare":
            t("every system has the same mean NDCG under this choice: no ordering to compare",
              lang),
        "every system has the same mean NDCG under the reference: no ordering to compare with":
            t("every system has the same mean NDCG under the reference: no ordering to "
              "compare with", lang),
        "no pair of systems differs on half of the queries: no swap rate":
            t("no pair of systems differs on half of the queries: no swap rate", lang),
    }
    return t("; ", lang).join(words.get(part, part) for part in note.split("; "))


def table_view(table: pd.DataFrame, labels: dict) -> pd.DataFrame:
    """compare_choices's table as shown: one row per choice, named in the page's language;
    shares as fractions (the page formats them)."""
    view = table.drop(columns=["note"]).copy()
    view.insert(0, "choice", [labels[n] for n in table.index])
    return view.reset_index(drop=True)


def export_csv(table: pd.DataFrame, sizes: pd.DataFrame, swap_queries: pd.DataFrame,
               labels_en: dict) -> str:
    """The table with the topic-set sizes, for a design doc (English column names: data)."""
    out = table.join(sizes[["sigma_d", "queries", "power_now"]].rename(
        columns={"queries": "queries_needed_t_test"}))
    out = out.join(swap_queries.rename(columns={"queries": "queries_swap_under_5pct",
                                                "how": "swap_size_how"}))
    out.insert(0, "label", [labels_en[n] for n in out.index])
    return out.to_csv()


def _pick(table: pd.DataFrame):
    """The choice to recommend: the most pairs separated; then the lowest swap rate; then
    the closest ordering to the reference."""
    key = pd.DataFrame({"power": table["discriminative_power"],
                        "swap": -table["swap_rate"].fillna(1.0),
                        "tau": table["kendall_tau"].fillna(-1.0)})
    return key.sort_values(["power", "swap", "tau"], ascending=False, kind="stable").index[0]


def _twin(choices: dict, best) -> str | None:
    """The choice with ``best``'s gain, cutoff and judged-only under the other discount."""
    spec = choices[best]
    for name, other in choices.items():
        if is_steep(other) != is_steep(spec) and all(
                other.get(key) == spec.get(key) for key in ("gain", "k", "judged_only")):
            return name
    return None


def recommendation(table: pd.DataFrame, sizes: pd.DataFrame, labels: dict, *,
                   difference: float, test_name: str, lang: str, choices: dict | None = None,
                   taus: pd.DataFrame | None = None) -> tuple[str, str]:
    """(reason, caveat) in words, from the engine's figures.

    The reason names the choice that separates the most pairs of systems (ties: the lower
    swap rate, then the closer ordering to the reference), against the reference's count,
    and how far it orders the systems as the reference does; given the ``choices``' specs
    and the τ matrix ``taus``, what the other discount does at the same gain and cutoff. The caveat
    says whether the
    queries at hand detect ``difference`` (Sakai 2016's power-based size) and what the
    evidence cannot say.
    """
    best = _pick(table)
    ref = table.attrs["reference"]
    row, ref_row = table.loc[best], table.loc[ref]
    pairs = int(row["pairs"])
    if best == ref:
        reason = t("{best} separates the most pairs of systems: {s} of {pairs} with p < α "
                   "({test}), and no other choice separates more.", lang,
                   best=labels[best], s=int(row["significant_pairs"]), pairs=pairs,
                   test=test_name)
    else:
        tau = row["kendall_tau"]
        agree = (t("orders the systems almost as {ref} does (τ = {tau}, τ_AP = {tap})", lang,
                   ref=labels[ref], tau=fmt(tau, DATA_DECIMALS),
                   tap=fmt(row["tau_ap"], DATA_DECIMALS))
                 if not math.isnan(tau) and tau >= TAU_AGREE else
                 t("orders the systems differently from {ref} (τ = {tau}, τ_AP = {tap}; "
                   "{n} pairs swap)", lang, ref=labels[ref], tau=fmt(tau, DATA_DECIMALS),
                   tap=fmt(row["tau_ap"], DATA_DECIMALS), n=int(row["swapped_pairs"])))
        reason = t("{best} separates {s} of {pairs} pairs of systems with p < α ({test}) "
                   "against {r} for {ref}, and {agree}.", lang, best=labels[best],
                   s=int(row["significant_pairs"]), pairs=pairs, test=test_name,
                   r=int(ref_row["significant_pairs"]), ref=labels[ref], agree=agree)
    swap = row["swap_rate"]
    if not math.isnan(swap):
        reason = sentences([reason, t("Between two halves of the queries its swap rate is "
                                      "{rate}.", lang, rate=fmt(swap, DATA_DECIMALS))],
                           lang=lang)
    twin = _twin(choices, best) if choices is not None and taus is not None else None
    if twin is not None:
        other = table.loc[twin]
        reason = sentences([reason, t(
            "Under the other discount, {twin} separates {s} of {pairs} pairs and orders the "
            "systems as {best} does with τ = {tau}.", lang, twin=labels[twin],
            s=int(other["significant_pairs"]), pairs=int(other["pairs"]), best=labels[best],
            tau=fmt(taus.loc[best, twin], DATA_DECIMALS))], lang=lang)
    size = sizes.loc[best]
    n, needed = int(size["n_queries"]), size["queries"]
    diff = fmt(difference, DATA_DECIMALS)
    if math.isnan(needed):
        caveat = t("Every system scores the same on every query under {best}: no test can "
                   "separate them.", lang, best=labels[best])
    elif needed > n:
        caveat = t("With {n} queries a difference of {d} in mean NDCG is not reliably "
                   "detected (power {power} of a paired t-test): you need about {needed} "
                   "(Sakai 2016).", lang, n=n, d=diff, power=f"{100 * size['power_now']:.0f} %",
                   needed=f"{needed:.0f}" if math.isfinite(needed) else "∞")
    else:
        caveat = t("With {n} queries a difference of {d} in mean NDCG is detected with power "
                   "{power} (a paired t-test needs about {needed}; Sakai 2016).", lang, n=n,
                   d=diff, power=f"{100 * size['power_now']:.0f} %", needed=f"{needed:.0f}")
    caveat = sentences([caveat, t(
        "Separating more pairs is not measuring what users value: decide first which "
        "ordering of your systems you believe, then prefer the choice that gets it with "
        "the fewest queries. Kanoulas & Aslam (CIKM 2009) chose nDCG's gain and discount by "
        "these criteria (the stability of the evaluation, the ordering of systems it "
        "induces, its discriminative power) on TREC runs; here they are computed on yours.",
        lang)], lang=lang)
    return reason, caveat
