"""NDCG Lab: the entry file only routes. Every page lives in pages/ and is registered here.

The language is decided first (``ui.state.language``): page titles, section names and the
sidebar are drawn in it, and every page reads it again."""

from pathlib import Path

import streamlit as st

from lab.i18n import LANGUAGES, t
from ui import memory, opening, page_hooks, routing, state

# An emoji favicon is drawn locally (a data: URL); a ":material/...:" one is fetched from
# fonts.gstatic.com on every page load, a request to a third party.
# Presenter view (ui/state/present.py): the sidebar folds on the run that turns it on.
st.set_page_config(page_title="NDCG Lab", page_icon="📊", layout="wide",
                   initial_sidebar_state=state.sidebar_state())
memory.configure()  # once per process: freed upload memory goes back to the system
# A session's first run waits its turn (two at once): a class opening the app together
# cannot stall the students already working (ui/opening.py).
with opening.first_run_in_turn():
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
            st.Page("pages/mistakes.py", title=t("Common mistakes", lang),
                    icon=":material/bug_report:"),
        ],
        t("Practice", lang): [
            # The default page: served at the app's root, so the links it writes (/?g=...) open
            # it. Its own url_path is reserved but never served (Streamlit serves a default
            # page at the root only), hence the hidden twin below.
            st.Page("pages/playground.py", title=t("Playground", lang), icon=":material/swap_vert:",
                    default=True, url_path=state.PLAYGROUND_ROOT_NAME),
            st.Page("pages/practice.py", title=t("Exercises", lang), icon=":material/edit_note:"),
            st.Page("pages/write_code.py", title=t("Write it yourself", lang),
                    icon=":material/code:"),
            st.Page("pages/class.py", title=t("Class mode", lang), icon=":material/groups:",
                    url_path="class"),
            st.Page("pages/onboarding.py", title=t("Onboarding", lang), icon=":material/flag:",
                    url_path="onboarding"),
            # /playground, the page's name in the sidebar and the README, opens the same page.
            # Hidden: the sidebar keeps one entry. Registered after the default, so
            # st.switch_page("pages/playground.py") and st.page_link still lead to the root.
            st.Page("pages/playground.py", title=t("Playground", lang), icon=":material/swap_vert:",
                    url_path=state.PLAYGROUND_URLS[1], visibility="hidden"),
        ],
        t("Your data", lang): [
            st.Page("pages/your_data.py", title=t("Evaluate your runs", lang),
                    icon=":material/dataset:"),
        ],
    }

    nav = routing.navigation(PAGES)  # remembers it ran: a deep link's first run (ui/routing.py)
    # What makes every page fit a projector, a laptop and a phone (layout only: ui/fit.css).
    st.html(Path(__file__).with_name("ui") / "fit.css")
    if state.presenting():  # larger type for a projector, less chrome (ui/present.css)
        st.html(Path(__file__).with_name("ui") / "present.css")
    if state.fold_sidebar_now():
        page_hooks.fold_sidebar()
    with st.sidebar:
        state.language_widget()
        st.segmented_control(t("Language", lang), list(LANGUAGES), format_func=LANGUAGES.get,
                             required=True, key=state.LANG_WIDGET, on_change=state.on_language)
        state.present_widget()
        st.toggle(t("Presenter view", lang), key=state.PRESENT_WIDGET,
                  on_change=state.on_present,
                  help=t("For a projector: large tables and figures, the sidebar folded. "
                         "Links made while it is on open in it too.", lang))
        state.keep_present_param()
        st.caption(t("**NDCG Lab** — drag a ranking, edit the grades, and watch DCG, IDCG and "
                     "NDCG answer. Every number comes from the ndcg_core engine, checked "
                     "against scikit-learn, trec_eval and ranx.", lang))
    nav.run()
state.mark_page(nav.url_path)
