import streamlit as st

st.title("beyond")
st.info("This page is being built.")
