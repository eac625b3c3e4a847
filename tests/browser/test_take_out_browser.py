"""Browser tests: a teacher clicks "Handout (PDF)" / "Worksheet (PDF)" and gets a PDF whose
text holds the figures on the page."""

from __future__ import annotations

import base64
import io
from urllib.parse import urljoin

from playwright.sync_api import Page, expect
from pypdf import PdfReader

from conftest import open_app_on

import ndcg_core as nc
from lab import exercises as E
from lab.text import fmt


def _download(page: Page, opener: str, wait_idle, name: str = "Download PDF") -> PdfReader:
    opener_button = page.get_by_role("button", name=opener).first
    expect(opener_button).to_be_visible(timeout=30_000)
    opener_button.click()
    button = page.get_by_role("button", name=name)
    expect(button).to_be_visible(timeout=30_000)
    with page.expect_download(timeout=30_000) as info:
        button.click()
    return PdfReader(io.BytesIO(open(info.value.path(), "rb").read()))


def test_a_worked_example_handout_holds_its_figures(page: Page, app_url, open_app, wait_idle):
    """The tutorial's handout prints NDCG@6 of [3, 2, 3, 0, 1, 2] as the page does."""
    open_app(page, app_url.rstrip("/") + "/worked_examples")
    pdf = _download(page, "Handout (PDF)", wait_idle)
    text = " ".join(pdf.pages[0].extract_text().split())
    assert f"= {fmt(nc.ndcg([3, 2, 3, 0, 1, 2]))}" in text
    assert "IDCG@6 = 3/log₂2 + 3/log₂3" in text


def test_a_worksheet_in_chinese_starts_at_the_exercise_shown(page: Page, app_url, open_app,
                                                              wait_idle):
    """Exercises page in Chinese: the worksheet's first exercise is the one on screen, and the
    last page is the answer key in Chinese."""
    open_app(page, app_url.rstrip("/") + "/practice?lang=zh")
    pdf = _download(page, "练习卷（PDF）", wait_idle, name="下载 PDF")
    pages = [p.extract_text() for p in pdf.pages]
    assert "习题 1" in pages[0]
    assert "答案" in pages[-1]
    assert fmt(E.solution(E.generate(1, "medium"))["ndcg"]) in pages[-1]


def test_a_worked_examples_share_code_scans_to_a_link_that_opens_at_it(
        page: Page, app_url, open_app, wait_idle):
    """Share on the tutorial's exponential example: the QR code on screen scans to the link shown, and
    that link opens the page scrolled to the example, and keeps it there while the tables and
    charts above it are drawn. A link into another document opens that document's tab."""
    import zxingcpp
    from PIL import Image

    open_app(page, app_url.rstrip("/") + "/worked_examples")
    opener = page.get_by_role("button", name="Share").nth(1)  # doc000, then doc000exp
    expect(opener).to_be_visible(timeout=30_000)
    opener.click()
    popover = page.get_by_role("dialog")
    expect(popover).to_be_visible(timeout=30_000)
    link = popover.locator("code").inner_text().strip()
    assert link == app_url.rstrip("/") + "/worked_examples?lang=en&doc=000#doc000exp", link
    image = popover.get_by_role("img")
    # the PNG arrives after the dialog opens: read it once it is decoded and drawn
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0",
                           arg=image.element_handle(), timeout=30_000)
    # scan the PNG the page was sent (a screenshot of a dialog still easing in can be blank)
    src = image.get_attribute("src")
    if src.startswith("data:"):
        png = base64.b64decode(src.split(",", 1)[1])
    else:
        png = page.request.get(urljoin(page.url, src)).body()
    qr = Image.open(io.BytesIO(png)).convert("L")
    qr = qr.resize((qr.width * 4, qr.height * 4), Image.NEAREST)
    scanned = [r.text for r in zxingcpp.read_barcodes(qr)]
    assert scanned == [link]
    anchor = link.rsplit("#", 1)[1]

    chinese = app_url.rstrip("/") + "/worked_examples?lang=en&doc=004#doc004worst"
    for address, anchor in ((link, anchor), (chinese, "doc004worst")):
        other = page.context.new_page()
        try:
            open_app(other, address)
            heading = other.locator(f"[id='{anchor}']")
            expect(heading).to_be_in_viewport(timeout=30_000)
            # still there once the page has settled (the charts above it are drawn)
            other.wait_for_timeout(3_000)
            expect(heading).to_be_in_viewport(timeout=1_000)
        finally:
            other.close()


def test_the_share_dialogs_qr_code_lies_whole_on_a_projector_and_on_a_phone(new_page, app_url):
    """The playground's Share at 1280x720 (the button sits near the page's bottom), and its
    分享 on a phone in Chinese (390x844): the dialog's QR code is inside the screen, whole."""
    for width, height, lang, name, options in (
            (1280, 720, "en", "Share", {}),
            (390, 844, "zh", "分享", {"has_touch": True, "is_mobile": True})):
        page = new_page(width, height, **options)
        open_app_on(page, f"{app_url.rstrip('/')}/playground?lang={lang}")
        page.get_by_role("button", name=name, exact=True).first.click()
        image = page.get_by_role("dialog").get_by_role("img")
        expect(image).to_be_visible(timeout=30_000)
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0",
                               arg=image.element_handle(), timeout=30_000)
        # still, once the dialog has eased in
        page.wait_for_function("""(img) => {
            const a = img.getBoundingClientRect();
            return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
              () => { const b = img.getBoundingClientRect();
                      done(a.top === b.top && a.left === b.left && a.width === b.width); })));
        }""", arg=image.element_handle(), timeout=30_000)
        assert ".png" in image.get_attribute("src")  # as drawn, like the join QR code
        box = image.bounding_box()
        assert box["width"] >= 200, box  # a code a phone scans from the room
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (height, box)
