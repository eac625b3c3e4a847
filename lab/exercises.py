"""Practice exercises: a seeded generator and a step-by-step checker.

Pure Python (no streamlit import), so the page and the tests share one definition. An
exercise is fully determined by ``(kind, level, number)``: the same number always gives the
same list, cutoff and gain. Exact answers come from ndcg_core.

Three kinds:

* ``compute``: type DCG@k, IDCG@k and NDCG@k of one ranked list; a wrong NDCG@k that is a
  catalogued mistake's number (:mod:`lab.mistakes`) is named before the first wrong step;
* ``compare``: pick which of two orderings of the same items has the higher NDCG@k under a
  given gain (at medium and hard level, a pair whose winner flips with the other gain);
* ``spot``: a wrong NDCG@k is given, pick the mistake that produced it (:mod:`lab.spot`).

What the learner reads (labels, messages, hints, the report) comes in English or Chinese
(``lang=``, :func:`lab.i18n.t`); the checker's verdict and every figure are the same in both.
The report re-words a stored :class:`Feedback` in the language it is drawn in, so a learner
who switches language after a check reads the feedback in the new one.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache

import ndcg_core as nc
from lab import mistakes as M, spot
from lab.i18n import t
from lab.text import escape_markdown, fmt, gain_name

TOLERANCE = 0.001  # absolute, as 07_practice.md states
_EPS = 1e-9        # float slack, so an answer exactly 0.001 away is still accepted
STEPS = ("dcg", "idcg", "ndcg")
STEP_NAMES = {"dcg": "DCG", "idcg": "IDCG", "ndcg": "NDCG"}
KINDS = ("compute", "compare", "spot")
CHOICES = ("A", "B")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class Level:
    lengths: tuple[int, int]    # list length, inclusive range
    max_grade: int              # grades 0..max_grade
    gains: tuple[str, ...]      # drawn from these
    cut: bool                   # False: k is the whole list
    min_k: int = 3


LEVELS = {
    "easy": Level((3, 4), 2, ("linear",), cut=False),
    "medium": Level((5, 6), 3, ("linear", "exponential"), cut=True),
    "hard": Level((7, 9), 4, ("exponential", "linear"), cut=True),
}


# ------------------------------------------------------------------ words

def kind_label(kind: str, *, lang: str = "en") -> str:
    """The exercise kind as the page names it."""
    return {"compute": t("Compute DCG, IDCG and NDCG", lang),
            "compare": t("Which ranking wins?", lang),
            "spot": t("Spot the mistake", lang)}[kind]


def level_name(level: str, *, lang: str = "en") -> str:
    """The difficulty's one-word name: easy, medium, hard."""
    return {"easy": t("easy", lang), "medium": t("medium", lang), "hard": t("hard", lang)}[level]


def level_label(level: str, *, lang: str = "en") -> str:
    """What a difficulty means (the numbers are :data:`LEVELS`')."""
    return {
        "easy": t("3–4 items, grades 0–2, linear gain, k = the whole list", lang),
        "medium": t("5–6 items, grades 0–3, linear or exponential gain, k from 3 to n − 1",
                    lang),
        "hard": t("7–9 items, grades 0–4, either gain, k cuts into the list and the ideal "
                  "needs an item from below k", lang),
    }[level]


def _other(gain: str) -> str:
    return "exponential" if gain == "linear" else "linear"


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
    mistake: str = ""                    # spot: the catalogued mistake behind the figure
    options: tuple[str, ...] = ()        # spot: the mistakes offered, that one among them
    unretrieved: tuple[int, ...] = ()    # spot: judged grades the ranking did not retrieve

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
    typed: dict = field(default_factory=dict)     # step -> the text as typed (re-worded later)
    mistake: str = ""  # the catalogued mistake whose NDCG@k the typed NDCG@k is (lab.mistakes)

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
    make = {"compute": _compute, "compare": _compare, "spot": _spot}[kind]
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


def _spot(rng, spec, kind, level, number):
    return spot.make(rng, spec, _draw, lambda grades, k, gain, **more: Exercise(
        kind, level, number, _labels(len(grades)), grades, k, gain, **more))


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


def parse(text, *, lang: str = "en") -> float:
    """A typed answer as a float, or ValueError with a message for the learner (in
    ``lang``; the typed text is quoted as typed)."""
    typed = "" if text is None else str(text).strip()
    if not typed:
        raise ValueError(t("nothing typed yet: type a number such as 0.972.", lang))
    if re.fullmatch(r"[+-]?\d*,\d+", typed):
        raise ValueError(t("“{typed}” uses a comma: write decimals with a point, e.g. "
                           "{fixed}.", lang, typed=typed, fixed=typed.replace(",", ".")))
    if not _NUMBER.fullmatch(typed):
        raise ValueError(t("“{typed}” is not a number: type digits with a decimal point, "
                           "e.g. 0.972.", lang, typed=typed))
    value = float(typed)
    if not math.isfinite(value):
        raise ValueError(t("“{typed}” is too large: type the value rounded to 3 decimals.",
                           lang, typed=typed))
    return value


def close(given: float, exact: float) -> bool:
    """Within the stated tolerance, ±0.001 absolute."""
    return abs(given - exact) <= TOLERANCE + _EPS


def first_wrong_step(given: dict, expected: dict) -> str | None:
    """The first of DCG, IDCG, NDCG whose answer is off, or None when all are right."""
    return next((s for s in STEPS if not close(given[s], expected[s])), None)


def check(ex: Exercise, answers: dict, *, lang: str = "en") -> Feedback:
    """Check typed answers ``{'dcg': text, 'idcg': text, 'ndcg': text}`` of a compute
    exercise, in order: the first wrong step is reported, with a hint when the value matches
    a common slip."""
    given, errors = {}, {}
    typed = {step: answers.get(step) for step in STEPS}
    for step in STEPS:
        try:
            given[step] = parse(typed[step], lang=lang)
        except ValueError as exc:
            errors[step] = str(exc)
    expected = {s: v for s, v in solution(ex).items() if s in STEPS}
    if errors:
        return Feedback("invalid", errors=errors, given=given, expected=expected, typed=typed)
    step = first_wrong_step(given, expected)
    if step is None:
        return Feedback("correct", given=given, expected=expected, typed=typed)
    named = M.matching(given["ndcg"], list(ex.grades), k=ex.k, gain=ex.gain,
                       tolerance=TOLERANCE)
    return Feedback("wrong", step, given=given, expected=expected,
                    hint=diagnose(ex, step, given, lang=lang), typed=typed,
                    mistake=named[0] if named else "")


def _no_pick(lang: str) -> str:
    return t("pick ranking A or ranking B.", lang)


def check_choice(ex: Exercise, choice, *, lang: str = "en") -> Feedback:
    """Check the pick of a compare exercise ('A' or 'B'), or of a spot exercise (a key of
    ``ex.options``)."""
    if ex.kind == "spot":
        if choice not in ex.options:
            return Feedback("invalid", errors={"choice": spot.no_pick(lang)})
        ok = choice == ex.mistake
        return Feedback("correct" if ok else "wrong", None if ok else "choice",
                        given={"choice": choice}, expected={"choice": ex.mistake})
    sol = solution(ex)
    expected = {"A": sol["A"], "B": sol["B"], "winner": sol["winner"]}
    if choice not in CHOICES:
        return Feedback("invalid", errors={"choice": _no_pick(lang)}, expected=expected)
    ok = choice == sol["winner"]
    return Feedback("correct" if ok else "wrong", None if ok else "choice",
                    given={"choice": choice}, expected=expected,
                    hint="" if ok else _choice_hint(ex, choice, lang))


def _choice_hint(ex: Exercise, choice: str, lang: str) -> str:
    """When the wrong pick wins under the other gain, say so (else an empty string)."""
    other = _other(ex.gain)
    a2 = nc.ndcg(list(ex.grades), k=ex.k, gain=other)
    b2 = nc.ndcg(list(ex.other), k=ex.k, gain=other)
    if ("A" if a2 > b2 else "B") != choice:
        return ""
    return t("Ranking {choice} wins under {other}, but this exercise uses {gain}.", lang,
             choice=choice, other=gain_name(other, lang=lang, long=True),
             gain=gain_name(ex.gain, lang=lang, long=True))


def diagnose(ex: Exercise, step: str, given: dict, *, lang: str = "en") -> str:
    """A hint when the wrong value matches a common slip (else an empty string)."""
    g, k, value = list(ex.grades), ex.k, given[step]
    other = _other(ex.gain)
    gains = {"other": gain_name(other, lang=lang, long=True),
             "gain": gain_name(ex.gain, lang=lang, long=True)}
    slips = {
        "dcg": [
            (nc.dcg(g, k=k, gain=other), t("That is DCG@{k} under {other}; this exercise "
                                           "uses {gain}.", lang, k=k, **gains)),
            (nc.dcg(g, gain=ex.gain), t("That is the DCG of the whole list: stop after "
                                        "position {k}.", lang, k=k)),
            (nc.cg(g, k=k, gain=ex.gain), t("That is the plain sum of the gains: divide each "
                                            "by log2(position + 1).", lang)),
            (nc.dcg(g, k=k, gain=ex.gain, discount="ln"), t("That uses the natural log: the "
                                                            "discount is log2(position + 1).",
                                                            lang)),
        ],
        "idcg": [
            (nc.idcg(g, gain=ex.gain), t("That is the ideal of the whole list: cut the ideal "
                                         "at k = {k} too.", lang, k=k)),
            (nc.idcg(g[:k], gain=ex.gain), t("That sorts only your top {k}: sort all items "
                                             "of the list high to low, then take the top "
                                             "{k}.", lang, k=k)),
            (nc.idcg(g, k=k, gain=other), t("That is IDCG@{k} under {other}; this exercise "
                                            "uses {gain}.", lang, k=k, **gains)),
            (nc.dcg(g, k=k, gain=ex.gain), t("That is your ranking's DCG: IDCG is the DCG of "
                                             "the items sorted high to low.", lang)),
        ],
        "ndcg": [
            (nc.dcg(g, k=k, gain=ex.gain) / nc.idcg(g, gain=ex.gain),
             t("That divides by the ideal of the whole list: use IDCG@{k}.", lang, k=k)),
            (nc.idcg(g, k=k, gain=ex.gain) / nc.dcg(g, k=k, gain=ex.gain)
             if nc.dcg(g, k=k, gain=ex.gain) > 0 else math.nan,
             t("That is IDCG / DCG: NDCG is DCG divided by IDCG.", lang)),
        ],
    }
    for value_of_slip, text in slips[step]:
        if math.isfinite(value_of_slip) and close(value, value_of_slip):
            return text
    if step == "ndcg":
        return t("NDCG@{k} = DCG@{k} / IDCG@{k}: divide your two correct answers.", lang, k=k)
    return ""


# ------------------------------------------------------------------ what the page says

def _errors(ex: Exercise, fb: Feedback, lang: str) -> dict:
    """The unreadable answers' messages in ``lang`` (re-read from the typed text)."""
    out = {}
    for step in fb.errors:
        if step == "choice":
            out[step] = spot.no_pick(lang) if ex.kind == "spot" else _no_pick(lang)
            continue
        try:
            parse(fb.typed.get(step), lang=lang)
        except ValueError as exc:
            out[step] = str(exc)
        else:  # pragma: no cover - a stored error always re-reads as one
            out[step] = fb.errors[step]
    return out


def _hint(ex: Exercise, fb: Feedback, lang: str) -> str:
    if not fb.hint:
        return ""
    if fb.wrong_step == "choice":
        return _choice_hint(ex, fb.given["choice"], lang)
    return diagnose(ex, fb.wrong_step, fb.given, lang=lang)


def report(ex: Exercise, fb: Feedback, *, lang: str = "en") -> list[tuple[str, str]]:
    """The feedback as ``(level, markdown)`` lines, level 'error', 'success' or 'info', in
    ``lang`` (the figures are the same in every language)."""
    k = ex.k
    if fb.status == "invalid":
        names = {s: f"{n}@{k}" for s, n in STEP_NAMES.items()}
        return [("error", t("**{name}**: {message} Nothing was graded.", lang,
                            name=names.get(s) or t("Your pick", lang),
                            message=escape_markdown(msg)))
                for s, msg in _errors(ex, fb, lang).items()]
    if ex.kind == "spot":
        return spot.report(ex, fb, lang)
    if ex.kind == "compare":
        e = fb.expected
        values = dict(gain=gain_name(ex.gain, lang=lang, long=True), k=k, a=fmt(e["A"]),
                      b=fmt(e["B"]), winner=e["winner"])
        if fb.status == "correct":
            out = [("success", t("Right: under {gain} ranking A scores NDCG@{k} = {a} and "
                                 "ranking B {b}, so **ranking {winner}** wins.", lang, **values))]
        else:
            out = [("error", t("Not this time: under {gain} ranking A scores NDCG@{k} = {a} "
                               "and ranking B {b}, so **ranking {winner}** wins.", lang,
                               **values))]
    elif fb.status == "correct":
        x = {s: fmt(fb.expected[s]) for s in STEPS}
        out = [("success", t("All three within ±0.001: DCG@{k} = {dcg}, IDCG@{k} = {idcg}, "
                             "NDCG@{k} = {ndcg}.", lang, k=k, **x))]
    else:
        step = fb.wrong_step
        values = dict(name=f"{STEP_NAMES[step]}@{k}", typed=f"{fb.given[step]:g}", k=k)
        if step == "dcg":
            text = t("**{name} is off**: you typed {typed}. Start with the DCG of your list.",
                     lang, **values)
        elif step == "idcg":
            text = t("**{name} is off**: you typed {typed}. DCG@{k} is right; the slip is in "
                     "{name}.", lang, **values)
        else:
            text = t("**{name} is off**: you typed {typed}. DCG@{k} and IDCG@{k} are right; "
                     "the slip is in {name}.", lang, **values)
        out = [("error", text)]
        if fb.mistake:  # the figure a known mistake gives, named before the first wrong step
            out.insert(0, ("warning", t("Your NDCG@{k}, {typed}, is what a known mistake "
                                        "gives: **{name}**. {what}", lang, k=k,
                                        typed=f"{fb.given['ndcg']:g}",
                                        name=escape_markdown(M.name(fb.mistake, lang)),
                                        what=escape_markdown(M.what(fb.mistake, lang)))))
    hint = _hint(ex, fb, lang)
    return out + ([("info", hint)] if hint else [])
