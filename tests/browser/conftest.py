"""Fixtures for browser tests: Streamlit servers and a headless Chromium.

- ``start_app(path)``: start ``streamlit run <path>`` once per session (path is
  relative to the repo root or absolute) and return its base URL.
- ``app_url``: base URL of the main ``app.py``.
- ``browser`` (session); ``new_page(width, height, **options)`` and ``page`` (1280x900):
  new pages in the session's context of their screen (``screens``), closed after the test.
- ``open_app(page, url)`` loads a page and waits for its first run;
  ``wait_idle(page)`` waits until the script has finished its rerun;
  ``upload_on(page, label, files)`` uploads files and waits until they are listed;
  ``choose_on(page, label, option)`` picks an option of a select box and waits for the rerun.

Playwright's own browser download does not work here: Chromium comes from
Debian (``/usr/bin/chromium``, override with ``NDCG_CHROMIUM``). A missing
browser or a server that does not start fails the test; nothing is skipped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (Browser, BrowserContext, Page, TimeoutError as PlaywrightTimeout,
                                 expect, sync_playwright)

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("NDCG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT_S = 60
IDLE_SELECTOR = "[data-testid='stApp'][data-test-script-state='notRunning']"
# First page load fetches the JS bundles: 4-7 s on two cores.
FIRST_LOAD_TIMEOUT_MS = 45_000
RERUN_TIMEOUT_MS = 30_000  # generous: CI shares 2 cores with the server and Chromium


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _stop(proc: subprocess.Popen) -> None:
    """Stop the server and its children (it leads its own process group)."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@contextlib.contextmanager
def streamlit_server(
    app: str | Path, log_dir: Path, extra_args: tuple[str, ...] = (), port: int | None = None
) -> Iterator[str]:
    """Run ``streamlit run app`` on a free local port (or ``port``: a restart on the same
    address); yield its base URL.

    ``extra_args`` go after the standard flags, e.g. ``("--theme.base", "dark")``.
    """
    app_path = Path(app)
    if not app_path.is_absolute():
        app_path = REPO_ROOT / app_path
    if not app_path.is_file():
        pytest.fail(f"Streamlit app not found: {app_path}")
    port = port or _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = log_dir / f"streamlit-{app_path.stem}-{port}-{time.monotonic_ns()}.log"
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(app_path),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        *extra_args,
    ]
    # class mode's rooms (a test may start a class) in the session's temp folder, not the
    # repository's .data/
    env = {**os.environ}
    env.setdefault("NDCG_LAB_DATA", str(log_dir))
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd, cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env=env,
        )
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"streamlit exited with code {proc.returncode} for {app_path}:\n"
                    f"{_tail(log_path)}"
                )
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(
                    f"streamlit did not answer {url}/_stcore/health within "
                    f"{SERVER_START_TIMEOUT_S} s:\n{_tail(log_path)}"
                )
            time.sleep(0.2)
        yield url
    finally:
        _stop(proc)


@pytest.fixture(scope="session")
def start_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str | Path], str]]:
    """Factory: ``start_app("tests/apps/sortable_demo.py")`` returns the URL of a server for
    that file.

    One server per file for the whole session; each test's fresh browser
    context still gets a fresh Streamlit session (empty st.session_state).
    """
    log_dir = tmp_path_factory.mktemp("streamlit-logs")
    stack = contextlib.ExitStack()
    urls: dict[Path, str] = {}

    def _start(app: str | Path) -> str:
        path = Path(app) if Path(app).is_absolute() else REPO_ROOT / app
        path = path.resolve()
        if path not in urls:
            urls[path] = stack.enter_context(streamlit_server(path, log_dir))
        return urls[path]

    with stack:
        yield _start


@pytest.fixture(scope="session")
def app_url(start_app: Callable[[str | Path], str]) -> str:
    """Base URL of the main app (app.py)."""
    return start_app("app.py")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. Install Debian's chromium package "
            "(apt-get install chromium) or set NDCG_CHROMIUM to a Chromium binary; "
            "Playwright's own browser download does not work here."
        )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


# Run before each document of a shared context loads (a frame without storage throws).
CLEAR_STORAGE_JS = "try { localStorage.clear(); } catch (e) {}"


@pytest.fixture(scope="session")
def screens(browser: Browser) -> Iterator[dict]:
    """The session's browser contexts, one per screen (viewport, touch, locale, ...): a page
    in a context that has loaded the app before costs Chromium about 1 s less CPU than one
    in a fresh context (its scripts compiled and cached: 1.9 against 3.0 s for the
    playground, median of 5, 2026-12-03), and the whole suite is bound by CPU. The app keeps
    nothing in the browser (no cookies or storage of its own; a Streamlit session is one
    page's connection); Streamlit keeps the sidebar's state in the page's storage, which
    each page of a shared context finds empty, as in a fresh one (a test of that state
    across loads asks for a ``fresh`` context)."""
    made: dict = {}
    yield made
    for context in made.values():
        context.close()


@pytest.fixture
def new_page(browser: Browser, screens: dict) -> Iterator[Callable[..., Page]]:
    """``new_page(width, height, *, fresh=False, **options)``: a new page of a screen
    ``width`` x ``height`` (``options`` as ``Browser.new_context`` takes them: has_touch,
    locale, ...), in the session's context of that screen or, with ``fresh``, in one of its
    own. Every page the test opened there, and every fresh context, is closed after it."""
    opened: list[tuple[BrowserContext, set, bool]] = []

    def _new(width: int = 1280, height: int = 900, *, fresh: bool = False,
             **options) -> Page:
        key = repr((width, height, sorted(options.items())))
        context = None if fresh else screens.get(key)
        if context is not None and all(c is not context for c, _, _ in opened):
            # a test starts with no cookie of an earlier one (class mode and onboarding keep
            # who a browser is in a cookie); its own pages share theirs, as one browser's do
            context.clear_cookies()
        if context is None:
            context = browser.new_context(viewport={"width": width, "height": height},
                                          **options)
            context.set_default_timeout(RERUN_TIMEOUT_MS)
            if not fresh:  # each page loaded with the storage of a fresh context: none
                context.add_init_script(CLEAR_STORAGE_JS)
                screens[key] = context
        opened.append((context, set(context.pages), fresh))
        return context.new_page()

    yield _new
    for context, before, fresh in opened:
        if fresh:
            context.close()
            continue
        for page in context.pages:
            if page not in before:
                page.close()


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    """A new page at 1280x900 (:func:`new_page`)."""
    return new_page(1280, 900)


def wait_idle_on(page: Page, timeout_ms: int = RERUN_TIMEOUT_MS, settle_ms: int = 150) -> None:
    """Wait until the script has finished running, then a short settle.

    The settle before lets a just-triggered rerun flip the state to 'running'
    first; the one after lets the frontend paint what the run sent.
    """
    page.wait_for_timeout(settle_ms)
    page.wait_for_selector(IDLE_SELECTOR, timeout=timeout_ms)
    page.wait_for_timeout(settle_ms)


# The app's stylesheet has applied (ui/fit.css sets this mark): it is drawn after the page's
# text on a busy machine, seconds after the run ends. Pages without the app's navigation
# (the demo apps) have no such sheet and do not wait.
STYLED_JS = """() => !document.querySelector("[data-testid='stSidebarNav']")
  || getComputedStyle(document.documentElement).getPropertyValue("--ndcg-fit-css").trim() === "1"
"""


def open_app_on(page: Page, url: str) -> None:
    """Load ``url``, wait for the first script run to finish and the app's stylesheet."""
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector("[data-testid='stApp']", timeout=FIRST_LOAD_TIMEOUT_MS)
    wait_idle_on(page, timeout_ms=FIRST_LOAD_TIMEOUT_MS)
    page.wait_for_function(STYLED_JS, timeout=FIRST_LOAD_TIMEOUT_MS)


def upload_on(page: Page, label: str, files: list[dict]) -> None:
    """Give the file uploader labelled ``label`` the ``files`` (``{"name", "mimeType",
    "buffer"}`` each), wait until it lists each of them (its Remove button), then for the
    rerun: as a person sees a file listed before giving the next. A run file given while the
    judgments' upload was still on its way was lost once in a full run on three workers (the
    Runs uploader listed nothing, 2026-12-04)."""
    uploader = page.get_by_test_id("stFileUploader").filter(has_text=label)
    uploader.locator("input[type='file']").set_input_files(files=files)
    for file in files:
        expect(uploader.get_by_role("button", name=f"Remove {file['name']}",
                                    exact=True).last).to_be_visible(timeout=RERUN_TIMEOUT_MS)
    wait_idle_on(page)


def choose_on(page: Page, label: str, option: str, tries: int = 3) -> None:
    """Pick ``option`` in the select box labelled ``label``, then wait for the rerun, as a
    person does: open the list, click the option, and open the list again if it closed
    first. Streamlit's list closes when the page scrolls under it (measured: a fragment
    changing the height above the box closes it at once); a list that never showed its
    option for 30 s left one Arrange question unasked in CI (2026-12-04)."""
    box = page.get_by_test_id("stSelectbox").filter(
        has=page.get_by_test_id("stWidgetLabel").get_by_text(label, exact=True))
    for _ in range(tries):
        box.get_by_role("combobox").click()
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=5_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")  # closed, whatever state the list was in
    else:
        raise AssertionError(f"the select box {label!r} did not show {option!r} "
                             f"in {tries} tries")
    expect(box.get_by_role("combobox")).to_have_value(option)
    wait_idle_on(page)


@pytest.fixture
def wait_idle() -> Callable[..., None]:
    """``wait_idle(page)``: wait for the current rerun to finish."""
    return wait_idle_on


@pytest.fixture
def open_app() -> Callable[[Page, str], None]:
    """``open_app(page, url)``: load a Streamlit page and wait for its first run."""
    return open_app_on
