"""Write the bundled sample of the "Evaluate your runs" page (seeded: the same files every time).

Run from the repository root: ``python assets/samples/make_samples.py``. It writes, next to
itself, TREC judgments ``qrels.txt`` (``qid 0 docid grade``, grades 0–3) and two TREC runs
``system_a.run`` and ``system_b.run`` (``qid Q0 docid rank score tag``).

What the sample holds on purpose, so that every convention has something to disagree about:

- 50 judged queries (``q01`` … ``q50``), 30 judged documents each; System B is better on average;
- ``q07`` is judged all zero (no relevant document): trec_eval scores it 0, LightGBM 1;
- relevant documents left unretrieved (every run stops at depth 30 out of 45 candidates, and
  ``q12``/``q33`` drop their best document): an ideal built from judged or from retrieved
  documents differs;
- ties in scores: ``q03``, ``q18``, ``q26``, ``q41`` round scores to one decimal, and every
  query of System A shares its top score between two documents of different grades;
- ``q50`` is judged but absent from both runs (the missing-query rule decides how it counts),
  and ``q51`` is retrieved but never judged (left out).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 20240607
HERE = Path(__file__).resolve().parent
N_QUERIES, N_JUDGED, N_CANDIDATES, DEPTH = 50, 30, 45, 30
ROUNDED = {"q03", "q18", "q26", "q41"}
DROP_BEST = {"q12", "q33"}
ALL_ZERO, MISSING, UNJUDGED = "q07", "q50", "q51"


def _grades(rng, qid):
    if qid == ALL_ZERO:
        return np.zeros(N_JUDGED, int)
    return rng.choice(4, size=N_JUDGED, p=[0.55, 0.25, 0.12, 0.08])


def _run_lines(rng, qid, docs, grades, skill, tag, tie_top):
    """One system's ranked documents for one query: score = skill · grade + noise."""
    scores = skill * grades + rng.normal(0.0, 1.0, size=grades.size)
    keep = np.ones(grades.size, bool)
    if qid in DROP_BEST:
        keep[int(np.argmax(grades))] = False
    docs, scores, grades = docs[keep], scores[keep], grades[keep]
    top = np.argsort(-scores, kind="stable")[:DEPTH]
    docs, scores, grades = docs[top], scores[top], grades[top]
    scores = np.round(scores, 1 if qid in ROUNDED else 3)
    if tie_top:
        # the second document with a different grade from the first gets the first's score
        other = np.flatnonzero(grades != grades[0])
        if other.size:
            scores[other[0]] = scores[0]
    order = np.argsort(-scores, kind="stable")
    return [f"{qid} Q0 {docs[i]} {rank} {scores[i]:.3f} {tag}"
            for rank, i in enumerate(order, 1)]


def make(out: Path = HERE) -> None:
    rng = np.random.default_rng(SEED)
    qrels, run_a, run_b = [], [], []
    for n in range(1, N_QUERIES + 2):
        qid = f"q{n:02d}"
        docs = np.array([f"{qid}-d{i:03d}" for i in range(N_CANDIDATES)])
        grades = np.zeros(N_CANDIDATES, int)  # documents past N_JUDGED are unjudged
        grades[:N_JUDGED] = _grades(rng, qid)
        if qid != UNJUDGED:
            qrels += [f"{qid} 0 {d} {g}" for d, g in zip(docs[:N_JUDGED], grades[:N_JUDGED])]
        if qid == MISSING:
            continue
        perm = rng.permutation(N_CANDIDATES)  # documents reach the systems in no useful order
        run_a += _run_lines(rng, qid, docs[perm], grades[perm], 0.6, "system_a", True)
        run_b += _run_lines(rng, qid, docs[perm], grades[perm], 1.0, "system_b", False)
    for name, lines in [("qrels.txt", qrels), ("system_a.run", run_a),
                        ("system_b.run", run_b)]:
        (out / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    make()
