"""The data page's session state ("Evaluate your runs"): its keys and their only writers.
Part of :mod:`ui.state` (re-exported there: pages call ``state.NAME``)."""

from __future__ import annotations

import streamlit as st

from lab.runs import SETTING_NAMES, Upload
from ui import memory

ss = st.session_state
__all__ = [
    "YD_FILES", "YD_GENERATION", "YD_UPLOADS", "YD_CACHE", "YD_PRESET", "YD_KS", "YD_K",
    "YD_TAB", "YD_OPTION", "YD_JUDGED_ONLY", "YD_BASELINE", "YD_TEST", "YD_CORRECTION",
    "YD_ALPHA", "YD_DELTA_RUN", "NO_CORRECTION", "DEFAULT_ALPHA", "DEFAULT_CUTOFFS",
    "uploaded", "lost_uploads", "on_load_sample", "on_clear_files", "upload_generation",
    "injected_files", "session_cache", "data_settings_init", "on_preset", "data_settings",
    "compare_init", "compare_settings", "data_cutoff", "CH_GAINS", "CH_KS", "CH_JUDGED", "CH_DISCOUNTS",
    "CH_REFERENCE", "CH_TEST", "CH_CORRECTION", "CH_ALPHA", "CH_DIFFERENCE", "CH_TAU", "CH_OPEN",
    "choices_init"]

# ---------------------------------------------------------------- keys: your data
YD_FILES = "yd_files"  # the sample (tests may set it): {"qrels": {"name", "data"}, "runs": [...]}
YD_GENERATION = "yd_gen"         # fresh upload widgets after Clear / Load the sample
YD_UPLOADS = "yd_memo"           # {file_id: digest}: each upload hashed once
YD_CACHE = "yd_cache"            # this session's parsed files and results (freed with it)
YD_PRESET, YD_KS, YD_K, YD_TAB = "yd_preset", "yd_ks", "yd_k", "yd_tab"
YD_OPTION = "yd_{}"              # .format(option name): one selectbox per option
YD_JUDGED_ONLY = "yd_judged_only"  # condensed lists: unjudged documents removed (-J)
YD_BASELINE = "yd_baseline"      # the run the others are compared with
YD_TEST, YD_CORRECTION, YD_ALPHA = "yd_test", "yd_correction", "yd_alpha"  # compare()'s
YD_DELTA_RUN = "yd_delta_run"    # the run whose per-query differences the chart shows
# the "Choose gain and cutoff" tab: the grid of choices, the evidence's settings
CH_GAINS, CH_KS, CH_JUDGED = "ch_gains", "ch_ks", "ch_judged"
CH_DISCOUNTS = "ch_discounts"    # log2(i + 1) and/or the steeper discount (lab.choices)
CH_REFERENCE, CH_TEST, CH_ALPHA = "ch_reference", "ch_test", "ch_alpha"
CH_CORRECTION = "ch_correction"  # NO_CORRECTION by default: Sakai (2006) counts unadjusted
CH_DIFFERENCE = "ch_difference"  # the smallest difference in mean NDCG worth detecting
CH_TAU = "ch_tau"                # the heatmap's measure: Kendall's τ-b or τ_AP
CH_OPEN = "ch_open"              # the choice whose most-disputed query opens in the playground
NO_CORRECTION = "none"           # the correction widget's word for compare(correction=None)
DEFAULT_ALPHA = 0.05
DEFAULT_CUTOFFS = (5, 10, 20)


def uploaded(files: list) -> list[Upload]:
    """The Uploads of the widgets' files, each hashed once: digests are kept between runs, an
    Upload holds the bytes it is given (the widgets' own, not copies) for one run."""
    memo = ss.get(YD_UPLOADS) or {}
    ups = [Upload(str(f.name), f.getvalue(), memo[f.file_id]) if f.file_id in memo
           else Upload.of(f.name, f.getvalue()) for f in files]
    ss[YD_UPLOADS] = {f.file_id: up.digest for f, up in zip(files, ups)}
    return ups


def lost_uploads(file_ids) -> int:
    """How many listed files the server lost (a restart): none this session read."""
    return sum(i not in (ss.get(YD_UPLOADS) or {}) for i in file_ids)


def on_load_sample(files: dict):
    ss[YD_FILES] = files
    _new_uploaders()


def on_clear_files():
    ss[YD_FILES] = {}
    _new_uploaders()


def _new_uploaders():
    """Fresh (empty) upload widgets: new keys, and the old files' bytes and results let go."""
    ss[YD_GENERATION] = ss.get(YD_GENERATION, 0) + 1
    ss.pop(YD_UPLOADS, None)
    ss.pop(YD_CACHE, None)


def upload_generation() -> int:
    return ss.get(YD_GENERATION, 0)


def injected_files() -> dict:
    return ss.get(YD_FILES) or {}


def session_cache() -> dict:
    """This session's parsed files and results, freed with it (ui.memory.SessionCache)."""
    return ss.setdefault(YD_CACHE, memory.SessionCache())


def data_settings_init(conventions: dict, missing_default: str):
    if YD_PRESET not in ss:
        ss[YD_PRESET] = "trec_eval"
        ss[YD_OPTION.format("missing")] = missing_default
        on_preset(conventions)
    ss.setdefault(YD_KS, list(DEFAULT_CUTOFFS))


def on_preset(conventions: dict):
    preset = conventions[ss[YD_PRESET]]
    for name in SETTING_NAMES:
        if name in preset:
            ss[YD_OPTION.format(name)] = preset[name]


def data_settings() -> tuple[tuple, str, tuple, bool]:
    """(cutoffs, preset, ((option, value), ...), judged only) as chosen."""
    return (tuple(sorted(int(k) for k in ss[YD_KS])), ss[YD_PRESET],
            tuple((n, ss[YD_OPTION.format(n)]) for n in SETTING_NAMES),
            bool(ss.get(YD_JUDGED_ONLY, False)))


def compare_init(runs: list, defaults: dict):
    """Baseline (the first run unless chosen), test, correction, α (compare()'s defaults),
    written on every run: kept while not drawn (after Clear), α reached its box as 0.001."""
    ss[YD_BASELINE] = ss[YD_BASELINE] if ss.get(YD_BASELINE) in runs else runs[0]
    if ss.get(YD_DELTA_RUN) not in runs or ss[YD_DELTA_RUN] == ss[YD_BASELINE]:
        ss[YD_DELTA_RUN] = next((r for r in runs if r != ss[YD_BASELINE]), runs[0])
    for key, default in ((YD_TEST, defaults["test"]), (YD_ALPHA, DEFAULT_ALPHA),
                         (YD_CORRECTION, defaults["correction"] or NO_CORRECTION),
                         (YD_DELTA_RUN, None)):
        ss[key] = ss.get(key, default)


def compare_settings() -> dict:
    """compare()'s keywords as chosen: baseline, test, correction (None for "none"), alpha."""
    correction = ss[YD_CORRECTION]
    return dict(baseline=ss[YD_BASELINE], test=ss[YD_TEST],
                correction=None if correction == NO_CORRECTION else correction,
                alpha=float(ss[YD_ALPHA]))


def data_cutoff(ks: tuple) -> None:
    """Keep the tables' cutoff among the chosen ones."""
    if ss.get(YD_K) not in ks:
        ss[YD_K] = ks[-1]


def choices_init(defaults: dict, among: dict | None = None) -> None:
    """The tab's widgets' first values (``defaults``: key -> value), kept once chosen;
    ``among``: key -> the values it may hold now (else it takes the first)."""
    for key, value in defaults.items():
        ss[key] = ss.get(key, value)
    for key, options in (among or {}).items():
        if ss.get(key) not in options:
            ss[key] = options[0]
