"""A button that copies a text to the clipboard without showing it (st.components.v2):
class mode's teacher link, the key to the room, copied on a projector where the class sees
the screen. The text goes to the browser as the component's data and stays in its script:
no element of the page holds it. ``copy_button.js`` copies it (the clipboard API, or a copy
from a text box drawn off-screen on a plain-http page) and says whether it could."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_HERE = Path(__file__).resolve().parent

_component = st.components.v2.component(
    "ndcg_copy_button",
    html=(_HERE / "copy_button.html").read_text(encoding="utf-8"),
    css=(_HERE / "copy_button.css").read_text(encoding="utf-8"),
    js=(_HERE / "copy_button.js").read_text(encoding="utf-8"),
)


def copy_button(text: str, *, label: str, copied: str, failed: str, key: str) -> None:
    """A button labelled ``label`` that copies ``text``; then ``copied`` (or ``failed``,
    which should say how else to get the text) beside it."""
    _component(key=key, data={"text": text, "label": label, "copied": copied,
                              "failed": failed})
