"""Benchmark/soak: the monkey (tests/browser/monkey.py) for 2,000 seeded random actions.

Starts its own ``streamlit run app.py`` on 127.0.0.1, drives it with headless Chromium
(/usr/bin/chromium, or NDCG_CHROMIUM), then prints actions per second and every failure
(exception elements, server tracebacks, playground figures that differ from ndcg_core),
the actions that could not be done, and the paths of the action and server logs.

    python tests/bench/bench_monkey.py                     # 2,000 actions, seed 1
    python tests/bench/bench_monkey.py --actions 500 --seed 42 --check-every 25
    python tests/bench/bench_monkey.py --actions 300 --check-all   # figures after every action

Run by hand; not part of the test suite. Exit status 1 if there were failures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-every", type=int, default=50)
    ap.add_argument("--log-dir", type=Path, default=None,
                    help="where the action and server logs go (default: a new temp dir)")
    ap.add_argument("--echo", action="store_true", help="print every action as it happens")
    ap.add_argument("--check-all", action="store_true",
                    help="also check the playground's figures after every action there")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    M.check_chromium()
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="ndcg-monkey-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / f"monkey-seed{args.seed}.log"
    t0 = time.perf_counter()
    echo = (lambda line: print(f"{time.perf_counter() - t0:7.1f} {line}", flush=True)
            ) if args.echo else None
    with M.AppServer(log_dir) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=M.CHROMIUM, args=M.CHROMIUM_ARGS,
                                     headless=True)
        try:
            report = M.run_monkey(browser, server, args.actions, args.seed, log_file=log_file,
                                  checkpoint_every=args.check_every, echo=echo,
                                  check_all=args.check_all)
        finally:
            browser.close()

    print(report.summary())
    print(f"actions/s: {report.rate:.2f}  ({len(report.actions)} actions incl. checkpoint "
          f"navigation, {report.seconds:.0f} s)")
    print(f"failures (distinct): {len(report.failures)}")
    for f in report.failures:
        print("\n--- " + f)
    print(f"\npage JS errors: {len(report.page_errors)}")
    for e in report.page_errors[:20]:
        print("  " + e)
    print(f"actions that could not be done: {len(report.action_errors)}")
    for e in report.action_errors[:30]:
        print("  " + e)
    print(f"slow reruns (> 10 s): {len(report.slow)}")
    for e in report.slow[:10]:
        print("  " + e)
    print(f"action log: {log_file}\nserver log: {server.log_path}")
    return 1 if report.failures or report.page_errors else 0


if __name__ == "__main__":
    sys.exit(main())
