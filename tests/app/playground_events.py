"""Read and drive the playground's ranking table under AppTest.

AppTest sees the v2 component as an unknown element whose ``json`` is the data it draws
(rows, figures, ideal rows). It cannot fire the component's trigger, so :func:`fire` does
on the server what the trigger does: the component's own check
(:func:`lab.ranking_table.check_event`, against the rows drawn and the scale given), then
the state's fold (:func:`lab.playground.apply_event`, which ``ui.state.on_table_event``
calls), then a rerun. The trigger itself is exercised in tests/browser.
"""

from __future__ import annotations

import json

from lab import playground as P
from lab import ranking_table as RT


def table_data(at) -> dict:
    """What the playground's ranking table draws (the first v2 component on the page)."""
    return json.loads(at.get("bidi_component")[0].proto.json)


def metrics(at) -> dict:
    """{"DCG@k": value, ...} as the table's figures show them (3 decimals); with both
    gains each name ends in " (linear)" / " (exponential)"."""
    d = table_data(at)
    out = {}
    for gain in d["gains"]:
        suffix = f" ({gain})" if len(d["gains"]) > 1 else ""
        for name in ("dcg", "idcg", "ndcg"):
            value = d["figures"][gain][name]
            out[f"{name.upper()}@{d['k']}{suffix}"] = None if value is None else round(value, 3)
    return out


def labels(at) -> list[str]:
    return [r["label"] for r in table_data(at)["rows"]]


def item_id(at, label: str) -> str:
    return next(it.id for it in at.session_state["pg"].items if it.label == label)


def fire(at, event: dict, *, run: bool = True):
    """Send one table event (``{"action": ..., "id": ...}``) as the browser would, then
    rerun (``run=False``: leave the rerun to the caller, for many events in a row).
    Returns the message the row shows when it is refused, else None."""
    pg = at.session_state["pg"]
    lang = at.session_state["lang"] if "lang" in at.session_state else "en"  # as the page's
    rows = [{"id": it.id, "label": it.label, "grade": it.grade} for it in pg.items]
    clean, message, _ = RT.check_event(event, rows, scale=P.table_scale(pg.scale),
                                       max_label=P.MAX_LABEL, max_rows=P.MAX_ITEMS,
                                       lang=lang)
    if clean is not None:
        if clean["action"] == "move":
            clean["order"] = list(event["order"])
        try:
            at.session_state["pg"] = P.apply_event(pg, clean, lang=lang)
        except ValueError as exc:
            message = str(exc)
    if run:
        at.run()
    return message
