"""Render lesson prose (read by :mod:`lab.lessons`) between a page's widgets, in the
session's language (``ui.state.language``)."""

from __future__ import annotations

import streamlit as st

from lab.lessons import lesson
from ui import state


def header(name: str, *, summary: bool = True):
    """The lesson's title and summary (``summary=False``: the title alone, where a page
    needs the height)."""
    meta = lesson(name, state.language())["meta"]
    st.title(meta.get("title", name))
    if summary and meta.get("summary"):
        st.caption(meta["summary"])


def section(name: str, sid: str, *, heading: bool = True, level: str = "##"):
    """Render one section of a lesson (its heading and Markdown body)."""
    head, body = lesson(name, state.language())["sections"][sid]
    if heading:
        st.markdown(f"{level} {head}")
    st.markdown(body)


def erratum(name: str, sid: str):
    """An erratum section, in a warning box so it stands out."""
    head, body = lesson(name, state.language())["sections"][sid]
    st.warning(f"**{head}**\n\n{body}", icon=":material/report:")
