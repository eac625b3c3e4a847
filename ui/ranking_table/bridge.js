// The ranking table's bridge to Streamlit (st.components.v2, Streamlit 1.67; the notes in
// ui/sortable/__init__.py say how it runs a component):
// - the default export runs again on every rerun with new `data`, on the same root;
//   listeners are bound once per root (WeakMap) and every call redraws;
// - `parentElement` is a ShadowRoot: focus is read from getRootNode();
// - state "order" is the browser's latest order; trigger "event" carries one action per
//   report ({action: "move" | "grade" | "rename" | "remove" | "add"}).
// This file is the last of the component's files (ui/ranking_table/__init__.py joins them
// into one module): it holds the instance, reads `data` and sends the reports.

const INSTANCES = new WeakMap();  // root element -> per-instance state
// Table key -> what this page last had from the server and what the student did since:
// {session, rows (their labels and grades, in order), pending (events not acknowledged)}.
// Kept by the module, shared by instances, so a table drawn again after a reconnect still
// knows what the student had.
const SEEN = new Map();
// Table keys whose last changes an expired session lost: said until the user's next change.
const LOST = new Set();

// A change is reported as an "event" trigger (a move also as the new order: state). If the
// connection is down, the trigger is lost and nothing reruns when it comes back:
// every event a run has not acknowledged (data.ack) is sent again every few seconds; the
// server applies each (instance, seq) once, so an add is not made twice.
const RESEND_MS = 4000;
const RESEND_FOR_MS = 120000;
const SETTLED_EVENT = "ndcg-ranking-table-settled";
const FIGURES_EVENT = "ndcg-ranking-table-figures";  // formula.js listens (the same name)

/** Run `fn` once the next frame has been painted (a task queued from that frame); in a
 * hidden page, which paints no frames, at once. */
function afterPaint(fn) {
  if (document.hidden) setTimeout(fn, 0);
  else requestAnimationFrame(() => setTimeout(fn, 0));
}

function send(inst, event) {
  LOST.delete(inst.key);  // the next change the user makes retires the lost-changes notice
  inst.answerPending = true;  // apply() tells the page when the answer is drawn
  inst.root.dataset.figures = event.action === "move" ? "preview" : "pending";
  // seq orders this instance's events; the server applies each (instance, seq) once, so
  // every event can be sent again until a run acknowledges it (an add too).
  inst.seq += 1;
  const sent = { ...event, seq: inst.seq, instance: inst.instance, session: inst.session,
                 generation: inst.generation };
  inst.outbox.push(sent);
  SEEN.set(inst.key, { session: inst.session, rows: rowsSignature(inst.rows), pending: inst.outbox.length });
  // A trigger sent while an earlier one is unanswered can replace it in the server's queue
  // (Streamlit coalesces a widget's pending triggers, the newer wins): send every event
  // not yet acknowledged, in order (three quick Ctrl+Z are three undos).
  inst.setTriggerValue("event", inst.outbox.length > 1 ? batch(inst) : sent);
  clearInterval(inst.resendTimer);
  const since = Date.now();
  inst.resendTimer = setInterval(() => {
    if (!inst.outbox.length) return clearInterval(inst.resendTimer);
    if (Date.now() - since > RESEND_FOR_MS) {
      // Still unanswered: say so at the table rather than drop it silently.
      clearInterval(inst.resendTimer);
      showNotice(inst, word(inst, "unsent"));
      return;
    }
    // The rows are the browser's own order only when every event in flight is a move (made
    // here, or made again on the server's rows: replayMoves); otherwise they are the rows
    // the server drew before those events, and reported as the order they would read as a
    // move back once the events are applied (an undo resent after a slow answer did).
    if (inst.outbox.every((e) => e.action === "move")) {
      inst.setStateValue("order", inst.rows.map((r) => r.id));
    }
    inst.setTriggerValue("event", batch(inst));
  }, RESEND_MS);
}

function batch(inst) {
  return { action: "batch", events: inst.outbox.slice(), resent: Date.now(),
           instance: inst.instance, session: inst.session, generation: inst.generation };
}

function showNotice(inst, text) {
  inst.notice.textContent = text || "";
  inst.notice.hidden = !text;
}

function rowsSignature(rows) {
  return rows.map((r) => `${r.label}\u0000${r.gradeText}`).join("\u0001");
}

/** What a run's `data` says this table's server has: drop the events it acknowledged.
 * True when the server answered from a new session (the old one expired during a cut)
 * and what the student had is not what it sent (read before `data` is drawn). */
function acknowledge(inst, d) {
  const before = SEEN.get(d.key);
  const serverRows = rowsSignature((Array.isArray(d.rows) ? d.rows : []).map(toRow));
  const fresh = Boolean(before && before.session && before.session !== d.session);
  const lost = fresh && (before.pending > 0 || inst.outbox.length > 0 || before.rows !== serverRows);
  inst.session = d.session || null;
  if (fresh) {
    // What the browser reported names the old session's rows: report the new one's order,
    // so the next run does not read the old report as a move.
    inst.outbox = [];
    inst.setStateValue("order", (Array.isArray(d.rows) ? d.rows : []).map((r) => String(r.id)));
  }
  const ack = d.ack || {};
  if (ack.instance === inst.instance) inst.outbox = inst.outbox.filter((e) => e.seq > ack.seq);
  if (!inst.outbox.length) clearInterval(inst.resendTimer);
  SEEN.set(d.key, { session: inst.session, rows: serverRows, pending: inst.outbox.length });
  return lost;
}

/** The moves this page made that the server has not answered yet (a second Alt+↑ pressed
 * before the first one's run came back), made again on the rows the server sent: drawn
 * from `data` alone, its rows would undo them on screen, and the next key would move the
 * row from the place it had before. Only when every unanswered event is a move (what an
 * add, an undo or a visit does the server decides). True when a move was made again. */
function replayMoves(inst) {
  if (!inst.outbox.length || !inst.outbox.every((e) => e.action === "move")) return false;
  const rows = inst.rows.slice();
  for (const e of inst.outbox) {
    const from = rows.findIndex((r) => r.id === e.id);
    if (from < 0) return false;  // the server's rows are not the ones it was made on
    const [row] = rows.splice(from, 1);
    rows.splice(Math.max(0, Math.min(rows.length, e.to - 1)), 0, row);
  }
  inst.rows = rows;
  return true;
}

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
    live: q(".rt-live"),
    hint: q(".rt-hint"),
    hintId: "rt-hint",
    notice: q(".rt-notice"),
    rows: [], refs: [], idealRows: [], gains: ["linear"], k: 1,
    idcg: null, zero: 0, scale: null, scaleText: "", maxGain: {}, maxLabel: 80,
    engine: null, shown: null, deltaBase: null, engineBase: null, idealFigures: null,
    messages: {}, editable: true, disabled: false, showIdeal: true, hasUnretrieved: false, labels: {},
    cutGap: 18, rowCache: new Map(), headSig: null, idealSig: null,
    drag: null, pending: null, focusId: null, editing: null, expectNew: null,
    announceTimer: 0, resendTimer: 0,
    // events not yet acknowledged by a run; this page's instance and the server's session
    outbox: [], seq: 0, instance: Math.random().toString(36).slice(2), session: null,
    generation: null,
    setStateValue: () => {}, setTriggerValue: () => {},
  };
  INSTANCES.set(root, inst);
  bindTable(inst);
  return inst;
}

/** The markup's words (ranking_table.html holds none), in the labels' language. */
function applyWords(inst) {
  const root = inst.root;
  const set = (sel, attr, key) => {
    for (const node of root.querySelectorAll(sel)) {
      const text = word(inst, key);
      if (attr) node.setAttribute(attr, text);
      else node.textContent = text;
    }
  };
  set(".rt-rank", "aria-label", "your_ranking");
  set(".rt-rank .rt-title", null, "your_ranking");
  set(".rt-add", null, "add_item");
  set(".rt-list-rank", "aria-label", "ranked_list");
  set(".rt-ideal", "aria-label", "ideal");
  set(".rt-list-ideal", "aria-label", "ideal");
  inst.idealSig = null;  // the ideal's title and rows are drawn again in these words
}

function apply(inst, data) {
  const d = data || {};
  const lost = acknowledge(inst, d);
  inst.gains = Array.isArray(d.gains) && d.gains.length ? d.gains.filter((g) => g in GAIN_FORMULAS) : ["linear"];
  inst.rows = (Array.isArray(d.rows) ? d.rows : []).map(toRow);
  const replayed = replayMoves(inst);
  inst.idealRows = (Array.isArray(d.ideal_rows) ? d.ideal_rows : []).map(toRow);
  inst.k = Number.isInteger(d.k) && d.k > 0 ? d.k : inst.rows.length;
  inst.gainShort = d.gain_short || {};  // lab/gains.py: a column's sub-head, a CSS class
  inst.idcg = d.idcg || null;
  inst.idcgLog2 = d.idcg_log2 || null;
  inst.zero = d.zero === undefined ? 0 : d.zero;
  inst.conv = d.conv || null;  // the playground's mistake settings (figures.js computes them)
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
  inst.hasUnretrieved = Boolean(d.has_unretrieved);
  inst.messages = d.messages && typeof d.messages === "object" ? { ...d.messages } : {};
  inst.idealFigures = d.ideal_figures || null;
  inst.key = d.key || null;
  inst.history = Boolean(d.history);
  // Sent back with every event: which of the server's settings of the page's other widgets
  // this page had drawn (ranking_table's `generation`).
  inst.generation = Number.isInteger(d.generation) ? d.generation : null;
  if (inst.history) bindHistory(inst);
  else if (inst.unbindHistory) inst.unbindHistory();
  drawHistoryButtons(inst, d.history || null);
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
  inst.root.classList.toggle("no-figures", d.show_figures === false);
  // "present": type for a projector (ranking_table.css, presenter view)
  inst.root.dataset.size = d.size === "present" ? "present" : "normal";
  // Changes lost with an expired session are said, at the table, until the user's next
  // change: the run the new session's own order report causes must not wipe it at once.
  if (lost) LOST.add(d.key);
  showNotice(inst, LOST.has(d.key) ? word(inst, "session_lost") : d.notice || "");
  inst.hint.textContent = d.hint || "";
  inst.addBtn.hidden = !inst.editable || inst.disabled;
  let focusNew = null;
  if (inst.expectNew) {
    const added = inst.rows.find((r) => !inst.expectNew.has(r.id));
    inst.expectNew = null;
    if (added) focusNew = added.id;
  }
  const structure = `${inst.gains.join()}|${inst.editable}|${inst.disabled}|${inst.k}|${JSON.stringify(inst.conv)}`;
  if (structure !== inst.structure || wordsChanged) {
    inst.structure = structure;
    inst.rowCache.clear();
    inst.headSig = null;
    buildFigures(inst);
  }
  inst.shown = engine;
  render(inst);
  renderIdeal(inst);
  // Moves made again: their figures are the browser's preview until their answer comes.
  if (replayed) showFigures(inst, previewOf(inst, inst.rows), "preview");
  else showFigures(inst, engine, "engine");
  if (inst.answerPending && !replayed) {
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
  // Redrawing now would drop the held row or the value being typed: wait for them.
  if (inst.drag.press || inst.editing) inst.pending = data;
  else apply(inst, data);
  return () => {
    endPress(inst.drag, false);
    if (inst.unbindHistory) inst.unbindHistory();
  };
}
