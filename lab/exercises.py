"""Practice exercises: a seeded generator and a step-by-step checker.

Pure Python (no streamlit import), so the page and the tests share one definition. An
exercise is fully determined by ``(kind, level, number)``: the same number always gives the
same list, cutoff and gain. Exact answers come from ndcg_core.

Two kinds:

* ``compute``: type DCG@k, IDCG@k and NDCG@k of one ranked list;
* ``compare``: pick which of two orderings of the same items has the higher NDCG@k under a
  given gain (at medium and hard level, a pair whose winner flips with the other gain).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache

import ndcg_core as nc
from lab.text import escape_markdown, fmt

TOLERANCE = 0.001  # absolute, as 07_practice.md states
_EPS = 1e-9        # float slack, so an answer exactly 0.001 away is still accepted
STEPS = ("dcg", "idcg", "ndcg")
STEP_NAMES = {"dcg": "DCG", "idcg": "IDCG", "ndcg": "NDCG"}
KINDS = {"compute": "Compute DCG, IDCG and NDCG", "compare": "Which ranking wins?"}
CHOICES = ("A", "B")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class Level:
    lengths: tuple[int, int]    # list length, inclusive range
    max_grade: int              # grades 0..max_grade
    gains: tuple[str, ...]      # drawn from these
    cut: bool                   # False: k is the whole list
    min_k: int = 3
    label: str = ""


LEVELS = {
    "easy": Level((3, 4), 2, ("linear",), cut=False,
                  label="3–4 items, grades 0–2, linear gain, k = the whole list"),
    "medium": Level((5, 6), 3, ("linear", "exponential"), cut=True,
                    label="5–6 items, grades 0–3, linear or exponential gain, k from 3 to n − 1"),
    "hard": Level((7, 9), 4, ("exponential", "linear"), cut=True,
                  label="7–9 items, grades 0–4, either gain, k cuts into the list and the "
                        "ideal needs an item from below k"),
}


@dataclass(frozen=True)
class Exercise:
    kind: str
    level: str
    number: int
    labels: tuple[str, ...]
    grades: tuple[int, ...]
    k: int
    gain: str
    other: tuple[int, ...] = ()          # compare: ranking B's grades
    other_labels: tuple[str, ...] = ()   # compare: ranking B's labels

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.level}/{self.number}"


@dataclass
class Feedback:
    """What the checker says. ``status`` is 'correct', 'wrong' or 'invalid' (an answer could
    not be read: nothing is graded)."""

    status: str
    wrong_step: str | None = None
    errors: dict = field(default_factory=dict)    # step -> message, for unreadable answers
    given: dict = field(default_factory=dict)     # step -> parsed value
    expected: dict = field(default_factory=dict)  # step -> exact value
    hint: str = ""

    @property
    def graded(self) -> bool:
        return self.status != "invalid"


@dataclass
class Score:
    """The running score: each exercise counts once in ``attempted`` (at its first graded
    check, or when its solution is opened) and once in ``correct`` if it was answered right
    before its solution was opened."""

    correct: int = 0
    attempted: int = 0
    counted: dict = field(default_factory=dict)  # exercise id -> answered right
    revealed: set = field(default_factory=set)

    def record(self, ex_id: str, right: bool):
        if ex_id not in self.counted:
            self.attempted += 1
            self.counted[ex_id] = False
        if right and not self.counted[ex_id] and ex_id not in self.revealed:
            self.correct += 1
            self.counted[ex_id] = True

    def reveal(self, ex_id: str):
        self.revealed.add(ex_id)
        self.record(ex_id, False)


# ------------------------------------------------------------------ generator

def _labels(n):
    return tuple(f"Doc {chr(ord('A') + i)}" for i in range(n))


def _cutoff_matters(grades, k):
    """The ideal's top k needs an item ranked below k (cut the ideal at k, not the top k)."""
    return sorted(grades, reverse=True)[:k] != sorted(grades[:k], reverse=True)


@lru_cache(maxsize=512)
def generate(number: int, level: str = "medium", kind: str = "compute") -> Exercise:
    """The exercise ``number`` of a level and kind (reproducible: a string-seeded RNG)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}; got {level!r}.")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"number must be a whole number ≥ 1; got {number!r}.")
    spec = LEVELS[level]
    rng = random.Random(f"ndcg-lab/{kind}/{level}/{number}")
    make = _compute if kind == "compute" else _compare
    for _ in range(500):
        ex = make(rng, spec, kind, level, number)
        if ex is not None:
            return ex
    raise RuntimeError(f"no exercise found for {kind}/{level}/{number}")  # pragma: no cover


def _draw(rng, spec):
    n = rng.randint(*spec.lengths)
    grades = [rng.randint(0, spec.max_grade) for _ in range(n)]
    k = rng.randint(spec.min_k, n - 1 if spec.cut and n > spec.min_k else n) if spec.cut else n
    return n, grades, k, rng.choice(spec.gains)


def _compute(rng, spec, kind, level, number):
    n, grades, k, gain = _draw(rng, spec)
    if sum(g > 0 for g in grades) < 2 or nc.ndcg(grades, k=k, gain=gain) > 1 - 1e-9:
        return None
    if level == "hard" and not _cutoff_matters(grades, k):
        return None
    return Exercise(kind, level, number, _labels(n), tuple(grades), k, gain)


def _compare(rng, spec, kind, level, number):
    n, grades, k, gain = _draw(rng, spec)
    if sum(g > 0 for g in grades) < 2 or len(set(grades)) < 3 - (level == "easy"):
        return None
    labels = list(_labels(n))
    order_b = list(range(n))
    rng.shuffle(order_b)
    b_grades = [grades[i] for i in order_b]
    a, b = nc.ndcg(grades, k=k, gain=gain), nc.ndcg(b_grades, k=k, gain=gain)
    if abs(a - b) < 0.01:
        return None
    if level != "easy":
        other = "exponential" if gain == "linear" else "linear"
        a2, b2 = nc.ndcg(grades, k=k, gain=other), nc.ndcg(b_grades, k=k, gain=other)
        if (a > b) == (a2 > b2) or abs(a2 - b2) < 1e-9:  # want a winner that depends on gain
            return None
    return Exercise(kind, level, number, tuple(labels), tuple(grades), k, gain,
                    tuple(b_grades), tuple(labels[i] for i in order_b))


# ------------------------------------------------------------------ answers

def solution(ex: Exercise) -> dict:
    """Exact values: ``{'dcg', 'idcg', 'ndcg'}``; for ``compare`` also ``'A'``, ``'B'`` (NDCG@k
    of each ranking) and ``'winner'``."""
    out = {"dcg": nc.dcg(list(ex.grades), k=ex.k, gain=ex.gain),
           "idcg": nc.idcg(list(ex.grades), k=ex.k, gain=ex.gain),
           "ndcg": nc.ndcg(list(ex.grades), k=ex.k, gain=ex.gain)}
    if ex.kind == "compare":
        out["A"] = out["ndcg"]
        out["B"] = nc.ndcg(list(ex.other), k=ex.k, gain=ex.gain)
        out["winner"] = "A" if out["A"] > out["B"] else "B"
    return out


def parse(text) -> float:
    """A typed answer as a float, or ValueError with a message for the learner."""
    t = "" if text is None else str(text).strip()
    if not t:
        raise ValueError("nothing typed yet: type a number such as 0.972.")
    if re.fullmatch(r"[+-]?\d*,\d+", t):
        raise ValueError(f"“{t}” uses a comma: write decimals with a point, e.g. "
                         f"{t.replace(',', '.')}.")
    if not _NUMBER.fullmatch(t):
        raise ValueError(f"“{t}” is not a number: type digits with a decimal point, "
                         "e.g. 0.972.")
    value = float(t)
    if not math.isfinite(value):
        raise ValueError(f"“{t}” is too large: type the value rounded to 3 decimals.")
    return value


def close(given: float, exact: float) -> bool:
    """Within the stated tolerance, ±0.001 absolute."""
    return abs(given - exact) <= TOLERANCE + _EPS


def first_wrong_step(given: dict, expected: dict) -> str | None:
    """The first of DCG, IDCG, NDCG whose answer is off, or None when all are right."""
    return next((s for s in STEPS if not close(given[s], expected[s])), None)


def check(ex: Exercise, answers: dict) -> Feedback:
    """Check typed answers ``{'dcg': text, 'idcg': text, 'ndcg': text}`` of a compute
    exercise, in order: the first wrong step is reported, with a hint when the value matches
    a common slip."""
    given, errors = {}, {}
    for step in STEPS:
        try:
            given[step] = parse(answers.get(step))
        except ValueError as exc:
            errors[step] = str(exc)
    expected = {s: v for s, v in solution(ex).items() if s in STEPS}
    if errors:
        return Feedback("invalid", errors=errors, given=given, expected=expected)
    step = first_wrong_step(given, expected)
    if step is None:
        return Feedback("correct", given=given, expected=expected)
    return Feedback("wrong", step, given=given, expected=expected,
                    hint=diagnose(ex, step, given))


def check_choice(ex: Exercise, choice) -> Feedback:
    """Check the pick of a compare exercise ('A' or 'B')."""
    sol = solution(ex)
    expected = {"A": sol["A"], "B": sol["B"], "winner": sol["winner"]}
    if choice not in CHOICES:
        return Feedback("invalid", errors={"choice": "pick ranking A or ranking B."},
                        expected=expected)
    ok = choice == sol["winner"]
    other = "exponential" if ex.gain == "linear" else "linear"
    a2 = nc.ndcg(list(ex.grades), k=ex.k, gain=other)
    b2 = nc.ndcg(list(ex.other), k=ex.k, gain=other)
    hint = ""
    if not ok and ("A" if a2 > b2 else "B") == choice:
        hint = (f"Ranking {choice} wins under {other} gain, but this exercise uses "
                f"{ex.gain} gain.")
    return Feedback("correct" if ok else "wrong", None if ok else "choice",
                    given={"choice": choice}, expected=expected, hint=hint)


def diagnose(ex: Exercise, step: str, given: dict) -> str:
    """A hint when the wrong value matches a common slip (else an empty string)."""
    g, k, value = list(ex.grades), ex.k, given[step]
    other = "exponential" if ex.gain == "linear" else "linear"
    slips = {
        "dcg": [
            (nc.dcg(g, k=k, gain=other), f"That is DCG@{k} under {other} gain; this "
             f"exercise uses {ex.gain} gain."),
            (nc.dcg(g, gain=ex.gain), f"That is the DCG of the whole list: stop after "
             f"position {k}."),
            (nc.cg(g, k=k, gain=ex.gain), "That is the plain sum of the gains: divide each by "
             "log2(position + 1)."),
            (nc.dcg(g, k=k, gain=ex.gain, discount="ln"), "That uses the natural log: the "
             "discount is log2(position + 1)."),
        ],
        "idcg": [
            (nc.idcg(g, gain=ex.gain), f"That is the ideal of the whole list: cut the ideal "
             f"at k = {k} too."),
            (nc.idcg(g[:k], gain=ex.gain), f"That sorts only your top {k}: sort all items "
             f"of the list high to low, then take the top {k}."),
            (nc.idcg(g, k=k, gain=other), f"That is IDCG@{k} under {other} gain; this "
             f"exercise uses {ex.gain} gain."),
            (nc.dcg(g, k=k, gain=ex.gain), "That is your ranking's DCG: IDCG is the DCG of "
             "the items sorted high to low."),
        ],
        "ndcg": [
            (nc.dcg(g, k=k, gain=ex.gain) / nc.idcg(g, gain=ex.gain),
             f"That divides by the ideal of the whole list: use IDCG@{k}."),
            (nc.idcg(g, k=k, gain=ex.gain) / nc.dcg(g, k=k, gain=ex.gain)
             if nc.dcg(g, k=k, gain=ex.gain) > 0 else math.nan,
             "That is IDCG / DCG: NDCG is DCG divided by IDCG."),
        ],
    }
    for value_of_slip, text in slips[step]:
        if math.isfinite(value_of_slip) and close(value, value_of_slip):
            return text
    if step == "ndcg":
        return f"NDCG@{k} = DCG@{k} / IDCG@{k}: divide your two correct answers."
    return ""


# ------------------------------------------------------------------ what the page says

def report(ex: Exercise, fb: Feedback) -> list[tuple[str, str]]:
    """The feedback as ``(level, markdown)`` lines, level 'error', 'success' or 'info'."""
    k = ex.k
    if fb.status == "invalid":
        names = {s: f"{n}@{k}" for s, n in STEP_NAMES.items()}
        return [("error", f"**{names.get(s, 'Your pick')}**: {escape_markdown(msg)} "
                 "Nothing was "
                 "graded.") for s, msg in fb.errors.items()]
    if ex.kind == "compare":
        e = fb.expected
        out = [("success" if fb.status == "correct" else "error",
                f"{'Right' if fb.status == 'correct' else 'Not this time'}: under {ex.gain} "
                f"gain ranking A scores NDCG@{k} = {fmt(e['A'])} and ranking B {fmt(e['B'])}, "
                f"so **ranking {e['winner']}** wins.")]
    elif fb.status == "correct":
        out = [("success", "All three within ±0.001: " + ", ".join(
            f"{STEP_NAMES[s]}@{k} = {fmt(fb.expected[s])}" for s in STEPS) + ".")]
    else:
        step = fb.wrong_step
        name = f"{STEP_NAMES[step]}@{k}"
        right = [f"{STEP_NAMES[s]}@{k}" for s in STEPS[:STEPS.index(step)]]
        out = [("error", f"**{name} is off**: you typed {fb.given[step]:g}. " + (
            f"{' and '.join(right)} {'is' if len(right) == 1 else 'are'} right; the slip is "
            f"in {name}." if right else "Start with the DCG of your list."))]
    return out + ([("info", fb.hint)] if fb.hint else [])
