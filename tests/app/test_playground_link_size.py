"""The link the playground writes opens everywhere: at most 8 KB, with a note when shortened."""

from pathlib import Path
from urllib.parse import urlencode

from streamlit.testing.v1 import AppTest

from lab.playground import MAX_LINK, ranking_query_params

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_a_playground_with_200_long_labels_writes_a_link_under_8_kb_and_says_so():
    labels = [f"{i:03d} " + "x" * 76 for i in range(200)]
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in ranking_query_params(labels, [i % 4 for i in range(200)], k=10).items():
        at.query_params[name] = value
    at.run()
    assert not at.exception and len(at.session_state["pg"].items) == 200
    written = {name: at.query_params[name] for name in at.query_params}
    assert len(urlencode(written, doseq=True)) <= MAX_LINK
    assert any("shortened to open everywhere" in c.value for c in at.caption)
    # the page itself keeps the full labels: only the link is shortened
    assert at.session_state["pg"].labels[0] == labels[0]
