"""While one student's upload is read, another student's moves are answered (issue 26): the
file is read in another process (ui/parse_pool.py), not on the uploading session's thread.

The file: judgments as a CSV of 900,000 well-formed lines and one bad grade at the end. The
fast CSV reader gives up at the bad grade and the careful one reads the text again to name
the line, holding the interpreter's lock for seconds at a time (a 45 MB one, read on a
thread: 49 s, with the lock held 6.8 s at a stretch, load 20).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import monkey as M  # noqa: E402

QUERIES, PER_QUERY = 900, 1_000
READ_TIMEOUT_MS = 300_000


def write_slow_judgments(path: Path) -> str:
    """The file (about 32 MB); the engine's message for it."""
    lines = (f"{q},clueweb09-en{(q * 7919 + d * 104729) % 10**7:07d}-{d:03d},{d % 4}\n"
             for q in range(1, QUERIES + 1) for d in range(PER_QUERY))
    path.write_bytes(b"qid,docid,relevance\n" + "".join(lines).encode("ascii")
                     + b"9999,dx,oops\n")
    return (f"{path.name} line {QUERIES * PER_QUERY + 2}: relevance is 'oops', expected a "
            "finite number.")


def test_another_students_moves_are_answered_while_an_upload_is_read(browser, app_url,
                                                                     open_app, tmp_path):
    """A student uploads judgments that take seconds to read; another, moving on the
    playground all along, has moves answered before the message shows, none kept waiting
    for the reading."""
    path = tmp_path / "slow.csv"
    message = write_slow_judgments(path)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    mover = M.MovingStudent(app_url, index=7)
    try:
        open_app(page, app_url + "/your_data")
        expect(page.get_by_role("heading", name="Evaluate your runs")).to_be_visible()
        mover.start()
        assert mover.opened.wait(90) and mover.error is None, mover.error
        mover.wait_moves(12)
        quiet = [ms for _, ms in mover.moves]
        t_up = time.perf_counter()
        page.get_by_test_id("stFileUploader").filter(has_text="Judgments").locator(
            "input[type='file']").set_input_files(str(path))
        expect(page.get_by_test_id("stAlertContentError")).to_contain_text(
            message, timeout=READ_TIMEOUT_MS)
        t_done = time.perf_counter()
        mover.wait_moves(2)
    finally:
        mover.stop()
        context.close()
    assert mover.error is None, mover.error
    assert not mover.st.problems, mover.st.problems  # every answer is ndcg_core's
    during = mover.sent_between(t_up, t_done)
    answered = [ms for sent, ms in mover.moves if t_up <= sent and sent + ms / 1000 < t_done]
    print(f"read in {t_done - t_up:.1f} s; quiet moves median {statistics.median(quiet):.0f} "
          f"ms, max {max(quiet):.0f}; during the read ({len(during)}) median "
          f"{statistics.median(during):.0f} ms, max {max(during):.0f}")
    print("slow moves (s after the upload began, ms):",
          [(round(sent - t_up, 1), round(ms)) for sent, ms in mover.moves if ms > 400])
    assert len(answered) >= 3, f"only {len(answered)} moves answered during the read"
    # On the session's thread the reading held the lock for seconds at a stretch, and a
    # move waited that long (3.4 s, 13 moves over 400 ms; load 20); off it, a move waits
    # only for the server's other work (0.8 s at most, the same load).
    bound = max(2_000, 3 * M.percentile(quiet, 95))
    assert max(during) < bound, (max(during), bound)
