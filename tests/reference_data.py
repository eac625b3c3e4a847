"""Where the tests find data that is not code, in one place.

trec_eval's conformance files travel with the project (tests/data/trec_eval-test/), so a fresh
clone runs every conformance test. The five source documents the lessons quote are not ours
to ship: they sit beside the repository in ../shared/reference/documents/ (CI has them there).
Only the checks that compare our quotations with them word for word wait for them, through the
one marker below; every other check of the lessons runs everywhere.
"""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TREC_EVAL_TEST = REPO / "tests" / "data" / "trec_eval-test"
DOCUMENTS = REPO.parent / "shared" / "reference" / "documents"

# The one skip of the suite: a clone without ../shared/reference/documents cannot compare
# quotations with texts it does not have. Where the documents are, these checks run.
needs_source_documents = pytest.mark.skipif(
    not DOCUMENTS.is_dir(),
    reason=f"compares our quotations word for word with the source documents, which are not "
           f"shipped with the project: put them in {DOCUMENTS} to run it")


def source_documents(pattern: str = "00*.txt") -> list[Path]:
    """The source documents matching ``pattern``, in file order (raises if none: a test that
    reads them is marked ``needs_source_documents``)."""
    found = sorted(DOCUMENTS.glob(pattern))
    if not found:
        raise FileNotFoundError(f"no {pattern} in {DOCUMENTS}")
    return found


def source_text(pattern: str = "00*.txt") -> str:
    """The documents' text, whitespace collapsed (their lines break mid-sentence)."""
    return "\n".join(" ".join(f.read_text(encoding="utf-8").split())
                     for f in source_documents(pattern))
