"""The bad-input matrix's shared pieces: the small files every family reads, and the case
record. Imported by tests/app/test_bad_input.py (the app's entry points) and
tests/engine/test_bad_input_cli_and_engine.py (the CLI and the engine's functions)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

# small files shared by the upload, CLI and engine cases
QRELS = b"1 0 d1 2\n1 0 d2 0\n1 0 d3 1\n2 0 d4 1\n"
RUN = b"1 Q0 d1 1 3.0 r\n1 Q0 d2 2 2.0 r\n1 Q0 d3 3 1.0 r\n2 Q0 d4 1 5.0 r\n"
FILES = {
    "qrels.txt": QRELS,
    "run.run": RUN,
    "empty.txt": b"",
    "blank.txt": b"  \n\n\t\n",
    "binary.dat": bytes(range(256)),
    "truncated.txt": QRELS + b"2 0 d5",
    "columns.csv": b"query,doc,stars\n1,d1,2\n",
    "semicolons.csv": b"qid;docid;relevance\n1;d1;2\n",
    "nan.txt": b"1 0 d1 nan\n1 0 d2 1\n",
    "latin1.txt": "1 0 caf\xe9 1\n".encode("latin-1"),
    "header.csv": b"qid,docid,relevance\n",
    "dup.txt": QRELS + b"1 0 d1 3\n",
    "dup.run": RUN + b"1 Q0 d1 4 0.5 r\n",
    "huge.txt": b"1 0 d1 2000\n1 0 d2 1\n",
    "huge3.txt": b"1 0 d1 1023\n1 0 d2 1023\n1 0 d3 1023\n",
    "inf.run": b"1 Q0 d1 1 inf r\n",
    "other.txt": b"9 0 d1 1\n",
    "odd.txt": b"1 0 d1 -1\n1 0 d2 2.5\n1 0 d3 0.5\n",
    "rtl.txt": "س 0 مستند 2\nס 0 שלום 1\n📄 0 🔥 1\n".encode(),
    "rtl.run": "س Q0 מסמך 1 9.0 r\nس Q0 مستند 2 1.0 r\nס Q0 שלום 1 2.0 r\n📄 Q0 🔥 1 1 r\n"
               .encode(),
}


@dataclass(frozen=True)
class Case:
    id: str
    entry: str
    action: Any
    expect: str | tuple | None   # what the user reads (all substrings); None: valid input
    keep: Callable | None = None  # the user's input is still there (AppTest or result)
    fix: Callable | None = None   # the follow-up valid interaction (app families)
    forbid: str | None = None     # a claim the message must not make
    bug: str = ""                 # a defect reported to the lead (the case states the fix)

    def __str__(self):
        return self.id


def expected(case) -> tuple:
    return () if case.expect is None else (
        (case.expect,) if isinstance(case.expect, str) else case.expect)


OVERFLOW_BUG = (
    "BUG (engine): a DCG sum overflows although every gain is finite (grades 1023, 1023, "
    "1023 under exponential gain; 1e308 x 3 under linear gain): ndcg_core/_checks.py "
    "MAX_EXP_GRADE is checked per grade only, so DCG = inf, NDCG = nan, no message. "
    "Fix: in ndcg_core/metrics.py _dcg_of/ndcg_curve and _ranking.py "
    "_dcg_at/_ideal_at, raise ValueError('... DCG overflows a float: use linear gain or "
    "smaller grades') when a DCG/IDCG is not finite.")
