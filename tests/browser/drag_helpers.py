"""The moves every list shares (ui/ranking_table/drag.js, used by the ranking table, the
sortable list and class mode's Arrange question), written once for the browser tests:

- ``mouse_drag(page, start, onto)``: press on ``start``, pass the 5 px threshold, slide over
  the upper half of ``onto`` (the mouse stays down: the caller checks the preview, then calls
  ``page.mouse.up()``);
- ``Finger(page).slide(start, onto, hold=...)``: the same with one finger (Chrome DevTools
  touch events), either at once (on the grip) or after a press-and-hold (on the row); then
  ``.lift()``;
- ``SCROLL_Y``: how far Streamlit's main scroller is scrolled (a touch drag must not move it).

tests/browser/test_drag.py runs every way of moving against every list; the lists' own files
use these helpers for their own checks.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page

HOLD_MS = 450  # longer than drag.js's LONG_PRESS_MS (250): the hold arms the drag
SCROLL_Y = "document.querySelector(\"[data-testid='stMain']\").scrollTop"  # Streamlit's scroller


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Page, start: Locator, onto: Locator, *, steps: int = 20) -> None:
    """Press the mouse on ``start``'s centre and slide it over ``onto``'s upper half; the
    button stays down."""
    x, y = centre(start.bounding_box())
    top = onto.bounding_box()["y"] + 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 10 if top < y else y + 10, steps=4)  # past the 5 px threshold
    page.mouse.move(x, top, steps=steps)


def touch(cdp, kind: str, x: float, y: float) -> None:
    """One Chrome DevTools touch event (``touchStart``, ``touchMove`` or ``touchEnd``)."""
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


class Finger:
    """One finger on a touch screen (the page's context needs ``has_touch=True``)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.at: tuple[float, float] = (0.0, 0.0)

    def slide(self, start: Locator, onto: Locator, *, hold: bool, steps: int = 12) -> None:
        """Put the finger on ``start``'s centre, hold first if ``hold``, then slide it in
        ``steps`` moves (a frame apart) over ``onto``'s upper half; the finger stays down."""
        x, y = centre(start.bounding_box())
        end = onto.bounding_box()["y"] + 2
        touch(self.cdp, "touchStart", x, y)
        if hold:
            self.page.wait_for_timeout(HOLD_MS)
        for i in range(1, steps + 1):
            touch(self.cdp, "touchMove", x, y + (end - y) * i / steps)
            self.page.wait_for_timeout(16)
        self.at = (x, end)

    def swipe(self, start: Locator, dy: float, steps: int = 10) -> None:
        """A quick swipe from ``start``'s centre by ``dy`` px, no hold, then lift."""
        x, y = centre(start.bounding_box())
        touch(self.cdp, "touchStart", x, y)
        for i in range(1, steps + 1):
            touch(self.cdp, "touchMove", x, y + dy * i / steps)
            self.page.wait_for_timeout(10)
        self.at = (x, y + dy)
        self.lift()

    def lift(self) -> None:
        touch(self.cdp, "touchEnd", *self.at)
