"""The "Write it yourself" exercises: what the learner writes, the cases it is tested on, and
the catalogued mistakes each one can make, every figure by ``ndcg_core``.

An exercise (:class:`CodeExercise`) names one function. Its cases are argument lists (JSON
values: lists of numbers, strings, ``None``): ``visible`` ones the page shows, ``edge``
ones it does not, and random ones drawn from a seed per learner (:func:`hidden_cases`).
``right(*args)`` is the engine's answer; ``mistakes`` maps a key of :mod:`lab.mistakes`'s
catalogue (or of :data:`OTHER_MISTAKES`) to the answer that mistake gives. ``probes`` are
inputs on which those answers differ from the right one and from each other, so the
learner's outputs on them tell the mistakes apart (:mod:`lab.code_check`).

The words (task, worked example) are in :mod:`lab.code_text`.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import ndcg_core as nc
from lab import mistakes as M
from lab import rules as R

__all__ = ["CodeExercise", "EXERCISES", "KEYS", "OTHER_MISTAKES", "exercise", "hidden_cases",
           "sample_lines"]

SAMPLES = Path(__file__).resolve().parents[1] / "assets" / "samples"
OTHER_MISTAKES = ("ideal_unsorted", "ties_input_order", "ties_docid_ascending",
                  "ties_averaged_docid")


@dataclass(frozen=True)
class CodeExercise:
    key: str
    function: str
    params: str
    visible: tuple
    edge: tuple
    probes: tuple
    random_case: Callable[[random.Random], tuple]
    right: Callable
    mistakes: dict
    n_random: int = 8

    def stub(self) -> str:
        return (f"import math\n\n\ndef {self.function}({self.params}):\n"
                f"    # Your code here\n    return 0.0\n")


# ----------------------------------------------------------------- engine answers, by rules

def _parts(key, grades, k, gain="linear", unretrieved=()):
    """DCG@k and IDCG@k of ``grades`` as catalogued mistake ``key`` computes them."""
    grades, unretrieved = list(grades), list(unretrieved)
    rules = M.RULES.get(key, R.RIGHT)
    gain = M.GAINS.get(key, gain)
    pool = grades + unretrieved if unretrieved and rules.ideal == "judged" else None
    return nc.ndcg_parts(grades, k=k, ideal=pool,
                         **R.engine_options(rules, gain, grades + unretrieved))


def _dcg_mistakes(gain, keys):
    return {key: (lambda g, k=None, _key=key: _parts(_key, g, k, gain).dcg) for key in keys}


def _ndcg_or_none(value):
    return None if math.isnan(value) else value


def _rand_grades(rng, n_min=1, n_max=10, top=3):
    return [rng.randint(0, top) for _ in range(rng.randint(n_min, n_max))]


def _rand_k(rng, n):
    return rng.choice([None, *range(1, n + 3)])


# ------------------------------------------------------------------------------ exercises

RUN = [3, 2, 3, 0, 1, 2]   # Wikipedia's DCG example (lab.mistakes.RUNNING)
_DCG_PROBES = (([3, 2, 3, 0, 1, 2], 4), ([0, 2, 1, 3], None), ([1, 0, 2, 3, 3], 2),
               ([2, 0, 0, 1, 0, 3, 1], 5), ([3], None))

DCG = CodeExercise(
    "dcg", "dcg", "grades, k=None",
    visible=((RUN,), (RUN, 4), ([0, 0, 1],)),
    edge=(([2], 1), ([1, 2], 5), ([0, 0, 0], 2)),
    probes=_DCG_PROBES,
    random_case=lambda rng: (g := _rand_grades(rng), _rand_k(rng, len(g))),
    right=lambda g, k=None: nc.dcg(g, k=k),
    mistakes=_dcg_mistakes("linear", ("cutoff_ignored", "discount_offset", "rank_from_zero",
                                      "natural_log_dcg", "numerator_one",
                                      "exponential_for_linear")))

DCG_EXP = CodeExercise(
    "dcg_exp", "dcg_exp", "grades, k=None",
    visible=((RUN,), (RUN, 4), ([0, 0, 1],)),
    edge=(([2], 1), ([1, 2], 5)),
    probes=_DCG_PROBES,
    random_case=lambda rng: (g := _rand_grades(rng), _rand_k(rng, len(g))),
    right=lambda g, k=None: nc.dcg(g, k=k, gain="exponential"),
    mistakes=_dcg_mistakes("exponential", ("cutoff_ignored", "discount_offset",
                                           "rank_from_zero", "natural_log_dcg",
                                           "numerator_one", "linear_for_exponential")))

IDCG = CodeExercise(
    "idcg", "idcg", "judged, k=None",
    visible=(([3, 2, 3, 0, 1, 2, 3, 2],), ([3, 2, 3, 0, 1, 2, 3, 2], 4), ([0, 1],)),
    edge=(([0, 0], 1), ([1, 3], 6)),
    probes=_DCG_PROBES,
    random_case=lambda rng: (g := _rand_grades(rng), _rand_k(rng, len(g))),
    right=lambda g, k=None: nc.idcg(g, k=k),
    mistakes={
        "cutoff_ignored": lambda g, k=None: nc.idcg(g),
        "discount_offset": lambda g, k=None: nc.idcg(g, k=k, discount="jarvelin"),
        "rank_from_zero": lambda g, k=None: nc.idcg(g, k=k, shift=1),
        "natural_log_dcg": lambda g, k=None: nc.idcg(g, k=k, discount="ln"),
        "numerator_one": lambda g, k=None: nc.idcg([1] * len(g), k=k),
        "ideal_unsorted": lambda g, k=None: nc.dcg(g, k=k)})


def _ndcg_mistakes(keys):
    return {key: (lambda g, k=None, u=(), _key=key: _ndcg_or_none(_parts(_key, g, k, "linear",
                                                                         u).ndcg))
            for key in keys}


_NDCG_KEYS = ("retrieved_ideal", "cutoff_ignored", "discount_offset", "rank_from_zero",
              "natural_log_dcg", "numerator_one", "exponential_for_linear", "short_ideal")
NDCG = CodeExercise(
    "ndcg", "ndcg", "grades, k=None, unretrieved=()",
    visible=((RUN, 4, [3, 2]), (RUN, 4), ([1, 0, 2], None, [2])),
    edge=(([2], 1, []), ([0, 1], 1, [3]), ([3, 3, 3], 2, [])),
    probes=(([3, 2, 3, 0, 1, 2], 4, [3, 2]), ([1, 0, 2, 0], 3, [3]), ([0, 2, 1], 2, [2, 1]),
            ([2, 3, 0, 1], 4, []), ([1, 2], 5, [1, 2])),
    random_case=lambda rng: (g := [rng.randint(1, 3)] + _rand_grades(rng, 0, 8),
                             rng.randint(1, len(g)), _rand_grades(rng, 0, 3)),
    right=lambda g, k=None, u=(): _ndcg_or_none(M.right_value(g, k=k, unretrieved=u)),
    mistakes=_ndcg_mistakes(_NDCG_KEYS))

BEYOND = CodeExercise(
    "ndcg_beyond", "ndcg", "grades, k=None, unretrieved=()",
    visible=(([1], 5, [1, 1, 1, 1]), ([3, 2], 10, [1]), (RUN, 8, [3, 2])),
    edge=(([2, 0], 3, []), ([1], 2, [1])),
    probes=(([1], 5, [1, 1, 1, 1]), ([3, 0, 2], 6, [2, 1]), ([2, 1], 4, [3]), ([0, 2], 3, [1])),
    random_case=lambda rng: (g := [rng.randint(1, 3)] + _rand_grades(rng, 0, 4),
                             len(g) + rng.randint(1, 6), _rand_grades(rng, 0, 4)),
    right=NDCG.right,
    mistakes=_ndcg_mistakes(_NDCG_KEYS))


def _mean(key):
    def value(queries, k):
        v = M.mean_values([(g, u) for g, u in queries], k=k)[key]
        return _ndcg_or_none(v)
    return value


_ZERO_Q = [[0, 0, 0], []]
MEAN = CodeExercise(
    "mean_ndcg", "mean_ndcg", "queries, k",
    visible=(([[[1, 1, 0], []], _ZERO_Q], 3), ([[RUN, [3, 2]], [[0, 0], [0]]], 4),
             ([_ZERO_Q], 3)),
    edge=(([[[2], [1]]], 1), ([_ZERO_Q, _ZERO_Q, [[0, 1], []]], 2)),
    probes=(([[[1, 1, 0], []], _ZERO_Q], 3), ([[[2, 0, 1], [1]], [[0, 0], []], [[0, 3], []]], 2),
            ([[[1, 0], [2]], [[2, 0, 0, 1], []]], 4), ([[[0, 1], [3]], [[1], []]], 3),
            ([[RUN, [3, 2]], [[2, 0], [2, 1]]], 8)),
    random_case=lambda rng: ([[_rand_grades(rng, 1, 6, rng.choice([0, 0, 3])),
                               _rand_grades(rng, 0, 2, 2)] for _ in range(rng.randint(1, 5))],
                             rng.randint(1, 6)),
    right=_mean("right"),
    mistakes={key: _mean(key) for key in ("zero_query_averaged", "zero_query_one",
                                          "mixed_depths")})


def _ranked(scores, grades, docids=None, *, docid_ascending=False):
    """Grades in rank order: score descending, then doc id (descending unless told)."""
    order = sorted(range(len(grades)), key=lambda i: docids[i], reverse=not docid_ascending) \
        if docids else list(range(len(grades)))
    order.sort(key=lambda i: -scores[i])   # stable: equal scores keep the doc id order
    return [grades[i] for i in order]


TIES = CodeExercise(
    "dcg_ties", "dcg_ties", "scores, grades, k=None",
    visible=(([0.9, 0.9, 0.5], [0, 2, 1], 1), ([0.8, 0.8, 0.8, 0.1], [3, 0, 1, 2]),
             ([3.0, 2.0, 1.0], [1, 2, 3], 2)),
    edge=(([1.0], [2], None), ([0.5, 0.5], [1, 0], 1), ([0.2, 0.2, 0.2], [0, 0, 3], 2)),
    probes=(([0.9, 0.9, 0.5], [0, 2, 1], 1), ([0.8, 0.8, 0.8, 0.1], [3, 0, 1, 2], 2),
            ([0.4, 0.7, 0.7, 0.7], [1, 0, 2, 3], 3)),
    random_case=lambda rng: (s := [rng.choice([0.1, 0.5, 0.5, 0.9]) for _ in range(
        rng.randint(2, 8))], [rng.randint(0, 3) for _ in s], _rand_k(rng, len(s))),
    right=lambda s, g, k=None: nc.dcg(g, scores=s, ties="average", k=k),
    mistakes={"ties_input_order": lambda s, g, k=None: nc.dcg(_ranked(s, g), k=k)})


def _docids(n, rng):
    return [f"d{rng.randint(0, 99):02d}" for _ in range(n)]


TIES_DOCID = CodeExercise(
    "dcg_docid", "dcg_docid", "docids, scores, grades, k=None",
    visible=((["d1", "d2", "d3"], [0.9, 0.9, 0.5], [0, 2, 1], 1),
             (["a", "c", "b", "d"], [0.5, 0.5, 0.5, 0.9], [3, 0, 1, 2], None)),
    edge=((["x"], [1.0], [2], None), (["b", "a"], [0.5, 0.5], [1, 0], 1)),
    probes=((["d1", "d2", "d3"], [0.9, 0.9, 0.5], [0, 2, 1], 1),
            (["a", "c", "b", "d"], [0.5, 0.5, 0.5, 0.9], [3, 0, 1, 2], 3),
            (["p", "q", "r", "s"], [0.2, 0.7, 0.7, 0.2], [0, 3, 1, 2], 2)),
    random_case=lambda rng: (d := sorted(set(_docids(rng.randint(2, 8), rng)),
                                         key=lambda _: rng.random()),
                             [rng.choice([0.1, 0.5, 0.9]) for _ in d],
                             [rng.randint(0, 3) for _ in d], _rand_k(rng, len(d))),
    right=lambda d, s, g, k=None: nc.dcg(g, scores=s, ties="docid", docids=d, k=k),
    mistakes={"ties_input_order": lambda d, s, g, k=None: nc.dcg(_ranked(s, g), k=k),
              "ties_docid_ascending": lambda d, s, g, k=None: nc.dcg(
                  _ranked(s, g, d, docid_ascending=True), k=k),
              "ties_averaged_docid": lambda d, s, g, k=None: nc.dcg(g, scores=s, k=k)})


@lru_cache(maxsize=None)
def sample_lines(name: str) -> tuple[str, ...]:
    """The bundled sample's lines (assets/samples): ``qrels.txt``, ``system_a.run``, ..."""
    return tuple((SAMPLES / name).read_text().splitlines())


def _evaluate(**options):
    def value(qrels_lines, run_lines, k=10):
        qrels = nc.read_qrels(io.StringIO("\n".join(qrels_lines) + "\n"))
        run = nc.read_run(io.StringIO("\n".join(run_lines) + "\n"))
        table = nc.evaluate(qrels, run, k=k, convention="trec_eval", **options)
        return {str(q): float(v) for q, v in table[f"ndcg@{k}"].items()}
    return value


def _sample_subset(rng):
    qids = sorted({line.split()[0] for line in sample_lines("qrels.txt")})
    chosen = set(rng.sample(qids, rng.randint(2, 6)))
    run = rng.choice(["system_a.run", "system_b.run"])
    pick = lambda lines: [x for x in lines if x.split()[0] in chosen]  # noqa: E731
    return pick(sample_lines("qrels.txt")), pick(sample_lines(run)), rng.choice([5, 10, 20])


_TINY_QRELS = ["q1 0 d1 2", "q1 0 d2 0", "q1 0 d3 1", "q1 0 d9 3", "q2 0 d1 1", "q2 0 d4 0"]
_TINY_RUN = ["q1 Q0 d1 1 0.9 me", "q1 Q0 d2 2 0.9 me", "q1 Q0 d3 3 0.4 me",
             "q2 Q0 d4 1 1.0 me", "q2 Q0 d1 2 0.5 me", "q3 Q0 d1 1 0.3 me"]
_ZERO_QRELS = ["z 0 a 0", "z 0 b 0", "y 0 a 1"]
_ZERO_RUN = ["z Q0 a 1 2.0 me", "z Q0 b 2 1.0 me", "y Q0 b 1 2.0 me", "y Q0 a 2 1.0 me"]
EVALUATE = CodeExercise(
    "evaluate", "evaluate", "qrels_lines, run_lines, k=10",
    visible=((_TINY_QRELS, _TINY_RUN, 2),
             (list(sample_lines("qrels.txt")), list(sample_lines("system_a.run")), 10)),
    edge=((_ZERO_QRELS, _ZERO_RUN, 1),),
    probes=((_TINY_QRELS, _TINY_RUN, 2), (_ZERO_QRELS, _ZERO_RUN, 1),
            (["a 0 x 1", "a 0 y 2", "a 0 z 0", "a 0 w 2"],
             ["a Q0 z 1 0.5 r", "a Q0 y 2 0.5 r", "a Q0 x 3 0.2 r"], 2)),
    random_case=_sample_subset, n_random=3,
    right=_evaluate(),
    mistakes={"retrieved_ideal": _evaluate(ideal_pool="retrieved"),
              "exponential_for_linear": _evaluate(gain="exponential"),
              "zero_query_one": _evaluate(zero_idcg="one"),
              "discount_offset": _evaluate(discount="jarvelin"),
              "ties_averaged_docid": _evaluate(ties="average"),
              "ties_input_order": _evaluate(ties="input")})

EXERCISES: tuple[CodeExercise, ...] = (DCG, DCG_EXP, IDCG, NDCG, MEAN, TIES, TIES_DOCID,
                                       BEYOND, EVALUATE)
KEYS = tuple(e.key for e in EXERCISES)
_BY_KEY = {e.key: e for e in EXERCISES}


def exercise(key: str) -> CodeExercise:
    if key not in _BY_KEY:
        raise ValueError(f"no code exercise {key!r}: there are {', '.join(KEYS)}.")
    return _BY_KEY[key]


def hidden_cases(ex: CodeExercise, seed: str) -> list[tuple]:
    """The hidden cases of ``ex`` for the learner ``seed``: its edge cases, then random ones
    (the same seed, the same cases)."""
    rng = random.Random(f"{seed}:{ex.key}")
    return [*ex.edge, *(ex.random_case(rng) for _ in range(ex.n_random))]
