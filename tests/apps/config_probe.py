"""Shows the options a running server took from .streamlit/config.toml, one per line.

tests/browser/test_server_exposure.py starts it from the repository root, as `streamlit run
app.py` is started, and reads the lines back.
"""

import streamlit as st

OPTIONS = ("server.maxUploadSize", "server.disconnectedSessionTTL", "server.maxCacheDataSize",
           "server.enableExpensiveMemoryStats", "server.enableXsrfProtection",
           "server.enableCORS", "browser.gatherUsageStats", "runner.postScriptGC")

st.text("\n".join(f"{name} = {st.get_option(name)!r}" for name in OPTIONS))
