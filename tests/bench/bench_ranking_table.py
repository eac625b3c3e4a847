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

    python tests/bench/bench_ranking_table.py               # 40 crossings, 20 drops
    python tests/bench/bench_ranking_table.py --moves 80 --drops 30
    python tests/bench/bench_ranking_table.py --playground   # the real playground page
    python tests/bench/bench_ranking_table.py --playground --reruns 50   # + server rerun

With ``--reruns N`` the same run ends with tests/bench/bench_playground.py's server side:
the playground's AppTest rerun after a move, median of N (issue 11: <= 15 ms).

Run by hand; not part of the test suite. Starts its own Streamlit servers and stops them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
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
  window.addEventListener('pointermove', () => {
    if (b.mode === 'move' && b.t0 === null) b.t0 = performance.now();
  }, true);
  window.addEventListener('pointerup', () => {
    if (b.mode === 'drop' && b.t0 === null) b.t0 = performance.now();
  }, true);
  let waiting = false;
  new MutationObserver(() => {
    if (b.t0 === null || b.t1 !== null || waiting) return;
    const now = ndcg();
    const done = b.mode === 'move' ? now !== b.before
      : rt.dataset.figures === 'engine' && now === b.want;
    if (!done) return;
    waiting = true;
    requestAnimationFrame(() => { Object.assign(b, {t1: performance.now(), after: now}); waiting = false; });
  }).observe(root, {subtree: true, childList: true, characterData: true, attributes: true,
                    attributeFilter: ['data-figures']});
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


def drop_once(page, i: int, wait_idle):
    """Drag Doc D up one row (even i) or back down (odd i); ms from pointerup to engine."""
    x, y, box = _centre(page, "doc-d")
    other = "doc-c"
    _, y_o, box_o = _centre(page, other)
    target = y_o - box_o["height"] * 0.2 if i % 2 == 0 else y_o + box_o["height"] * 0.2
    want = f"{nc.ndcg(UP if i % 2 == 0 else GRADES, k=K):.3f}"
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + (6 if i % 2 == 0 else -6), steps=2)
    page.mouse.move(x, target, steps=6)
    page.evaluate(f"window.__rt.arm('drop', {want!r})")
    page.mouse.up()
    t0, t1, after = _wait_measure(page)
    if after != want:
        raise AssertionError(f"drop {i} showed {after!r}, expected {want!r}")
    tv = page.evaluate("window.__rt.tv")
    wait_idle(page, timeout_ms=30_000)
    return t1 - t0, (tv - t0 if tv and tv > 0 else float("nan"))


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


def run(moves: int, drops: int, warmup: int, bare: bool = False, rows: int = 6,
        playground: bool = False):
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
        drop_times, shown_times = [], []
        for i in range(warmup + drops):
            page.bring_to_front()
            t, shown = drop_once(page, i, helpers.wait_idle_on)
            floor.move(i, helpers.wait_idle_on, record=i >= warmup)
            if i >= warmup:
                drop_times.append(t)
                shown_times.append(shown)
        return {"preview": preview, "drop": drop_times, "shown": shown_times,
                "floor": floor.times,
                "long_preview": long_preview}


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
    parser.add_argument("--playground", action="store_true",
                        help="the real playground page (app.py, a share link with the demo's "
                             "list and k = 4) instead of the demo")
    args = parser.parse_args()
    print(f"before: {load()}")
    started = time.perf_counter()
    res = run(args.moves, args.drops, args.warmup, args.bare, args.rows, args.playground)
    print("app: app.py, the playground page (a share link)" if args.playground else
          "app: ranking_table_demo.py" + (" ?bare=1 (no sidebar)" if args.bare else
                                          " (sidebar settings, table in a fragment)"))
    print(f"after: {load()}  ({time.perf_counter() - started:.0f} s in all)")
    print()
    print(f"{'measure (ms, in the page)':<52}{'median':>8}{'p95':>8}{'min':>8}{'max':>8}{'n':>5}")
    rows = [("pointer move -> preview NDCG text (next frame)", res["preview"]),
            ("drop -> new order on screen (preview figures)", res["shown"]),
            ("drop -> engine's NDCG shown (confirmed)", res["drop"]),
            ("floor_app: ArrowUp/Down -> text", res["floor"])]
    if res["long_preview"]:
        rows.insert(1, (f"  same, {args.rows}-row list", res["long_preview"]))
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
    p95 = summary(res["preview"])[1]
    floor_med = statistics.median(res["floor"])
    prev_ratio = statistics.median(res["preview"]) / floor_med
    drop_ratio = statistics.median(res["drop"]) / floor_med
    print(f"preview p95 = {p95:.1f} ms (target <= {PREVIEW_TARGET_MS} ms: "
          f"{'met' if p95 <= PREVIEW_TARGET_MS else 'NOT met'}); preview / floor = "
          f"{prev_ratio:.2f}x (target <= 0.5x: {'met' if prev_ratio <= 0.5 else 'NOT met'})")
    print(f"drop -> engine / floor = {drop_ratio:.2f}x (target <= {DROP_TARGET}x: "
          f"{'met' if drop_ratio <= DROP_TARGET else 'NOT met'})")


if __name__ == "__main__":
    main()
