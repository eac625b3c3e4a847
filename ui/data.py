"""App-side helpers of the "Evaluate your runs" page: inputs, cached evaluation, charts, stats.

Every NDCG figure comes from :func:`ndcg_core.evaluate`; this module only reads files, caches,
averages, compares and draws. Uploaded text is data: it is shown escaped (Markdown) or inside
tables, never as HTML.

Uploads reach the page through :func:`input_panel`. Besides the three upload widgets, the page
reads ``st.session_state["yd_files"]`` (:data:`FILES_KEY`): a dict ``{"qrels": {"name": ...,
"data": bytes}, "run_a": {...}, "run_b": {...}}``. The "Load the sample" button fills it, and
tests may too. Files in the upload widgets, when there are any, replace it.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

from ndcg_core import CONVENTIONS, OPTIONS, conventions_table, evaluate, read_qrels, read_run
from ui.state import ranking_query_params

# Arrow's default allocator (mimalloc) kept ~370 MB of a parsed 150 MB run after every table
# was freed; the system allocator hands most of it back (read_run + evaluate of a 150 MB run
# in a plain Python process: 415 -> 135 MB still held after del, peak 636 -> 393 MB).
pa.set_memory_pool(pa.system_memory_pool())

SAMPLES = Path(__file__).resolve().parent.parent / "assets" / "samples"
SAMPLE_FILES = {"qrels": "qrels.txt", "run_a": "system_a.run", "run_b": "system_b.run"}
FILES_KEY = "yd_files"
TAB_KEY = "yd_tab"  # the open tab's name; tests set it to open a tab
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
DEFAULT_CUTOFFS = [5, 10, 20]
SETTING_NAMES = ("gain", "ties", "zero_idcg", "negative", "ideal_pool", "missing")
CURVE_MAX = 20
N_BOOTSTRAP, N_PERMUTATIONS, SEED = 2000, 10000, 0
PLAYGROUND_DEPTH = 50
COLORS = {"System A": "#1f77b4", "System B": "#ff7f0e"}


@dataclass(frozen=True)
class Upload:
    """One file's name and bytes; caches key it by its name and a hash of the bytes."""

    name: str
    data: bytes = field(repr=False, compare=False)
    digest: str = ""

    @classmethod
    def of(cls, name, data) -> "Upload":
        data = bytes(data)
        return cls(str(name), data, hashlib.blake2b(data, digest_size=16).hexdigest())

    def open(self):
        f = io.BytesIO(self.data)
        f.name = self.name
        return f


_HASH = {Upload: lambda u: f"{u.name}\0{u.digest}"}


@dataclass(frozen=True)
class Settings:
    ks: tuple
    preset: str
    options: tuple  # (name, value) pairs of SETTING_NAMES

    @property
    def opts(self) -> dict:
        return dict(self.options)


def md(text) -> str:
    """Escape Markdown (and Streamlit's :color[] / $latex$ directives) in data shown as text."""
    return re.sub(r"([\\`*_{}\[\]()<>#+\-.!|~$:&])", r"\\\1", str(text))


def listing(ids, limit=20) -> str:
    ids = list(ids)
    shown = ", ".join(md(i) for i in ids[:limit])
    return shown + (f" … and {len(ids) - limit} more" if len(ids) > limit else "")


def fmt(x) -> str:
    return "—" if x is None or not np.isfinite(x) else f"{x:.4f}"


# ------------------------------------------------------------------ reading files

# Upload-derived caches are per session (scope="session"): Streamlit drops them when the
# session's websocket closes, so a closed tab lets go of its parsed files at once; a global
# cache kept every upload's tables for good (a 150 MB run: +754 MB after the tab closed).
# The parsed table is a cache_resource: handed out as is, where cache_data pickles it on
# the way in and unpickles a copy for every caller (the peak was 12x the file size).
# Callers only read it.
@st.cache_resource(show_spinner="Reading the file …", hash_funcs=_HASH, max_entries=4,
                   scope="session")
def load(kind: str, up: Upload):
    """The parsed table, or the reader's error message (cached too, so a bad file is read once)."""
    try:
        return (read_qrels if kind == "qrels" else read_run)(up.open()), None
    except ValueError as exc:
        return None, str(exc)


@st.cache_data(show_spinner=False, hash_funcs=_HASH, max_entries=8, scope="session")
def check(kind: str, up: Upload):
    """A one-line summary of a file, or its error: what the inputs panel shows every run."""
    df, err = load(kind, up)
    if err:
        return None, err
    if df.empty:
        return None, f"{up.name} has a header but no data lines."
    what = f"{df['qid'].nunique():,} queries, {len(df):,} lines"
    if kind == "qrels":
        what += f", grades {df['relevance'].min():g} to {df['relevance'].max():g}"
    return what, None


def _has_scores(up: Upload) -> bool:
    head = up.data[:4096].decode("utf-8-sig", "replace").lstrip().split("\n", 1)[0]
    return "score" in [t.strip('"').lower() for t in re.split(r"[,\s]+", head)]


def _load_sample():
    st.session_state[FILES_KEY] = {
        slot: {"name": name, "data": (SAMPLES / name).read_bytes()}
        for slot, name in SAMPLE_FILES.items()}
    _new_uploaders()


def _new_uploaders():
    """Fresh (empty) upload widgets: new keys, and the old files' bytes let go."""
    st.session_state.yd_gen = st.session_state.get("yd_gen", 0) + 1
    st.session_state.pop("yd_memo", None)


def _clear():
    st.session_state[FILES_KEY] = {}
    _new_uploaders()


def _from_widget(slot, f) -> Upload:
    memo = st.session_state.setdefault("yd_memo", {})
    if memo.get(slot, (None,))[0] != f.file_id:
        memo[slot] = (f.file_id, Upload.of(f.name, f.getvalue()))
    return memo[slot][1]


def input_panel():
    """Upload widgets + sample button; returns (qrels Upload, {system: run Upload}) or None."""
    gen = st.session_state.get("yd_gen", 0)
    widgets = {}
    for col, (slot, label) in zip(st.columns(3), SLOTS.items()):
        f = col.file_uploader(label, key=f"yd_upload_{slot}_{gen}", help=SLOT_HELP[slot])
        if f is not None:
            widgets[slot] = _from_widget(slot, f)
    injected = {slot: Upload.of(v["name"], v["data"])
                for slot, v in (st.session_state.get(FILES_KEY) or {}).items() if v}
    files = widgets or injected
    b1, b2, note = st.columns([1.2, 0.6, 4], vertical_alignment="center")
    b1.button("Load the sample", key="yd_sample", on_click=_load_sample, type="primary",
              icon=":material/dataset:", width="stretch")
    b2.button("Clear", key="yd_clear", on_click=_clear, disabled=not files, width="stretch")
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
            st.error(f"**{label}** could not be read. {md(err)}", icon=":material/error:")
            ok = ok and kind != "qrels"
            runs.pop(label, None)
        else:
            st.caption(f"**{label}**: {md(up.name)} — {what}")
    if not ok or not runs:
        if ok:
            st.info("Now upload a run (or a CSV `qid,docid,relevance,score` as judgments).")
        return None
    return qrels, runs


# ------------------------------------------------------------------ settings

def _apply_preset():
    preset = CONVENTIONS[st.session_state.yd_preset]
    for name in SETTING_NAMES:
        if name in preset:
            st.session_state[f"yd_{name}"] = preset[name]


def settings_panel() -> Settings:
    """Preset, cutoffs and every option of :data:`ndcg_core.OPTIONS` the evaluation uses."""
    ss = st.session_state
    if "yd_preset" not in ss:
        ss.yd_preset = "trec_eval"
        ss.yd_missing = OPTIONS["missing"].default
        _apply_preset()
    ss.setdefault("yd_ks", list(DEFAULT_CUTOFFS))
    with st.container(border=True):
        top = st.columns([1, 2])
        top[0].selectbox("Preset", list(CONVENTIONS), key="yd_preset", on_change=_apply_preset,
                         help="Sets every option below the way that library computes NDCG; "
                              "change any option afterwards.")
        top[1].multiselect("Cutoffs k", CUTOFF_CHOICES, key="yd_ks",
                           help="NDCG@k looks at the top k documents of each query.")
        cols = st.columns(len(SETTING_NAMES))
        for col, name in zip(cols, SETTING_NAMES):
            opt = OPTIONS[name]
            col.selectbox(opt.label, list(opt.choices), key=f"yd_{name}", help=opt.help())
        preset = CONVENTIONS[ss.yd_preset]
        changed = [f"{OPTIONS[n].label.lower()} → {ss[f'yd_{n}']}" for n in SETTING_NAMES
                   if n in preset and ss[f"yd_{n}"] != preset[n]]
        st.caption(f"As **{ss.yd_preset}** computes it" + (
            f", except {'; '.join(changed)}." if changed else ".") +
            " Judged queries absent from a run: " + OPTIONS["missing"].choices[ss.yd_missing])
    with st.expander("What each preset sets"):
        st.dataframe(conventions_table(), width="stretch")
    return Settings(tuple(sorted(int(k) for k in ss.yd_ks)), ss.yd_preset,
                    tuple((n, ss[f"yd_{n}"]) for n in SETTING_NAMES))


# ------------------------------------------------------------------ evaluation (cached)

@st.cache_data(show_spinner="Evaluating …", hash_funcs=_HASH, max_entries=16,
               scope="session")
def evaluate_runs(qrels: Upload, runs: tuple, ks: tuple, preset: str, options: tuple):
    """Per-query NDCG (with details) of each run: ({system: DataFrame}, {system: error})."""
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


def by_message(errors: dict) -> dict:
    """{message: [systems]}: a judgments problem is told once, not once per run."""
    out = {}
    for system, err in errors.items():
        out.setdefault(err, []).append(system)
    return out


def curves(qrels: Upload, runs: tuple, kmax: int, settings: Settings) -> pd.DataFrame:
    """Mean NDCG@k for k = 1..kmax, per system and per gain (long format)."""
    others = tuple((n, v) for n, v in settings.options if n != "gain")  # both gains drawn
    return _curves(qrels, runs, kmax, settings.preset, others)


@st.cache_data(show_spinner="Computing NDCG@1 … NDCG@k …", hash_funcs=_HASH, max_entries=8,
               scope="session")
def _curves(qrels: Upload, runs: tuple, kmax: int, preset: str, options: tuple):
    q, _ = load("qrels", qrels)
    rows = []
    for system, up in runs:
        r, _ = load("run", up)
        for gain in OPTIONS["gain"].choices:
            opts = dict(options, gain=gain)
            try:
                means = evaluate(q, r, k=range(1, kmax + 1), convention=preset, **opts).mean()
            except ValueError:
                continue
            rows += [(system, gain, k, m) for k, m in zip(range(1, kmax + 1), means)]
    return pd.DataFrame(rows, columns=["system", "gain", "k", "mean NDCG@k"])


@st.cache_data(show_spinner="Evaluating under every preset …", hash_funcs=_HASH,
               max_entries=8, scope="session")
def under_presets(qrels: Upload, runs: tuple, ks: tuple, missing: str):
    """Per-query NDCG of each run under each preset: {(preset, system): DataFrame}, errors."""
    q, _ = load("qrels", qrels)
    out, errors = {}, {}
    for system, up in runs:
        r, _ = load("run", up)
        for preset in CONVENTIONS:
            try:
                out[preset, system] = evaluate(q, r, k=ks, convention=preset, missing=missing)
            except ValueError as exc:
                errors[preset, system] = str(exc)
    return out, errors


def _codes(a: pd.Series, b: pd.Series):
    """One integer code per distinct id across both columns (Arrow strings stay Arrow)."""
    codes, uniques = pd.concat([a, b], ignore_index=True).factorize()
    return codes[: len(a)], codes[len(a):], uniques


@st.cache_data(show_spinner="Looking at ties and judgments …", hash_funcs=_HASH,
               max_entries=4, scope="session")
def query_facts(qrels: Upload, run: Upload) -> pd.DataFrame:
    """Per judged query, the facts that make conventions disagree (vectorised, no loop).

    ``first_tie``: the best rank of a group of tied scores holding documents of different
    grades (inf if none); ``min_grade``/``max_grade``; ``unretrieved``: relevant judged
    documents the run does not retrieve.
    """
    q, _ = load("qrels", qrels)
    r, _ = load("run", run)
    jq, rq, qids = _codes(q["qid"], r["qid"])
    jd, rd, docids = _codes(q["docid"], r["docid"])
    nq, nd = len(qids), len(docids)
    rel = q["relevance"].to_numpy(float)
    jkey, rkey = jq.astype(np.int64) * nd + jd, rq.astype(np.int64) * nd + rd
    jorder = np.argsort(jkey, kind="stable")
    pos = np.minimum(np.searchsorted(jkey[jorder], rkey), len(jkey) - 1)
    hit = jkey[jorder][pos] == rkey
    grade = np.where(hit, rel[jorder[pos]], 0.0)  # unjudged count as 0
    # rank within each query by score descending; groups of equal scores
    score = r["score"].to_numpy(float)
    levels, inv = np.unique(-score, return_inverse=True)  # one packed key: np.lexsort is slow
    order = np.argsort(rq.astype(np.int64) * len(levels) + inv, kind="stable")
    qs, ss, gs = rq[order], score[order], grade[order]
    newq = np.r_[True, qs[1:] != qs[:-1]]
    rank = np.arange(qs.size) - np.flatnonzero(newq)[np.cumsum(newq) - 1] + 1
    starts = np.flatnonzero(newq | np.r_[True, ss[1:] != ss[:-1]])
    first_tie = np.full(nq, np.inf)
    if starts.size:
        mixed = np.maximum.reduceat(gs, starts) != np.minimum.reduceat(gs, starts)
        np.minimum.at(first_tie, qs[starts][mixed], rank[starts][mixed])
    max_g, min_g = np.full(nq, -np.inf), np.full(nq, np.inf)
    np.maximum.at(max_g, jq, rel)
    np.minimum.at(min_g, jq, rel)
    found = np.isin(jkey, rkey)
    unretrieved = np.bincount(jq, weights=(rel > 0) & ~found, minlength=nq)
    judged = np.unique(jq)
    return pd.DataFrame({"first_tie": first_tie[judged], "min_grade": min_g[judged],
                         "max_grade": max_g[judged],
                         "unretrieved": unretrieved[judged].astype(int)},
                        index=pd.Index(np.asarray(qids[judged], object), name="qid"))


def reasons(facts: pd.DataFrame, k: int) -> pd.Series:
    """Per query, the reasons as text: what in the data makes the presets disagree at k."""
    flags = {
        f"tied scores in the top {k} (documents of different grades)": facts["first_tie"] <= k,
        "all judgments 0 (ideal DCG = 0)": facts["max_grade"] <= 0,
        "relevant documents not retrieved": facts["unretrieved"] > 0,
        "negative grades": facts["min_grade"] < 0,
        "grades above 1 (the gain matters)": facts["max_grade"] > 1,
    }
    text = pd.Series("", index=facts.index)
    for label, flag in flags.items():
        text = text.where(~flag, text + label + "; ")
    return text.str.rstrip("; ")


# ------------------------------------------------------------------ statistics

@st.cache_data(show_spinner=False, max_entries=32)
def paired_stats(a: np.ndarray, b: np.ndarray, n_boot=N_BOOTSTRAP, n_perm=N_PERMUTATIONS,
                 seed=SEED) -> dict:
    """B − A over paired queries: mean, seeded bootstrap 95% CI, two-sided randomization p."""
    d = np.asarray(b, float) - np.asarray(a, float)
    n = d.size
    rng = np.random.default_rng(seed)
    chunk = max(1, 2_000_000 // max(n, 1))  # bounds memory for large query sets
    boot = np.concatenate([d[rng.integers(0, n, size=(min(chunk, n_boot - i), n))].mean(1)
                           for i in range(0, n_boot, chunk)])
    # randomization (sign-flip) test: under H0 each difference is equally likely ±.
    # A flipped mean is (2·Σ kept − Σ all) / n; random bits come 8 to a byte.
    flips = []
    for i in range(0, n_perm, chunk):
        m = min(chunk, n_perm - i)
        bits = np.unpackbits(rng.integers(0, 256, size=(m, (n + 7) // 8), dtype=np.uint8),
                             axis=1, count=n)
        flips.append((2.0 * (bits @ d) - d.sum()) / n)
    flips = np.concatenate(flips)
    obs = d.mean()
    p = (np.sum(np.abs(flips) >= abs(obs) - 1e-12) + 1) / (n_perm + 1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return dict(n=n, mean=obs, lo=lo, hi=hi, p=p, wins=int((d > 1e-12).sum()),
                losses=int((d < -1e-12).sum()), ties=int((np.abs(d) <= 1e-12).sum()))


def per_query_table(tables: dict, ks: tuple, k: int) -> pd.DataFrame:
    """One row per query: NDCG@each k per system, DCG/IDCG at k, and B − A with two runs."""
    parts = []
    for system, t in tables.items():
        cols = {f"ndcg@{c}": f"{system} NDCG@{c}" for c in ks}
        cols.update({f"dcg@{k}": f"{system} DCG@{k}", f"idcg@{k}": f"{system} IDCG@{k}",
                     "n_retrieved": f"{system} retrieved"})
        parts.append(t[list(cols)].rename(columns=cols))
    n_rel = pd.concat([t["n_relevant"] for t in tables.values()], axis=1).max(axis=1)
    out = pd.concat([n_rel.rename("relevant judged")] + parts, axis=1)
    if len(tables) == 2:
        a, b = list(tables)
        out[f"B − A NDCG@{k}"] = out[f"{b} NDCG@{k}"] - out[f"{a} NDCG@{k}"]
    return out.reset_index()


def paired(tables: dict, k: int) -> pd.DataFrame:
    a, b = list(tables)
    return pd.concat({s: tables[s][f"ndcg@{k}"] for s in (a, b)}, axis=1, join="inner").dropna()


def most_changed(pairs: pd.DataFrame, k: int, n=15) -> pd.DataFrame:
    diff = pairs.iloc[:, 1] - pairs.iloc[:, 0]
    order = diff.abs().sort_values(ascending=False, kind="stable").index[:n]
    return pairs.assign(**{f"B − A NDCG@{k}": diff}).loc[order].rename_axis("qid").reset_index()


# ------------------------------------------------------------------ charts

def _hover(ids):
    # plotly reads a few HTML tags in hover text: show ids as data
    return [str(i).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for i in ids]


def _layout(fig, **kw):
    # nested dicts, not plotly's "magic underscore" keys: those cost ~20 ms per figure
    fig.update_layout(margin=dict(l=10, r=10, t=40, b=10), height=360,
                      legend=dict(orientation="h", y=-0.2), **kw)
    return fig


def histogram(tables: dict, k: int) -> go.Figure:
    fig = go.Figure()
    for system, t in tables.items():
        fig.add_histogram(x=t[f"ndcg@{k}"], name=system, opacity=0.65, nbinsx=20,
                          marker=dict(color=COLORS.get(system)))
    return _layout(fig, barmode="overlay", title=dict(text=f"Per-query NDCG@{k}"),
                   xaxis=dict(title=dict(text=f"NDCG@{k}")),
                   yaxis=dict(title=dict(text="queries")))


def curve_chart(df: pd.DataFrame) -> go.Figure:
    fig = go.Figure()
    for (system, gain), g in df.groupby(["system", "gain"], sort=False):
        fig.add_scatter(x=g["k"], y=g["mean NDCG@k"], mode="lines+markers",
                        name=f"{system}, {gain} gain", marker=dict(color=COLORS.get(system)),
                        line=dict(color=COLORS.get(system),
                                  dash="solid" if gain == "linear" else "dash"))
    return _layout(fig, title=dict(text="Mean NDCG@k as k grows"),
                   xaxis=dict(title=dict(text="k")),
                   yaxis=dict(title=dict(text="mean NDCG@k")))


def scatter(pairs: pd.DataFrame, k: int) -> go.Figure:
    a, b = pairs.columns
    lo = float(min(0.0, pairs.min().min()))
    hi = float(max(1.0, pairs.max().max()))
    fig = go.Figure()
    fig.add_scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="equal",
                    line=dict(color="grey", dash="dot"), hoverinfo="skip")
    fig.add_scatter(x=pairs[a], y=pairs[b], mode="markers", name="queries",
                    text=_hover(pairs.index), hovertemplate="%{text}<br>A %{x:.4f}<br>"
                    "B %{y:.4f}<extra></extra>",
                    marker=dict(size=8, opacity=0.7, color=COLORS["System B"]))
    return _layout(fig, title=dict(text=f"NDCG@{k} per query: above the line B wins"),
                   xaxis=dict(title=dict(text=f"{a} NDCG@{k}")),
                   yaxis=dict(title=dict(text=f"{b} NDCG@{k}")))


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
            col.metric(f"{system} · mean NDCG@{k}", fmt(v.mean()), delta=delta, border=True,
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


def preset_means(results: dict, ks: tuple) -> pd.DataFrame:
    """One row per preset, one column per system and cutoff: the means side by side."""
    rows = {}
    for (preset, system), t in results.items():
        for c in ks:
            rows.setdefault(preset, {})[f"{system} NDCG@{c}"] = t[f"ndcg@{c}"].mean()
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("preset").reset_index()


def decimals(df: pd.DataFrame, like: str | None = None) -> dict:
    """column_config showing with 4 decimals the float columns (or those named ``like``)."""
    return {c: st.column_config.NumberColumn(format="%.4f") for c in df.columns
            if (like in c if like else pd.api.types.is_float_dtype(df[c]))}


def preset_spread(results: dict, why: dict, k: int, n=15) -> pd.DataFrame:
    """Queries whose NDCG@k differs most between presets, with the data's reasons."""
    rows = []
    for system in dict.fromkeys(s for _, s in results):
        wide = pd.concat({p: t[f"ndcg@{k}"] for (p, s), t in results.items() if s == system},
                         axis=1)
        spread = wide.max(axis=1) - wide.min(axis=1)
        wide.insert(0, "spread", spread)
        wide.insert(0, "system", system)
        wide["why"] = why[system].reindex(wide.index).fillna("")
        rows.append(wide)
    df = pd.concat(rows).rename_axis("qid").reset_index()
    return df.sort_values("spread", ascending=False, kind="stable").head(n)


def playground_link(qrels: Upload, run: Upload, qid: str, settings: Settings,
                    k: int) -> dict | None:
    """Query params that open the playground on the query's top-50 (ties ordered as chosen)."""
    q, _ = load("qrels", qrels)
    r, _ = load("run", run)
    opts = settings.opts
    ties = opts["ties"] if opts["ties"] in ("docid", "optimistic", "pessimistic") else "input"
    judged = q[q["qid"] == qid].set_index("docid")["relevance"]
    docs = r[r["qid"] == qid].assign(pos=lambda d: np.arange(len(d)))
    docs["grade"] = judged.reindex(docs["docid"]).fillna(0).to_numpy()
    second = {"docid": ("docid", False), "optimistic": ("grade", False),
              "pessimistic": ("grade", True), "input": ("pos", True)}[ties]
    docs = docs.sort_values(["score", second[0]], ascending=[False, second[1]], kind="stable")
    top = docs.head(PLAYGROUND_DEPTH)
    if top.empty:
        return None
    # judged (or retrieved, by the ideal-pool option) relevant documents beyond the list
    pool_src = judged if opts["ideal_pool"] == "judged" else docs.set_index("docid")["grade"]
    pool = pool_src.drop(top["docid"], errors="ignore")
    pool = sorted((g for g in pool if g > 0), reverse=True)[:200]
    grades = [float(g) for g in top["grade"]]
    return ranking_query_params(top["docid"].tolist(), grades, k=min(k, len(grades)),
                                gain=opts["gain"], pool=pool)
