"""A network cut during a drag: after the connection returns, the list, the figures and the
address bar agree (issue 16).

The browser reaches the app through a small TCP proxy on 127.0.0.1 that the test can cut:
every open connection is closed and new ones are refused until it is restored. Moves made
while cut reach the server only as the component's state (its trigger is lost), which the
app applies on the next run (ui.state._follow_report); the playground's ranking table also
re-sends an unanswered move every 4 s.
"""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

import ndcg_core as nc
from lab.playground import DEFAULT_GRADES, DEFAULT_LABELS

WAIT_MS = 30_000
K = 6


class CuttableProxy:
    """A TCP proxy from 127.0.0.1:<port> to the app that can drop every connection."""

    def __init__(self, upstream_port: int):
        self.upstream = ("127.0.0.1", upstream_port)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.cut = threading.Event()
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.stopped:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.cut.is_set():
                client.close()  # refused while cut
                continue
            try:
                upstream = socket.create_connection(self.upstream, timeout=10)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src, dst):
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                self._close(s)

    def _close(self, s):
        with self.lock:
            self.open.discard(s)
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()

    def sever(self):
        """Drop every open connection and refuse new ones."""
        self.cut.set()
        with self.lock:
            victims = list(self.open)
        for s in victims:
            self._close(s)

    def restore(self):
        self.cut.clear()

    def stop(self):
        self.stopped = True
        self.sever()
        self.server.close()


@pytest.fixture
def proxy(app_url):
    p = CuttableProxy(urlsplit(app_url).port)
    yield p
    p.stop()


ROWS = ".rt-list-rank .rt-row"  # the playground's ranking table (ui/ranking_table)
NDCG = "[data-figure='ndcg-linear']"


def order_read(page: Page) -> list[str]:
    return page.locator(f"{ROWS} .rt-label-text").all_text_contents()


def ndcg_shown(page: Page) -> str:
    return page.locator(NDCG).inner_text()


def test_moves_made_while_the_connection_is_cut_reach_the_figures_and_the_link(
        page: Page, proxy, open_app, wait_idle):
    """Cut mid-drag, drop, Alt+↓, restore: list, NDCG and the address bar show one order."""
    open_app(page, f"http://127.0.0.1:{proxy.port}/")
    rows = page.locator(ROWS)
    expect(rows).to_have_count(len(DEFAULT_LABELS), timeout=WAIT_MS)
    grade = dict(zip(DEFAULT_LABELS, DEFAULT_GRADES))

    # the first run's engine figures are drawn and no rerun is on its way
    expect(page.locator(".rt[data-testid='ranking-table']")).to_have_attribute(
        "data-figures", "engine", timeout=WAIT_MS)
    wait_idle(page)

    # start dragging the first row, then lose the network mid-drag
    for attempt in range(3):
        src, dst = rows.nth(0).bounding_box(), rows.nth(3).bounding_box()
        x, y = src["x"] + src["width"] / 2, src["y"] + src["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, y + 15, steps=5)
        # The cut must come mid-drag. Once in a full CI run (two workers) the press did
        # not start a drag (the rows had not moved when the keys came either): the
        # boxes are read again and the press repeated, so that what is tested is what a
        # cut does to a drag under way (tests/browser/test_ranking_table.py tests that a
        # press from anywhere on a row starts one).
        if page.locator(".rt-row.is-dragging").count():
            break
        page.mouse.up()
        wait_idle(page)
    else:
        raise AssertionError("three presses on the first row started no drag: " +
                             page.locator(".rt[data-testid='ranking-table']").evaluate(
                                 "e => e.className + ' ' + JSON.stringify(e.dataset)"))
    proxy.sever()
    page.mouse.move(x, dst["y"] + dst["height"] - 3, steps=20)
    page.wait_for_timeout(150)
    page.mouse.up()
    # read the list once the drop is drawn (read at once, a loaded CI machine gave the order
    # from before the drop, and the key's move then looked like the drop)
    deadline = time.monotonic() + 10
    while (dropped := order_read(page)) == list(DEFAULT_LABELS) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    # and one keyboard move on the moved row, still cut
    rows.nth(0).focus()
    page.keyboard.press("Alt+ArrowDown")
    # read the list once the key's move is drawn (read at once, a loaded machine can give
    # the order before it, and the engine's later, right answer then looks wrong)
    deadline = time.monotonic() + 10
    while (moved := order_read(page)) == dropped and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert dropped != list(DEFAULT_LABELS) and moved != dropped, (
        f"the moves did not happen in the browser: dropped {dropped}, then {moved}; table "
        + page.locator(".rt[data-testid='ranking-table']").evaluate(
            "e => e.className + ' ' + JSON.stringify(e.dataset)"))
    page.wait_for_timeout(3000)
    proxy.restore()

    # the app reconnects and reruns with the component's reported order
    expected = f"{nc.ndcg([grade[label] for label in moved], k=K):.3f}"
    expect(page.locator(".rt[data-testid='ranking-table']")).to_have_attribute(
        "data-figures", "engine", timeout=60_000)  # the engine's figures, not the preview
    expect(page.locator(NDCG)).to_have_text(expected, timeout=60_000)
    wait_idle(page)
    assert order_read(page) == moved
    assert ndcg_shown(page) == expected
    query = parse_qs(urlsplit(page.url).query)
    assert query["l"] == moved
    assert query["g"] == [",".join(str(grade[label]) for label in moved)]
