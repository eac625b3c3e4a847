"""Renderers of the "Evaluate your runs" page: inputs, settings, this session's cached
evaluation, charts and the comparison.

Every NDCG figure comes from :func:`ndcg_core.evaluate`; the analysis around it (per-query
tables, paired statistics, why conventions disagree) is :mod:`lab.runs`. Uploaded text is
data: it is shown escaped (Markdown) or inside tables, never as HTML.

Parsed files and results are cached per session (:func:`ui.state.session_cache`), so they
are freed when the session ends: a global ``st.cache_data`` kept them for every visitor
after they left (issue 16: 2.9 GB held after three 150 MB uploads closed).

Besides the three upload widgets, the page reads ``st.session_state["yd_files"]``: a dict
``{"qrels": {"name": ..., "data": bytes}, "run_a": {...}, "run_b": {...}}``. The "Load the
sample" button fills it, and tests may too. Files in the upload widgets replace it.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import pyarrow as pa

from ndcg_core import CONVENTIONS, OPTIONS, conventions_table, evaluate, read_qrels, read_run
from lab.runs import PLAYGROUND_DEPTH, Settings, Upload, paired_stats, query_facts
from lab.runs import N_BOOTSTRAP, N_PERMUTATIONS, SEED
from lab.text import DATA_DECIMALS, escape_markdown, fmt, listing, number_format
from ui import charts as C, state

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "assets" / "samples"
SAMPLE_FILES = {"qrels": "qrels.txt", "run_a": "system_a.run", "run_b": "system_b.run"}
SLOTS = {"qrels": "Judgments (qrels)", "run_a": "Run A", "run_b": "Run B (optional)"}
SYSTEMS = {"run_a": "System A", "run_b": "System B"}
SLOT_HELP = {
    "qrels": "TREC qrels `qid 0 docid grade` (whitespace separated), or a CSV with a header "
             "`qid,docid,relevance`. A CSV `qid,docid,relevance,score` also serves as Run A.",
    "run_a": "TREC run `qid Q0 docid rank score tag`, or a CSV with a header `qid,docid,score`. "
             "Documents are ranked by score (the rank column is ignored, as in trec_eval).",
    "run_b": "A second run in the same format, to compare two systems query by query.",
}
CUTOFF_CHOICES = (1, 3, 5, 10, 20, 50, 100)
CURVE_MAX = 20
CACHE_ENTRIES = 24  # per session: a few files and results, then the oldest go
COLORS = {"System A": C.SYSTEM_COLORS[0], "System B": C.SYSTEM_COLORS[1]}
NUMBER = st.column_config.NumberColumn(format=number_format(DATA_DECIMALS))

# Arrow's own allocator keeps freed pages of a parsed upload for later: with the system one a
# parsed and evaluated 150 MB run left 135 MB held instead of 415 MB (issue 16's bench).
pa.set_memory_pool(pa.system_memory_pool())


def _cached(key: tuple, compute, spinner: str | None = None):
    """``compute()`` once per session and key (a small LRU in the session's state)."""
    cache = state.session_cache()
    if key in cache:
        cache[key] = cache.pop(key)  # most recently used last
        return cache[key]
    if spinner:
        with st.spinner(spinner):
            value = compute()
    else:
        value = compute()
    cache[key] = value
    while len(cache) > CACHE_ENTRIES:
        cache.pop(next(iter(cache)))
    return value


def _upload_key(up: Upload) -> tuple:
    return (up.name, up.digest)


# ------------------------------------------------------------------ reading files

def load(kind: str, up: Upload):
    """The parsed table, or the reader's error message (cached too, so a bad file is read once)."""
    def read():
        try:
            return (read_qrels if kind == "qrels" else read_run)(up.open()), None
        except ValueError as exc:
            return None, str(exc)
    return _cached(("load", kind, _upload_key(up)), read, "Reading the file …")


def check(kind: str, up: Upload):
    """A one-line summary of a file, or its error: what the inputs panel shows every run."""
    def summary():
        df, err = load(kind, up)
        if err:
            return None, err
        if df.empty:
            return None, f"{up.name} has a header but no data lines."
        what = f"{df['qid'].nunique():,} queries, {len(df):,} lines"
        if kind == "qrels":
            what += f", grades {df['relevance'].min():g} to {df['relevance'].max():g}"
        return what, None
    return _cached(("check", kind, _upload_key(up)), summary)


def _has_scores(up: Upload) -> bool:
    head = up.data[:4096].decode("utf-8-sig", "replace").lstrip().split("\n", 1)[0]
    return "score" in [t.strip('"').lower() for t in re.split(r"[,\s]+", head)]


def _sample_files() -> dict:
    return {slot: {"name": name, "data": (SAMPLE_DIR / name).read_bytes()}
            for slot, name in SAMPLE_FILES.items()}


def input_panel():
    """Upload widgets + sample button; returns (qrels Upload, {system: run Upload}) or None."""
    gen = state.upload_generation()
    widgets = {}
    for col, (slot, label) in zip(st.columns(3), SLOTS.items()):
        f = col.file_uploader(label, key=f"yd_upload_{slot}_{gen}", help=SLOT_HELP[slot])
        if f is not None:
            widgets[slot] = state.uploaded(slot, f)
    injected = {slot: Upload.of(v["name"], v["data"])
                for slot, v in state.injected_files().items() if v}
    files = widgets or injected
    b1, b2, note = st.columns([1.2, 0.6, 4], vertical_alignment="center")
    b1.button("Load the sample", key="yd_sample", on_click=lambda: state.on_load_sample(
        _sample_files()), type="primary", icon=":material/dataset:", width="stretch")
    b2.button("Clear", key="yd_clear", on_click=state.on_clear_files, disabled=not files,
              width="stretch")
    note.caption(f"The sample: 50 queries graded 0–3, two systems. Your own files: TREC or "
                 f"CSV, up to {st.get_option('server.maxUploadSize')} MB each; uploaded files "
                 "replace the sample.")
    if "qrels" not in files:
        st.info("Upload judgments and a run, or load the sample, to see NDCG per query.",
                icon=":material/upload_file:")
        return None
    qrels = files["qrels"]
    runs = {SYSTEMS[s]: files[s] for s in SYSTEMS if s in files}
    if not runs and _has_scores(qrels):
        runs = {SYSTEMS["run_a"]: qrels}
    ok = True
    for label, kind, up in [("Judgments", "qrels", qrels)] + [(n, "run", u)
                                                               for n, u in runs.items()]:
        what, err = check(kind, up)
        if err:
            st.error(f"**{label}** could not be read. {escape_markdown(err)}",
                     icon=":material/error:")
            ok = ok and kind != "qrels"
            runs.pop(label, None)
        else:
            st.caption(f"**{label}**: {escape_markdown(up.name)} — {what}")
    if not ok or not runs:
        if ok:
            st.info("Now upload a run (or a CSV `qid,docid,relevance,score` as judgments).")
        return None
    return qrels, runs


# ------------------------------------------------------------------ settings

def settings_panel() -> Settings:
    """Preset, cutoffs and every option of :data:`ndcg_core.OPTIONS` the evaluation uses."""
    state.data_settings_init(CONVENTIONS, OPTIONS["missing"].default)
    with st.container(border=True):
        top = st.columns([1, 2])
        top[0].selectbox("Preset", list(CONVENTIONS), key=state.YD_PRESET,
                         on_change=state.on_preset, args=(CONVENTIONS,),
                         help="Sets every option below the way that library computes NDCG; "
                              "change any option afterwards.")
        top[1].multiselect("Cutoffs k", CUTOFF_CHOICES, key=state.YD_KS,
                           help="NDCG@k looks at the top k documents of each query.")
        names = state.SETTING_NAMES
        for col, name in zip(st.columns(len(names)), names):
            opt = OPTIONS[name]
            col.selectbox(opt.label, list(opt.choices), key=state.YD_OPTION.format(name),
                          help=opt.help())
        ks, preset_name, options = state.data_settings()
        preset, chosen = CONVENTIONS[preset_name], dict(options)
        changed = [f"{OPTIONS[n].label.lower()} → {chosen[n]}" for n in names
                   if n in preset and chosen[n] != preset[n]]
        st.caption(f"As **{preset_name}** computes it" + (
            f", except {'; '.join(changed)}." if changed else ".") +
            " Judged queries absent from a run: " + OPTIONS["missing"].choices[chosen["missing"]])
    with st.expander("What each preset sets"):
        st.dataframe(conventions_table(), width="stretch")
    return Settings(ks, preset_name, options)


# ------------------------------------------------------------------ evaluation (cached)

def evaluate_runs(qrels: Upload, runs: tuple, ks: tuple, preset: str, options: tuple):
    """Per-query NDCG (with details) of each run: ({system: DataFrame}, {system: error})."""
    def compute():
        q, _ = load("qrels", qrels)
        tables, errors = {}, {}
        for system, up in runs:
            r, err = load("run", up)
            try:
                if err:
                    raise ValueError(err)
                tables[system] = evaluate(q, r, k=ks, convention=preset, details=True,
                                          **dict(options))
            except ValueError as exc:
                errors[system] = str(exc)
        return tables, errors
    return _cached(("evaluate", _upload_key(qrels), _runs_key(runs), ks, preset, options),
                   compute, "Evaluating …")


def _runs_key(runs: tuple) -> tuple:
    return tuple((system, _upload_key(up)) for system, up in runs)


def curves(qrels: Upload, runs: tuple, kmax: int, settings: Settings) -> pd.DataFrame:
    """Mean NDCG@k for k = 1..kmax, per system and per gain (long format)."""
    others = tuple((n, v) for n, v in settings.options if n != "gain")  # both gains drawn

    def compute():
        q, _ = load("qrels", qrels)
        rows = []
        for system, up in runs:
            r, _ = load("run", up)
            for gain in OPTIONS["gain"].choices:
                try:
                    means = evaluate(q, r, k=range(1, kmax + 1), convention=settings.preset,
                                     **dict(others, gain=gain)).mean()
                except ValueError:
                    continue
                rows += [(system, gain, k, m) for k, m in zip(range(1, kmax + 1), means)]
        return pd.DataFrame(rows, columns=["system", "gain", "k", "mean NDCG@k"])
    return _cached(("curves", _upload_key(qrels), _runs_key(runs), kmax, settings.preset,
                    others), compute, "Computing NDCG@1 … NDCG@k …")


def under_presets(qrels: Upload, runs: tuple, ks: tuple, missing: str):
    """Per-query NDCG of each run under each preset: {(preset, system): DataFrame}, errors."""
    def compute():
        q, _ = load("qrels", qrels)
        out, errors = {}, {}
        for system, up in runs:
            r, _ = load("run", up)
            for preset in CONVENTIONS:
                try:
                    out[preset, system] = evaluate(q, r, k=ks, convention=preset,
                                                   missing=missing)
                except ValueError as exc:
                    errors[preset, system] = str(exc)
        return out, errors
    return _cached(("presets", _upload_key(qrels), _runs_key(runs), ks, missing), compute,
                   "Evaluating under every preset …")


def facts(qrels: Upload, run: Upload) -> pd.DataFrame:
    """:func:`lab.runs.query_facts` of one run, cached for the session."""
    return _cached(("facts", _upload_key(qrels), _upload_key(run)),
                   lambda: query_facts(load("qrels", qrels)[0], load("run", run)[0]))


def frames(qrels: Upload, run: Upload):
    """The parsed (qrels, run) frames."""
    return load("qrels", qrels)[0], load("run", run)[0]


# ------------------------------------------------------------------ charts

def histogram(tables: dict, k: int) -> go.Figure:
    fig = go.Figure()
    for system, t in tables.items():
        fig.add_histogram(x=t[f"ndcg@{k}"], name=system, opacity=0.65, nbinsx=20,
                          marker=dict(color=COLORS.get(system)))
    return C.layout(fig, title=f"Per-query NDCG@{k}", x=f"NDCG@{k}", y="queries",
                    height=360, barmode="overlay")


def curve_chart(df: pd.DataFrame) -> go.Figure:
    fig = go.Figure()
    for (system, gain), g in df.groupby(["system", "gain"], sort=False):
        fig.add_scatter(x=g["k"], y=g["mean NDCG@k"], mode="lines+markers",
                        name=f"{system}, {gain} gain", marker=dict(color=COLORS.get(system)),
                        line=dict(color=COLORS.get(system),
                                  dash="solid" if gain == "linear" else "dash"))
    return C.layout(fig, title="Mean NDCG@k as k grows", x="k", y="mean NDCG@k", height=360)


def scatter(pairs: pd.DataFrame, k: int) -> go.Figure:
    a, b = pairs.columns
    lo = float(min(0.0, pairs.min().min()))
    hi = float(max(1.0, pairs.max().max()))
    fig = go.Figure()
    fig.add_scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="equal",
                    line=dict(color="grey", dash="dot"), hoverinfo="skip")
    fig.add_scatter(x=pairs[a], y=pairs[b], mode="markers", name="queries",
                    text=C.hover_text(pairs.index), hovertemplate="%{text}<br>A %{x:.4f}<br>"
                    "B %{y:.4f}<extra></extra>",
                    marker=dict(size=8, opacity=0.7, color=COLORS["System B"]))
    return C.layout(fig, title=f"NDCG@{k} per query: above the line B wins",
                    x=f"{a} NDCG@{k}", y=f"{b} NDCG@{k}", height=360)


# ------------------------------------------------------------------ rendering helpers

def show_coverage(tables: dict, settings: Settings):
    """Say which queries are left out or counted as 0, and why (evaluate's attrs)."""
    rule = settings.opts["missing"]
    notes = {}
    for system, t in tables.items():
        for what in ("unjudged_queries", "missing_queries"):
            if t.attrs[what]:
                notes.setdefault((what, tuple(t.attrs[what])), []).append(system)
    for (what, ids), systems in notes.items():
        one = len(ids) == 1
        if what == "unjudged_queries":
            text = (f"{len(ids)} retrieved quer{'y has' if one else 'ies have'} no judgments "
                    f"and {'is' if one else 'are'} left out")
        else:
            how = ("scored 0 and counted in the mean" if rule == "zero" else
                   "left out of the mean (choose “scores 0” to count "
                   f"{'it' if one else 'them'})")
            text = f"{len(ids)} judged quer{'y is' if one else 'ies are'} not in the run, {how}"
        st.caption(f"{' and '.join(systems)}: {text}: {listing(ids)}")


def show_means(tables: dict, ks: tuple):
    """The headline: mean NDCG@k per system, B's delta against A."""
    base = None
    for system, t in tables.items():
        cols = st.columns(len(ks))
        for col, k in zip(cols, ks):
            v = t[f"ndcg@{k}"]
            diff = np.nan if base is None else v.mean() - base[k]
            delta = f"{diff:+.4f} vs A" if np.isfinite(diff) else None
            col.metric(f"{system} · mean NDCG@{k}", fmt(v.mean(), DATA_DECIMALS), delta=delta, border=True,
                       help=f"Mean over {int(v.notna().sum())} queries.")
        base = base or {k: t[f"ndcg@{k}"].mean() for k in ks}


def show_comparison(pairs: pd.DataFrame, k: int):
    s = paired_stats(pairs.iloc[:, 0].to_numpy(), pairs.iloc[:, 1].to_numpy())
    c = st.columns(4)
    c[0].metric(f"B wins @{k}", s["wins"], border=True)
    c[1].metric(f"B loses @{k}", s["losses"], border=True)
    c[2].metric(f"Ties @{k}", s["ties"], border=True)
    c[3].metric(f"Mean B − A @{k}", f"{s['mean']:+.4f}", border=True,
                help=f"Over the {s['n']} queries both runs were evaluated on.")
    sig = "a difference this large is unlikely by chance" if s["p"] < 0.05 else \
        "chance alone could explain it"
    st.markdown(f"95% CI of the mean difference (paired bootstrap, {N_BOOTSTRAP} resamples, "
                f"seed {SEED}): **[{s['lo']:+.4f}, {s['hi']:+.4f}]**. Randomization test "
                f"({N_PERMUTATIONS} sign flips): **p = {s['p']:.4f}** — {sig}.")


def decimals(df: pd.DataFrame, like: str | None = None) -> dict:
    """column_config showing with 4 decimals the float columns (or those named ``like``)."""
    return {c: NUMBER for c in df.columns
            if (like in c if like else pd.api.types.is_float_dtype(df[c]))}
