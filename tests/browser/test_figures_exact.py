"""The browser's twin (ui/ranking_table/figures.js) sums a list built to cancel exactly as
the engine does: the same DCG, cumulative DCG and NDCG to the last bit, 0 where the engine
prints 0 (negative grades kept; the grades at ranks 1, 3, 7 and 15, where log2(i + 1) is a
whole number, so their terms cancel)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from playwright.sync_api import Browser

import ndcg_core as nc

JS = Path(__file__).resolve().parents[2] / "ui" / "ranking_table" / "figures.js"
PLACES = [0, 2, 6, 14]  # ranks 1, 3, 7, 15: log2(i + 1) = 1, 2, 3, 4

PREVIEW = """async ([source, cases]) => {
  const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  const m = await import(url);
  return cases.map((c) => m.preview(c.grades, {k: c.k, gains: ["linear"], idcg: c.idcg,
                                                zero: 0, conv: null}).linear);
}"""


def cancelling_lists(count: int, seed: int = 40) -> list[list[float]]:
    """Lists whose DCG (in the order given) or IDCG (the ideal order) is exactly 0 in real
    numbers, from grades such as 0.1, -0.3 whose terms round: [a, 0, b, 0, 0, 0, c, ...]
    with a/1 + b/2 + c/3 + d/4 = 0, and [a, 0, ..., 0, -a·log2(r + 1)] (its own ideal)."""
    rng = random.Random(seed)
    steps = [0.1, 0.2, 0.3, 0.25, 0.5, 1, 2, 3]
    lists = [[1, 0, 0, 0, 0, 0, -3], [0.1, 0, 0.2, 0, 0, 0, -0.6], [2.5, 0, -5]]
    while len(lists) < count:
        size = rng.choice([3, 7, 15])
        grades = [0.0] * size
        places = [p for p in PLACES if p < size]
        logs = [(p + 1).bit_length() for p in places]  # log2(i + 1) = 1, 2, 3, 4
        if rng.random() < 0.5:  # the ranking's own DCG cancels (in decimal numbers)
            values = [rng.choice(steps) * rng.choice([-1, 1]) for _ in places[:-1]]
            rest = sum(Fraction(str(v)) / n for v, n in zip(values, logs))
            values.append(float(-rest * logs[-1]))
        else:  # its own ideal: one positive grade first, zeros, one negative last
            a = rng.choice(steps)
            values = [a] + [0.0] * (len(places) - 2) + [float(-Fraction(str(a)) * logs[-1])]
        for p, v in zip(places, values):
            grades[p] = v
        lists.append(grades)
    return lists


def test_the_browser_twin_sums_cancelling_lists_as_the_engine_to_the_last_bit(
        browser: Browser):
    """Every list built to cancel: the preview's cumulative DCG, DCG and NDCG equal the
    engine's dcg_table and ndcg_parts exactly, with the engine's IDCG (0 where the ideal
    cancels: NDCG takes the zero rule, not a ratio of two rounding remainders)."""
    lists = cancelling_lists(120)
    cases, want = [], []
    for grades in lists:
        for k in (None, 3, len(grades)):
            parts = nc.ndcg_parts(grades, k=k)
            cases.append({"grades": grades, "k": k, "idcg": {"linear": parts.idcg}})
            want.append((nc.dcg_table(grades, k=k)["cumulative_dcg"].tolist(), parts))
    zeros = sum(parts.idcg == 0 for _, parts in want)
    assert zeros > 50 and sum(parts.dcg == 0 for _, parts in want) > 50
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto("about:blank")
        got = page.evaluate(PREVIEW, [JS.read_text(encoding="utf-8"), cases])
    finally:
        context.close()
    for case, (cumulative, parts), have in zip(cases, want, got):
        assert have["cumulative"] == cumulative, case
        assert (have["dcg"], have["ndcg"]) == (parts.dcg, parts.ndcg), case


PREVIEW_AS_DRAWN = """async ([source, cases]) => {
  const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  const m = await import(url);
  return cases.map((d) => m.preview(d.grades, {k: d.k, gains: d.gains, idcg: d.idcg,
    idcgLog2: d.idcg_log2, zero: d.zero, conv: d.conv}).linear.ndcg);
}"""


def test_with_the_ln_discount_the_browser_twin_gives_the_engines_ndcg_on_cancelling_lists(
        browser: Browser):
    """The playground's ln(i + 1) discount (negative grades kept): the preview's NDCG is the
    figure the page prints, taken from the log2 sums as the engine takes it, on every list
    built to cancel (a ratio of ln sums would differ where the sums nearly cancel)."""
    from lab import ranking_table, rules
    kept = rules.Rules(discount="ln", negative="through", zero="zero")
    cases, want = [], []
    for grades in cancelling_lists(60, seed=41):
        rows = [{"id": f"d{i}", "label": f"D{i}", "grade": g} for i, g in enumerate(grades)]
        for k in (3, len(grades)):
            data = ranking_table.table_data(rows, k=k, gain="linear", rules=kept)
            assert data["problem"] is None, data["problem"]
            cases.append({**data, "grades": list(grades)})
            want.append(data["figures"]["linear"]["ndcg"])
            assert want[-1] == nc.ndcg(grades, k=k, discount="log2", zero_idcg="zero",
                                       negative="keep", negative_ideal="keep")
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto("about:blank")
        got = page.evaluate(PREVIEW_AS_DRAWN, [JS.read_text(encoding="utf-8"), cases])
    finally:
        context.close()
    assert got == want
