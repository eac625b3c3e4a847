// What every list component (the ranking table, the compact sortable list) writes into
// the page with: elements whose user text is only ever set with textContent, the words
// Python sends, and the polite announcements for screen readers.

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;  // user text: never innerHTML
  return node;
}

/** The template `key` of `words` (sent by Python, translated there: lab/i18n.py) with its
 * {name} placeholders filled in one pass (a label that contains "{pos}" stays as typed).
 * A key Python did not send shows as itself, so a missing word is seen, not hidden. */
export function say(words, key, params) {
  const template = words && typeof words[key] === "string" ? words[key] : key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Say `message` in the live region `inst.live` (cleared first: screen readers then
 * repeat an identical message). */
function announce(inst, message) {
  clearTimeout(inst.announceTimer);
  inst.live.textContent = "";
  inst.announceTimer = setTimeout(() => { inst.live.textContent = message; }, 40);
}

/** Whether focus fell to the page (its element was replaced by a redraw). */
function focusIsLost(inst) {
  const rootNode = inst.root.getRootNode();
  if (rootNode !== document && rootNode.activeElement) return false;
  const active = document.activeElement;
  return !active || active === document.body || (rootNode !== document && active === rootNode.host);
}
