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
  inst.seq += 1;  // the server's data says which of this page's moves it has drawn
  report(inst, drawn.map((it) => it.id),
         { id: moved.id, from: from + 1, to: to + 1, instance: inst.instance, seq: inst.seq });
}

// A move is reported as the new order (state) and a "moved" trigger. If the connection is
// down, the trigger is lost and nothing reruns when it comes back: until a run
// says it has drawn this move (data.ack), the report is sent again every few seconds (the
// server applies an order idempotently); after RESEND_FOR_MS the server's order is drawn.
const RESEND_MS = 4000;
const RESEND_FOR_MS = 120000;

function report(inst, order, moved) {
  inst.setStateValue("order", order);
  inst.setTriggerValue("moved", moved);
  clearInterval(inst.resendTimer);
  const since = Date.now();
  inst.resendTimer = setInterval(() => {
    if (Date.now() - since > RESEND_FOR_MS) {
      inst.givenUp = moved.seq;  // unanswered for too long: the next run's order is drawn
      return clearInterval(inst.resendTimer);
    }
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

/** The items to draw from a run's `items`: in the order on screen while a move of this page
 * is unanswered (the run answers an earlier one: a second Alt+↑ pressed before the first
 * one's run came back would be undone on screen, and the next key would move the row from
 * its old place). The grades, labels and the cutoff (by position) are the run's. */
function keepUnanswered(inst, data, items) {
  const ack = (data && data.ack) || {};
  const answered = Math.max(ack.instance === inst.instance ? ack.seq : 0, inst.givenUp || 0);
  inst.unanswered = inst.seq > answered;
  if (!inst.unanswered) return items;
  const byId = new Map(items.map((it) => [it.id, it]));
  if (items.length !== inst.items.length || !inst.items.every((it) => byId.has(it.id))) return items;
  return inst.items.map((it, i) => ({ ...byId.get(it.id), dimmed: items[i].dimmed }));
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
    seq: 0,         // this page's moves, numbered; the server acknowledges the last drawn
    instance: Math.random().toString(36).slice(2),
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
  const items = keepUnanswered(inst, data, (data && Array.isArray(data.items) ? data.items : []).map(toItem));
  if (!inst.unanswered) clearInterval(inst.resendTimer);  // a run has answered: nothing to resend
  if (inst.drag.press) inst.pending = items;  // redrawing now would drop the held row
  else render(inst, items);
  return () => endPress(inst.drag, false);
}
