"""App-side helpers of the first three Learn pages: the start-here tour, the five documents'
worked examples with their errata, and the gain flip finder.

Data and pure functions come first (they need no running app, so tests call them directly),
the small renderers the pages use come last. Every number is computed by ndcg_core; what the
documents print is kept as the strings they print, only to be compared with the engine.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core as nc
from ui import lessons as L
from ui import playground as P
from ui.state import fmt_grade

START, WORKED, GAIN = "01_start_here", "02_worked_examples", "03_gain"
DOC000 = (3, 2, 3, 0, 1, 2)  # the running example of document 000 and of "Start here"


def show(grades) -> str:
    """A grade list as the lessons write it: [3, 2, 3, 0]."""
    return "[" + ", ".join(fmt_grade(g) for g in grades) + "]"


def names(prefix: str, n: int) -> tuple:
    return tuple(f"{prefix} {chr(ord('A') + i)}" for i in range(n))


def weight(position: int) -> float:
    """The discount weight 1/log2(i + 1) of a position: the DCG of one grade-1 item there."""
    return nc.dcg([0] * (position - 1) + [1])


# ------------------------------------------------------------------ claims and examples

@dataclass(frozen=True)
class Claim:
    """One figure of a document next to the engine's exact value.

    ``printed`` is the number as the document prints it (None when the claim is not a number
    or the document gives none); ``says`` is what the table shows in the document's column.
    """

    quantity: str
    value: Callable[[], float]
    printed: str | None = None
    says: str | None = None


def agrees(value: float, printed: str) -> bool:
    """Whether ``value`` rounds to ``printed`` at the precision it is printed with."""
    decimals = len(printed.partition(".")[2])
    return abs(round(value, decimals) - float(printed)) < 10 ** -(decimals + 3)


def claims_frame(claims) -> pd.DataFrame:
    rows = []
    for c in claims:
        v = float(c.value())
        verdict = "—" if c.printed is None else ("✓" if agrees(v, c.printed) else "✗")
        says = c.says if c.says is not None else (c.printed or "—")
        rows.append({"quantity": c.quantity, "the document says": says,
                     "ndcg_core (exact)": v, "agrees": verdict})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Ranking:
    """A worked example's ranking: its items in ranked order, cutoff, gain, and the judged
    items it did not retrieve (``extra``), which the ideal also draws on."""

    key: str
    title: str
    labels: tuple
    grades: tuple
    k: int | None = None
    gain: str = "linear"
    extra: tuple = ()
    claims: tuple = ()

    @property
    def cutoff(self) -> int:
        return len(self.grades) if self.k is None else self.k

    @property
    def pool(self):
        return self.grades + self.extra if self.extra else None


@dataclass(frozen=True)
class CodeExample:
    title: str
    code: str
    prints: Callable[[], str]
    ranking: Ranking | None = None


@dataclass(frozen=True)
class Erratum:
    section: str
    claims: tuple = ()


@dataclass(frozen=True)
class Document:
    number: str
    tab: str
    section: str
    rankings: tuple = ()
    claims: tuple = ()
    code: tuple = ()
    errata: tuple = ()


def _cdi(grades, k, *, gain="linear", printed=(None, None, None), pool=None):
    """Claims for DCG@k, IDCG@k and NDCG@k of one ranking."""
    lst = show(grades)
    ideal = list(pool) if pool else list(grades)
    return (
        Claim(f"DCG@{k} of {lst}", lambda: nc.dcg(list(grades), k=k, gain=gain), printed[0]),
        Claim(f"IDCG@{k} of {lst}", lambda: nc.idcg(ideal, k=k, gain=gain), printed[1]),
        Claim(f"NDCG@{k} of {lst}", lambda: nc.ndcg(list(grades), k=k, gain=gain,
                                                      ideal=pool), printed[2]),
    )


def _by_scores(labels, grades, scores):
    """(labels, grades) in score order, as the engine ranks them."""
    t = nc.dcg_table(list(grades), scores=list(scores), labels=list(labels))
    return tuple(t["label"]), tuple(float(g) for g in t["relevance"])


# Document 003's code, quoted as printed.
CODE_MRR = """def mrr(ranks):
    return sum(1.0/r for r in ranks) / len(ranks)
print('MRR:', mrr([1, 2, 4, 3, 5]))"""
CODE_NDCG = """import math
def dcg(rel, k):
    return sum(r / math.log2(i + 2) for i, r in enumerate(rel[:k]))
def ndcg(rel_true, rel_pred, k):
    ideal = sorted(rel_true, reverse=True)
    return dcg(rel_pred, k) / max(dcg(ideal, k), 1e-9)
print('NDCG@5:', ndcg([3, 2, 1, 0], [3, 0, 2, 1], 5))"""
CODE_SKLEARN = """from sklearn.metrics import ndcg_score
import numpy as np
true_rel = np.array([[3, 2, 1, 0, 0]])
scores   = np.array([[0.9, 0.1, 0.5, 0.3, 0.2]])
print('NDCG@5:', ndcg_score(true_rel, scores, k=5))"""
EX3_GRADES, EX3_SCORES = (3, 2, 1, 0, 0), (0.9, 0.1, 0.5, 0.3, 0.2)
EX3_LABELS, EX3_RANKED = _by_scores(names("item", 5), EX3_GRADES, EX3_SCORES)


def _printed(name: str, value: float) -> str:
    # 12 significant digits: the engine and the snippet may differ in the last binary digit
    return f"{name}: {value:.12g}"


D001, D001_LABELS = (3, 2, 3, 0), names("Product", 6)
D002_LABELS, D002 = ("Doc C", "Doc A", "Doc B"), (1, 3, 2)  # grades A 3, B 2, C 1
D004, D004_WORST = (3, 2, 3, 0, 1), (0, 1, 2, 3, 3)
D004_LABELS = tuple(f"Doc {i}" for i in range(1, 6))
Q1, EMPTY = [2, 0, 1], [0, 0, 0]


def _mean_with_empty(rule):
    return float(np.nanmean([nc.ndcg(Q1), nc.ndcg(EMPTY, zero_idcg=rule)]))


DOCUMENTS = (
    Document(
        "000", "000 · three steps", "doc000",
        rankings=(
            Ranking("doc000", "Linear gain, the document's two tables", names("Doc", 6), DOC000,
                    claims=(
                        Claim("2/log2 3, position 2 of [3, 2, 3, 0, 1, 2]",
                              lambda: 2 * weight(2), "1.262"),
                        Claim("2/log2 5, position 4 of the ideal [3, 3, 2, 2, 1, 0]",
                              lambda: 2 * weight(4), "0.861"),
                    )),
            Ranking("doc000exp", "The exponential variant, 2^rel − 1", names("Doc", 6), DOC000,
                    gain="exponential",
                    claims=(
                        Claim("exponential gain of a 3", lambda: nc.dcg([3], gain="exponential"),
                              "7"),
                        Claim("exponential gain of a 1", lambda: nc.dcg([1], gain="exponential"),
                              "1"),
                    )),
        ),
        errata=(
            Erratum("erratum-doc000-sklearn-gain", (
                Claim("NDCG@3 of [3, 2, 3, 0, 1, 2], linear gain (what ndcg_score returns)",
                      lambda: nc.ndcg(list(DOC000), k=3), says="—"),
                Claim("NDCG@3 of [3, 2, 3, 0, 1, 2], gain 2^rel − 1",
                      lambda: nc.ndcg(list(DOC000), k=3, gain="exponential"),
                      says="scikit-learn's default"),
            )),
            Erratum("erratum-doc000-all-zero", (
                Claim("NDCG of q1 = [2, 0, 1]", lambda: nc.ndcg(Q1), says="—"),
                Claim("mean of q1 and an all-zero q2 scored 0", lambda: _mean_with_empty("zero"),
                      says="the convention"),
                Claim("mean of q1 and an all-zero q2 scored 1", lambda: _mean_with_empty("one"),
                      says="—"),
                Claim("mean with the all-zero q2 left out", lambda: _mean_with_empty("nan"),
                      says="—"),
            )),
            Erratum("erratum-doc000-range", (
                Claim("NDCG of [−1, 1]", lambda: nc.ndcg([-1, 1]), says="between 0 and 1"),
                Claim("DCG / IDCG of [−2, −1], the formula taken literally",
                      lambda: nc.dcg([-2, -1]) / nc.idcg([-2, -1]), says="between 0 and 1"),
                Claim("ndcg_core's NDCG of [−2, −1] (IDCG ≤ 0, so the all-zero rule applies)",
                      lambda: nc.ndcg([-2, -1]), says="—"),
            )),
        ),
    ),
    Document(
        "001", "001 · e-commerce, K = 4", "doc001",
        rankings=(
            Ranking("doc001", "K = 4, grades [3, 2, 3, 0]", D001_LABELS[:4], D001, k=4,
                    claims=(Claim("2/log2 3, position 2 of [3, 2, 3, 0]",
                                  lambda: 2 * weight(2), "1.26"),
                            Claim("3/log2 3, position 2 of the ideal [3, 3, 2, 0]",
                                  lambda: 3 * weight(2), "1.89"))
                    + _cdi(D001, 4, printed=("5.76", "5.89", "0.978"))),
            Ranking("doc001pool", "The same four slots, with the ideal drawn from all six judged "
                    "products [3, 2, 3, 0, 1, 2]", D001_LABELS[:4], D001, k=4, extra=(1, 2)),
        ),
        errata=(Erratum("erratum-doc001-half", (
            Claim("weight of position 2, 1/log2 3", lambda: weight(2), "0.5",
                  says="half (0.5)"),
            Claim("weight of position 3, 1/log2 4", lambda: weight(3), says="—"),
        )),),
    ),
    Document(
        "002", "002 · glossary, two cutoffs", "doc002",
        rankings=(
            Ranking("doc002k3", "Predicted order of grades 1, 3, 2, at k = 3", D002_LABELS, D002,
                    k=3, claims=(Claim("3/log2 3, position 2 of [1, 3, 2]",
                                       lambda: 3 * weight(2), "1.8928"),)
                    + _cdi(D002, 3, printed=("3.8928", "4.7619", "0.8175"))),
            Ranking("doc002k2", "The same order at k = 2", D002_LABELS, D002, k=2,
                    claims=_cdi(D002, 2, printed=("2.8928", "4.2619", "0.6788"))),
        ),
    ),
    Document(
        "003", "003 · MRR and code", "doc003",
        claims=(Claim("MRR of first-relevant ranks [1, 4, 2, 9]",
                      lambda: nc.mean_reciprocal_rank(ranks=[1, 4, 2, 9]), "0.465"),),
        code=(
            CodeExample("Example 1", CODE_MRR, lambda: _printed(
                "MRR", nc.mean_reciprocal_rank(ranks=[1, 2, 4, 3, 5]))),
            CodeExample("Example 2", CODE_NDCG, lambda: _printed(
                "NDCG@5", nc.ndcg([3, 0, 2, 1], k=5, ideal=[3, 2, 1, 0])),
                Ranking("doc003ex2", "Example 2: predicted grades [3, 0, 2, 1], k = 5",
                        names("item", 4), (3, 0, 2, 1), k=5)),
            CodeExample("Example 3", CODE_SKLEARN, lambda: _printed(
                "NDCG@5", nc.ndcg(list(EX3_GRADES), scores=list(EX3_SCORES), k=5)),
                Ranking("doc003ex3", "Example 3 sorted by score: grades "
                        + show(EX3_RANKED), EX3_LABELS, EX3_RANKED, k=5)),
        ),
        errata=(
            Erratum("erratum-doc003-burges-log", (
                Claim("DCG of [3, 2, 3, 0, 1, 2], log2 discount",
                      lambda: nc.dcg(list(DOC000)), says="—"),
                Claim("DCG of [3, 2, 3, 0, 1, 2], natural-log discount",
                      lambda: nc.dcg(list(DOC000), discount="ln"), says="—"),
                Claim("NDCG, log2 discount", lambda: nc.ndcg(list(DOC000)),
                      says="base 2 needed"),
                Claim("NDCG, natural-log discount",
                      lambda: nc.ndcg(list(DOC000), discount="ln"), says="base 2 needed"),
            )),
            Erratum("erratum-doc003-generalises", (
                Claim("reciprocal rank, one relevant item at rank 4",
                      lambda: nc.reciprocal_rank([0, 0, 0, 1]), says="—"),
                Claim("NDCG of the same list [0, 0, 0, 1]", lambda: nc.ndcg([0, 0, 0, 1]),
                      says="MRR, generalised"),
            )),
        ),
    ),
    Document(
        "004", "004 · from CG to NDCG", "doc004",
        rankings=(
            Ranking("doc004", "Grades [3, 2, 3, 0, 1], k = 5", D004_LABELS, D004, k=5,
                    claims=(Claim("CG@5 of [3, 2, 3, 0, 1]", lambda: nc.cg(list(D004)), "9"),)
                    + _cdi(D004, 5, printed=("6.15", "6.32", "0.973"))
                    + (Claim("log2 11, the discount at position 10", lambda: 1 / weight(10),
                             "3.46"),)),
            Ranking("doc004worst", "The same items worst-first, [0, 1, 2, 3, 3]",
                    tuple(D004_LABELS[i] for i in (3, 4, 1, 0, 2)), D004_WORST, k=5,
                    claims=(Claim("CG@5 of [0, 1, 2, 3, 3]", lambda: nc.cg(list(D004_WORST)),
                                  "9"),
                            Claim("DCG@5 of [0, 1, 2, 3, 3]",
                                  lambda: nc.dcg(list(D004_WORST), k=5), "4.53",
                                  says="≈ 4.53"))),
        ),
        errata=(
            Erratum("erratum-doc004-reversed", (
                Claim("DCG@5 of [0, 1, 2, 3, 3]", lambda: nc.dcg(list(D004_WORST), k=5),
                      "4.53", says="≈ 4.53"),
                Claim("DCG@5 of the plain reversal [1, 0, 3, 2, 3]",
                      lambda: nc.dcg([1, 0, 3, 2, 3], k=5), says="—"),
            )),
            Erratum("erratum-doc004-rounding", (
                Claim("6.15 / 6.32, the parts rounded first",
                      lambda: round(nc.dcg(list(D004)), 2) / round(nc.idcg(list(D004)), 2),
                      "0.973", says="≈ 0.973"),
                Claim("DCG@5 / IDCG@5 at full precision", lambda: nc.ndcg(list(D004)),
                      "0.973", says="≈ 0.973"),
            )),
            Erratum("erratum-doc004-earlier"),
            Erratum("erratum-doc004-floor", (
                Claim("NDCG@5 of the worst order [0, 1, 2, 3, 3]",
                      lambda: nc.ndcg(list(D004_WORST), k=5), says="close to 0"),
            )),
        ),
    ),
)


# ------------------------------------------------------------------ the start-here tour

@dataclass(frozen=True)
class Step:
    """One stop of the guided tour: the lesson section it shows and the state it computes."""

    section: str
    view: str  # "cg", "dcg", "idcg" or "ndcg"
    grades: tuple
    k: int

    @property
    def labels(self):
        return names("Doc", len(self.grades))


TOUR = (
    Step("step-cg", "cg", DOC000[:5], 5),
    Step("step-dcg", "dcg", DOC000, 6),
    Step("step-idcg", "idcg", DOC000, 6),
    Step("step-ndcg", "ndcg", DOC000, 6),
)


def single_hit(position: int, n: int = 10) -> list:
    """n items, one relevant (grade 1) at ``position``."""
    return [1 if i == position else 0 for i in range(1, n + 1)]


# What shoppers did with six products shown in this order (the grades lesson's example).
ACTIONS = ("purchased", "added to cart", "viewed", "ignored")
SHOP = (("Trail running shoes", "viewed"), ("Running socks", "purchased"),
        ("Water bottle", "ignored"), ("Sports watch", "added to cart"),
        ("Headband", "ignored"), ("Gym bag", "purchased"))
MAPPINGS = {
    "0–3: purchased 3 · cart 2 · viewed 1 · ignored 0": (3, 2, 1, 0),
    "0–4: purchased 4 · cart 2 · viewed 1 · ignored 0": (4, 2, 1, 0),
    "binary: purchased 1, anything else 0": (1, 0, 0, 0),
    "binary: any interaction 1, ignored 0": (1, 1, 1, 0),
}


def grades_of(actions, mapping: str) -> list:
    grade = dict(zip(ACTIONS, MAPPINGS[mapping]))
    return [grade[a] for a in actions]


# ------------------------------------------------------------------ the flip finder

EXHAUSTIVE_LIMIT = 5040  # every ordering of 7 distinct items
SAMPLES = 3000
_EPS = 1e-12


@dataclass(frozen=True)
class Flip:
    """Two orderings of the same items, linear gain preferring ``a`` and exponential ``b``;
    or, when none exists or none was found, ``a is None`` and ``reason`` says why."""

    k: int
    searched: int = 0
    exhaustive: bool = True
    a: tuple | None = None
    b: tuple | None = None
    ndcg: dict | None = None  # {"a": (linear, exponential), "b": (...)}
    reason: str | None = None


def _count_sequences(counts, k, cap):
    """How many distinct sequences of k grades the multiset gives (saturating at ``cap``)."""
    ways = [1] + [0] * k  # ways[m]: sequences of length m from the values seen so far
    for c in counts:
        ways = [min(cap, sum(ways[m - j] * math.comb(m, j) for j in range(min(c, m) + 1)))
                for m in range(k + 1)]
    return ways[k]


def _distinct_prefixes(grades, k, limit):
    """Every distinct sequence of k grades drawn from the multiset, best-first; None when
    there are more than ``limit``."""
    counts = Counter(grades)
    if _count_sequences(counts.values(), k, limit + 1) > limit:
        return None
    values = sorted(counts, reverse=True)
    out, seq = [], []

    def walk():
        if len(seq) == k:
            out.append(tuple(seq))
            return
        for v in values:
            if counts[v]:
                counts[v] -= 1
                seq.append(v)
                walk()
                seq.pop()
                counts[v] += 1

    walk()
    return out


def _sampled_prefixes(grades, k, seed, samples):
    rng = np.random.default_rng(seed)
    g = np.asarray(grades, dtype=float)
    seen = {tuple(sorted(grades, reverse=True)[:k]), tuple(sorted(grades)[:k])}
    for _ in range(samples):
        seen.add(tuple(g[rng.permutation(g.size)[:k]].tolist()))
    return sorted(seen, reverse=True)


def _complete(prefix, grades):
    """A full ordering: the prefix, then the remaining grades best-first (past k they do not
    count; sorting them makes the answer depend on the grades only, not on their order)."""
    rest = Counter(grades)
    rest.subtract(prefix)
    return tuple(prefix) + tuple(sorted(rest.elements(), reverse=True))


def find_flip(grades, k=None, *, ideal=None, seed=0, limit=EXHAUSTIVE_LIMIT,
              samples=SAMPLES) -> Flip:
    """Search two orderings of ``grades`` that linear and exponential gain rank oppositely
    at cutoff ``k``: NDCG@k(A) > NDCG@k(B) under linear gain, the reverse under 2^rel − 1.

    Every distinct top-k sequence is tried when there are at most ``limit`` (so always for
    n ≤ 7), otherwise a seeded random sample. Of all flipping pairs the one whose smaller
    margin is largest is returned. ``ideal`` is the judged pool the ideal comes from (as in
    ``ndcg_core.ndcg``). Raises ValueError for grades the engine refuses.
    """
    grades = [float(g) for g in grades]
    n = len(grades)
    kk = n if k is None else max(1, min(int(k), n))
    idcg = {g: nc.idcg(ideal or grades, k=kk, gain=g) for g in ("linear", "exponential")}
    if kk == 1:
        return Flip(kk, reason="k1")
    if min(idcg.values()) <= 0:
        return Flip(kk, reason="no-positive")
    values = np.unique(grades)
    gain = {g: nc.dcg_table(values, gain=g)["gain"].to_numpy() for g in idcg}
    ratios = [e / v for v, e in zip(values, gain["exponential"]) if v != 0]
    if len(ratios) <= 1 or max(ratios) - min(ratios) < _EPS * max(ratios):
        # exponential gain is a fixed multiple of linear gain on these grades
        return Flip(kk, reason="proportional")
    prefixes = _distinct_prefixes(grades, kk, limit)
    exhaustive = prefixes is not None
    if not exhaustive:
        prefixes = _sampled_prefixes(grades, kk, seed, samples)
    w = 1.0 / nc.dcg_table([0] * kk)["discount"].to_numpy()
    seqs = np.searchsorted(values, np.asarray(prefixes))
    lin, exp = ((gain[g][seqs] @ w) / idcg[g] for g in idcg)
    best, pair = 0.0, None
    for start in range(0, len(prefixes), 400):
        a = slice(start, start + 400)
        margin = np.minimum(lin[a, None] - lin[None, :], exp[None, :] - exp[a, None])
        i, j = np.unravel_index(np.argmax(margin), margin.shape)
        if margin[i, j] > best + _EPS:
            best, pair = float(margin[i, j]), (start + i, j)
    found = Flip(kk, len(prefixes), exhaustive,
                 reason="none-exhaustive" if exhaustive else "none-sampled")
    if pair is None:
        return found
    a, b = (_complete(prefixes[i], grades) for i in pair)
    scores = {name: tuple(nc.ndcg(list(order), k=kk, gain=g, ideal=ideal) for g in idcg)
              for name, order in (("a", a), ("b", b))}
    if not (scores["a"][0] > scores["b"][0] and scores["a"][1] < scores["b"][1]):
        return found
    return replace(found, a=a, b=b, ndcg=scores, reason=None)


FLIP_REASONS = {
    "k1": "At k = 1 only the top item counts, and both gains rank grades in the same order, "
          "so they always agree.",
    "no-positive": "No item has a positive grade, so the ideal DCG is 0 and every ordering "
                   "scores the same.",
    "proportional": "On these grades exponential gain is a fixed multiple of linear gain "
                    "(binary grades, or a single non-zero grade): every DCG scales by the same "
                    "factor, so the two gains can never disagree.",
    "none-exhaustive": "Every ordering was tried ({searched} distinct top-k sequences) and the "
                       "two gains agreed on every pair.",
    "none-sampled": "No flip among {searched} orderings sampled with seed 0; with more items "
                    "one may still exist.",
}


def arrange(labels, grades, order):
    """The labels of the items put in the grade ``order`` (equal grades keep their order)."""
    left = list(zip(labels, grades))
    out = []
    for g in order:
        i = next(i for i, (_, h) in enumerate(left) if h is not None and float(h) == g)
        out.append(left.pop(i)[0])
    return out


# ------------------------------------------------------------------ renderers

NUMBER = st.column_config.NumberColumn(format="%.4f")


def claims_table(claims):
    st.dataframe(claims_frame(claims), hide_index=True, width="stretch",
                 column_config={"ndcg_core (exact)": NUMBER,
                                "quantity": st.column_config.TextColumn(width="large")})


def render_ranking(r: Ranking):
    st.markdown(f"### {r.title}")
    P.dcg_tables(r.grades, r.labels, k=r.cutoff, gain=r.gain, pool=r.pool)
    P.formula(r.grades, k=r.cutoff, gain=r.gain, pool=r.pool)
    if r.claims:
        claims_table(r.claims)
    P.open_in_playground(r.labels, r.grades, k=min(r.cutoff, len(r.grades)), gain=r.gain,
                         pool=r.extra, key=f"we_open_{r.key}")


def render_document(doc: Document):
    L.section(WORKED, doc.section)
    for r in doc.rankings:
        render_ranking(r)
    if doc.claims:
        claims_table(doc.claims)
    for ex in doc.code:
        st.markdown(f"### {ex.title}")
        st.code(ex.code, language="python")
        st.caption("It prints (computed by ndcg_core, to 12 significant digits):")
        st.code(ex.prints(), language="text")
        if ex.ranking:
            render_ranking(ex.ranking)
    for e in doc.errata:
        L.erratum(WORKED, e.section)
        if e.claims:
            claims_table(e.claims)


def _figure(fig: go.Figure, title, x, y):
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, height=340,
                      margin=dict(t=50, b=40, l=40, r=10), legend=dict(orientation="h", y=-0.25))
    return fig.to_dict()


@st.cache_data(show_spinner=False)
def hit_chart(n: int = 10) -> dict:
    pos = list(range(1, n + 1))
    fig = go.Figure()
    fig.add_scatter(x=pos, y=[nc.precision_at_k(single_hit(p, n), k=n) for p in pos],
                    name=f"precision@{n}", mode="lines+markers")
    fig.add_scatter(x=pos, y=[nc.ndcg(single_hit(p, n), k=n) for p in pos],
                    name=f"NDCG@{n}", mode="lines+markers", line_dash="dot")
    fig.update_yaxes(range=[0, 1.05])
    return _figure(fig, f"One relevant item among {n}: precision@{n} vs NDCG@{n}",
                   "position of the relevant item", "score")


@st.cache_data(show_spinner=False)
def gain_chart(top: int = 4) -> dict:
    fine = [i / 10 for i in range(10 * top + 1)]
    whole = list(range(top + 1))
    fig = go.Figure()
    for gain, dash in (("linear", "solid"), ("exponential", "dot")):
        name = "linear: rel" if gain == "linear" else "exponential: 2^rel − 1"
        fig.add_scatter(x=fine, y=nc.dcg_table(fine, gain=gain)["gain"], name=name,
                        mode="lines", line_dash=dash, legendgroup=gain,
                        hovertemplate="rel %{x}: gain %{y:.3f}")
        fig.add_scatter(x=whole, y=nc.dcg_table(whole, gain=gain)["gain"], mode="markers",
                        legendgroup=gain, showlegend=False, hovertemplate="rel %{x}: gain %{y}")
    return _figure(fig, "Gain of a grade: linear vs exponential", "grade rel",
                   "gain (points before the discount)")


def metric_row(items):
    """``items``: (label, value, format) triples shown as bordered metrics."""
    for col, (label, value, fmt) in zip(st.columns(len(items)), items):
        col.metric(label, format(value, fmt), border=True)


def render_step(step: Step):
    g, k, lab = step.grades, step.k, step.labels
    if step.view == "cg":
        orders = (g, tuple(sorted(g)), tuple(reversed(g)))
        metric_row([(f"CG@{k} of {show(o)}", nc.cg(list(o), k=k), "g") for o in orders])
    elif step.view in ("dcg", "idcg"):
        ideal = step.view == "idcg"
        P.one_table(g, lab, k=k, gain="linear", ideal=ideal)
        value = nc.idcg(list(g), k=k) if ideal else nc.dcg(list(g), k=k)
        metric_row([(f"{'IDCG' if ideal else 'DCG'}@{k}", value, ".4f")])
    else:
        for gain in ("linear", "exponential"):
            d, i, n = P.summary(tuple(g), k, gain, None)
            metric_row([(f"{m}@{k} ({gain})", v, ".4f")
                        for m, v in zip(("DCG", "IDCG", "NDCG"), (d, i, n))])
            P.formula(g, k=k, gain=gain)
    P.open_in_playground(lab, g, k=k, key=f"sh_open_{step.section}")


def render_flip(pg, flip: Flip):
    k = flip.k
    if flip.a is None:
        st.info(FLIP_REASONS[flip.reason].format(searched=flip.searched),
                icon=":material/block:")
        return
    how = (f"all {flip.searched} distinct top-{k} orderings" if flip.exhaustive
           else f"{flip.searched} orderings sampled with seed 0")
    (la, ea), (lb, eb) = flip.ndcg["a"], flip.ndcg["b"]
    st.success(f"Linear gain prefers **A** ({la:.4f} > {lb:.4f}); exponential gain prefers "
               f"**B** ({eb:.4f} > {ea:.4f}). Searched {how}.", icon=":material/swap_horiz:")
    labels = {name: arrange(pg.labels, pg.grades, order) for name, order in (("A", flip.a),
                                                                             ("B", flip.b))}
    rows = [{"ordering": name, "grades in order": ", ".join(fmt_grade(x) for x in order),
             f"top {k} items": ", ".join(labels[name][:k]),
             f"NDCG@{k} linear": scores[0], f"NDCG@{k} exponential": scores[1]}
            for name, order, scores in (("A", flip.a, flip.ndcg["a"]),
                                        ("B", flip.b, flip.ndcg["b"]))]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={f"NDCG@{k} linear": NUMBER, f"NDCG@{k} exponential": NUMBER},
                 key="gain_flip_table")
    for col, name, order in zip(st.columns(2), "AB", (flip.a, flip.b)):
        with col:
            P.open_in_playground(labels[name], order, k=k, gain="both",
                                 pool=pg.pool, key=f"gain_open_{name}",
                                 label=f"Open {name} in playground")
