"""Slide images: drawn by Kaleido in the server's Chromium, 1600 px wide, with the engine's
figures in the SVG's text and a label drawn as text, never as a link."""

import html
import re
import struct

import pytest

import ndcg_core as nc
from lab import slides
from lab.text import fmt

# Kaleido starts a headless Chromium for each image (a few seconds): a browser test
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_the_table_slide_is_a_wide_png_and_an_svg_with_both_sums():
    grades = [3, 2, 3, 0, 1, 2]
    fig = slides.table_slide([f"Doc {c}" for c in "ABCDEF"], grades, k=4, gain="linear")
    assert png_size(slides.image(fig, "png"))[0] >= 1600
    svg = slides.image(fig, "svg").decode()
    text = " ".join(re.findall(r">([^<>]+)</text>", svg)).replace("&nbsp;", " ")
    parts = nc.ndcg_parts(grades, k=4)
    # DCG@4 = 3/log2 2 + 2/log2 3 + 3/log2 4 + 0/log2 5; the ideal is [3, 3, 2, 2, 1, 0]
    assert "DCG@4 = 3/log₂2 + 2/log₂3 + 3/log₂4 + 0/log₂5" in text
    assert "IDCG@4 = 3/log₂2 + 3/log₂3 + 2/log₂4 + 2/log₂5" in text
    assert f"{fmt(parts.dcg)} / {fmt(parts.idcg)} = {fmt(parts.ndcg)}" in text


def test_a_label_with_markup_is_drawn_as_its_characters():
    fig = slides.table_slide(["<a href=x>y</a>", "<b>z</b>"], [1, 2], k=2,
                             gain="exponential", lang="zh")
    svg = slides.image(fig, "svg").decode()
    assert not re.search(r"<a\b", svg) and "<b>" not in svg
    drawn = html.unescape("".join(re.findall(r">([^<>]*)</(?:tspan|text)>", svg)))
    assert "<ahref=x>y</a>" in drawn and "<b>z</b>" in drawn  # a cell wraps at its space
    assert "理想排序" in svg


def test_a_bad_format_is_refused():
    with pytest.raises(ValueError, match="format must be one of png, svg"):
        slides.image(slides.table_slide(["a"], [1], k=1, gain="linear"), "gif")


def _font_sizes(svg: str) -> list[float]:
    return [float(x) for x in re.findall(r"font-size:\s*([\d.]+)px", svg)]


def test_every_text_of_a_slide_is_20_px_or_more_and_stays_on_the_slide():
    """The table slide of ten rows with long labels, and a page's chart drawn as a slide:
    no text under 20 px on 1600x900, no label cut off past the slide's edge."""
    import plotly.graph_objects as go

    labels = [f"A rather long label {i}" for i in range(10)]
    table = slides.image(slides.table_slide(labels, [3, 2, 3, 0, 1, 2, 1, 0, 2, 3], k=10,
                                            gain="exponential"), "svg").decode()
    chart = go.Figure(go.Scatter(x=list(range(1, 11)), y=[0.5] * 10, name="NDCG@k"))
    chart.update_layout(title="NDCG@k by k", xaxis_title="cutoff k", yaxis_title="NDCG",
                        font=dict(size=12))
    curve = slides.image(chart, "svg").decode()
    for svg in (table, curve):
        sizes = _font_sizes(svg)
        assert sizes and min(sizes) >= 20, sorted(set(sizes))
    assert "A rather long …" in table  # cut to fit its column, with a mark that says so
