import streamlit as st

st.title("practice")
st.info("This page is being built.")
