// One drag for every list (the ranking table, the compact sortable list): mouse, touch,
// keyboard, and the rows making room. A list binds it once with a host that says what a
// drag shows and what a drop does:
//
//   host = {
//     root, list,               // classes go on root; the rows are list's children
//     row, grip,                // their selectors (".rt-row", ".rt-grip")
//     disabled(), busy(),       // no moves at all / not now (a cell is being edited)
//     cut(),                    // {k, gap}: rows from position k + 1 sit gap px lower
//     start(p), over(p, order), // a drag began / the held row would land at p.to
//                               //   (order: the rows' start indices in the new order)
//     end(p, drop),             // the press ended (p.active: it was a drag; drop: released)
//     keyMove(from, to), already(from), key(event, row, from),
//   }
//
// Mouse drags from anywhere on a row past a 5 px threshold. Touch on the grip
// (touch-action: none) drags at once, the same way; touch elsewhere on a row (touch-action:
// pan-y) drags after a hold of LONG_PRESS_MS without moving, and a swipe before that
// scrolls the page. The focused row moves with Alt+↑/↓/Home/End; ↑/↓ move the focus.

const THRESHOLD_PX = 5;           // movement before a press becomes a drag
const LONG_PRESS_MS = 250;        // touch: hold this long on a row (not the grip) to drag
const LONG_PRESS_SLOP_PX = 8;     // ... without moving more than this (else it scrolls)
const EDGE_PX = 72;               // auto-scroll zone at the scroll box edges
const MAX_SCROLL_STEP = 18;       // px per frame

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

/** The row of `list` an event happened in, or null. */
function dragRowOf(d, target) {
  const row = target && target.closest ? target.closest(d.host.row) : null;
  return row && row.parentNode === d.host.list ? row : null;
}

function rowIndex(d, row) {
  return Array.prototype.indexOf.call(d.host.list.children, row);
}

function onDragPointerDown(d, event) {
  const h = d.host;
  if (h.disabled() || h.busy() || d.press || !event.isPrimary) return;
  if (event.pointerType === "mouse" && event.button !== 0) return;
  const row = dragRowOf(d, event.target);
  if (!row) return;
  const onGrip = Boolean(event.target.closest(h.grip));
  const touch = event.pointerType !== "mouse";
  if (touch && event.target.closest("button")) return;  // a tap on a button stays a tap
  d.press = {
    pointerId: event.pointerId, row, id: row.dataset.itemId, from: rowIndex(d, row),
    startX: event.clientX, startY: event.clientY, lastY: event.clientY,
    mode: !touch || onGrip ? "threshold" : "hold",
    armed: !touch || onGrip, active: false, to: null, raf: 0, scrollStep: 0, timer: 0,
  };
  const p = d.press;
  if (p.mode === "hold") {
    p.timer = setTimeout(() => {
      if (d.press !== p) return;
      p.armed = true;
      startDrag(d, p);
      updateDrag(d, p);
      if (navigator.vibrate) { try { navigator.vibrate(12); } catch (_) { /* not allowed */ } }
    }, LONG_PRESS_MS);
  }
  // No pointer capture yet: a click (no drag) must still reach the row's buttons.
}

function layoutFor(d, p, to) {
  // Where every row would stand if the held row were at `to`: rows stacked in the new
  // order with their own heights, the cutoff's gap before position k + 1.
  const { k, gap: cutGap } = d.host.cut();
  const order = p.rows.map((_, i) => i);
  const [held] = order.splice(p.from, 1);
  order.splice(to, 0, held);
  const tops = new Array(order.length);
  let y = p.listTop;
  for (let j = 0; j < order.length; j++) {
    if (j === k && j > 0) y += cutGap;
    tops[order[j]] = y;
    y += p.heights[order[j]] + p.gap;
  }
  return { order, tops };
}

function startDrag(d, p) {
  const h = d.host;
  p.active = true;
  p.rows = Array.from(h.list.children);
  // Measure once per drag; moves then only compare numbers.
  p.tops0 = p.rows.map((r) => r.offsetTop);
  p.heights = p.rows.map((r) => r.offsetHeight);
  p.shifts = p.rows.map(() => 0);
  p.gap = parseFloat(getComputedStyle(h.list).rowGap) || 0;
  p.listTop = p.tops0.length ? p.tops0[0] : 0;
  p.grabOffset = p.startY - p.row.getBoundingClientRect().top;
  p.row.classList.add("is-dragging");
  h.root.classList.add("is-dragging-active");
  p.scrollBox = findScrollBox(h.root);
  p.to = p.from;
  h.start(p);
  // A touch pointer is captured by the element it landed on (the grip, a label): moving
  // the capture to the row makes that element lose it, which is not a cancel.
  try { p.row.setPointerCapture(p.pointerId); } catch (_) { /* pointer already gone */ }
}

function updateDrag(d, p) {
  const h = d.host;
  // The pointer in the list's coordinates (the list may have scrolled with the page).
  const rowTop = p.lastY - h.list.getBoundingClientRect().top - p.grabOffset;
  const center = rowTop + p.heights[p.from] / 2;
  let to = 0;
  for (let i = 0; i < p.tops0.length; i++) {
    if (i !== p.from && p.tops0[i] + p.heights[i] / 2 < center) to++;
  }
  p.row.style.transform = `translateY(${rowTop - p.tops0[p.from]}px)`;
  if (to === p.to && p.shownOnce) return;
  p.to = to;
  p.shownOnce = true;
  const { order, tops } = layoutFor(d, p, to);
  for (let i = 0; i < p.rows.length; i++) {
    if (i === p.from) continue;
    const shift = tops[i] - p.tops0[i];
    if (p.shifts[i] === shift) continue;  // most rows of a long list stay put
    p.shifts[i] = shift;
    p.rows[i].style.transform = shift ? `translateY(${shift}px)` : "";
  }
  h.over(p, order);
}

function autoScroll(d, p) {
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
    if (d.press !== p || !p.active || p.scrollStep === 0) return;
    box.scrollTop += p.scrollStep;
    updateDrag(d, p);
    p.raf = requestAnimationFrame(tick);
  };
  p.raf = requestAnimationFrame(tick);
}

function onDragPointerMove(d, event) {
  const p = d.press;
  if (!p || event.pointerId !== p.pointerId) return;
  p.lastY = event.clientY;
  if (!p.active) {
    const moved = Math.hypot(event.clientX - p.startX, event.clientY - p.startY);
    if (p.mode === "hold") {
      // Moved before the hold completed: this is a scroll (the browser takes it).
      if (moved > LONG_PRESS_SLOP_PX) endPress(d, false);
      return;
    }
    if (moved < THRESHOLD_PX) return;
    startDrag(d, p);
  }
  event.preventDefault();
  updateDrag(d, p);
  autoScroll(d, p);
}

/** The rows back in place (the held one too), without their glide. */
function clearDragStyles(d, p) {
  const root = d.host.root;
  root.classList.add("no-anim");
  for (const r of p.rows || []) r.style.transform = "";
  p.row.classList.remove("is-dragging");
  root.classList.remove("is-dragging-active");
  // Let the untransformed layout paint before transitions come back.
  requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove("no-anim")));
}

function endPress(d, drop) {
  const p = d.press;
  if (!p) return;
  d.press = null;
  clearTimeout(p.timer);
  if (p.raf) cancelAnimationFrame(p.raf);
  try {
    if (p.row.hasPointerCapture(p.pointerId)) p.row.releasePointerCapture(p.pointerId);
  } catch (_) { /* row already gone */ }
  if (p.active) {
    d.suppressClick = true;  // the click that follows a drag is not a click on the row
    setTimeout(() => { d.suppressClick = false; }, 0);
  }
  d.host.end(p, drop);
}

function onDragKeyDown(d, event) {
  const h = d.host;
  if (event.target && event.target.tagName === "INPUT") return;
  const row = dragRowOf(d, event.target);
  if (!row) return;
  if (event.key === "Escape" && d.press) {
    event.preventDefault();
    endPress(d, false);
    return;
  }
  const from = rowIndex(d, row);
  const last = h.list.children.length - 1;
  if (event.altKey && !event.ctrlKey && !event.metaKey) {
    const targets = { ArrowUp: from - 1, ArrowDown: from + 1, Home: 0, End: last };
    if (!(event.key in targets)) return;
    event.preventDefault();
    if (h.disabled() || d.press) return;
    const to = Math.max(0, Math.min(last, targets[event.key]));
    if (to === from) h.already(from);
    else h.keyMove(from, to);
    return;
  }
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!event.shiftKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
    const sibling = event.key === "ArrowUp" ? row.previousElementSibling : row.nextElementSibling;
    if (sibling) {
      event.preventDefault();
      sibling.focus();
    }
    return;
  }
  h.key(event, row, from);
}

/** Bind the drag to `host.list` (once per list element); returns its state, whose
 * `press` is the pointer held on a row (a drag once `press.active`), or null. */
export function bindDrag(host) {
  const d = { host, press: null, suppressClick: false };
  const list = host.list;
  list.addEventListener("pointerdown", (e) => onDragPointerDown(d, e));
  list.addEventListener("pointermove", (e) => onDragPointerMove(d, e));
  list.addEventListener("pointerup", (e) => {
    if (d.press && e.pointerId === d.press.pointerId) endPress(d, true);
  });
  list.addEventListener("pointercancel", (e) => {
    if (d.press && e.pointerId === d.press.pointerId) endPress(d, false);
  });
  list.addEventListener("lostpointercapture", (e) => {
    // Only the row's own capture ending cancels (the grip's implicit one moves to the row).
    if (d.press && e.pointerId === d.press.pointerId && e.target === d.press.row) endPress(d, false);
  });
  // Touch: once a drag is armed, the finger moves the row, not the page.
  list.addEventListener("touchmove", (e) => {
    if (d.press && d.press.armed && e.cancelable) e.preventDefault();
  }, { passive: false });
  list.addEventListener("contextmenu", (e) => {
    if (d.press) e.preventDefault();
  });
  list.addEventListener("keydown", (e) => onDragKeyDown(d, e));
  host.root.addEventListener("click", (e) => {
    if (!d.suppressClick) return;
    e.preventDefault();
    e.stopImmediatePropagation();
  }, true);
  return d;
}
