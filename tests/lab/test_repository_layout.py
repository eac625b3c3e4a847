"""The house stays in order: test files have distinct names (pytest refuses to collect two
of one name, which stops the whole suite), no stray merge files, no app module doing two
jobs."""

import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.split() if out.returncode == 0 else [
        str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()]


def test_every_test_file_has_its_own_name():
    names = Counter(p.name for p in (ROOT / "tests").rglob("test_*.py"))
    assert [n for n, c in names.items() if c > 1] == []


def test_no_stray_merge_files_are_tracked():
    assert [f for f in tracked() if f.endswith((".orig", ".rej", "~"))] == []


def test_app_modules_stay_small():
    """Over ~450 lines a module usually does two jobs (the guide's rule of thumb)."""
    big = {str(p.relative_to(ROOT)): n for d in ("app.py", "pages", "ui", "lab")
           for p in ([ROOT / d] if d.endswith(".py") else (ROOT / d).rglob("*.py"))
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450}
    assert big == {}


def test_a_components_joined_files_declare_each_top_level_name_once():
    """The ranking table's and the formula's JavaScript are one module joined from files
    (ui/ranking_table/__init__.py): a name declared in two of them is a SyntaxError in the
    browser ("Identifier has already been declared") and the component does not draw."""
    import re
    here = ROOT / "ui" / "ranking_table"
    table = ("figures.js", "dom.js", "drag.js", "view.js", "interaction.js", "history.js",
             "bridge.js")
    for files in (table, ("figures.js", "dom.js", "formula.js")):
        seen = Counter(m.group(1) for name in files for m in re.finditer(
            r"^(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:const|let|var|function\*?|class)\s+(\w+)",
            (here / name).read_text(encoding="utf-8"), re.M))
        assert [n for n, c in seen.items() if c > 1] == [], files
