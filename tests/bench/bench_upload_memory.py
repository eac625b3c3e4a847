"""Benchmark: the server's memory while students upload big runs on "Evaluate your runs".

1. Writes generated TREC runs of --mb MB each (distinct files, ~3.3 M lines at 150 MB: 1,000
   documents per query) and a small qrels for their queries, under --data (kept between
   runs: generating a file takes ~10 s).
2. Starts ``streamlit run app.py`` on 127.0.0.1 and samples its memory every 50 ms in a
   thread: the server with the processes it started (the pool that reads uploads,
   ui/parse_pool.py, and its forkserver), as the sum of their PSS, and the server alone
   (VmRSS). The figures before the pool (2026-12-02, below) are the server's VmRSS.
3. Baseline: one browser session opens "Evaluate your runs" and closes again (the page's
   modules are imported, Streamlit's caches are warm), then the sampler's level after 2 s.
4. For each round (1 upload, then --concurrent uploads at once): that many browser contexts
   (one headless Chromium) open the page and upload the qrels and their own run with
   Playwright's ``set_input_files`` on the page's file uploaders, and wait until the page
   shows its "Mean over queries" table (every figure of the run is computed by then). Then
   every context closes (the websockets close, as when a student closes the tab) and the
   sampler keeps going for --after seconds.
5. Prints per round: baseline, peak over baseline (MB, and as a multiple of one file's size
   and of all the round's files), time to the result, the level --after seconds after the
   sessions closed, and 20 s after one more visitor then opened the page and closed it
   (Streamlit drops closed sessions only when its session store is next written after
   server.disconnectedSessionTTL: in a class, whenever another tab closes; the app's
   collector in ui/memory.py then frees them, with their uploaded files, within 15 s).

    python tests/bench/bench_upload_memory.py                  # 150 MB, rounds of 1 and 3
    python tests/bench/bench_upload_memory.py --after 120      # two minutes after closing
    python tests/bench/bench_upload_memory.py --mb 20 --concurrent 2 --after 10
    python tests/bench/bench_upload_memory.py --csv --concurrent 1   # the runs as CSV
    python tests/bench/bench_upload_memory.py --shape csv-line --shape trec-line --shape columns
    python tests/bench/bench_upload_memory.py --shape trec --shape csv --shape csv-line \
        --shape trec-line --shape columns --mover  # every shape; another student moving

``--shape`` prints, per file, the seconds to the end of its reading (its summary line or
message) and to the page's answer, each per 10 MB, and the peak over the baseline as a
multiple of the file. With ``--mover`` another student (a websocket client,
``monkey.MovingStudent``) moves on the playground all along: its move p50/p95 while quiet,
while the file is read, and from then to the answer (the evaluation, still on the uploading
session's thread).

Measured on 2026-12-02 (``--mb 150 --concurrent 3 --after 30``, 2 cores shared with other
jobs, load average 4.2 at the start, 1.5 at the end)::

    1 upload  of 150 MB: baseline 177 MB, peak +434 MB (2.89x the file), +314 MB at the
              result (50 s), +314 MB 30 s after closing, +7 MB after a visitor
    3 uploads of 150 MB: baseline 177 MB, peak +1271 MB (8.47x one file, 2.82x the three),
              +933 MB at the result (42 s), +933 MB 30 s after closing, +12 MB after a
              visitor

and the same run as CSV (``--csv --mb 150 --concurrent 1 --after 30``, load average 1.3 at
the start, 6.3 at the end; a CSV holds the same rows in 104 MB, so every multiple is
larger)::

    1 upload  of 104 MB: baseline 178 MB, peak +398 MB (3.81x the file), +271 MB at the
              result (35 s), +271 MB 30 s after closing, +8 MB after a visitor

Issue 26's adversarial shapes (``--shape csv-line --shape trec-line --shape columns``,
2026-12-02, load average 15.2 at the start, 21.0 at the end, on 2 shared cores; the answer
is timed from the upload to the page's table or message)::

    csv-line   5.0 MB: refused ("line 2: expected 3 fields as in the header, found
               2500001") after 0.5 s, peak +8 MB (1.54x the file); before: 1 MB cost
               +813 MB and 27 s
    trec-line  150 MB: its first six fields read (1 row, "Mean over queries") after
               12.0 s (0.80 s per 10 MB), peak +287 MB (1.91x); before: +3.07 GB (20.5x)
    columns   10.4 MB: refused ("1,044,447 columns in its header line") after 1.7 s,
               peak +22 MB (2.12x); before: accepted after 86 s and +2.2 GB

With the reading in another process (ui/parse_pool.py; ``--shape trec --shape csv --shape
csv-line --shape trec-line --shape columns --mover``, 2026-12-03, load average 20-35 on 2
cores shared with six other jobs; the peak is the server and its readers, PSS)::

    trec      150 MB: read 56 s (3.75 s / 10 MB), answer 182 s, peak 3.28x (server 2.81x);
              moves p50/p95 74/451 ms quiet, 132/548 ms while read
    csv       104 MB: read 93 s (8.91 s / 10 MB), answer 281 s, peak 4.23x (server 3.58x);
              moves 49/123 ms quiet, 106/401 ms while read
    csv-line    5 MB: refused after 5.7 s, 1.10x; trec-line 150 MB: read 53 s, 2.04x;
    columns    10 MB: refused after 3.9 s, 1.02x

The CSV's peak is the worker's parse (the file's bytes, pandas' temporaries and the table,
about 3.2x the CSV, whose table is larger than the file) beside Streamlit's copy of it.
Quiet, after the worker stopped stripping ids that hold nothing to strip (2026-12-03, load
average 1.5-3.1 from the end of a test run)::

    trec      150 MB: read 5.5 s, answer 14.2 s (0.94 s / 10 MB), peak 3.22x
    csv       104 MB: read 7.1 s, answer 16.7 s (1.61 s / 10 MB), peak 3.80x; again:
              answer 14.1 s (1.36 s / 10 MB), peak 3.83x
    csv-line    5 MB: refused after 0.4 s, 1.08x; trec-line 150 MB: read 3.6 s, 2.03x;
    columns    10 MB: refused after 0.9 s, 1.32x

Where one upload's peak goes: Streamlit's stored copy of the file (1x, for as long as the
file is in the widget), the parsed table (about 1x of the TREC file: qids, docids and
scores of 3.3 M rows), and on top of them the evaluation's temporaries (about 0.85x: id
codes, sort keys and orders over the run's rows) or, before it, the parse's (about 0.4x
over the table). What stays while the tab is open (+314 MB) is the file's copy and the
table.

Before, the same day (same command): 4.48x the file and 4.36x the three files, then 3.45x
and 3.28x once the page stopped using the widgets' return values: ``st.file_uploader``
returns a deep copy of every uploaded file (so that a script cannot change a widget's
value), and the page parsed and evaluated from it, a second 150 MB for the whole run. The
page now reads the files from ``st.session_state``, the widget's own value, whose bytes are
the very bytes Streamlit stores for the upload; the returned copy is freed as the call
returns. Then the engine's ranking held fewer arrays of the run's rows at once (the run's
scores read in place, repeats checked before the sort, 32-bit ranks and row order, the
sort key built in place): its temporaries went from 1.4x to 0.85x of the file. Earlier
still (before the engine's ids were coded by Arrow and the collector of ui/memory.py): 8-10x
one file, and 2.9 GB held after three closed. The page keeps no bytes between runs (its
upload memo holds digests, and it defines no function: a widget's ``format_func`` lambda
kept the page's globals, and with them the uploads, until the next run).

Each round runs on a fresh server (so one round's leftovers are not the next's baseline),
unless --same-server. Run by hand; not part of the test suite. Exit status 1 if a page
showed an error or the server logged a traceback.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

MB = 1_000_000
DOCS_PER_QUERY = 1000
JUDGED_PER_QUERY = 40
RESULT = "Mean over queries"  # the page's header once every run is evaluated
RESULT_TIMEOUT_MS = int(os.environ.get("NDCG_RESULT_TIMEOUT_MS", 900_000))  # 3 parses


# ------------------------------------------------------------------ data

def write_run(path: Path, size_mb: float, seed: int) -> int:
    """A TREC run of about ``size_mb`` MB: queries of 1,000 documents, scores descending.

    Returns the number of queries. Document ids come from a large made-up collection, so
    most are distinct strings, as in a real run.
    """
    rng = random.Random(seed)
    target = int(size_mb * MB)
    written, q = 0, 0
    with open(path, "w", encoding="ascii") as f:
        while written < target:
            q += 1
            lines = []
            score = 30.0
            for rank in range(1, DOCS_PER_QUERY + 1):
                score -= rng.random() * 0.02
                # a random part (most ids are distinct strings) and the rank (no repeats)
                doc = f"clueweb-{rng.randrange(10**6):06d}{rank - 1:03d}"
                lines.append(f"{q} Q0 {doc} {rank} {score:.5f} bench{seed}\n")
            chunk = "".join(lines)
            f.write(chunk)
            written += len(chunk)
    return q


def write_qrels(path: Path, run: Path, n_queries: int) -> None:
    """Judgments for every query: the run's first documents graded 0-3, plus unretrieved ones."""
    rng = random.Random(99)
    out = []
    with open(run, encoding="ascii") as f:
        for line in f:
            qid, _, docid, rank = line.split()[:4]
            if int(rank) <= JUDGED_PER_QUERY // 2:
                out.append(f"{qid} 0 {docid} {rng.choice((0, 0, 1, 2, 3))}\n")
            if int(rank) == DOCS_PER_QUERY:
                out += [f"{qid} 0 unretrieved-{qid}-{i} {rng.choice((1, 2, 3))}\n"
                        for i in range(JUDGED_PER_QUERY // 2)]
    path.write_text("".join(out), encoding="ascii")


def write_csv(run: Path, out: Path) -> None:
    """The same run as CSV ``qid,docid,score``: the same rows in about 70% of the bytes."""
    with open(run, encoding="ascii") as f, open(out, "w", encoding="ascii") as g:
        g.write("qid,docid,score\n")
        for line in f:
            qid, _, doc, _, score, _ = line.split()
            g.write(f"{qid},{doc},{score}\n")


# the shapes of issue 26: (slot the file goes to, what it is, the size it was measured at, MB)
SHAPES = {
    "trec": ("Runs", "a TREC run, 1,000 documents a query (read and evaluated)", 150),
    "csv": ("Runs", "the same run as CSV qid,docid,score (read and evaluated)", 150),
    "csv-line": ("Runs", "qid,docid,score then one line of 'q,' repeated (refused)", 5),
    "trec-line": ("Runs", "a TREC run on one line (its first six fields read, as trec_eval)",
                  150),
    "columns": ("Judgments", "a CSV header of ~10^6 columns and one row (refused)", 9.4),
}


def write_shape(path: Path, shape: str, size_mb: float) -> None:
    """One adversarial file of about ``size_mb`` MB (issue 26 items 1-3)."""
    n = int(size_mb * MB)
    if shape == "csv-line":
        data = b"qid,docid,score\n" + b"q," * (n // 2)
    elif shape == "trec-line":
        data = b"1 Q0 d1 1 2.5 t " * (n // 16)  # query 1 is judged in the bench's qrels
    else:
        cols = n // 9  # "c123456," header cells and "0," row cells: ~9 bytes a column
        data = (b",".join([b"qid", b"docid", b"relevance"] + [b"c%d" % i for i in range(cols)])
                + b"\n" + b",".join([b"1", b"d1", b"1"] + [b"0"] * cols) + b"\n")
    path.write_bytes(data)


def shape_round(browser, server, sampler: Sampler, qrels: Path, small_run: Path, shape: str,
                path: Path, mover: bool = False) -> dict:
    """Upload one file of a shape (and judgments or a small run beside it) and time the
    page's answer (its result table or its message) and the end of the reading (the file's
    summary line or a message). With ``mover``, another student moves on the playground
    all along (a websocket client): its moves while quiet, and while the file is read."""
    slot = SHAPES[shape][0]
    context = browser.new_context(viewport=M.VIEWPORT)
    page = open_page(context, server.url)
    other, other_slot = (small_run, "Runs") if slot == "Judgments" else (qrels, "Judgments")
    uploader_input(page, other_slot).set_input_files(str(other))
    M.settle(page, slow_ms=RESULT_TIMEOUT_MS)
    student = None
    if mover:
        student = M.MovingStudent(server.url, index=3)
        student.start()
        student.opened.wait(120)
        student.wait_moves(30)
    base, base_server = sampler.level(1.0), sampler.level(1.0, server=True)
    t0 = time.monotonic()
    t0_moves = time.perf_counter()
    uploader_input(page, slot).set_input_files(str(path))
    errors = page.get_by_test_id("stAlertContentError").or_(page.get_by_test_id("stException"))
    # the file's summary line ("Runs: name — ...") is drawn as its reading ends
    read = page.get_by_text(f"{slot}: {path.name}").or_(errors)
    read.first.wait_for(timeout=RESULT_TIMEOUT_MS)
    read_s, read_moves = time.monotonic() - t0, time.perf_counter()
    answer = page.get_by_role("heading", name=RESULT).or_(errors)
    answer.first.wait_for(timeout=RESULT_TIMEOUT_MS)
    seconds, answer_moves = time.monotonic() - t0, time.perf_counter()
    M.settle(page, slow_ms=RESULT_TIMEOUT_MS)
    text = (page.get_by_test_id("stAlertContentError").all_inner_texts()
            or page.get_by_role("heading", name=RESULT).all_inner_texts())
    peak, peak_server = sampler.peak_since(t0), sampler.peak_since(t0, server=True)
    exceptions = M.exception_texts(page)
    out = {"base": base, "base_server": base_server, "peak": peak,
           "peak_server": peak_server, "seconds": seconds, "read_s": read_s,
           "peak_at": sampler.peak_time(t0) - t0,
           "answer": " | ".join(text), "exceptions": exceptions,
           "size": path.stat().st_size / MB}
    if student is not None:
        student.stop()
        out["quiet"] = [ms for sent, ms in student.moves if sent < t0_moves]
        out["during_read"] = student.sent_between(t0_moves, read_moves)
        out["after_read"] = student.sent_between(read_moves, answer_moves)
        out["problems"] = student.st.problems + ([repr(student.error)] if student.error else [])
    context.close()
    return out


def report_shape(shape: str, r: dict) -> None:
    over = r["peak"] - r["base"]
    per10 = max(r["size"] / 10, 0.1)
    print(f"\n{shape} ({SHAPES[shape][1]}), {r['size']:.1f} MB")
    print(f"  read after {r['read_s']:.1f} s ({r['read_s'] / per10:.2f} s per 10 MB); answer "
          f"after {r['seconds']:.1f} s ({r['seconds'] / per10:.2f} s per 10 MB): "
          f"{r['answer'][:160]}")
    print(f"  peak over baseline {over:.0f} MB = {over / r['size']:.2f}x the file (server and "
          f"its reading processes, PSS; baseline {r['base']:.0f} MB); the server alone "
          f"+{r['peak_server'] - r['base_server']:.0f} MB RSS = "
          f"{(r['peak_server'] - r['base_server']) / r['size']:.2f}x")
    phase = "while the file was read" if r["peak_at"] <= r["read_s"] else "after the read"
    print(f"  the peak came {r['peak_at']:.1f} s after the upload began ({phase})")
    if "quiet" in r:
        print("  " + M.latency_line("another student's move, quiet", r["quiet"]))
        if r["during_read"]:
            print("  " + M.latency_line("... while the file was read", r["during_read"]))
        if r["after_read"]:  # the evaluation, on the session's thread
            print("  " + M.latency_line("... from then to the answer", r["after_read"]))
        for problem in r["problems"][:5]:
            print(f"  PROBLEM: {problem}")


def data_files(folder: Path, size_mb: float, n: int, csv: bool = False
               ) -> tuple[Path, list[Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    runs = []
    for i in range(n):
        run = folder / f"run{i}_{size_mb:g}MB.run"
        if not run.exists():
            t = time.monotonic()
            tmp = run.with_suffix(".part")
            write_run(tmp, size_mb, seed=i)
            tmp.rename(run)
            print(f"  wrote {run} ({run.stat().st_size / MB:.1f} MB) in "
                  f"{time.monotonic() - t:.0f} s", flush=True)
        if csv:
            as_csv = run.with_suffix(".csv")
            if not as_csv.exists():
                tmp = as_csv.with_suffix(".part")
                write_csv(run, tmp)
                tmp.rename(as_csv)
            run = as_csv
        runs.append(run)
    qrels = folder / f"qrels_{size_mb:g}MB.txt"
    if not qrels.exists():
        # every run has the same queries (same size, same documents per query)
        trec = runs[0].with_suffix(".run")
        n_q = sum(1 for _ in open(trec, encoding="ascii")) // DOCS_PER_QUERY
        write_qrels(qrels, trec, n_q)
    return qrels, runs


# ------------------------------------------------------------------ memory sampler

class Sampler(threading.Thread):
    """The memory of a server and of the processes it started (its pool reading uploads,
    ui/parse_pool.py, and their forkserver) every ``every`` seconds: ``series`` holds (t, MB
    of the tree, MB of the server alone). The tree's is the sum of each process's PSS
    (``/proc/PID/smaps_rollup``): a page the forkserver and its workers share counts once,
    split between them, as it is held once. The server's alone is its VmRSS (the figure of
    the runs before the pool)."""

    def __init__(self, pid: int, every: float = 0.05):
        super().__init__(daemon=True)
        self.pid = pid
        self.every = every
        self.series: list[tuple[float, float, float]] = []
        self.stop_event = threading.Event()
        self.tree, self.found_at = [pid], 0.0

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / MB
        raise RuntimeError("no VmRSS line")

    def _find_tree(self) -> None:
        """The server and its descendants (looked up every 0.5 s: /proc/*/stat's parents)."""
        if time.monotonic() - self.found_at < 0.5:
            return
        parents = {}
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    parents[int(d)] = int(Path(f"/proc/{d}/stat").read_text()
                                          .rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
        tree, grew = [self.pid], True
        while grew:
            more = [c for c, p in parents.items() if p in tree and c not in tree]
            tree += more
            grew = bool(more)
        self.tree, self.found_at = tree, time.monotonic()

    def tree_mb(self) -> float:
        self._find_tree()
        kb = 0
        for pid in self.tree:
            try:
                text = Path(f"/proc/{pid}/smaps_rollup").read_text()
            except OSError:
                continue  # a worker that ended
            kb += int(next(line.split()[1] for line in text.splitlines()
                           if line.startswith("Pss:")))
        return kb * 1024 / MB

    def run(self) -> None:
        while not self.stop_event.is_set():
            try:
                self.series.append((time.monotonic(), self.tree_mb(), self.rss_mb()))
            except (OSError, RuntimeError):
                return
            time.sleep(self.every)

    def peak_since(self, t0: float, server: bool = False) -> float:
        return max(s[2 if server else 1] for s in self.series if s[0] >= t0)

    def peak_time(self, t0: float) -> float:
        """When the tree's peak since ``t0`` was sampled (monotonic seconds)."""
        return max((s for s in self.series if s[0] >= t0), key=lambda s: s[1])[0]

    def level(self, seconds: float = 1.0, server: bool = False) -> float:
        """Median of the last ``seconds`` of samples."""
        t_end = self.series[-1][0]
        return statistics.median(s[2 if server else 1] for s in self.series
                                 if s[0] >= t_end - seconds)


# ------------------------------------------------------------------ browser

def uploader_input(page, label: str):
    return page.get_by_test_id("stFileUploader").filter(has_text=label).locator(
        "input[type='file']")


def warm_sampler(browser, server) -> "Sampler":
    """Sample the server's memory; one visitor opens the page and leaves (modules imported,
    caches warm), so the baseline is the level a class meets."""
    sampler = Sampler(server.pid)
    sampler.start()
    warm = browser.new_context(viewport=M.VIEWPORT)
    open_page(warm, server.url)
    warm.close()
    time.sleep(2)
    return sampler


def open_page(context, url: str):
    page = context.new_page()
    M.open_url(page, f"{url}/your_data")
    return page


def one_round(browser, server: M.AppServer, sampler: Sampler, qrels: Path, runs: list[Path],
              after_s: float) -> dict:
    contexts = [browser.new_context(viewport=M.VIEWPORT) for _ in runs]
    pages = [open_page(c, server.url) for c in contexts]
    base = sampler.level(1.0)
    t0 = time.monotonic()
    for page in pages:  # all judgments first, then all runs: the parses overlap
        uploader_input(page, "Judgments").set_input_files(str(qrels))
    for page in pages:
        M.settle(page, slow_ms=RESULT_TIMEOUT_MS)
    for page, run in zip(pages, runs):
        uploader_input(page, "Runs").set_input_files(str(run))
    errors = []
    for i, page in enumerate(pages):
        done = page.get_by_role("heading", name=RESULT).or_(
            page.get_by_test_id("stAlertContentError")).or_(page.get_by_test_id("stException"))
        try:
            done.first.wait_for(timeout=RESULT_TIMEOUT_MS)
            M.settle(page, slow_ms=RESULT_TIMEOUT_MS)
        except Exception:  # noqa: BLE001 - playwright TimeoutError: show what the page shows
            shot = Path(tempfile.gettempdir()) / f"upload-bench-page{i}.png"
            page.screenshot(path=str(shot), full_page=True)
            errors.append(f"no result within {RESULT_TIMEOUT_MS / 1000:.0f} s (see {shot})")
        errors += page.get_by_test_id("stAlertContentError").all_inner_texts()
        errors += M.exception_texts(page)
    t_result = time.monotonic() - t0
    peak = sampler.peak_since(t0)
    at_close = sampler.level(0.5)
    for c in contexts:
        c.close()
    t_closed = time.monotonic()
    while time.monotonic() - t_closed < after_s:
        time.sleep(0.25)
    after = sampler.level(1.0)
    # Streamlit drops a closed session (and its uploaded files) only when its session store
    # is next written after disconnectedSessionTTL: in a class, when anyone else's tab
    # closes. One more visitor comes and goes, as one would.
    visitor = browser.new_context(viewport=M.VIEWPORT)
    open_page(visitor, server.url)
    visitor.close()
    # ... and the app's collector (ui/memory.py, every COLLECT_EVERY_S) frees what it held
    time.sleep(20)
    return {"base": base, "peak": peak, "at_close": at_close, "after": after,
            "after_visitor": sampler.level(1.0), "seconds": t_result, "errors": errors,
            "sizes": [r.stat().st_size / MB for r in runs]}


def report(n: int, r: dict, after_s: float) -> None:
    one = r["sizes"][0]
    over = r["peak"] - r["base"]
    print(f"\n{n} upload(s) of {one:.0f} MB (+ qrels), result after {r['seconds']:.0f} s")
    print(f"  baseline                  {r['base']:8.0f} MB")
    print(f"  peak over baseline        {over:8.0f} MB  = {over / one:.2f}x one file, "
          f"{over / sum(r['sizes']):.2f}x the round's files")
    print(f"  at the result, over base  {r['at_close'] - r['base']:8.0f} MB")
    print(f"  {after_s:g} s after closing      {r['after'] - r['base']:8.0f} MB over baseline "
          f"({r['after']:.0f} MB)")
    print(f"  then a visitor came and went {r['after_visitor'] - r['base']:5.0f} MB over "
          f"baseline ({r['after_visitor']:.0f} MB)")
    for e in r["errors"]:
        print(f"  ERROR on the page: {e[:200]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=150, help="size of each run file, MB")
    ap.add_argument("--concurrent", type=int, default=3, help="uploads of the second round")
    ap.add_argument("--after", type=float, default=30,
                    help="seconds to wait after the sessions closed before reading memory")
    ap.add_argument("--csv", action="store_true",
                    help="upload each run as CSV qid,docid,score (the same rows, ~70%% of the "
                         "bytes: the multiples are of the CSV's size)")
    ap.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "ndcg_upload_bench")
    ap.add_argument("--same-server", action="store_true",
                    help="run both rounds on one server (the second round's baseline then "
                         "holds what the first left behind)")
    ap.add_argument("--server-arg", action="append", default=[],
                    help="extra streamlit flag, e.g. --server-arg=--server.disconnectedSessionTTL"
                         " --server-arg=30 (repeat for each token)")
    ap.add_argument("--shape", choices=list(SHAPES), action="append", default=[],
                    help="upload a file of this shape instead of the rounds (repeatable: "
                         "each on a fresh server), of --shape-mb MB or the size issue 26 "
                         "measured; prints its reading and answer times and peak multiple")
    ap.add_argument("--shape-mb", type=float, default=None,
                    help="size of each --shape file (default: 150, 150, 5, 150 and 9.4 MB)")
    ap.add_argument("--mover", action="store_true",
                    help="with --shape: another student moves on the playground all along; "
                         "prints its move p50/p95 while the file is read, against quiet")
    args = ap.parse_args()
    M.check_chromium()
    if args.shape:
        return shapes_main(args)
    qrels, runs = data_files(args.data, args.mb, max(1, args.concurrent), csv=args.csv)
    rounds = [1] + ([args.concurrent] if args.concurrent > 1 else [])
    failed = False
    log_dir = Path(tempfile.mkdtemp(prefix="ndcg-upload-bench-"))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=M.CHROMIUM, args=M.CHROMIUM_ARGS,
                                     headless=True)
        server = sampler = None
        try:
            for i, n in enumerate(rounds):
                if server is None or not args.same_server:
                    if server is not None:
                        sampler.stop_event.set()
                        server.stop()
                    server = M.AppServer(log_dir, extra_args=tuple(args.server_arg)).__enter__()
                    sampler = warm_sampler(browser, server)
                r = one_round(browser, server, sampler, qrels, runs[:n], args.after)
                report(n, r, args.after)
                failed |= bool(r["errors"]) or bool(server.new_tracebacks())
        finally:
            if sampler is not None:
                sampler.stop_event.set()
            if server is not None:
                server.stop()
            browser.close()
    print(f"\nserver log: {log_dir}")
    return 1 if failed else 0


def shapes_main(args) -> int:
    """--shape: each file on a fresh server, with judgments for its queries (or a small run
    beside judgments of many columns)."""
    small_qrels, (small,) = data_files(args.data, 1, 1)
    failed = False
    log_dir = Path(tempfile.mkdtemp(prefix="ndcg-upload-bench-"))
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
          flush=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=M.CHROMIUM, args=M.CHROMIUM_ARGS,
                                     headless=True)
        try:
            for shape in args.shape:
                mb = args.shape_mb or SHAPES[shape][2]
                args.data.mkdir(parents=True, exist_ok=True)
                qrels = small_qrels
                if shape in ("trec", "csv"):
                    qrels, (path,) = data_files(args.data, mb, 1, csv=shape == "csv")
                else:
                    path = args.data / f"{shape}_{mb:g}MB.{'run' if 'trec' in shape else 'csv'}"
                    write_shape(path, shape, mb)
                with M.AppServer(log_dir, extra_args=tuple(args.server_arg)) as server:
                    sampler = warm_sampler(browser, server)
                    r = shape_round(browser, server, sampler, qrels, small, shape, path,
                                    mover=args.mover)
                    sampler.stop_event.set()
                    report_shape(shape, r)
                    failed |= (bool(r["exceptions"]) or bool(server.new_tracebacks())
                               or bool(r.get("problems")))
                print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
                      flush=True)
        finally:
            browser.close()
    print(f"server log: {log_dir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
