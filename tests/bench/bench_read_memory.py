"""Benchmark: peak memory of reading one large upload (issue 16: peak <= 4x the file's size).

Writes a seeded TREC run (default 150 MB, about 2.9M lines, ids like a web collection's), then
for each way the app or a script hands it over starts a fresh Python process that loads the
bytes (the upload the server already holds),
records its resident memory, resets the kernel's peak counter (``/proc/self/clear_refs``),
reads the run with ``ndcg_core.read_run`` and reports the peak resident memory over that
baseline (``VmHWM`` in ``/proc/self/status``) divided by the file's size. One process per
measurement, so one reading's freed memory does not hide the next one's peak. The ways:

- ``upload``: the bytes in a BytesIO, as the app hands an upload to the reader;
- ``path``: the file's path (a large path goes to pandas whole);
- ``lines``: an upload with a vertical tab in line 1, which sends the whole file down the
  line-by-line path (the one that names bad lines);
- ``csv``: the same run as an upload of CSV ``qid,docid,score`` (smaller file, same rows).

    python tests/bench/bench_read_memory.py                 # 150 MB, all four ways
    python tests/bench/bench_read_memory.py --mb 50 --repeats 3 --how upload

Linux only (it reads /proc). Run by hand; not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def write_run(path: Path, mb: float, seed: int = 0) -> int:
    """A run of about ``mb`` megabytes: 1,000 documents per query, 55 bytes a line."""
    rng = np.random.default_rng(seed)
    target, written, q = int(mb * 1e6), 0, 0
    with open(path, "w", encoding="utf-8") as fh:
        while written < target:
            docs = rng.integers(0, 10**9, 1000)
            scores = np.sort(rng.random(1000) * 30)[::-1]
            block = "".join(f"{301 + q} Q0 clueweb09-en{d // 10**5:04d}-{d % 10**5:05d} "
                            f"{r + 1} {s:.6f} bm25run\n"
                            for r, (d, s) in enumerate(zip(docs, scores)))
            fh.write(block)
            written += len(block)
            q += 1
    return os.path.getsize(path)


CHILD = r"""
import io, json, sys, time
sys.path.insert(0, {root!r})
import ndcg_core as nc


def status(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024


path, how = {path!r}, {how!r}
data = None if how == "path" else open(path, "rb").read()
if how == "lines":
    data = data.replace(b" Q0 ", b" Q0\x0b", 1)
if how == "csv":
    data = b"qid,docid,score\n" + b"".join(
        b",".join(line.split()[i] for i in (0, 2, 4)) + b"\n" for line in io.BytesIO(data))
size = len(data) if data is not None else None
source = path if how == "path" else io.BytesIO(data)
base = status("VmRSS")
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")  # reset VmHWM to the current resident size
t = time.perf_counter()
run = nc.read_run(source)
seconds = time.perf_counter() - t
peak = status("VmHWM")
after = status("VmRSS")
print(json.dumps({{"rows": len(run), "peak": peak - base, "held": after - base,
                  "seconds": seconds, "size": size}}))
"""


def measure(path: Path, how: str) -> dict:
    code = CHILD.format(root=str(ROOT), path=str(path), how=how)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=150)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--how", default="upload,path,lines,csv",
                    help="any of upload, path, lines, csv")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.txt"
        run_size = write_run(path, args.mb)
        print(f"== reading a {run_size / 1e6:.0f} MB run, median of {args.repeats} processes; "
              f"memory over the process's baseline (the upload's bytes already held)")
        for how in args.how.split(","):
            runs = [measure(path, how) for _ in range(args.repeats)]
            size = runs[0]["size"] or run_size  # the CSV's own size
            peak = statistics.median(r["peak"] for r in runs)
            held = statistics.median(r["held"] for r in runs)
            secs = statistics.median(r["seconds"] for r in runs)
            print(f"  {how:6s} {size / 1e6:4.0f} MB {runs[0]['rows']:,} rows  "
                  f"peak {peak / 1e6:5.0f} MB = {peak / size:4.2f}x the file   result held {held / 1e6:5.0f} MB "
                  f"({held / size:4.2f}x)   {secs:5.2f} s")


if __name__ == "__main__":
    main()
