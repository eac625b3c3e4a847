"""Read and drive the playground's ranking table under AppTest.

AppTest sees the v2 component as an unknown element whose ``json`` is the data it draws
(rows, figures, ideal rows). It cannot fire the component's trigger, so :func:`fire` calls
what the trigger's callback (``ui.state.on_table_event``) calls,
:func:`lab.table_events.next_state`, then reruns. The trigger itself is exercised in
tests/browser.
"""

from __future__ import annotations

import base64
import json

import numpy as np

from lab.table_events import next_state


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


def fire(at, event: dict, *, run: bool = True):
    """Send one table event (``{"action": ..., "id": ...}``; a move also carries the
    ``"order"`` the browser reports) through the server's own path,
    :func:`lab.table_events.next_state`, then rerun (``run=False``: leave the rerun to the
    caller, for many events in a row). Returns the message the row shows when it is
    refused, else None."""
    lang = at.session_state["lang"] if "lang" in at.session_state else "en"  # as the page's
    event = dict(event)
    step = next_state(at.session_state["pg"], event, event.pop("order", None), lang=lang)
    at.session_state["pg"] = step.state
    if run:
        at.run()
    return step.message


def plotly_figures(at) -> list[dict]:
    """The Plotly charts the page drew, as their JSON specs."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(array) -> list[float]:
    """A Plotly data array, plain or binary-packed ({"bdata": base64, "dtype": ...})."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)
