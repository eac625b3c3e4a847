// The ranking table: a ranked list whose rows are the DCG table, with the ideal
// ordering beside it and DCG@k / IDCG@k / NDCG@k above.
//
// How it runs inside st.components.v2 (Streamlit 1.67; see ui/sortable/__init__.py's notes):
// - the default export runs again on every rerun with new `data`, on the same
//   root; listeners are bound once per root (WeakMap) and every call redraws;
// - `parentElement` is a ShadowRoot: focus is read from getRootNode();
// - state "order" is the browser's latest order; trigger "event" carries one
//   action per report ({action: "move" | "grade" | "rename" | "remove" | "add"}).
//
// Figures: between reruns (while dragging, after a keyboard move) every number
// is computed here by `preview`, the same arithmetic as ndcg_core.dcg_table /
// ndcg: gain = grade or 2^grade - 1, discount log2(i + 1), cumulative sums in
// position order, NDCG = DCG@k / IDCG@k with Python's IDCG. When Python
// answers, the engine's numbers replace them; tests/browser/test_ranking_table.py
// checks both agree (1e-9, same 3-decimal text) on >= 500 random lists.
// User text is only ever set with textContent.

const INSTANCES = new WeakMap();  // root element -> per-instance state
const THRESHOLD_PX = 5;           // mouse movement before a press becomes a drag
const LONG_PRESS_MS = 250;        // touch: hold this long on a row (not the grip) to drag
const LONG_PRESS_SLOP_PX = 8;     // ... without moving more than this (else it scrolls)
const EDGE_PX = 72;               // auto-scroll zone at the scroll box edges
const MAX_SCROLL_STEP = 18;       // px per frame
const GAIN_SHORT = { linear: "lin", exponential: "exp" };
const GAIN_FORMULA = { linear: "gain = grade", exponential: "gain = 2^grade − 1" };

// ------------------------------------------------------------------ words
// Every word shown or announced comes from Python in `data.labels` (translated there,
// lab/i18n.py); the English here is only a fallback. Templates carry {name}
// placeholders, filled in one pass (a label that contains "{pos}" stays as typed).

/** The template `key` of `labels` (or `fallback`) with its {name} placeholders filled. */
export function say(labels, key, fallback, params) {
  const template = labels && typeof labels[key] === "string" ? labels[key] : fallback;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

function word(inst, key, fallback, params) {
  return say(inst.labels, key, fallback, params);
}

// ------------------------------------------------------------------ pure arithmetic

/** Gain of one grade: linear (Järvelin & Kekäläinen 2002) or 2^g − 1 (Burges et al. 2005). */
export function gainOf(grade, gain) {
  return gain === "exponential" ? Math.pow(2, grade) - 1 : grade;
}

/**
 * Every figure of the ranked list `grades` (position 1 first), per gain.
 * opts: {k: cutoff (null = whole list), gains: ["linear", ...],
 *        idcg: {gain: IDCG@k from Python}, zero: NDCG when IDCG@k <= 0 (0, 1 or null)}.
 * Returns {gain: {gain[], discount[], contribution[], cumulative[], dcg, idcg, ndcg}}.
 */
export function preview(grades, opts) {
  const n = grades.length;
  const kk = opts.k == null ? n : Math.max(0, Math.min(opts.k, n));
  const out = {};
  for (const g of opts.gains) {
    const gain = new Array(n);
    const discount = new Array(n);
    const contribution = new Array(n);
    const cumulative = new Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      gain[i] = gainOf(grades[i], g);
      discount[i] = Math.log2(i + 2);
      contribution[i] = gain[i] / discount[i];
      sum += contribution[i];  // in position order, as numpy.cumsum
      cumulative[i] = sum;
    }
    const dcg = kk > 0 ? cumulative[kk - 1] : 0;
    const best = opts.idcg ? opts.idcg[g] : null;
    const zero = opts.zero === undefined ? 0 : opts.zero;
    const ndcg = best == null ? null : best > 0 ? dcg / best : zero;
    out[g] = { gain, discount, contribution, cumulative, dcg, idcg: best, ndcg };
  }
  return out;
}

/**
 * x with 3 decimals, exactly as Python's f"{x:.3f}" (so the preview and the
 * engine's figures read the same): correctly rounded, ties to even. toFixed is
 * correctly rounded too but sends exact ties (odd multiples of 1/16, the only
 * binary numbers halfway between two 3-decimal ones) away from zero.
 */
export function fmt3(x) {
  if (x === null || x === undefined) return "—";
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const a = Math.abs(x);
  let text = a.toFixed(3);
  const sixteenths = a * 16;  // exact: a power-of-two scaling
  if (Number.isInteger(sixteenths) && sixteenths % 2 === 1 && a < 2 ** 40) {
    const thousandths = a * 1000;  // odd * 62.5: exact
    const lo = Math.floor(thousandths);
    text = ((lo % 2 === 0 ? lo : lo + 1) / 1000).toFixed(3);
  }
  return (x < 0 || Object.is(x, -0) ? "-" : "") + text;
}

/** A number as Python's repr would write it (for tooltips: the exact value). */
function exact(x) {
  if (x === null || x === undefined) return "";
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  return String(x);
}

// ------------------------------------------------------------------ DOM helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;  // user text: never innerHTML
  return node;
}

function setNum(node, value, live) {
  // Writes only what changed: a drag frame touches just the rows whose figures moved.
  const text = fmt3(value);
  if (node.textContent !== text) node.textContent = text;
  if (live) return;  // tooltips wait for the drop (each one is an accessibility update)
  const title = exact(value);
  if (node.title !== title) node.title = title;
}

function gradeText(grade, fallback) {
  if (fallback != null) return String(fallback);
  if (grade === null || grade === undefined) return "?";
  // As Python's grade_text (f"{g:g}": 6 significant digits), so the optimistic redraw
  // and the engine's agree.
  return Number.isInteger(grade) ? String(grade) : String(Number(grade.toPrecision(6)));
}

function toRow(raw) {
  const grade = raw && typeof raw.grade === "number" && Number.isFinite(raw.grade) ? raw.grade : null;
  return {
    id: String(raw && raw.id != null ? raw.id : ""),
    label: String(raw && raw.label != null ? raw.label : ""),
    grade,
    gradeText: gradeText(grade, raw && raw.grade_text),
    retrieved: !(raw && raw.retrieved === false),
  };
}

// ------------------------------------------------------------------ scale checks

/**
 * null when `text` is a grade the scale takes, else the message to show at the row.
 * `messages`: the scale's refused-grade templates from Python (data.labels.grade).
 */
export function checkGrade(text, scale, current, messages) {
  const t = String(text).trim();
  const m = messages || null;
  const fill = (key, value, fallback) => (m && m[key] ? say(m, key, "", { value, current }) : fallback());
  const keep = `The grade stays ${current}.`;
  const lo = scale && scale.min != null ? scale.min : null;
  const hi = scale && scale.max != null ? scale.max : null;
  const integer = Boolean(scale && scale.integer);
  const range = lo != null && hi != null ? `${integer ? "a whole number " : "a number "}from ${lo} to ${hi}`
    : lo != null ? `a number of at least ${lo}` : hi != null ? `a number of at most ${hi}` : "a number";
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) {
    return { message: fill("not_number_typed", t.slice(0, 20), () => `“${t.slice(0, 20)}” is not a number: type ${range}, such as ${lo != null ? lo : 0} or ${hi != null ? hi : 1}. ${keep}`) };
  }
  const value = Number(t);
  if (!Number.isFinite(value)) return { message: fill("too_large", t.slice(0, 20), () => `${t.slice(0, 20)} is too large: type ${range}. ${keep}`) };
  if ((lo != null && value < lo) || (hi != null && value > hi)) {
    return { message: fill("outside", t, () => `${t} is outside the scale: type ${range}. ${keep}`) };
  }
  if (integer && !Number.isInteger(value)) {
    return { message: fill("not_whole", t, () => `${t} is not a whole number: this scale takes ${range}. ${keep}`) };
  }
  return { value };
}

// ------------------------------------------------------------------ drawing

function numCell(cls, gains, withBar) {
  const cell = el("span", "rt-num " + cls);
  const parts = [];
  for (const g of gains) {
    const line = el("span", "rt-v rt-" + GAIN_SHORT[g]);
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
    ["rt-pos", "#", word(inst, "col_pos_help", "position i in the list")],
    ["rt-label", word(inst, "col_item", "item")],
    ["rt-grade", word(inst, "col_grade", "grade"), inst.scaleText],
    ["rt-num rt-gain", word(inst, "col_gain", "gain"), gains.map((g) => formulaOf(inst, g)).join("; ")],
    ["rt-num rt-disc", "log₂ (i+1)", word(inst, "col_disc_help", "discount: the gain at position i is divided by log2(i + 1)")],
    ["rt-num rt-contrib", word(inst, "col_contrib", "contrib."), word(inst, "col_contrib_help", "contribution = gain / log2(i + 1); the bar is scaled to the largest gain")],
    ["rt-num rt-cum", word(inst, "col_cum", "cum. DCG"), word(inst, "col_cum_help", "cumulative DCG: DCG@i, the sum of the contributions down to this row")],
    ["rt-act", ""],
  ];
  for (const [cls, text, title] of cols) {
    if (ideal && (cls === "rt-grip-h" || cls === "rt-act")) continue;
    const cell = el("span", cls);
    if (two && /rt-(gain|contrib|cum)/.test(cls)) {
      cell.append(el("span", "rt-h", text), el("span", "rt-hsub", word(inst, "lin_exp", "lin · exp")));
    } else {
      cell.textContent = text;
    }
    if (title) cell.title = title;
    head.appendChild(cell);
  }
  return head;
}

function formulaOf(inst, g) {
  return word(inst, "formula_" + g, GAIN_FORMULA[g]);
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
      ? word(inst, "row_two_past", "Position {pos}: {label}, grade {grade}, linear contribution {linear}, exponential contribution {exponential}, past k: not counted", q)
      : word(inst, "row_two", "Position {pos}: {label}, grade {grade}, linear contribution {linear}, exponential contribution {exponential}", q);
  }
  const one = c(inst.gains[0]);
  if (!two && one !== null) {
    const q = { ...p, contribution: one };
    return past
      ? word(inst, "row_one_past", "Position {pos}: {label}, grade {grade}, contribution {contribution}, past k: not counted", q)
      : word(inst, "row_one", "Position {pos}: {label}, grade {grade}, contribution {contribution}", q);
  }
  return past
    ? word(inst, "row_past", "Position {pos}: {label}, grade {grade}, past k: not counted", p)
    : word(inst, "row", "Position {pos}: {label}, grade {grade}", p);
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
    grip.title = word(inst, "drag", "Drag to move");
    li.appendChild(grip);
  }
  refs.pos = el("span", "rt-pos", String(pos));
  li.appendChild(refs.pos);
  const label = el("span", "rt-label");
  label.appendChild(el("span", "rt-label-text", row.label));
  label.title = row.label;
  if (ideal && !row.retrieved) {
    label.appendChild(el("span", "rt-tag", word(inst, "not_retrieved", "not retrieved")));
  }
  refs.past = el("span", "rt-sr", "");
  label.appendChild(refs.past);
  li.appendChild(label);
  const grade = el("span", "rt-grade");
  if (!ideal && inst.editable && !inst.disabled) {
    const btn = el("button", "rt-grade-btn", row.gradeText);
    btn.type = "button";
    btn.tabIndex = -1;
    btn.setAttribute("aria-label", word(inst, "grade_button", "Grade {grade} of {label}: edit", { grade: row.gradeText, label: row.label }));
    grade.appendChild(btn);
  } else {
    grade.textContent = row.gradeText;
  }
  li.appendChild(grade);
  const gain = numCell("rt-gain", inst.gains, false);
  refs.disc = el("span", "rt-num rt-disc");
  const contrib = numCell("rt-contrib", inst.gains, true);
  const cum = numCell("rt-cum", inst.gains, false);
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
      const removeText = word(inst, "remove", "Remove {label}", { label: row.label });
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
    const pastText = past ? " " + word(inst, "past", "(past k: not counted)") : "";
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
    setNum(r.disc, first ? first.discount[i] : Math.log2(i + 2), live);
    if (live) continue;
    if (!ideal) {
      const label = describe(inst, r.row, pos, figures);
      if (r.li.getAttribute("aria-label") !== label) r.li.setAttribute("aria-label", label);
    }
    else {
      const p = { pos, label: r.row.label, grade: r.row.gradeText };
      r.li.setAttribute("aria-label", r.row.retrieved
        ? (past ? word(inst, "ideal_row_past", "Ideal position {pos}: {label}, grade {grade}, past k", p)
          : word(inst, "ideal_row", "Ideal position {pos}: {label}, grade {grade}", p))
        : (past ? word(inst, "ideal_row_pool_past", "Ideal position {pos}: {label}, grade {grade}, not retrieved, past k", p)
          : word(inst, "ideal_row_pool", "Ideal position {pos}: {label}, grade {grade}, not retrieved", p)));
    }
  }
}

function buildFigures(inst) {
  const box = inst.figBox;
  const gains = inst.gains;
  const two = gains.length > 1;
  const table = el("table", "rt-figtable" + (two ? " is-two" : ""));
  const kp = { k: inst.k };
  const caption = el("caption", "rt-sr", two
    ? word(inst, "caption_two", "DCG@{k}, IDCG@{k} and NDCG@{k}", kp)
    : gains[0] === "exponential"
      ? word(inst, "caption_exponential", "DCG@{k}, IDCG@{k} and NDCG@{k} (exponential gain)", kp)
      : word(inst, "caption_linear", "DCG@{k}, IDCG@{k} and NDCG@{k} (linear gain)", kp));
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
      const th = el("th", "rt-fig-gain", word(inst, "gain_" + g, g));
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
  const gainNote = two ? "" : word(inst, "note_" + gains[0], `${gains[0]} gain`);
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
        node.title = word(inst, "change", "change: {delta}", { delta: `${d > 0 ? "+" : ""}${exact(d)}` });
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

function placeRows(list, refs) {
  // Reorder the existing elements with as few moves as possible.
  let cur = list.firstChild;
  for (const r of refs) {
    if (r.li === cur) cur = cur.nextSibling;
    else list.insertBefore(r.li, cur);
  }
  while (cur) {
    const next = cur.nextSibling;
    cur.remove();
    cur = next;
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
  placeRows(inst.list, inst.refs);
  const headSig = `${inst.gains.join()}|${inst.scaleText}|${inst.editable && !inst.disabled}`;
  if (inst.headSig !== headSig) {
    inst.headRank.replaceWith(inst.headRank = headerRow(inst, false));
    inst.headSig = headSig;
  }
  fillRows(inst, inst.refs, inst.shown, false);
  markCut(inst, inst.refs, word(inst, "cut", "k = {k}: rows below are past k, not counted in DCG@{k}", { k: inst.k }));
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
  const sig = JSON.stringify([inst.idealRows, inst.idealFigures, inst.k, inst.gains, inst.hasPool]);
  if (sig === inst.idealSig) return;
  inst.idealSig = sig;
  const frag = document.createDocumentFragment();
  const refs = inst.idealRows.map((row, i) => makeRow(inst, row, i, true));
  for (const r of refs) frag.appendChild(r.li);
  inst.idealList.replaceChildren(frag);
  inst.headIdeal.replaceWith(inst.headIdeal = headerRow(inst, true));
  fillRows(inst, refs, inst.idealFigures, true);
  markCut(inst, refs, `k = ${inst.k}`);
  inst.idealTitle.textContent = inst.hasPool ? word(inst, "ideal_pool", "Ideal ordering (ranking + judged pool)") : word(inst, "ideal", "Ideal ordering");
}

// ------------------------------------------------------------------ figures state

function previewOf(inst, rows) {
  if (rows.some((r) => r.grade === null)) return null;
  if (!inst.idcg) return null;
  return preview(rows.map((r) => r.grade), { k: inst.k, gains: inst.gains, idcg: inst.idcg, zero: inst.zero });
}

function showFigures(inst, figures, source) {
  inst.shown = figures;
  inst.root.dataset.figures = source;  // "engine" or "preview" (tests and the benchmark read it)
  fillFigures(inst, figures, inst.deltaBase);
}

// ------------------------------------------------------------------ focus and announcements

function activeRowId(inst) {
  const active = inst.root.getRootNode().activeElement;
  const row = active && active.closest ? active.closest(".rt-row") : null;
  if (row && row.parentNode === inst.list) return row.dataset.itemId;
  return null;
}

function focusIsLost(inst) {
  const rootNode = inst.root.getRootNode();
  if (rootNode !== document && rootNode.activeElement) return false;
  const active = document.activeElement;
  return !active || active === document.body || (rootNode !== document && active === rootNode.host);
}

function announce(inst, message) {
  clearTimeout(inst.announceTimer);
  inst.live.textContent = "";  // clearing first makes screen readers repeat an identical message
  inst.announceTimer = setTimeout(() => { inst.live.textContent = message; }, 40);
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

// ------------------------------------------------------------------ actions

// A move is reported as the new order (state) and an "event" trigger. If the connection
// is down, the trigger is lost and nothing reruns when it comes back (issue 16): until the
// next data arrives, a move's report is sent again every few seconds (as ui/sortable does;
// the server applies an order idempotently). Any data arriving means a run has happened
// since, so the server has it. Other events are not resent: an add is not idempotent.
const RESEND_MS = 4000;
const SETTLED_EVENT = "ndcg-ranking-table-settled";
const RESEND_FOR_MS = 120000;

/** Run `fn` once the next frame has been painted (a task queued from that frame); in a
 * hidden page, which paints no frames, at once. */
function afterPaint(fn) {
  if (document.hidden) setTimeout(fn, 0);
  else requestAnimationFrame(() => setTimeout(fn, 0));
}

function send(inst, event) {
  inst.answerPending = true;  // apply() tells the page when the answer is drawn
  inst.root.dataset.figures = event.action === "move" ? "preview" : "pending";
  // seq makes two equal actions in a row (two adds) two changes of the trigger.
  inst.seq = (inst.seq || 0) + 1;
  inst.setTriggerValue("event", { ...event, seq: inst.seq });
  clearInterval(inst.resendTimer);
  if (event.action !== "move") return;
  const order = inst.rows.map((r) => r.id);
  const since = Date.now();
  inst.resendTimer = setInterval(() => {
    if (Date.now() - since > RESEND_FOR_MS) return clearInterval(inst.resendTimer);
    inst.seq += 1;
    inst.setStateValue("order", order);
    inst.setTriggerValue("event", { ...event, seq: inst.seq, resent: true });
  }, RESEND_MS);
}

function move(inst, from, to, viaKeyboard, base, press) {
  const rows = inst.rows.slice();
  const [moved] = rows.splice(from, 1);
  rows.splice(to, 0, moved);
  inst.rows = rows;
  inst.deltaBase = base;  // the change this move makes: against the figures before it
  inst.shown = previewOf(inst, rows);
  if (viaKeyboard) inst.focusId = moved.id;
  // Report first, so the rerun starts at once. Streamlit sends the report from a
  // setTimeout(0); the redraw is queued after it, so the frame it costs does not
  // delay the message (drawn in the next frame instead: measured 25 ms -> 1 ms).
  inst.setStateValue("order", rows.map((r) => r.id));
  send(inst, { action: "move", id: moved.id, from: from + 1, to: to + 1 });
  const ndcg = inst.shown ? inst.shown[inst.gains[0]].ndcg : null;
  announce(inst, ndcg == null
    ? word(inst, "moved", "{label} moved to position {pos}", { label: moved.label, pos: to + 1 })
    : word(inst, "moved_ndcg", "{label} moved to position {pos}; NDCG@{k} {ndcg}",
      { label: moved.label, pos: to + 1, k: inst.k, ndcg: fmt3(ndcg) }));
  const draw = () => {
    // A dropped row: its transform goes in the same frame as the DOM order changes.
    if (press) clearDragStyles(inst, press);
    clearMessages(inst);
    render(inst);  // optimistic: the new order and its figures, no flicker while Python runs
    showFigures(inst, inst.shown, inst.root.dataset.figures === "engine" ? "engine" : "preview");
  };
  setTimeout(draw, 0);
}

function setGrade(inst, id, text) {
  const i = indexOfId(inst, id);
  if (i < 0) return false;
  const row = inst.rows[i];
  const checked = checkGrade(text, inst.scale, row.gradeText, inst.labels && inst.labels.grade);
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
  announce(inst, word(inst, "graded", "{label}: grade {old} → {new}", { label: row.label, old: row.gradeText, new: rows[i].gradeText }));
  send(inst, { action: "grade", id, grade: checked.value });
  return true;
}

function rename(inst, id, text) {
  const i = indexOfId(inst, id);
  if (i < 0) return false;
  const label = String(text).trim();
  const row = inst.rows[i];
  if (!label) {
    setMessage(inst, id, word(inst, "label_empty", "A label cannot be empty: type a name. The label stays “{current}”.", { current: row.label }));
    return false;
  }
  if (label.length > inst.maxLabel) {
    setMessage(inst, id, word(inst, "label_long", "A label has at most {max} characters (this one has {n}). The label stays “{current}”.", { max: inst.maxLabel, n: label.length, current: row.label }));
    return false;
  }
  setMessage(inst, id, "");
  if (label === row.label) return true;
  const rows = inst.rows.slice();
  rows[i] = { ...row, label };
  inst.rows = rows;
  inst.focusId = id;
  render(inst);
  announce(inst, word(inst, "renamed", "{old} renamed to {new}", { old: row.label, new: label }));
  send(inst, { action: "rename", id, label });
  return true;
}

function remove(inst, id) {
  const i = indexOfId(inst, id);
  if (i < 0 || inst.disabled || !inst.editable) return;
  if (inst.rows.length <= 1) {
    setMessage(inst, id, word(inst, "last_item", "The list needs at least one item: add another before removing this one."));
    return;
  }
  const row = inst.rows[i];
  const next = inst.rows[i + 1] || inst.rows[i - 1];
  inst.rows = inst.rows.filter((r) => r.id !== id);
  inst.focusId = next ? next.id : null;
  render(inst);
  announce(inst, word(inst, "removed", "{label} removed", { label: row.label }));
  send(inst, { action: "remove", id });
}

function add(inst) {
  if (inst.disabled || !inst.editable) return;
  inst.expectNew = new Set(inst.rows.map((r) => r.id));
  send(inst, { action: "add" });
}

// ------------------------------------------------------------------ in-place editors

function openEditor(inst, id, field) {
  if (inst.disabled || !inst.editable || inst.press) return;
  const refs = inst.refs.find((r) => r.row.id === id);
  if (!refs) return;
  const cell = refs.li.querySelector(field === "grade" ? ".rt-grade" : ".rt-label");
  const input = el("input", "rt-input rt-input-" + field);
  input.type = "text";
  input.value = field === "grade" ? refs.row.gradeText : refs.row.label;
  if (field === "grade") input.inputMode = "decimal";
  input.setAttribute("aria-label", field === "grade"
    ? word(inst, "new_grade", "New grade for {label} ({scale})", { label: refs.row.label, scale: inst.scaleText })
    : word(inst, "new_label", "New label for {label}", { label: refs.row.label }));
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

// ------------------------------------------------------------------ keyboard

function onKeyDown(inst, event) {
  if (event.target && event.target.tagName === "INPUT") return;
  const row = rowFromEvent(inst, event);
  if (!row) return;
  if (event.key === "Escape" && inst.press) {
    event.preventDefault();
    endPress(inst, false);
    return;
  }
  const id = row.dataset.itemId;
  const from = indexOfId(inst, id);
  const last = inst.rows.length - 1;
  const plain = !event.altKey && !event.ctrlKey && !event.metaKey;
  if (event.altKey && !event.ctrlKey && !event.metaKey) {
    const targets = { ArrowUp: from - 1, ArrowDown: from + 1, Home: 0, End: last };
    if (!(event.key in targets)) return;
    event.preventDefault();
    if (inst.disabled || inst.press) return;
    const to = Math.max(0, Math.min(last, targets[event.key]));
    if (to === from) {
      announce(inst, word(inst, "already", "{label} is already at position {pos}", { label: inst.rows[from].label, pos: from + 1 }));
      return;
    }
    move(inst, from, to, true, inst.shown, null);
    return;
  }
  if (!plain) return;
  if (!event.shiftKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
    const sibling = event.key === "ArrowUp" ? row.previousElementSibling : row.nextElementSibling;
    if (sibling) {
      event.preventDefault();
      sibling.focus();
    }
    return;
  }
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

// ------------------------------------------------------------------ pointer drag

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
  if (inst.disabled || inst.press || !event.isPrimary || inst.editing) return;
  if (event.pointerType === "mouse" && event.button !== 0) return;
  const row = rowFromEvent(inst, event);
  if (!row) return;
  const onGrip = Boolean(event.target.closest(".rt-grip"));
  const touch = event.pointerType !== "mouse";
  if (touch && event.target.closest("button")) return;  // a tap on a button stays a tap
  inst.press = {
    pointerId: event.pointerId, row, id: row.dataset.itemId,
    from: indexOfId(inst, row.dataset.itemId),
    startX: event.clientX, startY: event.clientY, lastY: event.clientY,
    // Mouse: drag from anywhere past a 5 px threshold. Touch on the grip
    // (touch-action: none): the same. Touch elsewhere on the row (touch-action:
    // pan-y): a hold of LONG_PRESS_MS arms the drag; moving before that scrolls.
    mode: !touch || onGrip ? "threshold" : "hold",
    armed: !touch || onGrip, active: false, to: null, raf: 0, scrollStep: 0, timer: 0,
  };
  const p = inst.press;
  if (p.mode === "hold") {
    p.timer = setTimeout(() => {
      if (inst.press !== p) return;
      p.armed = true;
      startDrag(inst, p);
      updateDrag(inst, p);
      if (navigator.vibrate) { try { navigator.vibrate(12); } catch (_) { /* not allowed */ } }
    }, LONG_PRESS_MS);
  }
  // No pointer capture yet: a click (no drag) must still reach the grade or remove button.
}

function layoutFor(inst, p, to) {
  // Where every row would stand if the held row were at `to`: rows stacked in
  // the new order with their own heights, the cutoff gap before position k + 1.
  const order = p.baseOrder.slice();
  const [held] = order.splice(p.from, 1);
  order.splice(to, 0, held);
  const tops = new Array(order.length);
  let y = p.listTop;
  for (let j = 0; j < order.length; j++) {
    if (j === inst.k && j > 0) y += inst.cutGap;
    tops[order[j]] = y;
    y += p.heights[order[j]] + p.gap;
  }
  return { order, tops };
}

function startDrag(inst, p) {
  p.active = true;
  const rows = inst.refs.map((r) => r.li);
  // Measure once per drag; moves then only compare numbers.
  p.tops0 = rows.map((r) => r.offsetTop);
  p.heights = rows.map((r) => r.offsetHeight);
  p.baseOrder = rows.map((_, i) => i);
  const style = getComputedStyle(inst.list);
  p.gap = parseFloat(style.rowGap) || 0;
  p.listTop = p.tops0.length ? p.tops0[0] : 0;
  p.grabOffset = p.startY - p.row.getBoundingClientRect().top;
  p.baseRows = inst.rows;
  p.savedShown = inst.shown;
  p.savedBase = inst.deltaBase;
  p.savedSource = inst.root.dataset.figures;
  p.row.classList.add("is-dragging");
  inst.root.classList.add("is-dragging-active");
  inst.deltaBase = inst.shown;  // while dragging: the change the drop would make
  p.scrollBox = findScrollBox(inst.root);
  p.to = p.from;
  // While rows move, the line between positions k and k + 1 stays put: drawn apart.
  if (inst.k > 0 && inst.k < rows.length) {
    inst.cutLine.hidden = false;
    inst.cutLine.style.top = `${p.tops0[inst.k] - inst.cutGap / 2 - 1}px`;
    inst.cutLine.querySelector(".rt-cut-text").textContent = rows[inst.k - 1].dataset.cut || "";
  }
  try { p.row.setPointerCapture(p.pointerId); } catch (_) { /* pointer already gone */ }
}

function updateDrag(inst, p) {
  // Pointer position in the list's coordinates (the list may have scrolled with the page).
  const listTop = inst.list.getBoundingClientRect().top;
  const rowTop = p.lastY - listTop - p.grabOffset;  // in the list's coordinates  // where the held row's top is
  const center = rowTop + p.heights[p.from] / 2;
  let to = 0;
  for (let i = 0; i < p.tops0.length; i++) {
    if (i === p.from) continue;
    if (p.tops0[i] + p.heights[i] / 2 < center) to++;
  }
  p.row.style.transform = `translateY(${rowTop - p.tops0[p.from]}px)`;
  if (to === p.to && p.shownOnce) return;
  p.to = to;
  p.shownOnce = true;
  const { order, tops } = layoutFor(inst, p, to);
  for (let i = 0; i < inst.refs.length; i++) {
    if (i === p.from) continue;
    const shift = tops[i] - p.tops0[i];
    if (inst.refs[i].shift === shift) continue;  // most rows of a long list stay put
    inst.refs[i].shift = shift;
    inst.refs[i].li.style.transform = shift ? `translateY(${shift}px)` : "";
  }
  const rows = order.map((i) => p.baseRows[i]);
  const refs = order.map((i) => inst.refs[i]);
  const figures = previewOf(inst, rows);
  fillRows(inst, refs, figures, false, true);
  showFigures(inst, figures, "preview");
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
    const moved = Math.hypot(event.clientX - p.startX, event.clientY - p.startY);
    if (p.mode === "hold") {
      // Moved before the hold completed: this is a scroll (the browser takes it).
      if (moved > LONG_PRESS_SLOP_PX) endPress(inst, false);
      return;
    }
    if (moved < THRESHOLD_PX) return;
    startDrag(inst, p);
  }
  event.preventDefault();
  updateDrag(inst, p);
  autoScroll(inst, p);
}

function clearDragStyles(inst, p) {
  inst.cutLine.hidden = true;
  inst.root.classList.add("no-anim");
  for (const r of inst.refs) {
    r.li.style.transform = "";
    r.shift = 0;
  }
  p.row.classList.remove("is-dragging");
  inst.root.classList.remove("is-dragging-active");
  // Let the untransformed layout paint before transitions come back.
  requestAnimationFrame(() => requestAnimationFrame(() => inst.root.classList.remove("no-anim")));
}

function endPress(inst, drop) {
  const p = inst.press;
  if (!p) return;
  inst.press = null;
  clearTimeout(p.timer);
  if (p.raf) cancelAnimationFrame(p.raf);
  try {
    if (p.row.hasPointerCapture(p.pointerId)) p.row.releasePointerCapture(p.pointerId);
  } catch (_) { /* row already gone */ }
  const dropping = drop && p.active && p.to !== null && p.to !== p.from && !inst.pending;
  if (p.active) {
    inst.suppressClick = true;  // the click that follows a drag is not a click on the grade
    setTimeout(() => { inst.suppressClick = false; }, 0);
    if (!dropping) clearDragStyles(inst, p);
  }
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

function onClick(inst, event) {
  if (inst.suppressClick) {
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  const t = event.target;
  if (t.closest(".rt-add")) { add(inst); return; }
  const row = rowFromEvent(inst, event);
  if (!row) return;
  const id = row.dataset.itemId;
  if (t.closest(".rt-grade-btn")) openEditor(inst, id, "grade");
  else if (t.closest(".rt-remove")) remove(inst, id);
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
  // Touch: once a hold has armed the drag, the finger moves the row, not the page.
  list.addEventListener("touchmove", (e) => {
    if (inst.press && inst.press.armed && e.cancelable) e.preventDefault();
  }, { passive: false });
  list.addEventListener("contextmenu", (e) => {
    if (inst.press) e.preventDefault();
  });
  list.addEventListener("keydown", (e) => onKeyDown(inst, e));
  list.addEventListener("dblclick", (e) => {
    const row = rowFromEvent(inst, e);
    if (row && e.target.closest(".rt-label")) openEditor(inst, row.dataset.itemId, "label");
  });
  inst.root.addEventListener("click", (e) => onClick(inst, e), true);
}

// ------------------------------------------------------------------ data from Python

function instanceFor(root) {
  let inst = INSTANCES.get(root);
  if (inst) return inst;
  const q = (sel) => root.querySelector(sel);
  inst = {
    root,
    figBox: q(".rt-figures"),
    list: q(".rt-list-rank"),
    headRank: q(".rt-rank .rt-head"),
    cutLine: q(".rt-rank .rt-cutline"),
    idealBox: q(".rt-ideal"),
    idealTitle: q(".rt-ideal .rt-title"),
    idealList: q(".rt-list-ideal"),
    headIdeal: q(".rt-ideal .rt-head"),
    idealCutLine: q(".rt-ideal .rt-cutline"),
    live: q(".rt-live"),
    hint: q(".rt-hint"),
    hintId: "rt-hint",
    notice: q(".rt-notice"),
    rows: [], refs: [], idealRows: [], gains: ["linear"], k: 1,
    idcg: null, zero: 0, scale: null, scaleText: "", maxGain: {}, maxLabel: 80,
    engine: null, shown: null, deltaBase: null, engineBase: null, idealFigures: null,
    messages: {}, editable: true, disabled: false, showIdeal: true, hasPool: false, labels: {},
    cutGap: 18, rowCache: new Map(), headSig: null, idealSig: null, figSig: null,
    press: null, pending: null, focusId: null, editing: null, expectNew: null,
    suppressClick: false, announceTimer: 0, resendTimer: 0,
    setStateValue: () => {}, setTriggerValue: () => {},
  };
  INSTANCES.set(root, inst);
  bind(inst);
  return inst;
}

/** The markup's own words (ranking_table.html holds the English) in the labels' language. */
function applyWords(inst) {
  const root = inst.root;
  const set = (sel, attr, key, fallback) => {
    for (const node of root.querySelectorAll(sel)) {
      const text = word(inst, key, fallback);
      if (attr) node.setAttribute(attr, text);
      else node.textContent = text;
    }
  };
  set(".rt-rank", "aria-label", "your_ranking", "Your ranking");
  set(".rt-rank .rt-title", null, "your_ranking", "Your ranking");
  set(".rt-add", null, "add_item", "+ Add item");
  set(".rt-list-rank", "aria-label", "ranked_list", "Ranked list");
  set(".rt-ideal", "aria-label", "ideal", "Ideal ordering");
  set(".rt-list-ideal", "aria-label", "ideal", "Ideal ordering");
  inst.idealSig = null;  // the ideal's title and rows are drawn again in these words
}

function apply(inst, data) {
  const d = data || {};
  inst.gains = Array.isArray(d.gains) && d.gains.length ? d.gains.filter((g) => g in GAIN_SHORT) : ["linear"];
  inst.rows = (Array.isArray(d.rows) ? d.rows : []).map(toRow);
  inst.idealRows = (Array.isArray(d.ideal_rows) ? d.ideal_rows : []).map(toRow);
  inst.k = Number.isInteger(d.k) && d.k > 0 ? d.k : inst.rows.length;
  inst.idcg = d.idcg || null;
  inst.zero = d.zero === undefined ? 0 : d.zero;
  inst.scale = d.scale || null;
  inst.scaleText = d.scale_text || "";
  const labels = d.labels && typeof d.labels === "object" ? d.labels : {};
  const wordsChanged = JSON.stringify(labels) !== JSON.stringify(inst.labels);
  inst.labels = labels;
  if (wordsChanged) applyWords(inst);
  inst.maxGain = d.max_gain || {};
  inst.maxLabel = d.max_label || 80;
  inst.editable = d.editable !== false;
  inst.disabled = Boolean(d.disabled);
  inst.showIdeal = d.show_ideal !== false;
  inst.hasPool = Boolean(d.has_pool);
  inst.messages = d.messages && typeof d.messages === "object" ? { ...d.messages } : {};
  inst.idealFigures = d.ideal_figures || null;
  const engine = d.figures || null;
  // The change the last edit made: against the engine's previous figures.
  const prev = inst.engine;
  if (prev && engine && JSON.stringify(prev) !== JSON.stringify(engine)) inst.engineBase = prev;
  else if (!engine) inst.engineBase = null;
  inst.engine = engine;
  inst.deltaBase = inst.engineBase;
  inst.root.classList.toggle("is-disabled", inst.disabled);
  inst.root.classList.toggle("is-two", inst.gains.length > 1);
  inst.root.classList.toggle("no-ideal", !inst.showIdeal);
  inst.notice.textContent = d.notice || "";
  inst.notice.hidden = !d.notice;
  inst.hint.textContent = d.hint || "";
  inst.addBtn.hidden = !inst.editable || inst.disabled;
  let focusNew = null;
  if (inst.expectNew) {
    const added = inst.rows.find((r) => !inst.expectNew.has(r.id));
    inst.expectNew = null;
    if (added) focusNew = added.id;
  }
  const structure = `${inst.gains.join()}|${inst.editable}|${inst.disabled}|${inst.k}`;
  if (structure !== inst.structure || wordsChanged) {
    inst.structure = structure;
    inst.rowCache.clear();
    inst.headSig = null;
    buildFigures(inst);
  }
  inst.shown = engine;
  render(inst);
  renderIdeal(inst);
  showFigures(inst, engine, "engine");
  if (inst.answerPending) {
    // The engine's answer to this table's event is drawn: the page may now redraw what
    // explains it (ui.ranking_table.settled_listener; the playground's formula and link),
    // in a rerun of its own that does not hold this answer back. Told after the next
    // frame is painted: reporting a trigger costs Streamlit a render of the page
    // (measured ~30 ms of main-thread time on the playground), which, done here, would
    // delay the frame that shows the answer (tests/bench/bench_ranking_table.py).
    inst.answerPending = false;
    afterPaint(() => window.dispatchEvent(new CustomEvent(SETTLED_EVENT)));
  }
  const r = focusNew && inst.refs.find((x) => x.row.id === focusNew);
  if (r) {
    r.li.focus({ preventScroll: true });
    r.li.scrollIntoView({ block: "nearest" });
  }
}

export default function rankingTable({ data, parentElement, setStateValue, setTriggerValue }) {
  const root = parentElement.querySelector(".rt");
  if (!root) throw new Error("ranking_table: component markup is missing");
  const inst = instanceFor(root);
  inst.addBtn = root.querySelector(".rt-add");
  inst.setStateValue = setStateValue;
  inst.setTriggerValue = setTriggerValue;
  clearInterval(inst.resendTimer);  // a run has answered: nothing left to resend
  // Redrawing now would drop the held row or the value being typed: wait for them.
  if (inst.press || inst.editing) inst.pending = data;
  else apply(inst, data);
  return () => endPress(inst, false);
}
