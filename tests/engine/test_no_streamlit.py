"""The engine stays free of Streamlit: importable and testable without a UI."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_importing_ndcg_core_does_not_import_streamlit():
    """A fresh interpreter that imports the whole engine has no streamlit module loaded."""
    code = ("import sys, ndcg_core, ndcg_core.__main__; "
            "ndcg_core.ndcg([3, 2, 1]); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'streamlit'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_no_engine_file_imports_streamlit():
    files = sorted((REPO / "ndcg_core").glob("*.py"))
    assert len(files) >= 6  # the package was found
    offenders = [f.name for f in files
                 if "import streamlit" in f.read_text() or "from streamlit" in f.read_text()]
    assert offenders == []
