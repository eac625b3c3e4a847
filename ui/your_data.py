"""Renderers of the "Evaluate your runs" page: inputs, settings, this session's cached
evaluation, the comparison of many runs against a baseline, charts and exports.

Every NDCG figure comes from :func:`ndcg_core.evaluate` and every statistic from
:func:`ndcg_core.compare`; the analysis around them (per-query tables, Judged@k, why
conventions disagree) is :mod:`lab.runs`. Uploaded text is data: it is shown escaped
(Markdown) or inside tables, never as HTML.

Parsed files and results are cached per session (:func:`ui.state.session_cache`), so they
are freed when the session ends: a global ``st.cache_data`` kept them for every visitor
after they left (issue 16: 2.9 GB held after three 150 MB uploads closed).

Besides the two upload widgets (judgments; up to ten runs), the page reads
``st.session_state["yd_files"]``: a dict ``{"qrels": {"name": ..., "data": bytes}, "runs":
[{"name": ..., "data": bytes}, ...]}``. The "Load the sample" button fills it, and tests may
too. Files in the upload widgets replace it. Each run is named by its file name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import streamlit as st

from ndcg_core import (COMPARE_OPTIONS, CONVENTIONS, OPTIONS, compare, conventions_table,
                       read_qrels, read_run, wins_losses)
from lab import runs as R
from lab.runs import MAX_RUNS, SIGNIFICANT, Settings, Upload, query_facts
from lab.text import DATA_DECIMALS, escape_markdown, listing, number_format
from ui import memory, state

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "assets" / "samples"
SAMPLE_QRELS = "qrels.txt"
SAMPLE_RUNS = ("system_a.run", "system_b.run")
SLOTS = {"qrels": "Judgments (qrels)", "runs": f"Runs (up to {MAX_RUNS})"}
SLOT_HELP = {
    "qrels": "TREC qrels `qid 0 docid grade` (whitespace separated), or a CSV with a header "
             "`qid,docid,relevance`. A CSV `qid,docid,relevance,score` alone also serves as "
             "a run.",
    "runs": f"Up to {MAX_RUNS} runs, each a TREC run `qid Q0 docid rank score tag` or a CSV "
            "with a header `qid,docid,score`; each is named by its file name. Documents are "
            "ranked by score (the rank column is ignored, as in trec_eval).",
}
CUTOFF_CHOICES = (1, 3, 5, 10, 20, 50, 100)
CURVE_MAX = 20
CACHE_ENTRIES = 24  # per session: a few files and results, then the oldest go
NUMBER = st.column_config.NumberColumn(format=number_format(DATA_DECIMALS))
NARROWEST_BOX = 700  # px: the main column at 1280 px wide with the sidebar open
SIDE_BOX = 300       # px: the narrower of two side-by-side columns there


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
    memory.trim()  # what the computation freed goes back before the next one starts
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
    read = lambda name: {"name": name, "data": (SAMPLE_DIR / name).read_bytes()}  # noqa: E731
    return {"qrels": read(SAMPLE_QRELS), "runs": [read(name) for name in SAMPLE_RUNS]}


def input_panel():
    """Upload widgets + sample button; returns (qrels Upload, {run name: Upload}) or None."""
    gen = state.upload_generation()
    left, right = st.columns([1, 2])
    qfile = left.file_uploader(SLOTS["qrels"], key=f"yd_upload_qrels_{gen}",
                               help=SLOT_HELP["qrels"])
    rfiles = right.file_uploader(SLOTS["runs"], key=f"yd_upload_runs_{gen}",
                                 accept_multiple_files=True, help=SLOT_HELP["runs"]) or []
    widgets = state.uploaded(([qfile] if qfile is not None else []) + list(rfiles))
    if widgets:
        qrels = widgets[0] if qfile is not None else None
        run_files = widgets[1:] if qfile is not None else widgets
    else:
        injected = state.injected_files()
        qrels = (Upload.of(injected["qrels"]["name"], injected["qrels"]["data"])
                 if injected.get("qrels") else None)
        run_files = [Upload.of(f["name"], f["data"]) for f in injected.get("runs") or []]
    b1, b2, note = st.columns([1.2, 0.6, 4], vertical_alignment="center")
    b1.button("Load the sample", key="yd_sample", on_click=lambda: state.on_load_sample(
        _sample_files()), type="primary", icon=":material/dataset:", width="stretch")
    b2.button("Clear", key="yd_clear", on_click=state.on_clear_files,
              disabled=qrels is None and not run_files, width="stretch")
    note.caption(f"The sample: 50 queries graded 0–3, two runs. Your own files: TREC or "
                 f"CSV, up to {st.get_option('server.maxUploadSize')} MB each, up to "
                 f"{MAX_RUNS} runs; uploaded files replace the sample.")
    if qrels is None:
        st.info("Upload judgments and a run, or load the sample, to see NDCG per query.",
                icon=":material/upload_file:")
        return None
    if len(run_files) > MAX_RUNS:
        left_out = [up.name for up in run_files[MAX_RUNS:]]
        st.warning(f"{len(run_files)} runs uploaded: the page compares at most {MAX_RUNS}. "
                   f"Left out: {listing(left_out)}. Remove some files to choose which.",
                   icon=":material/warning:")
        run_files = run_files[:MAX_RUNS]
    runs = dict(zip(R.run_names(up.name for up in run_files), run_files))
    if not runs and _has_scores(qrels):
        runs = {qrels.name: qrels}
    ok = True
    what, err = check("qrels", qrels)
    if err:
        st.error(f"**Judgments** could not be read. {escape_markdown(err)}",
                 icon=":material/error:")
        ok = False
    else:
        st.caption(f"**Judgments**: {escape_markdown(qrels.name)} — {what}")
    lines = []
    for name, up in list(runs.items()):
        what, err = check("run", up)
        if err:
            st.error(f"**Run {escape_markdown(name)}** could not be read. "
                     f"{escape_markdown(err)}", icon=":material/error:")
            runs.pop(name)
        else:
            lines.append(f"**{escape_markdown(name)}** — {what}")
    if lines:
        st.caption("**Runs**: " + "; ".join(lines))
    if not ok or not runs:
        if ok:
            st.info("Now upload a run (or a CSV `qid,docid,relevance,score` as judgments).")
        return None
    return qrels, runs


# ------------------------------------------------------------------ settings

def settings_panel() -> Settings:
    """Preset, cutoffs, every option of :data:`ndcg_core.OPTIONS` the evaluation uses, and
    the judged-only switch."""
    state.data_settings_init(CONVENTIONS, OPTIONS["missing"].default)
    with st.container(border=True):
        top = st.columns([1, 2, 1.2], vertical_alignment="bottom")
        top[0].selectbox("Preset", list(CONVENTIONS), key=state.YD_PRESET,
                         on_change=state.on_preset, args=(CONVENTIONS,),
                         help="Sets every option below the way that library computes NDCG; "
                              "change any option afterwards.")
        top[1].multiselect("Cutoffs k", CUTOFF_CHOICES, key=state.YD_KS,
                           help="NDCG@k looks at the top k documents of each query.")
        top[2].toggle("Judged documents only", key=state.YD_JUDGED_ONLY,
                      help="Condensed lists (Sakai 2007; trec_eval -J; pytrec_eval "
                           "judged_docs_only_flag=True): unjudged documents are removed from "
                           "each run before it is ranked, so the judged ones move up. Off: "
                           "an unjudged document counts as grade 0, as trec_eval does.")
        names = state.SETTING_NAMES
        for row in (names[:4], names[4:]):  # two rows of four: each box keeps its label
            for col, name in zip(st.columns(4), row):
                opt = OPTIONS[name]
                col.selectbox(opt.label, list(opt.choices), key=state.YD_OPTION.format(name),
                              help=opt.help())
        ks, preset_name, options, judged_only = state.data_settings()
        preset, chosen = CONVENTIONS[preset_name], dict(options)
        changed = [f"{OPTIONS[n].label.lower()} → {chosen[n]}" for n in names
                   if n in preset and chosen[n] != preset[n]]
        st.caption(f"As **{preset_name}** computes it" + (
            f", except {'; '.join(changed)}." if changed else ".") +
            " Judged queries absent from a run: " + OPTIONS["missing"].choices[chosen["missing"]]
            + (" Judged documents only: unjudged ones are removed before ranking."
               if judged_only else ""))
    with st.expander("What each preset sets"):
        st.dataframe(conventions_table(), width="stretch")
    return Settings(ks, preset_name, options, judged_only)


# ------------------------------------------------------------------ evaluation (cached)

def evaluate_runs(qrels: Upload, runs: tuple, ks: tuple, preset: str, options: tuple,
                  judged_only: bool = False):
    """Per-query NDCG (with details) of each run: ({run: DataFrame}, {run: error})."""
    def compute():
        q, _ = load("qrels", qrels)
        tables, errors = {}, {}
        for system, up in runs:
            r, err = load("run", up)
            try:
                if err:
                    raise ValueError(err)
                tables[system] = R.evaluate(q, r, k=ks, convention=preset, details=True,
                                            judged_only=judged_only, **dict(options))
            except ValueError as exc:
                errors[system] = str(exc)
        return tables, errors
    return _cached(("evaluate", _upload_key(qrels), runs_key(runs), ks, preset, options,
                    judged_only), compute, "Evaluating …")


def runs_key(runs: tuple) -> tuple:
    return tuple((system, _upload_key(up)) for system, up in runs)


def unjudged(qrels: Upload, runs: tuple, ks: tuple, settings: Settings) -> dict:
    """{run: per-query Judged@k and the NDCG@k range unjudged documents leave open}."""
    def compute():
        q, _ = load("qrels", qrels)
        out = {}
        for system, up in runs:
            r, _ = load("run", up)
            try:
                out[system] = R.unjudged_summary(q, r, ks, convention=settings.preset,
                                                 **settings.opts)
            except ValueError:
                continue  # the run's own evaluation already said why
        return out
    return _cached(("unjudged", _upload_key(qrels), runs_key(runs), ks, settings.preset,
                    settings.options), compute, "Counting judged documents …")


def comparison(per_query: pd.DataFrame, key: tuple, **options) -> pd.DataFrame:
    """:func:`ndcg_core.compare` of the per-query scores (cached: resampling tests cost)."""
    return _cached(("compare", key, tuple(options.items())),
                   lambda: compare(per_query, **options), "Testing the differences …")


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
                    means = R.evaluate(q, r, k=range(1, kmax + 1), convention=settings.preset,
                                       judged_only=settings.judged_only,
                                       **dict(others, gain=gain)).mean()
                except ValueError:
                    continue
                rows += [(system, gain, k, m) for k, m in zip(range(1, kmax + 1), means)]
        return pd.DataFrame(rows, columns=["system", "gain", "k", "mean NDCG@k"])
    return _cached(("curves", _upload_key(qrels), runs_key(runs), kmax, settings.preset,
                    others, settings.judged_only), compute, "Computing NDCG@1 … NDCG@k …")


def under_presets(qrels: Upload, runs: tuple, ks: tuple, missing: str,
                  judged_only: bool = False):
    """Per-query NDCG of each run under each preset: {(preset, system): DataFrame}, errors."""
    def compute():
        q, _ = load("qrels", qrels)
        out, errors = {}, {}
        for system, up in runs:
            r, _ = load("run", up)
            for preset in CONVENTIONS:
                try:
                    out[preset, system] = R.evaluate(q, r, k=ks, convention=preset,
                                                     missing=missing, judged_only=judged_only)
                except ValueError as exc:
                    errors[preset, system] = str(exc)
        return out, errors
    return _cached(("presets", _upload_key(qrels), runs_key(runs), ks, missing, judged_only),
                   compute, "Evaluating under every preset …")


def facts(qrels: Upload, run: Upload) -> pd.DataFrame:
    """:func:`lab.runs.query_facts` of one run, cached for the session."""
    return _cached(("facts", _upload_key(qrels), _upload_key(run)),
                   lambda: query_facts(load("qrels", qrels)[0], load("run", run)[0]))


def frames(qrels: Upload, run: Upload):
    """The parsed (qrels, run) frames."""
    return load("qrels", qrels)[0], load("run", run)[0]


# ------------------------------------------------------------------ rendering helpers

def show_coverage(tables: dict, settings: Settings):
    """Say which queries are left out or counted as 0, and why (evaluate's attrs)."""
    rule = settings.opts["missing"]
    notes = {}
    for system, t in tables.items():
        for what in ("unjudged_queries", "missing_queries", "emptied_queries"):
            if t.attrs.get(what):
                notes.setdefault((what, tuple(t.attrs[what])), []).append(system)
    for (what, ids), systems in notes.items():
        one = len(ids) == 1
        if what == "unjudged_queries":
            text = (f"{len(ids)} retrieved quer{'y has' if one else 'ies have'} no judgments "
                    f"and {'is' if one else 'are'} left out")
        elif what == "emptied_queries":
            text = (f"{len(ids)} quer{'y retrieves' if one else 'ies retrieve'} no judged "
                    "document: judged documents only, NDCG 0 (as pytrec_eval scores it)")
        else:
            how = ("scored 0 and counted in the mean" if rule == "zero" else
                   "left out of the mean (choose “scores 0” to count "
                   f"{'it' if one else 'them'})")
            text = f"{len(ids)} judged quer{'y is' if one else 'ies are'} not in the run, {how}"
        names = ("Every run" if len(systems) == len(tables) > 2 else
                 " and ".join(escape_markdown(s) for s in systems))
        st.caption(f"{names}: {text}: {listing(ids)}")


MEANS_HELP = {
    "Judged": "Judged@{k}: the share of the top {k} documents (or all retrieved, if fewer) "
              "that have a judgment, averaged over queries (ir_measures' Judged@k). Low "
              "values mean NDCG@{k} rests on unjudged documents counted as 0.",
    "unjudged=0": "Mean NDCG@{k} with every unjudged retrieved document graded 0 (what "
                  "trec_eval does without -J).",
    "unjudged=top": "Mean NDCG@{k} with every unjudged retrieved document graded the top "
                    "grade of the judgments; the ideal includes them too, so on a query it "
                    "can fall below the other value.",
}


def show_means(tables: dict, extras: dict, ks: tuple):
    """The headline: per run, mean NDCG@k at every cutoff with Judged@k and the range the
    unjudged documents leave open, the run column pinned."""
    df = R.means_table(tables, extras, ks)
    config = {"run": st.column_config.TextColumn("run", pinned=True),
              "queries": st.column_config.NumberColumn(
                  "queries", help="Queries in the mean (the missing rule decides).")}
    for c in df.columns[2:]:
        k = int(re.search(r"@(\d+)", c).group(1))
        kind = next((h for h in MEANS_HELP if h in c), None)
        config[c] = st.column_config.NumberColumn(
            c, format=number_format(DATA_DECIMALS),
            help=MEANS_HELP[kind].format(k=k) if kind else f"Mean NDCG@{k} over the queries.")
    st.dataframe(df, hide_index=True, width="stretch", key="yd_means", column_config=config)
    scroll_hint(df)


def scroll_hint(df: pd.DataFrame, box: int = NARROWEST_BOX):
    """Under a table wider than its box (px; the page's main column by default): say it
    scrolls sideways."""
    if R.table_width(df) > box:
        st.caption(f":material/swap_horiz: {len(df.columns)} columns: where they do not all "
                   "fit, scroll the table sideways (Shift + wheel, or swipe); the first "
                   "column stays in place.")


def compare_panel(per_query: pd.DataFrame, k: int, data_key: tuple):
    """Baseline, test, correction and alpha; compare()'s table with its marks; exports."""
    systems = list(per_query.columns)
    state.compare_init(systems, {n: o.default for n, o in COMPARE_OPTIONS.items()})
    test, corr = COMPARE_OPTIONS["test"], COMPARE_OPTIONS["correction"]
    c = st.columns([2, 1.3, 1.3, 0.8])
    c[0].selectbox("Baseline", systems, key=state.YD_BASELINE,
                   help="The run every other run is compared with (the first by default).")
    c[1].selectbox(test.label, list(test.choices), key=state.YD_TEST, help=test.help())
    words = {state.NO_CORRECTION if v is None else v: v for v in corr.choices}
    c[2].selectbox(corr.label, list(words), key=state.YD_CORRECTION, help=corr.help())
    c[3].number_input("α", min_value=0.001, max_value=0.5, step=0.01, format="%.3f",
                      key=state.YD_ALPHA, help="A run is marked † when its adjusted p-value "
                      "is below α.")
    options = state.compare_settings()
    try:
        table = comparison(per_query, data_key + (k,), **options)
    except ValueError as exc:
        st.warning(f"No comparison at NDCG@{k}: {escape_markdown(exc)}",
                   icon=":material/warning:")
        return None
    counts = wins_losses(per_query, baseline=options["baseline"])
    view = R.comparison_view(table, counts, k)
    helps = {"Δ": "Mean of run − baseline over the queries every run was evaluated on.",
             "d_z": "Effect size: mean difference / its standard deviation (Cohen's d_z).",
             "p": "Two-sided p-value; 0.0000 means below 0.00005 (the exports write < 0.0001).",
             "p (adj.)": "The p-value after the correction; a run is marked † when it is "
                         "below α.",
             "CI low": f"{100 * table.attrs['confidence']:g}% confidence interval of Δ."}
    helps["CI high"] = helps["CI low"]
    config = {"run": st.column_config.TextColumn("run", pinned=True),
              "sig.": st.column_config.TextColumn(
                  "sig.", help=f"{SIGNIFICANT}: adjusted p < α, the difference from the "
                               "baseline is significant. The baseline's row has no test.")}
    config |= {c: st.column_config.NumberColumn(c, format=number_format(DATA_DECIMALS),
                                                help=helps.get(c))
               for c in view.columns if pd.api.types.is_float_dtype(view[c])}
    st.dataframe(view, hide_index=True, width="stretch", key="yd_compare", column_config=config)
    scroll_hint(view)
    st.caption(R.footnote(table, k))
    exports(table, k)
    return table, counts


def exports(table: pd.DataFrame, k: int):
    files = R.export_files(table, k)
    for col, (label, (name, mime, text)) in zip(st.columns(len(files)), files.items()):
        col.download_button(label, text, file_name=name, mime=mime,
                            key=f"yd_export_{label.lower()}", icon=":material/download:",
                            on_click="ignore", width="stretch")


def decimals(df: pd.DataFrame, like: str | None = None) -> dict:
    """column_config showing with 4 decimals the float columns (or those named ``like``)."""
    return {c: NUMBER for c in df.columns
            if (like in c if like else pd.api.types.is_float_dtype(df[c]))}
