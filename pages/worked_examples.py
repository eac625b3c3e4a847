"""Worked examples: every example of the five source documents recomputed live, with the
errata where a document is wrong."""

import streamlit as st

from lab.documents import DOCUMENTS, WORKED, say
from ui import learn, lessons as L, page_hooks, routing, state

routing.route_through_app(__file__)
L.header(WORKED)
L.section(WORKED, "intro", heading=False)

# a share link names its example's document (?doc=000: that tab opens) and the example (#)
names = [say(d.tab, state.language()) for d in DOCUMENTS]
opened = next((name for name, d in zip(names, DOCUMENTS)
               if d.number == state.requested_document()), None)
page_hooks.arrive()
for tab, doc in zip(st.tabs(names, default=opened), DOCUMENTS):
    with tab:
        learn.render_document(doc)

L.section(WORKED, "checked-correct")
