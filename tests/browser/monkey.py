"""Robustness drivers for NDCG Lab in headless Chromium: a seeded "monkey" and a "classroom".

Shared by ``tests/browser/test_monkey.py``, ``tests/browser/test_classroom.py`` and the
hand-run ``tests/bench/bench_monkey.py`` / ``bench_classroom.py`` (which put this folder on
``sys.path``).

- :class:`AppServer` runs ``streamlit run app.py`` on 127.0.0.1 with its stdout/stderr in a
  log file, so a run can be searched for tracebacks, and exposes the server's pid (RSS).
- :func:`run_monkey` performs seeded random user actions on every page (drags and Alt+arrow
  moves of list rows, grade edits, adds and removes in the playground's ranking table,
  sliders, radios, selectboxes, buttons, tabs, uploads, page switches). After each action
  it waits for the rerun, then looks for exception elements on the page and tracebacks in
  the server log; at checkpoints it recomputes every figure of the playground with
  ``ndcg_core`` from the state read back from the page. Every action is logged with its
  index, so ``seed`` + the log reproduce a failure.
- :func:`run_classroom` opens N sessions (one browser context each) on one server, gives each
  its own ranking through a share link, and lets them all move rows at the same time; each
  move is checked against that session's own ranking (no crosstalk) and timed in the page
  (Alt+Arrow keydown -> the ranking table shows the engine's DCG).

Nothing here is skipped: a missing Chromium or a server that does not start raises.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import ndcg_core as nc  # noqa: E402
from lab.playground import ranking_query_params  # noqa: E402  (pure Python, no streamlit)
from lab import rules as R  # noqa: E402  (the playground's settings: its default figures)

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
VIEWPORT = {"width": 1280, "height": 900}
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
FIRST_LOAD_MS = 60_000
CLASSROOM_LOAD_MS = 180_000  # N first loads at once on two cores
SAMPLES = REPO_ROOT / "assets" / "samples"
SAMPLE_FILES = {"qrels": SAMPLES / "qrels.txt", "run_a": SAMPLES / "system_a.run",
                "run_b": SAMPLES / "system_b.run"}  # the runs uploader takes either run

# sidebar title -> url path (app.py); the playground is the default page, served at "/"
PAGES = {
    "Start here": "start_here",
    "Worked examples": "worked_examples",
    "Linear vs exponential gain": "gain",
    "Cutoffs": "cutoffs",
    "Conventions and edge cases": "conventions",
    "Beyond NDCG": "beyond",
    "Common mistakes": "mistakes",
    "Playground": "playground",
    "Exercises": "practice",
    "Evaluate your runs": "your_data",
}


def check_chromium() -> None:
    if not Path(CHROMIUM).is_file():
        raise RuntimeError(
            f"Chromium not found at {CHROMIUM}: install Debian's chromium package or set "
            "NDCG_CHROMIUM to a Chromium binary.")


# ====================================================================== the server

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


TRACEBACK_START = re.compile(r"^.*Traceback \(most recent call last\):", re.M)


class AppServer:
    """``streamlit run <app>`` on a free 127.0.0.1 port, stdout+stderr to ``log_path``.

    Use as a context manager; the server (its own process group) is stopped on exit.
    ``new_tracebacks()`` returns the tracebacks logged since its previous call.
    """

    def __init__(self, log_dir: Path, app: str = "app.py", extra_args: tuple = (),
                 start_timeout_s: float = 60):
        self.app = REPO_ROOT / app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(log_dir) / f"streamlit-{self.app.stem}-{self.port}.log"
        self.extra_args = tuple(extra_args)
        self.start_timeout_s = start_timeout_s
        self.proc: subprocess.Popen | None = None
        self._offset = 0

    @property
    def pid(self) -> int:
        return self.proc.pid

    def __enter__(self) -> "AppServer":
        cmd = [sys.executable, "-m", "streamlit", "run", str(self.app),
               "--server.headless", "true", "--server.port", str(self.port),
               "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
               "--server.fileWatcherType", "none", *self.extra_args]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, cwd=REPO_ROOT, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + self.start_timeout_s
        try:
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"streamlit exited with code {self.proc.returncode}:\n"
                                       f"{self.log_text()[-3000:]}")
                with contextlib.suppress(urllib.error.URLError, OSError):
                    with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as r:
                        if r.status == 200:
                            return self
                if time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not answer {self.url} within "
                                       f"{self.start_timeout_s} s:\n{self.log_text()[-3000:]}")
                time.sleep(0.2)
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def new_tracebacks(self) -> list[str]:
        """Tracebacks written to the log since the previous call."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self._offset)
                data = f.read()
        except OSError:
            return []
        self._offset += len(data)
        return tracebacks_in(data.decode(errors="replace"))

    def all_tracebacks(self) -> list[str]:
        return tracebacks_in(self.log_text())

    def cpu_seconds(self) -> float:
        """User + system CPU time the server process has used so far."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kb(self) -> int:
        """Resident memory of the server process (VmRSS, kB)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS line")


def tracebacks_in(text: str) -> list[str]:
    out = []
    for m in TRACEBACK_START.finditer(text):
        block = text[m.start():].splitlines()
        keep = [block[0]]
        for line in block[1:]:
            # a traceback's body is indented; its last line ("XError: ...") is not
            keep.append(line)
            if line and not line.startswith((" ", "\t")) and not line.startswith("Traceback"):
                if not line.startswith(("During handling", "The above exception")):
                    break
        out.append("\n".join(keep[:80]))
    return out


# ====================================================================== expected figures

def expected_figures(grades, k: int, gain: str, pool) -> tuple[float, float, float]:
    """(DCG@k, IDCG@k, NDCG@k) by ndcg_core under the playground's default settings
    (lab.rules: negatives counted 0, an all-zero list undefined); with a judged pool the
    ideal is grades + pool."""
    grades = [float(g) for g in grades]
    pool = [float(p) for p in pool or ()]
    ideal = grades + pool if pool else None
    return tuple(nc.ndcg_parts(grades, k=k, ideal=ideal,
                               **R.engine_options(R.RIGHT, gain, grades + pool)))


def parse_pool(text: str):
    """The judged pool as the playground parses it, or None if the text is not valid."""
    out = []
    for tok in [t for t in str(text).split(",") if t.strip()]:
        try:
            v = float(tok)
        except ValueError:
            return None
        if not math.isfinite(v):
            return None
        out.append(v)
    return out


def fmt3(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:.3f}"  # undefined: the table writes a dash


# ====================================================================== page readers (sync)

# The rows of a draggable list: the playground's ranking table (ui/ranking_table) or a
# lesson page's sortable list (ui/sortable). Playwright's CSS pierces their shadow roots.
ROWS = ".rt-list-rank .rt-row, .ndcg-row"
LABEL = ".rt-label-text, .ndcg-label"
ROWS_JS = ("rows => rows.map(r => [r.dataset.itemId,"
           " r.querySelector('.rt-label-text, .ndcg-label').textContent,"
           " r.querySelector('.rt-grade, .ndcg-grade').textContent.replace(/^grade /, '')])")
# The figures as shown: the ranking table's (label "NDCG@k", or "NDCG@k (linear)" with both
# gains; only once the engine's figures are back, not the drag preview), else st.metric's.
METRICS_JS = """() => {
  const hosts = Array.from(document.querySelectorAll("[data-testid='stMain'] *")).filter(
      h => h.shadowRoot && h.shadowRoot.querySelector(".rt"));
  if (hosts.length) {
    const rt = hosts[0].shadowRoot.querySelector(".rt");
    if (rt.dataset.figures !== "engine") return [];
    const figs = Array.from(rt.querySelectorAll(".rt-figures [data-figure]"));
    const gains = new Set(figs.map(f => f.dataset.figure.split("-")[1]));
    const k = (rt.querySelector(".rt-fig-name") || {textContent: ""}).textContent.split("@")[1];
    return figs.map(f => {
      const [name, gain] = f.dataset.figure.split("-");
      return [`${name.toUpperCase()}@${k}` + (gains.size > 1 ? ` (${gain})` : ""),
              f.textContent.trim()];
    });
  }
  return Array.from(document.querySelectorAll("[data-testid='stMain'] "
    + "[data-testid='stMetric']")).map(m => [
      (m.querySelector("[data-testid='stMetricLabel']") || {innerText: ''}).innerText.trim(),
      (m.querySelector("[data-testid='stMetricValue']") || {innerText: ''}).innerText.trim()]);
}"""
PLAYGROUND_JS = """() => {
  const q = (s) => document.querySelector(s);
  const gainGroup = Array.from(document.querySelectorAll("[data-testid='stRadio']")).find(
      r => r.querySelector("[role='radiogroup']")?.getAttribute("aria-label") === "Gain");
  const gain = gainGroup ? Array.from(gainGroup.querySelectorAll(
      "[data-testid='stRadioOption']")).filter(o => o.dataset.selected === "true").map(
      o => o.innerText.trim()) : [];
  const k = q("[data-testid='stMain'] input[type='range'][aria-label='Cutoff k']");
  const pool = q("input[aria-label='Judged but not retrieved']");
  const scale = q("input[aria-label='Grade scale']");
  const alerts = Array.from(document.querySelectorAll(
      "[data-testid='stMain'] [data-testid='stAlertContentError']")).map(a => a.innerText);
  const h1 = q("[data-testid='stMain'] h1");
  return {gain, k: k ? Number(k.value) : null, pool: pool ? pool.value : null,
          scale: scale ? scale.value : null, errors: alerts, title: h1 ? h1.innerText : ""};
}"""


def read_rows(page) -> list[tuple[str, str, str]]:
    """(item id, label, grade text) of every list row, top to bottom."""
    return [tuple(r) for r in page.locator(ROWS).evaluate_all(ROWS_JS)]


def read_metrics(page) -> list[tuple[str, str]]:
    return [tuple(m) for m in page.evaluate(METRICS_JS)]


EXC_COUNT_JS = "() => document.querySelectorAll(\"[data-testid='stException']\").length"


def exception_texts(page) -> list[str]:
    loc = page.locator("[data-testid='stException']")
    n = loc.count()
    out = []
    for i in range(n):
        with contextlib.suppress(Exception):
            out.append(loc.nth(i).inner_text(timeout=2_000)[:1500])
    return out or (["(exception element, text unreadable)"] * n)


def current_page(page) -> str:
    path = urllib.parse.urlparse(page.url).path.strip("/")
    return path or "playground"


def settle(page, timeout_ms: int = 10_000, slow_ms: int = 45_000) -> bool:
    """Wait until the script is idle (twice, 60 ms apart). Returns False if the first wait
    timed out (a slow rerun); raises if the app is still running after ``slow_ms``."""
    page.wait_for_timeout(100)
    fast = True
    try:
        page.wait_for_selector(IDLE, timeout=timeout_ms)
    except Exception:  # noqa: BLE001 - playwright TimeoutError
        fast = False
        page.wait_for_selector(IDLE, timeout=slow_ms)
    page.wait_for_timeout(60)
    page.wait_for_selector(IDLE, timeout=slow_ms)
    return fast


def open_url(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector("[data-testid='stApp']", timeout=FIRST_LOAD_MS)
    page.wait_for_timeout(200)
    page.wait_for_selector(IDLE, timeout=FIRST_LOAD_MS)
    settle(page, timeout_ms=FIRST_LOAD_MS)


# ---------------------------------------------------------------------- the playground check

def playground_problems(page, poll_s: float = 6.0) -> tuple[list[str], dict]:
    """Read the playground back (rows, k, gain, pool) and compare every DCG/IDCG/NDCG metric
    with ndcg_core. Polls up to ``poll_s`` for the page to become consistent; returns the
    problems of the last read (empty when consistent) and that read."""
    deadline = time.monotonic() + poll_s
    while True:
        problems, snap = _playground_read_and_check(page)
        if not problems or time.monotonic() > deadline:
            return problems, snap
        page.wait_for_timeout(300)


def _playground_read_and_check(page):
    rows = read_rows(page)
    metrics = read_metrics(page)
    info = page.evaluate(PLAYGROUND_JS)
    snap = {"rows": rows, "metrics": metrics, **info}
    problems: list[str] = []
    if not rows:
        return ["the playground shows no list rows"], snap
    if len(info["gain"]) != 1:
        return [f"gain radio selection is {info['gain']!r}"], snap
    gain_choice = info["gain"][0]
    gains = ("linear", "exponential") if gain_choice == "both" else (gain_choice,)
    grades_txt = [g for _, _, g in rows]
    if "?" in grades_txt:
        # ungraded item: the page must refuse to score, not show figures
        if metrics:
            problems.append(f"an item has no grade but metrics are shown: {metrics}")
        if not any("cannot be scored" in e for e in info["errors"]):
            problems.append("an item has no grade and no 'cannot be scored' error is shown")
        return problems, snap
    try:
        grades = [float(g) for g in grades_txt]
    except ValueError:
        return [f"unreadable grades in the rows: {grades_txt}"], snap
    pool = parse_pool(info["pool"] or "")
    if pool is None:
        return [f"judged pool text {info['pool']!r} is invalid (cannot read the state)"], snap
    shown = dict(metrics)
    ks = {int(m.group(1)) for lab in shown
          if (m := re.match(r"^(?:DCG|IDCG|NDCG)@(\d+)", lab))}
    if len(ks) != 1:
        return [f"cannot read one k from the metric labels {list(shown)}"], snap
    k = ks.pop()
    if info["k"] is not None and info["k"] != k:
        problems.append(f"the k slider shows {info['k']} but the metrics are @{k}")
    if not 1 <= k <= len(grades) + len(pool or ()):   # k may pass the list: the unretrieved
        problems.append(f"k = {k} outside 1..{len(grades) + len(pool or ())}")
        return problems, snap
    want_labels = []
    for gain in gains:
        suffix = f" ({gain})" if len(gains) > 1 else ""
        values = expected_figures(grades, k, gain, pool)
        for name, v in zip(("DCG", "IDCG", "NDCG"), values):
            label = f"{name}@{k}{suffix}"
            want_labels.append(label)
            got = shown.get(label)
            if got is None:
                problems.append(f"metric {label} missing (shown: {list(shown)})")
            elif got != fmt3(v):
                problems.append(f"{label} shows {got}, ndcg_core gives {fmt3(v)} "
                                f"(grades {grades_txt}, k={k}, gain={gain}, pool={pool})")
    extra = [lab for lab in shown if lab not in want_labels]
    if extra:
        problems.append(f"unexpected metrics {extra} for gain {gain_choice!r}")
    return problems, snap


# ====================================================================== the monkey

ENUMERATE_JS = r"""() => {
  const main = document.querySelector("[data-testid='stMain']");
  const side = document.querySelector("[data-testid='stSidebar']");
  document.querySelectorAll("[data-monkey]").forEach(e => e.removeAttribute("data-monkey"));
  if (!main) return {cands: [], rows: 0};
  let rows = 0;  // list rows live in the components' shadow roots
  for (const host of main.querySelectorAll("*")) {
    if (host.shadowRoot) rows += host.shadowRoot.querySelectorAll(
        ".rt-list-rank .rt-row, .ndcg-row").length;
  }
  let n = 0;
  const out = [];
  // shown as Playwright sees it (a closed expander keeps its widgets laid out but hidden:
  // picking one cost a 5 s click timeout)
  const vis = (e) => e.getClientRects().length > 0
                     && e.checkVisibility({visibilityProperty: true});
  const labelOf = (e) => {
    const w = e.closest("[data-testid^='st']:not([data-testid^='stBase'])");
    const l = w && w.querySelector("[data-testid='stWidgetLabel']");
    return l ? l.innerText.trim() : "";
  };
  const add = (e, kind, label, extra, shown) => {
    if (!(shown || vis(e))) return;
    const id = String(n++);
    e.setAttribute("data-monkey", id);
    // icons render as their ligature names on a line of their own: keep the last line
    const text = (label || "").split("\n").map(s => s.trim()).filter(Boolean).pop() || "";
    out.push(Object.assign({id, kind, label: text.slice(0, 80)}, extra || {}));
  };
  const all = (sel, root) => Array.from((root || main).querySelectorAll(sel));
  for (const b of all("[data-testid='stButton'] button, [data-testid='stFormSubmitButton'] button")) {
    const text = b.innerText.trim();
    if (b.disabled || /download/i.test(text)) continue;
    add(b, "button", text);
  }
  for (const b of all("[data-testid='stFileUploaderDeleteBtn'] button")) add(b, "button", "remove file");
  for (const s of all("[data-testid='stSlider'] input[type='range']")) {
    add(s, "slider", s.getAttribute("aria-label"), {min: Number(s.min), max: Number(s.max),
        value: Number(s.value)}, vis(s.closest("[data-testid='stSlider']")));
  }
  for (const g of all("[data-testid='stRadio']")) {
    const name = labelOf(g);
    for (const o of g.querySelectorAll("[data-testid='stRadioOption']")) {
      add(o, "radio", name + ": " + o.innerText.trim(), {selected: o.dataset.selected === "true"});
    }
  }
  for (const i of all("[data-testid='stSelectbox'] input[role='combobox']")) add(i, "select", i.getAttribute("aria-label"));
  for (const t of all("[data-testid='stTabs'] [role='tab']")) add(t, "tab", t.innerText.trim(), {selected: t.getAttribute("aria-selected") === "true"});
  for (const b of all("[data-testid='stButtonGroup'] button")) {
    if (!b.disabled) add(b, "segment", labelOf(b) + ": " + b.innerText.trim());
  }
  for (const b of all("[data-testid='stNumberInputStepUp'], [data-testid='stNumberInputStepDown']")) {
    if (!b.disabled) add(b, "number", labelOf(b) + (b.dataset.testid.endsWith("Up") ? " +" : " -"));
  }
  for (const i of all("[data-testid='stTextInput'] input")) if (!i.disabled) add(i, "text", i.getAttribute("aria-label"), {value: i.value});
  for (const s of all("[data-testid='stExpander'] summary")) add(s, "expander", s.innerText.trim());
  for (const a of all("[data-testid='stPageLink'] a")) add(a, "pagelink", a.innerText.trim());
  for (const b of all("[data-testid='stMultiSelect'] button[aria-label^='Remove']")) add(b, "msremove", b.getAttribute("aria-label"));
  for (const i of all("[data-testid='stMultiSelect'] input[role='combobox']")) add(i, "msadd", i.getAttribute("aria-label"));
  for (const u of all("[data-testid='stFileUploader']")) {
    const inp = u.querySelector("input[type='file']");
    if (inp) add(inp, "upload", labelOf(u), {}, vis(u));
  }
  if (side) for (const a of all("[data-testid='stSidebarNavLink']", side)) add(a, "nav", a.innerText.trim());
  return {cands: out, rows};
}"""

# how often each kind of action is picked when it is available
WEIGHTS = {
    "drag": 10, "altmove": 12, "grade": 8, "addrow": 0.6, "remove": 0.5, "slider": 8, "radio": 7,
    "select": 4, "button": 9, "tab": 3, "segment": 2.5, "number": 2, "text": 4,
    "expander": 0.8, "pagelink": 1.2, "msremove": 0.8, "msadd": 0.8, "upload": 4,
    "nav": 8, "reload": 0.4,
}
NAV_WEIGHTS = {"Playground": 3, "Beyond NDCG": 2, "Evaluate your runs": 1.5}
POOL_TEXTS = ["", "", "3", "2, 1", "3, 3, 0", "1", "abc", "1e400", " 2 , 2 ", "-1", "2,"]
GRADE_TEXTS = ["0", "1", "2", "3", "0", "1", "2", "3", "4", "1.5", "-1", "9", "x"]
ANSWER_TEXTS = ["", "0.972", "1.234", "3.5", "0", "abc", "1,5", "0.5", "12"]


@dataclass
class MonkeyReport:
    seed: int
    actions: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)   # exceptions, tracebacks, bad figures
    action_errors: list[str] = field(default_factory=list)  # an action could not be done
    page_errors: list[str] = field(default_factory=list)  # uncaught JS errors in the page
    slow: list[str] = field(default_factory=list)
    checkpoints: int = 0
    checkpoints_checked: int = 0
    seconds: float = 0.0
    pages_seen: dict = field(default_factory=dict)
    kinds_done: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return len(self.actions) / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        return (f"seed {self.seed}: {len(self.actions)} actions in {self.seconds:.0f} s "
                f"({self.rate:.2f} actions/s), {len(self.failures)} failures, "
                f"{len(self.action_errors)} actions not doable, {len(self.page_errors)} page "
                f"JS errors, {len(self.slow)} slow reruns (>10 s), checkpoints "
                f"{self.checkpoints_checked}/{self.checkpoints} checked; pages "
                f"{self.pages_seen}; kinds {self.kinds_done}")


class Monkey:
    """Seeded random user. ``step()`` does one action and the after-action checks."""

    def __init__(self, page, server: AppServer, seed: int, log_file: Path | None = None,
                 echo=None, check_all: bool = False):
        self.check_all = check_all  # also check the playground's figures after every action
        self.page = page
        self.server = server
        self.rng = random.Random(seed)
        self.report = MonkeyReport(seed)
        self.log_file = log_file
        self.echo = echo
        self._seen_failures: set[str] = set()
        if log_file:
            log_file.write_text(f"# monkey seed {seed} on {server.url}\n")
        page.on("pageerror", lambda exc: self.report.page_errors.append(
            f"after action {len(self.report.actions)}: {exc}"))

    # ------------------------------------------------------------------ logging

    def log(self, line: str) -> None:
        self.report.actions.append(line)
        if self.log_file:
            with open(self.log_file, "a") as f:
                f.write(line + "\n")
        if self.echo:
            self.echo(line)

    def note(self, line: str) -> None:
        if self.log_file:
            with open(self.log_file, "a") as f:
                f.write("    " + line.replace("\n", "\n    ") + "\n")

    def fail(self, kind: str, detail: str) -> None:
        key = kind + "|" + detail[:300]
        n = len(self.report.actions)
        where = f"after action {n - 1} ({self.report.actions[-1] if n else 'start'})"
        text = f"{kind} {where} on {current_page(self.page)}:\n{detail}"
        self.note("FAILURE " + text)
        if key in self._seen_failures:
            return
        self._seen_failures.add(key)
        self.report.failures.append(text)
        if self.log_file:
            with contextlib.suppress(Exception):
                shot = self.log_file.with_name(
                    f"{self.log_file.stem}-failure-{len(self.report.failures)}.png")
                self.page.screenshot(path=str(shot), full_page=True)
                self.note(f"screenshot {shot}")

    # ------------------------------------------------------------------ running

    def start(self, url: str) -> None:
        open_url(self.page, url)
        self.after("open " + url)

    def run(self, n_actions: int, checkpoint_every: int = 50) -> MonkeyReport:
        t0 = time.perf_counter()
        done = 0
        while done < n_actions:
            self.step()
            done += 1
            if checkpoint_every and done % checkpoint_every == 0:
                self.checkpoint()
        self.checkpoint()
        self.report.seconds = time.perf_counter() - t0
        tbs = self.server.all_tracebacks()
        if tbs and not any(f.startswith("server traceback") for f in self.report.failures):
            self.fail("server traceback", "\n\n".join(tbs[:3]))
        return self.report

    def step(self) -> None:
        rng = self.rng
        t_step = time.perf_counter()
        page_name = current_page(self.page)
        self.report.pages_seen[page_name] = self.report.pages_seen.get(page_name, 0) + 1
        try:
            found = self.page.evaluate(ENUMERATE_JS)
        except Exception as exc:  # noqa: BLE001 - navigation in flight
            found = {"cands": [], "rows": 0}
            self.note(f"enumerate failed: {exc!s:.200}")
        by_kind: dict[str, list[dict]] = {}
        for c in found["cands"]:
            by_kind.setdefault(c["kind"], []).append(c)
        n_rows = found["rows"]
        if n_rows >= 2:
            by_kind["drag"] = by_kind["altmove"] = [{}]
        if page_name == "playground" and n_rows:
            by_kind["grade"] = by_kind["addrow"] = by_kind["remove"] = [{}]
        by_kind["reload"] = [{}]
        t_enum = time.perf_counter() - t_step
        kinds = sorted(by_kind)
        kind = rng.choices(kinds, weights=[WEIGHTS.get(k, 1) for k in kinds])[0]
        self.report.kinds_done[kind] = self.report.kinds_done.get(kind, 0) + 1
        i = len(self.report.actions)
        desc = f"{i:04d} [{page_name}] {kind}"
        t0 = time.perf_counter()
        try:
            desc += " " + getattr(self, f"do_{kind}")(by_kind[kind], n_rows)
        except Exception as exc:  # noqa: BLE001 - element gone, timeout: not the app's fault
            msg = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else repr(exc)
            desc += f" -> could not act: {type(exc).__name__}: {msg}"
            self.report.action_errors.append(desc)
            with contextlib.suppress(Exception):
                self.page.keyboard.press("Escape")
        self.after(desc, t0)
        # a dialog (Share) covers the page: closed, as a visitor does, before the next action
        with contextlib.suppress(Exception):
            if self.page.get_by_role("dialog").count():
                self.page.keyboard.press("Escape")
        self.note(f"step {time.perf_counter() - t_step:.2f} s (enumerate {t_enum:.2f} s)")

    def after(self, desc: str, t0: float | None = None) -> None:
        """Log the action, wait for its rerun, then look for exceptions and tracebacks."""
        self.log(desc)
        t1 = time.perf_counter()
        try:
            if not settle(self.page):
                self.report.slow.append(desc)
                self.note("slow rerun (> 10 s)")
        except Exception as exc:  # noqa: BLE001
            self.fail("no idle", f"the app did not finish its rerun within 45 s: {exc!s:.300}")
        t2 = time.perf_counter()
        if t0 is not None:
            self.note(f"act {t1 - t0:.2f} s, settle {t2 - t1:.2f} s")
        if not self.server.alive():
            self.fail("server died", self.server.log_text()[-3000:])
            raise RuntimeError("the streamlit server died:\n" + "\n".join(self.report.failures))
        if self.page.evaluate(EXC_COUNT_JS) and (texts := exception_texts(self.page)):
            self.fail("exception element", "\n---\n".join(texts))
        tbs = self.server.new_tracebacks()
        if tbs:
            self.fail("server traceback", "\n\n".join(tbs[:3]))
        if self.check_all and current_page(self.page) == "playground":
            problems, snap = playground_problems(self.page, poll_s=3)
            if snap.get("pool") and parse_pool(snap["pool"]) is None:
                problems = []  # an invalid typed pool: the state cannot be read back
            if problems:
                self.fail("playground figures", "\n".join(problems) + "\nread back: "
                          + json.dumps(snap, ensure_ascii=False)[:1500])

    # ------------------------------------------------------------------ checkpoints

    def checkpoint(self) -> None:
        self.report.checkpoints += 1
        if current_page(self.page) != "playground":
            self.page.get_by_test_id("stSidebarNavLink").filter(has_text="Playground").click()
            self.after(f"{len(self.report.actions):04d} [checkpoint] nav Playground")
        info = self.page.evaluate(PLAYGROUND_JS)
        if info["pool"] is not None and parse_pool(info["pool"]) is None:
            # an invalid pool is kept as typed (with an error): type a valid one to read it
            loc = self.page.locator("input[aria-label='Judged but not retrieved']")
            loc.fill("")
            loc.press("Enter")
            self.after(f"{len(self.report.actions):04d} [checkpoint] text Judged but not "
                       "retrieved = '' (the typed pool was invalid)")
        problems, snap = playground_problems(self.page)
        self.note("checkpoint read: " + json.dumps(snap, ensure_ascii=False)[:2000])
        if problems:
            self.fail("playground figures", "\n".join(problems) + "\nread back: "
                      + json.dumps(snap, ensure_ascii=False)[:1500])
        else:
            self.report.checkpoints_checked += 1
            self.note(f"checkpoint OK: {len(snap['rows'])} rows, metrics {snap['metrics']}")

    # ------------------------------------------------------------------ actions

    def _el(self, cand):
        return self.page.locator(f"[data-monkey='{cand['id']}']")

    def _rows(self):
        return self.page.locator(ROWS)

    def do_drag(self, _, n_rows) -> str:
        rng, page = self.rng, self.page
        rows = self._rows()
        src_i = rng.randrange(n_rows)
        src = rows.nth(src_i)
        src.scroll_into_view_if_needed(timeout=5_000)
        # a target within the viewport (long lists: near the source)
        lo, hi = max(0, src_i - 6), min(n_rows - 1, src_i + 6)
        dst_i = rng.choice([j for j in range(lo, hi + 1) if j != src_i])
        label = src.locator(LABEL).first.inner_text(timeout=5_000)
        s, d = src.bounding_box(), rows.nth(dst_i).bounding_box()
        if not s or not d:
            raise RuntimeError("row has no box")
        edge = rng.choice(["top", "bottom"])
        ty = d["y"] + 3 if edge == "top" else d["y"] + d["height"] - 3
        x, y = s["x"] + s["width"] / 2, s["y"] + s["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, y - 15 if ty < y else y + 15, steps=5)
        page.mouse.move(x + rng.uniform(-20, 20), ty, steps=rng.choice([8, 20]))
        page.wait_for_timeout(150)
        page.mouse.up()
        return f"row {src_i + 1} ({label!r}) onto the {edge} of row {dst_i + 1}"

    def do_altmove(self, _, n_rows) -> str:
        rng, page = self.rng, self.page
        i = rng.randrange(n_rows)
        row = self._rows().nth(i)
        label = row.locator(LABEL).first.inner_text(timeout=5_000)
        row.focus(timeout=5_000)
        keys = rng.choices(["Alt+ArrowUp", "Alt+ArrowDown", "Alt+Home", "Alt+End"],
                           weights=[5, 5, 1, 1], k=rng.choice([1, 1, 1, 2, 3]))
        for j, key in enumerate(keys):
            if j:
                page.wait_for_timeout(rng.choice([0, 50, 300]))
            page.keyboard.press(key)
        return f"row {i + 1} ({label!r}) {'+'.join(keys)}"

    def do_grade(self, _, n_rows) -> str:
        """A grade typed in the ranking table: a digit on a focused row, or a click on the
        grade and a typed value (refused ones must leave the grade and the figures)."""
        rng, page = self.rng, self.page
        i = rng.randrange(n_rows)
        row = self._rows().nth(i)
        row.scroll_into_view_if_needed(timeout=5_000)
        label = row.locator(LABEL).first.inner_text(timeout=5_000)
        if rng.random() < 0.5:
            row.focus(timeout=5_000)
            digit = rng.choice("0123456789")
            page.keyboard.press(digit)
            return f"row {i + 1} ({label!r}) key {digit!r}"
        value = rng.choice(GRADE_TEXTS)
        row.locator(".rt-grade-btn").click(timeout=5_000)
        field = row.locator("input.rt-input-grade")
        field.fill(value, timeout=5_000)
        field.press("Enter")
        return f"row {i + 1} ({label!r}) grade := {value!r}"

    def do_addrow(self, _, n_rows) -> str:
        """+ Add item: a new row "Item N" with the scale's lowest grade."""
        self.page.get_by_role("button", name="+ Add item").click(timeout=5_000)
        return f"add item {n_rows + 1}"

    def do_remove(self, _, n_rows) -> str:
        """Delete on a focused row (the last one is refused with a message at the row)."""
        rng = self.rng
        i = rng.randrange(n_rows)
        row = self._rows().nth(i)
        label = row.locator(LABEL).first.inner_text(timeout=5_000)
        row.focus(timeout=5_000)
        self.page.keyboard.press("Delete")
        return f"row {i + 1} ({label!r}) Delete"

    def do_slider(self, cands, _) -> str:
        rng, page = self.rng, self.page
        c = rng.choice(cands)
        el = self._el(c)
        el.focus(timeout=5_000)
        keys = rng.choices(["ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"],
                           weights=[5, 5, 1, 1, 1, 1], k=rng.choice([1, 1, 2, 3]))
        for key in keys:
            page.keyboard.press(key)
        return f"{c['label']!r} (was {c['value']}) {'+'.join(keys)}"

    def do_radio(self, cands, _) -> str:
        c = self.rng.choice(cands)
        self._el(c).click(timeout=5_000)
        return repr(c["label"])

    def do_select(self, cands, _) -> str:
        rng, page = self.rng, self.page
        c = rng.choice(cands)
        el = self._el(c)
        el.click(timeout=5_000)
        options = page.locator("[role='listbox'] [role='option']")
        try:
            options.first.wait_for(timeout=1_500)
        except Exception:  # noqa: BLE001 - a focused combobox opens on ArrowDown, not click
            el.press("ArrowDown")
            options.first.wait_for(timeout=3_000)
        n = options.count()
        j = rng.randrange(min(n, 12))
        text = options.nth(j).inner_text(timeout=3_000)
        options.nth(j).click(timeout=5_000)
        return f"{c['label']!r} -> option {j} {text!r}"

    def do_button(self, cands, _) -> str:
        c = self.rng.choice(cands)
        self._el(c).click(timeout=5_000)
        return repr(c["label"])

    do_tab = do_segment = do_number = do_expander = do_pagelink = do_msremove = do_button

    def do_text(self, cands, _) -> str:
        rng = self.rng
        c = rng.choice(cands)
        label = c["label"] or ""
        if label == "Judged but not retrieved":
            value = rng.choice(POOL_TEXTS)
        elif label.startswith(("DCG@", "IDCG@", "NDCG@")):
            value = rng.choice(ANSWER_TEXTS)
        elif "quer" in label.lower():
            value = rng.choice(["", "q0", "q1", "zzz", "%"])
        else:
            value = rng.choice(["", "abc", "1"])
        el = self._el(c)
        el.fill(value, timeout=5_000)
        el.press("Enter")
        return f"{label!r} := {value!r}"

    def do_msadd(self, cands, _) -> str:
        rng, page = self.rng, self.page
        c = rng.choice(cands)
        self._el(c).click(timeout=5_000)
        options = page.locator("[role='listbox'] [role='option']")
        try:
            options.first.wait_for(timeout=2_000)
        except Exception:  # noqa: BLE001 - every option already chosen
            page.keyboard.press("Escape")
            return f"{c['label']!r}: no option left"
        j = rng.randrange(options.count())
        text = options.nth(j).inner_text(timeout=3_000)
        options.nth(j).click(timeout=5_000)
        page.wait_for_timeout(100)
        page.keyboard.press("Escape")
        return f"{c['label']!r} + {text!r}"

    def do_upload(self, cands, _) -> str:
        rng = self.rng
        c = rng.choice(cands)
        label = c["label"] or ""
        slot = ("qrels" if label.startswith("Judgments") else rng.choice(["run_a", "run_b"]))
        if rng.random() < 0.15:  # the wrong file in this slot
            slot = rng.choice(list(SAMPLE_FILES))
        path = SAMPLE_FILES[slot]
        self._el(c).set_input_files(str(path), timeout=10_000)
        return f"{label!r} <- {path.name}"

    def do_nav(self, cands, _) -> str:
        c = self.rng.choices(cands, weights=[NAV_WEIGHTS.get(x["label"], 1) for x in cands])[0]
        self._el(c).click(timeout=5_000)
        return repr(c["label"])

    def do_reload(self, _, __) -> str:
        self.page.reload(wait_until="domcontentloaded")
        self.page.wait_for_selector("[data-testid='stApp']", timeout=FIRST_LOAD_MS)
        self.page.wait_for_timeout(300)
        self.page.wait_for_selector(IDLE, timeout=FIRST_LOAD_MS)
        return self.page.url.replace(self.server.url, "")


def run_monkey(browser, server: AppServer, n_actions: int, seed: int,
               log_file: Path | None = None, checkpoint_every: int = 50,
               echo=None, check_all: bool = False) -> MonkeyReport:
    """Open the app in a fresh context of ``browser`` and let the monkey loose."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        monkey = Monkey(page, server, seed, log_file, echo=echo, check_all=check_all)
        monkey.start(server.url + "/")
        return monkey.run(n_actions, checkpoint_every)
    finally:
        context.close()


# ====================================================================== the classroom

LAT_JS = r"""(label) => {
  // The ranking table (in a shadow root) shows a preview at once and the engine's figures
  // when the server's run arrives (data-figures = "engine"): the latency is key -> engine.
  const host = Array.from(document.querySelectorAll("[data-testid='stMain'] *")).find(
      h => h.shadowRoot && h.shadowRoot.querySelector(".rt"));
  const rt = host.shadowRoot.querySelector(".rt");
  const [name] = label.split("@");
  const read = () => {
    const v = rt.querySelector(`[data-figure='${name.toLowerCase()}-linear']`);
    return v ? v.textContent.trim() : null;
  };
  if (window.__ndcgLatKey) document.removeEventListener("keydown", window.__ndcgLatKey, true);
  if (window.__ndcgLatObs) window.__ndcgLatObs.disconnect();
  const st = window.__ndcgLat = {before: read(), keyAt: null, changedAt: null, after: null,
                                 left: false};
  st.changed = new Promise((done) => { st.done = done; });
  window.__ndcgLatKey = (e) => { if (st.keyAt === null && e.altKey && e.key.startsWith("Arrow")) st.keyAt = performance.now(); };
  document.addEventListener("keydown", window.__ndcgLatKey, true);
  const obs = window.__ndcgLatObs = new MutationObserver(() => {
    if (st.keyAt === null) return;
    if (rt.dataset.figures !== "engine") { st.left = true; return; }
    if (st.left) {
      st.changedAt = performance.now(); st.after = read(); obs.disconnect(); st.done();
    }
  });
  obs.observe(rt, {subtree: true, childList: true, characterData: true, attributes: true,
                   attributeFilter: ["data-figures"]});
  return st.before;
}"""


@dataclass
class Student:
    """One classroom session: its own labels and grades (all distinct, so any adjacent swap
    changes DCG), opened through a share link."""

    index: int
    labels: list[str]
    grades: list[int]
    order: list[int] = field(default_factory=list)  # current order: indices into labels
    latencies_ms: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    wire_ms: list[float] = field(default_factory=list)  # websocket sessions: send -> new DCG

    @classmethod
    def make(cls, index: int, rng: random.Random, n_items: int = 6) -> "Student":
        grades = list(range(n_items))
        rng.shuffle(grades)
        labels = [f"S{index:02d}-{chr(ord('A') + j)}" for j in range(n_items)]
        return cls(index, labels, grades, list(range(n_items)))

    def link(self, base: str) -> str:
        params = ranking_query_params(self.labels, self.grades, k=len(self.grades))
        return base + "/?" + urllib.parse.urlencode(params, doseq=True)

    def expected_rows(self):
        return [(self.labels[j], str(self.grades[j])) for j in self.order]

    def expected_metrics(self):
        k = len(self.grades)
        d, i, n = expected_figures([self.grades[j] for j in self.order], k, "linear", [])
        return {f"DCG@{k}": fmt3(d), f"IDCG@{k}": fmt3(i), f"NDCG@{k}": fmt3(n)}


@dataclass
class ClassroomReport:
    n: int
    moves_per_session: int
    students: list[Student]
    rss_before_kb: int | None = None
    rss_after_open_kb: int | None = None
    rss_after_moves_kb: int | None = None
    seconds: float = 0.0
    moves_seconds: float = 0.0  # wall time from "everyone loaded" to the end
    moves_cpu_seconds: float = 0.0  # server CPU time used in that span
    quiet_seconds: float = 0.0  # waited after opening for the browsers' after-load work
    tracebacks: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    @property
    def server_cpu_share(self) -> float:
        """Server CPU seconds per wall second while the sessions moved (1.0 = one core)."""
        return self.moves_cpu_seconds / self.moves_seconds if self.moves_seconds else 0.0

    @property
    def problems(self) -> list[str]:
        return [p for s in self.students for p in s.problems] + [
            "server traceback:\n" + t for t in self.tracebacks]

    @property
    def latencies_ms(self) -> list[float]:
        return [x for s in self.students for x in s.latencies_ms]

    @property
    def moves_done(self) -> int:
        return sum(len(s.moves) for s in self.students)

    def per_session_kb(self) -> float | None:
        if self.rss_before_kb is None or self.rss_after_open_kb is None:
            return None
        return (self.rss_after_open_kb - self.rss_before_kb) / self.n


def percentile(xs, p: float) -> float:
    """Nearest-rank-with-interpolation percentile (p in 0..100)."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    if len(xs) == 1:
        return xs[0]
    pos = (len(xs) - 1) * p / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def latency_line(name: str, xs) -> str:
    if not xs:
        return f"{name}: no samples"
    return (f"{name}: n={len(xs)} p50={percentile(xs, 50):.0f} ms p95={percentile(xs, 95):.0f} ms "
            f"mean={statistics.fmean(xs):.0f} ms max={max(xs):.0f} ms")


# Waits inside the page on a MutationObserver, not by polling: with 20 sessions on two cores,
# every poll of a waiting session takes CPU from the ones being measured.
SETTLE_JS = """async () => {
  const app = document.querySelector("[data-testid='stApp']");
  const idle = () => app.getAttribute("data-test-script-state") === "notRunning";
  const untilIdle = () => new Promise((done) => {
    if (idle()) return done();
    const obs = new MutationObserver(() => { if (idle()) { obs.disconnect(); done(); } });
    obs.observe(app, {attributes: true, attributeFilter: ["data-test-script-state"]});
  });
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  await pause(100); await untilIdle(); await pause(60); await untilIdle();
}"""


async def _a_settle(page, timeout_ms: int = 45_000) -> None:
    """Wait until the script has stopped running, twice with a pause between (a fragment
    rerun can follow a run at once)."""
    await page.wait_for_selector("[data-testid='stApp']", state="attached", timeout=timeout_ms)
    await asyncio.wait_for(page.evaluate(SETTLE_JS), timeout_ms / 1000)


async def _a_read(page):
    rows = await page.locator(ROWS).evaluate_all(ROWS_JS)
    metrics = await page.evaluate(METRICS_JS)
    exc = await page.locator("[data-testid='stException']").count()
    return [(lab, g) for _, lab, g in rows], dict(tuple(m) for m in metrics), exc


async def _a_check(page, st: Student, when: str, poll_s: float = 8.0) -> None:
    """The page shows exactly this student's rows in the expected order, and its figures."""
    deadline = time.monotonic() + poll_s
    while True:
        rows, metrics, exc = await _a_read(page)
        want_rows, want_m = st.expected_rows(), st.expected_metrics()
        problems = []
        if exc:
            problems.append(f"{exc} exception element(s) on the page")
        foreign = [lab for lab, _ in rows if not lab.startswith(f"S{st.index:02d}-")]
        if foreign:
            problems.append(f"CROSSTALK: rows of another session {foreign}")
        if rows != want_rows:
            problems.append(f"rows {rows} != expected {want_rows}")
        got_m = {k: metrics.get(k) for k in want_m}
        if got_m != want_m:
            problems.append(f"metrics {got_m} != ndcg_core {want_m} for the rows read back")
        # the figures must agree with the rows actually shown, whatever they are
        try:
            k = len(st.grades)
            shown = [float(g) for _, g in rows]
            d, i, n = expected_figures(shown, k, "linear", [])
            if metrics.get(f"NDCG@{k}") != fmt3(n):
                problems.append(f"NDCG@{k} {metrics.get(f'NDCG@{k}')} != {fmt3(n)} for the rows "
                                "shown")
        except ValueError:
            problems.append(f"unreadable grades {rows}")
        if not problems or time.monotonic() > deadline:
            break
        await page.wait_for_timeout(250)
    if problems:
        st.problems.append(f"session {st.index} {when}: " + "; ".join(problems))


def _pick_move(st: Student, rng: random.Random) -> tuple[int, str]:
    """A random Alt+Arrow move: (0-based row, key); the last row can only go up."""
    n = len(st.order)
    pos = rng.randrange(n)
    up = pos == n - 1 or (pos > 0 and rng.random() < 0.5)
    return pos, "Alt+ArrowUp" if up else "Alt+ArrowDown"


def _record_move(st: Student, pos: int, key: str) -> None:
    """Apply the move to the order the session expects, and log it."""
    other = pos - 1 if key.endswith("Up") else pos + 1
    label = st.labels[st.order[pos]]
    st.order[pos], st.order[other] = st.order[other], st.order[pos]
    st.moves.append(f"{label} {key} (position {pos + 1} -> {other + 1})")


async def _a_move(page, st: Student, rng: random.Random, measure: bool) -> None:
    pos, key = _pick_move(st, rng)
    label_metric = f"DCG@{len(st.order)}"
    before = await page.evaluate(LAT_JS, label_metric) if measure else None
    await page.locator(f".rt-list-rank .rt-row[data-position='{pos + 1}']").focus()
    await page.keyboard.press(key)
    _record_move(st, pos, key)
    if measure:
        try:
            # resolved by the page's own MutationObserver: no polling
            lat = await asyncio.wait_for(page.evaluate(
                "async () => { const s = window.__ndcgLat; await s.changed; "
                "return s.changedAt - s.keyAt; }"), 30)
            st.latencies_ms.append(float(lat))
        except Exception as exc:  # noqa: BLE001 - timeout: reported as a problem
            st.problems.append(f"session {st.index} move {len(st.moves)} ({st.moves[-1]}): "
                               f"{label_metric} was not confirmed by the engine (was "
                               f"{before!r}) within 30 s "
                               f"({exc!s:.100})")
    await _a_settle(page)
    await _a_check(page, st, f"after move {len(st.moves)} ({st.moves[-1]})")


async def _a_start_together(ready: asyncio.Barrier | None, go: asyncio.Event | None) -> None:
    """Once this session has opened: wait for every session to open, then for the signal to
    start moving (given after the browsers' after-load work, see ``_a_quiet``)."""
    if ready is not None:
        await ready.wait()
    if go is not None:
        await go.wait()


async def _a_student(browser, base: str, st: Student, moves: int, seed: int,
                     ready: asyncio.Barrier | None, think_s: tuple[float, float],
                     measure: bool, page_errors: list, go: asyncio.Event | None = None
                     ) -> None:
    rng = random.Random(seed * 1000 + st.index)
    context = await browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(30_000)
    opened = False
    try:
        page = await context.new_page()
        page.on("pageerror", lambda exc: page_errors.append(f"session {st.index}: {exc}"))
        await asyncio.sleep(0.25 * st.index % 5)  # students do not all click at the same ms
        await page.goto(st.link(base), wait_until="domcontentloaded",
                        timeout=CLASSROOM_LOAD_MS)
        await page.wait_for_selector("[data-testid='stApp']", timeout=CLASSROOM_LOAD_MS)
        # the first run of many sessions at once can take a while to start: wait for the
        # list and the headline metrics themselves, then for the run to end
        await page.locator(ROWS).first.wait_for(timeout=CLASSROOM_LOAD_MS)
        await page.locator("[data-figure='ndcg-linear']").first.wait_for(
            timeout=CLASSROOM_LOAD_MS)
        await _a_settle(page, CLASSROOM_LOAD_MS)
        await _a_check(page, st, "after opening its share link", poll_s=20)
        opened = True
        await _a_start_together(ready, go)
        for _ in range(moves):
            await asyncio.sleep(rng.uniform(*think_s))
            await _a_move(page, st, rng, measure)
        await _a_check(page, st, "at the end")
    except Exception as exc:
        if not opened:
            st.problems.append(f"session {st.index} could not open its share link: "
                               f"{type(exc).__name__}: {exc!s:.300}")
            if ready is not None:
                await ready.abort()  # the others would wait for it forever
        raise
    finally:
        await context.close()


class WireSession:
    """One session spoken to over Streamlit's own websocket protocol, with no browser: the
    messages a browser sends for a share link and for an Alt+Arrow move (captured from
    Chromium), and the figures read back from the server's answers. It stands for a
    student's browser on the student's own computer: the server does exactly the same work,
    and this machine's cores are left to the server and the timed browsers."""

    def __init__(self, base: str, st: Student):
        self.base, self.st = base, st
        self.ws = None
        self.query = urllib.parse.urlsplit(st.link(base)).query
        self.page_hash = self.fragment = self.list_id = None
        self.rows: list[tuple[str, str]] = []
        self.ids: list[str] = []
        self.metrics: dict[str, str] = {}
        self.exceptions = 0
        self.seq = 0
        self.instance = f"wire{id(self):x}"
        self.session = self.generation = None

    async def open(self) -> None:
        import websockets
        from streamlit.proto.BackMsg_pb2 import BackMsg

        url = self.base.replace("http://", "ws://", 1) + "/_stcore/stream"
        self.ws = await websockets.connect(url, subprotocols=["streamlit"], origin=self.base,
                                           max_size=None, open_timeout=60)
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        await self.ws.send(msg.SerializeToString())
        await self._read_run()

    async def move(self, pos: int, key: str) -> float:
        """Send the move a browser sends for Alt+Arrow on row ``pos`` (0-based); return the
        milliseconds until the server's answer holds the new DCG, and read the run to its end."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        other = pos - 1 if key.endswith("Up") else pos + 1
        order = list(self.ids)
        order[pos], order[other] = order[other], order[pos]
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string, rerun.page_script_hash = self.query, self.page_hash
        rerun.fragment_id = self.fragment
        state = rerun.widget_states.widgets.add()
        state.id, state.json_value = self.list_id, json.dumps({"order": order})
        event = rerun.widget_states.widgets.add()
        event.id = f"$$STREAMLIT_INTERNAL_KEY_{self.list_id}__events"
        self.seq += 1  # the ranking table numbers its events (two equal moves differ)
        # as ui/ranking_table/bridge.js sends it: this page's instance, and the server's
        # session and settings generation the table was drawn with (the server takes no
        # event of another session or generation)
        event.json_trigger_value = json.dumps(
            [{"event": "event", "value": {"action": "move", "id": order[other],
                                          "from": pos + 1, "to": other + 1,
                                          "seq": self.seq, "instance": self.instance,
                                          "session": self.session,
                                          "generation": self.generation}}])
        before = self.metrics.get(f"DCG@{len(self.st.grades)}")
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        return await self._read_run(changed_from=before, t0=t0)

    async def _read_run(self, changed_from=None, t0=None) -> float:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        label, latency = f"DCG@{len(self.st.grades)}", float("nan")
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await asyncio.wait_for(self.ws.recv(), 60))
            kind = fwd.WhichOneof("type")
            if kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "script_finished":
                return latency
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                which = el.WhichOneof("type")
                if which == "bidi_component" and el.bidi_component.id.endswith("-pg_list"):
                    # the playground's ranking table: its rows and the engine's figures
                    self.list_id = el.bidi_component.id
                    self.page_hash = fwd.metadata.active_script_hash
                    self.fragment = fwd.delta.fragment_id
                    data = json.loads(el.bidi_component.json)
                    self.ids = [r["id"] for r in data["rows"]]
                    self.session, self.generation = data.get("session"), data.get("generation")
                    self.rows = [(r["label"], r["grade_text"]) for r in data["rows"]]
                    figures = (data.get("figures") or {}).get("linear") or {}
                    for name in ("dcg", "idcg", "ndcg"):
                        if figures.get(name) is not None:
                            self.metrics[f"{name.upper()}@{data['k']}"] = fmt3(figures[name])
                    if (t0 is not None and self.metrics.get(label) != changed_from
                            and latency != latency):
                        latency = 1000 * (time.perf_counter() - t0)
                elif which == "exception":
                    self.exceptions += 1

    def check(self, when: str) -> None:
        st, problems = self.st, []
        if self.exceptions:
            problems.append(f"{self.exceptions} exception element(s)")
        foreign = [lab for lab, _ in self.rows if not lab.startswith(f"S{st.index:02d}-")]
        if foreign:
            problems.append(f"CROSSTALK: rows of another session {foreign}")
        if self.rows != st.expected_rows():
            problems.append(f"rows {self.rows} != expected {st.expected_rows()}")
        want = st.expected_metrics()
        got = {k: self.metrics.get(k) for k in want}
        if got != want:
            problems.append(f"metrics {got} != ndcg_core {want}")
        if problems:
            st.problems.append(f"session {st.index} (websocket) {when}: " + "; ".join(problems))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


class MovingStudent(threading.Thread):
    """A student moving on the playground over the websocket (:class:`WireSession`), in a
    thread of its own while the caller drives a browser or an upload: every move is checked
    against ndcg_core, and ``moves`` holds ``(perf_counter() at the send, ms to the answer)``.
    ``opened`` is set once the share link is open (or the opening failed: ``error``)."""

    def __init__(self, base: str, index: int = 0, seed: int = 5,
                 think_s: tuple[float, float] = (0.05, 0.15)):
        super().__init__(daemon=True)
        self.base, self.think_s = base, think_s
        self.rng = random.Random(seed)
        self.st = Student.make(index, self.rng)
        self.moves: list[tuple[float, float]] = []
        self.opened, self.stop_event = threading.Event(), threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            asyncio.run(self._moving())
        except BaseException as exc:  # noqa: BLE001 - handed to the caller (``error``)
            self.error = exc
            self.opened.set()

    async def _moving(self) -> None:
        session = WireSession(self.base, self.st)
        try:
            await session.open()
            session.check("after opening its share link")
            self.opened.set()
            while not self.stop_event.is_set():
                await asyncio.sleep(self.rng.uniform(*self.think_s))
                pos, key = _pick_move(self.st, self.rng)
                _record_move(self.st, pos, key)
                t0 = time.perf_counter()
                ms = await session.move(pos, key)
                self.moves.append((t0, ms))
                session.check(f"after move {len(self.st.moves)}")
        finally:
            await session.close()

    def wait_moves(self, n: int, timeout_s: float = 120) -> None:
        """Until ``n`` moves more than now are answered."""
        want, deadline = len(self.moves) + n, time.monotonic() + timeout_s
        while len(self.moves) < want and self.error is None and time.monotonic() < deadline:
            time.sleep(0.05)

    def sent_between(self, t0: float, t1: float) -> list[float]:
        """The latencies (ms) of the moves sent from ``t0`` to ``t1`` (perf_counter)."""
        return [ms for sent, ms in self.moves if t0 <= sent <= t1]

    def stop(self) -> None:
        self.stop_event.set()
        self.join(90)


async def _a_wire_student(base: str, st: Student, moves: int, seed: int,
                          ready: asyncio.Barrier | None, think_s: tuple[float, float],
                          go: asyncio.Event | None = None) -> None:
    """A student whose browser is on another computer: the same share link and moves as
    ``_a_student``, sent over the websocket (see ``WireSession``); checked the same way."""
    rng = random.Random(seed * 1000 + st.index)
    session, opened = WireSession(base, st), False
    try:
        await asyncio.sleep(0.25 * st.index % 5)
        await session.open()
        session.check("after opening its share link")
        opened = True
        await _a_start_together(ready, go)
        for _ in range(moves):
            await asyncio.sleep(rng.uniform(*think_s))
            pos, key = _pick_move(st, rng)
            _record_move(st, pos, key)
            st.wire_ms.append(await session.move(pos, key))
            session.check(f"after move {len(st.moves)} ({st.moves[-1]})")
    except Exception as exc:
        if not opened:
            st.problems.append(f"session {st.index} could not open its share link over the "
                               f"websocket: {type(exc).__name__}: {exc!s:.300}")
            if ready is not None:
                await ready.abort()
        raise
    finally:
        await session.close()


def _niced_chromium(directory: Path) -> str:
    """A launcher that runs Chromium at the lowest CPU priority (nice 19), for the sessions
    that stand for other students' computers: they still send every move to the server,
    but their drawing yields the shared cores to the server and the measured sessions."""
    launcher = directory / "chromium-nice19"
    launcher.write_text(f'#!/bin/sh\nexec nice -n 19 "{CHROMIUM}" "$@"\n')
    launcher.chmod(0o755)
    return str(launcher)


def _busy_jiffies() -> tuple[int, int]:
    """(busy, total) CPU time of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


async def _a_quiet(below: float = 0.25, window_s: float = 0.5, max_s: float = 60.0) -> float:
    """Wait until the machine's CPU use stays below ``below`` (a share of all cores) for two
    windows in a row, at most ``max_s``; return the seconds waited.

    After N pages have loaded, their renderers go on compiling and optimising Streamlit's
    JavaScript for several seconds (measured: 1.5 cores for about 9 s with 20 pages). On a
    student's own computer that work is done on its own cores; here it would land on the
    first moves of every session at once."""
    t0 = time.perf_counter()
    calm, before = 0, _busy_jiffies()
    while calm < 2 and time.perf_counter() - t0 < max_s:
        await asyncio.sleep(window_s)
        now = _busy_jiffies()
        busy, total = now[0] - before[0], now[1] - before[1]
        calm = calm + 1 if total and busy / total < below else 0
        before = now
    return time.perf_counter() - t0


async def _a_classroom(base: str, students: list[Student], moves: int, seed: int,
                       think_s, measure: bool, on_open=None, page_errors=None,
                       observers: int | None = None, on_go=None, wire: bool = False,
                       quiet_max_s: float = 60.0) -> None:
    from playwright.async_api import async_playwright

    check_chromium()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                           headless=True)
        background = browser
        if observers is not None and not wire:
            # the first `observers` sessions are measured in this browser; the others
            # run in a low-priority one and are checked but not timed
            tmp = Path(tempfile.mkdtemp(prefix="ndcg-nice-"))
            background = await pw.chromium.launch(executable_path=_niced_chromium(tmp),
                                                  args=CHROMIUM_ARGS, headless=True)
        try:
            opened, go = asyncio.Barrier(len(students) + 1), asyncio.Event()
            timed = [observers is None or i < observers for i in range(len(students))]
            tasks = [asyncio.create_task(
                _a_wire_student(base, st, moves, seed, opened, think_s, go)
                if wire and not timed[i] else
                _a_student(browser if timed[i] else background, base, st, moves, seed,
                           opened, think_s, measure and timed[i], page_errors, go))
                for i, st in enumerate(students)]

            # everyone has loaded its link: measure, wait for the browsers' after-load work
            # to end, then release the moves (a session that cannot open aborts the
            # barrier, and everyone stops)
            try:
                await opened.wait()
                await asyncio.sleep(1.0)  # let the last first runs finish allocating
                if on_open:
                    on_open()
                quiet_s = await _a_quiet(max_s=quiet_max_s)
            except asyncio.BrokenBarrierError:
                quiet_s = 0.0
            finally:
                if on_go:
                    on_go(quiet_s)
                go.set()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            for st, res in zip(students, results):
                if isinstance(res, BaseException):
                    st.problems.append(f"session {st.index} crashed: "
                                       f"{type(res).__name__}: {res!s:.500}")
        finally:
            await browser.close()
            if background is not browser:
                await background.close()


def run_classroom(server: AppServer, n: int, moves: int, seed: int = 7,
                  think_s: tuple[float, float] = (0.3, 1.0), measure: bool = True,
                  first_index: int = 0, observers: int | None = None,
                  wire: bool = False, quiet_max_s: float = 60.0) -> ClassroomReport:
    """N concurrent sessions on ``server`` (async Playwright, one browser, one context per
    session, in this thread's own event loop). Returns per-session problems, latencies and
    the server's RSS before opening / after opening / after the moves.

    With ``observers``, only the first ``observers`` sessions are timed (in a browser of
    normal priority); the others run in a nice-19 browser, standing for the students' own
    computers, and are checked like every session. With ``wire`` too, the other sessions
    are websocket clients instead (``WireSession``): the server gets the same messages and
    does the same work, and no browser of theirs takes this machine's cores.

    ``quiet_max_s`` bounds the wait for the machine to go quiet before the moves (latencies
    measured on a busy machine say little; a test that checks correctness only passes 0)."""
    rng = random.Random(seed)
    students, seen = [], set()
    while len(students) < n:
        st = Student.make(first_index + len(students), rng)
        if tuple(st.grades) not in seen or n > 600:
            seen.add(tuple(st.grades))
            students.append(st)
    report = ClassroomReport(n, moves, students)
    server.new_tracebacks()
    report.rss_before_kb = server.rss_kb()

    marks = {}

    def on_open():
        report.rss_after_open_kb = server.rss_kb()

    def on_go(quiet_s):
        report.quiet_seconds = quiet_s
        marks["t"], marks["cpu"] = time.perf_counter(), server.cpu_seconds()

    page_errors: list[str] = []
    t0 = time.perf_counter()
    asyncio.run(_a_classroom(server.url, students, moves, seed, think_s, measure, on_open,
                             page_errors, observers, on_go, wire))
    report.seconds = time.perf_counter() - t0
    if marks:
        report.moves_seconds = time.perf_counter() - marks["t"]
        report.moves_cpu_seconds = server.cpu_seconds() - marks["cpu"]
    report.rss_after_moves_kb = server.rss_kb()
    report.tracebacks = server.new_tracebacks()
    report.page_errors = page_errors
    return report
