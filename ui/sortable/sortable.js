// The ranked list's behaviour: pointer drag (mouse and touch), Alt+arrow moves, aria-live
// announcements. Loaded once by ui/sortable/__init__.py and passed to st.components.v2.
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

// Every word shown or announced comes from Python in `data.labels` (translated there,
// lab/i18n.py); the English here is only a fallback. One page draws in one language, so
// the words are kept once for every instance.
let LABELS = {};

/** The template `key` (or `fallback`) with its {name} placeholders filled in one pass. */
function word(key, fallback, params) {
  const template = typeof LABELS[key] === "string" ? LABELS[key] : fallback;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
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
  const p = { pos, label: item.label, grade: item.grade };
  return item.dimmed ? word("row_beyond", "Position {pos}: {label}, grade {grade}, beyond k", p)
    : word("row", "Position {pos}: {label}, grade {grade}", p);
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
    el("span", "ndcg-grade", word("grade", "grade {grade}", { grade: item.grade })),
    el("span", "ndcg-cut", item.dimmed ? word("beyond", "beyond k") : ""),
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
  announce(inst, word("moved", "{label} moved to position {pos}", { label: moved.label, pos: to + 1 }));
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
      announce(inst, word("already", "{label} is already at position {pos}", { label: inst.items[from].label, pos: from + 1 }));
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
    p.ghostCut.textContent = inst.items[p.from].dimmed ? word("beyond", "beyond k") : "";
    inst.indicator.classList.remove("is-visible");
    return;
  }
  const n = p.mids.length;
  const lineY = gap === 0 ? p.tops[0] - 2
    : gap >= n ? p.bottoms[n - 1] + 2
    : (p.bottoms[gap - 1] + p.tops[gap]) / 2;
  p.ghostPos.textContent = String(to + 1);
  p.ghostCut.textContent = inst.items[to].dimmed ? word("beyond", "beyond k") : "";
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
    resendTimer: 0, // re-sends the last move's report until a run answers
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
  LABELS = data && data.labels && typeof data.labels === "object" ? data.labels : {};
  const list = root.querySelector(".ndcg-list");
  const listName = word("ranked_list", "Ranked list");
  if (list && list.getAttribute("aria-label") !== listName) list.setAttribute("aria-label", listName);
  const hint = root.querySelector(".ndcg-hint");
  const hintText = word("hint", "Drag a row to move it, or focus a row and press Alt+↑ / Alt+↓.");
  if (hint && hint.textContent !== hintText) hint.textContent = hintText;
  clearInterval(inst.resendTimer);  // a run has answered: nothing left to resend
  const items = (data && Array.isArray(data.items) ? data.items : []).map(toItem);
  if (inst.press) inst.pending = items;  // redrawing now would drop the held row
  else render(inst, items);
  return () => endPress(inst, false);
}
