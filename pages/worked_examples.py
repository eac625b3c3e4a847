"""Worked examples: every example of the five source documents recomputed live, with the
errata where a document is wrong."""

import streamlit as st

from lab.documents import DOCUMENTS, WORKED, say
from ui import learn, lessons as L, routing, state

routing.route_through_app()
L.header(WORKED)
L.section(WORKED, "intro", heading=False)

for tab, doc in zip(st.tabs([say(d.tab, state.language()) for d in DOCUMENTS]), DOCUMENTS):
    with tab:
        learn.render_document(doc)

L.section(WORKED, "checked-correct")
