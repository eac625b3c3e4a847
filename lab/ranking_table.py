"""What the ranking table (``ui.ranking_table``) shows and which edits it takes: pure
Python, no Streamlit.

Every figure comes from :mod:`ndcg_core`: the ranking's rows from ``dcg_table``, DCG@k,
IDCG@k and NDCG@k from ``ndcg_parts`` (the IDCG the NDCG divides by), the ideal rows from
``ideal_table`` (with unretrieved judged items, negative grades are left out). The component's
JavaScript only recomputes them while a row is being dragged (and its preview must equal
these, see tests/browser/test_ranking_table.py). Which order to draw after a report is
:func:`lab.table.order_to_draw` (one place for the order rules).
"""

from __future__ import annotations

import dataclasses

import math
import numbers
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import ndcg_core as nc
from lab import rules as R
from lab.gains import BOTH, GAINS
from lab.grades import MAX_ITEMS, MAX_LABEL, check_grade, check_label, last_item, list_full
from lab.i18n import t
from lab.text import fmt_grade

GAIN_CHOICES = {**{name: (name,) for name in GAINS}, "both": BOTH}
# NDCG when IDCG@k <= 0, as the JSON the component reads (NaN is not JSON: null).
ZERO_IDCG = {"zero": 0.0, "one": 1.0, "nan": None}


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


def check_event(event: Any, rows: Sequence[Mapping[str, Any]], *,
                scale: Mapping[str, Any] | None, max_label: int = MAX_LABEL,
                max_rows: int = MAX_ITEMS,
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
            return None, list_full(max_rows, lang=lang), None
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
            return None, last_item(lang=lang), row_id
        return {"action": "remove", "id": row_id}, None, None
    out = {"action": "move", "id": row_id}
    for name in ("from", "to"):
        if isinstance(event.get(name), int) and not isinstance(event.get(name), bool):
            out[name] = event[name]
    return out, None, None


def _floats(values) -> list[float]:
    return [float(v) for v in values]


def _items(rows: Sequence[Mapping[str, Any]],
           unretrieved: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """The ranking's items then the judged unretrieved's, in the order the engine is given them."""
    items = [{"id": row["id"], "label": row["label"], "grade": row["grade"], "retrieved": True}
             for row in rows]
    items += [{"id": f"unretrieved-{i}", "label": str(p.get("label", f"not retrieved {i + 1}")),
               "grade": float(p["grade"]), "retrieved": False}
              for i, p in enumerate(unretrieved or ())]
    return items


def ideal_rows(rows: Sequence[Mapping[str, Any]],
               unretrieved: Sequence[Mapping[str, Any]] | None, *, k: int | None = None,
               gain: str = "linear", rules: R.Rules | None = None) -> list[dict[str, Any]]:
    """The ideal ordering's items, best first, as ``ndcg_core.ideal_table`` orders them.

    Ties keep the ranking's order, then the unretrieved's. Drawn from a judged unretrieved, the ideal
    leaves out items with a negative gain (an ideal ranker would not retrieve them);
    without a unretrieved it is the ranking sorted, negatives last. Every grade must be known.

    >>> [r["label"] for r in ideal_rows([{"id": "a", "label": "A", "grade": 1},
    ...                                  {"id": "b", "label": "B", "grade": 3}],
    ...                                 [{"label": "X", "grade": -1}])]
    ['B', 'A']
    """
    items = _items(rows, unretrieved)
    grades = tuple(it["grade"] for it in items[:len(rows)])
    judged = tuple(it["grade"] for it in items) if unretrieved else None
    return [items[i] for i in _ideal_order(grades, k, gain, judged, rules)]


def _kw(kind: str, rules: R.Rules | None, gain: str, grades: tuple,
        judged: tuple | None) -> dict:
    """ndcg_core's keywords for ``rules`` (None: the engine's defaults, as other lists use
    them): ``kind`` is "parts", "table" or "ideal" (lab.rules)."""
    if rules is None:
        return {"gain": gain}
    every = grades + (judged or ())
    return {"parts": R.engine_options, "table": R.table_options,
            "ideal": R.ideal_options}[kind](rules, gain, every)


@lru_cache(maxsize=1024)
def _ideal_order(grades: tuple, k: int | None, gain: str, judged: tuple | None,
                 rules: R.Rules | None = None) -> tuple[int, ...]:
    """The ideal ordering as indices into the ranking's items then the unretrieved's, as
    ``ndcg_core.ideal_table`` orders them. Cached by the grades in order (ties keep that
    order): a move back to an order seen before skips the engine's table."""
    # each label is the item's index, so its row comes back
    table = nc.ideal_table(list(grades), k=k, **_kw("ideal", rules, gain, grades, judged),
                           labels=[str(i) for i in range(len(grades))],
                           ideal=list(judged) if judged is not None else None,
                           ideal_labels=[str(i) for i in range(len(judged))]
                           if judged is not None else None)
    return tuple(int(i) for i in table["label"])


def table_data(rows: Sequence[Mapping[str, Any]], *, k: int | None, gain: str,
               unretrieved: Sequence[Mapping[str, Any]] | None = None,
               zero_idcg: str = "zero", rules: R.Rules | None = None,
               lang: str = "en", normalised: bool = False) -> dict[str, Any]:
    """Everything the component draws for ``rows`` in this order, from ndcg_core
    (``normalised``: the rows are :func:`normalise_rows`' already).

    ``figures[gain]`` holds the ranking's per-position ``gain, discount,
    contribution, cumulative`` (``ndcg_core.dcg_table``) and ``dcg`` (``ndcg_core.dcg``),
    ``idcg`` and ``ndcg`` (``ndcg_core.ndcg``, with the unretrieved as ``ideal=``);
    ``ideal_figures[gain]`` the same columns for the ideal ordering. When a grade
    is missing or the engine refuses the grades, ``figures`` is None and
    ``problem`` says why. ``rules`` (:class:`lab.rules.Rules`, the playground's mistake
    settings) replace ``zero_idcg`` and the engine's defaults; ``conv`` tells the browser's
    twin (figures.js) and the formula what they are.

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
    if rules is not None:
        zero_idcg = rules.zero
    if zero_idcg not in ZERO_IDCG:
        raise ValueError(f"zero_idcg must be one of {', '.join(map(repr, ZERO_IDCG))}; "
                         f"got {zero_idcg!r}.")
    if not normalised:
        rows = normalise_rows(rows)
    gains = GAIN_CHOICES[gain]
    n = len(rows)
    k_shown = n if k is None else int(k)
    unretrieved = [dict(p) for p in unretrieved] if unretrieved else []
    data: dict[str, Any] = {
        "rows": [{"id": r["id"], "label": r["label"], "grade": r["grade"],
                  "grade_text": fmt_grade(r["grade"])} for r in rows],
        "ideal_rows": [],
        "gains": list(gains), "k": k_shown, "zero": ZERO_IDCG[zero_idcg],
        "has_unretrieved": bool(unretrieved), "figures": None, "ideal_figures": None, "idcg": None,
        "max_gain": {}, "problem": None, "conv": None if rules is None else R.conv(rules),
        "gain_short": {g: GAINS[g].short for g in gains},
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
    judged = grades + tuple(float(p["grade"]) for p in unretrieved) if unretrieved else None
    try:
        ideal = ideal_rows(rows, unretrieved, k=k, rules=rules)
        data["ideal_rows"] = [{"id": r["id"], "label": r["label"], "grade": r["grade"],
                               "grade_text": fmt_grade(r["grade"]),
                               "retrieved": r["retrieved"]} for r in ideal]
        figures, ideal_figures, idcg = {}, {}, {}
        for g in gains:
            both = gain_figures(grades, k, g, judged, zero_idcg, rules)
            figures[g] = both["ranking"]
            idcg[g] = figures[g]["idcg"]
            if ideal:
                ideal_figures[g] = both["ideal"]
            every_gain = figures[g]["gain"] + (ideal_figures[g]["gain"] if ideal else [])
            data["max_gain"][g] = max(abs(x) for x in every_gain)
    except ValueError as exc:
        data["problem"] = str(exc)
        return data
    data.update(figures=figures, ideal_figures=ideal_figures or None, idcg=idcg)
    if rules is not None and rules.discount == "ln":
        # the browser's twin takes ln's NDCG from the log2 sums, as the engine does
        log2 = dataclasses.replace(rules, discount="log2")
        data["idcg_log2"] = {g: _json_number(parts(grades, k, g, judged, zero_idcg, log2).idcg)
                             for g in gains}
    return data


def gain_figures(grades: Sequence[float], k: int | None, gain: str,
                 judged: Sequence[float] | None = None,
                 zero_idcg: str = "zero",
                 rules: R.Rules | None = None) -> dict[str, dict[str, Any]]:
    """One gain's figures as the table draws them: ``"ranking"`` (``gain, discount,
    contribution, cumulative`` per position and ``dcg``, ``idcg``, ``ndcg``: its
    ``figures[gain]``) and ``"ideal"`` (its ``ideal_figures[gain]``). The very dicts
    :func:`table_data` sends (memoised by value), so the playground's charts draw the
    table's and the formula's numbers, not a second computation. Read them, never change
    them. ``rules``: the playground's mistake settings (:mod:`lab.rules`), as in
    :func:`table_data`.

    >>> f = gain_figures([1, 3], 2, "linear")
    >>> f["ranking"]["contribution"][1] == table_data(
    ...     [{"id": "a", "grade": 1}, {"id": "b", "grade": 3}], k=2, gain="linear"
    ... )["figures"]["linear"]["contribution"][1]                       # 3/log2(3)
    True
    >>> round(f["ranking"]["ndcg"], 4), f["ideal"]["contribution"][0]  # 2.8928 / 3.6309
    (0.7967, 3.0)
    """
    grades = tuple(float(g) for g in grades)
    judged = tuple(float(g) for g in judged) if judged else None
    return {"ranking": _ranking_figures(grades, k, gain, judged, zero_idcg, rules),
            "ideal": _ideal_figures(grades, k, gain, judged, rules)}


def formula_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """What the formula under the table writes (ui/ranking_table/formula.js), from the
    table's own ``data`` (:func:`table_data`): the grades in order down to k, the ideal's,
    and DCG@k, IDCG@k and NDCG@k per gain (None while the list cannot be scored). The
    table's preview sends the same fields while a row is held.

    >>> d = table_data([{"id": "a", "label": "A", "grade": 1},
    ...                 {"id": "b", "label": "B", "grade": 3}], k=2, gain="linear")
    >>> f = formula_data(d)
    >>> f["grades"], f["ideal"], round(f["figures"]["linear"]["idcg"], 4)  # 3/1 + 1/log2(3)
    (['1', '3'], ['3', '1'], 3.6309)
    """
    figures = data["figures"]
    return {
        "k": data["k"], "gains": list(data["gains"]), "conv": data.get("conv"),
        "grades": [r["grade_text"] for r in data["rows"]],
        "ideal": [r["grade_text"] for r in data["ideal_rows"]],
        "figures": None if figures is None else {
            g: {name: figures[g][name] for name in ("dcg", "idcg", "ndcg")} for g in figures},
    }


# Cached by what they show (a move revisits orders; the ideal survives every move). The
# dicts are shared between calls: read them, never change them.
def _columns(table) -> dict[str, list[float]]:
    return {"gain": _floats(table["gain"]), "discount": _floats(table["discount"]),
            "contribution": _floats(table["contribution"]),
            "cumulative": _floats(table["cumulative_dcg"])}


@lru_cache(maxsize=1024)
def _table_figures(grades: tuple, k: int | None, gain: str, judged: tuple | None = None,
                   rules: R.Rules | None = None) -> dict[str, list[float]]:
    return _columns(nc.dcg_table(list(grades), k=k, **_kw("table", rules, gain, grades, judged)))


@lru_cache(maxsize=1024)
def _ideal_figures(grades: tuple, k: int | None, gain: str, judged: tuple | None,
                   rules: R.Rules | None = None) -> dict[str, list[float]]:
    """The ideal table's columns, ``ndcg_core.ideal_table``'s (its cumulative DCG at k is
    the IDCG@k the NDCG divides by)."""
    return _columns(nc.ideal_table(list(grades), k=k, **_kw("ideal", rules, gain, grades, judged),
                                   ideal=None if judged is None else list(judged)))


@lru_cache(maxsize=1024)
def parts(grades: tuple, k: int | None, gain: str, judged: tuple | None = None,
          zero_idcg: str = "zero", rules: R.Rules | None = None) -> nc.NDCGParts:
    """DCG@k, IDCG@k (the one the NDCG divides by) and NDCG@k from ``ndcg_core.ndcg_parts``,
    memoised by value: the one computation behind the playground's table, formula and
    checks (a run asks for them in two fragments; a drag back and forth repeats orders).
    ``rules`` (the playground's mistake settings) replace ``zero_idcg``."""
    kw = {"zero_idcg": zero_idcg, **_kw("parts", rules, gain, grades, judged)}
    return nc.ndcg_parts(list(grades), k=k, ideal=None if judged is None else list(judged),
                         **kw)


@lru_cache(maxsize=1024)
def _ranking_figures(grades: tuple, k: int | None, gain: str, judged: tuple | None,
                     zero_idcg: str, rules: R.Rules | None = None) -> dict[str, Any]:
    parts_ = parts(grades, k, gain, judged, zero_idcg, rules)
    return {**_table_figures(grades, k, gain, judged, rules), "dcg": parts_.dcg,
            "idcg": _json_number(parts_.idcg), "ndcg": _json_number(parts_.ndcg)}


def _json_number(x: float) -> float | None:
    return None if isinstance(x, float) and math.isnan(x) else x
