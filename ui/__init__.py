"""App-side pieces shared by the pages (they may import streamlit; ndcg_core never does)."""

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

# A fresh server that is first asked for a deep link (/worked_examples) runs that page the
# old multipage way, because a pages/ folder exists and app.py's st.navigation has not run
# yet: no navigation, no layout. Clear Streamlit's flag and rerun, so app.py routes it.
if PagesManager.uses_pages_directory:
    PagesManager.uses_pages_directory = False
    st.rerun()
