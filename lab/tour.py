"""The "Start here" lesson as data: the guided tour's steps, the one-relevant-item example and
the shop whose clicks become grades. Rendered by ``pages/start_here.py`` (each step by
``ui/learn.py``); prose in ``assets/lessons/01_start_here.md``.

A guided tour through a fixed example is a list of ``(section, state)`` steps (the pattern of
MLU-Explain's step lists).
"""

from __future__ import annotations

from dataclasses import dataclass

from lab.documents import RUNNING_EXAMPLE, names
from lab.i18n import t
from lab.lessons import heading as section_heading

START = "01_start_here"


@dataclass(frozen=True)
class Step:
    """One stop of the guided tour: the lesson section it shows and the state it computes."""

    section: str
    view: str  # "cg", "dcg", "idcg" or "ndcg"
    grades: tuple
    k: int

    @property
    def labels(self):
        return names("Doc", len(self.grades))


TOUR = (
    Step("step-cg", "cg", RUNNING_EXAMPLE[:5], 5),
    Step("step-dcg", "dcg", RUNNING_EXAMPLE, 6),
    Step("step-idcg", "idcg", RUNNING_EXAMPLE, 6),
    Step("step-ndcg", "ndcg", RUNNING_EXAMPLE, 6),
)


def single_hit(position: int, n: int = 10) -> list:
    """n items, one relevant (grade 1) at ``position``."""
    return [1 if i == position else 0 for i in range(1, n + 1)]


# What shoppers did with six products shown in this order (the grades lesson's example). The
# English words are the keys (what the editor stores and the tests read); the pages show them
# through action_label, mapping_label and product_name.
ACTIONS = ("purchased", "added to cart", "viewed", "ignored")
SHOP = (("Trail running shoes", "viewed"), ("Running socks", "purchased"),
        ("Water bottle", "ignored"), ("Sports watch", "added to cart"),
        ("Headband", "ignored"), ("Gym bag", "purchased"))
MAPPINGS = {
    "0–3: purchased 3 · cart 2 · viewed 1 · ignored 0": (3, 2, 1, 0),
    "0–4: purchased 4 · cart 2 · viewed 1 · ignored 0": (4, 2, 1, 0),
    "binary: purchased 1, anything else 0": (1, 0, 0, 0),
    "binary: any interaction 1, ignored 0": (1, 1, 1, 0),
}


def grades_of(actions, mapping: str) -> list:
    grade = dict(zip(ACTIONS, MAPPINGS[mapping]))
    return [grade[a] for a in actions]


def action_label(action: str, lang: str) -> str:
    """What a shopper did, in ``lang``."""
    return {"purchased": t("purchased", lang), "added to cart": t("added to cart", lang),
            "viewed": t("viewed", lang), "ignored": t("ignored", lang)}[action]


def mapping_label(mapping: str, lang: str) -> str:
    """An action → grade mapping's name in ``lang`` (its grades are the same words' numbers)."""
    return {
        "0–3: purchased 3 · cart 2 · viewed 1 · ignored 0":
            t("0–3: purchased 3 · cart 2 · viewed 1 · ignored 0", lang),
        "0–4: purchased 4 · cart 2 · viewed 1 · ignored 0":
            t("0–4: purchased 4 · cart 2 · viewed 1 · ignored 0", lang),
        "binary: purchased 1, anything else 0": t("binary: purchased 1, anything else 0", lang),
        "binary: any interaction 1, ignored 0": t("binary: any interaction 1, ignored 0", lang),
    }[mapping]


def product_name(product: str, lang: str) -> str:
    """A shop product's name in ``lang``."""
    return {"Trail running shoes": t("Trail running shoes", lang),
            "Running socks": t("Running socks", lang), "Water bottle": t("Water bottle", lang),
            "Sports watch": t("Sports watch", lang), "Headband": t("Headband", lang),
            "Gym bag": t("Gym bag", lang)}[product]


def heading(step: Step, lang: str = "en") -> str:
    """The tour step's heading, as its lesson section names it (in ``lang``)."""
    return section_heading(START, step.section, lang)
