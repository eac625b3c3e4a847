// The formula under the ranking table: DCG@k's and IDCG@k's sums and the NDCG ratio with
// the numbers substituted, drawn as HTML (no KaTeX on the move path). It shows what the
// table shows, in the same frame: the table announces every set of figures it draws (the
// engine's, or its preview during a drag and after a key press) with FIGURES_EVENT, and
// this rewrites its numbers from that at once (only the text that changed; the elements
// are built again only when the formula's shape or words change). Its own `data` (from
// Python, the same figures the table was given: lab.ranking_table.formula_data) draws it
// until the table has spoken.
// ui/ranking_table/__init__.py joins figures.js, dom.js and this file into one module.

const FIGURES_EVENT = "ndcg-ranking-table-figures";
const MAX_TERMS = 8;  // then "⋯", as the lessons' formulas do
const FORMULAS = new WeakMap();  // root element -> {box, key, labels, shape, slots, unbind}

/** The denominator written for position `pos` under the settings `conv` (the discount
 * actually used: figures.js discountOf); `ideal`: IDCG's side. */
function denText(pos, conv, ideal) {
  const d = conv ? conv.discount : "log2";
  if (d === "ln" || (d === "ln_dcg" && !ideal)) return `ln ${pos + 1}`;
  if (d === "jarvelin") return pos < 2 ? "1" : `log₂ ${pos}`;
  if (d === "shifted") return `log₂ ${pos + 2}`;
  return `log₂ ${pos + 1}`;
}

/** One term grade / log2(i + 1) (linear) or (2^grade − 1) / log2(i + 1) (exponential), with
 * the numerator and the discount the settings `conv` use (a numerator of 1, another
 * discount; a negative grade counted as 0 is written by termGrade). `slots` gets the node
 * that holds the grade's text (null when the numerator is the constant 1). */
function term(pos, gain, slots, conv, ideal) {
  const frac = el("span", "fx-frac");
  const num = el("span", "fx-num");
  let slot = num;
  if (conv && conv.numerator === "one") {
    num.textContent = "1";
    slot = null;
  } else if (gain === "exponential") {
    num.append("2");
    slot = num.appendChild(el("sup", ""));
    num.append(" − 1");
  } else if (gain !== "linear") {
    // lab/gains.py's table: a gain this file cannot write is refused, not written as another
    throw new Error(`formula.js cannot write the numerator of the gain ${gain}`);
  }
  slots.push(slot);
  frac.append(num, el("span", "fx-den", denText(pos, conv, ideal)));
  return frac;
}

/** A grade as its term writes it: 0 for a negative grade the settings count as 0. */
function termGrade(text, conv) {
  return conv && conv.negative === "zero" && Number(text) < 0 ? "0" : text;
}

function line(name, parts) {
  const row = el("div", "fx-line");
  row.appendChild(el("span", "fx-name", name));
  for (const part of parts) {
    if (typeof part === "string") row.appendChild(el("span", "fx-op", part));
    else row.appendChild(part);
  }
  return row;
}

/** The first k grades' terms (at most MAX_TERMS, then "+ ⋯"); their grade nodes in `slots`. */
function sum(count, k, gain, slots, conv, ideal) {
  const shown = Math.min(count, k);
  const parts = [];
  for (let i = 0; i < Math.min(shown, MAX_TERMS); i++) {
    if (i) parts.push("+");
    parts.push(term(i + 1, gain, slots, conv, ideal));
  }
  if (shown > MAX_TERMS) parts.push("+", "⋯");
  return parts;
}

function ratio(top, bottom) {
  const frac = el("span", "fx-frac");
  frac.append(top, bottom);
  return frac;
}

/** The formula's elements for `f`'s shape (k, gains, lengths, IDCG > 0): every number in
 * them is a slot that fillFormula writes. */
/** Whether NDCG is written as DCG / IDCG (else "no gain"): IDCG > 0, or ≠ 0 where
 * negative grades go through to the ideal. */
function divides(fig, conv) {
  return conv && conv.negative === "through" ? fig.idcg !== 0 : fig.idcg > 0;
}

function buildFormula(box, f, labels) {
  const blocks = [];
  const slots = [];
  const k = f.k;
  const op = () => el("span", "fx-op");
  const conv = f.conv || null;
  const n = f.grades.length;
  // How deep each sum goes: DCG over the whole list (cut "ideal_only"), both at the list's
  // length when k passes it ("list_length"), else both at k (a sum past the list has its terms).
  const dk = conv && conv.cut === "ideal_only" ? n : conv && conv.cut === "list_length" ? Math.min(k, n) : k;
  const ik = conv && conv.cut === "list_length" ? Math.min(k, n) : k;
  for (const g of f.gains) {
    const fig = f.figures && f.figures[g];
    if (!fig) continue;
    const block = el("div", "fx-block");
    block.dataset.gain = g;
    if (f.gains.length > 1) block.appendChild(el("div", "fx-gain", say(labels, "note_" + g)));
    const s = { gain: g, grades: [], ideal: [], dcg: op(), idcg: op(), ndcg: op() };
    block.appendChild(line(`DCG@${dk}`, ["=", ...sum(f.grades.length, dk, g, s.grades, conv, false), "=", s.dcg]));
    block.appendChild(line(`IDCG@${ik}`, ["=", ...sum(f.ideal.length, ik, g, s.ideal, conv, true), "=", s.idcg]));
    let last;
    if (divides(fig, conv)) {
      s.top = el("span", "fx-num");
      s.bottom = el("span", "fx-den");
      last = line(`NDCG@${k}`, ["=", ratio(el("span", "fx-num", `DCG@${dk}`), el("span", "fx-den", `IDCG@${ik}`)),
                                "=", ratio(s.top, s.bottom), "=", s.ndcg]);
    } else {
      last = line(`NDCG@${k}`, ["=", s.ndcg, say(labels, "no_gain")]);
    }
    last.dataset.figure = `formula-ndcg-${g}`;
    block.appendChild(last);
    blocks.push(block);
    slots.push(s);
  }
  box.replaceChildren(...blocks);
  return slots;
}

function put(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

/** Write `f`'s numbers into the slots: only the text that changed (a move: a few grades,
 * DCG and NDCG). */
function fillFormula(slots, f) {
  const conv = f.conv || null;
  for (const s of slots) {
    const fig = f.figures[s.gain];
    s.grades.forEach((node, i) => put(node, termGrade(f.grades[i], conv)));
    s.ideal.forEach((node, i) => put(node, termGrade(f.ideal[i], conv)));
    put(s.dcg, fmt3(fig.dcg));
    put(s.idcg, fmt3(fig.idcg));
    put(s.top, fmt3(fig.dcg));
    put(s.bottom, fmt3(fig.idcg));
    put(s.ndcg, fmt3(fig.ndcg));
  }
}

/** The formula of `f` ({k, gains, grades, ideal, figures}) into `inst.box`, in `labels`'
 * words: built again only when its shape or words changed, else its numbers rewritten. */
function drawFormula(inst, f, labels) {
  const conv = f.conv || null;
  const shape = JSON.stringify([f.k, f.gains, f.grades.length, f.ideal.length, conv,
    f.gains.map((g) => (f.figures && f.figures[g] ? divides(f.figures[g], conv) : null))]);
  if (shape !== inst.shape || labels !== inst.drawnLabels) {
    inst.slots = buildFormula(inst.box, f, labels);
    inst.shape = shape;
    inst.drawnLabels = labels;
  }
  fillFormula(inst.slots, f);
}

function onFigures(root, event) {
  const inst = FORMULAS.get(root);
  if (!inst || !event.detail || event.detail.key !== inst.key) return;
  drawFormula(inst, event.detail, inst.labels);
}

export default function rankingFormula({ data, parentElement }) {
  const root = parentElement.querySelector(".fx");
  if (!root) throw new Error("ranking_formula: component markup is missing");
  let inst = FORMULAS.get(root);
  if (!inst) {
    inst = { box: root, key: null, labels: {}, shape: null, drawnLabels: null, slots: [] };
    FORMULAS.set(root, inst);
    const handler = (e) => onFigures(root, e);
    window.addEventListener(FIGURES_EVENT, handler);
    // Streamlit may call the cleanup before drawing again: the next call then binds anew.
    inst.unbind = () => { window.removeEventListener(FIGURES_EVENT, handler); FORMULAS.delete(root); };
  }
  inst.key = data.table;
  root.dataset.size = data.size === "present" ? "present" : "normal";  // formula.css
  inst.labels = data.labels;
  // What the table shows now, if it has drawn since this page loaded; else Python's.
  const latest = window[FIGURES_EVENT] && window[FIGURES_EVENT][data.table];
  drawFormula(inst, latest || data.formula, inst.labels);
  return () => inst.unbind();
}
