"""Write the bundled sample of the "Evaluate your runs" page (seeded: the same files every time).

Run from the repository root: ``python assets/samples/make_samples.py``. It writes, next to
itself, TREC judgments ``qrels.txt`` (``qid 0 docid grade``, grades 0–3) and nine TREC runs
(``qid Q0 docid rank score tag``): ``system_a.run`` and ``system_b.run``, then seven systems of
different character, drawn from a second seed so the first three files stay as they were:

- ``top_heavy.run``: puts the query's best documents in its first three places, then
  ranks the rest barely better than chance: strong at k = 3 or 5, ordinary at k = 20;
- ``deep_recall.run``: two non-relevant documents on top, then every relevant document
  (in no order of grade): weak at k = 3, strong at k = 20;
- ``near_tie_1.run`` and ``near_tie_2.run``: the same skill and mostly the same noise: a
  pair whose order a choice (or half of the queries) can flip;
- ``top_grade.run``: finds grade 3 documents and cannot tell grades 1 and 2 from 0: it
  gains under exponential gain (2^3 − 1 = 7 against 1 and 3);
- ``any_relevant.run``: tells relevant from not relevant, not one grade from another:
  it gains under linear gain;
- ``unjudged_mix.run``: mixes documents nobody judged into its top ranks: judged-only
  scoring (condensed lists) lifts it.

The "Choose gain and cutoff" tab of the data page shows where these choices disagree.

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


#: The second seed: the systems of different character, drawn after the first three files.
SEED_MORE = 20261204

def _two_on_top(g, rng):
    """10 for two documents of grade 0 chosen at random (0 for the others)."""
    out = np.zeros(g.size)
    zeros = np.flatnonzero(g == 0)
    out[rng.choice(zeros, size=min(2, zeros.size), replace=False)] = 10.0
    return out


#: name -> score per document from (grades, judged flags, the query's noise shared by the
#: systems, the generator), in the order the files are written
CHARACTERS = {
    "top_heavy": lambda g, judged, shared, rng: np.where(
        g >= np.sort(g)[-3], 10.0 + g + rng.normal(0, 0.3, g.size),
        0.25 * g + rng.normal(0, 1.0, g.size)),
    # two non-relevant documents on top, then every relevant one in random order
    "deep_recall": lambda g, judged, shared, rng: (
        _two_on_top(g, rng) + np.where(g > 0, 5.0, 0.0) + rng.uniform(0, 1, g.size)),
    "near_tie_1": lambda g, judged, shared, rng: 0.8 * g + shared,
    "near_tie_2": lambda g, judged, shared, rng: 0.8 * g + 0.9 * shared
    + rng.normal(0, 0.45, g.size),
    "top_grade": lambda g, judged, shared, rng: 2.5 * (g == 3) + rng.normal(0, 0.8, g.size),
    "any_relevant": lambda g, judged, shared, rng: 1.6 * (g > 0) + rng.normal(0, 0.8, g.size),
    "unjudged_mix": lambda g, judged, shared, rng: 1.1 * g + 1.8 * ~judged
    + rng.normal(0, 1.0, g.size),
}


def _character_lines(rng, qid, docs, grades, judged, shared, name):
    scores = CHARACTERS[name](grades, judged, shared, rng)
    top = np.argsort(-scores, kind="stable")[:DEPTH]
    return [f"{qid} Q0 {docs[i]} {rank} {scores[i]:.3f} {name}"
            for rank, i in enumerate(top, 1)]


def make(out: Path = HERE) -> None:
    rng = np.random.default_rng(SEED)
    qrels, run_a, run_b = [], [], []
    queries = []  # (qid, docs, grades, judged) in the order the runs see them
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
        queries.append((qid, docs[perm], grades[perm], perm < N_JUDGED))
    files = [("qrels.txt", qrels), ("system_a.run", run_a), ("system_b.run", run_b)]
    more = np.random.default_rng(SEED_MORE)
    shared = [more.normal(0, 1.0, N_CANDIDATES) for _ in queries]
    for name in CHARACTERS:
        lines = []
        for (qid, docs, grades, judged), noise in zip(queries, shared):
            lines += _character_lines(more, qid, docs, grades, judged, noise, name)
        files.append((f"{name}.run", lines))
    for name, lines in files:
        (out / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    make()
