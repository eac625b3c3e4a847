"""NDCG Lab: the entry file only routes. Every page lives in pages/ and is registered here.

The language is decided first (``ui.state.language``): page titles, section names and the
sidebar are drawn in it, and every page reads it again."""

import streamlit as st

from lab.i18n import LANGUAGES, t
from ui import state

# An emoji favicon is drawn locally (a data: URL); a ":material/...:" one is fetched from
# fonts.gstatic.com on every page load, a request to a third party.
st.set_page_config(page_title="NDCG Lab", page_icon="📊", layout="wide")
lang = state.language()

# url paths come from the file names, so a link opens the same page in either language
PAGES = {
    t("Learn", lang): [
        st.Page("pages/start_here.py", title=t("Start here", lang), icon=":material/school:"),
        st.Page("pages/worked_examples.py", title=t("Worked examples", lang),
                icon=":material/calculate:"),
        st.Page("pages/gain.py", title=t("Linear vs exponential gain", lang),
                icon=":material/trending_up:"),
        st.Page("pages/cutoffs.py", title=t("Cutoffs", lang), icon=":material/content_cut:"),
        st.Page("pages/conventions.py", title=t("Conventions and edge cases", lang),
                icon=":material/balance:"),
        st.Page("pages/beyond.py", title=t("Beyond NDCG", lang),
                icon=":material/compare_arrows:"),
    ],
    t("Practice", lang): [
        st.Page("pages/playground.py", title=t("Playground", lang), icon=":material/swap_vert:",
                default=True),
        st.Page("pages/practice.py", title=t("Exercises", lang), icon=":material/edit_note:"),
    ],
    t("Your data", lang): [
        st.Page("pages/your_data.py", title=t("Evaluate your runs", lang),
                icon=":material/dataset:"),
    ],
}

nav = st.navigation(PAGES)
with st.sidebar:
    state.language_widget()
    st.segmented_control(t("Language", lang), list(LANGUAGES), format_func=LANGUAGES.get,
                         required=True, key=state.LANG_WIDGET, on_change=state.on_language)
    st.caption(t("**NDCG Lab** — drag a ranking, edit the grades, and watch DCG, IDCG and "
                 "NDCG answer. Every number comes from the `ndcg_core` engine, checked "
                 "against scikit-learn, trec_eval and ranx.", lang))
nav.run()
state.mark_page(nav.url_path)
