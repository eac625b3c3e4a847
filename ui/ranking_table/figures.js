// The ranking table's arithmetic: the browser's twin of ndcg_core.dcg_table / ndcg, used
// between reruns (while a row is held, after a key press) so every figure on the first
// screen shows the new order in the frame that shows the order. When Python answers, the
// engine's numbers replace these; tests/browser/test_ranking_table.py checks both agree
// (1e-9, the same 3-decimal text) on 600 random lists. No DOM, no imports: the test loads
// this file alone.

/** Gain of one grade: linear (Järvelin & Kekäläinen 2002) or 2^g − 1 (Burges et al. 2005).
 * conv (lab.rules.conv, the playground's mistake settings; absent: the engine's defaults):
 * a negative grade gains 0 unless let through, and a numerator of 1 counts every item 1. */
export function gainOf(grade, gain, conv) {
  if (conv && conv.negative === "zero" && grade < 0) return 0;
  if (conv && conv.numerator === "one") return 1;
  const formula = GAIN_FORMULAS[gain];
  if (!formula) throw new Error(`figures.js has no formula for the gain ${gain}`);
  return formula(grade);
}

// Each gain's formula, as lab/gains.py declares it (Gain.js; tests/lab/test_gains.py checks
// the two agree): a gain missing here is refused, never drawn as another.
const GAIN_FORMULAS = {
  linear: (g) => g,
  exponential: (g) => Math.pow(2, g) - 1,
};

/** The discount of position `pos` (1-based) as ndcg_core's denominators computes it:
 * log2(i + 1); ln(i + 1) (in DCG only for "ln_dcg": `ideal` is IDCG's side); Järvelin &
 * Kekäläinen's b = 2, 1 below rank 2 then log2(i); log2(i + 2) (ranks from 0). */
export function discountOf(pos, conv, ideal) {
  const d = conv ? conv.discount : "log2";
  if (d === "ln" || (d === "ln_dcg" && !ideal)) return Math.log(pos + 1);
  if (d === "jarvelin") return pos < 2 ? 1 : Math.log2(pos);
  if (d === "shifted") return Math.log2(pos + 2);
  return Math.log2(pos + 1);
}

// A sum within 8u·Σ|term| of 0 (u = 2^-53) is 0: the bound of ndcg_core/_exact.py, where
// each term's rounding is accounted for.
const ZERO_BOUND = 2 ** -50;

/** The partials (Shewchuk 1997; non-overlapping, smallest first) rounded once to the
 * nearest double, half to even across partials, as Python's math.fsum rounds them. */
function roundPartials(p) {
  let n = p.length;
  if (n === 0) return 0;
  let hi = p[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = p[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/** Every running sum of `terms`, each the exact sum rounded once and 0 within the bound:
 * ndcg_core._exact.prefix_sums to the last bit (so the preview's DCG of a list built to
 * cancel is 0, as the engine's). Returns {sums, sizes}; sizes are the running Σ|term|. */
export function prefixSums(terms) {
  const partials = [];
  const sums = new Array(terms.length);
  const sizes = new Array(terms.length);
  let size = 0;
  for (let j = 0; j < terms.length; j++) {
    let x = terms[j];
    size += Math.abs(x);
    let i = 0;
    for (let m = 0; m < partials.length; m++) {
      let y = partials[m];
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
    const total = roundPartials(partials);
    sums[j] = Math.abs(total) <= ZERO_BOUND * size ? 0 : total;
    sizes[j] = size;
  }
  return { sums, sizes };
}

/** The discount column's heading for these settings. */
export function discountHead(conv, ideal) {
  const d = conv ? conv.discount : "log2";
  if (d === "ln" || (d === "ln_dcg" && !ideal)) return "ln (i+1)";
  if (d === "jarvelin") return "max(1, log₂ i)";
  if (d === "shifted") return "log₂ (i+2)";
  return "log₂ (i+1)";
}

/** DCG@k of `gain` under log2(i + 1), with IDCG@k under log2 as Python sent it. */
function log2Sums(gain, conv, kk, best) {
  const plain = { ...conv, discount: "log2" };
  const { sums, sizes } = prefixSums(gain.map((x, i) => x / discountOf(i + 1, plain, false)));
  return { dcg: kk > 0 ? sums[kk - 1] : 0, best, sizes };
}

/**
 * Every figure of the ranked list `grades` (position 1 first), per gain.
 * opts: {k: cutoff (null = whole list), gains: ["linear", ...],
 *        idcg: {gain: IDCG@k from Python}, idcgLog2: {gain: IDCG@k under log2(i + 1), sent
 *        with the ln discount}, zero: NDCG when IDCG@k <= 0 (0, 1 or null),
 *        conv: the mistake settings (lab.rules.conv) or null}: with cut "ideal_only" DCG
 *        sums the whole list; with negatives let through only an IDCG of exactly 0 is
 *        replaced by `zero` (a negative one divides, as scikit-learn 0.22 did).
 * Returns {gain: {gain[], discount[], contribution[], cumulative[], dcg, idcg, ndcg}}.
 */
export function preview(grades, opts) {
  const n = grades.length;
  const conv = opts.conv || null;
  const whole = opts.k == null || (conv && conv.cut === "ideal_only");
  const kk = whole ? n : Math.max(0, Math.min(opts.k, n));
  const out = {};
  for (const g of opts.gains) {
    const gain = new Array(n);
    const discount = new Array(n);
    const contribution = new Array(n);
    for (let i = 0; i < n; i++) {
      gain[i] = gainOf(grades[i], g, conv);
      discount[i] = discountOf(i + 1, conv, false);
      contribution[i] = gain[i] / discount[i];  // divided, as the engine: no reciprocal
    }
    const { sums: cumulative, sizes } = prefixSums(contribution);
    const dcg = kk > 0 ? cumulative[kk - 1] : 0;
    const best = opts.idcg ? opts.idcg[g] : null;
    // ln(i + 1) = ln 2 · log2(i + 1): as ndcg_core, the ratio and its rules are taken from
    // the log2 sums (Python sends IDCG's), so every log base gives the very same NDCG
    const log2 = conv && conv.discount === "ln" && opts.idcgLog2 ? opts.idcgLog2[g] : undefined;
    const ratio = log2 === undefined ? { dcg, best, sizes }
      : log2Sums(gain, conv, kk, log2);
    const zero = opts.zero === undefined ? 0 : opts.zero;
    const divides = conv && conv.negative === "through" ? ratio.best !== 0 : ratio.best > 0;
    // DCG equal to IDCG within the bound of their terms (the ideal's taken as the
    // ranking's: the same items) is NDCG 1 exactly, as ndcg_core decides it
    const same = kk > 0 && Math.abs(ratio.dcg - ratio.best) <= ZERO_BOUND * 2 * ratio.sizes[kk - 1];
    const ndcg = best == null ? null : !divides ? zero : same ? 1 : ratio.dcg / ratio.best;
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
export function exact(x) {
  if (x === null || x === undefined) return "";
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  return String(x);
}

/** A grade as Python's lab.ranking_table.grade_text writes it (f"{g:g}": 6 significant
 * digits), so the optimistic redraw and the engine's agree. */
export function gradeText(grade) {
  if (grade === null || grade === undefined) return "?";
  return Number.isInteger(grade) ? String(grade) : String(Number(grade.toPrecision(6)));
}

/**
 * A typed grade checked against the scale: {value} when the scale takes `text`, else
 * {message}. `messages`: the scale's refused-grade templates from Python
 * (lab.ranking_table.grade_messages), {value} and {current} filled here.
 */
export function checkGrade(text, scale, current, messages) {
  const t = String(text).trim();
  const fill = (key, value) => ({
    message: messages[key].replace(/\{(value|current)\}/g, (m, name) => (name === "value" ? value : current)),
  });
  const lo = scale && scale.min != null ? scale.min : null;
  const hi = scale && scale.max != null ? scale.max : null;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return fill("not_number_typed", t.slice(0, 20));
  const value = Number(t);
  if (!Number.isFinite(value)) return fill("too_large", t.slice(0, 20));
  if ((lo != null && value < lo) || (hi != null && value > hi)) return fill("outside", t);
  if (scale && scale.integer && !Number.isInteger(value)) return fill("not_whole", t);
  return { value };
}
