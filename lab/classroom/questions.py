"""Class-mode questions: what the class is asked, and the figures every kind reads.

A :class:`Question` holds one ranking (and what a kind needs besides: ranking B, a goal, the
options); what a kind does with it (its sentence, how an answer is read and scored, the
right answer, the distribution's bars) is its module in :mod:`lab.classroom.kinds`, and the
functions here (:func:`grade`, :func:`right_answer`, :func:`prompt`, ...) hand a question to
its kind. Every figure comes from ``ndcg_core``.

A question travels as JSON (:func:`to_json`/:func:`from_json`) in the class database.
:func:`grade` turns a typed answer into a :class:`Graded` (its stored text, right or
wrong, the mistake it matches) or raises ``ValueError`` with the message for the student:
nothing is stored then.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import asdict, dataclass, field

import ndcg_core as nc
from lab import exercises
from lab import mistakes as M
from lab.i18n import t
from lab.text import show_grades

LETTERS = "ABCD"


@dataclass(frozen=True)
class Question:
    kind: str                   # a name in lab.classroom.kinds.KINDS
    grades: tuple
    k: int
    gain: str = "linear"
    labels: tuple = ()
    unretrieved: tuple = ()     # judged but not retrieved: the ideal is drawn with them
    other: tuple = ()           # higher: ranking B's grades (A is ``grades``)
    goal: str = ""              # arrange
    target: float = 0.0         # arrange, goal below / above
    options: tuple = ()         # choose: ((value, mistake key or ""), ...) in letter order
    source: str = ""            # where it came from: "bank 3", "exercise 17", "link"
    item_ids: tuple = field(default=())

    def __post_init__(self):
        if self.gain not in ("linear", "exponential"):
            raise ValueError(f"gain must be linear or exponential; got {self.gain!r}")
        if not self.grades or not 1 <= self.k <= len(self.grades):
            raise ValueError(f"k must be 1 to {len(self.grades)} (the list's length); "
                             f"got {self.k}")
        if self.kind:  # "": a draft, never asked (choose's values are drawn from one)
            kind_of(self).check(self)
        if not self.labels:
            object.__setattr__(self, "labels", tuple(f"Doc {chr(65 + i)}"
                                                     for i in range(len(self.grades))))
        if not self.item_ids:
            object.__setattr__(self, "item_ids", tuple(f"i{i}" for i in range(len(self.grades))))


@dataclass(frozen=True)
class Graded:
    answer: str           # the text stored: a value to 3 decimals, a letter, an order
    correct: bool
    mistake: str | None   # a lab.mistakes key, when the answer is that mistake's value


def kind_of(q: Question):
    """``q``'s kind (:class:`lab.classroom.kinds.Kind`); ``ValueError`` for an unknown one."""
    from lab.classroom import kinds  # the kinds read this module: imported when first asked
    return kinds.get(q.kind)


# ------------------------------------------------------------------ values

def value(grades, q: Question) -> float:
    """NDCG@k of ``grades`` under ``q``'s gain, the ideal drawn with the unretrieved ones."""
    pool = list(grades) + list(q.unretrieved) if q.unretrieved else None
    return nc.ndcg(list(grades), k=q.k, gain=q.gain, ideal=pool)


def right_value(q: Question) -> float:
    return value(q.grades, q)


def best_value(q: Question) -> float:
    return value(sorted(q.grades, reverse=True), q)


def mistaken(q: Question) -> dict[str, float]:
    """Each named mistake's value for ``q``'s ranking (:mod:`lab.mistakes`)."""
    return M.mistaken_values(list(q.grades), k=q.k, gain=q.gain, unretrieved=q.unretrieved)


@functools.lru_cache(maxsize=1024)
def mistake_value(q: Question, key: str) -> float | None:
    """The value mistake ``key`` gives for ``q``'s ranking (None when it gives none)."""
    v = mistaken(q).get(key)
    return v if v is not None and math.isfinite(v) else None


def mistake_name(key: str | None, lang: str) -> str:
    return M.name(key, lang) if key else ""


# ------------------------------------------------------------------ answers

def letter(text, letters, lang: str) -> str:
    """One of ``letters``, exactly: nothing picked ("" is *in* the string "ABCD") and two
    letters ("AB") are refused."""
    typed = str(text or "").strip().upper()
    if typed not in tuple(letters):
        raise ValueError(t("Pick one of {letters}.", lang, letters=", ".join(letters)))
    return typed


def grade(q: Question, text, *, lang: str = "en") -> Graded:
    """Read and score a student's answer; ``ValueError`` (a message in ``lang``) if unreadable."""
    return kind_of(q).grade(q, text, lang)


def right_answer(q: Question) -> str:
    """The right answer as stored: a value, a letter, or an order."""
    return kind_of(q).right_answer(q)


def explain(q: Question, answer: str, lang: str) -> str:
    """An answer as a person reads it: an order by its labels and score, an option by its
    value."""
    return kind_of(q).explain(q, answer, lang)


@functools.lru_cache(maxsize=1024)
def other_labels(q: Question) -> tuple:
    """Ranking B's labels (which-is-higher): the same documents as A's when B reorders A's
    grades (each label keeps its grade), else labels of their own, so that no label names
    two different grades.

    >>> other_labels(Question("higher", (3, 2, 1), 3, labels=("a", "b", "c"), other=(1, 3, 2)))
    ('c', 'a', 'b')
    >>> other_labels(Question("higher", (3, 2), 2, labels=("a", "b"), other=(1, 0)))
    ('a′', 'b′')
    >>> other_labels(Question("higher", (3, 2), 2, other=(1, 0)))
    ('Doc C', 'Doc D')
    """
    if sorted(q.grades) == sorted(q.other):
        free = list(zip(q.labels, q.grades))
        out = []
        for g in q.other:
            i = next(j for j, (_label, h) in enumerate(free) if h == g)
            out.append(free.pop(i)[0])
        return tuple(out)
    n = len(q.grades)
    if 2 * n <= 26 and q.labels == tuple(f"Doc {chr(65 + i)}" for i in range(n)):
        return tuple(f"Doc {chr(65 + n + i)}" for i in range(n))
    return tuple(f"{label}′" for label in q.labels)


# ------------------------------------------------------------------ text

def gain_words(q: Question, lang: str) -> str:
    return exercises.gain_name(q.gain, lang=lang, long=True)  # "with linear gain?"


def prompt(q: Question, lang: str) -> str:
    """The question as the class reads it (the ranking itself is drawn as a table)."""
    text = kind_of(q).prompt(q, lang)
    if q.unretrieved:
        text += " " + t("Judged but not retrieved: grades {unretrieved}.", lang,
                        unretrieved=show_grades(q.unretrieved))
    return text


def title(q: Question, number: int, lang: str) -> str:
    return t("Question {n} · {kind}", lang, n=number, kind=kind_of(q).label(lang))


# ------------------------------------------------------------------ storage

def to_json(q: Question) -> str:
    return json.dumps(asdict(q), ensure_ascii=False, separators=(",", ":"))


def from_json(text: str) -> Question:
    raw = json.loads(text)
    for name in ("grades", "labels", "unretrieved", "other", "item_ids"):
        raw[name] = tuple(raw.get(name, ()))
    raw["options"] = tuple(tuple(o) for o in raw.get("options", ()))
    return Question(**raw)
