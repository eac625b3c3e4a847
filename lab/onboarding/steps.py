"""The onboarding path: its steps, what each teaches, how long it takes, the lesson page that
teaches it, and the levels a member's events give it.

A step moves from *not started* to *tried* (an answer the app checked and found wrong) to
*done* (evidence the app checked and found right: :mod:`lab.onboarding.checks`); a step that
is done stays done, whatever is sent after. No step is done by a click of its own.

The code exercises (``dcg()`` and ``ndcg()`` written by the member) live on another page:
their step is *coming* while that page's module is not part of this app
(:func:`code_module`), and counts once it is.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from functools import lru_cache

from lab.i18n import t

NOT_STARTED, TRIED, DONE = "not started", "tried", "done"
LEVELS = (NOT_STARTED, TRIED, DONE)
# Where the code exercises' checker would be (the names another page may give it).
CODE_MODULES = ("lab.code_exercises", "lab.code_exercise", "lab.coding")


@dataclass(frozen=True)
class Step:
    id: str
    minutes: int  # a first-time estimate, said on the page
    page: str     # the lesson that teaches it (app.py's page file)


STEPS = (
    Step("ndcg", 10, "pages/start_here.py"),
    Step("drag", 5, "pages/playground.py"),
    Step("flip", 10, "pages/gain.py"),
    Step("cutoff", 10, "pages/cutoffs.py"),
    Step("conventions", 10, "pages/conventions.py"),
    Step("mistakes", 15, "pages/mistakes.py"),
    Step("code", 30, "pages/write_code.py"),
    Step("review", 10, "pages/practice.py"),
    Step("reproduce", 20, "pages/your_data.py"),
)
STEP_IDS = tuple(s.id for s in STEPS)
BY_ID = {s.id: s for s in STEPS}


@lru_cache(maxsize=1)
def code_module():
    """The code exercises' module when this app has one, else None (the step is coming)."""
    for name in CODE_MODULES:
        if importlib.util.find_spec(name) is not None:
            return importlib.import_module(name)
    return None


def available() -> tuple[str, ...]:
    """The steps a member can do on this server, in order (the code step once it exists)."""
    return tuple(s for s in STEP_IDS if s != "code" or code_module() is not None)


def check_step(step_id) -> str:
    """``step_id`` if it names a step, else ValueError naming the steps (a link's value)."""
    if step_id not in BY_ID:
        raise ValueError(f"step must be one of {', '.join(STEP_IDS)}; got {step_id!r}.")
    return step_id


def title(step_id: str, lang: str) -> str:
    return {
        "ndcg": t("CG → DCG → IDCG → NDCG", lang),
        "drag": t("Drag a ranking to a target NDCG", lang),
        "flip": t("Linear vs exponential gain", lang),
        "cutoff": t("Cutoffs", lang),
        "conventions": t("Conventions: which library gives which value", lang),
        "mistakes": t("Common mistakes", lang),
        "code": t("Write it yourself: dcg() and ndcg()", lang),
        "review": t("Review quiz", lang),
        "reproduce": t("Reproduce the team's number", lang),
    }[step_id]


def teaches(step_id: str, lang: str) -> str:
    return {
        "ndcg": t("How a ranking's grades become CG, DCG, IDCG and NDCG. Done when you "
                  "predict a ranking's NDCG@k to within 0.001.", lang),
        "drag": t("How moving one item changes NDCG. Done when your order's NDCG@k is the "
                  "target to within 0.001.", lang),
        "flip": t("Why the gain is a choice: the same two orderings can swap winners. Done "
                  "when you find two orderings whose winner changes with the gain.", lang),
        "cutoff": t("NDCG@k is not monotone in k. Done when you name a k where NDCG@k is "
                    "below NDCG@k−1 and choose why.", lang),
        "conventions": t("Libraries disagree on ties and on queries with nothing relevant. "
                         "Done when you pick the value a named library gives.", lang),
        "mistakes": t("The mistakes real tools shipped. Done when you spot the mistake "
                      "behind a wrong figure three times in a row.", lang),
        "code": t("Write dcg() and ndcg() yourself. Done when the code exercises pass.", lang),
        "review": t("A quiz mixing the earlier steps. Done when all three answers are right "
                    "at once.", lang),
        "reproduce": t("Compute the team's NDCG@10 yourself, with your own code or the "
                       "command line, on the team's files. Done when your mean matches the "
                       "engine's under the team's convention.", lang),
    }[step_id]


def level_name(level: str, lang: str) -> str:
    return {NOT_STARTED: t("not started", lang), TRIED: t("tried", lang),
            DONE: t("done", lang)}[level]


def level_of(verbs) -> str:
    """A step's level from the verbs of its events (``"tried"``, ``"done"``, ...): done
    stays done whatever came after it.

    >>> level_of(["started", "tried", "done", "tried"])
    'done'
    >>> level_of(["started"])
    'not started'
    """
    verbs = set(verbs)
    return DONE if DONE in verbs else TRIED if TRIED in verbs else NOT_STARTED


def progress_line(done: int, total: int, lang: str) -> str:
    """What a member reads of their progress ("N of M steps done")."""
    return t("{n} of {m} steps done", lang, n=done, m=total)
