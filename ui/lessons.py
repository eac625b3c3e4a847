"""Render lesson prose (read by :mod:`lab.lessons`) between a page's widgets."""

from __future__ import annotations

import streamlit as st

from lab.lessons import lesson


def header(name: str):
    """The lesson's title and summary."""
    meta = lesson(name)["meta"]
    st.title(meta.get("title", name))
    if meta.get("summary"):
        st.caption(meta["summary"])


def section(name: str, sid: str, *, heading: bool = True, level: str = "##"):
    """Render one section of a lesson (its heading and Markdown body)."""
    head, body = lesson(name)["sections"][sid]
    if heading:
        st.markdown(f"{level} {head}")
    st.markdown(body)


def erratum(name: str, sid: str):
    """An erratum section, in a warning box so it stands out."""
    head, body = lesson(name)["sections"][sid]
    st.warning(f"**{head}**\n\n{body}", icon=":material/report:")
