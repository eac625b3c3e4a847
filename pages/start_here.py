import streamlit as st

st.title("start_here")
st.info("This page is being built.")
