"""The five source documents' worked examples, their claims and their errata, as data.

Every number is computed by ndcg_core; what a document prints is kept as the string it
prints, only to be compared with the engine (:func:`agrees`). Rendered by
``ui/worked_examples.py``; the lesson prose is ``assets/lessons/02_worked_examples.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

import ndcg_core as nc
from lab.text import show_grades as show

WORKED = "02_worked_examples"
# Document 000's ranking: the running example of "Start here", the playground's default list,
# the conventions lesson's log-base table and the cutoffs lesson.
RUNNING_EXAMPLE = (3, 2, 3, 0, 1, 2)
DOC000 = RUNNING_EXAMPLE


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
        rows.append({"quantity": c.quantity, "the source says": says,
                     "ndcg_core (exact)": v, "agrees": verdict})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Ranking:
    """A worked example's ranking: its items in ranked order, cutoff, gain, and the grades of
    judged items it did not retrieve (``unretrieved``), which the ideal also draws on."""

    key: str
    title: str
    labels: tuple
    grades: tuple
    k: int | None = None
    gain: str = "linear"
    unretrieved: tuple = ()
    claims: tuple = ()
    unretrieved_labels: tuple = ()  # the names of the unretrieved items, in that order

    @property
    def cutoff(self) -> int:
        return len(self.grades) if self.k is None else self.k

    @property
    def judged(self):
        """The pool the ideal is drawn from (ranking + unretrieved), or None."""
        return self.grades + self.unretrieved if self.unretrieved else None


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


def _cdi(grades, k, *, gain="linear", printed=(None, None, None)):
    """Claims for DCG@k, IDCG@k and NDCG@k of one ranking."""
    lst = show(grades)

    def part(name):
        return lambda: getattr(nc.ndcg_parts(list(grades), k=k, gain=gain), name)

    return (Claim(f"DCG@{k} of {lst}", part("dcg"), printed[0]),
            Claim(f"IDCG@{k} of {lst}", part("idcg"), printed[1]),
            Claim(f"NDCG@{k} of {lst}", part("ndcg"), printed[2]))


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
        "000", "Three-step tutorial", "doc000",
        rankings=(
            Ranking("doc000", "Linear gain, the tutorial's two tables", names("Doc", 6), DOC000,
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
        "001", "E-commerce explainer, K = 4", "doc001",
        rankings=(
            Ranking("doc001", "K = 4, grades [3, 2, 3, 0]", D001_LABELS[:4], D001, k=4,
                    claims=(Claim("2/log2 3, position 2 of [3, 2, 3, 0]",
                                  lambda: 2 * weight(2), "1.26"),
                            Claim("3/log2 3, position 2 of the ideal [3, 3, 2, 0]",
                                  lambda: 3 * weight(2), "1.89"))
                    + _cdi(D001, 4, printed=("5.76", "5.89", "0.978"))),
            Ranking("doc001pool", "The same four slots, with the ideal drawn from all six judged "
                    "products [3, 2, 3, 0, 1, 2]", D001_LABELS[:4], D001, k=4, unretrieved=(1, 2),
                    unretrieved_labels=D001_LABELS[4:]),
        ),
        errata=(Erratum("erratum-doc001-half", (
            Claim("weight of position 2, 1/log2 3", lambda: weight(2), "0.5",
                  says="half (0.5)"),
            Claim("weight of position 3, 1/log2 4", lambda: weight(3), says="—"),
        )),),
    ),
    Document(
        "002", "Glossary entry, k = 3 and 2", "doc002",
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
        "003", "MRR note, with code", "doc003",
        claims=(Claim("MRR of first-relevant ranks [1, 4, 2, 9]",
                      lambda: nc.mean_reciprocal_rank(ranks=[1, 4, 2, 9]), "0.465"),),
        code=(
            CodeExample("Example 1", CODE_MRR, lambda: _printed(
                "MRR", nc.mean_reciprocal_rank(ranks=[1, 2, 4, 3, 5]))),
            CodeExample("Example 2", CODE_NDCG, lambda: _printed(
                "NDCG@5", nc.ndcg([3, 0, 2, 1], k=5, ideal=[3, 2, 1, 0])),
                # The code asks for NDCG@5 of four items: with no fifth position that is
                # NDCG@4, the same number, and the playground's k stops at the list's length.
                Ranking("doc003ex2", "Example 2: predicted grades [3, 0, 2, 1]; NDCG@5 of a "
                        "four-item list is NDCG@4 (there is no fifth position), so the tables "
                        "and the playground use k = 4", names("item", 4), (3, 0, 2, 1), k=4)),
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
        "004", "Chinese tutorial, CG to NDCG", "doc004",
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


