"""Common mistakes: each real tool's NDCG bug on the running example, one per screen.
Prose: assets/lessons/08_mistakes.md; the catalogue: lab/mistakes.py."""

import streamlit as st

from lab import mistakes as M
from lab.i18n import t
from ui import lessons as L, mistakes as view, routing, state

routing.route_through_app(__file__)
lang = state.language()
state.mistake_from_link()  # ?mistake=<key>: the screen another page links to
L.header(view.LESSON, summary=False)  # one mistake per 1280x720 screen
at = view.chooser(lang)
with st.container(border=True):
    view.render(M.KEYS[at])
with st.expander(t("About this page: the running example", lang)):
    L.section(view.LESSON, "intro", heading=False)
