import streamlit as st

st.title("cutoffs")
st.info("This page is being built.")
