"""Demo page for ui.ranking_table, driven by tests/browser/test_ranking_table.py.

Run: streamlit run tests/apps/ranking_table_demo.py
Query parameters: ?n=60 (a long list), ?gain=both, ?k=3, ?pool=1 (two judged items that
were not retrieved), ?scale=free, ?bare=1 (no sidebar: the component alone), ?slow=0.8
(each move takes the server that many seconds: keys pressed faster than it answers).
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from lab import grades  # noqa: E402
from lab.table import Owner  # noqa: E402
from ui import state  # noqa: E402
from ui.ranking_table import ranking_table  # noqa: E402

st.set_page_config(page_title="Ranking table demo", layout="wide")

GRADES = [3, 2, 3, 0, 1, 2]  # document 000's worked example
SCALES = {"0-3": grades.scale_of(0, 3, integer=True), "0-4": grades.scale_of(0, 4, integer=True),
          "free": None}
POOL = [{"label": "Doc X", "grade": 3}, {"label": "Doc Y", "grade": -1}]
qp = st.query_params


def _initial_rows() -> list[dict]:
    n = int(qp.get("n", len(GRADES)))
    if n <= len(GRADES):
        return [{"id": f"doc-{chr(97 + i)}", "label": f"Doc {chr(65 + i)}", "grade": g}
                for i, g in enumerate(GRADES[:n])]
    return [{"id": f"doc-{i}", "label": f"Doc {i}", "grade": (i * 7) % 4}
            for i in range(1, n + 1)]


ss = st.session_state
if "rows" not in ss:
    ss.rows = _initial_rows()
    ss.next_id = len(ss.rows) + 1

ss.drawn_count = len(ss.rows)
if qp.get("bare") == "1":  # the component alone (tests/bench/bench_ranking_table.py --bare)
    k, gain, scale_name, use_pool = (min(int(qp.get("k", 4)), len(ss.rows)),
                                     qp.get("gain", "linear"), qp.get("scale", "0-3"),
                                     qp.get("pool") == "1")
else:
    with st.sidebar:
        st.header("Settings")
        k = st.slider("k", 1, max(1, len(ss.rows)), min(int(qp.get("k", 4)), len(ss.rows)),
                      key="k")
        gains = ["linear", "exponential", "both"]
        gain = st.radio("Gain", gains, index=gains.index(qp.get("gain", "linear")), key="gain")
        scale_name = st.selectbox("Scale", list(SCALES), index=list(SCALES).index(
            qp.get("scale", "0-3")), key="scale")
        use_pool = st.toggle("Judged pool (2 items not retrieved)",
                             value=qp.get("pool") == "1", key="use_pool")


def apply(event: dict) -> None:
    """Apply one checked event from the table to the rows in session state."""
    rows = ss.rows
    action = event["action"]
    if action == "move":
        time.sleep(float(qp.get("slow", 0)))
        by_id = {r["id"]: r for r in rows}
        ss.rows = [by_id[i] for i in event["order"] if i in by_id]
    elif action == "grade":
        ss.rows = [{**r, "grade": event["grade"]} if r["id"] == event["id"] else r for r in rows]
    elif action == "rename":
        if event["label"].lower() == "refused":  # lets the tests see a server-side refusal
            raise ValueError("The demo refuses the label “refused”: pick another name.")
        ss.rows = [{**r, "label": event["label"]} if r["id"] == event["id"] else r
                   for r in rows]
    elif action == "remove":
        ss.rows = [r for r in rows if r["id"] != event["id"]]
    elif action == "add":
        scale = SCALES[scale_name]
        ss.rows = rows + [{"id": f"new-{ss.next_id}", "label": f"Item {ss.next_id}",
                           "grade": scale["min"] if scale else 0}]
        ss.next_id += 1


OWNER = Owner.calling(apply)


@st.fragment
def table() -> None:
    """A move or an edit reruns only this part, as the playground's live() fragment does."""
    # what the browser reported without its trigger (AppTest's reports, a reconnect's), taken
    # before the rows are read, as the playground's pending_edits does
    state.table_events("table", OWNER)
    if len(ss.rows) != ss.drawn_count:  # a row added or removed: k's slider needs a new max
        st.rerun(scope="app")
    result = ranking_table(ss.rows, k=k, gain=gain, key="table", scale=SCALES[scale_name],
                           unretrieved=POOL if use_pool else None, owner=OWNER)
    labels = {r["id"]: r["label"] for r in ss.rows}
    st.text("ORDER: " + ",".join(labels.get(i, i) for i in result["order"]))


table()
# Room below the table, so the page scrolls on a phone (the touch tests swipe it).
st.html('<div style="height: 60vh" aria-hidden="true"></div>')
