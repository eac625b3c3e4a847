// Undo, redo and the browser's Back for the table that holds the page's history
// (`data.history`: the playground's). ui/ranking_table/__init__.py joins this file
// into the table's module, before bridge.js, whose `send` it uses.
// - The Undo and Redo buttons beside "+ Add item" (enabled as `data.history` says), and
//   Ctrl+Z (Cmd+Z on a Mac) anywhere on the page, send {action: "undo"}; Ctrl+Shift+Z and
//   Ctrl+Y send {action: "redo"}: table events like a move, so they keep their order with
//   the moves and edits before them and are applied once however often they are re-sent
//   (seq, instance, session). In a text field (the grade being typed, the
//   unretrieved grades, any input or editable text) the keys are left to the browser's own undo.
// - Back and Forward: Streamlit reruns the page with the address of the entry the browser
//   moved to, which the server cannot tell from an address that lags a move (it keeps the
//   state and leaves that address as it is: ui.state.publish). This sends the address as
//   {action: "visit", query}: the server shows the state it names (lab.table_events).

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

function onNavigation(inst) {
  if (!inst.history || !inst.root.isConnected) return;
  // Only an entry of this page, and not a jump to an anchor on it.
  if (location.pathname !== inst.path || location.hash) return;
  send(inst, { action: "visit", query: location.search });
}

/** Bind the keys and Back once per table; the returned function unbinds. */
function bindHistory(inst) {
  inst.path = location.pathname;
  if (inst.unbindHistory) return;
  const onKey = (e) => onHistoryKey(inst, e);
  const onPop = () => onNavigation(inst);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", onPop);
  inst.unbindHistory = () => {
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("popstate", onPop);
    inst.unbindHistory = null;
  };
}

/** The Undo and Redo buttons, made once, before "+ Add item"; `history` is
 * {undo: bool, redo: bool} (what can be done now) or null (no buttons). */
function drawHistoryButtons(inst, history) {
  if (!inst.historyBox) {
    const box = el("span", "rt-history");
    const make = (action, glyph) => {
      const b = el("button", "rt-hbtn");
      b.type = "button";
      b.dataset.action = action;
      b.appendChild(el("span", "rt-hglyph", glyph)).setAttribute("aria-hidden", "true");
      b.appendChild(el("span", "rt-htext"));
      b.addEventListener("click", () => {
        if (!b.disabled && !inst.disabled) send(inst, { action });
      });
      box.appendChild(b);
      return b;
    };
    inst.undoBtn = make("undo", "↶");
    inst.redoBtn = make("redo", "↷");
    inst.addBtn.before(box);
    inst.historyBox = box;
  }
  inst.historyBox.hidden = !history;
  if (!history) return;
  for (const [b, action] of [[inst.undoBtn, "undo"], [inst.redoBtn, "redo"]]) {
    b.querySelector(".rt-htext").textContent = word(inst, action);
    b.title = word(inst, action + "_help");
    b.disabled = !history[action] || inst.disabled;
  }
}
