"""Benchmark: what a first visitor waits for and downloads, against an empty Streamlit app.

1. Starts ``streamlit run app.py`` and ``streamlit run tests/apps/empty_app.py`` (one line of
   text) on 127.0.0.1.
2. ``--visits`` times each (alternating, each in a fresh Chromium context: nothing cached),
   opens the app's root and times from the navigation to the first NDCG figure the
   playground draws (its ranking table's NDCG cell holding a number), and the empty app
   from the navigation to its text. Playwright's request log counts the resources each
   visit fetched and their bytes (as sent: Streamlit serves them uncompressed).
3. Prints the medians, their ratio (goal: first NDCG <= 1.25x the empty app's first paint on
   a quiet machine), what the app fetches beyond the empty app (by file type), and the load
   average.

    python tests/bench/bench_arrival.py --visits 5

Run by hand; not part of the suite.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402

NDCG_SHOWN = "[data-figure^='ndcg-']"  # the ranking table's NDCG cell (in its shadow root)
TEXT_SHOWN = "[data-testid='stText']"


def visit(browser, url: str, shown: str) -> tuple[float, list]:
    """Seconds from the navigation to ``shown``, and (url, bytes) of every response."""
    from playwright.sync_api import expect
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    got = []
    page.on("requestfinished", lambda r: got.append((r.url, r.sizes()["responseBodySize"])))
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit")
    expect(page.locator(shown).first).to_have_text(re.compile(r"\d|ready"), timeout=120_000)
    took = time.perf_counter() - t0
    page.wait_for_timeout(500)  # what the first screen still fetches after its first paint
    context.close()
    return took, got


def kind(url: str) -> str:
    path = url.split("?")[0]
    if "/_stcore/" in path:
        return "_stcore"
    if "/media/" in path or "/component/" in path or "bidi" in path:
        return "components and media"
    return path.rsplit(".", 1)[-1] if "." in path.rsplit("/", 1)[-1] else "page"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--visits", type=int, default=5)
    ap.add_argument("--list", action="store_true", help="list what the app fetches beyond")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    tmp = Path(tempfile.mkdtemp(prefix="ndcg-bench-arrival-"))
    os.environ["NDCG_LAB_DATA"] = str(tmp)
    load0 = os.getloadavg()
    with M.AppServer(tmp) as app, M.AppServer(tmp, app="tests/apps/empty_app.py") as empty, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=M.CHROMIUM, args=M.CHROMIUM_ARGS)
        for server, shown in ((app, NDCG_SHOWN), (empty, TEXT_SHOWN)):  # warm both servers
            visit(browser, server.url, shown)
        times = {"app": [], "empty": []}
        fetched = {}
        for _ in range(args.visits):
            for name, server, shown in (("app", app, NDCG_SHOWN), ("empty", empty, TEXT_SHOWN)):
                took, got = visit(browser, server.url, shown)
                times[name].append(took)
                fetched[name] = got
        browser.close()
    load1 = os.getloadavg()
    med = {k: statistics.median(v) for k, v in times.items()}
    for name in ("app", "empty"):
        got = fetched[name]
        print(f"{name}: first {'NDCG' if name == 'app' else 'paint'} median {med[name]:.2f} s "
              f"({', '.join(f'{x:.2f}' for x in times[name])}); {len(got)} resources, "
              f"{sum(b for _, b in got) / 1e6:.2f} MB")
    base = collections.Counter(kind(u) for u, _ in fetched["empty"])
    extra = collections.Counter(kind(u) for u, _ in fetched["app"])
    size = collections.Counter()
    for u, b in fetched["app"]:
        size[kind(u)] += b
    for u, b in fetched["empty"]:
        size[kind(u)] -= b
    print("beyond the empty app, by type: " + ", ".join(
        f"{k} {extra[k] - base[k]:+d} ({size[k] / 1e3:+.0f} kB)" for k in sorted(extra)
        if extra[k] != base[k] or size[k]))
    if args.list:
        seen = {u.rsplit("/", 1)[-1].split("?")[0] for u, _ in fetched["empty"]}
        for u, b in sorted(fetched["app"], key=lambda x: -x[1]):
            if u.rsplit("/", 1)[-1].split("?")[0] not in seen:
                print(f"  {b / 1e3:7.1f} kB  {u.split('/', 3)[-1][:100]}")
    print(f"load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after "
          f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} (2 cores)")
    print(f"arrival: first_ndcg_s={med['app']:.2f} empty_paint_s={med['empty']:.2f} "
          f"ratio={med['app'] / med['empty']:.2f} resources={len(fetched['app'])}/"
          f"{len(fetched['empty'])} load={load1[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
