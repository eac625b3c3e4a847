"""The lessons' tables in the presenter view.

A data grid (``st.dataframe``) draws its cells on a canvas, at a size only the server's
theme sets; a projector needs 20 px. In the presenter view a lesson's grid is drawn as a
static table instead (``st.table``: HTML, its type set by ui/present.css), with the same
headers, the same 3 decimals and the same dimmed rows. Text cells are escaped: a static
table renders Markdown, and a label may be user text.

An editable grid (``st.data_editor``) cannot be a static table: in the presenter view it is
drawn as wide as its columns and ui/present.css zooms its element by 20/14 (its canvas text
at 20 px; the grid measures its pointer in the zoomed space, so a click edits the cell under
it). ``EDITORS`` names their keys; present.css lists the same keys.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from lab.text import escape_markdown, fmt, unbroken
from ui import state


def dataframe(data, *, column_config: dict | None = None, present: bool | None = None,
              **kwargs) -> None:
    """``st.dataframe(data, column_config=..., **kwargs)``, or in the presenter view
    (``present``; None: this session's) the same rows as a static table
    (:func:`as_table`). ``data``: a DataFrame or a Styler of one."""
    if present is None:
        present = state.presenting()
    if not present:
        st.dataframe(data, column_config=column_config, **kwargs)
        return
    st.table(as_table(data, column_config or {}), hide_index=True)


EDITORS = ("sh_actions", "cv_ties_editor")  # zoomed by ui/present.css in the presenter view


def data_editor(data, *, key: str, width="stretch", **kwargs):
    """``st.data_editor(data, key=key, width=width, **kwargs)``; in the presenter view as
    wide as its columns (``width="content"``), which present.css zooms to 20 px text."""
    if key not in EDITORS:
        raise ValueError(f"data_editor key {key!r} is not in ui.present.EDITORS {EDITORS}: "
                         "add it there and to ui/present.css's zoomed editors")
    if state.presenting():
        width = "content"
    return st.data_editor(data, key=key, width=width, **kwargs)


def as_table(data, column_config: dict) -> Styler:
    """``data`` (a DataFrame or a Styler of one) as a static table shows it: each column
    under its ``column_config`` label, numbers in its format (else 3 decimals), text
    escaped and unbroken at its hyphens; a Styler's own styles (dimmed rows) kept.

    >>> s = as_table(pd.DataFrame({"x": [0.12345], "item": ["a-b *c*"]}),
    ...              {"x": {"label": "X", "type_config": {"format": "%.2f"}}})
    >>> list(s.data.columns), s.to_string().splitlines()[1].split()[1:]
    (['X', 'item'], ['0.12', 'a‑b', '\\\\*c\\\\*'])
    """
    styler = data if isinstance(data, Styler) else None
    frame = styler.data if styler is not None else pd.DataFrame(data)
    labels, formats = {}, {}
    for col in frame.columns:
        config = column_config.get(col) or {}
        labels[col] = str(config.get("label") or col)
        if frame[col].dtype.kind in "fc":
            formats[labels[col]] = _number((config.get("type_config") or {}).get("format"))
        elif frame[col].dtype.kind not in "iub":
            formats[labels[col]] = _text
    shown = frame.rename(columns=labels)
    out = shown.style
    if styler is not None:
        out.use(styler.export())  # the styles are by shape (ui/tables.py): columns renamed
    return out.format(formats)


def _number(spec: str | None):
    def one(value) -> str:
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            return "—"
        return spec % value if spec else fmt(value)
    return one


def _text(value) -> str:
    return "" if value is None else escape_markdown(unbroken(value))
