"""The one Streamlit internal NDCG Lab touches (ui/routing.py: route_through_app) is still
what it was: fails loudly when a Streamlit release changes it."""

import inspect

from streamlit.runtime import pages_manager
from streamlit.runtime.scriptrunner import script_runner

from ui import routing


def test_pages_manager_still_has_the_old_multipage_flag():
    """route_through_app clears PagesManager.uses_pages_directory, as st.navigation does."""
    assert hasattr(pages_manager.PagesManager, "uses_pages_directory")
    source = inspect.getsource(pages_manager.PagesManager.__init__)
    assert 'uses_pages_directory = Path(' in source and '"pages"' in source


def test_the_script_runner_still_picks_the_old_multipage_mode_by_that_flag():
    source = inspect.getsource(script_runner)
    assert "if PagesManager.uses_pages_directory:" in source and "_mpa_v1(" in source


def test_no_other_module_reaches_into_streamlit_or_pandas_internals():
    """Only ui/routing.py may import streamlit.runtime; nothing replaces Styler internals."""
    from pathlib import Path

    root = Path(routing.__file__).resolve().parents[1]
    files = [p for d in ("app.py", "pages", "ui", "lab", "ndcg_core")
             for p in ([root / d] if d.endswith(".py") else (root / d).rglob("*.py"))]
    offenders = [str(p.relative_to(root)) for p in files
                 if p.name != "routing.py" and any(s in p.read_text() for s in (
                     "streamlit.runtime", "PagesManager", "._compute", "._translate"))]
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
