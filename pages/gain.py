import streamlit as st

st.title("gain")
st.info("This page is being built.")
