"""The browser's twin of the engine (ui/ranking_table/figures.js) under the playground's
mistake settings (lab.rules): on 720 seeded random lists, every setting of every kind in
turn and some together, its preview gives every figure the table's engine data gives
(lab.ranking_table.table_data, from ndcg_core), to 1e-9 and as the same 3-decimal text."""

from __future__ import annotations

import itertools
import random

from playwright.sync_api import Browser

from lab import rules as R
from lab.ranking_table import ZERO_IDCG, table_data
from test_ranking_table import JS, PREVIEW_BATCH, _cases


def _every_rules():
    """Each setting's each choice alone, then every combination of discount, numerator,
    negative and cut (the ones the preview computes itself) with the zero rules."""
    alone = [R.Rules(**{name: value}) for name, values in R.CHOICES.items() for value in values]
    mixed = [R.Rules(discount=d, numerator=n, negative=g, cut=c, zero=z)
             for d, n, g, c, z in itertools.product(*(R.CHOICES[x] for x in (
                 "discount", "numerator", "negative", "cut", "zero")))]
    return alone + mixed


def _case_list(count: int = 720):
    rng = random.Random(20261203)
    rules = _every_rules()
    out = []
    for i, case in enumerate(_cases(count, seed=20261203)):
        pool = case["pool"]
        n = len(case["grades"])
        k = rng.randint(1, n + len(pool) + 1)   # k may pass the list (NDCG@8 of 6 items)
        out.append({**case, "k": k, "rules": rules[i % len(rules)]})
    return out


def _engine(case):
    rows = [{"id": f"r{i}", "label": str(i), "grade": g} for i, g in enumerate(case["grades"])]
    rules = case["rules"]
    pool = [{"label": "p", "grade": g} for g in case["pool"]] if rules.ideal == "judged" \
        else None
    return table_data(rows, k=case["k"], gain="both", unretrieved=pool or None, rules=rules)


def test_browser_preview_equals_the_engine_under_every_mistake_setting(browser: Browser):
    cases = _case_list()
    engine = [_engine(c) for c in cases]
    kept = [(c, e) for c, e in zip(cases, engine) if e["figures"] is not None]
    assert len(kept) == len(cases)       # no case refused by the engine
    payload = [{"grades": c["grades"], "k": e["k"], "idcg": e["idcg"], "zero": e["zero"],
                "conv": e["conv"]} for c, e in kept]
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto("about:blank")
        got = page.evaluate(PREVIEW_BATCH, [JS.read_text(encoding="utf-8"), payload])
    finally:
        context.close()
    checked = 0
    for (case, data), have in zip(kept, got):
        assert data["zero"] == ZERO_IDCG[case["rules"].zero]
        for gain in ("linear", "exponential"):
            w, h = data["figures"][gain], have[gain]
            where = f"{case} {gain}"
            for name in ("contribution", "cumulative", "gain", "discount"):
                for a, b, text in zip(w[name], h[name], h["text"][name]):
                    assert abs(a - b) <= 1e-9, (where, name, a, b)
                    assert text == f"{a:.3f}", (where, name, a, text)
                    checked += 1
            assert abs(w["dcg"] - h["dcg"]) <= 1e-9, (where, w["dcg"], h["dcg"])
            assert h["text"]["dcg"] == f"{w['dcg']:.3f}", where
            if w["ndcg"] is None:             # undefined (NaN in the engine): no number shown
                assert h["ndcg"] is None and h["text"]["ndcg"] == "—", where
            else:
                assert abs(w["ndcg"] - h["ndcg"]) <= 1e-9, (where, w["ndcg"], h["ndcg"])
                assert h["text"]["ndcg"] == f"{w['ndcg']:.3f}", (where, w["ndcg"])
            checked += 2
    assert checked > 10_000
    # every setting's every choice was among the cases
    for name, values in R.CHOICES.items():
        assert {getattr(c["rules"], name) for c, _ in kept} == set(values), name
