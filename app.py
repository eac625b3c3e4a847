"""NDCG Lab: routes to the pages. Each page lives in pages/."""

import streamlit as st

st.set_page_config(page_title="NDCG Lab", page_icon=":material/leaderboard:", layout="wide")
st.title("NDCG Lab")
