"""NDCG Lab reaches into no internal of Streamlit or pandas (a release changes those without
notice); and the tests' one shortcut, reading package metadata once, still finds what the
standard library finds."""

from pathlib import Path

APP_ROOT = Path(__file__).resolve().parents[2]


def test_no_module_reaches_into_streamlit_or_pandas_internals():
    """No app module imports from inside streamlit (streamlit.runtime held the old multipage
    flag; a deep link on a fresh server is now routed with st.navigation: ui/routing.py),
    reaches a private name of st or pd, or calls a private pandas Styler method."""
    files = [p for d in ("app.py", "pages", "ui", "lab", "ndcg_core")
             for p in ([APP_ROOT / d] if d.endswith(".py") else (APP_ROOT / d).rglob("*.py"))]
    assert len(files) > 40
    offenders = [str(p.relative_to(APP_ROOT)) for p in files if any(s in p.read_text() for s in (
        "from streamlit.", "import streamlit.", "PagesManager", "uses_pages_directory",
        "st._", "pd._", "._compute", "._translate"))]
    assert offenders == []


def test_the_tests_read_each_packages_metadata_once_and_app_test_reads_it_there():
    """tests/installed_packages.py hands out every installed package once per run (AppTest's
    component scan parsed every package's METADATA three times, for each AppTest): the same
    packages and metadata as the standard library finds, and AppTest's scan asks that function
    (if a release stops asking, the tests are only slower: this says so)."""
    import importlib.metadata as md

    import installed_packages as once
    from streamlit.testing.v1 import AppTest

    fresh = {(d.metadata["Name"], d.version) for d in once.find_distributions()}
    assert {(d.metadata["Name"], d.version) for d in md.distributions()} == fresh
    assert md.distributions is once.distributions
    asked = once.installed.cache_info().hits + once.installed.cache_info().misses
    AppTest.from_string("import streamlit as st\nst.write(1)").run()
    assert once.installed.cache_info().hits + once.installed.cache_info().misses > asked
