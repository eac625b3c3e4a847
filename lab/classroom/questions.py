"""Class-mode questions: what the class is asked, how an answer is read and scored.

Four kinds, every figure from ``ndcg_core``:

- ``predict``: "NDCG@k = ?" of a ranking; right within ±0.001 (the exercises' tolerance).
  A wrong value that a named mistake gives (:mod:`lab.mistakes`) is named.
- ``arrange``: put the items in an order that meets a goal (the highest NDCG@k, or one
  below / above a target); the submitted order is scored.
- ``choose``: multiple choice; the right NDCG@k and wrong options that are each a named
  mistake's value, computed when the question is made and stored with it.
- ``higher``: which of two orderings has the higher NDCG@k under a gain.

A question travels as JSON (:func:`to_json`/:func:`from_json`) in the class database.
:func:`grade` turns a typed answer into a :class:`Graded` (its stored text, right or
wrong, the mistake it matches) or raises ``ValueError`` with the message for the student:
nothing is stored then.
"""

from __future__ import annotations

import functools
import json
import math
import random
from dataclasses import asdict, dataclass, field

import ndcg_core as nc
from lab import exercises as X
from lab import mistakes as M
from lab.classroom.errors import ClassError
from lab.i18n import t
from lab.text import fmt, show_grades

KINDS = ("predict", "arrange", "choose", "higher")
GOALS = ("highest", "below", "above")
LETTERS = "ABCD"
PAIR = ("A", "B")


@dataclass(frozen=True)
class Question:
    kind: str
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
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if self.gain not in ("linear", "exponential"):
            raise ValueError(f"gain must be linear or exponential; got {self.gain!r}")
        if not self.grades or not 1 <= self.k <= len(self.grades):
            raise ValueError(f"k must be 1 to {len(self.grades)} (the list's length); "
                             f"got {self.k}")
        if self.kind == "arrange" and self.goal not in GOALS:
            raise ValueError(f"an arrange question's goal is one of {', '.join(GOALS)}")
        if self.kind == "higher" and len(self.other) != len(self.grades):
            raise ValueError("a higher question needs ranking B of the same length")
        if self.kind == "choose" and not 2 <= len(self.options) <= len(LETTERS):
            raise ValueError(f"a choose question has 2 to {len(LETTERS)} options")
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


# ------------------------------------------------------------------ values

def value(grades, q: Question) -> float:
    """NDCG@k of ``grades`` under ``q``'s gain, the ideal drawn with the unretrieved ones."""
    pool = list(grades) + list(q.unretrieved) if q.unretrieved else None
    return nc.ndcg(list(grades), k=q.k, gain=q.gain, ideal=pool)


def right_value(q: Question) -> float:
    return value(q.grades, q)


def best_value(q: Question) -> float:
    return value(sorted(q.grades, reverse=True), q)


def _mistaken(q: Question) -> dict[str, float]:
    return M.mistaken_values(list(q.grades), k=q.k, gain=q.gain, unretrieved=q.unretrieved)


def choose(grades, *, k: int, gain: str = "linear", unretrieved=(), keys=None, n: int = 4,
           labels=(), source: str = "") -> Question:
    """A choose question: the right NDCG@k and ``n - 1`` mistakes' values (``keys`` in that
    order of preference, else the catalogue's), each at least 0.002 from every other option
    so a class can tell them apart, and within 0 to 1 (an NDCG above 1 gives itself away).
    The options' order is shuffled, seeded by the ranking: the same question, the same order.
    """
    draft = Question("predict", tuple(grades), k, gain, tuple(labels), tuple(unretrieved))
    right = right_value(draft)
    wrong = _mistaken(draft)
    picked = [(right, "")]
    for key in keys or M.KEYS:
        v = wrong.get(key)
        if (v is None or not math.isfinite(v) or not 0 <= v <= 1
                or any(abs(v - p) < 0.002 for p, _ in picked)):
            continue
        picked.append((v, key))
        if len(picked) == n:
            break
    if len(picked) < 2:
        raise ValueError("no mistake gives this ranking a different NDCG: choose another")
    random.Random(f"{list(grades)}/{k}/{gain}/{list(unretrieved)}").shuffle(picked)
    options = tuple((round(v, 3), key) for v, key in picked)
    return Question("choose", tuple(grades), k, gain, tuple(labels), tuple(unretrieved),
                    options=options, source=source)


# ------------------------------------------------------------------ answers

def _letter(text, letters, lang: str) -> str:
    """One of ``letters``, exactly: nothing picked ("" is *in* the string "ABCD") and two
    letters ("AB") are refused, in the words the phone's options use."""
    typed = str(text or "").strip().upper()
    if typed not in tuple(letters):
        if tuple(letters) == tuple(PAIR):  # the options read "Ranking A", "Ranking B"
            raise ValueError(t("Pick Ranking A or Ranking B.", lang))
        raise ValueError(t("Pick one of {letters}.", lang, letters=", ".join(letters)))
    return typed


def parse_order(q: Question, text, lang: str = "en") -> list[int]:
    """An arrange answer: the item ids in the submitted order, as positions in ``q.grades``."""
    ids = [s.strip() for s in str(text or "").split(",") if s.strip()]
    if sorted(ids) != sorted(q.item_ids):
        raise ValueError(t("Drag the items into your order, then send it.", lang))
    return [q.item_ids.index(i) for i in ids]


def arrange_text(q: Question, state) -> str:
    """What an arrange question's table sent (its state, ``{"order": [item ids]}``) as the
    text :func:`grade` reads; the order shown when the student sent without moving anything.
    A state the table cannot have sent (``{"order": 5}``, a list) is refused
    (``ClassError("bad_answer")``), never a ``TypeError``."""
    if state is None or (isinstance(state, dict) and state.get("order") is None):
        return ",".join(q.item_ids)
    order = state.get("order") if isinstance(state, dict) else None
    if not isinstance(order, list) or not all(isinstance(i, str) for i in order):
        raise ClassError("bad_answer")
    return ",".join(order)


def grade(q: Question, text, *, lang: str = "en") -> Graded:
    """Read and score a student's answer; ``ValueError`` (a message in ``lang``) if unreadable."""
    if q.kind == "predict":
        given = X.parse(text, lang=lang)
        if not 0 <= given <= 1:
            raise ValueError(t("NDCG lies between 0 and 1: “{typed}” cannot be it.", lang,
                               typed=str(text).strip()[:40]))
        right = X.close(given, right_value(q))
        mistake = None if right else next(
            (key for key, v in _mistaken(q).items()
             if math.isfinite(v) and X.close(given, v)), None)
        return Graded(f"{given:.3f}", right, mistake)
    if q.kind == "choose":
        letter = _letter(text, LETTERS[:len(q.options)], lang)
        key = q.options[LETTERS.index(letter)][1]
        return Graded(letter, not key, key or None)
    if q.kind == "higher":
        pick = _letter(text, PAIR, lang)
        return Graded(pick, pick == right_answer(q), None if pick == right_answer(q)
                      else _higher_mistake(q, pick))
    order = parse_order(q, text, lang)
    score = value([q.grades[i] for i in order], q)
    return Graded(",".join(q.item_ids[i] for i in order), meets_goal(q, score), None)


def meets_goal(q: Question, score: float) -> bool:
    if q.goal == "highest":
        return score >= best_value(q) - 1e-9
    return score < q.target if q.goal == "below" else score > q.target


def right_answer(q: Question) -> str:
    """The right answer as stored: a value, a letter, or the best order (arrange)."""
    if q.kind == "predict":
        return fmt(right_value(q))
    if q.kind == "choose":
        return LETTERS[[key for _, key in q.options].index("")]
    if q.kind == "higher":
        a, b = right_value(q), value(q.other, q)
        return "A" if a > b else "B"
    order = sorted(range(len(q.grades)), key=lambda i: -q.grades[i])
    if q.goal == "below":
        order.reverse()
    return ",".join(q.item_ids[i] for i in order)


def _higher_mistake(q: Question, pick: str) -> str | None:
    """The mistake under which the wrong pick wins: the other gain, or no cutoff."""
    for key, change in (("exponential_for_linear" if q.gain == "linear"
                         else "linear_for_exponential",
                         {"gain": "exponential" if q.gain == "linear" else "linear"}),
                        ("cutoff_ignored", {"k": len(q.grades)})):
        other = Question("higher", q.grades, **{"k": q.k, "gain": q.gain, **change},
                         other=q.other)
        if key in M.KEYS and right_answer(other) == pick and other != q:
            return key
    return None


def bucket(q: Question, answer: str) -> str:
    """How an answer is grouped in the distribution: the answer itself, or for an order the
    NDCG@k it scores."""
    if q.kind != "arrange":
        return answer
    return fmt(value([q.grades[i] for i in parse_order(q, answer)], q))


def explain(q: Question, answer: str, lang: str) -> str:
    """An answer as a person reads it: an order by its labels and score, an option by its
    value."""
    if q.kind == "arrange":
        order = parse_order(q, answer, lang)
        return t("{order} (NDCG@{k} = {value})", lang, k=q.k,
                 order=", ".join(q.labels[i] for i in order),
                 value=fmt(value([q.grades[i] for i in order], q)))
    if q.kind == "choose":
        return f"{answer}: {fmt(q.options[LETTERS.index(answer)][0])}"
    return answer


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


@functools.lru_cache(maxsize=1024)
def mistake_value(q: Question, key: str) -> float | None:
    """The value mistake ``key`` gives for ``q``'s ranking (None when it gives none)."""
    v = _mistaken(q).get(key)
    return v if v is not None and math.isfinite(v) else None


def mistake_name(key: str | None, lang: str) -> str:
    return M.name(key, lang) if key else ""


# ------------------------------------------------------------------ text

def prompt(q: Question, lang: str) -> str:
    """The question as the class reads it (the ranking itself is drawn as a table)."""
    gain = X.gain_name(q.gain, lang=lang, long=True)  # "with linear gain?"
    text = {
        "predict": t("What is NDCG@{k} of this ranking, with {gain}? Type it to 3 decimals.",
                     lang, k=q.k, gain=gain),
        "choose": t("Which value is NDCG@{k} of this ranking, with {gain}?", lang, k=q.k,
                    gain=gain),
        "higher": t("Which ranking has the higher NDCG@{k} under {gain}?", lang, k=q.k,
                    gain=gain),
        "arrange": {
            "highest": t("Drag the items into the order with the highest NDCG@{k} under "
                         "{gain}.", lang, k=q.k, gain=gain),
            "below": t("Drag the items into an order whose NDCG@{k} under {gain} is below "
                       "{target}.", lang, k=q.k, gain=gain, target=fmt(q.target, 2)),
            "above": t("Drag the items into an order whose NDCG@{k} under {gain} is above "
                       "{target}.", lang, k=q.k, gain=gain, target=fmt(q.target, 2)),
        }.get(q.goal, ""),
    }[q.kind]
    if q.unretrieved:
        text += " " + t("Judged but not retrieved: grades {unretrieved}.", lang,
                        unretrieved=show_grades(q.unretrieved))
    return text


def kind_names(lang: str) -> dict[str, str]:
    """Each kind's name, as the teacher's menu and a question's title write it."""
    return {"predict": t("Predict", lang), "arrange": t("Arrange", lang),
            "choose": t("Choose", lang), "higher": t("Which is higher", lang)}


def title(q: Question, number: int, lang: str) -> str:
    return t("Question {n} · {kind}", lang, n=number, kind=kind_names(lang)[q.kind])


# ------------------------------------------------------------------ storage

def to_json(q: Question) -> str:
    return json.dumps(asdict(q), ensure_ascii=False, separators=(",", ":"))


def from_json(text: str) -> Question:
    raw = json.loads(text)
    for name in ("grades", "labels", "unretrieved", "other", "item_ids"):
        raw[name] = tuple(raw.get(name, ()))
    raw["options"] = tuple(tuple(o) for o in raw.get("options", ()))
    return Question(**raw)
