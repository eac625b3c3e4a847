"""Benchmark: one drag's two server round trips on the playground, in headless Chromium.

A drop on the playground's ranking table is answered twice (docs/architecture.md, "One
drag"): the table's fragment reruns and the table draws the engine's figures (round trip
1), then the table's "settled" signal, sent once that answer is painted, reruns the
explanation fragment, which redraws the formula or charts tab and writes the address bar
(round trip 2). Per drop, from the pointerup (a capturing listener's performance.now()):

- drop -> engine: the frame after the table shows the engine's figures with the expected
  NDCG@4 (``data-figures`` back to "engine"), as tests/bench/bench_ranking_table.py times it;
- drop -> settled: the address bar names the new order (its ``g`` parameter: the grades in
  the order dropped), written by the explanation fragment's rerun;
- settled - engine: what the second round trip adds.

Interleaved with tests/apps/floor_app.py's number input (ArrowUp/Down -> its text), the
cheapest round trip Streamlit makes on this machine, so every figure has a ratio taken in
the same minutes. The page is app.py's playground opened from a share link (6 rows, k = 4),
the Formula tab open (the default).

    python tests/bench/bench_settled.py              # 20 drops after 4 untimed
    python tests/bench/bench_settled.py --drops 40

Report the load average it prints with every figure (2 cores shared with other work).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import ndcg_core as nc  # noqa: E402
from bench_ranking_table import _load  # noqa: E402  (this folder is the script's sys.path[0])

HERE = Path(__file__).resolve().parent

# The address bar's g parameter equal to `want`: stamped when Streamlit writes it (the
# frontend's history call) and, as a fallback, at the first frame that sees it.
URL_INSTRUMENT = """() => {
  const u = window.__url = {t0: null, t1: null, want: null};
  u.arm = (want) => Object.assign(u, {t0: null, t1: null, want});
  const check = () => {
    if (u.t0 === null || u.t1 !== null) return;
    if (new URLSearchParams(location.search).get('g') === u.want) u.t1 = performance.now();
  };
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name].bind(history);
    history[name] = (...args) => { const out = original(...args); check(); return out; };
  }
  const poll = () => { check(); requestAnimationFrame(poll); };
  requestAnimationFrame(poll);
  window.addEventListener('pointerup', () => {
    if (u.want && u.t0 === null) u.t0 = performance.now();
  }, true);
}"""


def drop(page, bench, i: int, wait_idle) -> tuple[float, float]:
    """Doc D up one row (even i) or back (odd i): ms to the engine's figures, to the link."""
    grades = bench.UP if i % 2 == 0 else bench.GRADES
    want = f"{nc.ndcg(grades, k=bench.K):.3f}"
    bench._hold_doc_d(page, i)
    page.evaluate(f"window.__rt.arm('drop', {want!r})")
    page.evaluate("(g) => window.__url.arm(g)", ",".join(str(g) for g in grades))
    page.mouse.up()
    t0, t1, after = bench._wait_measure(page)
    if after != want:
        raise AssertionError(f"drop {i} showed {after!r}, expected {want!r}")
    page.wait_for_function("window.__url.t1 !== null", timeout=30_000)
    u0, u1 = page.evaluate("[window.__url.t0, window.__url.t1]")
    wait_idle(page, timeout_ms=30_000)
    return t1 - t0, u1 - u0


def run(drops: int, warmup: int) -> dict:
    from playwright.sync_api import sync_playwright

    bench = _load("bench_ranking_table", HERE / "bench_ranking_table.py")
    helpers = _load("ndcg_browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    bench_pg = _load("bench_playground", HERE / "bench_playground.py")
    bench.IDS.update({"doc-c": "i2", "doc-d": "i3"})
    log_dir = Path(tempfile.mkdtemp(prefix="bench-settled-"))
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(helpers.streamlit_server(ROOT / "app.py", log_dir))
        floor_url = stack.enter_context(helpers.streamlit_server(bench.FLOOR, log_dir))
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=helpers.CHROMIUM,
                                     args=helpers.CHROMIUM_ARGS, headless=True)
        stack.callback(browser.close)
        floor_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        helpers.open_app_on(floor_page, floor_url)
        floor = bench_pg.floor_target(floor_page)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        helpers.open_app_on(page, url + bench._playground_link(6))
        page.wait_for_selector(".rt-list-rank .rt-row")
        page.evaluate(bench.INSTRUMENT)
        page.evaluate(URL_INSTRUMENT)
        helpers.wait_idle_on(page)
        engine, settled = [], []
        for i in range(warmup + drops):
            page.bring_to_front()
            e, s = drop(page, bench, i, helpers.wait_idle_on)
            floor.move(i, helpers.wait_idle_on, record=i >= warmup)
            if i >= warmup:
                engine.append(e)
                settled.append(s)
        return {"engine": engine, "settled": settled,
                "second": [s - e for e, s in zip(engine, settled)],
                "floor": list(floor.times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drops", type=int, default=20, help="timed drops (and floor moves)")
    parser.add_argument("--warmup", type=int, default=4, help="untimed first")
    args = parser.parse_args()
    bench = _load("bench_ranking_table", HERE / "bench_ranking_table.py")
    print(f"before: {bench.load()}")
    started = time.perf_counter()
    res = run(args.drops, args.warmup)
    print(f"after: {bench.load()}  ({time.perf_counter() - started:.0f} s in all)")
    print()
    print(f"{'measure (ms, in the page)':<48}{'median':>8}{'p95':>8}{'min':>8}{'max':>8}{'n':>5}")
    for name, values in (("drop -> engine's figures drawn (trip 1)", res["engine"]),
                         ("drop -> address bar written (trip 2)", res["settled"]),
                         ("  trip 2 alone (settled - engine)", res["second"]),
                         ("floor_app: ArrowUp/Down -> text", res["floor"])):
        med, p95, lo, hi, n = bench.summary(values)
        print(f"{name:<48}{med:>8.1f}{p95:>8.1f}{lo:>8.1f}{hi:>8.1f}{n:>5}")
    floor = statistics.median(res["floor"])
    print()
    print(f"engine / floor = {statistics.median(res['engine']) / floor:.2f}x; settled / floor "
          f"= {statistics.median(res['settled']) / floor:.2f}x; trip 2 / trip 1 = "
          f"{statistics.median(res['second']) / statistics.median(res['engine']):.2f}x")


if __name__ == "__main__":
    main()
