"""The ranking table's Streamlit side: the demo app runs (tests/apps/ranking_table_demo.py).
Its logic (figures, checks) is tested in tests/lab/test_ranking_table_model.py.

The browser side (drag, touch, keys, layout, preview == engine) is
tests/browser/test_ranking_table.py.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

DEMO = str(Path(__file__).resolve().parents[2] / "tests" / "apps" / "ranking_table_demo.py")


def test_demo_runs_and_draws_a_reported_order():
    """The demo runs; an order reported by the browser is drawn and returned."""
    at = AppTest.from_file(DEMO, default_timeout=60)
    at.run()
    assert not at.exception
    assert at.text[0].value == "ORDER: Doc A,Doc B,Doc C,Doc D,Doc E,Doc F"
    at.session_state["table"] = {"order": ["doc-d", "doc-a", "doc-b", "doc-c", "doc-e",
                                           "doc-f"]}
    at.run()
    assert not at.exception
    assert at.text[0].value == "ORDER: Doc D,Doc A,Doc B,Doc C,Doc E,Doc F"
