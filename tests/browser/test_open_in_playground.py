"""Browser tests: "Open in playground" on a lesson page loads that ranking in the playground."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

import ndcg_core as nc
from lab import documents, flips
from lab.text import fmt_grade
from lab import playground as P


def go_to_lesson(page: Page, app_url: str, open_app, wait_idle, title: str) -> None:
    """Open the app (the playground) and follow the sidebar link to a lesson."""
    open_app(page, app_url)
    page.get_by_test_id("stSidebarNavLink").filter(has_text=title).click()
    wait_idle(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text(title.split()[0])


ROWS = ".rt-list-rank .rt-row"  # the playground's ranking table (ui/ranking_table)


def row(page: Page, position: int, label: str, grade: str):
    """The ranking table's row at ``position``; its name starts with what it holds."""
    return page.locator(f"{ROWS}[aria-label^='Position {position}: {label}, grade {grade},']")


def metric_value(page: Page, label: str):
    """The table's figure named like "NDCG@3" or "NDCG@3 (linear)"."""
    name, _, gain = label.partition(" (")
    return page.locator(f"[data-figure='{name.split('@')[0].lower()}-"
                        f"{gain.rstrip(')') or 'linear'}']")


def test_open_doc002_example_lands_on_playground_with_its_ranking(
        page: Page, app_url, open_app, wait_idle) -> None:
    """Document 002's button opens the playground on Doc C, Doc A, Doc B with its NDCG@3."""
    go_to_lesson(page, app_url, open_app, wait_idle, "Worked examples")
    page.get_by_role("tab", name="Glossary entry, k = 3 and 2").click()
    button = page.locator(".st-key-we_open_doc002k3").get_by_role("button",
                                                                   name="Open in playground")
    expect(button).to_be_visible()
    button.click()
    wait_idle(page)

    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Playground"))
    expect(page).to_have_url(re.compile(r"[?&]g=1(%2C|,)3(%2C|,)2(&|$)"))
    expect(page.locator(ROWS)).to_have_count(3)
    for position, (label, grade) in enumerate(zip(documents.D002_LABELS, documents.D002), start=1):
        expect(row(page, position, label, fmt_grade(grade))).to_be_visible()
    expected = nc.ndcg([1, 3, 2], k=3)  # grades 1, 3, 2 in ranked order
    expect(metric_value(page, "NDCG@3")).to_have_text(f"{expected:.3f}")


def test_open_flip_a_lands_on_playground_with_both_gains(
        page: Page, app_url, open_app, wait_idle) -> None:
    """The gain lesson's "Open A" shows ordering A in the playground, with both gains' NDCG."""
    go_to_lesson(page, app_url, open_app, wait_idle, "Linear vs exponential gain")
    default = P.default()
    flip = flips.find_flip(default.grades, default.cutoff)
    labels = flips.arrange(default.labels, default.grades, flip.a)
    page.locator(".st-key-gain_open_P").get_by_role("button", name="Open P in playground").click()
    wait_idle(page)

    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Playground"))
    for position, (label, grade) in enumerate(zip(labels, flip.a), start=1):
        expect(row(page, position, label, fmt_grade(grade))).to_be_visible()
    k = default.cutoff
    for gain in ("linear", "exponential"):
        expected = nc.ndcg(list(flip.a), k=k, gain=gain)
        expect(metric_value(page, f"NDCG@{k} ({gain})")).to_have_text(f"{expected:.3f}")
    assert nc.ndcg(list(flip.a), k=k) > nc.ndcg(list(flip.b), k=k)
