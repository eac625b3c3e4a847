"""The ready bank of class questions, ordered like a lecture, and the two other sources of a
question: an exercise by its number, a playground state by its share link.

The lecture: predict a first NDCG, see the mistakes a class makes on it, gain, cutoffs, the
ideal drawn from judged documents that were not retrieved, and orderings to arrange. The
first question is a *Predict* one (the page's Next question opens it).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from lab import exercises
from lab import playground as P
from lab.i18n import t

from . import kinds
from .kinds.choose import choose
from .questions import Question

RUNNING = (3, 2, 3, 0, 1, 2)  # Wikipedia's DCG example: the lessons' running example


def _bank() -> tuple[Question, ...]:
    return (
        # 1-3: a first NDCG, then the mistakes a class makes on it
        Question("predict", (3, 2, 3, 0, 1, 2), 6, "linear"),
        choose(RUNNING, k=6, gain="linear",
               keys=("natural_log_dcg", "rank_from_zero", "numerator_one",
                     "discount_offset")),
        Question("higher", (3, 2, 1, 0), 4, "linear", other=(2, 3, 0, 1)),
        # 4-6: gain
        Question("predict", (2, 3, 0, 1), 4, "exponential"),
        choose((1, 3, 2, 0), k=4, gain="exponential",
               keys=("linear_for_exponential", "rank_from_zero", "natural_log_dcg")),
        Question("higher", (3, 0, 0, 2, 2), 5, "linear", other=(2, 2, 3, 0, 0)),
        # 7-9: cutoffs
        Question("predict", RUNNING, 3, "linear"),
        choose((1, 0, 3, 2, 0, 3), k=3, gain="linear",
               keys=("cutoff_ignored", "short_ideal", "retrieved_ideal", "rank_from_zero")),
        Question("arrange", (0, 3, 1, 2, 0), 3, "exponential", goal="highest"),
        # 10-12: the ideal from every judged document, retrieved or not
        Question("predict", RUNNING, 4, "linear", unretrieved=(3, 2)),
        choose(RUNNING, k=4, gain="linear", unretrieved=(3, 2),
               keys=("retrieved_ideal", "cutoff_ignored", "natural_log_dcg")),
        Question("higher", (3, 3, 0, 0, 1), 3, "exponential", other=(3, 2, 2, 1, 0)),
        # 13-14: orderings to build
        Question("arrange", (2, 0, 3, 1, 0, 2), 5, "linear", goal="below", target=0.5),
        Question("arrange", (0, 1, 0, 3, 2), 3, "linear", goal="above", target=0.9),
    )


BANK: tuple[Question, ...] = tuple(
    Question(**{**q.__dict__, "source": f"bank {i}"}) for i, q in enumerate(_bank(), 1))


def from_exercise(number: int, level: str = "medium", kind: str = "compute", *,
                  ask: str | None = None) -> Question:
    """Exercise ``number`` of the practice page as a question of kind ``ask`` (a name in
    :data:`kinds.KINDS`), by default the first kind made from that exercise's kind: a compute
    exercise asks its NDCG (predict), a compare exercise which ranking is higher. A kind that
    cannot be made from the exercise (two rankings asked of one) falls back to that default."""
    ex = exercises.generate(int(number), level, kind)
    return _make(ask, ex.grades, ex.k, ex.gain, ex.labels, other=ex.other,
                 source=f"exercise {ex.id}", default=kinds.for_exercise(ex.kind))


def _make(ask: str | None, grades, k, gain, labels, unretrieved=(), *, other=(), source,
          default) -> Question:
    asked = kinds.get(ask) if ask else default
    return (asked.make(grades, k, gain, labels, unretrieved, other=other, source=source)
            or default.make(grades, k, gain, labels, unretrieved, other=other, source=source))


def from_link(link: str, kind: str | None = None, *, lang: str = "en") -> Question:
    """A playground share link (the address, or just its ``?g=...`` part) as a question of
    ``kind`` (by default, and for a kind that needs two rankings, the first kind made of
    one: predict).
    ``ValueError`` with a message when it holds no ranking."""
    text = str(link or "").strip()
    query = urlsplit(text).query if "?" in text else text
    params = parse_qs(query, keep_blank_values=True)
    state, reason = P.from_query_params(lambda name: params.get(name, []), lang=lang)
    if state is None:
        raise ValueError(t("This is not a playground link: {reason}.", lang, reason=reason)
                         if reason else
                         t("Paste a playground link: its address holds the ranking "
                           "(…/?g=3,2,3,0).", lang))
    if any(g is None for g in state.grades):
        raise ValueError(t("Every item of the link needs a grade.", lang))
    gain = "linear" if state.gain == "both" else state.gain
    return _make(kind, tuple(state.grades), state.cutoff, gain, state.labels,
                 state.unretrieved, source="link", default=kinds.for_exercise("compute"))
