"""What the ranking table (``ui.ranking_table``) shows and which edits it takes: pure
Python, no Streamlit.

Every figure comes from :mod:`ndcg_core`: the ranking's rows from ``dcg_table``, DCG@k,
IDCG@k and NDCG@k from ``ndcg_parts`` (the IDCG the NDCG divides by), the ideal rows from
``ideal_table`` (with a judged pool, negative grades are left out). The component's
JavaScript only recomputes them while a row is being dragged (and its preview must equal
these, see tests/browser/test_ranking_table.py). Which order to draw after a report is
:func:`lab.playground.order_to_draw` (one place for the order rules).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import ndcg_core as nc
from lab.i18n import t

GAIN_CHOICES = {
    "linear": ("linear",),
    "exponential": ("exponential",),
    "both": ("linear", "exponential"),
}
# NDCG when IDCG@k <= 0, as the JSON the component reads (NaN is not JSON: null).
ZERO_IDCG = {"zero": 0.0, "one": 1.0, "nan": None}
MAX_LABEL = 80
MAX_ROWS = 200


def grade_text(grade: Any) -> str:
    """A grade as the table writes it: ``3`` and ``3.0`` read "3", ``2.5`` reads "2.5".

    >>> grade_text(3.0), grade_text(2.5), grade_text(None)
    ('3', '2.5', '?')
    """
    if grade is None or (isinstance(grade, float) and math.isnan(grade)):
        return "?"
    value = float(grade)
    return str(int(value)) if value.is_integer() else f"{value:g}"


def normalise_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows as ``{"id": str, "label": str, "grade": float | None}``; ValueError names a bad row."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for position, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise ValueError(
                f"ranking_table rows must be dicts; row {position} is {type(row).__name__}.")
        row_id = row.get("id")
        if not isinstance(row_id, str) or not row_id:
            raise ValueError(
                f"ranking_table row {position} needs a non-empty string 'id'; got {row_id!r}.")
        if row_id in seen:
            raise ValueError(f"ranking_table row ids must be unique; {row_id!r} repeats.")
        seen.add(row_id)
        grade = row.get("grade")
        if grade is not None and (isinstance(grade, bool) or not isinstance(grade, numbers.Real)
                                  or not math.isfinite(grade)):
            raise ValueError(
                f"ranking_table row {position} ({row_id!r}) has grade {grade!r}: give a finite "
                "number, or None for a grade not typed yet.")
        label = row.get("label")
        out.append({"id": row_id, "label": row_id if label is None else str(label),
                    "grade": None if grade is None else float(grade)})
    return out


def scale_of(low=None, high=None, *, integer=False) -> dict[str, Any]:
    """The grade scale the table accepts: ``{"min", "max", "integer"}`` (None: unbounded)."""
    return {"min": low, "max": high, "integer": bool(integer)}


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
    kw = dict(lo=grade_text(lo), hi=grade_text(hi))
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
    kw = dict(lo=grade_text(lo), hi=grade_text(hi), value="{value}", current="{current}",
              low=grade_text(lo if lo is not None else 0),
              high=grade_text(hi if hi is not None else 1))
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
    keep = grade_text(current)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        return messages["not_number"].format(value=repr(str(value)[:20]), current=keep)
    shown = grade_text(value)
    lo = scale.get("min") if scale else None
    hi = scale.get("max") if scale else None
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return messages["outside"].format(value=shown, current=keep)
    if scale and scale.get("integer") and not float(value).is_integer():
        return messages["not_whole"].format(value=shown, current=keep)
    return None


def check_label(label: Any, current: str, *, max_label: int = MAX_LABEL,
                lang: str = "en") -> str | None:
    """None when ``label`` is a usable label, else the message shown at the row."""
    if not isinstance(label, str) or not label.strip():
        return t("A label cannot be empty: type a name. The label stays “{current}”.", lang,
                 current=current)
    if len(label.strip()) > max_label:
        return t("A label has at most {max} characters (this one has {n}). The label stays "
                 "“{current}”.", lang, max=max_label, n=len(label.strip()), current=current)
    return None


def check_event(event: Any, rows: Sequence[Mapping[str, Any]], *,
                scale: Mapping[str, Any] | None, max_label: int = MAX_LABEL,
                max_rows: int = MAX_ROWS,
                lang: str = "en") -> tuple[dict[str, Any] | None, str | None, str | None]:
    """Validate one report from the browser against the rows drawn last.

    Returns ``(event, message, row_id)``: the clean event (or None when refused or
    not an event), the refusal message, and the row it belongs to (None: the table).
    """
    if not isinstance(event, Mapping):
        return None, None, None
    action = event.get("action")
    by_id = {row["id"]: row for row in rows}
    row_id = event.get("id")
    if action == "add":
        if len(rows) >= max_rows:
            return None, t("The list holds at most {max} items: remove one first.", lang,
                           max=max_rows), None
        return {"action": "add"}, None, None
    if action not in ("move", "grade", "rename", "remove"):
        return None, None, None
    if not isinstance(row_id, str) or row_id not in by_id:
        return None, None, None  # a report about a row that is gone: nothing to do
    row = by_id[row_id]
    if action == "grade":
        grade = event.get("grade")
        message = check_grade(grade, scale, row.get("grade"), lang=lang)
        if message:
            return None, message, row_id
        return {"action": "grade", "id": row_id, "grade": float(grade)}, None, None
    if action == "rename":
        message = check_label(event.get("label"), row.get("label", ""), max_label=max_label,
                              lang=lang)
        if message:
            return None, message, row_id
        return {"action": "rename", "id": row_id, "label": event["label"].strip()}, None, None
    if action == "remove":
        if len(rows) <= 1:
            return (None, t("The list needs at least one item: add another before removing "
                            "this one.", lang), row_id)
        return {"action": "remove", "id": row_id}, None, None
    out = {"action": "move", "id": row_id}
    for name in ("from", "to"):
        if isinstance(event.get(name), int) and not isinstance(event.get(name), bool):
            out[name] = event[name]
    return out, None, None


def _floats(values) -> list[float]:
    return [float(v) for v in values]


def _items(rows: Sequence[Mapping[str, Any]],
           pool: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """The ranking's items then the judged pool's, in the order the engine is given them."""
    items = [{"id": row["id"], "label": row["label"], "grade": row["grade"], "retrieved": True}
             for row in rows]
    items += [{"id": f"pool-{i}", "label": str(p.get("label", f"not retrieved {i + 1}")),
               "grade": float(p["grade"]), "retrieved": False}
              for i, p in enumerate(pool or ())]
    return items


def ideal_rows(rows: Sequence[Mapping[str, Any]],
               pool: Sequence[Mapping[str, Any]] | None, *, k: int | None = None,
               gain: str = "linear") -> list[dict[str, Any]]:
    """The ideal ordering's items, best first, as ``ndcg_core.ideal_table`` orders them.

    Ties keep the ranking's order, then the pool's. Drawn from a judged pool, the ideal
    leaves out items with a negative gain (an ideal ranker would not retrieve them);
    without a pool it is the ranking sorted, negatives last. Every grade must be known.

    >>> [r["label"] for r in ideal_rows([{"id": "a", "label": "A", "grade": 1},
    ...                                  {"id": "b", "label": "B", "grade": 3}],
    ...                                 [{"label": "X", "grade": -1}])]
    ['B', 'A']
    """
    items = _items(rows, pool)
    grades = tuple(it["grade"] for it in items[:len(rows)])
    judged = tuple(it["grade"] for it in items) if pool else None
    return [items[i] for i in _ideal_order(grades, k, gain, judged)]


@lru_cache(maxsize=1024)
def _ideal_order(grades: tuple, k: int | None, gain: str,
                 judged: tuple | None) -> tuple[int, ...]:
    """The ideal ordering as indices into the ranking's items then the pool's, as
    ``ndcg_core.ideal_table`` orders them. Cached by the grades in order (ties keep that
    order): a move back to an order seen before skips the engine's table."""
    # each label is the item's index, so its row comes back
    table = nc.ideal_table(list(grades), k=k, gain=gain,
                           labels=[str(i) for i in range(len(grades))],
                           ideal=list(judged) if judged is not None else None,
                           ideal_labels=[str(i) for i in range(len(judged))]
                           if judged is not None else None)
    return tuple(int(i) for i in table["label"])


def table_data(rows: Sequence[Mapping[str, Any]], *, k: int | None, gain: str,
               pool: Sequence[Mapping[str, Any]] | None = None,
               zero_idcg: str = "zero", lang: str = "en") -> dict[str, Any]:
    """Everything the component draws for ``rows`` in this order, from ndcg_core.

    ``figures[gain]`` holds the ranking's per-position ``gain, discount,
    contribution, cumulative`` (``ndcg_core.dcg_table``) and ``dcg`` (``ndcg_core.dcg``),
    ``idcg`` and ``ndcg`` (``ndcg_core.ndcg``, with the pool as ``ideal=``);
    ``ideal_figures[gain]`` the same columns for the ideal ordering. When a grade
    is missing or the engine refuses the grades, ``figures`` is None and
    ``problem`` says why.

    >>> d = table_data([{"id": "a", "label": "A", "grade": 1},
    ...                 {"id": "b", "label": "B", "grade": 3}], k=2, gain="linear")
    >>> round(d["figures"]["linear"]["dcg"], 4)       # 1/1 + 3/log2(3)
    2.8928
    >>> round(d["figures"]["linear"]["ndcg"], 4)      # 2.8928 / (3/1 + 1/log2(3))
    0.7967
    """
    if gain not in GAIN_CHOICES:
        raise ValueError(f"gain must be one of {', '.join(map(repr, GAIN_CHOICES))}; "
                         f"got {gain!r}.")
    if zero_idcg not in ZERO_IDCG:
        raise ValueError(f"zero_idcg must be one of {', '.join(map(repr, ZERO_IDCG))}; "
                         f"got {zero_idcg!r}.")
    rows = normalise_rows(rows)
    gains = GAIN_CHOICES[gain]
    n = len(rows)
    k_shown = n if k is None else int(k)
    pool = [dict(p) for p in pool] if pool else []
    data: dict[str, Any] = {
        "rows": [{"id": r["id"], "label": r["label"], "grade": r["grade"],
                  "grade_text": grade_text(r["grade"])} for r in rows],
        "ideal_rows": [],
        "gains": list(gains), "k": k_shown, "zero": ZERO_IDCG[zero_idcg],
        "has_pool": bool(pool), "figures": None, "ideal_figures": None, "idcg": None,
        "max_gain": {}, "problem": None,
    }
    missing = next((pos for pos, r in enumerate(rows, start=1) if r["grade"] is None), None)
    if n == 0:
        data["problem"] = t("The list is empty: add an item.", lang)
        return data
    if missing is not None:
        data["problem"] = t("{label} (position {position}) has no grade yet: click its grade "
                            "to type one.", lang, label=rows[missing - 1]["label"],
                            position=missing)
        return data
    grades = tuple(r["grade"] for r in rows)
    judged = grades + tuple(float(p["grade"]) for p in pool) if pool else None
    try:
        ideal = ideal_rows(rows, pool, k=k)
        data["ideal_rows"] = [{"id": r["id"], "label": r["label"], "grade": r["grade"],
                               "grade_text": grade_text(r["grade"]),
                               "retrieved": r["retrieved"]} for r in ideal]
        figures, ideal_figures, idcg = {}, {}, {}
        for g in gains:
            figures[g] = _ranking_figures(grades, k, g, judged, zero_idcg)
            idcg[g] = figures[g]["idcg"]
            if ideal:
                ideal_figures[g] = _ideal_figures(grades, k, g, judged)
            every_gain = figures[g]["gain"] + (ideal_figures[g]["gain"] if ideal else [])
            data["max_gain"][g] = max(abs(x) for x in every_gain)
    except ValueError as exc:
        data["problem"] = str(exc)
        return data
    data.update(figures=figures, ideal_figures=ideal_figures or None, idcg=idcg)
    return data


# Cached by what they show (a move revisits orders; the ideal survives every move). The
# dicts are shared between calls: read them, never change them.
def _columns(table) -> dict[str, list[float]]:
    return {"gain": _floats(table["gain"]), "discount": _floats(table["discount"]),
            "contribution": _floats(table["contribution"]),
            "cumulative": _floats(table["cumulative_dcg"])}


@lru_cache(maxsize=1024)
def _table_figures(grades: tuple, k: int | None, gain: str) -> dict[str, list[float]]:
    return _columns(nc.dcg_table(list(grades), k=k, gain=gain))


@lru_cache(maxsize=1024)
def _ideal_figures(grades: tuple, k: int | None, gain: str,
                   judged: tuple | None) -> dict[str, list[float]]:
    """The ideal table's columns, ``ndcg_core.ideal_table``'s (its cumulative DCG at k is
    the IDCG@k the NDCG divides by)."""
    return _columns(nc.ideal_table(list(grades), k=k, gain=gain,
                                   ideal=None if judged is None else list(judged)))


@lru_cache(maxsize=1024)
def _ranking_figures(grades: tuple, k: int | None, gain: str, judged: tuple | None,
                     zero_idcg: str) -> dict[str, Any]:
    parts = nc.ndcg_parts(list(grades), k=k, gain=gain,
                          ideal=None if judged is None else list(judged), zero_idcg=zero_idcg)
    return {**_table_figures(grades, k, gain), "dcg": parts.dcg, "idcg": parts.idcg,
            "ndcg": _json_number(parts.ndcg)}


def _json_number(x: float) -> float | None:
    return None if isinstance(x, float) and math.isnan(x) else x
