"""Every word the ranking table shows or announces, in the page's language: its JavaScript
reads them from ``data["labels"]`` and has no words of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lab import grades
from lab.gains import formula_words
from lab.i18n import t
from lab.text import gain_name

HINT = ("Drag a row (touch: the ⋮⋮ grip, or press and hold). Focused row: Alt+↑/↓, "
        "Alt+Home/End move it; 0–9 sets its grade, Enter edits it, F2 renames, Delete "
        "removes. Click a grade to edit it; double-click an item to rename it.")


def hint_text(lang: str) -> str:
    """The help line under the list (the default ``hint``, :data:`HINT` in English), in
    ``lang``."""
    return t("Drag a row (touch: the ⋮⋮ grip, or press and hold). Focused row: Alt+↑/↓, "
             "Alt+Home/End move it; 0–9 sets its grade, Enter edits it, F2 renames, Delete "
             "removes. Click a grade to edit it; double-click an item to rename it.", lang)


def labels(lang: str, scale: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every word the component shows or announces, in ``lang``: its JavaScript reads them
    from ``data["labels"]`` and has no words of its own. ``{name}``
    placeholders are filled in the browser; one whole sentence per case (the row's spoken
    name with or without figures, past k or not), never pieces put together there.
    ``grade`` holds the refused-grade messages of ``scale``
    (:func:`lab.ranking_table.grade_messages`)."""
    return {
        "your_ranking": t("Your ranking", lang),
        "add_item": t("+ Add item", lang),
        "undo": t("Undo", lang),
        "redo": t("Redo", lang),
        "undo_help": t("Undo the last change (Ctrl+Z, or the browser's Back)", lang),
        "redo_help": t("Redo the change undone (Ctrl+Shift+Z or Ctrl+Y)", lang),
        "ranked_list": t("Ranked list", lang),
        "ideal": t("Ideal ordering", lang),
        "ideal_unretrieved": t("Ideal ordering (ranking + unretrieved)", lang),
        "col_pos_help": t("position i in the list", lang),
        "col_item": t("item", lang),
        "col_grade": t("grade", lang),
        "col_gain": t("gain", lang),
        "col_disc_help": t("discount: the gain at position i is divided by log2(i + 1)", lang),
        "col_contrib": t("contrib.", lang),
        "col_contrib_help": t("contribution = gain / log2(i + 1); the bar is scaled to the "
                              "largest gain", lang),
        "col_cum": t("cum. DCG", lang),
        "col_cum_help": t("cumulative DCG: DCG@i, the sum of the contributions down to this "
                          "row", lang),
        "lin_exp": t("lin · exp", lang),
        **{f"formula_{gain}": words for gain, words in formula_words(lang).items()},
        "gain_linear": gain_name("linear", lang=lang),
        "gain_exponential": gain_name("exponential", lang=lang),
        "note_linear": gain_name("linear", lang=lang, long=True),
        "note_exponential": gain_name("exponential", lang=lang, long=True),
        "caption_two": t("DCG@{k}, IDCG@{k} and NDCG@{k}", lang),
        "caption_linear": t("DCG@{k}, IDCG@{k} and NDCG@{k} (linear gain)", lang),
        "caption_exponential": t("DCG@{k}, IDCG@{k} and NDCG@{k} (exponential gain)", lang),
        "change": t("change: {delta}", lang),
        "drag": t("Drag to move", lang),
        "not_retrieved": t("not retrieved", lang),
        "past": t("(past k: not counted)", lang),
        "grade_button": t("Grade {grade} of {label}: edit", lang),
        "remove": t("Remove {label}", lang),
        "row": t("Position {pos}: {label}, grade {grade}", lang),
        "row_past": t("Position {pos}: {label}, grade {grade}, past k: not counted", lang),
        "row_one": t("Position {pos}: {label}, grade {grade}, contribution {contribution}",
                     lang),
        "row_one_past": t("Position {pos}: {label}, grade {grade}, contribution "
                          "{contribution}, past k: not counted", lang),
        "row_two": t("Position {pos}: {label}, grade {grade}, linear contribution {linear}, "
                     "exponential contribution {exponential}", lang),
        "row_two_past": t("Position {pos}: {label}, grade {grade}, linear contribution "
                          "{linear}, exponential contribution {exponential}, past k: not "
                          "counted", lang),
        "ideal_row": t("Ideal position {pos}: {label}, grade {grade}", lang),
        "ideal_row_past": t("Ideal position {pos}: {label}, grade {grade}, past k", lang),
        "ideal_row_unretrieved": t("Ideal position {pos}: {label}, grade {grade}, not retrieved",
                            lang),
        "ideal_row_unretrieved_past": t("Ideal position {pos}: {label}, grade {grade}, not "
                                 "retrieved, past k", lang),
        "cut": t("k = {k}: rows below are past k, not counted in DCG@{k}", lang),
        "moved": t("{label} moved to position {pos}", lang),
        "moved_ndcg": t("{label} moved to position {pos}; NDCG@{k} {ndcg}", lang),
        "already": t("{label} is already at position {pos}", lang),
        "graded": t("{label}: grade {old} → {new}", lang),
        "renamed": t("{old} renamed to {new}", lang),
        "removed": t("{label} removed", lang),
        "last_item": grades.last_item(lang=lang),
        "unsent": t("Your last change has not reached the server: check the connection. "
                    "It is sent again as soon as the server answers.", lang),
        "session_lost": t("The connection was lost for longer than the server keeps a "
                          "session, so this list is the one in the address bar: your last "
                          "changes are not in it. Make them again.", lang),
        **grades.label_messages(lang=lang),
        "new_grade": t("New grade for {label} ({scale})", lang),
        "new_label": t("New label for {label}", lang),
        "grade": grades.grade_messages(scale, lang=lang),
    }
