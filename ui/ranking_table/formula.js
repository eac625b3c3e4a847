// The formula under the ranking table: DCG@k's and IDCG@k's sums and the NDCG ratio with
// the numbers substituted, drawn as HTML (no KaTeX on the move path). It shows what the
// table shows, in the same frame: the table announces every set of figures it draws (the
// engine's, or its preview during a drag and after a key press) with FIGURES_EVENT, and
// this redraws from that at once. Its own `data` (from Python, the same figures the table
// was given: lab.ranking_table.formula_data) draws it until the table has spoken.
// ui/ranking_table/__init__.py joins figures.js, dom.js and this file into one module.

const FIGURES_EVENT = "ndcg-ranking-table-figures";
const MAX_TERMS = 8;  // then "⋯", as the lessons' formulas do
const FORMULAS = new WeakMap();  // root element -> {key, labels, bound}

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
 * the numerator and the discount the settings `conv` use (a negative grade counted as 0, a
 * numerator of 1, another discount). */
function term(gradeText, pos, gain, conv, ideal) {
  const frac = el("span", "fx-frac");
  const num = el("span", "fx-num");
  if (conv && conv.negative === "zero" && Number(gradeText) < 0) {
    num.textContent = "0";
  } else if (conv && conv.numerator === "one") {
    num.textContent = "1";
  } else if (gain === "exponential") {
    num.append("2");
    num.appendChild(el("sup", "", gradeText));
    num.append(" − 1");
  } else {
    num.textContent = gradeText;
  }
  frac.append(num, el("span", "fx-den", denText(pos, conv, ideal)));
  return frac;
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

function sum(grades, k, gain, conv, ideal) {
  const shown = grades.slice(0, k);
  const parts = [];
  shown.slice(0, MAX_TERMS).forEach((g, i) => {
    if (i) parts.push("+");
    parts.push(term(g, i + 1, gain, conv, ideal));
  });
  if (shown.length > MAX_TERMS) parts.push("+", "⋯");
  return parts;
}

function ratio(top, bottom) {
  const frac = el("span", "fx-frac");
  frac.append(el("span", "fx-num", top), el("span", "fx-den", bottom));
  return frac;
}

/** The formula of `f` ({k, gains, grades, ideal, figures}) into `box`, in `labels`' words. */
function drawFormula(box, f, labels) {
  const blocks = [];
  const k = f.k;
  const conv = f.conv || null;
  const n = f.grades.length;
  // How deep each sum goes: DCG over the whole list (cut "ideal_only"), both at the list's
  // length when k passes it ("list_length"), else both at k (a sum past the list has its terms).
  const dk = conv && conv.cut === "ideal_only" ? n : conv && conv.cut === "list_length" ? Math.min(k, n) : k;
  const ik = conv && conv.cut === "list_length" ? Math.min(k, n) : k;
  const through = conv && conv.negative === "through";
  for (const g of f.gains) {
    const fig = f.figures && f.figures[g];
    if (!fig) continue;
    const block = el("div", "fx-block");
    block.dataset.gain = g;
    if (f.gains.length > 1) block.appendChild(el("div", "fx-gain", say(labels, "note_" + g)));
    const dcg = fmt3(fig.dcg);
    const idcg = fmt3(fig.idcg);
    block.appendChild(line(`DCG@${dk}`, ["=", ...sum(f.grades, dk, g, conv, false), "=", dcg]));
    block.appendChild(line(`IDCG@${ik}`, ["=", ...sum(f.ideal, ik, g, conv, true), "=", idcg]));
    const divides = through ? fig.idcg !== 0 : fig.idcg > 0;
    const last = divides
      ? line(`NDCG@${k}`, ["=", ratio(`DCG@${dk}`, `IDCG@${ik}`), "=", ratio(dcg, idcg), "=", fmt3(fig.ndcg)])
      : line(`NDCG@${k}`, ["=", fmt3(fig.ndcg), say(labels, "no_gain")]);
    last.dataset.figure = `formula-ndcg-${g}`;
    block.appendChild(last);
    blocks.push(block);
  }
  box.replaceChildren(...blocks);
}

function onFigures(root, event) {
  const inst = FORMULAS.get(root);
  if (!inst || !event.detail || event.detail.key !== inst.key) return;
  drawFormula(root, event.detail, inst.labels);
}

export default function rankingFormula({ data, parentElement }) {
  const root = parentElement.querySelector(".fx");
  if (!root) throw new Error("ranking_formula: component markup is missing");
  let inst = FORMULAS.get(root);
  if (!inst) {
    inst = { key: null, labels: {} };
    FORMULAS.set(root, inst);
    const handler = (e) => onFigures(root, e);
    window.addEventListener(FIGURES_EVENT, handler);
    inst.unbind = () => window.removeEventListener(FIGURES_EVENT, handler);
  }
  inst.key = data.table;
  inst.labels = data.labels;
  // What the table shows now, if it has drawn since this page loaded; else Python's.
  const latest = window[FIGURES_EVENT] && window[FIGURES_EVENT][data.table];
  drawFormula(root, latest || data.formula, inst.labels);
  return () => inst.unbind();
}
