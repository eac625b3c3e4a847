"""The evidence each onboarding step checks: a question drawn from a number (the same number,
the same question), and a check of the member's answer that every figure comes from
``ndcg_core``.

A check returns a :class:`Verdict`: ``right`` (the step is done), ``wrong`` (it was tried)
or ``invalid`` (the answer could not be read: nothing is recorded, the message names the
fix). Its ``evidence`` is what the store keeps: the question's number, the answer as read
and the figures it was checked against, so a lead can see what was shown.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from dataclasses import dataclass, field

import ndcg_core as nc
from lab import exercises as X
from lab import mistakes as M
from lab.i18n import t
from lab.text import fmt, gain_name

RIGHT, WRONG, INVALID = "right", "wrong", "invalid"
STREAK = "streak"  # a right answer on the way to three in a row: the step is tried, not done
REPRODUCE_K = 10
# A reproduced mean is a figure printed to 4 decimals (trec_eval) or 3 (the learner pages):
# half a unit of the third decimal accepts either rounding and nothing further off.
REPRODUCE_TOLERANCE = 0.0005
SPOT_STREAK = 3
_EPS = 1e-9
LETTERS = ("A", "B", "C", "D")
CUTOFF_WHY = ("ideal", "dcg_falls", "always", "own_top")  # "ideal" is right
LIBRARIES = ("trec_eval", "sklearn", "lightgbm")
_GRADES = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class Verdict:
    status: str
    message: str
    evidence: dict = field(default_factory=dict)

    @property
    def right(self) -> bool:
        return self.status == RIGHT

    @property
    def graded(self) -> bool:
        return self.status != INVALID


def _number(n) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"a question number is a whole number ≥ 1; got {n!r}.")
    return n


# ------------------------------------------------------------------ 1. predict NDCG

def ndcg_question(n: int) -> X.Exercise:
    return X.generate(_number(n), "easy", "compute")


def check_ndcg(n: int, typed, lang: str) -> Verdict:
    ex = ndcg_question(n)
    try:
        given = X.parse(typed, lang=lang)
    except ValueError as e:
        return Verdict(INVALID, str(e))
    exact = X.solution(ex)["ndcg"]
    evidence = {"question": ex.id, "answer": given, "expected": round(exact, 6)}
    if X.close(given, exact):
        return Verdict(RIGHT, t("Right: NDCG@{k} = {value}.", lang, k=ex.k, value=fmt(exact)),
                       evidence)
    return Verdict(WRONG, t("Not yet: {given} is more than 0.001 from NDCG@{k}. Work out "
                            "DCG and IDCG first, then divide.", lang, given=fmt(given),
                            k=ex.k), evidence)


# ------------------------------------------------------------------ 2. drag to a target

@dataclass(frozen=True)
class DragQuestion:
    labels: tuple[str, ...]
    grades: tuple[int, ...]
    k: int
    gain: str
    target: float


def drag_question(n: int) -> DragQuestion:
    """A ranking and a target NDCG@k that another order of it reaches (never the start's
    value, never 1)."""
    ex = X.generate(_number(n), "medium", "compute")
    rng = random.Random(f"ndcg-lab/onboarding/drag/{n}")
    start = nc.ndcg(list(ex.grades), k=ex.k, gain=ex.gain)
    order = list(ex.grades)
    for _ in range(200):
        rng.shuffle(order)
        target = nc.ndcg(order, k=ex.k, gain=ex.gain)
        if abs(target - start) > 0.01 and target < 0.99:
            return DragQuestion(ex.labels, ex.grades, ex.k, ex.gain, target)
    return DragQuestion(ex.labels, ex.grades, ex.k, ex.gain, 1.0)  # pragma: no cover


def check_drag(n: int, order, lang: str) -> Verdict:
    """``order``: the question's labels in the member's order."""
    q = drag_question(n)
    order = [str(x) for x in (order or [])]
    if sorted(order) != sorted(q.labels):
        return Verdict(INVALID, t("Arrange the question's items: each once.", lang))
    by_label = dict(zip(q.labels, q.grades))
    value = nc.ndcg([by_label[x] for x in order], k=q.k, gain=q.gain)
    evidence = {"question": n, "order": order, "ndcg": round(value, 6),
                "target": round(q.target, 6)}
    if X.close(value, q.target):
        return Verdict(RIGHT, t("Target met: NDCG@{k} = {value}.", lang, k=q.k,
                                value=fmt(value)), evidence)
    return Verdict(WRONG, t("This order gives NDCG@{k} = {value}; the target is {target}.",
                            lang, k=q.k, value=fmt(value), target=fmt(q.target)), evidence)


# ------------------------------------------------------------------ 3. a flip

def flip_question(n: int) -> X.Exercise:
    """Grades and a cutoff at which some pair of orderings flips (a hard compare exercise
    has one: its two rankings)."""
    return X.generate(_number(n), "medium", "compare")


def read_grades(text, lang: str) -> list[int]:
    parts = [p for p in _GRADES.split(str(text or "").strip()) if p]
    if not parts:
        raise ValueError(t("type an ordering as grades separated by spaces, e.g. 3 2 0 1.",
                           lang))
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ValueError(t("type whole-number grades separated by spaces, e.g. 3 2 0 1.",
                           lang)) from None


def check_flip(n: int, typed_a, typed_b, lang: str) -> Verdict:
    q = flip_question(n)
    try:
        a, b = read_grades(typed_a, lang), read_grades(typed_b, lang)
    except ValueError as e:
        return Verdict(INVALID, str(e))
    want = sorted(q.grades)
    if sorted(a) != want or sorted(b) != want:
        return Verdict(INVALID, t("Each ordering must use exactly these grades, each once: "
                                  "{grades}.", lang, grades=" ".join(map(str, q.grades))))
    values = {name: {g: nc.ndcg(order, k=q.k, gain=g) for g in ("linear", "exponential")}
              for name, order in (("A", a), ("B", b))}
    lin = values["A"]["linear"] - values["B"]["linear"]
    exp = values["A"]["exponential"] - values["B"]["exponential"]
    evidence = {"question": q.id, "a": a, "b": b,
                "ndcg": {x: {g: round(v, 6) for g, v in d.items()} for x, d in values.items()}}
    words = dict(k=q.k, la=fmt(values["A"]["linear"]), lb=fmt(values["B"]["linear"]),
                 ea=fmt(values["A"]["exponential"]), eb=fmt(values["B"]["exponential"]))
    if abs(lin) > _EPS and abs(exp) > _EPS and (lin > 0) != (exp > 0):
        return Verdict(RIGHT, t("A flip: NDCG@{k} linear A {la}, B {lb}; exponential A {ea}, "
                                "B {eb}.", lang, **words), evidence)
    return Verdict(WRONG, t("No flip: NDCG@{k} linear A {la}, B {lb}; exponential A {ea}, "
                            "B {eb}. The winner must change with the gain.", lang, **words),
                   evidence)


# ------------------------------------------------------------------ 4. cutoffs

def cutoff_question(n: int) -> X.Exercise:
    """A ranking (the whole list) whose NDCG@k falls somewhere as k grows."""
    for j in range(500):
        ex = X.generate(7 * (_number(n) - 1) + j + 1, "medium", "compute")
        if falls(ex.grades, ex.gain):
            return ex
    raise RuntimeError("no cutoff question found")  # pragma: no cover


def falls(grades, gain: str) -> list[int]:
    """Every k at which NDCG@k < NDCG@k−1."""
    curve = nc.ndcg_curve(list(grades), gain=gain)["ndcg"].to_numpy()
    return [k for k in range(2, len(curve) + 1) if curve[k - 1] < curve[k - 2] - _EPS]


def cutoff_reasons(lang: str) -> dict[str, str]:
    return {
        "ideal": t("At rank k the ideal ordering adds more gain, in proportion, than this "
                   "ranking does: IDCG grows faster than DCG.", lang),
        "dcg_falls": t("DCG itself falls at rank k.", lang),
        "always": t("NDCG always falls as k grows: later positions count less.", lang),
        "own_top": t("IDCG@k is computed from this ranking's own top k items only.", lang),
    }


def read_k(typed, lang: str) -> int:
    text = str(typed or "").strip()
    if not text.isdigit():
        raise ValueError(t("type k as a whole number, e.g. 4.", lang))
    return int(text)


def check_cutoff(n: int, typed_k, why, lang: str) -> Verdict:
    ex = cutoff_question(n)
    try:
        k = read_k(typed_k, lang)
    except ValueError as e:
        return Verdict(INVALID, str(e))
    if not 2 <= k <= len(ex.grades):
        return Verdict(INVALID, t("k must be between 2 and {n} for this ranking.", lang,
                                  n=len(ex.grades)))
    if why not in CUTOFF_WHY:
        return Verdict(INVALID, t("choose why NDCG fell.", lang))
    curve = nc.ndcg_curve(list(ex.grades), gain=ex.gain)["ndcg"].to_numpy()
    evidence = {"question": ex.id, "k": k, "why": why, "ndcg@k": round(curve[k - 1], 6),
                "ndcg@k-1": round(curve[k - 2], 6)}
    words = dict(k=k, j=k - 1, now=fmt(curve[k - 1]), before=fmt(curve[k - 2]))
    if k not in falls(ex.grades, ex.gain):
        return Verdict(WRONG, t("At k = {k} NDCG does not fall: NDCG@{j} = {before}, "
                                "NDCG@{k} = {now}.", lang, **words), evidence)
    if why != "ideal":
        return Verdict(WRONG, t("Right k (NDCG@{j} = {before}, NDCG@{k} = {now}), but not "
                                "the reason: DCG never falls with grades ≥ 0; the ideal "
                                "gains more at rank {k}.", lang, **words), evidence)
    return Verdict(RIGHT, t("Right: NDCG@{j} = {before}, NDCG@{k} = {now}; the ideal "
                            "gained more at rank {k} than the ranking did.", lang, **words),
                   evidence)


# ------------------------------------------------------------------ 5. conventions

@dataclass(frozen=True)
class ConventionQuestion:
    case: str                  # "ties" or "zero"
    library: str               # the library asked about (a key of ndcg_core.CONVENTIONS)
    grades: tuple[int, ...]
    scores: tuple[float, ...]
    k: int
    options: tuple[float, ...]  # the values offered (nan: left out of the mean)
    answer: str                # the right letter


def _library_value(library: str, grades, scores, k) -> float:
    p = nc.CONVENTIONS[library]
    return nc.ndcg(list(grades), scores=list(scores), docids=[f"d{i + 1}" for i in
                   range(len(grades))], ties=p["ties"], gain=p["gain"],
                   zero_idcg=p["zero_idcg"], k=k)


def conventions_question(n: int) -> ConventionQuestion:
    rng = random.Random(f"ndcg-lab/onboarding/conventions/{_number(n)}")
    library = rng.choice(LIBRARIES)
    if n % 2 == 0:  # a query with nothing relevant
        grades = tuple([0] * rng.randint(3, 5))
        scores = tuple(float(len(grades) - i) for i in range(len(grades)))
        value = _library_value(library, grades, scores, len(grades))
        options = (0.0, 1.0, math.nan)
        return ConventionQuestion("zero", library, grades, scores, len(grades), options,
                                  LETTERS[options.index(value)])
    for _ in range(500):
        size = rng.randint(4, 6)
        grades = tuple(rng.randint(0, 3) for _ in range(size))
        scores = [float(rng.choice((1, 2, 3))) for _ in range(size)]
        scores = tuple(sorted(scores, reverse=True))  # shown ranked: ties sit together
        k = rng.randint(2, size - 1)
        values = [_library_value(lib, grades, scores, k) for lib in LIBRARIES]
        if min(abs(x - y) for i, x in enumerate(values) for y in values[i + 1:]) > 0.01:
            options = list(values)
            rng.shuffle(options)
            options = tuple(options)
            return ConventionQuestion("ties", library, grades, scores, k, options,
                                      LETTERS[options.index(values[LIBRARIES.index(library)])])
    raise RuntimeError("no conventions question found")  # pragma: no cover


def option_text(value: float, lang: str) -> str:
    return t("undefined: the query is left out of the mean", lang) if math.isnan(value) \
        else fmt(value)


def conventions_prompt(q: ConventionQuestion, lang: str) -> str:
    if q.case == "zero":
        return t("A query whose {n} retrieved documents are all graded 0. Which NDCG@{k} "
                 "does {library}'s convention give it?", lang, n=len(q.grades), k=q.k,
                 library=q.library)
    return t("Documents d1…d{n}, in that order, with grades {grades} and scores {scores}: "
             "some scores tie. Which NDCG@{k} does {library}'s convention give ({gain})?",
             lang,
             n=len(q.grades), grades=" ".join(map(str, q.grades)),
             scores=" ".join(fmt(s, 0) if float(s).is_integer() else fmt(s)
                             for s in q.scores), k=q.k, library=q.library,
             gain=gain_name(nc.CONVENTIONS[q.library]["gain"], lang=lang, long=True))


def check_conventions(n: int, letter, lang: str) -> Verdict:
    q = conventions_question(n)
    if letter not in LETTERS[:len(q.options)]:
        return Verdict(INVALID, t("pick one of the values.", lang))
    right = option_text(q.options[LETTERS.index(q.answer)], lang)
    evidence = {"question": n, "case": q.case, "library": q.library, "choice": letter,
                "answer": q.answer}
    if letter == q.answer:
        return Verdict(RIGHT, t("Right: {library} gives {value}.", lang, library=q.library,
                                value=right), evidence)
    return Verdict(WRONG, t("Not this one: {library} gives {value}. The Conventions page "
                            "shows each library's rule side by side.", lang,
                            library=q.library, value=right), evidence)


# ------------------------------------------------------------------ 6. spot the mistake

def spot_question(n: int) -> X.Exercise:
    return X.generate(_number(n), "medium", "spot")


def check_spot(n: int, choice, streak_before: int, lang: str) -> Verdict:
    """One spot answer; ``streak_before``: right answers in a row just before it. The step
    is done (``right``) on the third in a row; a right answer before that is ``streak``
    (the step is tried)."""
    ex = spot_question(n)
    if choice not in ex.options:
        return Verdict(INVALID, t("pick one of the mistakes.", lang))
    ok = choice == ex.mistake
    streak = streak_before + 1 if ok else 0
    evidence = {"question": ex.id, "choice": choice, "answer": ex.mistake, "correct": ok,
                "streak": streak}
    name = M.name(ex.mistake, lang)
    if not ok:
        return Verdict(WRONG, t("Not this one: the figure comes from “{name}”. The streak "
                                "starts again.", lang, name=name), evidence)
    if streak >= SPOT_STREAK:
        return Verdict(RIGHT, t("Right: “{name}”. Three in a row.", lang, name=name),
                       evidence)
    return Verdict(STREAK, t("Right: “{name}”. {n} of 3 in a row: next one.", lang,
                            name=name, n=streak), evidence)


# ------------------------------------------------------------------ 7. write it yourself

CODE_EXERCISES = ("dcg", "ndcg")
MAX_CODE = 20_000  # characters: two functions fit in a few hundred


def code_stub() -> str:
    """Where the member starts: the code exercises' own stubs of dcg() and ndcg()."""
    from lab import code_exercises
    return "\n\n".join(code_exercises.exercise(k).stub().strip() for k in CODE_EXERCISES)


def check_code(code, seed: str, lang: str) -> Verdict:
    """The member's ``dcg()`` and ``ndcg()`` (one piece of code holding both) through the
    code exercises' tests, run in their sandbox (:mod:`lab.code_check`), never here."""
    from lab import code_check
    code = str(code or "")
    if not code.strip():
        return Verdict(INVALID, t("write dcg() and ndcg() in the box first.", lang))
    if len(code) > MAX_CODE:
        return Verdict(INVALID, t("the code is longer than {n} characters: two functions "
                                  "need far fewer.", lang, n=MAX_CODE))
    reports = {k: code_check.check(k, code, seed=seed) for k in CODE_EXERCISES}
    evidence = {"code_sha256": hashlib.sha256(code.encode("utf-8")).hexdigest(),
                "code": code, "seed": seed,
                **{k: {"passed": r.passed, "total": r.total, "problem": r.problem,
                       "mistake": r.mistake} for k, r in reports.items()}}
    words = dict(dp=reports["dcg"].passed, dt=reports["dcg"].total,
                 np=reports["ndcg"].passed, nt=reports["ndcg"].total)
    if all(r.all_passed for r in reports.values()):
        return Verdict(RIGHT, t("Both pass: dcg() {dp} of {dt} tests, ndcg() {np} of {nt}.",
                                lang, **words), evidence)
    return Verdict(WRONG, t("Not yet: dcg() passed {dp} of {dt} tests, ndcg() {np} of {nt}. "
                            "The Write it yourself page shows the first failing case.", lang,
                            **words), evidence)


# ------------------------------------------------------------------ the review quiz

def review_questions(n: int) -> tuple[X.Exercise, X.Exercise, ConventionQuestion]:
    """A predict question, a cutoff question and a conventions question, new numbers."""
    m = 1000 + _number(n)
    return ndcg_question(m), cutoff_question(m), conventions_question(m)


def check_review(n: int, typed_ndcg, typed_k, letter, lang: str) -> Verdict:
    m = 1000 + _number(n)
    parts = [check_ndcg(m, typed_ndcg, lang), _review_k(m, typed_k, lang),
             check_conventions(m, letter, lang)]
    bad = next((p for p in parts if not p.graded), None)
    if bad is not None:
        return Verdict(INVALID, bad.message)
    evidence = {"question": n, "parts": [p.evidence for p in parts],
                "right": [p.right for p in parts]}
    n_right = sum(p.right for p in parts)
    if n_right == len(parts):
        return Verdict(RIGHT, t("All three right.", lang), evidence)
    return Verdict(WRONG, t("{n} of 3 right: {details}", lang, n=n_right,
                            details=" ".join(p.message for p in parts if not p.right)),
                   evidence)


def _review_k(m: int, typed_k, lang: str) -> Verdict:
    """The cutoff part of the review: the k alone (its reason was asked in step 4)."""
    return check_cutoff(m, typed_k, "ideal", lang)


# ------------------------------------------------------------------ 8. the team's number

def team_mean(qrels, run, convention: str) -> float:
    """The engine's mean NDCG@10 of ``run`` under ``convention`` (queries it can score)."""
    scores = nc.evaluate(qrels, run, k=REPRODUCE_K, convention=convention)
    return float(scores[f"ndcg@{REPRODUCE_K}"].mean())


def check_reproduce(qrels, run, typed, convention: str, digests: dict, lang: str) -> Verdict:
    """The member's mean against the engine's; ``digests``: the files' SHA-256 (kept)."""
    try:
        given = X.parse(typed, lang=lang)
    except ValueError as e:
        return Verdict(INVALID, str(e))
    try:
        exact = team_mean(qrels, run, convention)
    except ValueError as e:
        return Verdict(INVALID, str(e))
    evidence = {"mean": given, "engine": round(exact, 6), "convention": convention,
                "k": REPRODUCE_K, **digests}
    if math.isnan(exact):
        return Verdict(INVALID, t("The run shares no scored query with the judgments: "
                                  "check that they are the team's files.", lang))
    if abs(given - exact) <= REPRODUCE_TOLERANCE + _EPS:
        return Verdict(RIGHT, t("Reproduced: mean NDCG@10 = {value} under {convention}.",
                                lang, value=fmt(exact, 4), convention=convention), evidence)
    return Verdict(WRONG, t("Not the team's number: {given} is off by more than 0.0005. "
                            "Check the convention ({convention}) and the cutoff (10).", lang,
                            given=fmt(given, 4), convention=convention), evidence)
