"""A page whose run raises, with the server's path in the message: what a visitor sees of an
uncaught error (tests/browser/test_error_details.py starts it from the repository root, so
.streamlit/config.toml applies, as for `streamlit run app.py`)."""

from pathlib import Path

import streamlit as st

st.title("A page that fails")


def read_settings():
    raise FileNotFoundError(f"no settings in {Path(__file__).resolve().parent}/secret.toml")


read_settings()
