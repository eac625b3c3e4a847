"""Refresh the README's screenshots: ``python tests/screenshots.py`` (from anywhere).

Starts the app headless on a free localhost port, opens the playground, the worked-examples
lesson and "Evaluate your runs" with the sample loaded, then the playground and the lesson
again in Chinese (``?lang=zh``: ``playground_zh.png``, ``lesson_zh.png``), waits until each
is idle and drawn, saves PNGs of a 1400×1000 viewport (not the full page) to
``assets/screenshots/``, then stops the server. The Chinese text is drawn with a CJK font of
the machine (Debian: ``fonts-wqy-microhei``); the app ships none. A script, not a test: pytest does not collect it (the name has no ``test_``),
and importing it does nothing.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "assets" / "screenshots"
CHROMIUM = os.environ.get("NDCG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1000}
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# Lazy elements have drawn (see tests/browser/test_accessibility.py) and animations are done.
DRAWN_JS = """() => {
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
  return !document.querySelector("[data-testid='stSkeleton']")
    && shown("[data-testid='stDataFrame']").every((f) => f.querySelector("table[role='grid']"))
    && shown("[data-testid='stPlotlyChart']").every((c) => c.querySelector('.main-svg'))
    && shown("[data-testid='stBidiComponentIsolated']")
         .every((h) => h.shadowRoot && h.shadowRoot.querySelector('.ndcg-row, .rt-row'))
    && document.getAnimations().every((a) => a.playState !== 'running'
         || a.effect.getComputedTiming().iterations === Infinity);
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def server():
    """``streamlit run app.py`` on 127.0.0.1 and a free port; yields its URL, then stops it."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"streamlit exited with code {proc.returncode}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"streamlit did not answer on {url}") from None
                time.sleep(0.2)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def settle(page) -> None:
    page.wait_for_timeout(200)
    page.wait_for_selector(IDLE, timeout=45_000)
    page.wait_for_function(DRAWN_JS, timeout=45_000)
    page.wait_for_timeout(500)


def shoot(page, name: str) -> Path:
    path = OUT / name
    page.mouse.move(VIEWPORT["width"] - 5, VIEWPORT["height"] - 5)  # no hover effects shown
    settle(page)
    page.screenshot(path=str(path), full_page=False)
    print(f"wrote {path.relative_to(ROOT)}")
    return path


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        page.set_default_timeout(45_000)

        page.goto(url)
        page.locator(".rt-list-rank .rt-row").first.wait_for()
        shoot(page, "playground.png")

        page.goto(f"{url}/worked_examples")
        page.get_by_role("heading", name="Worked examples").first.wait_for()
        shoot(page, "lesson.png")

        page.goto(f"{url}/your_data")
        page.get_by_role("button", name="Load the sample").click()
        page.locator("[data-testid=stDataFrame] >> visible=true").first.wait_for()  # means
        shoot(page, "your_data.png")

        # 中文: each goto is a new session, which reads the language from the address
        page.goto(f"{url}/?lang=zh")
        page.get_by_role("heading", name="演练场").first.wait_for()
        page.locator(".rt-list-rank .rt-row").first.wait_for()
        shoot(page, "playground_zh.png")

        page.goto(f"{url}/worked_examples?lang=zh")
        page.get_by_role("heading", name="算例").first.wait_for()
        shoot(page, "lesson_zh.png")
        browser.close()


if __name__ == "__main__":
    main()
