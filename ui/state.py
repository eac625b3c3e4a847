"""The playground's state: a ranked list of items, its settings, and the shareable link.

Pure Python (no streamlit import) so pages, lessons and tests share one definition of what a
playground state is and how it travels in a URL:
``?l=Doc+A&l=Doc+B&g=3,2&k=2&gain=linear&scale=0-3&pool=3,1``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

GAINS = ("linear", "exponential", "both")
# name -> (min, max, step) for the grade column; None = unbounded
SCALES = {
    "0-3": (0, 3, 1),
    "0-4": (0, 4, 1),
    "binary": (0, 1, 1),
    "free": (None, None, None),
}
SCALE_LABELS = {"0-3": "0–3", "0-4": "0–4", "binary": "binary (0/1)", "free": "free (any number)"}
MAX_ITEMS = 200
MAX_LABEL = 80

DEFAULT_LABELS = ("Doc A", "Doc B", "Doc C", "Doc D", "Doc E", "Doc F")
DEFAULT_GRADES = (3, 2, 3, 0, 1, 2)  # document 000's worked example


@dataclass(frozen=True)
class Item:
    id: str
    label: str
    grade: float | None


@dataclass(frozen=True)
class Playground:
    items: tuple[Item, ...]
    k: int | None = None  # None: the whole list
    gain: str = "linear"
    scale: str = "0-3"
    pool: tuple[float, ...] = ()  # judged but not retrieved grades
    next_id: int = field(default=0)

    @property
    def labels(self):
        return [it.label for it in self.items]

    @property
    def grades(self):
        return [it.grade for it in self.items]

    @property
    def cutoff(self) -> int:
        n = len(self.items)
        return n if self.k is None else max(1, min(self.k, n))

    def ideal_pool(self):
        """Grades the ideal is built from: the ranking plus the judged-but-not-retrieved pool,
        or None when there is no pool (the ideal comes from the ranking itself)."""
        return list(self.grades) + list(self.pool) if self.pool else None


def make(labels, grades, *, k=None, gain="linear", scale="0-3", pool=()) -> Playground:
    items = tuple(Item(f"i{i}", str(lab), g) for i, (lab, g) in enumerate(zip(labels, grades)))
    return Playground(items, k, gain, scale, tuple(pool), len(items))


def default() -> Playground:
    return make(DEFAULT_LABELS, DEFAULT_GRADES, k=6)


def fmt_grade(g) -> str:
    if g is None or (isinstance(g, float) and math.isnan(g)):
        return "?"
    return str(int(g)) if float(g).is_integer() else f"{g:g}"


def missing_grade(state: Playground) -> str | None:
    """A learner-facing message for the first item without a grade, or None."""
    for pos, it in enumerate(state.items, start=1):
        if it.grade is None:
            return (f"{it.label} (position {pos}) has no grade: type a number in its grade "
                    "cell.")
    return None


# ----------------------------------------------------------------- moves

def reorder(state: Playground, ids) -> Playground:
    """Put the items in the order of ``ids``. Unknown ids are ignored and items that ``ids``
    lacks keep their relative order after the others (a report can lag one edit behind)."""
    by_id = {it.id: it for it in state.items}
    seen, items = set(), []
    for i in ids:
        if i in by_id and i not in seen:
            seen.add(i)
            items.append(by_id[i])
    items += [it for it in state.items if it.id not in seen]
    return replace(state, items=tuple(items))


def _sort_key(it):
    return -math.inf if it.grade is None else it.grade


def ideal_order(state):
    return replace(state, items=tuple(sorted(state.items, key=_sort_key, reverse=True)))


def worst_order(state):
    return replace(state, items=tuple(sorted(state.items, key=_sort_key)))


def reversed_order(state):
    return replace(state, items=state.items[::-1])


def shuffled(state, seed: int):
    items = list(state.items)
    random.Random(seed).shuffle(items)
    return replace(state, items=tuple(items))


def moved(state, item_id: str, new_position: int):
    """Move one item to a 1-based position."""
    items = [it for it in state.items if it.id != item_id]
    it = next(i for i in state.items if i.id == item_id)
    items.insert(max(0, min(new_position - 1, len(items))), it)
    return replace(state, items=tuple(items))


def editor_items(state: Playground) -> tuple[Item, ...]:
    """The items in the order they were made (the editor's row order). Moving an item in the
    ranking does not move its editor row, so a drag leaves the editor as it was."""
    return tuple(sorted(state.items, key=lambda it: int(it.id[1:])))


def apply_edits(state: Playground, edits: dict) -> Playground:
    """Apply an ``st.data_editor`` delta (edited/added/deleted rows, by row index in
    :func:`editor_items` order) to the items, keeping the ranking's order and the ids.
    Added items join the end of the ranking."""
    rows = [it.id for it in editor_items(state)]
    items = {it.id: dict(id=it.id, label=it.label, grade=it.grade) for it in state.items}
    next_id = state.next_id
    for row, change in (edits.get("edited_rows") or {}).items():
        r = int(row)
        if 0 <= r < len(rows):
            item = items[rows[r]]
            if "label" in change:
                item["label"] = _clean_label(change["label"], r)
            if "grade" in change:
                item["grade"] = _clean_grade(change["grade"])
    deleted = {rows[int(r)] for r in (edits.get("deleted_rows") or []) if 0 <= int(r) < len(rows)}
    ranked = [items[it.id] for it in state.items if it.id not in deleted]
    for added in edits.get("added_rows") or []:
        if len(ranked) >= MAX_ITEMS:
            break
        ranked.append(dict(id=f"i{next_id}", label=_clean_label(added.get("label"), len(ranked)),
                           grade=_clean_grade(added.get("grade", 0))))
        next_id += 1
    return replace(state, items=tuple(Item(**it) for it in ranked), next_id=next_id)


def _clean_label(label, row):
    text = "" if label is None else str(label).strip()
    return text[:MAX_LABEL] if text else f"Item {row + 1}"


def _clean_grade(value):
    if value is None or isinstance(value, bool):
        return None
    try:
        g = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(g) else g


# ----------------------------------------------------------------- the shareable link

def ranking_query_params(labels, grades, *, k=None, gain="linear", scale=None,
                         pool=()) -> dict:
    """Query parameters that open the playground on this ranking (the shareable link)."""
    grades = list(grades)
    if scale is None:
        scale = next((s for s in ("binary", "0-3", "0-4") if _fits(grades + list(pool), s)),
                     "free")
    params = {"l": [str(x) for x in labels], "g": ",".join(fmt_grade(g) for g in grades),
              "gain": gain, "scale": scale}
    if k is not None:
        params["k"] = str(int(k))
    if pool:
        params["pool"] = ",".join(fmt_grade(g) for g in pool)
    return params


def to_query_params(state: Playground) -> dict:
    return ranking_query_params(state.labels, state.grades,
                                k=None if state.k is None else state.cutoff, gain=state.gain,
                                scale=state.scale, pool=state.pool)


def _fits(grades, scale):
    lo, hi, _ = SCALES[scale]
    return all(g is not None and lo <= g <= hi and float(g).is_integer() for g in grades)


def _numbers(text, what):
    out = []
    for tok in [t.strip() for t in str(text).split(",") if t.strip()]:
        try:
            v = float(tok)
        except ValueError:
            raise ValueError(f"{what} has {tok!r}, which is not a number") from None
        if not math.isfinite(v):
            raise ValueError(f"{what} has {tok!r}, which is not a finite number")
        out.append(v)
    return out


def from_query_params(get_all) -> tuple[Playground | None, str | None]:
    """Read a playground from query parameters.

    ``get_all(name)`` returns the list of values of a parameter (``st.query_params.get_all``).
    Returns ``(state, None)``, ``(None, None)`` when the link carries no ranking, or
    ``(None, reason)`` when it is invalid or tampered with.
    """
    def one(name):
        vals = get_all(name)
        return vals[-1] if vals else None

    g = one("g")
    if g is None:
        if any(get_all(n) for n in ("l", "k", "gain", "scale", "pool")):
            return None, "it has labels or settings but no grades (g)"
        return None, None
    try:
        grades = _numbers(g, "the grades (g)")
        if not grades:
            raise ValueError("the grades (g) are empty")
        if len(grades) > MAX_ITEMS:
            raise ValueError(f"it has {len(grades)} items; the playground holds {MAX_ITEMS}")
        labels = get_all("l") or [f"Item {i + 1}" for i in range(len(grades))]
        if len(labels) != len(grades):
            raise ValueError(f"it has {len(labels)} labels but {len(grades)} grades; they "
                             "must match one to one")
        labels = [_clean_label(lab, i) for i, lab in enumerate(labels)]
        gain = one("gain") or "linear"
        if gain not in GAINS:
            raise ValueError(f"gain {gain!r} is not one of {', '.join(GAINS)}")
        scale = one("scale") or "free"
        if scale not in SCALES:
            raise ValueError(f"scale {scale!r} is not one of {', '.join(SCALES)}")
        pool = _numbers(one("pool") or "", "the judged pool (pool)")
        if len(pool) > MAX_ITEMS:
            raise ValueError(f"the judged pool has {len(pool)} grades; at most {MAX_ITEMS}")
        if scale != "free" and not _fits(grades + pool, scale):
            raise ValueError(f"a grade lies outside the {SCALE_LABELS[scale]} scale")
        k = one("k")
        if k is not None:
            if not k.isdigit() or not 1 <= int(k) <= len(grades):
                raise ValueError(f"k = {k!r} is not a whole number from 1 to {len(grades)}")
            k = int(k)
    except ValueError as exc:
        return None, str(exc)
    return make(labels, grades, k=k, gain=gain, scale=scale, pool=pool), None
