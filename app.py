"""NDCG Lab: the entry file only routes. Every page lives in pages/ and is registered here."""

from pathlib import Path

import streamlit as st

from ui import state

# An emoji favicon is drawn locally (a data: URL); a ":material/...:" one is fetched from
# fonts.gstatic.com on every page load, a request to a third party.
st.set_page_config(page_title="NDCG Lab", page_icon="📊", layout="wide")

PAGES = {
    "Learn": [
        st.Page("pages/start_here.py", title="Start here", icon=":material/school:"),
        st.Page("pages/worked_examples.py", title="Worked examples",
                icon=":material/calculate:"),
        st.Page("pages/gain.py", title="Linear vs exponential gain",
                icon=":material/trending_up:"),
        st.Page("pages/cutoffs.py", title="Cutoffs", icon=":material/content_cut:"),
        st.Page("pages/conventions.py", title="Conventions and edge cases",
                icon=":material/balance:"),
        st.Page("pages/beyond.py", title="Beyond NDCG", icon=":material/compare_arrows:"),
    ],
    "Practice": [
        # The default page: served at the app's root, so the links it writes (/?g=...) open
        # it. Its own url_path is reserved but never served (Streamlit serves a default
        # page at the root only), hence the hidden twin below.
        st.Page("pages/playground.py", title="Playground", icon=":material/swap_vert:",
                default=True, url_path=state.PLAYGROUND_ROOT_NAME),
        st.Page("pages/practice.py", title="Exercises", icon=":material/edit_note:"),
        # /playground, the page's name in the sidebar and the README, opens the same page.
        # Hidden: the sidebar keeps one entry. Registered after the default, so
        # st.switch_page("pages/playground.py") and st.page_link still lead to the root.
        st.Page("pages/playground.py", title="Playground", icon=":material/swap_vert:",
                url_path=state.PLAYGROUND_URLS[1], visibility="hidden"),
    ],
    "Your data": [
        st.Page("pages/your_data.py", title="Evaluate your runs", icon=":material/dataset:"),
    ],
}

nav = st.navigation(PAGES)
# What makes every page fit a projector, a laptop and a phone (layout only: ui/fit.css).
st.html(Path(__file__).with_name("ui") / "fit.css")
with st.sidebar:
    st.caption("**NDCG Lab** — drag a ranking, edit the grades, and watch DCG, IDCG and NDCG "
               "answer. Every number comes from the `ndcg_core` engine, checked against "
               "scikit-learn, trec_eval and ranx.")
nav.run()
state.mark_page(nav.url_path)
