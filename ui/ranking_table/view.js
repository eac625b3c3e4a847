// The ranking table's view: rows, headers, the figures above and the ideal ordering
// beside, drawn from the instance's state (bridge.js) with the numbers of figures.js.
// Rows are kept by id and rebuilt only when what they show besides figures changed; a
// drag frame writes only the numbers that changed. User text is only set with textContent.


function word(inst, key, params) {
  return say(inst.labels, key, params);
}

function setNum(node, value, live) {
  // Writes only what changed: a drag frame touches just the rows whose figures moved.
  const text = fmt3(value);
  if (node.textContent !== text) node.textContent = text;
  if (live) return;  // tooltips wait for the drop (each one is an accessibility update)
  const title = exact(value);
  if (node.title !== title) node.title = title;
}

function toRow(raw) {
  const grade = raw && typeof raw.grade === "number" && Number.isFinite(raw.grade) ? raw.grade : null;
  return {
    id: String(raw && raw.id != null ? raw.id : ""),
    label: String(raw && raw.label != null ? raw.label : ""),
    grade,
    gradeText: raw && raw.grade_text != null ? String(raw.grade_text) : gradeText(grade),
    retrieved: !(raw && raw.retrieved === false),
  };
}

function numCell(cls, gains, withBar, short) {
  const cell = el("span", "rt-num " + cls);
  const parts = [];
  for (const g of gains) {
    const line = el("span", "rt-v rt-" + (short[g] || g));
    let bar = null;
    if (withBar) {
      bar = el("span", "rt-bar");
      bar.setAttribute("aria-hidden", "true");
      line.appendChild(bar);
    }
    const text = el("span", "rt-t");
    line.appendChild(text);
    cell.appendChild(line);
    parts.push({ text, bar });
  }
  return { cell, parts };
}

function headerRow(inst, ideal) {
  const head = el("div", "rt-head" + (ideal ? " rt-ideal-row" : ""));
  head.setAttribute("aria-hidden", "true");
  const gains = inst.gains;
  const two = gains.length > 1;
  const cols = [
    ["rt-grip-h", ""],
    ["rt-pos", "#", word(inst, "col_pos_help")],
    ["rt-label", word(inst, "col_item")],
    ["rt-grade", word(inst, "col_grade"), inst.scaleText],
    ["rt-num rt-gain", word(inst, "col_gain"), gains.map((g) => formulaOf(inst, g)).join("; ")],
    ["rt-num rt-disc", discountHead(inst.conv, ideal), word(inst, "col_disc_help")],
    ["rt-num rt-contrib", word(inst, "col_contrib"), word(inst, "col_contrib_help")],
    ["rt-num rt-cum", word(inst, "col_cum"), word(inst, "col_cum_help")],
    ["rt-act", ""],
  ];
  for (const [cls, text, title] of cols) {
    if (ideal && (cls === "rt-grip-h" || cls === "rt-act")) continue;
    const cell = el("span", cls);
    if (two && /rt-(gain|contrib|cum)/.test(cls)) {
      cell.append(el("span", "rt-h", text), el("span", "rt-hsub", word(inst, "lin_exp")));
    } else {
      cell.textContent = text;
    }
    if (title) cell.title = title;
    head.appendChild(cell);
  }
  return head;
}

function formulaOf(inst, g) {
  return word(inst, "formula_" + g);
}

function describe(inst, row, pos, figures) {
  // one whole sentence per case (the words' order differs between languages)
  const past = pos > inst.k;
  const p = { pos, label: row.label, grade: row.gradeText };
  const c = (g) => (figures && figures[g] ? fmt3(figures[g].contribution[pos - 1]) : null);
  const two = inst.gains.length > 1;
  if (two && c("linear") !== null && c("exponential") !== null) {
    const q = { ...p, linear: c("linear"), exponential: c("exponential") };
    return past
      ? word(inst, "row_two_past", q)
      : word(inst, "row_two", q);
  }
  const one = c(inst.gains[0]);
  if (!two && one !== null) {
    const q = { ...p, contribution: one };
    return past
      ? word(inst, "row_one_past", q)
      : word(inst, "row_one", q);
  }
  return past
    ? word(inst, "row_past", p)
    : word(inst, "row", p);
}

function makeRow(inst, row, index, ideal) {
  const pos = index + 1;
  const li = el("li", "rt-row" + (ideal ? " rt-ideal-row" : ""));
  li.setAttribute("role", "listitem");
  li.dataset.itemId = row.id;
  li.dataset.position = String(pos);
  const refs = { li, row };
  if (!ideal) {
    li.tabIndex = 0;
    if (!inst.disabled) li.setAttribute("aria-describedby", inst.hintId);
    const grip = el("span", "rt-grip");
    grip.setAttribute("aria-hidden", "true");
    grip.title = word(inst, "drag");
    li.appendChild(grip);
  }
  refs.pos = el("span", "rt-pos", String(pos));
  li.appendChild(refs.pos);
  const label = el("span", "rt-label");
  label.appendChild(el("span", "rt-label-text", row.label));
  label.title = row.label;
  if (ideal && !row.retrieved) {
    label.appendChild(el("span", "rt-tag", word(inst, "not_retrieved")));
  }
  refs.past = el("span", "rt-sr", "");
  label.appendChild(refs.past);
  li.appendChild(label);
  const grade = el("span", "rt-grade");
  if (!ideal && inst.editable && !inst.disabled) {
    const btn = el("button", "rt-grade-btn", row.gradeText);
    btn.type = "button";
    btn.tabIndex = -1;
    btn.setAttribute("aria-label", word(inst, "grade_button", { grade: row.gradeText, label: row.label }));
    grade.appendChild(btn);
  } else {
    grade.textContent = row.gradeText;
  }
  li.appendChild(grade);
  const gain = numCell("rt-gain", inst.gains, false, inst.gainShort);
  refs.disc = el("span", "rt-num rt-disc");
  const contrib = numCell("rt-contrib", inst.gains, true, inst.gainShort);
  const cum = numCell("rt-cum", inst.gains, false, inst.gainShort);
  li.append(gain.cell, refs.disc, contrib.cell, cum.cell);
  refs.gain = gain.parts;
  refs.contrib = contrib.parts;
  refs.cum = cum.parts;
  if (!ideal) {
    const act = el("span", "rt-act");
    if (inst.editable && !inst.disabled) {
      const rm = el("button", "rt-remove", "×");
      rm.type = "button";
      rm.tabIndex = -1;
      const removeText = word(inst, "remove", { label: row.label });
      rm.setAttribute("aria-label", removeText);
      rm.title = removeText;
      act.appendChild(rm);
    }
    li.appendChild(act);
    refs.msg = el("div", "rt-msg");
    refs.msg.setAttribute("role", "alert");
    li.appendChild(refs.msg);
  }
  return refs;
}

/**
 * Write the figures of `figures` (per gain) into row refs, position by position.
 * `live` (during a drag): numbers only; tooltips and row labels for screen readers are
 * written on the drop (a 60-row frame: 27 -> ? ms of layout and accessibility work).
 */
function fillRows(inst, refsInOrder, figures, ideal, live) {
  const k = inst.k;
  for (let i = 0; i < refsInOrder.length; i++) {
    const r = refsInOrder[i];
    const pos = i + 1;
    if (r.pos.textContent !== String(pos)) r.pos.textContent = String(pos);
    if (r.li.dataset.position !== String(pos)) r.li.dataset.position = String(pos);
    const past = pos > k;
    r.li.classList.toggle("is-past", past);
    const pastText = past ? " " + word(inst, "past") : "";
    if (r.past.textContent !== pastText) r.past.textContent = pastText;
    inst.gains.forEach((g, j) => {
      const f = figures && figures[g];
      if (!f) {
        r.gain[j].text.textContent = "—";
        r.contrib[j].text.textContent = "—";
        r.cum[j].text.textContent = "—";
        r.contrib[j].bar.style.width = "0";
        return;
      }
      setNum(r.gain[j].text, f.gain[i], live);
      setNum(r.contrib[j].text, f.contribution[i], live);
      setNum(r.cum[j].text, f.cumulative[i], live);
      const max = inst.maxGain[g] || 0;
      const c = f.contribution[i];
      const w = max > 0 ? Math.min(100, (Math.abs(c) / max) * 100) : 0;
      r.contrib[j].bar.style.width = `${w.toFixed(2)}%`;
      r.contrib[j].bar.classList.toggle("is-negative", c < 0);
    });
    const first = figures && figures[inst.gains[0]];
    setNum(r.disc, first ? first.discount[i] : discountOf(i + 1, inst.conv, ideal), live);
    if (live) continue;
    if (!ideal) {
      const label = describe(inst, r.row, pos, figures);
      if (r.li.getAttribute("aria-label") !== label) r.li.setAttribute("aria-label", label);
    }
    else {
      const p = { pos, label: r.row.label, grade: r.row.gradeText };
      r.li.setAttribute("aria-label", r.row.retrieved
        ? (past ? word(inst, "ideal_row_past", p)
          : word(inst, "ideal_row", p))
        : (past ? word(inst, "ideal_row_unretrieved_past", p)
          : word(inst, "ideal_row_unretrieved", p)));
    }
  }
}

function buildFigures(inst) {
  const box = inst.figBox;
  const gains = inst.gains;
  const two = gains.length > 1;
  const table = el("table", "rt-figtable" + (two ? " is-two" : ""));
  const kp = { k: inst.k };
  const caption = el("caption", "rt-sr", word(inst, two ? "caption_two" : `caption_${gains[0]}`, kp));
  table.appendChild(caption);
  const thead = el("thead");
  const hr = el("tr");
  if (two) hr.appendChild(el("th", "rt-fig-gain", ""));
  for (const name of ["DCG", "IDCG", "NDCG"]) {
    const th = el("th", "rt-fig-name rt-fig-" + name.toLowerCase(), `${name}@${inst.k}`);
    th.scope = "col";
    hr.appendChild(th);
  }
  thead.appendChild(hr);
  table.appendChild(thead);
  const tbody = el("tbody");
  inst.figCells = {};
  for (const g of gains) {
    const tr = el("tr");
    if (two) {
      const th = el("th", "rt-fig-gain", word(inst, "gain_" + g));
      th.scope = "row";
      th.title = formulaOf(inst, g);
      tr.appendChild(th);
    }
    const cells = {};
    for (const name of ["dcg", "idcg", "ndcg"]) {
      const td = el("td", "rt-fig-cell rt-fig-" + name);
      const value = el("span", "rt-fig-val");
      value.dataset.figure = `${name}-${g}`;
      const delta = el("span", "rt-delta");
      delta.setAttribute("aria-hidden", name === "idcg" ? "true" : "false");
      td.append(value, delta);
      tr.appendChild(td);
      cells[name] = { value, delta };
    }
    tbody.appendChild(tr);
    inst.figCells[g] = cells;
  }
  table.appendChild(tbody);
  const gainNote = two ? "" : word(inst, "note_" + gains[0]);
  box.replaceChildren(table);
  if (gainNote) {
    const note = el("span", "rt-fig-note", gainNote);
    note.title = formulaOf(inst, gains[0]);
    box.appendChild(note);
  }
}

function fillFigures(inst, figures, base) {
  for (const g of inst.gains) {
    const cells = inst.figCells[g];
    const f = figures && figures[g];
    const b = base && base[g];
    for (const name of ["dcg", "idcg", "ndcg"]) {
      const v = f ? f[name] : null;
      setNum(cells[name].value, v);
      let d = null;
      if (b && f && v != null && b[name] != null) d = v - b[name];
      const node = cells[name].delta;
      if (d === null || Math.abs(d) < 5e-13) {
        node.textContent = "";
        node.className = "rt-delta";
      } else {
        node.textContent = (d > 0 ? "+" : "−") + fmt3(Math.abs(d));
        // IDCG's change is neither good nor bad: no colour.
        node.className = "rt-delta" + (name === "idcg" ? " is-neutral" : d > 0 ? " is-up" : " is-down");
        node.title = word(inst, "change", { delta: `${d > 0 ? "+" : ""}${exact(d)}` });
      }
    }
  }
}

function markCut(inst, refs, text) {
  // The line between positions k and k + 1 is drawn by CSS on the first row past k
  // (its top margin is the gap; no layout is read here).
  const cut = inst.k < refs.length ? inst.k : -1;
  for (let i = 0; i < refs.length; i++) {
    const li = refs[i].li;
    li.classList.toggle("is-first-past", i === cut);  // carries the gap
    li.classList.toggle("is-last-counted", i === cut - 1);  // draws the line (not dimmed)
    if (i === cut - 1) li.dataset.cut = text;
    else delete li.dataset.cut;
  }
}

function placeRows(list, refs, keep) {
  // Reorder the existing elements with as few moves as possible, never moving `keep` (the
  // focused row): an element taken out of the page loses focus, and focusing it again
  // costs a forced style and layout pass in the middle of the writes (on a key press).
  // The rows that stay are the heaviest run of rows already in order (`keep`
  // outweighs all others); each other row is put before its successor, last first.
  const wanted = new Set(refs.map((r) => r.li));
  for (const node of Array.from(list.children)) if (!wanted.has(node)) node.remove();
  const old = new Map(Array.from(list.children, (node, i) => [node, i]));
  const n = refs.length;
  const at = refs.map((r) => (old.has(r.li) ? old.get(r.li) : -1));
  const weight = new Array(n).fill(0);
  const prev = new Array(n).fill(-1);
  let end = -1;
  for (let i = 0; i < n; i++) {
    if (at[i] < 0) continue;
    const w = refs[i].li === keep ? n + 1 : 1;
    weight[i] = w;
    for (let j = 0; j < i; j++) {
      if (at[j] >= 0 && at[j] < at[i] && weight[j] + w > weight[i]) {
        weight[i] = weight[j] + w;
        prev[i] = j;
      }
    }
    if (end < 0 || weight[i] > weight[end]) end = i;
  }
  const stay = new Set();
  for (let i = end; i >= 0; i = prev[i]) stay.add(i);
  let next = null;
  for (let i = n - 1; i >= 0; i--) {
    if (!stay.has(i)) list.insertBefore(refs[i].li, next);
    next = refs[i].li;
  }
}

function render(inst) {
  let refocus = activeRowId(inst);
  const present = refocus !== null && inst.rows.some((r) => r.id === refocus);
  // Focus on a row that is gone (removed), or lost with its old element: the row asked for.
  if (!present && inst.focusId !== null && (refocus !== null || focusIsLost(inst))) {
    refocus = inst.focusId;
  }
  inst.focusId = null;
  const rows = inst.rows;
  // Rows are kept by id and rebuilt only when what they show besides figures changed.
  const cache = inst.rowCache;
  const seen = new Set();
  inst.refs = rows.map((row, i) => {
    const msg = inst.messages[row.id] || "";
    const sig = `${row.label}\u0000${row.gradeText}\u0000${msg}`;
    let c = cache.get(row.id);
    if (!c || c.sig !== sig) {
      c = { sig, refs: makeRow(inst, row, i, false) };
      if (msg) {
        c.refs.msg.textContent = msg;
        c.refs.li.classList.add("has-msg");
      }
      cache.set(row.id, c);
    }
    c.refs.row = row;
    seen.add(row.id);
    return c.refs;
  });
  for (const id of Array.from(cache.keys())) if (!seen.has(id)) cache.delete(id);
  const active = inst.root.getRootNode().activeElement;
  placeRows(inst.list, inst.refs, active && active.parentNode === inst.list ? active : null);
  const headSig = `${inst.gains.join()}|${inst.scaleText}|${inst.editable && !inst.disabled}`;
  if (inst.headSig !== headSig) {
    inst.headRank.replaceWith(inst.headRank = headerRow(inst, false));
    inst.headSig = headSig;
  }
  fillRows(inst, inst.refs, inst.shown, false);
  markCut(inst, inst.refs, word(inst, "cut", { k: inst.k }));
  if (refocus !== null) {
    const refs = inst.refs.find((r) => r.row.id === refocus) || null;
    if (refs && refs.li !== inst.root.getRootNode().activeElement) {
      refs.li.focus({ preventScroll: true });
      refs.li.scrollIntoView({ block: "nearest" });
    }
  }
}

function renderIdeal(inst) {
  inst.idealBox.hidden = !inst.showIdeal;
  if (!inst.showIdeal) return;
  // The ideal ordering does not change with a move: redraw only when it did change.
  const sig = JSON.stringify([inst.idealRows, inst.idealFigures, inst.k, inst.gains, inst.hasUnretrieved, inst.conv]);
  if (sig === inst.idealSig) return;
  inst.idealSig = sig;
  const frag = document.createDocumentFragment();
  const refs = inst.idealRows.map((row, i) => makeRow(inst, row, i, true));
  for (const r of refs) frag.appendChild(r.li);
  inst.idealList.replaceChildren(frag);
  inst.headIdeal.replaceWith(inst.headIdeal = headerRow(inst, true));
  fillRows(inst, refs, inst.idealFigures, true);
  markCut(inst, refs, `k = ${inst.k}`);
  inst.idealTitle.textContent = inst.hasUnretrieved ? word(inst, "ideal_unretrieved") : word(inst, "ideal");
}

function previewOf(inst, rows) {
  if (rows.some((r) => r.grade === null)) return null;
  if (!inst.idcg) return null;
  return preview(rows.map((r) => r.grade), { k: inst.k, gains: inst.gains, idcg: inst.idcg, idcgLog2: inst.idcgLog2, zero: inst.zero, conv: inst.conv });
}

/** Show `figures` (of `rows`, in that order) in the figures above the table, and tell the
 * formula (formula.js), which redraws in the same frame. */
function showFigures(inst, figures, source, rows = inst.rows) {
  inst.shown = figures;
  inst.root.dataset.figures = source;  // "engine" or "preview" (tests and the benchmark read it)
  fillFigures(inst, figures, inst.deltaBase);
  if (!inst.key) return;
  const detail = {
    key: inst.key, k: inst.k, gains: inst.gains, conv: inst.conv,
    grades: rows.map((r) => r.gradeText), ideal: inst.idealRows.map((r) => r.gradeText),
    figures: figures && Object.fromEntries(inst.gains.map((g) => [g, { dcg: figures[g].dcg, idcg: figures[g].idcg, ndcg: figures[g].ndcg }])),
  };
  const latest = window[FIGURES_EVENT] || (window[FIGURES_EVENT] = {});
  latest[inst.key] = detail;
  window.dispatchEvent(new CustomEvent(FIGURES_EVENT, { detail }));
}

function activeRowId(inst) {
  const active = inst.root.getRootNode().activeElement;
  const row = active && active.closest ? active.closest(".rt-row") : null;
  if (row && row.parentNode === inst.list) return row.dataset.itemId;
  return null;
}

function rowFromEvent(inst, event) {
  const target = event.target;
  const row = target && target.closest ? target.closest(".rt-row") : null;
  return row && row.parentNode === inst.list ? row : null;
}

function indexOfId(inst, id) {
  return inst.rows.findIndex((r) => r.id === id);
}

function setMessage(inst, id, message) {
  inst.messages = { ...inst.messages, [id]: message };
  const refs = inst.refs.find((r) => r.row.id === id);
  if (!refs) return;
  refs.msg.textContent = message || "";
  refs.li.classList.toggle("has-msg", Boolean(message));
}

function clearMessages(inst) {
  if (!Object.keys(inst.messages).length) return;
  inst.messages = {};
  for (const r of inst.refs) {
    r.msg.textContent = "";
    r.li.classList.remove("has-msg");
  }
}
