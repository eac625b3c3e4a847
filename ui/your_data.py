"""Renderers of the "Evaluate your runs" page: inputs, settings, this session's cached
evaluation, the comparison of many runs against a baseline, charts and exports.

Every NDCG figure comes from :func:`ndcg_core.evaluate` and every statistic from
:func:`ndcg_core.compare`; the analysis around them (per-query tables, Judged@k, why
conventions disagree) is :mod:`lab.runs`. Uploaded text is data: it is shown escaped
(Markdown) or inside tables, never as HTML.

Parsed files and results are cached per session (:func:`ui.state.session_cache`), freed when
it ends: a global ``st.cache_data`` kept them for every visitor after they left.

Every word is drawn in the page's language (``state.language()``); the engine's error
messages through :func:`lab.errors.explain`; table headers through ``st.column_config``
labels only (the frames keep their English column names: the tests, the CSV download and the
exports read them). Every figure is the same in both languages.

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
                       wins_losses)
from lab import options_text as O, runs as run_analysis
from lab.errors import explain
from lab.i18n import LANGUAGES, t
from lab.run_words import file_counts
from lab.runs import MAX_RUNS, SETTING_NAMES, SIGNIFICANT, Settings, Upload, query_facts
from lab.upload_limits import MAX_UPLOAD_RUNS
from lab.text import DATA_DECIMALS, MISSING, escape_markdown, number_format, sentences
from ui import memory, parse_pool, run_summary as summary, state, uploads

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "assets" / "samples"
SAMPLE_QRELS = "qrels.txt"
SAMPLE_RUNS = ("system_a.run", "system_b.run", "top_heavy.run", "deep_recall.run",
               "near_tie_1.run", "near_tie_2.run", "top_grade.run", "any_relevant.run",
               "unjudged_mix.run")  # assets/samples/make_samples.py says what each is
SLOTS = ("qrels", "runs")  # the two upload widgets
CUTOFF_CHOICES = (1, 3, 5, 10, 20, 50, 100)
CURVE_MAX = 20
# per session: each file read and its summary (judgments and up to 30 runs: two entries
# each), and a few results; then the oldest go. Fewer, and the tab's 30 runs were read
# again on every rerun, each pushing out another.
CACHE_ENTRIES = 2 * (1 + MAX_UPLOAD_RUNS) + 24


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
    """The parsed table, or the reader's error message (cached too, so a bad file is read
    once). Read in another process (:mod:`ui.parse_pool`): the others' moves go on."""
    return _cached(("load", kind, _upload_key(up)),
                   lambda: parse_pool.read(kind, up.name, up.data),
                   t("Reading the file …", state.language()))


def check(kind: str, up: Upload):
    """A one-line summary of a file, or its error (the engine's, explained), in the page's
    language: what the inputs panel shows every run."""
    lang = state.language()

    def summary():
        df, err = load(kind, up)
        if err == parse_pool.STOPPED:
            return None, t("Reading {name} stopped before its end: the server ran out of "
                           "memory for it, or the process reading it was stopped. Press "
                           "Clear and upload it again; if it stops again, the file is too "
                           "large for this server.", lang, name=up.name)
        if err:
            return None, explain(err, lang)
        if df.empty:
            return None, t("{name} has a header but no data lines.", lang, name=up.name)
        grades = ({"low": df["relevance"].min(), "high": df["relevance"].max()}
                  if kind == "qrels" else {})
        return file_counts(df["qid"].nunique(), len(df), lang=lang, **grades), None
    return _cached(("check", kind, _upload_key(up), lang), summary)


def _has_scores(up: Upload) -> bool:
    head = up.data[:4096].decode("utf-8-sig", "replace").lstrip().split("\n", 1)[0]
    return "score" in [w.strip('"').lower() for w in re.split(r"[,\s]+", head)]


def _sample_files() -> dict:
    read = lambda name: {"name": name, "data": (SAMPLE_DIR / name).read_bytes()}  # noqa: E731
    return {"qrels": read(SAMPLE_QRELS), "runs": [read(name) for name in SAMPLE_RUNS]}


def input_panel():
    """Upload widgets + sample button; returns (qrels Upload, {run name: Upload}) or None."""
    lang = state.language()
    parse_pool.warm()  # a worker ready before the first file comes
    gen = state.upload_generation()
    left, right = st.container(key=f"yd_uploads_{lang}").columns([1, 2])  # see ui/fit.css
    qkey, rkey = f"yd_upload_qrels_{gen}", f"yd_upload_runs_{gen}"
    left.file_uploader(
        t("Judgments (qrels)", lang), key=qkey,
        help=t("TREC qrels `qid 0 docid grade` (whitespace separated), or a CSV with a header "
               "`qid,docid,relevance`. A CSV `qid,docid,relevance,score` alone also serves as "
               "a run.", lang))
    right.file_uploader(
        t("Runs (up to {n})", lang, n=MAX_UPLOAD_RUNS), key=rkey, accept_multiple_files=True,
        help=t("Up to {n} runs, each a TREC run `qid Q0 docid rank score tag` or a CSV with a "
               "header `qid,docid,score`; each is named by its file name. Documents are ranked "
               "by score (the rank column is ignored, as in trec_eval). Choose gain and cutoff "
               "weighs them all; the tables, charts and the comparison show the first {shown}.",
               lang, n=MAX_UPLOAD_RUNS, shown=MAX_RUNS))
    qfiles, qlost = uploads.widget_files(qkey)  # not the widgets' return values: see there
    rfiles, rlost = uploads.widget_files(rkey)
    lost = state.lost_uploads(qlost + rlost)  # before uploaded() forgets the files it read
    widgets = state.uploaded(qfiles + rfiles)
    if widgets:
        qrels = widgets[0] if qfiles else None
        run_files = widgets[1:] if qfiles else widgets
    else:
        injected = state.injected_files()
        qrels = (Upload.of(injected["qrels"]["name"], injected["qrels"]["data"])
                 if injected.get("qrels") else None)
        run_files = [Upload.of(f["name"], f["data"]) for f in injected.get("runs") or []]
    b1, b2, note = st.columns([1.2, 0.6, 4], vertical_alignment="center")
    b1.button(t("Load the sample", lang), key="yd_sample", on_click=lambda: state.on_load_sample(
        _sample_files()), type="primary", icon=":material/dataset:", width="stretch")
    b2.button(t("Clear", lang), key="yd_clear", on_click=state.on_clear_files,
              disabled=qrels is None and not run_files, width="stretch")
    note.caption(t("The sample: 50 queries graded 0–3, nine runs. Your own files: TREC or CSV, "
                   "up to {mb} MB each, up to {n} runs; uploaded files replace the sample.",
                   lang, mb=st.get_option("server.maxUploadSize"), n=MAX_UPLOAD_RUNS))
    if lost:
        uploads.lost_notice(lost)
    if qrels is None:
        st.info(t("Upload judgments and a run, or load the sample, to see NDCG per query.",
                  lang), icon=":material/upload_file:")
        return None
    run_files = uploads.runs_kept(run_files)  # up to 30, within the memory budget
    runs = dict(zip(run_analysis.run_names(up.name for up in run_files), run_files))
    if not runs and _has_scores(qrels):
        runs = {qrels.name: qrels}
    ok = True
    what, err = check("qrels", qrels)
    if err:
        st.error(t("**Judgments** could not be read. {message}", lang,
                   message=escape_markdown(err)), icon=":material/error:")
        ok = False
    else:
        st.caption(t("**Judgments**: {name} — {what}", lang, name=escape_markdown(qrels.name),
                     what=what))
    lines = []
    for name, up in list(runs.items()):
        what, err = check("run", up)
        if err:
            st.error(t("**Run {name}** could not be read. {message}", lang,
                       name=escape_markdown(name), message=escape_markdown(err)),
                     icon=":material/error:")
            runs.pop(name)
        else:
            lines.append(f"**{escape_markdown(name)}** — {what}")
    if lines:
        st.caption(t("**Runs**: {runs}", lang, runs=t("; ", lang).join(lines)))
    if not ok or not runs:
        if ok:
            st.info(t("Now upload a run (or a CSV `qid,docid,relevance,score` as judgments).",
                      lang))
        return None
    return qrels, runs


def _tab_label(name: str, lang: str) -> str:
    return {"Per query": t("Per query", lang), "Wins and losses": t("Wins and losses", lang),
            "Charts": t("Charts", lang), "What changed?": t("What changed?", lang),
            "Choose gain and cutoff": t("Choose gain and cutoff", lang)}[name]


def result_tabs(names: list) -> dict:
    """{English name: tab} of the result tabs, drawn in the page's language. The widget's
    state holds the label drawn: after a language switch the open tab keeps open under its
    new label."""
    lang = state.language()
    every = ("Per query", "Wins and losses", "Charts", "What changed?",
             "Choose gain and cutoff")
    was = {_tab_label(n, other): n for other in LANGUAGES for n in every}.get(
        st.session_state.get(state.YD_TAB))
    if was in names:
        st.session_state[state.YD_TAB] = _tab_label(was, lang)
    drawn = st.tabs([_tab_label(n, lang) for n in names], key=state.YD_TAB, on_change="rerun")
    return dict(zip(names, drawn))


# ------------------------------------------------------------------ settings

def settings_panel() -> Settings:
    """Preset, cutoffs, every option of :data:`ndcg_core.OPTIONS` the evaluation uses, and
    the judged-only switch."""
    lang = state.language()
    state.data_settings_init(CONVENTIONS, OPTIONS["missing"].default)
    with st.container(border=True):
        top = st.columns([1, 2, 1.2], vertical_alignment="bottom")
        top[0].selectbox(t("Preset", lang), list(CONVENTIONS), key=state.YD_PRESET,
                         on_change=state.on_preset, args=(CONVENTIONS,),
                         help=t("Sets every option below the way that library computes NDCG; "
                                "change any option afterwards.", lang))
        top[1].multiselect(t("Cutoffs k", lang), CUTOFF_CHOICES, key=state.YD_KS,
                           help=t("NDCG@k looks at the top k documents of each query.", lang))
        top[2].toggle(O.label("judged_only", lang=lang), key=state.YD_JUDGED_ONLY,
                      help=t("Condensed lists (Sakai 2007; trec_eval -J; pytrec_eval "
                             "judged_docs_only_flag=True): unjudged documents are removed from "
                             "each run before it is ranked, so the judged ones move up. Off: "
                             "an unjudged document counts as grade 0, as trec_eval does.",
                             lang))
        names = SETTING_NAMES
        for row in (names[:4], names[4:]):  # two rows of four: each box keeps its label
            for col, name in zip(st.columns(4), row):
                col.selectbox(O.label(name, lang=lang), list(OPTIONS[name].choices),
                              key=state.YD_OPTION.format(name),
                              format_func=O.namer(name, lang=lang),
                              help=O.help_text(name, lang=lang))
        ks, preset_name, options, judged_only = state.data_settings()
        preset, chosen = CONVENTIONS[preset_name], dict(options)
        changes = O.changes(preset, chosen, names, lang=lang)
        said = [t("As **{preset}** computes it, except {changes}.", lang, preset=preset_name,
                  changes=changes) if changes else
                t("As **{preset}** computes it.", lang, preset=preset_name),
                t("Judged queries absent from a run: {rule}", lang,
                  rule=O.choice("missing", chosen["missing"], lang=lang))]
        if judged_only:
            said.append(t("Judged documents only: unjudged ones are removed before ranking.",
                          lang))
        st.caption(sentences(said, lang=lang))
    with st.expander(t("What each preset sets", lang)):
        presets = O.value_names(conventions_table(), lang=lang)
        st.dataframe(presets, width="stretch", column_config={
            "_index": t("preset", lang), **{c: O.label(c, lang=lang) for c in presets.columns}})
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
                tables[system] = run_analysis.evaluate(q, r, k=ks, convention=preset, details=True,
                                            judged_only=judged_only, **dict(options))
            except ValueError as exc:
                errors[system] = str(exc)
        return tables, errors
    return _cached(("evaluate", _upload_key(qrels), runs_key(runs), ks, preset, options,
                    judged_only), compute, t("Evaluating …", state.language()))


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
                out[system] = run_analysis.unjudged_summary(q, r, ks, convention=settings.preset,
                                                 **settings.opts)
            except ValueError:
                continue  # the run's own evaluation already said why
        return out
    return _cached(("unjudged", _upload_key(qrels), runs_key(runs), ks, settings.preset,
                    settings.options), compute,
                   t("Counting judged documents …", state.language()))


def comparison(per_query: pd.DataFrame, key: tuple, **options) -> pd.DataFrame:
    """:func:`ndcg_core.compare` of the per-query scores (cached: resampling tests cost)."""
    return _cached(("compare", key, tuple(options.items())),
                   lambda: compare(per_query, **options),
                   t("Testing the differences …", state.language()))


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
                    means = run_analysis.evaluate(
                        q, r, k=range(1, kmax + 1), convention=settings.preset,
                        judged_only=settings.judged_only, **dict(others, gain=gain)).mean()
                except ValueError:
                    continue
                rows += [(system, gain, k, m) for k, m in zip(range(1, kmax + 1), means)]
        return pd.DataFrame(rows, columns=["system", "gain", "k", "mean NDCG@k"])
    return _cached(("curves", _upload_key(qrels), runs_key(runs), kmax, settings.preset,
                    others, settings.judged_only), compute,
                   t("Computing NDCG@1 … NDCG@k …", state.language()))


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
                    out[preset, system] = run_analysis.evaluate(q, r, k=ks, convention=preset,
                                                     missing=missing, judged_only=judged_only)
                except ValueError as exc:
                    errors[preset, system] = str(exc)
        return out, errors
    return _cached(("presets", _upload_key(qrels), runs_key(runs), ks, missing, judged_only),
                   compute, t("Evaluating under every preset …", state.language()))


def facts(qrels: Upload, run: Upload) -> pd.DataFrame:
    """:func:`lab.runs.query_facts` of one run, cached for the session."""
    return _cached(("facts", _upload_key(qrels), _upload_key(run)),
                   lambda: query_facts(load("qrels", qrels)[0], load("run", run)[0]))


def frames(qrels: Upload, run: Upload):
    """The parsed (qrels, run) frames."""
    return load("qrels", qrels)[0], load("run", run)[0]


# ------------------------------------------------------------------ rendering helpers

def compare_panel(per_query: pd.DataFrame, k: int, data_key: tuple):
    """Baseline, test, correction and alpha; compare()'s table with its marks; exports."""
    lang = state.language()
    systems = list(per_query.columns)
    state.compare_init(systems, {n: o.default for n, o in COMPARE_OPTIONS.items()})
    test, corr = COMPARE_OPTIONS["test"], COMPARE_OPTIONS["correction"]
    c = st.columns([2, 1.3, 1.3, 0.8])
    c[0].selectbox(t("Baseline", lang), systems, key=state.YD_BASELINE,
                   help=t("The run every other run is compared with (the first by default).",
                          lang))
    c[1].selectbox(O.label("test", lang=lang), list(test.choices), key=state.YD_TEST,
                   format_func=O.namer("test", lang=lang),
                   help=O.help_text("test", lang=lang))
    words = {state.NO_CORRECTION if v is None else v: v for v in corr.choices}
    c[2].selectbox(O.label("correction", lang=lang), list(words), key=state.YD_CORRECTION,
                   format_func=lambda w: O.value_name("correction", words[w], lang=lang),
                   help=O.help_text("correction", lang=lang))
    c[3].number_input("α", min_value=0.001, max_value=0.5, step=0.01, format="%.3f",
                      key=state.YD_ALPHA, help=t("A run is marked † when its adjusted p-value "
                                                 "is below α.", lang))
    options = state.compare_settings()
    try:
        table = comparison(per_query, data_key + (k,), **options)
    except ValueError as exc:
        st.warning(t("No comparison at NDCG@{k}: {message}", lang, k=k,
                     message=escape_markdown(explain(exc, lang))), icon=":material/warning:")
        return None
    counts = wins_losses(per_query, baseline=options["baseline"])
    view = run_analysis.comparison_view(table, counts, k, lang=lang)
    helps = {"Δ": t("Mean of run − baseline over the queries every run was evaluated on.",
                    lang),
             "d_z": t("Effect size: mean difference / its standard deviation (Cohen's d_z).",
                      lang),
             "p": t("Two-sided p-value; 0.0000 means below 0.00005 (the exports write "
                    "< 0.0001).", lang),
             "p (adj.)": t("The p-value after the correction; a run is marked † when it is "
                           "below α.", lang),
             "CI low": t("{level}% confidence interval of Δ.", lang,
                         level=f"{100 * table.attrs['confidence']:g}")}
    helps["CI high"] = helps["CI low"]
    config = {"run": st.column_config.TextColumn(run_analysis.header("run", lang=lang),
                                                 pinned=True),
              "sig.": st.column_config.TextColumn(
                  run_analysis.header("sig.", lang=lang),
                  help=t("{mark}: adjusted p < α, the difference from the baseline is "
                         "significant. The baseline's row has no test.", lang,
                         mark=SIGNIFICANT))}
    config |= {c: run_analysis.header(c, lang=lang) for c in ("wins", "ties", "losses")}
    config |= {c: st.column_config.NumberColumn(run_analysis.header(c, lang=lang),
                                                format=number_format(DATA_DECIMALS),
                                                help=helps.get(c))
               for c in view.columns if pd.api.types.is_float_dtype(view[c])}
    st.dataframe(view, hide_index=True, width="stretch", key="yd_compare", column_config=config,
                 placeholder=MISSING)  # the baseline is not tested: no None in its row
    summary.scroll_hint(view)
    st.caption(run_analysis.footnote(table, k, lang=lang))
    exports(table, k)
    return table, counts


def exports(table: pd.DataFrame, k: int):
    files = run_analysis.export_files(table, k)
    for col, (label, (name, mime, text)) in zip(st.columns(len(files)), files.items()):
        col.download_button(label, text, file_name=name, mime=mime,
                            key=f"yd_export_{label.lower()}", icon=":material/download:",
                            on_click="ignore", width="stretch")


def decimals(df: pd.DataFrame, like: str | None = None) -> dict:
    """column_config showing with 4 decimals the float columns (or those named ``like``),
    every header in the page's language (:func:`lab.runs.header`; the frame keeps its names)."""
    lang = state.language()
    return {c: st.column_config.NumberColumn(run_analysis.header(c, lang=lang),
                                             format=number_format(DATA_DECIMALS))
            if (like in c if like else pd.api.types.is_float_dtype(df[c]))
            else run_analysis.header(c, lang=lang) for c in df.columns}
