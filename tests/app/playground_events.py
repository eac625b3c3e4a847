"""Read and drive the playground's ranking table under AppTest.

AppTest sees the v2 component as an unknown element whose ``json`` is the data it draws
(rows, figures, ideal rows). It cannot fire the component's trigger, so :func:`fire` writes
the report the browser would (the order it shows and the event, numbered for this table's
session) and reruns: the page's own path takes it (``ui.state.table_events`` at the top of
the run: :func:`lab.table.receive` with the playground's reduce), as it takes a report
whose trigger a reconnect lost. The trigger itself is exercised in tests/browser.
"""

from __future__ import annotations

import base64
import json

import numpy as np



def table_data(at) -> dict:
    """What the playground's ranking table draws (the first v2 component on the page)."""
    return json.loads(at.get("bidi_component")[0].proto.json)


def formula_data(at) -> dict | None:
    """What the formula under the table writes (``lab.ranking_table.formula_data``: the
    grades down to k, the ideal's, DCG/IDCG/NDCG per gain), or None when it is not drawn."""
    for element in at.get("bidi_component"):
        data = json.loads(element.proto.json) if element.proto.json else {}
        if "formula" in data:
            return data["formula"]
    return None


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


LIST = "pg_list"  # the playground's table (ui.state.LIST)
INSTANCE = "apptest"  # the page instance these events come from (bridge.js: a random name)


def fire(at, event: dict, *, run: bool = True):
    """Send one table event (``{"action": ..., "id": ...}``; a move also carries the
    ``"order"`` the browser reports) as the browser reports it, then rerun (``run=False``:
    leave the rerun to the caller; events sent before it go as one batch, as the browser
    resends them). Returns the message the table shows for it when it is refused, else
    None (always None without the rerun)."""
    event = dict(event)
    data = table_data(at)
    order = event.pop("order", None) or [row["id"] for row in data["rows"]]
    outbox = getattr(at, "table_outbox", [])
    last = max([e["seq"] for e in outbox] + [(data.get("ack") or {}).get("seq", 0)])
    sent = {**event, "seq": last + 1, "instance": INSTANCE, "session": data["session"],
            "generation": data["generation"]}
    at.table_outbox = outbox = outbox + [sent]
    at.session_state[LIST] = {"order": order, "event": sent if len(outbox) == 1 else {
        "action": "batch", "events": outbox, "session": data["session"],
        "generation": data["generation"]}}
    if not run:
        return None
    at.run()
    at.table_outbox = []
    # A trigger holds its value for the run it fired in only.
    at.session_state[LIST] = {"order": order, "event": None}
    after = table_data(at)
    if "id" in event and event["id"] in after["messages"]:
        return after["messages"][event["id"]]
    notice = after.get("notice")
    return notice if notice and notice != after.get("problem") else None


def plotly_figures(at) -> list[dict]:
    """The Plotly charts the page drew, as their JSON specs."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(array) -> list[float]:
    """A Plotly data array, plain or binary-packed ({"bdata": base64, "dtype": ...})."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)
