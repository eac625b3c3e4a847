// The compact ranked list of the lesson pages: rows of position, label and grade, moved by
// the drag every list shares (ui/ranking_table/drag.js: mouse, touch from the grip at once
// or after a hold on the row, Alt+arrows), with aria-live announcements.
// ui/sortable/__init__.py joins dom.js, drag.js and this file into one module.

const INSTANCES = new WeakMap();  // root element -> per-instance state
const CUT_GAP_PX = 10;            // the cutoff line's gap (sortable.css: .is-dimmed margin)

function toItem(raw) {
  return {
    id: String(raw && raw.id != null ? raw.id : ""),
    label: String(raw && raw.label != null ? raw.label : ""),
    grade: String(raw && raw.grade != null ? raw.grade : ""),
    dimmed: Boolean(raw && raw.dimmed),
  };
}

function describe(inst, item, pos) {
  const p = { pos, label: item.label, grade: item.grade };
  return say(inst.labels, item.dimmed ? "row_beyond" : "row", p);
}

function makeRow(inst, item, index, total) {
  const pos = index + 1;
  const row = el("li", "ndcg-row ndcg-card" + (item.dimmed ? " is-dimmed" : ""));
  row.tabIndex = 0;
  row.setAttribute("role", "listitem");
  row.dataset.itemId = item.id;
  row.dataset.position = String(pos);
  row.setAttribute("aria-label", describe(inst, item, pos));
  row.setAttribute("aria-posinset", String(pos));
  row.setAttribute("aria-setsize", String(total));
  if (inst.disabled) row.setAttribute("aria-disabled", "true");
  else row.setAttribute("aria-describedby", "ndcg-hint");
  const grip = el("span", "ndcg-grip");
  grip.setAttribute("aria-hidden", "true");
  row.append(
    grip,
    el("span", "ndcg-pos", String(pos)),
    el("span", "ndcg-label", item.label),
    el("span", "ndcg-grade", say(inst.labels, "grade", { grade: item.grade })),
    el("span", "ndcg-cut", item.dimmed ? say(inst.labels, "beyond") : ""),
  );
  return row;
}

function activeRowId(inst) {
  const active = inst.root.getRootNode().activeElement;
  if (active && active.parentNode === inst.list && active.classList.contains("ndcg-row")) {
    return active.dataset.itemId;
  }
  return null;
}

function render(inst, items) {
  // The old row elements are replaced: remember which one had focus.
  let refocus = activeRowId(inst);
  if (refocus === null && inst.focusId !== null && focusIsLost(inst)) refocus = inst.focusId;
  inst.focusId = null;
  inst.items = items;
  const frag = document.createDocumentFragment();
  for (let i = 0; i < items.length; i++) frag.appendChild(makeRow(inst, items[i], i, items.length));
  inst.list.replaceChildren(frag);
  inst.root.classList.toggle("is-disabled", inst.disabled);
  if (refocus !== null) {
    const row = Array.from(inst.list.children).find((r) => r.dataset.itemId === refocus);
    if (row) {
      row.focus({ preventScroll: true });
      row.scrollIntoView({ block: "nearest" });
    }
  }
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
  announce(inst, say(inst.labels, "moved", { label: moved.label, pos: to + 1 }));
  report(inst, drawn.map((it) => it.id), { id: moved.id, from: from + 1, to: to + 1 });
}

// A move is reported as the new order (state) and a "moved" trigger. If the connection is
// down, the trigger is lost and nothing reruns when it comes back (issue 16): until the
// next data arrives, the report is sent again every few seconds. Any data arriving means a
// run has happened since the move, so the server has it (or had it in flight).
const RESEND_MS = 4000;
const RESEND_FOR_MS = 120000;

function report(inst, order, moved) {
  inst.setStateValue("order", order);
  inst.setTriggerValue("moved", moved);
  clearInterval(inst.resendTimer);
  const since = Date.now();
  inst.resendTimer = setInterval(() => {
    if (Date.now() - since > RESEND_FOR_MS) return clearInterval(inst.resendTimer);
    inst.setStateValue("order", order);
    inst.setTriggerValue("moved", { ...moved, resent: true });
  }, RESEND_MS);
}

/** While a row is held: each row shows the position it would take, and whether that
 * position is past k. */
function dragOver(inst, p, order) {
  order.forEach((i, pos) => {
    const row = p.rows[i];
    row.querySelector(".ndcg-pos").textContent = String(pos + 1);
    row.querySelector(".ndcg-cut").textContent = inst.items[pos].dimmed ? say(inst.labels, "beyond") : "";
  });
}

function dragEnded(inst, p, drop) {
  if (p.active) clearDragStyles(inst.drag, p);
  let from = p.from;
  if (inst.pending) {
    // Fresh data arrived mid-drag: draw it, then apply the drop by id.
    const pending = inst.pending;
    inst.pending = null;
    render(inst, pending);
    from = inst.items.findIndex((it) => it.id === p.id);
  } else if (p.active) {
    render(inst, inst.items);  // the positions shown during the drag go back
  }
  if (!drop || !p.active || p.to === null || from < 0) return;
  const to = Math.max(0, Math.min(inst.items.length - 1, p.to));
  if (to !== from) move(inst, from, to, false);
}

function instanceFor(root) {
  let inst = INSTANCES.get(root);
  if (inst) return inst;
  inst = {
    root,
    list: root.querySelector(".ndcg-list"),
    live: root.querySelector(".ndcg-live"),
    items: [],
    labels: {},
    disabled: false,
    drag: null,
    pending: null,  // items that arrived during a press, drawn on release
    focusId: null,  // row to refocus if a redraw finds focus lost (keyboard moves)
    announceTimer: 0,
    resendTimer: 0, // re-sends the last move's report until a run answers
    setStateValue: () => {},
    setTriggerValue: () => {},
  };
  inst.drag = bindDrag({
    root, list: inst.list, row: ".ndcg-row", grip: ".ndcg-grip",
    disabled: () => inst.disabled,
    busy: () => false,
    cut: () => ({ k: inst.items.filter((it) => !it.dimmed).length, gap: CUT_GAP_PX }),
    start: () => {},
    over: (p, order) => dragOver(inst, p, order),
    end: (p, drop) => dragEnded(inst, p, drop),
    keyMove: (from, to) => move(inst, from, to, true),
    already: (from) => announce(inst, say(inst.labels, "already", { label: inst.items[from].label, pos: from + 1 })),
    key: () => {},
  });
  INSTANCES.set(root, inst);
  return inst;
}

export default function ndcgSortable({ data, parentElement, setStateValue, setTriggerValue }) {
  const root = parentElement.querySelector(".ndcg-sortable");
  if (!root) throw new Error("ndcg_sortable: component markup is missing");
  const inst = instanceFor(root);
  inst.setStateValue = setStateValue;
  inst.setTriggerValue = setTriggerValue;
  inst.disabled = Boolean(data && data.disabled);
  inst.labels = data && data.labels && typeof data.labels === "object" ? data.labels : {};
  const listName = say(inst.labels, "ranked_list");
  if (inst.list.getAttribute("aria-label") !== listName) inst.list.setAttribute("aria-label", listName);
  const hint = root.querySelector(".ndcg-hint");
  const hintText = say(inst.labels, "hint");
  if (hint.textContent !== hintText) hint.textContent = hintText;
  clearInterval(inst.resendTimer);  // a run has answered: nothing left to resend
  const items = (data && Array.isArray(data.items) ? data.items : []).map(toItem);
  if (inst.drag.press) inst.pending = items;  // redrawing now would drop the held row
  else render(inst, items);
  return () => endPress(inst.drag, false);
}
