// A button that copies a text it never shows (class mode's teacher link: the key to the
// room, off a projector's screen). The text stays in this script's memory, never in the
// page; the clipboard API needs a secure page (https, localhost), so a plain-http address
// falls back to a copy from a text box drawn off-screen and removed at once. The words come
// from the server, in the page's language, and are written as text.
const texts = new WeakMap();

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function fallbackCopy(root, text) {
  const box = document.createElement("textarea");
  box.setAttribute("readonly", "");
  box.setAttribute("aria-hidden", "true");
  box.style.cssText = "position:fixed;top:0;left:-9999px;opacity:0";
  box.value = text;
  root.appendChild(box);
  box.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch (e) {
    done = false;
  } finally {
    box.remove();
  }
  return done;
}

async function copy(root) {
  const { text, copied, failed } = texts.get(root) || {};
  if (!text) return;
  const status = root.querySelector(".cb-status");
  let done = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch (e) {
      done = false;
    }
  }
  if (!done) done = fallbackCopy(root, text);
  setText(status, done ? copied : failed);
}

export default function copyButton({ data, parentElement }) {
  const root = parentElement.querySelector(".cb");
  if (!root) throw new Error("ndcg_copy_button: component markup is missing");
  const words = data || {};
  const before = texts.get(root);
  texts.set(root, { text: String(words.text || ""), copied: String(words.copied || ""),
                    failed: String(words.failed || "") });
  setText(root.querySelector(".cb-label"), String(words.label || ""));
  if (before && before.text !== words.text) setText(root.querySelector(".cb-status"), "");
  const button = root.querySelector(".cb-button");
  if (!button.dataset.bound) {
    button.dataset.bound = "1";
    button.addEventListener("click", () => copy(root));
  }
}
