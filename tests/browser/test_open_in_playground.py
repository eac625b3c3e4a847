"""Browser tests: "Open in playground" on a lesson page loads that ranking in the playground."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

import ndcg_core as nc
from lab import documents, flips
from lab import mistakes as M
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


# ------------------------------------------------------------------ the common mistakes

def open_mistake(page: Page, app_url, open_app, wait_idle, key: str) -> None:
    """The Common mistakes lesson at mistake ``key`` (its menu), then its playground button."""
    go_to_lesson(page, app_url, open_app, wait_idle, "Common mistakes")
    for _ in range(M.KEYS.index(key)):
        page.locator(".st-key-mk_next").get_by_role("button").click()
        wait_idle(page)
    expect(page.get_by_role("heading", level=2).first).to_have_text(M.name(key))
    page.locator(f".st-key-mk_open_{key}").get_by_role("button",
                                                        name="Open in playground").click()
    wait_idle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Playground"))


FORMULA = "[data-testid='ranking-formula']"


def test_short_ideal_opens_ndcg_at_8_of_6_items_with_the_mistakes_0_785(
        page: Page, app_url, open_app, wait_idle) -> None:
    """k = 8 with 6 items, IDCG cut at the list's 6: the 0.785 mlflow's call gave; the
    formula writes IDCG@6, and the link carries the setting."""
    open_mistake(page, app_url, open_app, wait_idle, "short_ideal")
    expect(page.locator(ROWS)).to_have_count(6)
    expect(metric_value(page, "NDCG@8")).to_have_text(f"{M.playground_value('short_ideal'):.3f}")
    expect(metric_value(page, "NDCG@8")).to_have_text("0.785")
    expect(page.locator(FORMULA)).to_contain_text("IDCG@6")
    expect(page).to_have_url(re.compile(r"[?&]cut=list_length(&|$)"))
    expect(page.get_by_text("Mistake settings on:")).to_be_visible()


def test_natural_log_in_dcg_only_writes_ln_in_dcg_and_log2_in_idcg(
        page: Page, app_url, open_app, wait_idle) -> None:
    """The table's NDCG is the mistake's 1.146; the formula divides DCG's terms by ln and
    IDCG's by log₂, the discount column is headed ln (i+1); a move keeps every figure the
    engine's (the preview computes the same setting)."""
    open_mistake(page, app_url, open_app, wait_idle, "natural_log_dcg")
    expect(metric_value(page, "NDCG@4")).to_have_text(
        f"{M.playground_value('natural_log_dcg'):.3f}")
    formula = page.locator(FORMULA)
    expect(formula.locator(".fx-line").nth(0)).to_contain_text("ln 2")
    expect(formula.locator(".fx-line").nth(1)).to_contain_text("log₂ 2")
    expect(page.locator(".rt-rank .rt-head .rt-disc")).to_have_text("ln (i+1)")
    first = page.locator(ROWS).first
    first.focus()
    page.keyboard.press("Alt+ArrowDown")        # 2, 3, 3, 0, ... : the preview, then the engine
    moved = [2, 3, 3, 0, 1, 2]
    want = nc.ndcg(moved, k=4, ideal=moved + [3, 2], discount="ln", ideal_discount="log2",
                   negative="zero", zero_idcg="nan")
    expect(metric_value(page, "NDCG@4")).to_have_text(f"{want:.3f}")
    wait_idle(page)
    expect(page.locator(".rt[data-figures='engine']")).to_have_count(1)
    expect(metric_value(page, "NDCG@4")).to_have_text(f"{want:.3f}")


def test_numerator_one_opens_recommenders_1_0_and_switches_back(
        page: Page, app_url, open_app, wait_idle) -> None:
    """Every judged item counted 1: NDCG@4 1.000, each term's numerator 1; the advanced
    settings (open below the table while a mistake is on) turn it back: the right 0.794."""
    open_mistake(page, app_url, open_app, wait_idle, "numerator_one")
    expect(metric_value(page, "NDCG@4")).to_have_text("1.000")
    expect(page.locator(FORMULA).locator(".fx-line").first.locator(".fx-num").first
           ).to_have_text("1")
    page.get_by_role("button", name="Back to the right conventions").click()
    wait_idle(page)
    expect(metric_value(page, "NDCG@4")).to_have_text(f"{M.figures('numerator_one')[0]:.3f}")
    expect(page.get_by_text("Mistake settings on:")).to_have_count(0)
