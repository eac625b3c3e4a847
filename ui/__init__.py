"""The app side: renderers, one module per page or page group, and the one owner of the
session state (:mod:`ui.state`). Logic that needs no Streamlit lives in :mod:`lab`; every
figure comes from :mod:`ndcg_core`."""
