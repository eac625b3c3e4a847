"""The teaching logic stays free of Streamlit: ``lab`` imports neither streamlit nor ``ui``,
so all of it is tested without a server."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_importing_lab_does_not_import_streamlit_or_ui():
    """A fresh interpreter that imports every lab module has no streamlit or ui loaded."""
    modules = sorted(p.stem for p in (REPO / "lab").glob("*.py") if p.stem != "__init__")
    assert len(modules) >= 8  # the package was found
    code = (f"import sys; import {', '.join('lab.' + m for m in modules)}; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'ui')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
