// Undo, redo and the browser's Back for the table that holds the page's history
// (`data.history`: the playground's; issue 25). ui/ranking_table/__init__.py joins this file
// into the table's module, before bridge.js, whose `send` it uses.
// - Ctrl+Z (Cmd+Z on a Mac) anywhere on the page sends {action: "undo"}; Ctrl+Shift+Z and
//   Ctrl+Y send {action: "redo"}: table events like a move, so they keep their order with
//   the moves and edits before them and are applied once however often they are re-sent
//   (seq, instance, session: issue 26). In a text field (the grade being typed, the judged
//   pool, any input or editable text) the keys are left to the browser's own undo.
// - Back and Forward: Streamlit reruns the page with the address of the history entry the
//   browser moved to, but a rerun's address can also lag a move (ui/state/__init__.py). So
//   the address is marked, before Streamlit reads it, with NAV_PARAM: "this came from the
//   browser's history". A capturing listener runs before Streamlit's own at the window
//   (DOM: capture listeners at the target first). The run writes the clean address back
//   in the same entry (Streamlit replaces the entry during a history navigation's run).

const NAV_PARAM = "nav";  // ui.state.NAV_PARAM
const NOT_TEXT = new Set(["button", "checkbox", "radio", "range", "submit", "reset", "color",
                          "file", "image"]);

/** "undo", "redo" or null for a key press. */
function historyAction(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = (event.key || "").toLowerCase();
  // event.code when the layout's letter is not Latin (a Cyrillic or Greek keyboard)
  const latin = /^[a-z]$/.test(key);
  if (key === "z" || (!latin && event.code === "KeyZ")) return event.shiftKey ? "redo" : "undo";
  if ((key === "y" || (!latin && event.code === "KeyY")) && !event.shiftKey) return "redo";
  return null;
}

/** Whether the key press goes to a field that keeps its own undo. */
function typingIn(event) {
  const target = event.composedPath()[0];
  if (!target || target.nodeType !== 1) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && !NOT_TEXT.has((target.type || "text").toLowerCase());
}

function onHistoryKey(inst, event) {
  const action = historyAction(event);
  if (!action || !inst.history || !inst.root.isConnected || event.defaultPrevented) return;
  if (typingIn(event)) return;
  event.preventDefault();  // the browser's own undo has nothing to do outside a field
  if (inst.disabled || inst.editing || (inst.drag && inst.drag.press)) return;
  send(inst, { action });
}

function markNavigation(inst) {
  if (!inst.history || !inst.root.isConnected) return;
  // Only an entry of this page, and not a jump to an anchor on it.
  if (location.pathname !== inst.path || location.hash) return;
  const params = new URLSearchParams(location.search);
  if (params.has(NAV_PARAM)) return;
  const search = location.search ? `${location.search}&${NAV_PARAM}=1` : `?${NAV_PARAM}=1`;
  history.replaceState(history.state, "", location.pathname + search);
}

/** Bind the keys and the Back marker once per table; the returned function unbinds. */
function bindHistory(inst) {
  inst.path = location.pathname;
  if (inst.unbindHistory) return;
  const onKey = (e) => onHistoryKey(inst, e);
  const onPop = () => markNavigation(inst);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", onPop, true);
  inst.unbindHistory = () => {
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("popstate", onPop, true);
    inst.unbindHistory = null;
  };
}
