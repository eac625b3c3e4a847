"""Class mode spoken at the websocket, with no browser: what Chromium sends, what it reads back.

A :class:`WireClient` is one tab: it opens ``/_stcore/stream`` as Streamlit's frontend does,
asks for runs (``rerun_script`` with the widget states a click or a typed value sends) and
reads every message of a run until the run is over (a run that ends in ``st.rerun()`` is
followed by the next one). It keeps what a reader of the page needs: each widget's id by its
key, the alerts' and metrics' texts, and the fragments the server asked to rerun on a timer
(``auto_rerun``). :meth:`WireClient.follow` reruns those fragments as the browser does, each at
the interval the server gave. A phone's room watcher (``ui/page_hooks/moved.js``) is answered
as the browser's hook answers it: a drawn mark it has not asked for is sent back as the hook's
``moved`` event, from the fragment that drew it.

:class:`WirePhone` joins a room (the join form) and answers; :class:`WireTeacher` opens the
teacher's link and presses its buttons. Used by tests/app/test_class_two_servers.py and
tests/bench/bench_lecture.py.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import math
import time
import urllib.parse

READ_TIMEOUT_S = 120


def run_apart(coroutine):
    """``asyncio.run(coroutine)`` on a thread of its own: a worker whose earlier test started
    Playwright's sync API has an event loop running on the test's thread, where asyncio.run
    refuses to start another."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def every_or(interval: float | None, default: float) -> float:
    return interval if interval else default


class WireClient:
    """One tab of ``base`` (``http://127.0.0.1:PORT``) on ``page`` with ``query``."""

    def __init__(self, base: str, query: dict, *, page: str = "class"):
        self.base, self.page = base, page
        self.query = urllib.parse.urlencode(query)
        self.ws = None
        self.widgets: dict[str, str] = {}       # widget key -> element id
        self.first_seen: dict[str, float] = {}  # widget key -> when a run first drew it
        self.submit: str | None = None          # the last form's submit button id
        self.texts: list[str] = []              # alerts of the last run
        self.metrics: list[tuple[str, str]] = []  # (label, value) of the last run
        self.codes: list[str] = []              # code blocks', copy buttons' texts (links)
        self.timers: dict[str, float] = {}      # fragment id -> rerun interval (s)
        self.timer_set: dict[str, float] = {}   # fragment id -> when its timer was set
        self.exceptions = 0
        self.runs = 0
        self.received = [0, 0]  # messages and bytes the last run sent this tab
        self.drawn = 0                          # elements the last run drew
        self.fragments: dict[str, str] = {}     # widget key -> the fragment that drew it
        self.moved: tuple | None = None         # a room watcher's ask not answered yet
        self.asked: set[str] = set()            # the watcher marks answered
        self.hook_seen: list[float] = []        # when each was read
        self._fragment = ""                     # the fragment of the element being read
        self.lock = asyncio.Lock()

    async def connect(self) -> None:
        import websockets
        self.ws = await websockets.connect(
            self.base.replace("http://", "ws://", 1) + "/_stcore/stream",
            subprotocols=["streamlit"], origin=self.base, max_size=None, open_timeout=120,
            ping_interval=None)
        await self.run()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def run(self, states=(), *, fragment: str | None = None,
                  auto: bool = False) -> None:
        """One rerun (of ``fragment`` only, if given) with ``states``: (field, id, value)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        async with self.lock:
            msg = BackMsg()
            rerun = msg.rerun_script
            rerun.query_string = self.query
            rerun.page_name = self.page  # by its address, as a reload asks for it
            if fragment:
                rerun.fragment_id, rerun.is_auto_rerun = fragment, auto
            for field, wid, value in states:
                w = rerun.widget_states.widgets.add()
                w.id = wid
                setattr(w, field, value)
            await self.ws.send(msg.SerializeToString())
            await self._read()
            self.runs += 1
        if self.moved:  # what moved.js does once the hook is drawn with a new mark
            fid, wid, mark = self.moved
            self.moved = None
            await self.run([("json_trigger_value", wid,
                             json.dumps([{"event": "moved", "value": mark}]))], fragment=fid)

    async def _read(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        early = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN
        self.texts, self.metrics = [], []
        self.received = [0, 0]
        self.drawn = 0
        while True:
            fwd = ForwardMsg()
            data = await asyncio.wait_for(self.ws.recv(), READ_TIMEOUT_S)
            self.received[0] += 1
            self.received[1] += len(data)
            fwd.ParseFromString(data)
            kind = fwd.WhichOneof("type")
            if kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "auto_rerun":
                if self.timers.get(fwd.auto_rerun.fragment_id) != fwd.auto_rerun.interval:
                    self.timer_set[fwd.auto_rerun.fragment_id] = time.monotonic()
                self.timers[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for fid in fwd.stop_auto_rerun.fragment_ids:
                    self.timers.pop(fid, None)
            elif kind == "script_finished":
                if fwd.script_finished != early:
                    return
                self.texts, self.metrics = [], []  # st.rerun(): the next run follows
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                self._fragment = fwd.delta.fragment_id
                self.drawn += 1
                self._element(fwd.delta.new_element)

    def _element(self, el) -> None:
        which = el.WhichOneof("type")
        if which in ("text_input", "button", "radio", "number_input", "checkbox"):
            w = getattr(el, which)
            key = w.id.rsplit("-", 1)[-1]
            self.widgets[key] = w.id
            self.fragments[key] = self._fragment
            self.first_seen.setdefault(key, time.perf_counter())
            if which == "button" and w.is_form_submitter:
                self.submit = w.id
        elif which == "alert":
            self.texts.append(el.alert.body)
        elif which == "metric":
            self.metrics.append((el.metric.label, el.metric.body))
        elif which == "code":
            self.codes.append(el.code.code_text)
        elif which == "bidi_component" and el.bidi_component.component_name.endswith(
                "ndcg_copy_button"):  # a text the page copies without drawing it
            self.codes.append(json.loads(el.bidi_component.json or "{}").get("text", ""))
        elif which == "exception":
            self.exceptions += 1
        elif which == "bidi_component" and el.bidi_component.component_name.endswith(
                "ndcg_room_moved"):
            mark = json.loads(el.bidi_component.mixed.json or el.bidi_component.json
                              or "{}").get("mark")
            if mark and mark not in self.asked:
                self.asked.add(mark)
                self.hook_seen.append(time.perf_counter())
                self.moved = (self._fragment, "$$STREAMLIT_INTERNAL_KEY_"
                              f"{el.bidi_component.id}__events", mark)

    async def click(self, key: str) -> None:
        """Press the button drawn with ``key`` (a full rerun, as a button outside a form)."""
        await self.run([("trigger_value", self.widgets[key], True)])

    async def follow(self, stop: asyncio.Event) -> None:
        """What the browser does between clicks: rerun each timed fragment at its interval."""
        due: dict[str, float] = {}
        while not stop.is_set():
            now = time.monotonic()
            for fid, every in list(self.timers.items()):
                if fid not in due:  # ticking since the server set it, as the browser's timer
                    first = self.timer_set.get(fid, now) + every
                    due[fid] = first + max(0, math.ceil((now - first) / every)) * every
            for fid in [f for f in due if f not in self.timers]:
                del due[fid]
            if not due:
                await asyncio.sleep(0.1)
                continue
            fid = min(due, key=due.get)
            wait = due[fid] - time.monotonic()
            if wait > 0:
                try:
                    await asyncio.wait_for(stop.wait(), min(wait, 0.5))
                    return
                except asyncio.TimeoutError:
                    continue
            # the browser's setInterval: ticks keep their phase whatever a run took (phones
            # that waited for a slow server do not fall into step); the ticks a run outlasted
            # are skipped (the browser would send them while the run is still answered)
            every = every_or(self.timers.get(fid), 1.0)
            due[fid] += every
            late = time.monotonic() - due[fid]
            if late > 0:
                due[fid] += math.ceil(late / every) * every
            await self.run(fragment=fid, auto=True)


class WirePhone(WireClient):
    """A student's phone: opens the room's join link, submits the join form."""

    def __init__(self, base: str, code: str, index: int = 0):
        super().__init__(base, {"join": code})
        self.code, self.index = code, index

    async def join(self, tries: int = 10) -> None:
        """Open the join link and press Join; again a second later while the room says
        too many are joining (as a student would), up to ``tries`` times."""
        await self.connect()
        for _ in range(tries):
            await self.run([("string_value", self.widgets["cl_code"], self.code),
                            ("trigger_value", self.submit, True)])
            if "me=" in self.query or not any("press Join again" in t for t in self.texts):
                break
            await asyncio.sleep(1.0)
        if "me=" not in self.query:
            raise RuntimeError(f"phone {self.index} did not join: {self.texts}")

    def answer_box(self, round_id: int) -> str | None:
        return self.widgets.get(f"cl_answer{round_id}")

    async def answer(self, round_id: int, text: str) -> None:
        """Type ``text`` in the round's box and press Send; raises unless "Sent: ..." shows."""
        box = self.answer_box(round_id)
        fragment = self.fragments.get(f"cl_answer{round_id}") or None
        await self.run([("string_value", box, text), ("trigger_value", self.submit, True)],
                       fragment=fragment)
        if not any(t.startswith("Sent:") for t in self.texts):
            raise RuntimeError(f"phone {self.index}'s answer was not acknowledged: "
                               f"{self.texts}")


class WireTeacher(WireClient):
    """The teacher's tab: opens the teacher's link (room and secret) or starts a class."""

    def __init__(self, base: str, code: str | None = None, secret: str | None = None):
        super().__init__(base, {"room": code, "key": secret} if code else {})

    async def start(self) -> str:
        """Press *Start a class*; the room's code."""
        await self.connect()
        await self.click("cl_start")
        params = urllib.parse.parse_qs(self.query)
        if "room" not in params:
            raise RuntimeError(f"no room started: {self.texts}")
        return params["room"][0]

    @property
    def secret(self) -> str:
        """The room's key, read from the teacher link the page copies without drawing it
        (the address bar never holds it)."""
        link = next(c for c in reversed(self.codes) if "key=" in c)
        return urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["key"][0]

    def answered(self) -> tuple[int, int] | None:
        """The live count the teacher's page shows: (answered, joined)."""
        for _label, value in self.metrics:
            parts = value.split()
            if len(parts) == 4 and parts[1] == "of":
                return int(parts[0]), int(parts[2])
        return None
