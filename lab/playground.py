"""The playground's model: a ranked list of items, its settings, its figures and its link.

Pure Python (no streamlit import) so pages, lessons and tests share one definition of what a
playground is and how it travels in a URL:
``?l=Doc+A&l=Doc+B&g=3,2&k=2&gain=linear&scale=0-3&unretrieved=3,1``, plus the mistake
settings that are not the defaults (``&disc=jarvelin``: :mod:`lab.rules`); k may pass the
list up to the judged items (6 retrieved + 2 unretrieved: k = 8).

Words used the same way everywhere (the settings' box says "Judged but not retrieved"):

- ``unretrieved``: grades of judged items the ranking did not retrieve (the link's
  ``unretrieved=``; links written before it was named so say ``pool=``, still read);
- ``judged``: the ranking's grades plus the unretrieved ones, every judged item the ideal is
  drawn from (the engine's ``ideal=``); None when nothing is unretrieved (the ideal comes
  from the ranking itself).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

import ndcg_core as nc
from lab.documents import RUNNING_EXAMPLE
from lab.i18n import t
from lab.grades import (MAX_ITEMS, MAX_LABEL, SCALES, check_grade, fits_scale, last_item,
                         list_full, lowest_grade, scale_label)
from lab.ranking_table import parts
from lab.rules import RIGHT, Rules, from_params, to_params, PARAMS
from lab.text import fmt_grade

GAINS = ("linear", "exponential", "both")


# Links the app writes stay under this many bytes of query string: Tornado refuses request
# lines over 16 KiB when they arrive in network-sized packets, and 8 KB leaves room
# for the path and for proxies with an 8 KB header limit.
MAX_LINK = 8000

DEFAULT_LABELS = ("Doc A", "Doc B", "Doc C", "Doc D", "Doc E", "Doc F")
DEFAULT_GRADES = RUNNING_EXAMPLE


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
    unretrieved: tuple[float, ...] = ()  # judged but not retrieved grades
    next_id: int = field(default=0)
    rules: Rules = RIGHT  # the mistake settings (lab.rules): the right conventions by default

    @property
    def labels(self) -> tuple:
        return tuple(it.label for it in self.items)

    @property
    def grades(self) -> tuple:
        return tuple(it.grade for it in self.items)

    @property
    def cutoff(self) -> int:
        """k, at most the number of judged items (past the list when some were not
        retrieved: NDCG@8 of 6 items and 2 unretrieved), or the list's length."""
        n = len(self.items)
        return n if self.k is None else max(1, min(self.k, n + len(self.unretrieved)))

    @property
    def judged(self) -> tuple | None:
        """The pool the ideal is drawn from: the ranking plus the unretrieved grades, or None
        when nothing is unretrieved or the settings build the ideal from the ranking alone."""
        if not self.unretrieved or self.rules.ideal == "retrieved":
            return None
        return self.grades + self.unretrieved

    @property
    def gains(self) -> tuple:
        """The gains to show: one, or both side by side."""
        return ("linear", "exponential") if self.gain == "both" else (self.gain,)


def make(labels, grades, *, k=None, gain="linear", scale="0-3", unretrieved=(),
         rules: Rules = RIGHT) -> Playground:
    items = tuple(Item(f"i{i}", str(lab), g) for i, (lab, g) in enumerate(zip(labels, grades)))
    return Playground(items, k, gain, scale, tuple(unretrieved), len(items), rules)


def default() -> Playground:
    return make(DEFAULT_LABELS, DEFAULT_GRADES, k=6)


def missing_grade(state: Playground) -> tuple[str, int] | None:
    """(label, position) of the first item without a grade, or None."""
    for pos, it in enumerate(state.items, start=1):
        if it.grade is None:
            return it.label, pos
    return None


def figures(grades, k: int, gain: str, judged=None, rules: Rules | None = None) -> nc.NDCGParts:
    """DCG@k, IDCG@k and NDCG@k from the engine (the IDCG the NDCG divides by): the
    ranking table's own, :func:`lab.ranking_table.parts` (computed once per value), under
    the mistake settings ``rules`` (None: the engine's defaults)."""
    return parts(tuple(grades), k, gain, tuple(judged) if judged else None, "zero", rules)


# ----------------------------------------------------------------- moves

def reconcile(order, ids) -> list:
    """``order`` restricted to ``ids`` (unknown and repeated ids dropped), then the ``ids`` it
    lacks, in their given order: a reported order can lag one edit behind the items."""
    known, placed, out = set(ids), set(), []
    for i in order:
        if i in known and i not in placed:
            placed.add(i)
            out.append(i)
    return out + [i for i in ids if i not in placed]


def reorder(state: Playground, ids) -> Playground:
    """Put the items in the order of ``ids``: one of theirs (a table's checked move), or
    any list of ids (see :func:`reconcile`)."""
    by_id = {it.id: it for it in state.items}
    ids = list(ids)
    order = ids if len(ids) == len(by_id) and set(ids) == set(by_id) else reconcile(ids, list(by_id))
    return replace(state, items=tuple(by_id[i] for i in order))


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


MOVES = {"ideal": ideal_order, "worst": worst_order, "reverse": reversed_order}


# ----------------------------------------------------------------- edits

def apply_event(state: Playground, event: dict, *, lang: str = "en",
                checked: bool = False) -> Playground:
    """The ranking table's checked event folded into the playground (a new state).

    ``event`` is one of ``{"action": "move", "order": [ids]}``, ``{"action": "grade", "id",
    "grade"}``, ``{"action": "rename", "id", "label"}``, ``{"action": "remove", "id"}``,
    ``{"action": "add"}``. Raises ValueError with the message the row shows when the
    event cannot be applied: a grade the scale cannot take (:func:`lab.grades.check_grade`;
    the old grade stays), removing the last item, adding past :data:`MAX_ITEMS`. A label is
    cleaned by :func:`clean_label`; an added item is "Item N" (N its position) with the scale's
    lowest grade (0 on the free scale), at the end of the ranking. ``checked``: the grade was
    checked already, against the scale the table drew (:func:`lab.table.check`).

    >>> pg = make(["A", "B"], [3, 1])
    >>> apply_event(pg, {"action": "grade", "id": "i1", "grade": 2}).grades
    (3, 2.0)
    >>> apply_event(pg, {"action": "grade", "id": "i1", "grade": 9})
    Traceback (most recent call last):
    ...
    ValueError: 9 is outside the scale: type a whole number from 0 to 3. The grade stays 1.
    """
    action = event.get("action")
    if action == "move":
        return reorder(state, event.get("order") or [])
    if action == "add":
        if len(state.items) >= MAX_ITEMS:
            raise ValueError(list_full(MAX_ITEMS, lang=lang))
        item = Item(f"i{state.next_id}", clean_label(None, len(state.items), lang=lang),
                    lowest_grade(state.scale))
        return replace(state, items=state.items + (item,), next_id=state.next_id + 1)
    index = next((i for i, it in enumerate(state.items) if it.id == event.get("id")), None)
    if index is None:
        return state  # a report about an item that is gone: nothing to do
    item = state.items[index]
    if action == "grade":
        problem = None if checked else check_grade(event.get("grade"), SCALES[state.scale],
                                                   item.grade, lang=lang)
        if problem:
            raise ValueError(problem)
        item = replace(item, grade=float(event["grade"]))
    elif action == "rename":
        item = replace(item, label=clean_label(event.get("label"), index, lang=lang))
    elif action == "remove":
        if len(state.items) <= 1:
            raise ValueError(last_item(lang=lang))
        return replace(state, items=state.items[:index] + state.items[index + 1:])
    else:
        return state
    return replace(state, items=state.items[:index] + (item,) + state.items[index + 1:])


def clean_label(label, row, *, lang: str = "en"):
    """``label`` on one line and at most :data:`MAX_LABEL` long; an empty one is named by
    its row: "Item 3" ("条目 3" in Chinese; a name, so it then travels in links as is)."""
    text = "" if label is None else " ".join(str(label).split())
    return text[:MAX_LABEL] if text else t("Item {n}", lang, n=row + 1)


# ----------------------------------------------------------------- the shareable link

# The link's parameters. "pool" is the unretrieved grades' older name, still in links shared
# before: read (after "unretrieved"), never written; then the mistake settings' (lab.rules).
LINK_PARAMS = ("l", "g", "k", "gain", "scale", "unretrieved", "pool", *PARAMS.values())

_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_numbers(text, what: str | None, *, lang: str = "en") -> list[float]:
    """Numbers separated by commas (``"3, 2, 1"``); ValueError naming the bad token.

    ``what`` is the link's parameter the text came from (``"g"``: the grades,
    ``"unretrieved"`` or the older ``"pool"``: the unretrieved grades), named in the
    message; None for the settings' box of unretrieved grades.

    >>> parse_numbers("3, x", None, lang="zh")
    Traceback (most recent call last):
    ...
    ValueError: 未检索到的等级中有 'x'，它不是数字
    >>> parse_numbers("3, x", "unretrieved")
    Traceback (most recent call last):
    ...
    ValueError: the unretrieved grades (unretrieved) have 'x', which is not a number
    """
    if what not in ("g", "unretrieved", "pool", None):
        raise ValueError(f"what must be 'g', 'unretrieved', 'pool' or None; got {what!r}")
    out = []
    for tok in [x.strip() for x in str(text).split(",") if x.strip()]:
        try:
            v = float(tok)
            bad = None if math.isfinite(v) else "infinite"
        except ValueError:
            bad = "word"
        if bad is None and not _NUMBER.fullmatch(tok):
            bad = "word"  # float() also reads "٣", "３" and "1_000": k's rule, ASCII digits
        if bad:
            kw = dict(token=repr(tok[:40]))
            if what == "g":
                msg = (t("the grades (g) has {token}, which is not a number", lang, **kw)
                       if bad == "word" else
                       t("the grades (g) has {token}, which is not a finite number", lang,
                         **kw))
            elif what is not None:  # the link's parameter, as the link names it
                msg = (t("the unretrieved grades ({param}) have {token}, which is not a "
                         "number", lang, param=what, **kw) if bad == "word" else
                       t("the unretrieved grades ({param}) have {token}, which is not a "
                         "finite number", lang, param=what, **kw))
            else:
                msg = (t("the unretrieved grades have {token}, which is not a number", lang,
                         **kw) if bad == "word" else
                       t("the unretrieved grades have {token}, which is not a finite "
                         "number", lang, **kw))
            raise ValueError(msg)
        out.append(v)
    return out


def ranking_query_params(labels, grades, *, k=None, gain="linear", scale=None,
                         unretrieved=(), rules: Rules = RIGHT) -> dict:
    """Query parameters that open the playground on this ranking (the shareable link)."""
    grades = list(grades)
    if scale is None:
        scale = next((s for s in ("binary", "0-3", "0-4")
                      if fits_scale(grades + list(unretrieved), s)), "free")
    params = {"l": [str(x) for x in labels], "g": ",".join(fmt_grade(g) for g in grades),
              "gain": gain, "scale": scale}
    if k is not None:
        params["k"] = str(int(k))
    if unretrieved:
        params["unretrieved"] = ",".join(fmt_grade(g) for g in unretrieved)
    return {**params, **to_params(rules)}  # only the settings that are not the defaults


def link_size(params: dict) -> int:
    """Bytes of the query string ``params`` make (labels percent-encoded as UTF-8)."""
    return len(urlencode(params, doseq=True))


def within_link_limit(params: dict, limit: int = MAX_LINK, *,
                      lang: str = "en") -> tuple[dict, str | None]:
    """``params`` shortened to fit ``limit`` bytes: labels cut shorter, then dropped (the
    playground names the items "Item 1", ...). Returns the params and what was changed, or
    None when they fit as they are. Grades, k and settings are never changed."""
    if link_size(params) <= limit:
        return params, None
    labels = params.get("l", [])
    for width in (40, 20, 10, 5):
        short = dict(params, l=[lab if len(lab) <= width else lab[:width - 1] + "…"
                                for lab in labels])
        if link_size(short) <= limit:
            return short, t("labels shortened to {width} characters", lang, width=width)
    short = {name: value for name, value in params.items() if name != "l"}
    return short, t("labels left out", lang)


_WHOLE = re.compile(r"[0-9]{1,6}")  # ASCII digits only: int() also reads "²" and "٣"


def from_query_params(get_all, *, lang: str = "en") -> tuple[Playground | None, str | None]:
    """Read a playground from query parameters.

    ``get_all(name)`` returns the list of values of a parameter (``st.query_params.get_all``).
    Returns ``(state, None)``, ``(None, None)`` when the link carries no ranking, or
    ``(None, reason)`` when it is invalid or tampered with. The reason may quote the link's
    text: escape it before showing it.
    """
    def one(name):
        vals = get_all(name)
        return vals[-1] if vals else None

    g = one("g")
    if g is None:
        if any(get_all(n) for n in LINK_PARAMS if n != "g"):
            return None, t("it has labels or settings but no grades (g)", lang)
        return None, None
    try:
        grades = parse_numbers(g, "g", lang=lang)
        if not grades:
            raise ValueError(t("the grades (g) are empty", lang))
        if len(grades) > MAX_ITEMS:
            raise ValueError(t("it has {n} items; the playground holds {max}", lang,
                               n=len(grades), max=MAX_ITEMS))
        labels = get_all("l") or [t("Item {n}", lang, n=i + 1) for i in range(len(grades))]
        if len(labels) != len(grades):
            raise ValueError(t("it has {labels} labels but {grades} grades; they must match "
                               "one to one", lang, labels=len(labels), grades=len(grades)))
        labels = [clean_label(lab, i, lang=lang) for i, lab in enumerate(labels)]
        gain = one("gain") or "linear"
        if gain not in GAINS:
            raise ValueError(t("gain {value} is not one of {choices}", lang,
                               value=repr(gain[:40]), choices=", ".join(GAINS)))
        scale = one("scale") or "free"
        if scale not in SCALES:
            raise ValueError(t("scale {value} is not one of {choices}", lang,
                               value=repr(scale[:40]), choices=", ".join(SCALES)))
        name = "unretrieved" if one("unretrieved") is not None else "pool"
        unretrieved = parse_numbers(one(name) or "", name, lang=lang)
        if len(unretrieved) > MAX_ITEMS:
            raise ValueError(t("it has {n} unretrieved grades; at most {max}", lang,
                               n=len(unretrieved), max=MAX_ITEMS))
        if not fits_scale(grades + unretrieved, scale):
            raise ValueError(t("a grade lies outside the {scale} scale", lang,
                               scale=scale_label(scale, lang=lang)))
        k = one("k")
        if k is not None:
            top = len(grades) + len(unretrieved)  # k past the list counts the unretrieved
            if not _WHOLE.fullmatch(k) or not 1 <= int(k) <= top:
                raise ValueError(t("k = {value} is not a whole number from 1 to {n}", lang,
                                   value=repr(k[:20]) + ("…" if len(k) > 20 else ""), n=top))
            k = int(k)
        rules = from_params(get_all, lang=lang)
    except ValueError as exc:
        return None, str(exc)
    return make(labels, grades, k=k, gain=gain, scale=scale, unretrieved=unretrieved,
                rules=rules), None


def to_query_params(state: Playground) -> dict:
    return ranking_query_params(state.labels, state.grades,
                                k=None if state.k is None else state.cutoff, gain=state.gain,
                                scale=state.scale, unretrieved=state.unretrieved,
                                rules=state.rules)
