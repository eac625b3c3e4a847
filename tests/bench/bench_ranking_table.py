"""Benchmark: how fast the ranking table answers a drag, against a minimal Streamlit app.

In one run, in headless Chromium (tests/apps/ranking_table_demo.py, 6 rows, k = 4):

1. Preview: Doc D is held with the mouse and the pointer crosses Doc C's middle, up and
   down (one pointermove per crossing). From the pointermove (a capturing listener stamps
   performance.now()) to the animation frame after NDCG@4's text changed (a
   MutationObserver on the component's shadow root, then requestAnimationFrame).
2. Drop -> engine: a whole drag (Doc D up one row, then back down, alternating), from
   the pointerup to the frame after the component shows the engine's figures
   (``data-figures`` back to "engine", with the expected NDCG text); and from the
   pointerup to the frame after the rows took their new order (what the user sees: the
   preview's figures, which the engine's then confirm unchanged).
3. Floor: tests/apps/floor_app.py's number input, ArrowUp / ArrowDown -> its text,
   measured as tests/bench/bench_playground.py measures it; interleaved with (2), so
   both see the same load.
4. Key -> every first-screen figure: Alt+↑ / Alt+↓ on the focused 4th row, from the
   arrow's keydown (Playwright sends Alt's own keydown first, a driver's round trip
   earlier: not the page's time) to the frame after the figures, the rows and (on the
   playground) the formula under the table all show the new order (issue 22: one frame,
   p95 <= 16.7 ms on a quiet machine). "The frame after" is the requestAnimationFrame
   asked for from the MutationObserver that saw the last write: the frame that paints
   it, stamped at its start (its style, layout and paint come after the stamp).
5. Server CPU per move: the Streamlit server process's user + system time (/proc) over
   each timed drop, every rerun it causes included (the table's, then the formula's and
   the link's); it decides how many students one core serves.
6. Drop -> charts (``--playground`` only): the Charts tab open, the same drops, from the
   pointerup to the frame after both Plotly charts show the new order's figures (their
   SVG text: "k = 4 · NDCG@4 = ..." at the cutoff's line of each, "your ranking: DCG@4 =
   ..." in the contributions' legend; a MutationObserver on the page, then
   requestAnimationFrame), interleaved with the floor's moves, which are reported for
   this phase on their own. Reported against the floor, no target (issue 22). First run
   (2026-12-03, ``--playground --moves 20 --drops 12``, load average 19.7 -> 21.3 on the
   2 shared cores): median 1,828 ms (p95 2,327) against the floor's 38.6 ms in the same
   phase, 47x; drop -> engine 248.8 ms in the same run. Again at load 13.0 -> 13.5:
   766 ms (p95 1,170) against 30.6 ms, 25x; drop -> engine 117.1 ms. The charts wait for
   the engine's answer to be painted, then the explanation fragment's own rerun (its
   "settled" signal) and Plotly's redraw of two charts.

    python tests/bench/bench_ranking_table.py               # 40 crossings, 20 drops
    python tests/bench/bench_ranking_table.py --moves 80 --drops 30
    python tests/bench/bench_ranking_table.py --playground   # the real playground page
    python tests/bench/bench_ranking_table.py --playground --reruns 50   # + server rerun
    python tests/bench/bench_ranking_table.py --playground --cpu   # + main-thread CPU

With ``--reruns N`` the same run ends with tests/bench/bench_playground.py's server side:
the playground's AppTest rerun after a move, median of N (issue 11: <= 15 ms). With
``--cpu`` the key presses, the drops and the floor's moves are traced
(:class:`MainThreadCPU`): the CPU time the page's main thread spent on each answer, from
the task of the event itself to the end of the frame that shows it, which waiting for a
busy machine's cores does not inflate.

Measured (2 cores shared with other test runs, so medians move by tens of ms between
runs; ``--playground --rows 6 --moves 40 --drops 20 --reruns 50``, ms):

===================================  ========  ========  =======  =======
run                                  before    before    after    after
load average (1 min) at the start    ~7.5      1.1       6.6      5.7
pointer move -> preview, p95         12.5      10.5      6.0      5.9
drop -> engine's NDCG, median        116.2     117.1     131.7    129.0
floor_app key -> text, median        38.4      36.4      40.6     42.3
drop / floor                         3.02x     3.22x     3.24x    3.04x
AppTest rerun, playground (floor)    22.1 (8)  24.0 (4)  20.9 (5) 21.1 (4)
===================================  ========  ========  =======  =======

Where a drop's time goes (a scratch copy stamping the websocket's messages in the page,
20 drops each, load ~5.5): the report leaves 8.2 ms after the pointerup (floor: 8.6 after
the key), the server's first message arrives at 20.4 (floor 14.4: the fragment's script
takes 3-4 ms, and its message carries the component's ~60 KB of inline JS and CSS, which
costs the page ~3 ms to decode), the rerun's last message at 56.6 (floor 24.7), and the
engine's NDCG is on screen at 77.9 (floor 34.1). The server sends a rerun's messages
within a few ms; what spreads them out is the page's main thread rendering the earlier
ones: Streamlit re-renders the page's elements on a rerun's start, its delta and its end
(the sidebar's page links, the settings, the tabs and the formula's KaTeX, not only the
fragment's table). ``--cpu`` puts the main thread's CPU per answer at 50-90 ms for a
drop against 15-22 ms for the floor (load 4-12; 72.9 against 19.1, 3.8x, with the
after runs' code at load ~4.5). Of that, the table's own JavaScript (redraw, figures,
focus) is ~5 ms (a JS profile of the drop window). Scratch copies without parts of the
page (one traced run each, against a spread of +-15 ms between runs of the same page):
without the formula 52 against 70-77, without the whole explanation fragment 58, the
formula as MathML in st.html instead of KaTeX no better (66-72 against 48-67); without
the buttons, the settings, the sidebar's switch or the pages' icons no change seen; a
page left with only the table and the sidebar's links ~50, still ~2.5x the floor. So
1.3x is out of reach while the page keeps what issue 11 keeps: most of a drop is
Streamlit rendering the page three times, which no code of the table controls.

Key -> every first-screen figure (issue 22), before and after the key path was made
one task (``--playground --moves 80 --drops 20 --cpu``, this bench's code both times,
before and after run back to back, twice; the machine shared with other work at load
17-36 on 2 cores, so the latencies are a loaded machine's; ms):

===========================================  ========  ========  =======  =======
run                                          before    before    after    after
load average (1 min) at the start            17.4      29.6      20.3     28.3
key -> every figure, median                  24.0      24.3      7.6      8.7
key -> every figure, p95                     168.2     210.1     73.8     40.1
key -> every figure, min                     11.3      10.5      1.7      2.3
main-thread CPU per key (trace), median      16.7      15.8      7.9      9.7
drop -> new order on screen, median          31.8      91.1      12.3     12.7
drop -> engine's NDCG, median                158.5     612.2     286.4    183.4
main-thread CPU per drop (trace), median     64.7      66.6      56.6     63.2
===========================================  ========  ========  =======  =======

Where a key's time went before (a Chromium trace of the key windows): the keydown
reported the move and queued the redraw in a setTimeout; Chromium ran a frame straight
after the input (nothing new in it), then Streamlit's report task, then the redraw, whose
focused row, moved in the page, lost focus and was focused again with scrollIntoView (a
forced style and layout, 2-3 ms), and the formula was built again from nothing: the new
order was painted one frame after the key, never in the first. Now the keydown draws
(rows moved around the focused one, which stays in place; the figures; the formula's
changed numbers only), with no layout read between the writes, and reports after; the
frame that follows the keydown shows it, and the keydown's JavaScript is ~1-3 ms (a JS
profile: the row moves and the numbers' text). What a key costs after it is the frame
itself (style, layout of the moved rows, paint: 5-8 ms of main-thread CPU), counted in
the CPU row, not in the latency. The p95 above is the load's: on these runs every figure
waited for a core the other work held.

The AppTest rerun spends ~3 ms the server does not: AppTest resets Streamlit's "pages/
folder" flag before every run, so each run goes through Streamlit's old multipage wrapper
(ten more st.Page and a second st.navigation), which the server skips once st.navigation
has run (measured against a scratch copy with the folder renamed). The script's own
parts: the settings row ~2, the table ~2 (Streamlit's component call ~1.4, of which
~0.6 is checking the data's 21 top-level keys for dataframes), the buttons ~1, the
formula and the link ~1.

Run by hand; not part of the test suite. Starts its own Streamlit servers and stops them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import ndcg_core as nc  # noqa: E402

DEMO = ROOT / "tests" / "apps" / "ranking_table_demo.py"
FLOOR = ROOT / "tests" / "apps" / "floor_app.py"
GRADES = [3, 2, 3, 0, 1, 2]
UP = [3, 2, 0, 3, 1, 2]  # Doc D one place up
K = 4
PREVIEW_TARGET_MS = 16.7  # one 60 Hz frame, p95
DROP_TARGET = 1.3         # drop -> engine / floor round trip, medians

INSTRUMENT = """() => {
  const host = [...document.querySelectorAll('*')].find(
    (e) => e.shadowRoot && e.shadowRoot.querySelector('.rt'));
  const root = host.shadowRoot;
  const rt = root.querySelector('.rt');
  const ndcg = () => root.querySelector("[data-figure='ndcg-linear']").textContent;
  // The formula under the table (the playground's; the demo has none): another component.
  let formulaLine = null;
  const formula = () => {
    if (!formulaLine || !formulaLine.isConnected) {
      formulaLine = null;
      for (const e of document.querySelectorAll('*')) {
        const hit = e.shadowRoot && e.shadowRoot.querySelector("[data-figure='formula-ndcg-linear']");
        if (hit) { formulaLine = hit; break; }
      }
    }
    return formulaLine ? formulaLine.lastChild.textContent : null;
  };
  const b = window.__rt = {mode: null, t0: null, t1: null, before: null, after: null,
                           want: null, samples: []};
  b.arm = (mode, want) => Object.assign(b, {mode, t0: null, t1: null, tv: null,
                                            before: ndcg(), after: null, want});
  // The drop on screen: the frame after the rows take their new DOM order.
  new MutationObserver(() => {
    if (b.mode === 'drop' && b.t0 !== null && b.tv === null) {
      b.tv = -1;
      requestAnimationFrame(() => { b.tv = performance.now(); });
    }
  }).observe(root.querySelector('.rt-list-rank'), {childList: true});
  // The keydown that moves the row (Alt+↑ is two keydowns: Alt's, then the arrow's with
  // altKey; the time between them is the driver's, not the page's).
  window.addEventListener('keydown', (e) => {
    if (b.mode === 'key' && b.t0 === null && e.key.startsWith('Arrow')) {
      b.t0 = performance.now();
      console.timeStamp('bench-start');
    }
  }, true);
  window.addEventListener('pointermove', () => {
    if (b.mode === 'move' && b.t0 === null) b.t0 = performance.now();
  }, true);
  window.addEventListener('pointerup', () => {
    if (b.mode === 'drop' && b.t0 === null) {
      b.t0 = performance.now();
      console.timeStamp('bench-start');  // --cpu: the trace's window (a no-op otherwise)
    }
  }, true);
  let waiting = false;
  new MutationObserver(() => {
    if (b.t0 === null || b.t1 !== null || waiting) return;
    const now = ndcg();
    // A key: every first-screen figure shows the new order (the table's figures and rows,
    // and the formula's, drawn in the same task), not yet the engine's confirmation.
    const f = formula();
    const done = b.mode === 'move' ? now !== b.before
      : b.mode === 'key' ? now !== b.before && (f === null || f === now)
      : rt.dataset.figures === 'engine' && now === b.want;
    if (!done) return;
    waiting = true;
    requestAnimationFrame(() => {
      Object.assign(b, {t1: performance.now(), after: now});
      waiting = false;
      if (b.mode === 'drop' || b.mode === 'key') console.timeStamp('bench-end');
    });
  }).observe(root, {subtree: true, childList: true, characterData: true, attributes: true,
                    attributeFilter: ['data-figures']});
}"""


CHARTS_INSTRUMENT = """() => {
  const c = window.__charts = {t0: null, t1: null, want: null, seen: null};
  const read = () => {
    const charts = [...document.querySelectorAll("[data-testid='stPlotlyChart']")];
    return {
      atK: charts.map((ch) => [...ch.querySelectorAll('.annotation-text')]
        .map((e) => e.textContent).join(' | ')),
      legend: charts.length ? [...charts[0].querySelectorAll('.legendtext')]
        .map((e) => e.textContent) : [],
    };
  };
  c.read = read;
  c.arm = (want) => Object.assign(c, {t0: null, t1: null, want, seen: null});
  window.addEventListener('pointerup', () => {
    if (c.want && c.t0 === null) c.t0 = performance.now();
  }, true);
  let waiting = false;
  new MutationObserver(() => {
    if (c.t0 === null || c.t1 !== null || waiting) return;
    const now = read();
    const done = now.atK.length === 2 && now.atK.every((s) => s === c.want.atK)
      && now.legend[0] === c.want.legend;
    if (!done) return;
    waiting = true;
    requestAnimationFrame(() => {
      Object.assign(c, {t1: performance.now(), seen: now});
      waiting = false;
    });
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load() -> str:
    import os
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def summary(values):
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(values), p95, ordered[0], ordered[-1], len(values)


# The rows' ids on the page measured: the demo's (doc-c, ...) or, with --playground, the
# playground's (i0, i1, ...: the items of its share link, in order).
IDS: dict[str, str] = {}


def _centre(page, item_id):
    item_id = IDS.get(item_id, item_id)
    box = page.locator(f".rt-list-rank .rt-row[data-item-id='{item_id}'] .rt-label").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box


def _wait_measure(page):
    page.wait_for_function("window.__rt.t1 !== null", timeout=30_000)
    return page.evaluate("[window.__rt.t0, window.__rt.t1, window.__rt.after]")


def _grades(rows: int):
    """The demo's grades for ``?n=rows`` (tests/apps/ranking_table_demo.py)."""
    if rows <= len(GRADES):
        return GRADES[:rows], "doc-c", "doc-d"
    return [(i * 7) % 4 for i in range(1, rows + 1)], "doc-3", "doc-4"


def preview_bench(page, moves: int, warmup: int, rows: int = 6):
    """Pointer crossings while the 4th row is held: ms from pointermove to the frame after."""
    grades, third, fourth = _grades(rows)
    up = grades[:2] + [grades[3], grades[2]] + grades[4:]
    x, y, box = _centre(page, fourth)
    _, y_c, box_c = _centre(page, third)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 8, steps=3)
    page.mouse.move(x, y, steps=3)
    above = y_c - box_c["height"] * 0.2  # Doc D's centre above Doc C's middle
    below = y + 2
    times, texts = [], set()
    for i in range(warmup + moves):
        target = above if i % 2 == 0 else below
        page.evaluate("window.__rt.arm('move', null)")
        page.mouse.move(x, target, steps=1)
        t0, t1, after = _wait_measure(page)
        texts.add(after)
        if i >= warmup:
            times.append(t1 - t0)
        page.wait_for_timeout(60)
    page.mouse.move(x, y, steps=2)
    page.mouse.up()
    expected = {f"{nc.ndcg(up, k=K):.3f}", f"{nc.ndcg(grades, k=K):.3f}"}
    if texts != expected:
        raise AssertionError(f"preview showed {texts}, expected {expected}")
    return times


def key_bench(page, presses: int, warmup: int, wait_idle):
    """Alt+↑ / Alt+↓ on the focused 4th row, alternately: ms from the keydown to the frame
    after the figures, the rows and the formula all show the new order."""
    times = []
    for i in range(warmup + presses):
        page.locator(f".rt-list-rank .rt-row[data-item-id='{IDS.get('doc-d', 'doc-d')}']").focus()
        page.evaluate("window.__rt.arm('key', null)")
        page.keyboard.press("Alt+ArrowUp" if i % 2 == 0 else "Alt+ArrowDown")
        t0, t1, _ = _wait_measure(page)
        if page.evaluate("window.__rt.after") is None:
            raise AssertionError("the key press showed nothing")
        if i >= warmup:
            times.append(t1 - t0)
        wait_idle(page, timeout_ms=30_000)
        page.wait_for_timeout(300)  # the formula's and the link's own rerun
        wait_idle(page, timeout_ms=30_000)
    return times


def server_pid(url: str) -> int:
    """The pid of the Streamlit server listening on ``url``'s port (its command line)."""
    port = url.rsplit(":", 1)[1].split("/")[0]
    for proc in Path("/proc").iterdir():
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(args) and b"--server.port" in args and \
                args[args.index(b"--server.port") + 1] == port.encode():
            return int(proc.name)
    raise RuntimeError(f"no server on port {port}")


def cpu_ms(pid: int) -> float:
    """CPU time (user + system) the process has used, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _hold_doc_d(page, i: int) -> None:
    """Doc D held and moved above Doc C's middle (even i) or back below it (odd i), the
    mouse still down."""
    x, y, box = _centre(page, "doc-d")
    _, y_o, box_o = _centre(page, "doc-c")
    target = y_o - box_o["height"] * 0.2 if i % 2 == 0 else y_o + box_o["height"] * 0.2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + (6 if i % 2 == 0 else -6), steps=2)
    page.mouse.move(x, target, steps=6)


def drop_once(page, i: int, wait_idle):
    """Drag Doc D up one row (even i) or back down (odd i); ms from pointerup to engine."""
    want = f"{nc.ndcg(UP if i % 2 == 0 else GRADES, k=K):.3f}"
    _hold_doc_d(page, i)
    page.evaluate(f"window.__rt.arm('drop', {want!r})")
    page.mouse.up()
    t0, t1, after = _wait_measure(page)
    if after != want:
        raise AssertionError(f"drop {i} showed {after!r}, expected {want!r}")
    tv = page.evaluate("window.__rt.tv")
    wait_idle(page, timeout_ms=30_000)
    page.wait_for_timeout(300)  # the playground's formula, charts and link: a rerun of their own
    wait_idle(page, timeout_ms=30_000)
    return t1 - t0, (tv - t0 if tv and tv > 0 else float("nan"))


def charts_bench(page, floor, drops: int, warmup: int, start: int, wait_idle):
    """Drop -> charts: the Charts tab opened, then drops as :func:`drop_once`'s (``start``:
    the drops made before, so each goes the other way) interleaved with the floor's moves.
    Returns (ms from the pointerup to the frame after both charts show the new order's
    figures, the floor's ms in this phase)."""
    from lab.text import fmt

    page.get_by_role("tab", name="Charts").click()
    wait_idle(page, timeout_ms=30_000)
    page.wait_for_selector("[data-testid='stPlotlyChart'] .annotation-text", timeout=30_000)
    page.evaluate(CHARTS_INSTRUMENT)
    times, first_floor = [], len(floor.times)
    for i in range(start, start + warmup + drops):
        page.bring_to_front()
        parts = nc.ndcg_parts(UP if i % 2 == 0 else GRADES, k=K)
        want = {"atK": f"k = {K} · NDCG@{K} = {fmt(parts.ndcg)}",
                "legend": f"your ranking: DCG@{K} = {fmt(parts.dcg)}"}
        page.evaluate("(want) => window.__charts.arm(want)", want)
        _hold_doc_d(page, i)
        page.mouse.up()
        page.wait_for_function("window.__charts.t1 !== null", timeout=30_000)
        t0, t1 = page.evaluate("[window.__charts.t0, window.__charts.t1]")
        wait_idle(page, timeout_ms=30_000)
        page.wait_for_timeout(300)  # the link's and the table's last messages
        wait_idle(page, timeout_ms=30_000)
        record = i >= start + warmup
        floor.move(i, wait_idle, record=record)
        if record:
            times.append(t1 - t0)
    return times, floor.times[first_floor:]


def _playground_link(n: int) -> str:
    """The playground's share link holding the demo's ``?n=`` list, with k = 4."""
    from lab.playground import ranking_query_params
    from urllib.parse import urlencode

    if n <= len(GRADES):
        labels, grades = [f"Doc {chr(65 + i)}" for i in range(n)], GRADES[:n]
    else:
        labels, grades = [f"Doc {i}" for i in range(1, n + 1)], _grades(n)[0]
    return "/?" + urlencode(ranking_query_params(labels, grades, k=K, scale="0-3"),
                            doseq=True)


class MainThreadCPU:
    """--cpu: a Chromium trace (one for the whole browser) of the CPU time each page's main
    thread spent between that page's ``console.timeStamp("bench-start")`` and
    ``("bench-end")``: the same windows as the latencies (pointerup or key press to the
    frame after the answer). On a machine shared with other work a latency includes waiting
    for a core; this does not, so it tells what the page itself costs the browser (the
    trace slows both apps a little, alike)."""

    CATEGORIES = "toplevel,devtools.timeline,disabled-by-default-devtools.timeline"

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)
        self.events: list[dict] = []
        self.done = False
        self.cdp.on("Tracing.dataCollected", lambda e: self.events.extend(e["value"]))
        self.cdp.on("Tracing.tracingComplete", lambda e: setattr(self, "done", True))
        self.cdp.send("Tracing.start", {"categories": self.CATEGORIES,
                                        "transferMode": "ReportEvents"})

    def stop(self, page) -> list[list[float]]:
        """Per page, in the order each first stamped: ms of main-thread CPU per window."""
        self.cdp.send("Tracing.end")
        while not self.done:
            page.wait_for_timeout(100)
        marks = sorted((e["ts"], e["args"]["data"].get("message"), (e["pid"], e["tid"]))
                       for e in self.events if e.get("name") == "TimeStamp")
        threads = list(dict.fromkeys(thread for _, _, thread in marks))
        tasks = [e for e in self.events if e.get("ph") == "X" and e.get("name") == "RunTask"]
        out = []
        for thread in threads:
            own = [e for e in tasks if (e["pid"], e["tid"]) == thread]
            windows, start = [], None
            for ts, message, where in marks:
                if where != thread:
                    continue
                if message == "bench-start":
                    # from the task that stamped it (the pointerup's or the keydown's own)
                    start = max([e["ts"] for e in own if e["ts"] <= ts < e["ts"] + e["dur"]],
                                default=ts)
                elif message == "bench-end" and start is not None:
                    windows.append(sum(e.get("tdur", 0) for e in own
                                       if start <= e["ts"] < ts) / 1000)
                    start = None
            out.append(windows)
        return out


def run(moves: int, drops: int, warmup: int, bare: bool = False, rows: int = 6,
        playground: bool = False, cpu: bool = False):
    from playwright.sync_api import sync_playwright

    helpers = _load("ndcg_browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    bench_pg = _load("bench_playground", ROOT / "tests" / "bench" / "bench_playground.py")
    log_dir = Path(tempfile.mkdtemp(prefix="bench-ranking-table-"))
    with contextlib.ExitStack() as stack:
        demo_url = stack.enter_context(helpers.streamlit_server(
            ROOT / "app.py" if playground else DEMO, log_dir))
        if playground:
            IDS.update({"doc-c": "i2", "doc-d": "i3", "doc-3": "i2", "doc-4": "i3"})
        floor_url = stack.enter_context(helpers.streamlit_server(FLOOR, log_dir))
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=helpers.CHROMIUM,
                                     args=helpers.CHROMIUM_ARGS, headless=True)
        stack.callback(browser.close)
        floor_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        helpers.open_app_on(floor_page, floor_url)
        floor = bench_pg.floor_target(floor_page)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        helpers.open_app_on(page, demo_url + (_playground_link(6) if playground
                                              else "/?bare=1" if bare else ""))
        page.wait_for_selector(".rt-list-rank .rt-row")
        page.evaluate(INSTRUMENT)

        preview = preview_bench(page, moves, warmup)
        long_preview = None
        if rows > 6:  # the same crossings in a long list (its own page)
            long_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            helpers.open_app_on(long_page, demo_url + (_playground_link(rows) if playground
                                                       else f"/?n={rows}"))
            long_page.wait_for_selector(".rt-list-rank .rt-row")
            long_page.evaluate(INSTRUMENT)
            long_preview = preview_bench(long_page, moves, warmup, rows)
            long_page.context.close()
            page.bring_to_front()
        helpers.wait_idle_on(page)
        key_trace = MainThreadCPU(page) if cpu else None
        keys = key_bench(page, moves, warmup, helpers.wait_idle_on)
        key_cpu = key_trace.stop(page)[0][warmup:] if cpu else None
        pid = server_pid(demo_url)
        drop_times, shown_times, server_cpu = [], [], []
        trace = MainThreadCPU(page) if cpu else None
        for i in range(warmup + drops):
            page.bring_to_front()
            before = cpu_ms(pid)
            t, shown = drop_once(page, i, helpers.wait_idle_on)
            used = cpu_ms(pid) - before
            floor.move(i, helpers.wait_idle_on, record=i >= warmup)
            if i >= warmup:
                drop_times.append(t)
                shown_times.append(shown)
                server_cpu.append(used)
        # the playground's page stamps first (each round drops, then moves the floor)
        cpu_times = [w[warmup:] for w in trace.stop(page)] if cpu else None
        floor_drops = list(floor.times)
        charts = (charts_bench(page, floor, drops, warmup, warmup + drops,
                               helpers.wait_idle_on) if playground else None)
        return {"preview": preview, "key": keys, "drop": drop_times, "shown": shown_times,
                "server_cpu": server_cpu,
                "floor": floor_drops, "charts": charts,
                "long_preview": long_preview, "cpu": cpu_times, "key_cpu": key_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="timed pointer crossings")
    parser.add_argument("--drops", type=int, default=20, help="timed drops (and floor moves)")
    parser.add_argument("--warmup", type=int, default=4, help="untimed first")
    parser.add_argument("--rows", type=int, default=60,
                        help="also time the preview in a list this long (6: skip)")
    parser.add_argument("--bare", action="store_true",
                        help="the demo without its sidebar: the component's own cost")
    parser.add_argument("--reruns", type=int, default=0,
                        help="then time N AppTest reruns of the playground after a move "
                             "(bench_playground.py's server side; 0: skip)")
    parser.add_argument("--cpu", action="store_true",
                        help="also trace the drops and the floor's moves: main-thread CPU "
                             "per answer (the trace slows both apps a little)")
    parser.add_argument("--playground", action="store_true",
                        help="the real playground page (app.py, a share link with the demo's "
                             "list and k = 4) instead of the demo")
    args = parser.parse_args()
    print(f"before: {load()}")
    started = time.perf_counter()
    res = run(args.moves, args.drops, args.warmup, args.bare, args.rows, args.playground,
              args.cpu)
    print("app: app.py, the playground page (a share link)" if args.playground else
          "app: ranking_table_demo.py" + (" ?bare=1 (no sidebar)" if args.bare else
                                          " (sidebar settings, table in a fragment)"))
    print(f"after: {load()}  ({time.perf_counter() - started:.0f} s in all)")
    print()
    print(f"{'measure (ms, in the page)':<52}{'median':>8}{'p95':>8}{'min':>8}{'max':>8}{'n':>5}")
    rows = [("pointer move -> preview NDCG text (next frame)", res["preview"]),
            ("key -> every first-screen figure (formula too)", res["key"]),
            ("drop -> new order on screen (preview figures)", res["shown"]),
            ("drop -> engine's NDCG shown (confirmed)", res["drop"]),
            ("floor_app: ArrowUp/Down -> text", res["floor"]),
            ("server CPU per move (drop: every rerun it causes)", res["server_cpu"])]
    if res["long_preview"]:
        rows.insert(1, (f"  same, {args.rows}-row list", res["long_preview"]))
    if res["charts"]:
        rows += [("drop -> both charts show the new figures", res["charts"][0]),
                 ("  floor_app: ArrowUp/Down -> text, same phase", res["charts"][1])]
    if res["cpu"]:
        rows += [("main-thread CPU: key -> every figure (trace)", res["key_cpu"]),
                 ("main-thread CPU: drop -> engine's NDCG (trace)", res["cpu"][0]),
                 ("main-thread CPU: floor_app key -> text (trace)", res["cpu"][1])]
    for name, values in rows:
        med, p95, lo, hi, n = summary(values)
        print(f"{name:<52}{med:>8.1f}{p95:>8.1f}{lo:>8.1f}{hi:>8.1f}{n:>5}")
    if args.reruns:
        bench_pg = _load("bench_playground", ROOT / "tests" / "bench" / "bench_playground.py")
        server = bench_pg.apptest_bench(args.reruns)
        print(f"after the AppTest part: {load()}")
        for name in ("playground", "floor"):
            wall, cpu = server[name]
            med, p95, lo, hi, n = summary(wall)
            print(f"{'AppTest rerun: ' + name + ' (wall; CPU median ' + f'{statistics.median(cpu):.1f})':<52}"
                  f"{med:>8.1f}{p95:>8.1f}{lo:>8.1f}{hi:>8.1f}{n:>5}")
        rerun = statistics.median(server["playground"][0])
        print(f"server rerun median = {rerun:.1f} ms (target <= {bench_pg.SERVER_TARGET_MS} ms: "
              f"{'met' if rerun <= bench_pg.SERVER_TARGET_MS else 'NOT met'})")
    print()
    key_p95 = summary(res["key"])[1]
    print(f"key -> every first-screen figure p95 = {key_p95:.1f} ms (target <= "
          f"{PREVIEW_TARGET_MS} ms on a quiet machine: "
          f"{'met' if key_p95 <= PREVIEW_TARGET_MS else 'NOT met'})")
    p95 = summary(res["preview"])[1]
    floor_med = statistics.median(res["floor"])
    prev_ratio = statistics.median(res["preview"]) / floor_med
    drop_ratio = statistics.median(res["drop"]) / floor_med
    print(f"preview p95 = {p95:.1f} ms (target <= {PREVIEW_TARGET_MS} ms: "
          f"{'met' if p95 <= PREVIEW_TARGET_MS else 'NOT met'}); preview / floor = "
          f"{prev_ratio:.2f}x (target <= 0.5x: {'met' if prev_ratio <= 0.5 else 'NOT met'})")
    print(f"drop -> engine / floor = {drop_ratio:.2f}x (target <= {DROP_TARGET}x: "
          f"{'met' if drop_ratio <= DROP_TARGET else 'NOT met'})")
    if res["charts"]:
        charts_ratio = statistics.median(res["charts"][0]) / statistics.median(res["charts"][1])
        print(f"drop -> charts / floor (same phase) = {charts_ratio:.2f}x (reported, no target)")
    if res["cpu"] and res["cpu"][0] and res["cpu"][1]:
        print(f"main-thread CPU, drop / floor = "
              f"{statistics.median(res['cpu'][0]) / statistics.median(res['cpu'][1]):.2f}x "
              "(what the page costs the browser, without waiting for a core)")


if __name__ == "__main__":
    main()
