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


# ------------------------------------------------------------------ issue 26.4

FORMULA_NDCG = "[data-figure='formula-ndcg-linear'] > :last-child"


def grades_read(page: Page) -> list[float]:
    return [float(g) for g in page.locator(f"{ROWS} .rt-grade").all_text_contents()]


def agree(page: Page) -> list[str]:
    """The engine's figures are drawn, and list = figures = formula = address bar. Returns
    the labels in order."""
    expect(page.locator(".rt[data-testid='ranking-table']")).to_have_attribute(
        "data-figures", "engine", timeout=60_000)
    page.wait_for_timeout(1500)  # the formula's and the link's own rerun
    labels, grades = order_read(page), grades_read(page)
    expected = f"{nc.ndcg(grades, k=K):.3f}"
    expect(page.locator(NDCG)).to_have_text(expected, timeout=WAIT_MS)
    expect(page.locator(FORMULA_NDCG)).to_have_text(expected, timeout=WAIT_MS)
    query = parse_qs(urlsplit(page.url).query)
    assert query["l"] == labels, (query, labels)
    assert [float(g) for g in query["g"][0].split(",")] == grades, (query, grades)
    return labels


def test_a_grade_typed_during_a_10_s_cut_reaches_the_engine_and_the_link(
        page: Page, proxy, open_app, wait_idle):
    """Cut the network, type 3 on Doc D (grade 0), wait 10 s, restore: the grade is sent
    again, and the list, the figures, the formula and the address bar all hold it."""
    open_app(page, f"http://127.0.0.1:{proxy.port}/")
    expect(page.locator(".rt[data-testid='ranking-table']")).to_have_attribute(
        "data-figures", "engine", timeout=WAIT_MS)
    wait_idle(page)
    proxy.sever()
    page.locator(ROWS).nth(3).focus()
    page.keyboard.press("3")
    expect(page.locator(ROWS).nth(3).locator(".rt-grade")).to_have_text("3")
    page.wait_for_timeout(10_000)
    proxy.restore()
    expect(page.locator(NDCG)).to_have_text(
        f"{nc.ndcg([3, 2, 3, 3, 1, 2], k=K):.3f}", timeout=60_000)
    assert agree(page) == list(DEFAULT_LABELS)
    assert grades_read(page) == [3, 2, 3, 3, 1, 2]
    expect(page.locator(".rt-notice")).to_be_hidden()


@pytest.fixture
def short_ttl_app(tmp_path):
    """The app with a 3 s disconnected-session TTL (the class config keeps 30 s): a cut
    longer than that loses the session."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(
        "reconnect_conftest", Path(__file__).with_name("conftest.py"))
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    with helpers.streamlit_server("app.py", tmp_path, (
            "--server.disconnectedSessionTTL", "3")) as url:
        yield url


def test_a_cut_longer_than_the_session_ttl_says_what_was_lost_and_agrees(
        page: Page, open_app, wait_idle, short_ttl_app, browser):
    """A move that reached the server, then a cut longer than the session TTL with a move
    and a grade made during it: afterwards the table says the last changes are not in the
    list it shows, and list = figures = formula = address bar."""
    p = CuttableProxy(urlsplit(short_ttl_app).port)
    try:
        open_app(page, f"http://127.0.0.1:{p.port}/")
        expect(page.locator(".rt[data-testid='ranking-table']")).to_have_attribute(
            "data-figures", "engine", timeout=WAIT_MS)
        wait_idle(page)
        page.locator(ROWS).nth(3).focus()
        page.keyboard.press("Alt+ArrowUp")  # Doc D above Doc C: reaches the server
        expect(page.locator(ROWS).nth(2)).to_contain_text("Doc D")
        reached = agree(page)
        p.sever()
        page.locator(ROWS).nth(2).focus()
        page.keyboard.press("Alt+ArrowUp")  # Doc D above Doc B: during the cut
        page.keyboard.press("1")            # and Doc D's grade 0 -> 1
        page.wait_for_timeout(6_000)         # past the TTL
        other = browser.new_context().new_page()  # a classmate's tab lets expired sessions go
        open_app(other, short_ttl_app)
        other.context.close()
        page.wait_for_timeout(1_000)
        p.restore()
        expect(page.locator(".rt-notice")).to_contain_text(
            "longer than the server keeps a session", timeout=60_000)
        shown = agree(page)
        assert shown in (reached, ["Doc A", "Doc D", "Doc B", "Doc C", "Doc E", "Doc F"])
    finally:
        p.stop()
