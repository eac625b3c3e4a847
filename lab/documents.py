"""The five source documents' worked examples, their claims and their errata, as data.

Every number is computed by ndcg_core; what a document prints is kept as the string it
prints, only to be compared with the engine (:func:`agrees`). Rendered by
``pages/worked_examples.py`` (each document by ``ui/learn.py``); the lesson prose is
``assets/lessons/02_worked_examples.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

import ndcg_core as nc
from lab.i18n import t
from lab.text import show_grades as show

WORKED = "02_worked_examples"
# Document 000's ranking: the running example of "Start here", the playground's default list,
# the conventions lesson's log-base table and the cutoffs lesson.
RUNNING_EXAMPLE = (3, 2, 3, 0, 1, 2)
DOC000 = RUNNING_EXAMPLE


class Words(str):
    """A text of the worked examples: the English words (the string itself, what the tests
    and the engine-facing code read) that can also say themselves in another language.

    ``Words(lambda lang: t("Example 1", lang))`` keeps the message a literal ``t`` call (the
    catalog test finds it) while the data stays plain, built once at import.

    >>> w = Words(lambda lang: t("Example 1", lang))
    >>> (w, w.say("zh"))
    ('Example 1', '示例 1')
    """

    def __new__(cls, say):
        words = super().__new__(cls, say("en"))
        words.say = say
        return words


def say(text, lang: str) -> str:
    """``text`` in ``lang``: a :class:`Words` says itself; any other text (a grade list, a
    number as printed, "≈ 4.53") reads the same in every language."""
    return text.say(lang) if isinstance(text, Words) else text


W = Words


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


CLAIM_COLUMNS = ("quantity", "the source says", "ndcg_core (exact)", "agrees")


def claim_headers(lang: str) -> dict:
    """The claims table's column headers in ``lang`` (display only: the frame keeps
    :data:`CLAIM_COLUMNS`)."""
    return {"quantity": t("quantity", lang), "the source says": t("the source says", lang),
            "ndcg_core (exact)": t("ndcg_core (exact)", lang), "agrees": t("agrees", lang)}


def claims_frame(claims, *, lang: str = "en") -> pd.DataFrame:
    """One row per claim: its words in ``lang``, what the source says, the engine's exact
    value and whether the two agree (✓ / ✗, "—" where the source prints no number)."""
    rows = []
    for c in claims:
        v = float(c.value())
        verdict = "—" if c.printed is None else ("✓" if agrees(v, c.printed) else "✗")
        says = say(c.says, lang) if c.says is not None else (c.printed or "—")
        rows.append(dict(zip(CLAIM_COLUMNS, (say(c.quantity, lang), says, v, verdict))))
    return pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))


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

    return (Claim(Words(lambda lang: t("DCG@{k} of {grades}", lang, k=k, grades=lst)),
                  part("dcg"), printed[0]),
            Claim(Words(lambda lang: t("IDCG@{k} of {grades}", lang, k=k, grades=lst)),
                  part("idcg"), printed[1]),
            Claim(Words(lambda lang: t("NDCG@{k} of {grades}", lang, k=k, grades=lst)),
                  part("ndcg"), printed[2]))


def _by_scores(labels, grades, scores):
    """(labels, grades) in score order, as the engine ranks them."""
    table = nc.dcg_table(list(grades), scores=list(scores), labels=list(labels))
    return tuple(table["label"]), tuple(float(g) for g in table["relevance"])


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


def _cg5(grades):
    """The CG@5 claim of ``grades`` (the Chinese tutorial prints 9 for both orders)."""
    return Claim(W(lambda lang: t("CG@{k} of {grades}", lang, k=5, grades=show(grades))),
                 lambda: nc.cg(list(grades)), "9")


def _dcg5_worst():
    """The Chinese tutorial's "about 4.53" for its worst-first order."""
    return Claim(W(lambda lang: t("DCG@{k} of {grades}", lang, k=5, grades=show(D004_WORST))),
                 lambda: nc.dcg(list(D004_WORST), k=5), "4.53", says="≈ 4.53")


NONE = "—"  # the source gives no figure: the same sign in every language

DOCUMENTS = (
    Document(
        "000", W(lambda lang: t("Three-step tutorial", lang)), "doc000",
        rankings=(
            Ranking("doc000", W(lambda lang: t("Linear gain, the tutorial's two tables", lang)),
                    names("Doc", 6), DOC000,
                    claims=(
                        Claim(W(lambda lang: t("2/log2 3, position 2 of [3, 2, 3, 0, 1, 2]",
                                               lang)),
                              lambda: 2 * weight(2), "1.262"),
                        Claim(W(lambda lang: t("2/log2 5, position 4 of the ideal "
                                               "[3, 3, 2, 2, 1, 0]", lang)),
                              lambda: 2 * weight(4), "0.861"),
                    )),
            Ranking("doc000exp", W(lambda lang: t("The exponential variant, 2^rel − 1", lang)),
                    names("Doc", 6), DOC000, gain="exponential",
                    claims=(
                        Claim(W(lambda lang: t("exponential gain of a 3", lang)),
                              lambda: nc.dcg([3], gain="exponential"), "7"),
                        Claim(W(lambda lang: t("exponential gain of a 1", lang)),
                              lambda: nc.dcg([1], gain="exponential"), "1"),
                    )),
        ),
        errata=(
            Erratum("erratum-doc000-sklearn-gain", (
                Claim(W(lambda lang: t("NDCG@3 of [3, 2, 3, 0, 1, 2], linear gain (what "
                                       "ndcg_score returns)", lang)),
                      lambda: nc.ndcg(list(DOC000), k=3), says=NONE),
                Claim(W(lambda lang: t("NDCG@3 of [3, 2, 3, 0, 1, 2], gain 2^rel − 1", lang)),
                      lambda: nc.ndcg(list(DOC000), k=3, gain="exponential"),
                      says=W(lambda lang: t("scikit-learn's default", lang))),
            )),
            Erratum("erratum-doc000-all-zero", (
                Claim(W(lambda lang: t("NDCG of q1 = [2, 0, 1]", lang)), lambda: nc.ndcg(Q1),
                      says=NONE),
                Claim(W(lambda lang: t("mean of q1 and an all-zero q2 scored 0", lang)),
                      lambda: _mean_with_empty("zero"),
                      says=W(lambda lang: t("the convention", lang))),
                Claim(W(lambda lang: t("mean of q1 and an all-zero q2 scored 1", lang)),
                      lambda: _mean_with_empty("one"), says=NONE),
                Claim(W(lambda lang: t("mean with the all-zero q2 left out", lang)),
                      lambda: _mean_with_empty("nan"), says=NONE),
            )),
            Erratum("erratum-doc000-range", (
                Claim(W(lambda lang: t("NDCG of [−1, 1]", lang)), lambda: nc.ndcg([-1, 1]),
                      says=W(lambda lang: t("between 0 and 1", lang))),
                Claim(W(lambda lang: t("DCG / IDCG of [−2, −1], the formula taken literally",
                                       lang)),
                      lambda: nc.dcg([-2, -1]) / nc.idcg([-2, -1]),
                      says=W(lambda lang: t("between 0 and 1", lang))),
                Claim(W(lambda lang: t("ndcg_core's NDCG of [−2, −1] (IDCG ≤ 0, so the "
                                       "all-zero rule applies)", lang)),
                      lambda: nc.ndcg([-2, -1]), says=NONE),
            )),
        ),
    ),
    Document(
        "001", W(lambda lang: t("E-commerce explainer, K = 4", lang)), "doc001",
        rankings=(
            Ranking("doc001", W(lambda lang: t("K = 4, grades [3, 2, 3, 0]", lang)),
                    D001_LABELS[:4], D001, k=4,
                    claims=(Claim(W(lambda lang: t("2/log2 3, position 2 of [3, 2, 3, 0]",
                                                   lang)),
                                  lambda: 2 * weight(2), "1.26"),
                            Claim(W(lambda lang: t("3/log2 3, position 2 of the ideal "
                                                   "[3, 3, 2, 0]", lang)),
                                  lambda: 3 * weight(2), "1.89"))
                    + _cdi(D001, 4, printed=("5.76", "5.89", "0.978"))),
            Ranking("doc001pool", W(lambda lang: t(
                "The same four slots, with the ideal drawn from all six judged products "
                "[3, 2, 3, 0, 1, 2]", lang)), D001_LABELS[:4], D001, k=4, unretrieved=(1, 2),
                    unretrieved_labels=D001_LABELS[4:]),
        ),
        errata=(Erratum("erratum-doc001-half", (
            Claim(W(lambda lang: t("weight of position 2, 1/log2 3", lang)), lambda: weight(2),
                  "0.5", says=W(lambda lang: t("half (0.5)", lang))),
            Claim(W(lambda lang: t("weight of position 3, 1/log2 4", lang)), lambda: weight(3),
                  says=NONE),
        )),),
    ),
    Document(
        "002", W(lambda lang: t("Glossary entry, k = 3 and 2", lang)), "doc002",
        rankings=(
            Ranking("doc002k3", W(lambda lang: t("Predicted order of grades 1, 3, 2, at k = 3",
                                                 lang)), D002_LABELS, D002,
                    k=3, claims=(Claim(W(lambda lang: t("3/log2 3, position 2 of [1, 3, 2]",
                                                        lang)),
                                       lambda: 3 * weight(2), "1.8928"),)
                    + _cdi(D002, 3, printed=("3.8928", "4.7619", "0.8175"))),
            Ranking("doc002k2", W(lambda lang: t("The same order at k = 2", lang)), D002_LABELS,
                    D002, k=2, claims=_cdi(D002, 2, printed=("2.8928", "4.2619", "0.6788"))),
        ),
    ),
    Document(
        "003", W(lambda lang: t("MRR note, with code", lang)), "doc003",
        claims=(Claim(W(lambda lang: t("MRR of first-relevant ranks [1, 4, 2, 9]", lang)),
                      lambda: nc.mean_reciprocal_rank(ranks=[1, 4, 2, 9]), "0.465"),),
        code=(
            CodeExample(W(lambda lang: t("Example 1", lang)), CODE_MRR, lambda: _printed(
                "MRR", nc.mean_reciprocal_rank(ranks=[1, 2, 4, 3, 5]))),
            CodeExample(W(lambda lang: t("Example 2", lang)), CODE_NDCG, lambda: _printed(
                "NDCG@5", nc.ndcg([3, 0, 2, 1], k=5, ideal=[3, 2, 1, 0])),
                # The code asks for NDCG@5 of four items: with no fifth position that is
                # NDCG@4, the same number, and the playground's k stops at the list's length.
                Ranking("doc003ex2", W(lambda lang: t(
                    "Example 2: predicted grades [3, 0, 2, 1]; NDCG@5 of a four-item list is "
                    "NDCG@4 (there is no fifth position), so the tables and the playground "
                    "use k = 4", lang)), names("item", 4), (3, 0, 2, 1), k=4)),
            CodeExample(W(lambda lang: t("Example 3", lang)), CODE_SKLEARN, lambda: _printed(
                "NDCG@5", nc.ndcg(list(EX3_GRADES), scores=list(EX3_SCORES), k=5)),
                Ranking("doc003ex3", W(lambda lang: t(
                    "Example 3 sorted by score: grades {grades}", lang,
                    grades=show(EX3_RANKED))), EX3_LABELS, EX3_RANKED, k=5)),
        ),
        errata=(
            Erratum("erratum-doc003-burges-log", (
                Claim(W(lambda lang: t("DCG of [3, 2, 3, 0, 1, 2], log2 discount", lang)),
                      lambda: nc.dcg(list(DOC000)), says=NONE),
                Claim(W(lambda lang: t("DCG of [3, 2, 3, 0, 1, 2], natural-log discount",
                                       lang)),
                      lambda: nc.dcg(list(DOC000), discount="ln"), says=NONE),
                Claim(W(lambda lang: t("NDCG, log2 discount", lang)),
                      lambda: nc.ndcg(list(DOC000)),
                      says=W(lambda lang: t("base 2 needed", lang))),
                Claim(W(lambda lang: t("NDCG, natural-log discount", lang)),
                      lambda: nc.ndcg(list(DOC000), discount="ln"),
                      says=W(lambda lang: t("base 2 needed", lang))),
            )),
            Erratum("erratum-doc003-generalises", (
                Claim(W(lambda lang: t("reciprocal rank, one relevant item at rank 4", lang)),
                      lambda: nc.reciprocal_rank([0, 0, 0, 1]), says=NONE),
                Claim(W(lambda lang: t("NDCG of the same list [0, 0, 0, 1]", lang)),
                      lambda: nc.ndcg([0, 0, 0, 1]),
                      says=W(lambda lang: t("MRR, generalised", lang))),
            )),
        ),
    ),
    Document(
        "004", W(lambda lang: t("Chinese tutorial, CG to NDCG", lang)), "doc004",
        rankings=(
            Ranking("doc004", W(lambda lang: t("Grades [3, 2, 3, 0, 1], k = 5", lang)),
                    D004_LABELS, D004, k=5,
                    claims=(_cg5(D004),)
                    + _cdi(D004, 5, printed=("6.15", "6.32", "0.973"))
                    + (Claim(W(lambda lang: t("log2 11, the discount at position 10", lang)),
                             lambda: 1 / weight(10), "3.46"),)),
            Ranking("doc004worst", W(lambda lang: t(
                "The same items worst-first, [0, 1, 2, 3, 3]", lang)),
                    tuple(D004_LABELS[i] for i in (3, 4, 1, 0, 2)), D004_WORST, k=5,
                    claims=(_cg5(D004_WORST), _dcg5_worst())),
        ),
        errata=(
            Erratum("erratum-doc004-reversed", (
                _dcg5_worst(),
                Claim(W(lambda lang: t("DCG@5 of the plain reversal [1, 0, 3, 2, 3]", lang)),
                      lambda: nc.dcg([1, 0, 3, 2, 3], k=5), says=NONE),
            )),
            Erratum("erratum-doc004-rounding", (
                Claim(W(lambda lang: t("6.15 / 6.32, the parts rounded first", lang)),
                      lambda: round(nc.dcg(list(D004)), 2) / round(nc.idcg(list(D004)), 2),
                      "0.973", says="≈ 0.973"),
                Claim(W(lambda lang: t("DCG@5 / IDCG@5 at full precision", lang)),
                      lambda: nc.ndcg(list(D004)), "0.973", says="≈ 0.973"),
            )),
            Erratum("erratum-doc004-earlier"),
            Erratum("erratum-doc004-floor", (
                Claim(W(lambda lang: t("NDCG@5 of the worst order [0, 1, 2, 3, 3]", lang)),
                      lambda: nc.ndcg(list(D004_WORST), k=5),
                      says=W(lambda lang: t("close to 0", lang))),
            )),
        ),
    ),
)
