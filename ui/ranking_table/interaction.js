// The ranking table's interaction: what a drag shows while a row is held and what a drop,
// a key, a click or an edit does. The drag itself (mouse, touch from the grip or after a
// hold, Alt+arrows) is drag.js, shared with the compact sortable list; this file is its
// host for the table: the figures follow the order under the pointer (figures.js), and
// every change is drawn at once and reported to Python (bridge.js `send`).

/** The drag core's host for this table (drag.js says what each hook does). */
function dragHost(inst) {
  return {
    root: inst.root, list: inst.list, row: ".rt-row", grip: ".rt-grip",
    disabled: () => inst.disabled,
    busy: () => Boolean(inst.editing),
    cut: () => ({ k: inst.k, gap: inst.cutGap }),
    start: (p) => dragStarted(inst, p),
    over: (p, order) => dragOver(inst, p, order),
    end: (p, drop) => dragEnded(inst, p, drop),
    keyMove: (from, to) => move(inst, from, to, true, inst.shown, null),
    already: (from) => announce(inst, word(inst, "already", { label: inst.rows[from].label, pos: from + 1 })),
    key: (event, row) => onRowKey(inst, event, row.dataset.itemId),
  };
}

function dragStarted(inst, p) {
  p.baseRows = inst.rows;
  p.savedShown = inst.shown;
  p.savedBase = inst.deltaBase;
  p.savedSource = inst.root.dataset.figures;
  inst.deltaBase = inst.shown;  // while dragging: the change the drop would make
  // While rows move, the line between positions k and k + 1 stays put: drawn apart.
  const rows = p.rows;
  if (inst.k > 0 && inst.k < rows.length) {
    inst.cutLine.hidden = false;
    inst.cutLine.style.top = `${p.tops0[inst.k] - inst.cutGap / 2 - 1}px`;
    inst.cutLine.querySelector(".rt-cut-text").textContent = rows[inst.k - 1].dataset.cut || "";
  }
}

function dragOver(inst, p, order) {
  const rows = order.map((i) => p.baseRows[i]);
  const refs = order.map((i) => inst.refs[i]);
  const figures = previewOf(inst, rows);
  fillRows(inst, refs, figures, false, true);
  showFigures(inst, figures, "preview", rows);
}

function dragEnded(inst, p, drop) {
  const dropping = drop && p.active && p.to !== null && p.to !== p.from && !inst.pending;
  if (p.active && !dropping) clearTableDrag(inst, p);
  if (dropping) {
    move(inst, p.from, p.to, false, p.savedShown, p);
    return;
  }
  if (inst.pending) {
    // Fresh data arrived mid-drag: draw it, then apply the drop by id.
    const pending = inst.pending;
    inst.pending = null;
    apply(inst, pending);
  }
  const from = indexOfId(inst, p.id);
  const to = p.to === null ? from : Math.max(0, Math.min(inst.rows.length - 1, p.to));
  if (drop && p.active && from >= 0 && to !== from) {
    move(inst, from, to, false, p.savedShown, null);
  } else if (p.active) {
    // Dropped where it started (or cancelled): back to the drawn order and its figures.
    inst.deltaBase = p.savedBase;
    inst.shown = p.savedShown;
    render(inst);
    showFigures(inst, p.savedShown, p.savedSource);
  }
}

function clearTableDrag(inst, p) {
  inst.cutLine.hidden = true;
  clearDragStyles(inst.drag, p);
}

/** Keys on a focused row besides the moves: 0–9 sets its grade, Enter edits it, F2
 * renames, Delete removes. */
function onRowKey(inst, event, id) {
  if (inst.disabled || !inst.editable) return;
  if (/^[0-9]$/.test(event.key)) {
    event.preventDefault();
    setGrade(inst, id, event.key);
  } else if (event.key === "Enter") {
    event.preventDefault();
    openEditor(inst, id, "grade");
  } else if (event.key === "F2") {
    event.preventDefault();
    openEditor(inst, id, "label");
  } else if (event.key === "Delete") {
    event.preventDefault();
    remove(inst, id);
  }
}

function bindTable(inst) {
  inst.drag = bindDrag(dragHost(inst));
  inst.list.addEventListener("dblclick", (e) => {
    const row = rowFromEvent(inst, e);
    if (row && e.target.closest(".rt-label")) openEditor(inst, row.dataset.itemId, "label");
  });
  inst.root.addEventListener("click", (e) => onClick(inst, e), true);
}

function move(inst, from, to, viaKeyboard, base, press) {
  const rows = inst.rows.slice();
  const [moved] = rows.splice(from, 1);
  rows.splice(to, 0, moved);
  inst.rows = rows;
  inst.deltaBase = base;  // the change this move makes: against the figures before it
  inst.shown = previewOf(inst, rows);
  if (viaKeyboard) inst.focusId = moved.id;
  // Drawn here, in the event's own task: the rows (moved, not rebuilt), every figure and
  // (formula.js, told by showFigures) the formula's numbers, written with no layout read
  // between, so the frame that follows shows them all. Drawn in a later task,
  // the browser paints the frame after the key press first and the new order one frame
  // later. A dropped row: its transform goes in the same frame as the DOM order changes.
  if (press) clearTableDrag(inst, press);
  clearMessages(inst);
  render(inst);  // optimistic: the new order and its figures, no flicker while Python runs
  showFigures(inst, inst.shown, "preview");
  // Then the report. Streamlit sends it from a setTimeout(0) of its own, after this task.
  inst.setStateValue("order", rows.map((r) => r.id));
  send(inst, { action: "move", id: moved.id, from: from + 1, to: to + 1 });
  const ndcg = inst.shown ? inst.shown[inst.gains[0]].ndcg : null;
  announce(inst, ndcg == null
    ? word(inst, "moved", { label: moved.label, pos: to + 1 })
    : word(inst, "moved_ndcg",
      { label: moved.label, pos: to + 1, k: inst.k, ndcg: fmt3(ndcg) }));
  // The focused row stayed in place in the page (render moves its neighbours), so the
  // browser does not scroll to it: once the frame is painted (its layout is then clean,
  // nothing is forced), bring it into view if it left it (Alt+End in a long list).
  if (viaKeyboard) {
    afterPaint(() => {
      const r = inst.refs.find((x) => x.row.id === moved.id);
      if (r && r.li === inst.root.getRootNode().activeElement) r.li.scrollIntoView({ block: "nearest" });
    });
  }
}

function setGrade(inst, id, text) {
  const i = indexOfId(inst, id);
  if (i < 0) return false;
  const row = inst.rows[i];
  const checked = checkGrade(text, inst.scale, row.gradeText, inst.labels.grade);
  if (checked.message) {
    setMessage(inst, id, checked.message);
    announce(inst, checked.message);
    return false;
  }
  setMessage(inst, id, "");
  if (row.grade === checked.value) return true;
  const rows = inst.rows.slice();
  rows[i] = { ...row, grade: checked.value, gradeText: gradeText(checked.value) };
  inst.rows = rows;
  inst.focusId = id;
  render(inst);
  announce(inst, word(inst, "graded", { label: row.label, old: row.gradeText, new: rows[i].gradeText }));
  send(inst, { action: "grade", id, grade: checked.value });
  return true;
}

function rename(inst, id, text) {
  const i = indexOfId(inst, id);
  if (i < 0) return false;
  const label = String(text).trim();
  const row = inst.rows[i];
  if (!label) {
    setMessage(inst, id, word(inst, "label_empty", { current: row.label }));
    return false;
  }
  if (label.length > inst.maxLabel) {
    setMessage(inst, id, word(inst, "label_long", { max: inst.maxLabel, n: label.length, current: row.label }));
    return false;
  }
  setMessage(inst, id, "");
  if (label === row.label) return true;
  const rows = inst.rows.slice();
  rows[i] = { ...row, label };
  inst.rows = rows;
  inst.focusId = id;
  render(inst);
  announce(inst, word(inst, "renamed", { old: row.label, new: label }));
  send(inst, { action: "rename", id, label });
  return true;
}

function remove(inst, id) {
  const i = indexOfId(inst, id);
  if (i < 0 || inst.disabled || !inst.editable) return;
  if (inst.rows.length <= 1) {
    setMessage(inst, id, word(inst, "last_item"));
    return;
  }
  const row = inst.rows[i];
  const next = inst.rows[i + 1] || inst.rows[i - 1];
  inst.rows = inst.rows.filter((r) => r.id !== id);
  inst.focusId = next ? next.id : null;
  render(inst);
  announce(inst, word(inst, "removed", { label: row.label }));
  send(inst, { action: "remove", id });
}

function add(inst) {
  if (inst.disabled || !inst.editable) return;
  inst.expectNew = new Set(inst.rows.map((r) => r.id));
  send(inst, { action: "add" });
}

function openEditor(inst, id, field) {
  if (inst.disabled || !inst.editable || inst.drag.press) return;
  const refs = inst.refs.find((r) => r.row.id === id);
  if (!refs) return;
  const cell = refs.li.querySelector(field === "grade" ? ".rt-grade" : ".rt-label");
  const input = el("input", "rt-input rt-input-" + field);
  input.type = "text";
  input.value = field === "grade" ? refs.row.gradeText : refs.row.label;
  if (field === "grade") input.inputMode = "decimal";
  input.setAttribute("aria-label", field === "grade"
    ? word(inst, "new_grade", { label: refs.row.label, scale: inst.scaleText })
    : word(inst, "new_label", { label: refs.row.label }));
  input.autocomplete = "off";
  input.spellcheck = false;
  const old = Array.from(cell.childNodes);
  cell.replaceChildren(input);
  refs.li.classList.add("is-editing");
  inst.editing = { id, field, input };
  let done = false;
  const close = (commit) => {
    if (done) return;
    done = true;
    inst.editing = null;
    refs.li.classList.remove("is-editing");
    const value = input.value;
    const pending = inst.pending;
    inst.pending = null;
    if (commit) {
      const before = inst.seq;
      if (field === "grade") setGrade(inst, id, value);
      else rename(inst, id, value);
      // Sent (and redrawn): the rerun it starts brings fresher data than what arrived
      // while typing.
      if (inst.seq !== before) return;
    }
    if (pending) {
      inst.focusId = id;
      apply(inst, pending);
      return;
    }
    // Unchanged, refused or cancelled: the cell as it was (a refusal's message stays).
    if (cell.isConnected && input.isConnected) {
      cell.replaceChildren(...old);
      refs.li.focus({ preventScroll: true });
    }
  };
  input.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Enter") { e.preventDefault(); close(true); }
    else if (e.key === "Escape") { e.preventDefault(); close(false); }
  });
  input.addEventListener("blur", () => close(true));
  input.addEventListener("pointerdown", (e) => e.stopPropagation());
  input.focus();
  input.select();
}

function onClick(inst, event) {
  const t = event.target;
  if (t.closest(".rt-add")) { add(inst); return; }
  const row = rowFromEvent(inst, event);
  if (!row) return;
  const id = row.dataset.itemId;
  if (t.closest(".rt-grade-btn")) openEditor(inst, id, "grade");
  else if (t.closest(".rt-remove")) remove(inst, id);
}
