// The presenter view folds the sidebar on the run that turns it on. Streamlit's
// initial_sidebar_state yields to a choice the visitor made by hand in this browser before,
// so where they had opened it, it stays open: this presses Streamlit's own "Collapse
// sidebar" button, once, if the sidebar is open when first seen. It looks SETTLE_MS after
// being drawn (Streamlit's own fold lands first) and stops at the first look that finds the
// sidebar, so a sidebar the presenter opens afterwards stays open.
const SETTLE_MS = 300;
const EVERY_MS = 100;
const FOR_MS = 3000;

export default function fold() {
  const started = Date.now();
  let timer = 0;
  const look = () => {
    const sidebar = document.querySelector("[data-testid='stSidebar']");
    const button = document.querySelector("[data-testid='stSidebarCollapseButton'] button");
    if (sidebar && sidebar.dataset.collapsed === "false" && button) button.click();
    if (sidebar || Date.now() - started > FOR_MS) clearInterval(timer);
  };
  const wait = setTimeout(() => { timer = setInterval(look, EVERY_MS); look(); }, SETTLE_MS);
  return () => { clearTimeout(wait); clearInterval(timer); };
}
