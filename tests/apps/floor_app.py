"""The latency floor for tests/bench/bench_playground.py: one number input, one text.

A change of the number reruns this script and changes the text: the least a Streamlit
rerun can cost. Run: streamlit run tests/apps/floor_app.py
"""

import streamlit as st

value = st.number_input("Value", key="n", value=0, step=1)
st.text(f"VALUE {value}")
