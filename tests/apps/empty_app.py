"""The arrival floor for tests/bench/bench_arrival.py: Streamlit drawing one line of text.

A first visit to this app costs what Streamlit itself costs (its page, scripts, styles and
first messages); the app's first NDCG is compared with it. Run: streamlit run
tests/apps/empty_app.py
"""

import streamlit as st

st.text("ready")
