"""Monkey test: 200 seeded random user actions across every page of NDCG Lab.

Drags and Alt+arrow moves of list rows (playground, Beyond NDCG, gain lesson), grade edits
and added rows in the playground's editor, sliders moved from the keyboard, radios,
selectboxes, buttons (not downloads), tabs, uploads of the sample files, page switches and
reloads. After every action: no exception element on the page and no traceback in the
server's log. Every 50 actions (and at the end) the monkey goes to the playground and checks
every DCG/IDCG/NDCG metric against ndcg_core for the state it reads back from the page (rows,
k from the metric label and slider, gain radio, judged-pool text).

Reproduce a failure with the seed it prints: ``NDCG_MONKEY_SEED=<seed> python -m pytest
tests/browser/test_monkey.py``; the action log (path in the failure message; under
``$NDCG_MONKEY_LOG_DIR``, default ``/tmp/ndcg-monkey``) lists every action with its index,
and a screenshot is saved at each distinct failure. ``NDCG_MONKEY_ACTIONS`` changes the number of actions.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import monkey as M

SEED = int(os.environ.get("NDCG_MONKEY_SEED", "20240611"))
ACTIONS = int(os.environ.get("NDCG_MONKEY_ACTIONS", "200"))
CHECK_EVERY = 50


def log_dir() -> Path:
    """Logs outside pytest's tmp_path, which parallel pytest runs rotate away quickly."""
    base = Path(os.environ.get("NDCG_MONKEY_LOG_DIR", Path(tempfile.gettempdir()) /
                               "ndcg-monkey"))
    path = base / f"seed{SEED}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_random_actions_raise_nothing_and_keep_ndcg_right(browser) -> None:
    """200 random actions (NDCG_MONKEY_ACTIONS): no exception, no server traceback,
    playground figures = engine."""
    logs = log_dir()
    log_file = logs / f"monkey-seed{SEED}.log"
    with M.AppServer(logs) as server:
        report = M.run_monkey(browser, server, ACTIONS, SEED, log_file=log_file,
                              checkpoint_every=CHECK_EVERY)
    print("\n" + report.summary())
    print(f"action log: {log_file}\nserver log: {server.log_path}")
    for err in report.page_errors:
        print("page JS error:", err)

    context = (f"\nseed {SEED} (NDCG_MONKEY_SEED={SEED} reproduces it); action log {log_file}; "
               f"server log {server.log_path}\nlast actions:\n  "
               + "\n  ".join(report.actions[-25:]))
    assert len(report.actions) >= ACTIONS
    assert not report.failures, (f"{len(report.failures)} distinct failure(s):\n\n"
                                 + "\n\n".join(report.failures) + "\n" + context)
    assert not report.page_errors, "uncaught JS errors in the page:\n" + "\n".join(
        report.page_errors) + context
    assert report.checkpoints_checked == report.checkpoints >= ACTIONS // CHECK_EVERY
    # most actions must really happen, or the monkey tests nothing
    assert len(report.action_errors) <= 0.2 * ACTIONS, "\n".join(report.action_errors)
