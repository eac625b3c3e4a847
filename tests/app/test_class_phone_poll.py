"""A waiting phone's poll on a live server, spoken at the websocket as the browser speaks it
(tests/class_wire.py): it draws nothing while the question on the phone is current, and the
teacher's next press reaches the phone through the page hook's one redraw. Not timed: the
figures are tests/bench/bench_lecture.py's."""

from __future__ import annotations

import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402
from class_wire import WirePhone, WireTeacher, run_apart  # noqa: E402


def test_a_waiting_phones_poll_draws_nothing_and_the_next_question_is_drawn_once(
        tmp_path, monkeypatch):
    """A phone with the question open polls: Streamlit's own messages and no element. The
    teacher presses Vote again: the phone's next poll draws only the hook, the hook's trigger
    redraws the question with the new round's answer box, and the poll after draws nothing
    again."""
    monkeypatch.delenv("NDCG_LAB_DB_URL", raising=False)
    monkeypatch.setenv("NDCG_LAB_DATA", str(tmp_path))

    async def run() -> dict:
        teacher = WireTeacher(server.url)
        await teacher.start()
        await teacher.click("cl_do_next")
        code = urllib.parse.parse_qs(teacher.query)["room"][0]
        phone = WirePhone(server.url, code)
        await phone.join()
        (watcher,) = phone.timers
        got = {"first": [k for k in phone.widgets if k.startswith("cl_answer")]}
        await phone.run(fragment=watcher, auto=True)
        got["waiting"] = phone.drawn
        await teacher.click("cl_do_again")
        await phone.run(fragment=watcher, auto=True)  # draws the hook; the trigger follows
        got["moved"] = sorted(phone.asked)
        got["after"] = [k for k in phone.widgets if k.startswith("cl_answer")]
        await phone.run(fragment=watcher, auto=True)
        got["settled"] = phone.drawn
        for c in (teacher, phone):
            await c.close()
        return got

    with M.AppServer(tmp_path) as server:
        got = run_apart(run())
        assert not server.all_tracebacks()
    assert len(got["first"]) == 1
    assert got["waiting"] == 0
    assert len(got["moved"]) == 1 and got["moved"][0].endswith(" open")
    assert len(got["after"]) == 2 and got["after"][0] == got["first"][0]
    assert got["settled"] == 0
