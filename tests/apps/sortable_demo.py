"""Demo page for ui.sortable, driven by tests/browser/test_sortable.py.

Run: streamlit run tests/apps/sortable_demo.py   (add ?n=60 for a long list; ?slow=0.8: each
move takes the server that many seconds, so keys can be pressed faster than it answers)
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from ui.sortable import sortable_list  # noqa: E402

K = 3
GRADES = [3, 2, 3, 0, 1, 2]
XSS_LABEL = "<img src=x onerror=alert(1)><script>alert(2)</script>"


def _initial_items() -> list[dict]:
    n = int(st.query_params.get("n", len(GRADES)))
    if n <= len(GRADES):
        return [
            {"id": f"doc-{chr(97 + i)}", "label": f"Doc {chr(65 + i)}", "grade": g}
            for i, g in enumerate(GRADES)
        ]
    return [{"id": f"doc-{i}", "label": f"Doc {i}", "grade": i % 4} for i in range(1, n + 1)]


def _apply_order() -> None:
    time.sleep(float(st.query_params.get("slow", 0)))
    by_id = {item["id"]: item for item in st.session_state.docs}
    order = st.session_state["ranking"]["order"]
    st.session_state.docs = [by_id[i] for i in order if i in by_id] + [
        item for item in st.session_state.docs if item["id"] not in order
    ]


def _reset_order() -> None:
    by_id = {item["id"]: item for item in st.session_state.docs}
    st.session_state.docs = [by_id[item["id"]] for item in _initial_items()]


def _relabel(item_id: str, label: str) -> None:
    for item in st.session_state.docs:
        if item["id"] == item_id:
            item["label"] = label


if "docs" not in st.session_state:
    st.session_state.docs = _initial_items()

relabel, xss, reset = st.columns(3)
relabel.button("Relabel", key="relabel", on_click=_relabel, args=("doc-a", "Doc A*"))
xss.button("XSS label", key="xss", on_click=_relabel, args=("doc-b", XSS_LABEL))
reset.button("Reset order", key="reset", on_click=_reset_order)

items = [{**item, "dimmed": position >= K} for position, item in enumerate(st.session_state.docs)]
order = sortable_list(items, key="ranking", on_change=_apply_order)

labels = {item["id"]: item["label"] for item in st.session_state.docs}
st.write("ORDER:", ",".join(labels[i] for i in order))
