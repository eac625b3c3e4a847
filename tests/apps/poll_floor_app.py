"""The waiting floor for tests/bench/bench_lecture.py: a page whose fragment reruns on a timer
and draws nothing, the least a polling Streamlit page can cost a server.

Each session draws its interval once from the address's ``poll`` (``1.2-1.6``: seconds,
uniformly, as class mode's phones do). Run: streamlit run tests/apps/poll_floor_app.py
"""

import random

import streamlit as st

low, high = map(float, st.query_params.get("poll", "1.2-1.6").split("-"))
every = st.session_state.setdefault("every", round(random.uniform(low, high), 2))


@st.fragment(run_every=every)
def poll() -> None:
    pass


st.text("ready")
poll()
