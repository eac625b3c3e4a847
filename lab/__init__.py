"""NDCG Lab's teaching logic, apart from rendering: the documents and their claims, the
tour, the flip finder, the exercises, the playground's model and its link, the conventions
lesson's tables, and the analysis of uploaded runs.

Plain Python, numpy and pandas on top of :mod:`ndcg_core`: it never imports streamlit or
``ui`` (``tests/lab/test_lab_never_imports_streamlit.py`` checks), so all of it is tested without a
server.
"""
