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

/** One term grade / log2(i + 1) (linear) or (2^grade − 1) / log2(i + 1) (exponential). */
function term(gradeText, pos, gain) {
  const frac = el("span", "fx-frac");
  const num = el("span", "fx-num");
  if (gain === "exponential") {
    num.append("2");
    num.appendChild(el("sup", "", gradeText));
    num.append(" − 1");
  } else {
    num.textContent = gradeText;
  }
  frac.append(num, el("span", "fx-den", `log₂ ${pos + 1}`));
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

function sum(grades, k, gain) {
  const shown = grades.slice(0, k);
  const parts = [];
  shown.slice(0, MAX_TERMS).forEach((g, i) => {
    if (i) parts.push("+");
    parts.push(term(g, i + 1, gain));
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
  for (const g of f.gains) {
    const fig = f.figures && f.figures[g];
    if (!fig) continue;
    const block = el("div", "fx-block");
    block.dataset.gain = g;
    if (f.gains.length > 1) block.appendChild(el("div", "fx-gain", say(labels, "note_" + g)));
    const dcg = fmt3(fig.dcg);
    const idcg = fmt3(fig.idcg);
    block.appendChild(line(`DCG@${k}`, ["=", ...sum(f.grades, k, g), "=", dcg]));
    block.appendChild(line(`IDCG@${k}`, ["=", ...sum(f.ideal, k, g), "=", idcg]));
    const last = fig.idcg > 0
      ? line(`NDCG@${k}`, ["=", ratio(`DCG@${k}`, `IDCG@${k}`), "=", ratio(dcg, idcg), "=", fmt3(fig.ndcg)])
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
  root.dataset.size = data.size === "present" ? "present" : "normal";  // formula.css
  inst.labels = data.labels;
  // What the table shows now, if it has drawn since this page loaded; else Python's.
  const latest = window[FIGURES_EVENT] && window[FIGURES_EVENT][data.table];
  drawFormula(root, latest || data.formula, inst.labels);
  return () => inst.unbind();
}
