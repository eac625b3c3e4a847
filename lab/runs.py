"""Your runs, analysed: what the "Evaluate your runs" page computes besides NDCG itself.

Pure pandas/numpy on the frames ``ndcg_core.read_qrels`` / ``read_run`` / ``evaluate`` return:
run names, per-query tables, the per-query scores :func:`ndcg_core.compare` tests against a
baseline, the judged share of each ranking and the range unjudged documents leave open, the
facts that make conventions disagree, and the playground link of one query. No streamlit
import: ``ui/your_data.py`` reads the files, caches per session and draws. Every NDCG figure comes from
:func:`ndcg_core.evaluate`; the ranking a query opens in the playground is the engine's.
"""

from __future__ import annotations

import hashlib
import io
import unicodedata
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import ndcg_core as nc
from ndcg_core import to_latex, to_markdown
from ndcg_core.compare import MAX_SYSTEMS
from lab import options_text
from lab.i18n import t
from lab.grades import MAX_ITEMS
from lab.playground import ranking_query_params
from lab.run_words import header
from lab.text import DATA_DECIMALS, escape_markdown, listing, sentences

SETTING_NAMES = ("gain", "ties", "zero_idcg", "negative", "ideal_pool", "missing",
                 "score_precision", "fractional")
PLAYGROUND_DEPTH = 50
MAX_RUNS = MAX_SYSTEMS  # the page compares at most this many runs (the baseline included)


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



@dataclass(frozen=True)
class Settings:
    ks: tuple
    preset: str
    options: tuple  # (name, value) pairs of SETTING_NAMES
    judged_only: bool = False  # condensed lists: unjudged documents removed (trec_eval -J)

    @property
    def opts(self) -> dict:
        return dict(self.options)


def run_names(file_names) -> list[str]:
    """One name per run: its file name, with " (2)", " (3)" … after a repeated name (two
    folders may hold a ``run.txt`` each; the tables need one column per run).

    >>> run_names(["bm25.run", "dense.run", "bm25.run"])
    ['bm25.run', 'dense.run', 'bm25.run (2)']
    """
    out, seen = [], set()
    for name in map(str, file_names):
        unique, n = name, 1
        while unique in seen:
            n += 1
            unique = f"{name} ({n})"
        seen.add(unique)
        out.append(unique)
    return out


def by_message(errors: dict) -> dict:
    """{message: [systems]}: a judgments problem is told once, not once per run."""
    out = {}
    for system, err in errors.items():
        out.setdefault(err, []).append(system)
    return out


def query_facts(q: pd.DataFrame, r: pd.DataFrame) -> pd.DataFrame:
    """Per judged query, the facts that make conventions disagree (vectorised, no loop).

    ``first_tie``: the best rank of a group of tied scores holding documents of different
    grades (inf if none); ``min_grade``/``max_grade``; ``unretrieved``: relevant judged
    documents the run does not retrieve.
    """
    # the engine's coding: ids matched as evaluate matches them, documents never made into
    # Python strings (hashing them as objects took twice the file's size)
    jq, rq, qids = nc.id_codes(q["qid"], r["qid"])
    jd, rd, nd = nc.id_codes(q["docid"], r["docid"], ids=False)
    nq = len(qids)
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


def reasons(facts: pd.DataFrame, k: int, *, lang: str = "en") -> pd.Series:
    """Per query, the reasons as text: what in the data makes the presets disagree at k."""
    flags = {
        t("tied scores in the top {k} (documents of different grades)", lang, k=k):
            facts["first_tie"] <= k,
        t("all judgments 0 (ideal DCG = 0)", lang): facts["max_grade"] <= 0,
        t("relevant documents not retrieved", lang): facts["unretrieved"] > 0,
        t("negative grades", lang): facts["min_grade"] < 0,
        t("grades above 1 (the gain matters)", lang): facts["max_grade"] > 1,
    }
    sep = t("; ", lang)
    text = pd.Series("", index=facts.index)
    for label, flag in flags.items():
        text = text.where(~flag, text + label + sep)
    return text.str.rstrip(sep)


def per_query_table(tables: dict, ks: tuple, k: int, extras: dict | None = None
                    ) -> pd.DataFrame:
    """One row per query: per run NDCG@each k, DCG/IDCG at k, documents retrieved and, from
    ``extras[run]`` (:func:`unjudged_summary`), Judged@k and NDCG@k with unjudged documents
    graded 0 and graded the top grade. Columns are named ``"<run> <column>"``."""
    parts = []
    for system, t in tables.items():
        cols = {f"ndcg@{c}": f"{system} NDCG@{c}" for c in ks}
        cols.update({f"dcg@{k}": f"{system} DCG@{k}", f"idcg@{k}": f"{system} IDCG@{k}",
                     "n_retrieved": f"{system} retrieved"})
        parts.append(t[list(cols)].rename(columns=cols))
        if extras and system in extras:
            more = extras[system][[f"judged@{k}", f"ndcg@{k} unjudged=0",
                                   f"ndcg@{k} unjudged=top"]]
            more = more.rename(columns=lambda c: c.replace("judged@", "Judged@").replace(
                "ndcg@", "NDCG@"))
            parts.append(more.add_prefix(f"{system} ").reindex(t.index))
    n_rel = pd.concat([t["n_relevant"] for t in tables.values()], axis=1).max(axis=1)
    out = pd.concat([n_rel.rename("relevant judged")] + parts, axis=1)
    return out.rename_axis("qid").reset_index()


def per_query_scores(tables: dict, k: int) -> pd.DataFrame:
    """NDCG@k per query (rows) and run (columns): what :func:`ndcg_core.compare` tests. A
    query a run left out (its ``missing`` rule) is NaN there, so compare leaves it out of
    every comparison and says so."""
    return pd.concat({s: t[f"ndcg@{k}"] for s, t in tables.items()}, axis=1).rename_axis("qid")


def deltas(per_query: pd.DataFrame, system: str, baseline: str) -> pd.DataFrame:
    """The queries both runs were evaluated on, sorted by ``system`` − ``baseline`` (largest
    gain first): columns qid, baseline, system, delta."""
    both = per_query[[baseline, system]].dropna()
    d = both[system] - both[baseline]
    out = pd.DataFrame({"qid": both.index, "baseline": both[baseline].to_numpy(),
                        "system": both[system].to_numpy(), "delta": d.to_numpy()})
    return out.sort_values("delta", ascending=False, kind="stable").reset_index(drop=True)


def most_changed(per_query: pd.DataFrame, baseline: str, k: int, n=15) -> pd.DataFrame:
    """The ``n`` (query, run) pairs that differ most from the baseline at k, either way."""
    rows = []
    for system in per_query.columns.drop(baseline):
        d = deltas(per_query, system, baseline)
        d.insert(1, "run", system)
        rows.append(d)
    if not rows:
        return pd.DataFrame(columns=["qid", "run", f"baseline NDCG@{k}", f"run NDCG@{k}",
                                     f"Δ NDCG@{k}"])
    df = pd.concat(rows, ignore_index=True)
    df = df.loc[df["delta"].abs().sort_values(ascending=False, kind="stable").index[:n]]
    return df.rename(columns={"baseline": f"baseline NDCG@{k}", "system": f"run NDCG@{k}",
                              "delta": f"Δ NDCG@{k}"}).reset_index(drop=True)


# ------------------------------------------------------------------ unjudged documents
# Every figure here is the engine's (ndcg_core.evaluate(judged_only=...), judged_at_k,
# ndcg_bounds); this section only names columns for the page and notes emptied queries.

def _judged_mask(q: pd.DataFrame, r: pd.DataFrame) -> np.ndarray:
    """Per run row: does the qrels judge this (query, document)? One integer key per pair
    (a MultiIndex of strings took 8 s on a million rows; this, 0.5 s)."""
    jq, rq, _ = nc.id_codes(q["qid"], r["qid"], ids=False)
    jd, rd, nd = nc.id_codes(q["docid"], r["docid"], ids=False)
    nd = max(nd, 1)
    return np.isin(rq.astype(np.int64) * nd + rd, jq.astype(np.int64) * nd + jd)


def judged_run(q: pd.DataFrame, r: pd.DataFrame) -> pd.DataFrame:
    """The run without its unjudged documents: each query's condensed list."""
    return r[_judged_mask(q, r)]


def _engine_options(options: dict, allowed) -> dict:
    return {n: v for n, v in options.items() if n in allowed}


def evaluate(q: pd.DataFrame, r: pd.DataFrame, *, judged_only: bool = False, **options
             ) -> pd.DataFrame:
    """:func:`ndcg_core.evaluate`, with ``judged_only`` its condensed-list form (Sakai 2007;
    trec_eval -J; pytrec_eval ``judged_docs_only_flag=True``). The table's attrs also name
    the queries whose retrieved documents were all unjudged (``emptied_queries``), so the
    page can say why they score 0."""
    table = nc.evaluate(q, r, judged_only=judged_only, **options)
    emptied = []
    if judged_only:
        judged_ids = set(q["qid"].unique())
        run_ids = set(r["qid"].unique()) & judged_ids
        emptied = sorted(run_ids - set(judged_run(q, r)["qid"].unique()))
    table.attrs["emptied_queries"] = emptied
    return table


_RANKING_OPTIONS = ("convention", "ties", "negative", "score_precision", "fractional", "depth",
                    "missing")
_BOUND_OPTIONS = _RANKING_OPTIONS + ("gain", "discount", "base", "zero_idcg", "ideal_pool")


def judged_at_k(q: pd.DataFrame, r: pd.DataFrame, ks, **options) -> pd.DataFrame:
    """Judged@k per query (:func:`ndcg_core.judged_at_k`: the share of the top min(k,
    retrieved) documents, ranked as the convention ranks them, that have a judgment); rows:
    the judged queries the run retrieves; columns ``judged@k``."""
    out = nc.judged_at_k(q, r, k=[int(k) for k in ks],
                         **_engine_options(options, _RANKING_OPTIONS))
    return out.dropna(how="all")


def unjudged_bounds(q: pd.DataFrame, r: pd.DataFrame, ks, *, judged: bool = False,
                    **options) -> pd.DataFrame:
    """Per query, NDCG@k with every unjudged retrieved document graded 0 and graded the
    query's top grade (:func:`ndcg_core.ndcg_bounds`): the range the missing judgments leave
    open. Columns ``ndcg@k unjudged=0``, ``ndcg@k unjudged=top`` (after ``judged@k`` with
    ``judged``: the run ranked once for both)."""
    b = nc.ndcg_bounds(q, r, k=[int(k) for k in ks], judged=judged,
                       **_engine_options(options, _BOUND_OPTIONS))
    cols = {}
    for k in ks:
        if judged:
            cols[f"judged@{k}"] = b[f"judged@{k}"]
        cols[f"ndcg@{k} unjudged=0"] = b[f"ndcg@{k}_unjudged_0"]
        cols[f"ndcg@{k} unjudged=top"] = b[f"ndcg@{k}_unjudged_top"]
    return pd.DataFrame(cols).rename_axis("qid")


def unjudged_summary(q: pd.DataFrame, r: pd.DataFrame, ks, **options) -> pd.DataFrame:
    """Per query: Judged@k and the NDCG@k range, for each k (the per-query table's extras;
    one ranking of the run for both)."""
    return unjudged_bounds(q, r, ks, judged=True, **options)


def preset_means(results: dict, ks: tuple) -> pd.DataFrame:
    """One row per preset, one column per system and cutoff: the means side by side."""
    rows = {}
    for (preset, system), t in results.items():
        for c in ks:
            rows.setdefault(preset, {})[f"{system} NDCG@{c}"] = t[f"ndcg@{c}"].mean()
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("preset").reset_index()


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


def playground_link(q: pd.DataFrame, r: pd.DataFrame, qid: str, settings: Settings,
                    k: int) -> dict | None:
    """Query params that open the playground on the query's top 50 as the engine ranks it
    (:func:`ndcg_core.ranking`: the convention's tie rule and score precision; averaged
    ties keep the run's order, since a list has one item per position), grades as the
    convention reads them (unjudged as 0), and the other relevant judged documents as its
    unretrieved grades."""
    opts = settings.opts
    ties = "input" if opts["ties"] == "average" else opts["ties"]
    ranked = nc.ranking(q, r, qids=[qid], convention=settings.preset, ties=ties,
                        negative=opts["negative"], score_precision=opts.get("score_precision"),
                        fractional=opts.get("fractional"))
    if ranked.empty:
        return None
    grades = ranked["grade"].fillna(0.0)
    top = ranked.head(PLAYGROUND_DEPTH)
    # judged (or retrieved, by the ideal-pool option) relevant documents beyond the list
    if opts["ideal_pool"] == "judged":
        pool_src = q[q["qid"] == qid].set_index("docid")["relevance"]
    else:
        pool_src = pd.Series(grades.to_numpy(), index=ranked["docid"])
    rest = pool_src.drop(top["docid"], errors="ignore")
    unretrieved = sorted((float(g) for g in rest if g > 0), reverse=True)[:MAX_ITEMS]
    return ranking_query_params(top["docid"].tolist(), grades.head(PLAYGROUND_DEPTH).tolist(),
                                k=min(k, len(top)), gain=opts["gain"],
                                unretrieved=unretrieved)


# ------------------------------------------------------------------ the page's tables

PIXELS_PER_CHAR, CELL_PADDING = 8, 28  # a table's width, estimated for the scroll hint
SIGNIFICANT = "†"


def means_table(tables: dict, extras: dict, ks: tuple) -> pd.DataFrame:
    """One row per run: the queries evaluated and, per cutoff, mean NDCG@k, mean Judged@k and
    the mean NDCG@k with unjudged documents graded 0 and graded the top grade."""
    rows = []
    for system, t in tables.items():
        row = {"run": system, "queries": int(t[f"ndcg@{ks[0]}"].notna().sum())}
        more = extras.get(system)
        for k in ks:
            row[f"NDCG@{k}"] = t[f"ndcg@{k}"].mean()
            if more is not None:
                row[f"Judged@{k}"] = more[f"judged@{k}"].mean()
                row[f"NDCG@{k} unjudged=0"] = more[f"ndcg@{k} unjudged=0"].mean()
                row[f"NDCG@{k} unjudged=top"] = more[f"ndcg@{k} unjudged=top"].mean()
        rows.append(row)
    return pd.DataFrame(rows)


def _text_width(text: str) -> int:
    """Width in Latin characters: a CJK character is drawn about twice as wide."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table_width(df: pd.DataFrame, *, lang: str = "en") -> int:
    """A table's width in px as the grid draws it (header or value, whichever is wider;
    the header as drawn in ``lang``, :func:`header`).

    >>> frame = pd.DataFrame({"queries": [50]})
    >>> table_width(frame), table_width(frame, lang="zh")  # "queries" / "查询数"
    (84, 76)
    """
    width = 0
    for c in df.columns:
        # a column of NaN only (d_z when no query differs) has no text to measure
        values = df[c].dropna().astype(str).str.len()
        longest = max(_text_width(header(c, lang=lang)), int(values.max()) if len(values) else 0,
                      DATA_DECIMALS + 2 if pd.api.types.is_float_dtype(df[c]) else 0)
        width += longest * PIXELS_PER_CHAR + CELL_PADDING
    return width


def comparison_view(table: pd.DataFrame, counts: pd.DataFrame, k: int, *, lang: str = "en"
                    ) -> pd.DataFrame:
    """compare()'s table as shown: the run first, the significance mark, wins/ties/losses
    (the baseline's row says "baseline" in ``lang``; the headers are named for
    :func:`header`)."""
    view = table.reset_index().rename(columns={"system": "run"})
    # the baseline is not tested: its row says so (its empty cells show as None)
    view.insert(3, "sig.", np.where(view["significant"], SIGNIFICANT, "")
                .astype(object))
    view.loc[view["run"] == table.attrs["baseline"], "sig."] = t("baseline", lang)
    view = view.drop(columns="significant")
    view = view.merge(counts.rename_axis("run").reset_index(), on="run", how="left")
    view[["wins", "ties", "losses"]] = view[["wins", "ties", "losses"]].astype("Int64")
    return view.rename(columns={"mean": f"NDCG@{k}", "delta": "Δ", "ci_low": "CI low",
                                "ci_high": "CI high", "p_adj": "p (adj.)",
                                "effect_size": "d_z"})


def footnote(table: pd.DataFrame, k: int, *, lang: str = "en") -> str:
    """What the marks mean and what was tested, in words (the baseline's name escaped)."""
    a = table.attrs
    v = dict(mark=SIGNIFICANT, alpha=f"{a['alpha']:g}", baseline=escape_markdown(a["baseline"]),
             test=options_text.short_name("test", a["test"], lang=lang),
             correction=options_text.short_name("correction", a["correction"], lang=lang),
             level=f"{100 * a['confidence']:g}%", k=k, n=a["n_queries"])
    text = (t("{mark} adjusted p < {alpha} against **{baseline}**: {test}, {correction}; "
              "{level} CI of Δ; NDCG@{k} over the one query every run was evaluated on.",
              lang, **v) if a["n_queries"] == 1 else
            t("{mark} adjusted p < {alpha} against **{baseline}**: {test}, {correction}; "
              "{level} CI of Δ; NDCG@{k} over the {n} queries every run was evaluated on.",
              lang, **v))
    # the interval is a single point only when every query moved by the same amount
    same = [str(s) for s, row in table.iterrows()
            if s != a["baseline"] and row["ci_low"] == row["ci_high"] == 0]
    if same:
        text = sentences([text, t(
            "{runs}: the same NDCG@{k} as the baseline on every query, so there is no "
            "difference to test (p = 1, Δ = 0).", lang, runs=listing(same, 10, lang=lang),
            k=k)], lang=lang)
    if not a["dropped"]:
        return text
    ids = listing(a["dropped_qids"], 10, lang=lang)
    return sentences([text, (
        t("1 query without a score in every run left out: {ids}.", lang, ids=ids)
        if a["dropped"] == 1 else
        t("{n} queries without a score in every run left out: {ids}.", lang, n=a["dropped"],
          ids=ids))], lang=lang)


def export_files(table: pd.DataFrame, k: int) -> dict:
    """{label: (file name, mime, text)}: the comparison as CSV, Markdown and LaTeX.

    The exported files keep the engine's English column names in every language: they are
    data for scripts and papers, read by code that names columns (the page translates only
    the headers it draws, :func:`header`)."""
    stem = f"ndcg{k}_comparison"
    return {
        "CSV": (f"{stem}.csv", "text/csv", table.to_csv()),
        "Markdown": (f"{stem}.md", "text/markdown", to_markdown(table, digits=DATA_DECIMALS)),
        "LaTeX": (f"{stem}.tex", "application/x-tex", to_latex(table, digits=DATA_DECIMALS)),
    }
