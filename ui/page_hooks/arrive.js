// A share link's #anchor (a worked example's heading). Streamlit scrolls to the heading
// once, as it is drawn; the tables, formulas and charts drawn above it afterwards push it
// down, and on a slow machine the visitor lands far above the example (seen in CI). This
// keeps the anchor where that first scroll put it until the page has stopped moving for
// STILL_MS, or the visitor scrolls, clicks, touches or types (theirs from then on).
const STILL_MS = 2500;
const MAX_MS = 30000;
const EVERY_MS = 100;
const bound = new WeakSet();

export default function arrive({ parentElement }) {
  if (bound.has(parentElement)) return;
  bound.add(parentElement);
  let id;
  try {
    id = decodeURIComponent(window.location.hash.slice(1));
  } catch (e) {
    return;  // not a fragment we wrote
  }
  if (!id) return;
  const started = Date.now();
  let still = started;
  let timer = null;
  const yours = ["wheel", "touchstart", "keydown", "mousedown"];
  const stop = () => {
    clearInterval(timer);
    for (const name of yours) window.removeEventListener(name, stop, true);
  };
  for (const name of yours) window.addEventListener(name, stop, { capture: true, passive: true });
  timer = setInterval(() => {
    const now = Date.now();
    const target = document.getElementById(id);
    if (now - started > MAX_MS || (target && now - still > STILL_MS)) return stop();
    if (!target) return;
    const top = target.getBoundingClientRect().top;
    target.scrollIntoView(true);
    if (Math.abs(target.getBoundingClientRect().top - top) > 1) still = now;
  }, EVERY_MS);
  return stop;
}
