"""The code editor of "Write it yourself": CodeMirror 6 in a ``st.components.v2`` component.

``editor.js`` is CodeMirror and ``src/editor.js`` bundled into one ES module by
``build.sh`` (esbuild; packages pinned in ``package.json``; licence in
``LICENSE-codemirror.txt``); the app serves it itself, nothing comes from a CDN. The
contract (what crosses to Python) is written at the top of ``src/editor.js``. The code is
sent only when **Run the tests** is pressed: the button is the component's own, so the
text and the press arrive in one rerun.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from lab.i18n import t

_HERE = Path(__file__).resolve().parent
_component = st.components.v2.component(
    "ndcg_code_editor",
    html=(_HERE / "code_editor.html").read_text(encoding="utf-8"),
    css=(_HERE / "code_editor.css").read_text(encoding="utf-8"),
    js=(_HERE / "editor.js").read_text(encoding="utf-8"),
)


def _noop() -> None:
    """Declare a state name to the component; the page reads the values from the state."""


def code_editor(*, exercise: str, stub: str, passed: list[str], key: str, on_run, lang: str):
    """The editor holding this browser's draft of ``exercise`` (else ``stub``), and its
    buttons; ``on_run`` is called when Run the tests is pressed, with
    ``st.session_state[key]["code"]`` holding the text."""
    labels = {"code": t("Your code", lang), "run": t("Run the tests", lang),
              "reset": t("Start again from the stub", lang)}
    return _component(
        key=key,
        data={"exercise": exercise, "stub": stub, "labels": labels, "passed": passed},
        default={"code": None, "learner": None, "progress": None},
        on_code_change=_noop, on_learner_change=_noop, on_progress_change=_noop,
        on_run_change=on_run,
    )
