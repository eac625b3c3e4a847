"""Check a learner's code for an exercise: run it in the sandbox, compare, name the mistake.

The learner's function runs (in :mod:`lab.code_sandbox`) on the exercise's visible cases,
its hidden cases and its probes, in one run. Every expected value is computed here, in the
app's process, by ``ndcg_core`` (:mod:`lab.code_exercises`); the sandbox only returns
outputs. :func:`check` gives a :class:`Report`: "N of M tests passed" over the visible and
hidden cases, the first failing *visible* case (input, expected, got), whether a hidden one
failed (never its input), and the catalogued mistake whose answers the learner's outputs
reproduce on every probe and visible case, when one does.

:func:`passes` answers "does this solution pass this exercise", for the onboarding path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from lab import code_exercises as X
from lab import code_sandbox as S

__all__ = ["Report", "Failure", "check", "passes", "same", "show_value"]

TOLERANCE = 1e-6


@dataclass(frozen=True)
class Failure:
    args: tuple
    expected: object
    got: dict            # the sandbox's entry: {"value": ...} | {"error": ...} | {"timeout": s}


@dataclass(frozen=True)
class Report:
    exercise: str
    passed: int = 0
    total: int = 0
    first_failure: Failure | None = None   # a visible case
    hidden_failed: int = 0
    mistake: str | None = None
    problem: str | None = None             # the sandbox's (lab.code_sandbox.Outcome.problem)
    detail: str = ""
    printed: str = ""
    seconds: float = 0.0
    errors: list = field(default_factory=list)

    @property
    def all_passed(self) -> bool:
        return self.problem is None and self.total > 0 and self.passed == self.total


def _number(v):
    """A sandbox value as a float, NaN for "no value" (None or NaN); a dict stays a dict."""
    if v is None:
        return math.nan
    if isinstance(v, str):
        return float(v) if v in ("nan", "inf", "-inf") else None
    if isinstance(v, dict):
        return v
    return float(v) if isinstance(v, (int, float)) else None


def same(expected, got: dict) -> bool:
    """Whether the sandbox's entry ``got`` is the value ``expected`` (NaN or None: no value)."""
    if "value" not in got:
        return False
    value = _number(got["value"])
    if isinstance(expected, dict):
        inner = value.get("dict") if isinstance(value, dict) else None
        return (isinstance(inner, dict) and set(inner) == set(expected)
                and all(same(expected[q], {"value": inner[q]}) for q in expected))
    if not isinstance(value, float):
        return False
    want = math.nan if expected is None else float(expected)
    if math.isnan(want) or math.isnan(value):
        return math.isnan(want) and math.isnan(value)
    return abs(want - value) <= TOLERANCE * max(1.0, abs(want))


def show_value(v, limit: int = 300) -> str:
    """A value as the page shows it: numbers to 6 decimals, long inputs cut."""
    if isinstance(v, float):
        return "None (no value)" if math.isnan(v) else f"{v:.6f}"
    if isinstance(v, dict) and set(v) == {"dict"}:
        v = v["dict"]
    if isinstance(v, dict) and set(v) == {"type"}:
        return f"a {v['type']}"
    if isinstance(v, dict):
        v = {q: show_value(x) if isinstance(x, float) else x for q, x in v.items()}
    text = repr(v)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def _mistake(ex, calls, outputs, right) -> str | None:
    """The first of the exercise's mistakes whose answers the outputs reproduce on every
    probe and visible case, where its answers differ from the right ones at least once."""
    for key, wrong in ex.mistakes.items():
        answers = [wrong(*args) for args in calls]
        if not any(not same(a, _as_entry(r)) for a, r in zip(answers, right)):
            continue     # this mistake gives the right answers here: nothing to tell apart
        if all(same(a, out) for a, out in zip(answers, outputs)):
            return key
    return None


def _as_entry(value) -> dict:
    """A value as the sandbox would return it."""
    if isinstance(value, dict):
        return {"value": {"dict": value}}
    return {"value": None if value is None or math.isnan(value) else value}


def check(ex: X.CodeExercise | str, code: str, *, seed: str = "") -> Report:
    """Run ``code`` on the exercise's cases and probes; how it did.

    ``seed`` picks the hidden cases (one per learner: the same seed, the same cases)."""
    ex = X.exercise(ex) if isinstance(ex, str) else ex
    tested = [*ex.visible, *X.hidden_cases(ex, seed)]
    probes = [*ex.visible, *ex.probes]
    calls = [list(a) for a in (*tested, *ex.probes)]
    out = S.run(code, ex.function, calls)
    if out.problem:
        return Report(ex.key, total=len(tested), problem=out.problem, detail=out.detail,
                      printed=out.printed, seconds=out.seconds)
    results = out.outputs
    expected = [ex.right(*a) for a in tested]
    ok = [same(e, r) for e, r in zip(expected, results)]
    first = next((Failure(tuple(a), e, r) for a, e, r, good in
                  zip(ex.visible, expected, results, ok) if not good), None)
    n_visible = len(ex.visible)
    mistake = None
    if not all(ok):
        probe_out = results[:n_visible] + results[len(tested):]
        mistake = _mistake(ex, probes, probe_out, [ex.right(*a) for a in probes])
    errors = sorted({r["error"] for r in results if "error" in r})
    return Report(ex.key, passed=sum(ok), total=len(tested), first_failure=first,
                  hidden_failed=sum(not g for g in ok[n_visible:]), mistake=mistake,
                  printed=out.printed, seconds=out.seconds, errors=errors)


def passes(key: str, code: str, *, seed: str = "") -> bool:
    """Whether ``code`` passes every test of exercise ``key`` (for the onboarding path: store
    the code with the answer as evidence)."""
    return check(key, code, seed=seed).all_passed
