import streamlit as st

st.title("worked_examples")
st.info("This page is being built.")
