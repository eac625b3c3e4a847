"""How many runs the data page takes: up to thirty for "Choose gain and cutoff" (its other
tables show the first ten), within a memory budget. No Streamlit here."""

from __future__ import annotations

from ndcg_core.choices import MAX_CHOICE_RUNS
from lab.runs import MAX_RUNS

# Uploads take up to this many runs: "Choose gain and cutoff" weighs them all, the rest of
# the page shows the first MAX_RUNS (compare takes at most MAX_SYSTEMS).
MAX_UPLOAD_RUNS = MAX_CHOICE_RUNS
# ... as long as they hold no more bytes than MAX_RUNS files of the largest size: beyond ten
# runs the page never holds more in memory than ten large files did (docs/choosing.md).
RUN_FILES_BUDGET = MAX_RUNS


def within_budget(sizes: list, file_mb: float) -> int:
    """How many of the runs (their sizes in bytes, in order) the page keeps: all up to
    :data:`MAX_RUNS`, then as long as the total stays within :data:`RUN_FILES_BUDGET` files
    of ``file_mb`` MB.

    >>> within_budget([100] * 12, file_mb=1e-4)      # 12 runs of 100 bytes; cap 1,000 bytes
    10
    >>> within_budget([10] * 40, file_mb=1e-4)
    40
    """
    cap, total = RUN_FILES_BUDGET * file_mb * 1024 * 1024, 0
    for i, size in enumerate(sizes):
        total += size
        if i >= MAX_RUNS and total > cap:
            return i
    return len(sizes)
