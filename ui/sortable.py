"""A reorderable ranked list built on Streamlit's ``st.components.v2`` API.

Notes on ``st.components.v2`` (Streamlit 1.67), checked against its source:

- The JS default export runs again on every rerun that brings new ``data``, with
  the same ``parentElement``. The cleanup it returns is NOT called between those
  runs (only the last one, on unmount). So listeners are bound once per root
  element (tracked in a WeakMap) and every call redraws from ``data``.
- ``parentElement`` is a ShadowRoot (``isolate_styles=True``, the default):
  focus is read from ``getRootNode().activeElement``; the theme reaches the CSS
  as inherited custom properties (``--st-primary-color``, ``--st-text-color``,
  ``--st-secondary-background-color``, ``--st-border-color``, ...).
- ``html`` is inserted once, before the JS runs, and survives reruns, so the
  aria-live region in it keeps announcing across redraws.
- State lives in the browser: the proto has no field to push a value to the
  component, and the browser resends its last state on every rerun, so writing
  ``st.session_state[key]["order"]`` from Python is overwritten. Python decides
  the order to draw and passes it in ``data``; a report is news only when it
  differs from the last one seen or the transient ``moved`` trigger fired.
- ``on_<name>_change`` callbacks fire per state key and only when its value
  changes: a move that recreates the previously reported order (after the page
  reset the order) changes nothing, so ``on_change`` hangs on the ``moved``
  trigger, which fires once per move. Triggers are ignored inside ``st.form``.
- ``setStateValue`` and ``setTriggerValue`` calls in one tick are sent as one
  rerun. ``default=`` keys need a matching ``on_<key>_change`` callback.
- With ``key=``, the element identity is the key alone: new ``data`` redraws in
  place instead of remounting.
- The JS module is cached by content as a blob URL, so module-level variables
  are shared by every instance; per-instance state sits in a WeakMap.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

_HINT = "Drag a row to move it, or focus a row and press Alt+\u2191 / Alt+\u2193."

_HTML = f"""
<div class="ndcg-sortable" data-testid="ndcg-sortable">
  <div class="ndcg-listwrap">
    <ol class="ndcg-list" role="list" aria-label="Ranked list"></ol>
    <div class="ndcg-indicator" aria-hidden="true"></div>
  </div>
  <p class="ndcg-hint" id="ndcg-hint">{_HINT}</p>
  <div class="ndcg-live" role="status" aria-live="polite" aria-atomic="true"></div>
</div>
"""

_CSS = """
.ndcg-sortable {
  --ndcg-accent: var(--st-primary-color, #ff4b4b);
  --ndcg-card: var(--st-secondary-background-color, rgba(128, 128, 128, 0.08));
  --ndcg-border: var(--st-border-color, rgba(128, 128, 128, 0.35));
  --ndcg-radius: var(--st-base-radius, 0.5rem);
  color: var(--st-text-color);
  font-family: var(--st-font);
  font-size: var(--st-base-font-size, 1rem);
  line-height: 1.4;
}
.ndcg-listwrap { position: relative; }
.ndcg-list {
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 4px;
}
.ndcg-card {
  display: grid;
  grid-template-columns: 10px 2.2em minmax(0, 1fr) minmax(5em, auto) 5.5em;
  align-items: center;
  column-gap: 0.6em;
  box-sizing: border-box;
  padding: 0.35em 0.7em;
  border: 1px solid var(--ndcg-border);
  border-radius: var(--ndcg-radius);
  background: var(--ndcg-card);
}
.ndcg-row {
  cursor: grab;
  user-select: none;
  -webkit-user-select: none;
  touch-action: pan-y;
}
.ndcg-row:hover { border-color: color-mix(in srgb, var(--ndcg-accent) 55%, var(--ndcg-border)); }
.ndcg-row:focus { outline: none; }
.ndcg-row:focus-visible { outline: 2px solid var(--ndcg-accent); outline-offset: 2px; }
.ndcg-grip {
  width: 10px;
  height: 1.1em;
  opacity: 0.45;
  background-image: radial-gradient(currentColor 1.1px, transparent 1.4px);
  background-size: 5px 5px;
  touch-action: none;
}
.ndcg-pos { text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; }
.ndcg-label { overflow-wrap: anywhere; }
.ndcg-grade { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.ndcg-cut:not(:empty) {
  justify-self: end;
  font-size: 0.75em;
  white-space: nowrap;
  padding: 0 0.5em;
  border: 1px dashed currentColor;
  border-radius: 999px;
}
/* 0.7 keeps the faded text at >= 4.5:1 contrast (WCAG AA); 0.55 gave 3.2:1. */
.ndcg-row.is-dimmed { opacity: 0.7; }
/* Cutoff line between position k and k + 1. */
.ndcg-row:not(.is-dimmed) + .ndcg-row.is-dimmed { margin-top: 10px; position: relative; }
.ndcg-row:not(.is-dimmed) + .ndcg-row.is-dimmed::before {
  content: "";
  position: absolute;
  left: 0;
  right: 0;
  top: -9px;
  border-top: 2px dashed var(--ndcg-accent);
}
.ndcg-row.is-dragging { opacity: 0.35; border-style: dashed; }
.ndcg-sortable.is-dragging-active, .ndcg-sortable.is-dragging-active .ndcg-row { cursor: grabbing; }
.ndcg-ghost {
  position: absolute;
  top: 0;
  left: 0;
  right: 0;
  z-index: 2;
  pointer-events: none;
  background: var(--st-background-color, Canvas);
  border-color: var(--ndcg-accent);
  box-shadow: 0 6px 18px rgba(0, 0, 0, 0.25);
}
.ndcg-indicator {
  position: absolute;
  top: 0;
  left: 0;
  right: 0;
  height: 3px;
  margin-top: -1.5px;
  border-radius: 2px;
  background: var(--ndcg-accent);
  z-index: 3;
  pointer-events: none;
  display: none;
}
.ndcg-indicator.is-visible { display: block; }
.ndcg-sortable.is-disabled .ndcg-row { cursor: default; }
.ndcg-sortable.is-disabled .ndcg-grip { visibility: hidden; }
.ndcg-sortable.is-disabled .ndcg-hint { display: none; }
.ndcg-hint { margin: 0.4em 0 0; font-size: 0.8em; opacity: 0.7; }
.ndcg-live {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
"""

_JS = r"""
const INSTANCES = new WeakMap();  // root element -> per-instance state
const THRESHOLD_PX = 5;           // movement before a press becomes a drag
const EDGE_PX = 72;               // auto-scroll zone at the scroll box edges
const MAX_SCROLL_STEP = 18;       // px per frame

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;  // user text: never innerHTML
  return node;
}

function toItem(raw) {
  return {
    id: String(raw && raw.id != null ? raw.id : ""),
    label: String(raw && raw.label != null ? raw.label : ""),
    grade: String(raw && raw.grade != null ? raw.grade : ""),
    dimmed: Boolean(raw && raw.dimmed),
  };
}

function describe(item, pos) {
  return `Position ${pos}: ${item.label}, grade ${item.grade}` + (item.dimmed ? ", beyond k" : "");
}

function makeRow(item, index, total, disabled) {
  const pos = index + 1;
  const row = el("li", "ndcg-row ndcg-card" + (item.dimmed ? " is-dimmed" : ""));
  row.tabIndex = 0;
  row.setAttribute("role", "listitem");
  row.dataset.itemId = item.id;
  row.dataset.position = String(pos);
  row.setAttribute("aria-label", describe(item, pos));
  row.setAttribute("aria-posinset", String(pos));
  row.setAttribute("aria-setsize", String(total));
  if (disabled) row.setAttribute("aria-disabled", "true");
  else row.setAttribute("aria-describedby", "ndcg-hint");
  const grip = el("span", "ndcg-grip");
  grip.setAttribute("aria-hidden", "true");
  row.append(
    grip,
    el("span", "ndcg-pos", String(pos)),
    el("span", "ndcg-label", item.label),
    el("span", "ndcg-grade", "grade " + item.grade),
    el("span", "ndcg-cut", item.dimmed ? "beyond k" : ""),
  );
  return row;
}

function rowById(inst, id) {
  for (const row of inst.list.children) if (row.dataset.itemId === id) return row;
  return null;
}

function rowFromEvent(inst, event) {
  const target = event.target;
  const row = target && target.closest ? target.closest(".ndcg-row") : null;
  return row && row.parentNode === inst.list ? row : null;
}

function activeRowId(inst) {
  const active = inst.root.getRootNode().activeElement;
  if (active && active.parentNode === inst.list && active.classList.contains("ndcg-row")) {
    return active.dataset.itemId;
  }
  return null;
}

function focusIsLost(inst) {
  const rootNode = inst.root.getRootNode();
  if (rootNode !== document && rootNode.activeElement) return false;
  const active = document.activeElement;
  return !active || active === document.body || (rootNode !== document && active === rootNode.host);
}

function render(inst, items) {
  // The old row elements are replaced: remember which one had focus.
  let refocus = activeRowId(inst);
  if (refocus === null && inst.focusId !== null && focusIsLost(inst)) refocus = inst.focusId;
  inst.focusId = null;
  inst.items = items;
  const frag = document.createDocumentFragment();
  for (let i = 0; i < items.length; i++) frag.appendChild(makeRow(items[i], i, items.length, inst.disabled));
  inst.list.replaceChildren(frag);
  inst.root.classList.toggle("is-disabled", inst.disabled);
  if (refocus !== null) {
    const row = rowById(inst, refocus);
    if (row) {
      row.focus({ preventScroll: true });
      row.scrollIntoView({ block: "nearest" });
    }
  }
}

function announce(inst, message) {
  clearTimeout(inst.announceTimer);
  // Clearing first makes screen readers repeat an identical message.
  inst.live.textContent = "";
  inst.announceTimer = setTimeout(() => { inst.live.textContent = message; }, 40);
}

function move(inst, from, to, viaKeyboard) {
  const before = inst.items;
  const items = before.slice();
  const [moved] = items.splice(from, 1);
  items.splice(to, 0, moved);
  // The cutoff is positional: each position keeps its dimmed flag until Python redraws.
  const drawn = items.map((it, i) => (it.dimmed === before[i].dimmed ? it : { ...it, dimmed: before[i].dimmed }));
  render(inst, drawn);  // optimistic: no flicker while the rerun runs
  if (viaKeyboard) inst.focusId = moved.id;
  announce(inst, `${moved.label} moved to position ${to + 1}`);
  inst.setStateValue("order", drawn.map((it) => it.id));
  inst.setTriggerValue("moved", { id: moved.id, from: from + 1, to: to + 1 });
}

function onKeyDown(inst, event) {
  const row = rowFromEvent(inst, event);
  if (!row) return;
  if (event.key === "Escape" && inst.press) {
    event.preventDefault();
    endPress(inst, false);
    return;
  }
  const from = Number(row.dataset.position) - 1;
  const last = inst.items.length - 1;
  if (event.altKey && !event.ctrlKey && !event.metaKey) {
    const targets = { ArrowUp: from - 1, ArrowDown: from + 1, Home: 0, End: last };
    if (!(event.key in targets)) return;
    event.preventDefault();
    if (inst.disabled || inst.press) return;
    const to = Math.max(0, Math.min(last, targets[event.key]));
    if (to === from) {
      announce(inst, `${inst.items[from].label} is already at position ${from + 1}`);
      return;
    }
    move(inst, from, to, true);
    return;
  }
  if (!event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    const sibling = event.key === "ArrowUp" ? row.previousElementSibling
      : event.key === "ArrowDown" ? row.nextElementSibling : null;
    if (sibling) {
      event.preventDefault();
      sibling.focus();
    }
  }
}

function findScrollBox(node) {
  let n = node;
  while (n) {
    if (n instanceof ShadowRoot) { n = n.host; continue; }
    if (n.nodeType === 1 && n !== document.body && n !== document.documentElement) {
      const overflow = getComputedStyle(n).overflowY;
      if (/(auto|scroll|overlay)/.test(overflow) && n.scrollHeight > n.clientHeight) return n;
    }
    n = n.parentNode;
  }
  return document.scrollingElement;
}

function onPointerDown(inst, event) {
  if (inst.disabled || inst.press || !event.isPrimary) return;
  if (event.pointerType === "mouse" && event.button !== 0) return;
  const row = rowFromEvent(inst, event);
  if (!row) return;
  // Touch and pen drags start on the grip only, so the rest of a row still scrolls the page.
  if (event.pointerType !== "mouse" && !event.target.closest(".ndcg-grip")) return;
  inst.press = {
    pointerId: event.pointerId, row, id: row.dataset.itemId,
    from: Number(row.dataset.position) - 1,
    startX: event.clientX, startY: event.clientY, lastY: event.clientY,
    active: false, gap: null, ghost: null, raf: 0, scrollStep: 0,
  };
  try { row.setPointerCapture(event.pointerId); } catch (_) { /* pointer already gone */ }
}

function startDrag(inst, p) {
  p.active = true;
  // Measure once per drag; moves then only compare numbers.
  const rows = Array.from(inst.list.children);
  p.tops = rows.map((r) => r.offsetTop);
  p.bottoms = rows.map((r) => r.offsetTop + r.offsetHeight);
  p.mids = rows.map((r, i) => (p.tops[i] + p.bottoms[i]) / 2);
  p.grabOffset = p.startY - p.row.getBoundingClientRect().top;
  const ghost = el("div", "ndcg-card ndcg-ghost");
  ghost.setAttribute("aria-hidden", "true");
  for (const child of p.row.childNodes) ghost.appendChild(child.cloneNode(true));
  ghost.style.height = `${p.row.offsetHeight}px`;
  p.ghostPos = ghost.querySelector(".ndcg-pos");  // shows the drop position
  p.ghostCut = ghost.querySelector(".ndcg-cut");  // and whether it is beyond k
  inst.wrap.appendChild(ghost);
  p.ghost = ghost;
  p.row.classList.add("is-dragging");
  inst.root.classList.add("is-dragging-active");
  p.scrollBox = findScrollBox(inst.root);
}

function updateDrag(inst, p) {
  const y = p.lastY - inst.wrap.getBoundingClientRect().top;
  p.ghost.style.transform = `translateY(${y - p.grabOffset}px)`;
  let gap = 0;
  while (gap < p.mids.length && p.mids[gap] < y) gap++;
  p.gap = gap;
  const to = gap > p.from ? gap - 1 : gap;
  if (to === p.from) {
    p.ghostPos.textContent = String(p.from + 1);
    p.ghostCut.textContent = inst.items[p.from].dimmed ? "beyond k" : "";
    inst.indicator.classList.remove("is-visible");
    return;
  }
  const n = p.mids.length;
  const lineY = gap === 0 ? p.tops[0] - 2
    : gap >= n ? p.bottoms[n - 1] + 2
    : (p.bottoms[gap - 1] + p.tops[gap]) / 2;
  p.ghostPos.textContent = String(to + 1);
  p.ghostCut.textContent = inst.items[to].dimmed ? "beyond k" : "";
  inst.indicator.style.transform = `translateY(${lineY}px)`;
  inst.indicator.classList.add("is-visible");
}

function autoScroll(inst, p) {
  const box = p.scrollBox;
  if (!box) return;
  const rect = box === document.scrollingElement
    ? { top: 0, bottom: window.innerHeight } : box.getBoundingClientRect();
  const depthTop = rect.top + EDGE_PX - p.lastY;
  const depthBottom = p.lastY - (rect.bottom - EDGE_PX);
  const depth = depthTop > 0 ? -depthTop : depthBottom > 0 ? depthBottom : 0;
  p.scrollStep = Math.round(MAX_SCROLL_STEP * Math.max(-1, Math.min(1, depth / EDGE_PX)));
  if (p.scrollStep === 0 || p.raf) return;
  const tick = () => {
    p.raf = 0;
    if (inst.press !== p || !p.active || p.scrollStep === 0) return;
    box.scrollTop += p.scrollStep;
    updateDrag(inst, p);
    p.raf = requestAnimationFrame(tick);
  };
  p.raf = requestAnimationFrame(tick);
}

function onPointerMove(inst, event) {
  const p = inst.press;
  if (!p || event.pointerId !== p.pointerId) return;
  p.lastY = event.clientY;
  if (!p.active) {
    if (Math.hypot(event.clientX - p.startX, event.clientY - p.startY) < THRESHOLD_PX) return;
    startDrag(inst, p);
  }
  event.preventDefault();
  updateDrag(inst, p);
  autoScroll(inst, p);
}

function endPress(inst, drop) {
  const p = inst.press;
  if (!p) return;
  inst.press = null;
  if (p.raf) cancelAnimationFrame(p.raf);
  try {
    if (p.row.hasPointerCapture(p.pointerId)) p.row.releasePointerCapture(p.pointerId);
  } catch (_) { /* row already gone */ }
  if (p.ghost) p.ghost.remove();
  p.row.classList.remove("is-dragging");
  inst.root.classList.remove("is-dragging-active");
  inst.indicator.classList.remove("is-visible");
  let from = p.from;
  if (inst.pending) {
    // Fresh data arrived mid-drag: draw it, then apply the drop by id.
    const pending = inst.pending;
    inst.pending = null;
    render(inst, pending);
    from = inst.items.findIndex((it) => it.id === p.id);
  }
  if (!drop || !p.active || p.gap === null || from < 0) return;
  const to = Math.max(0, Math.min(inst.items.length - 1, p.gap > p.from ? p.gap - 1 : p.gap));
  if (to !== from) move(inst, from, to, false);
}

function bind(inst) {
  const list = inst.list;
  list.addEventListener("pointerdown", (e) => onPointerDown(inst, e));
  list.addEventListener("pointermove", (e) => onPointerMove(inst, e));
  list.addEventListener("pointerup", (e) => {
    if (inst.press && e.pointerId === inst.press.pointerId) endPress(inst, true);
  });
  const cancel = (e) => {
    if (inst.press && e.pointerId === inst.press.pointerId) endPress(inst, false);
  };
  list.addEventListener("pointercancel", cancel);
  list.addEventListener("lostpointercapture", cancel);
  list.addEventListener("keydown", (e) => onKeyDown(inst, e));
}

function instanceFor(root) {
  let inst = INSTANCES.get(root);
  if (inst) return inst;
  inst = {
    root,
    wrap: root.querySelector(".ndcg-listwrap"),
    list: root.querySelector(".ndcg-list"),
    indicator: root.querySelector(".ndcg-indicator"),
    live: root.querySelector(".ndcg-live"),
    items: [],
    disabled: false,
    press: null,    // pointer held on a row; becomes a drag past the threshold
    pending: null,  // items that arrived during a press, drawn on release
    focusId: null,  // row to refocus if a redraw finds focus lost (keyboard moves)
    announceTimer: 0,
    setStateValue: () => {},
    setTriggerValue: () => {},
  };
  INSTANCES.set(root, inst);
  bind(inst);
  return inst;
}

export default function ndcgSortable({ data, parentElement, setStateValue, setTriggerValue }) {
  const root = parentElement.querySelector(".ndcg-sortable");
  if (!root) throw new Error("ndcg_sortable: component markup is missing");
  const inst = instanceFor(root);
  inst.setStateValue = setStateValue;
  inst.setTriggerValue = setTriggerValue;
  inst.disabled = Boolean(data && data.disabled);
  const items = (data && Array.isArray(data.items) ? data.items : []).map(toItem);
  if (inst.press) inst.pending = items;  // redrawing now would drop the held row
  else render(inst, items);
  return () => endPress(inst, false);
}
"""

_component = st.components.v2.component("ndcg_sortable", html=_HTML, css=_CSS, js=_JS)

# What sortable_list saw and drew last run, per key (see _order_to_draw).
_MEMO_PREFIX = "_ndcg_sortable_memo__"


def _noop() -> None:
    """Declare a state or trigger name to the component; nothing to do."""


def _grade_text(grade: Any) -> str:
    """Format a grade for display: ``3`` and ``3.0`` read "3", ``2.5`` reads "2.5"."""
    if grade is None:
        return "?"
    if isinstance(grade, numbers.Integral) and not isinstance(grade, bool):
        return str(int(grade))
    if isinstance(grade, numbers.Real) and not isinstance(grade, bool):
        value = float(grade)
        return str(int(value)) if value.is_integer() else f"{value:g}"
    return str(grade)


def _normalise(items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for position, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            raise ValueError(
                f"sortable_list items must be dicts; item {position} is "
                f"{type(item).__name__}."
            )
        item_id = item.get("id")
        if not isinstance(item_id, str) or not item_id:
            raise ValueError(
                f"sortable_list item {position} needs a non-empty string 'id'; "
                f"got {item_id!r}."
            )
        if item_id in seen:
            raise ValueError(f"sortable_list item ids must be unique; {item_id!r} repeats.")
        seen.add(item_id)
        label = item.get("label")
        rows.append(
            {
                "id": item_id,
                "label": item_id if label is None else str(label),
                "grade": _grade_text(item.get("grade")),
                "dimmed": bool(item.get("dimmed", False)),
            }
        )
    return rows


def _reconcile(order: Sequence[str], ids: Sequence[str]) -> list[str]:
    """``order`` restricted to ``ids``, then any ``ids`` it lacks, in their given order."""
    known = set(ids)
    out: list[str] = []
    placed: set[str] = set()
    for item_id in order:
        if item_id in known and item_id not in placed:
            out.append(item_id)
            placed.add(item_id)
    out.extend(item_id for item_id in ids if item_id not in placed)
    return out


def _order_to_draw(
    ids: list[str],
    reported: list[str] | None,
    moved: bool,
    memo: Mapping[str, Any] | None,
) -> list[str]:
    """Choose the order to draw from the caller's ``ids`` and the browser's report.

    The browser resends its last report on every rerun, so a report is news
    only when the ``moved`` trigger fired or it differs from last run's. Without
    news: if the caller's order is unchanged, keep what was drawn (a caller
    that only uses the return value does not see its move undone); if the
    caller reordered the same ids, or was in step with the list, draw its order.
    """
    if reported is not None and (moved or memo is None or reported != memo.get("seen")):
        return _reconcile(reported, ids)
    if not memo:
        return list(ids)
    prev_ids = list(memo.get("incoming") or [])
    prev_drawn = list(memo.get("drawn") or [])
    if ids == prev_ids:
        return _reconcile(prev_drawn, ids)
    if prev_drawn == prev_ids or set(ids) == set(prev_ids):
        return list(ids)
    return _reconcile(prev_drawn, ids)


def _read_report(key: str) -> tuple[list[str] | None, bool]:
    """The order the browser last reported for ``key``, and whether a move fired this run."""
    snapshot = st.session_state[key] if key in st.session_state else None
    if not isinstance(snapshot, Mapping):
        return None, False
    order = snapshot.get("order")
    if not isinstance(order, list) or not all(isinstance(i, str) for i in order):
        order = None
    return order, snapshot.get("moved") is not None


def sortable_list(
    items: Sequence[Mapping[str, Any]],
    *,
    key: str,
    on_change: Callable[[], None] | None = None,
    disabled: bool = False,
) -> list[str]:
    """Draw ``items`` as a ranked list the user can reorder; return the order of ids.

    Parameters
    ----------
    items : sequence of dict
        In current order, each ``{"id": str, "label": str, "grade": str or
        number, "dimmed": bool}``. ``id`` is stable and unique; ``label`` is
        shown as plain text (never parsed as HTML). ``dimmed`` marks rows
        beyond the cutoff k; they are faded and tagged "beyond k". The list is
        redrawn from ``items`` on every run, so new labels and grades show at once.
    key : str
        Widget key. The browser's report is ``st.session_state[key]["order"]``.
    on_change : callable, optional
        Called with no arguments, before the script reruns, each time the user
        moves an item (drag or Alt+Arrow). Apply the new order there, from
        ``st.session_state[key]["order"]``, so everything the page computes
        from the order (NDCG, ``dimmed``) agrees within that run.
    disabled : bool
        Show the list without drag or keyboard moves.

    Returns
    -------
    list of str
        The ids in the order drawn: the user's latest move, else the order of
        ``items``. Ids the report lacks are appended; unknown ids are dropped.
        If the user's move has not been applied to ``items`` yet, ``dimmed``
        follows the positions (it marks the cutoff, not an item).

    Raises
    ------
    ValueError
        If an item is not a dict or its ``id`` is missing, not a string, or repeated.

    Examples
    --------
    >>> def apply_order():
    ...     by_id = {it["id"]: it for it in st.session_state.docs}
    ...     new = st.session_state["ranking"]["order"]
    ...     st.session_state.docs = [by_id[i] for i in new if i in by_id]
    >>> order = sortable_list(st.session_state.docs, key="ranking",
    ...                       on_change=apply_order)  # doctest: +SKIP
    """
    rows = _normalise(items)
    ids = [row["id"] for row in rows]
    reported, moved = _read_report(key)
    memo_key = _MEMO_PREFIX + str(key)
    order = _order_to_draw(ids, reported, moved, st.session_state.get(memo_key))
    st.session_state[memo_key] = {"seen": reported, "incoming": ids, "drawn": order}

    by_id = {row["id"]: row for row in rows}
    drawn = [
        {**by_id[item_id], "dimmed": rows[position]["dimmed"]}
        for position, item_id in enumerate(order)
    ]
    _component(
        key=key,
        data={"items": drawn, "disabled": bool(disabled)},
        on_order_change=_noop,
        on_moved_change=on_change if on_change is not None else _noop,
    )
    return order
