"""Every repository path a comment or docstring names exists: a reader who follows "rendered
by" to a file must find it (ten such pointers had outlived their files when modules moved).

Python, JS and CSS files; a path is checked when it starts with one of the repository's
top-level folders (``ui/…``, ``tests/…``, ``assets/…``); globs such as
``assets/lessons/*.md`` must match something. A module's attribute is written with dots
(``ui.state._follow_report``), not as a path."""

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = {p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in {".git", ".venv"}}
# a slash-separated word: letters, digits, _ . - and * (globs), not part of a longer word or URL
PATH = re.compile(r"(?<![\w./:-])((?:\.?[\w-]+/)+[\w.*-]*)")
# JS and CSS comments: /* … */ and // … (not the // of a URL such as https://)
C_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\w\"'])//[^\n]*", re.S)


def source_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "*.py", "*.js", "*.css"], cwd=ROOT,
                         capture_output=True, text=True)
    if out.returncode == 0:
        return [ROOT / f for f in out.stdout.split()]
    return [p for ext in ("py", "js", "css") for p in ROOT.rglob(f"*.{ext}")
            if ".venv" not in p.parts]


def prose(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of a file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return [(text.count("\n", 0, m.start()) + 1, m.group()) for m in C_COMMENT.finditer(text)]
    found = [(tok.start[0], tok.string)
             for tok in tokenize.generate_tokens(io.StringIO(text).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append((node.body[0].lineno, doc))
    return found


def named_paths(text: str) -> list[str]:
    paths = (m.group(1).rstrip(".") for m in PATH.finditer(text))
    return [p for p in paths if p.split("/")[0] in TOP]


def exists(path: str) -> bool:
    return any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()


def test_the_scanner_finds_paths_and_leaves_other_slashes_alone():
    text = "Rendered by ``ui/learn.py``; see tests/apps/ and lab/*.py, 1/log2(3), ui.state.x"
    assert named_paths(text) == ["ui/learn.py", "tests/apps/", "lab/*.py"]
    assert [m.group() for m in C_COMMENT.finditer('a = "https://x.org"; // see ui/fit.css')] \
        == ["// see ui/fit.css"]


def test_every_path_named_in_a_comment_or_docstring_exists():
    missing = [f"{path.relative_to(ROOT)}:{line}: {named}"
               for path in source_files() for line, text in prose(path)
               for named in named_paths(text) if not exists(named)]
    assert missing == []
