"""The conventions lesson as data: the library presets side by side on one list, and each
edge case (ties, all-zero queries, negative grades, log base, unjudged items, rescaled scores)
as a table. Plain pandas, tested without a server; rendered by ``ui/conventions.py``; prose in
``assets/lessons/05_conventions.md``. Every number comes from ndcg_core.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

import ndcg_core as nc
from lab.i18n import t
from lab import options_text as O
from lab.errors import explain
from lab.text import fmt

BASELINE = "trec_eval"
PRESET_NAMES = {"trec_eval": "trec_eval", "pytrec_eval": "pytrec_eval",
                "sklearn": "scikit-learn", "lightgbm": "LightGBM",
                "xgboost": "XGBoost", "ranx": "ranx"}
# what each preset sets that can move a playground list's NDCG (its scores are n − position:
# the score precision never matters there)
PRESET_OPTIONS = ("gain", "ties", "zero_idcg", "negative", "ideal_pool", "fractional")


# ------------------------------------------------------------------ library presets

def one_query(grades, unretrieved=()):
    """(qrels, run) of one query: the list's items scored n − position (rank 1 highest), and
    the judged-but-not-retrieved grades ``unretrieved`` in the qrels only."""
    n = len(grades)
    ids = [f"d{i:03d}" for i in range(1, n + 1)]
    missed = [f"u{i:03d}" for i in range(1, len(unretrieved) + 1)]
    qrels = pd.DataFrame({"qid": ["q"] * (n + len(unretrieved)), "docid": ids + missed,
                          "relevance": [float(g) for g in list(grades) + list(unretrieved)]})
    run = pd.DataFrame({"qid": ["q"] * n, "docid": ids,
                        "score": [float(n - i) for i in range(n)]})
    return qrels, run


def _scores(qrels, run, k, preset, **override):
    row = nc.evaluate(qrels, run, k=k, convention=preset, details=True, **override)
    return tuple(float(row[c].iloc[0]) for c in (f"dcg@{k}", f"idcg@{k}", f"ndcg@{k}"))


def presets_table(grades, k: int, unretrieved=(), *, lang: str = "en") -> pd.DataFrame:
    """One row per library preset: the options it sets (from CONVENTIONS), DCG@k, IDCG@k and
    NDCG@k of the list under it, and which of its options move NDCG away from trec_eval's.

    Values are text with the learner pages' 3 decimals (``lab.text.fmt``); a preset that
    refuses the input shows ``"refuses: <the engine's message>"``. Headers and words in
    ``lang``; the option values as :func:`lab.options_text.value_name` shows them (the
    engine's ``linear``, ``average`` in English; a Chinese name, then the value, in 中文).
    """
    qrels, run = one_query(grades, unretrieved)
    base = _scores(qrels, run, k, BASELINE)
    rows = []
    for preset, name in PRESET_NAMES.items():
        opts = nc.CONVENTIONS[preset]
        try:
            d, i, n = _scores(qrels, run, k, preset)
            row = {f"NDCG@{k}": fmt(n), f"DCG@{k}": fmt(d), f"IDCG@{k}": fmt(i)}
        except ValueError as exc:
            row = {f"NDCG@{k}": t("refuses: {message}", lang, message=explain(exc, lang)), f"DCG@{k}": "—",
                   f"IDCG@{k}": "—"}
            n = None
        row = {t("preset", lang): name, **row,
               **{O.label(o, lang=lang): O.value_name(o, opts[o], lang=lang)
                  for o in PRESET_OPTIONS}}
        why = []
        for o in PRESET_OPTIONS:
            if opts[o] == nc.CONVENTIONS[BASELINE][o]:
                continue
            try:
                moved = _scores(qrels, run, k, BASELINE, **{o: opts[o]})[2]
            except ValueError:
                moved = None
            if moved is None or not math.isclose(moved, base[2], abs_tol=1e-12):
                label = O.label(o, lang=lang)
                why.append(f"{label.lower() if lang == 'en' else label} = "
                           f"{O.value_name(o, opts[o], lang=lang)}")
        row[t("why it differs from trec_eval", lang)] = "; ".join(why) if n is None or not \
            math.isclose(n, base[2], abs_tol=1e-12) else ""
        rows.append(row)
    return pd.DataFrame(rows).set_index(t("preset", lang))


def differs_from_baseline(table: pd.DataFrame) -> pd.DataFrame:
    """True where a cell differs from the trec_eval row (the last column is left out)."""
    base = table.loc[PRESET_NAMES[BASELINE]]
    mask = table.ne(base, axis=1)
    mask.iloc[:, -1] = False
    return mask


# ------------------------------------------------------------------ lesson 05 examples

def tie_order(labels, scores, order, rule) -> str:
    """The ranked order as text; with averaging, tied items are joined by "=" (shared slot)."""
    parts = []
    for i in order:
        if parts and rule == "average" and scores[i] == scores[parts[-1][0]]:
            parts[-1][1].append(str(labels[i]))
        else:
            parts.append((i, [str(labels[i])]))
    return " > ".join(" = ".join(names) for _, names in parts)


def ties_table(docids, grades, scores, k: int, *, lang: str = "en") -> pd.DataFrame:
    """NDCG@k and at full depth of the tie example under every tie rule of OPTIONS['ties'];
    headers and words in ``lang`` (the rule by :func:`lab.options_text.value_name`)."""
    rows = []
    for rule in nc.OPTIONS["ties"].choices:
        kw = dict(scores=list(scores), ties=rule, docids=list(docids))
        table = nc.dcg_table(list(grades), labels=list(range(len(grades))), **kw)
        rows.append({t("rule", lang): O.value_name("ties", rule, lang=lang),
                     t("ranked order", lang): tie_order(docids, list(scores),
                                                        table["label"].astype(int), rule),
                     f"NDCG@{k}": nc.ndcg(list(grades), k=k, **kw),
                     t("full depth", lang): nc.ndcg(list(grades), **kw),
                     t("used by / what it does", lang): O.choice("ties", rule, lang=lang)})
    return pd.DataFrame(rows)


ZERO_QRELS = pd.DataFrame({"qid": ["q1"] * 3 + ["q2"] * 3,
                           "docid": ["d1", "d2", "d3", "d4", "d5", "d6"],
                           "relevance": [2.0, 0.0, 1.0, 0.0, 0.0, 0.0]})
ZERO_RUN = pd.DataFrame({"qid": ["q1"] * 3 + ["q2"] * 3,
                         "docid": ["d1", "d2", "d3", "d4", "d5", "d6"],
                         "score": [3.0, 2.0, 1.0, 3.0, 2.0, 1.0]})


def zero_idcg_table(*, lang: str = "en") -> pd.DataFrame:
    """q1 [2, 0, 1] and an all-zero q2 under each zero-IDCG rule: per query and the mean."""
    rows = []
    for rule in nc.OPTIONS["zero_idcg"].choices:
        nd = nc.evaluate(ZERO_QRELS, ZERO_RUN, k=None, zero_idcg=rule)["ndcg"]
        rows.append({t("rule", lang): O.value_name("zero_idcg", rule, lang=lang), "q1": nd["q1"],
                     t("q2 (all zero)", lang): nd["q2"], t("mean", lang): nd.mean(),
                     t("queries in the mean", lang): int(nd.notna().sum()),
                     t("used by / what it does", lang): O.choice("zero_idcg", rule, lang=lang)})
    return pd.DataFrame(rows)


def negative_table(grades, k: int, *, lang: str = "en") -> tuple[pd.DataFrame, str | None]:
    """Each negative-grade rule on ``grades``: values, or the engine's error message."""
    rows, message = [], None
    for rule in nc.OPTIONS["negative"].choices:
        row = {t("rule", lang): O.value_name("negative", rule, lang=lang),
               t("used by / what it does", lang): O.choice("negative", rule, lang=lang)}
        depth = t("full depth", lang)
        try:
            row.update({f"DCG@{k}": fmt(nc.dcg(grades, k=k, negative=rule)),
                        f"IDCG@{k}": fmt(nc.idcg(grades, k=k, negative=rule)),
                        f"NDCG@{k}": fmt(nc.ndcg(grades, k=k, negative=rule)),
                        depth: fmt(nc.ndcg(grades, negative=rule))})
        except ValueError as exc:
            message = explain(exc, lang)
            error = t("error", lang)
            row.update({f"DCG@{k}": error, f"IDCG@{k}": error, f"NDCG@{k}": error,
                        depth: error})
        rows.append(row)
    return pd.DataFrame(rows), message


def log_base_table(grades, base: float, *, lang: str = "en") -> pd.DataFrame:
    """DCG, IDCG and NDCG (full depth) under each discount of OPTIONS['discount']."""
    rows = []
    for discount in nc.OPTIONS["discount"].choices:
        kw = dict(discount=discount, base=base)
        name = O.value_name("discount", discount, lang=lang)
        rows.append({t("discount", lang): name + (f" (b = {base:g})"
                                                  if discount == "jarvelin" else ""),
                     "DCG": nc.dcg(grades, **kw), "IDCG": nc.idcg(grades, **kw),
                     "NDCG": nc.ndcg(grades, **kw),
                     t("what it is", lang): O.choice("discount", discount, lang=lang)})
    return pd.DataFrame(rows)


def discount_weights(n: int, base: float) -> pd.DataFrame:
    """Weight 1 / d(i) of ranks 1..n under each discount (a grade-1 item's contribution)."""
    return pd.DataFrame({d: nc.dcg_table([1] * n, discount=d, base=base)["contribution"]
                         .to_numpy() for d in nc.OPTIONS["discount"].choices},
                        index=pd.RangeIndex(1, n + 1, name="rank"))


UNLABELED_QRELS = pd.DataFrame({"qid": ["q", "q"], "docid": ["d1", "d2"],
                                "relevance": [3.0, 2.0]})
UNLABELED_RUN = pd.DataFrame({"qid": ["q"] * 3, "docid": ["d1", "dX", "d2"],
                              "score": [3.0, 2.0, 1.0]})


def unlabeled_table(*, lang: str = "en") -> pd.DataFrame:
    """The run d1, dX, d2 (dX never judged): unjudged as 0, or dropped (a condensed list)."""
    rows = []
    for rule, run in ((t("count as grade 0 (trec_eval default)", lang), UNLABELED_RUN),
                      (t("drop unjudged items (condensed list, trec_eval -J)", lang),
                       UNLABELED_RUN[UNLABELED_RUN["docid"] != "dX"])):
        row = nc.evaluate(UNLABELED_QRELS, run, k=None, details=True).iloc[0]
        rows.append({t("rule", lang): rule, t("ranked", lang): " > ".join(run["docid"]),
                     "DCG": row["dcg"], "IDCG": row["idcg"], "NDCG": row["ndcg"]})
    return pd.DataFrame(rows)


# name -> (transform, strictly increasing?)
TRANSFORMS = {
    "exp(s)": (np.exp, True),
    "10·s + 3": (lambda s: 10 * s + 3, True),
    "s³": (lambda s: s ** 3, True),
    "sigmoid(s)": (lambda s: 1 / (1 + np.exp(-s)), True),
    "round to 1 decimal": (lambda s: np.round(s, 1), False),
    "−s (decreasing)": (lambda s: -s, False),
}


def transform_label(name: str, lang: str) -> str:
    """A transform's name in ``lang``; the formulas read the same in every language."""
    return {"round to 1 decimal": t("round to 1 decimal", lang),
            "−s (decreasing)": t("−s (decreasing)", lang)}.get(name, name)


MONOTONE_EXAMPLE = dict(labels=["d1", "d2", "d3", "d4", "d5", "d6"], grades=[2, 0, 3, 1, 0, 2],
                        scores=[0.92, 0.51, 0.49, 0.30, 0.18, 0.05])


def transform_table(name: str, k: int, example=MONOTONE_EXAMPLE, *, lang: str = "en"):
    """(per-item table, NDCG@k before, NDCG@k after) for one score transform (ties averaged);
    the table's headers in ``lang``."""
    f, _ = TRANSFORMS[name]
    s = np.asarray(example["scores"], float)
    after_s = f(s)
    rank = lambda v: pd.Series(-v).rank(method="min").astype(int).to_numpy()  # noqa: E731
    items = pd.DataFrame({t("item", lang): example["labels"],
                          t("grade", lang): example["grades"], t("model score", lang): s,
                          t("rank", lang): rank(s), transform_label(name, lang): after_s,
                          t("rank after", lang): rank(after_s)})
    before = nc.ndcg(example["grades"], scores=list(s), k=k)
    after = nc.ndcg(example["grades"], scores=list(after_s), k=k)
    return items, before, after


