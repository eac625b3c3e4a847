"""Grades: their scales, how they are written, which ones a list takes, the limits of a
list (labels, items) and the messages that refuse the rest, in both languages. Pure Python;
the ranking table (:mod:`lab.ranking_table`, its JavaScript's ``checkGrade``), the playground
(:mod:`lab.playground`, its settings in ``ui.playground``) and the link reader read them from
here.

A scale is ``{"min": number | None, "max": number | None, "integer": bool}``
(:func:`scale_of`); None is any number. The playground's scales are :data:`SCALES`, by the
name its settings and links use. A grade is written by :func:`lab.text.fmt_grade`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

from lab.i18n import t
from lab.text import fmt_grade

MAX_LABEL = 80   # characters of a label
MAX_ITEMS = 200  # items in a list (add is refused beyond)


def scale_of(low=None, high=None, *, integer=False) -> dict[str, Any]:
    """The grade scale the table accepts: ``{"min", "max", "integer"}`` (None: unbounded)."""
    return {"min": low, "max": high, "integer": bool(integer)}


# The playground's grade scales, by the name its settings and links use (``scale=0-3``): the
# bounded ones take whole numbers only, the free one (None) any finite number.
SCALES: dict[str, dict[str, Any] | None] = {
    "0-3": scale_of(0, 3, integer=True),
    "0-4": scale_of(0, 4, integer=True),
    "binary": scale_of(0, 1, integer=True),
    "free": None,
}


def scale_label(name: str, *, lang: str = "en") -> str:
    """A grade scale's name as the settings and the messages write it.

    >>> scale_label("binary", lang="zh"), scale_label("0-3", lang="zh")
    ('二值（0/1）', '0–3')
    """
    if name == "binary":
        return t("binary (0/1)", lang)
    if name == "free":
        return t("free (any number)", lang)
    scale = SCALES[name]
    return f"{fmt_grade(scale['min'])}–{fmt_grade(scale['max'])}"  # the same in every language


def fits_scale(grades, name: str) -> bool:
    """Whether every grade is given and the named scale takes it (:func:`check_grade`'s rule).

    >>> fits_scale([3, 0, 2], "0-3"), fits_scale([1.5], "0-3"), fits_scale([1.5], "free")
    (True, False, True)
    """
    scale = SCALES[name]
    return all(g is not None and check_grade(g, scale, g) is None for g in grades)


def lowest_grade(name: str) -> float:
    """The grade an added item starts with: the scale's lowest, 0 on the free scale."""
    scale = SCALES[name]
    return float(scale["min"] if scale and scale["min"] is not None else 0)


def _shape(scale: Mapping[str, Any] | None) -> tuple[str, Any, Any]:
    """(shape, low, high) of a scale: "whole" (whole numbers from low to high), "range"
    (any number from low to high), "min" (at least low), "max" (at most high) or "any"."""
    lo = scale.get("min") if scale else None
    hi = scale.get("max") if scale else None
    if lo is not None and hi is not None:
        return ("whole" if scale.get("integer") else "range"), lo, hi
    return ("min" if lo is not None else "max" if hi is not None else "any"), lo, hi


def scale_text(scale: Mapping[str, Any] | None, *, lang: str = "en") -> str:
    """The scale in words, for the grade column's help and the messages (one whole
    message per kind of scale: the words differ in order between languages).

    >>> scale_text(scale_of(0, 3, integer=True))
    'grades: whole numbers from 0 to 3'
    >>> scale_text(scale_of(0, 3, integer=True), lang="zh")
    '等级：0 到 3 之间的整数'
    """
    if not scale:
        return t("grades: any number", lang)
    shape, lo, hi = _shape(scale)
    whole = bool(scale.get("integer"))
    kw = dict(lo=fmt_grade(lo), hi=fmt_grade(hi))
    if shape == "whole":
        return t("grades: whole numbers from {lo} to {hi}", lang, **kw)
    if shape == "range":
        return t("grades: numbers from {lo} to {hi}", lang, **kw)
    if shape == "min":
        return (t("grades: whole numbers of at least {lo}", lang, **kw) if whole
                else t("grades: numbers of at least {lo}", lang, **kw))
    if shape == "max":
        return (t("grades: whole numbers of at most {hi}", lang, **kw) if whole
                else t("grades: numbers of at most {hi}", lang, **kw))
    return t("grades: whole numbers", lang) if whole else t("grades: numbers", lang)


def grade_messages(scale: Mapping[str, Any] | None, *, lang: str = "en") -> dict[str, str]:
    """The messages a refused grade shows on this scale, one whole sentence per case, with
    the scale's bounds filled in and ``{value}`` (the typed text) and ``{current}`` (the
    grade that stays) left for the caller: :func:`check_grade` fills them here, the
    component's JavaScript in the browser (it refuses a grade before sending it).

    Keys: ``not_number`` (this module's words), ``not_number_typed`` (the browser's, with
    an example), ``too_large``, ``outside``, ``not_whole``.

    >>> grade_messages(scale_of(0, 3, integer=True))["outside"]
    '{value} is outside the scale: type a whole number from 0 to 3. The grade stays {current}.'
    """
    shape, lo, hi = _shape(scale)
    # {value} and {current} pass through as placeholders for the caller to fill
    kw = dict(lo=fmt_grade(lo), hi=fmt_grade(hi), value="{value}", current="{current}",
              low=fmt_grade(lo if lo is not None else 0),
              high=fmt_grade(hi if hi is not None else 1))
    if shape == "whole":
        return {
            "not_number": t("{value} is not a number: type a whole number from {lo} to {hi}. "
                            "The grade stays {current}.", lang, **kw),
            "not_number_typed": t("“{value}” is not a number: type a whole number from {lo} "
                                  "to {hi}, such as {low} or {high}. The grade stays "
                                  "{current}.", lang, **kw),
            "too_large": t("{value} is too large: type a whole number from {lo} to {hi}. The "
                           "grade stays {current}.", lang, **kw),
            "outside": t("{value} is outside the scale: type a whole number from {lo} to "
                         "{hi}. The grade stays {current}.", lang, **kw),
            "not_whole": t("{value} is not a whole number: this scale takes a whole number "
                           "from {lo} to {hi}. The grade stays {current}.", lang, **kw),
        }
    if shape == "range":
        return {
            "not_number": t("{value} is not a number: type a number from {lo} to {hi}. The "
                            "grade stays {current}.", lang, **kw),
            "not_number_typed": t("“{value}” is not a number: type a number from {lo} to "
                                  "{hi}, such as {low} or {high}. The grade stays {current}.",
                                  lang, **kw),
            "too_large": t("{value} is too large: type a number from {lo} to {hi}. The grade "
                           "stays {current}.", lang, **kw),
            "outside": t("{value} is outside the scale: type a number from {lo} to {hi}. The "
                         "grade stays {current}.", lang, **kw),
            "not_whole": t("{value} is not a whole number: this scale takes a number from "
                           "{lo} to {hi}. The grade stays {current}.", lang, **kw),
        }
    if shape == "min":
        return {
            "not_number": t("{value} is not a number: type a number of at least {lo}. The "
                            "grade stays {current}.", lang, **kw),
            "not_number_typed": t("“{value}” is not a number: type a number of at least "
                                  "{lo}, such as {low} or {high}. The grade stays {current}.",
                                  lang, **kw),
            "too_large": t("{value} is too large: type a number of at least {lo}. The grade "
                           "stays {current}.", lang, **kw),
            "outside": t("{value} is outside the scale: type a number of at least {lo}. The "
                         "grade stays {current}.", lang, **kw),
            "not_whole": t("{value} is not a whole number: this scale takes a whole number of "
                           "at least {lo}. The grade stays {current}.", lang, **kw),
        }
    if shape == "max":
        return {
            "not_number": t("{value} is not a number: type a number of at most {hi}. The "
                            "grade stays {current}.", lang, **kw),
            "not_number_typed": t("“{value}” is not a number: type a number of at most {hi}, "
                                  "such as {low} or {high}. The grade stays {current}.",
                                  lang, **kw),
            "too_large": t("{value} is too large: type a number of at most {hi}. The grade "
                           "stays {current}.", lang, **kw),
            "outside": t("{value} is outside the scale: type a number of at most {hi}. The "
                         "grade stays {current}.", lang, **kw),
            "not_whole": t("{value} is not a whole number: this scale takes a whole number of "
                           "at most {hi}. The grade stays {current}.", lang, **kw),
        }
    return {
        "not_number": t("{value} is not a number: type a number. The grade stays {current}.",
                        lang, **kw),
        "not_number_typed": t("“{value}” is not a number: type a number, such as {low} or "
                              "{high}. The grade stays {current}.", lang, **kw),
        "too_large": t("{value} is too large: type a number. The grade stays {current}.",
                       lang, **kw),
        "outside": t("{value} is outside the scale: type a number. The grade stays "
                     "{current}.", lang, **kw),
        "not_whole": t("{value} is not a whole number: this scale takes whole numbers. The "
                       "grade stays {current}.", lang, **kw),
    }


def check_grade(value: Any, scale: Mapping[str, Any] | None, current: Any, *,
                lang: str = "en") -> str | None:
    """None when ``value`` is a grade the scale takes, else the message shown at the row.

    The component checks the same rules before it sends anything; this is the
    server's own check (a report can come from anywhere).

    >>> check_grade(9, scale_of(0, 3, integer=True), 2)
    '9 is outside the scale: type a whole number from 0 to 3. The grade stays 2.'
    >>> check_grade(9, scale_of(0, 3, integer=True), 2, lang="zh")
    '9 超出等级范围：请输入 0 到 3 之间的整数。等级保持为 2。'
    >>> check_grade(2, scale_of(0, 3, integer=True), 1) is None
    True
    """
    messages = grade_messages(scale, lang=lang)
    keep = fmt_grade(current)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        return messages["not_number"].format(value=repr(str(value)[:20]), current=keep)
    shown = fmt_grade(value)
    lo = scale.get("min") if scale else None
    hi = scale.get("max") if scale else None
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return messages["outside"].format(value=shown, current=keep)
    if scale and scale.get("integer") and not float(value).is_integer():
        return messages["not_whole"].format(value=shown, current=keep)
    return None


def label_messages(*, lang: str = "en") -> dict[str, str]:
    """The messages a refused label shows, with ``{current}`` (the label that stays), and
    ``{max}`` and ``{n}`` (the limit, the typed length) left for the caller:
    :func:`check_label` fills them here, the component's JavaScript in the browser."""
    return {
        "label_empty": t("A label cannot be empty: type a name. The label stays “{current}”.",
                         lang),
        "label_long": t("A label has at most {max} characters (this one has {n}). The label "
                        "stays “{current}”.", lang),
    }


def check_label(label: Any, current: str, *, max_label: int = MAX_LABEL,
                lang: str = "en") -> str | None:
    """None when ``label`` is a usable label, else the message shown at the row.

    >>> check_label("  ", "Doc A")
    'A label cannot be empty: type a name. The label stays “Doc A”.'
    """
    messages = label_messages(lang=lang)
    if not isinstance(label, str) or not label.strip():
        return messages["label_empty"].format(current=current)
    if len(label.strip()) > max_label:
        return messages["label_long"].format(max=max_label, n=len(label.strip()),
                                             current=current)
    return None


def list_full(max_items: int = MAX_ITEMS, *, lang: str = "en") -> str:
    """The message an item added past the list's limit shows (the one limit on items).

    >>> list_full()
    'The list holds at most 200 items: remove one first.'
    """
    return t("The list holds at most {max} items: remove one first.", lang, max=max_items)


def last_item(*, lang: str = "en") -> str:
    """The message removing a list's last item shows."""
    return t("The list needs at least one item: add another before removing this one.", lang)
