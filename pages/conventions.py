import streamlit as st

st.title("conventions")
st.info("This page is being built.")
