"""Worked examples: every example of the five source documents recomputed live, with the
errata where a document is wrong."""

import streamlit as st

from ui import examples as E
from ui import lessons as L

L.header(E.WORKED)
L.section(E.WORKED, "intro", heading=False)

for tab, doc in zip(st.tabs([d.tab for d in E.DOCUMENTS]), E.DOCUMENTS):
    with tab:
        E.render_document(doc)

L.section(E.WORKED, "checked-correct")
