"""Command line: ``python -m ndcg_core table ...`` and ``python -m ndcg_core evaluate ...``."""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

from . import dcg_table, evaluate, idcg, ndcg, read_qrels, read_run
from ._decode import ATOL_GRADES
from ._ranking import _atol_grades
from .options import CONVENTIONS, OPTIONS


TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's ndcg_cut default


def _cutoff_list(spec, measure):
    """'5,10' -> [5, 10]: whole numbers >= 1, each once (trec_eval refuses repeats)."""
    cutoffs = []
    for tok in spec.split(","):
        if not tok.isdigit() or int(tok) < 1:
            raise ValueError(f"cutoff {tok!r} in {measure!r} is not a whole number >= 1.")
        if int(tok) in cutoffs:
            raise ValueError(f"cutoff {int(tok)} appears twice in {measure!r}: give each "
                             "cutoff once (trec_eval refuses duplicate cutoffs too).")
        cutoffs.append(int(tok))
    return cutoffs


def _gain_pairs(spec, measure):
    """'1=3,2=9' -> {1: 3.0, 2: 9.0}: trec_eval's ndcg gain parameters (m_ndcg.c).

    trec_eval orders gain levels for its ideal with a comparator that truncates the gain
    difference to an int (gain_init.c, comp_rel_gain), so gains less than 1 apart can be
    ordered wrongly there; the ideal here is always sorted by gain.
    """
    pairs = {}
    for part in spec.split(","):
        level, sep, value = part.partition("=")
        try:
            gain = float(value)
        except ValueError:
            gain = None
        if not sep or not level.lstrip("+").isdigit() or gain is None or not np.isfinite(gain):
            raise ValueError(
                f"{part!r} in {measure!r} is not a grade=gain pair: write pairs such as "
                "ndcg.1=3,2=9 (a whole grade >= 0, then its gain); unlisted grades keep "
                "gain = grade.")
        if int(level) in pairs:
            raise ValueError(f"grade {int(level)} is given two gains in {measure!r}.")
        pairs[int(level)] = gain
    return pairs


def _measures(texts):
    """Parse trec_eval -m values: 'ndcg', 'ndcg.1=3,2=9', 'ndcg_cut', 'ndcg_cut.5,10'.

    Returns ``(ndcg, cutoffs)``: ``ndcg`` is None (not asked), ``(name, None)`` or
    ``(name, {grade: gain})``; ``cutoffs`` ascending, as trec_eval prints them.
    """
    ndcg, cutoffs, seen = None, None, {}
    for text in texts:
        for measure in text.replace(";", " ").split():
            base, dot, spec = measure.partition(".")
            if base not in ("ndcg", "ndcg_cut"):
                raise ValueError(f"unknown measure {measure!r}: use ndcg, ndcg.1=3,2=9, "
                                 "ndcg_cut or ndcg_cut.5,10.")
            if dot and not spec:
                raise ValueError(f"{measure!r} has nothing after the dot: write e.g. "
                                 f"{base}.{'1=3,2=9' if base == 'ndcg' else '5,10'}.")
            if base in seen:
                # trec_eval would silently keep the first one's parameters only
                raise ValueError(f"{base} is asked twice ({seen[base]!r} and {measure!r}): "
                                 "give it once, with all its parameters "
                                 f"(e.g. -m {base}.{'1=3,2=9' if base == 'ndcg' else '5,10'}).")
            seen[base] = measure
            if base == "ndcg":
                ndcg = (f"ndcg_{spec}" if spec else "ndcg", _gain_pairs(spec, measure)
                        if spec else None)
            else:
                cutoffs = sorted(_cutoff_list(spec, measure) if spec else TREC_CUTOFFS)
    return ndcg, cutoffs


def _gain_map(qrels, pairs, convention):
    """trec_eval's gains: each grade its own value unless listed (m_ndcg.c, setup_gains)."""
    grades = pd.to_numeric(qrels["relevance"], errors="coerce").to_numpy(dtype=float)
    if CONVENTIONS[convention]["fractional"] == "truncate":
        if qrels.attrs.get(ATOL_GRADES):  # "1e1" is grade 1 to trec_eval
            grades = _atol_grades(grades, qrels)
        grades = np.trunc(grades) + 0.0
    gains = {0: 0.0}
    for g in np.unique(grades[np.isfinite(grades)]):
        gains[int(g) if float(g).is_integer() else float(g)] = float(g)
    gains.update(pairs)
    return gains


def _table(args):
    kw = dict(gain=args.gain, discount=args.discount, base=args.base, negative=args.negative)
    table = dcg_table(args.grades, k=args.k, **kw)
    pd.set_option("display.width", 120)
    print(table.round(3).to_string(index=False))
    k = "" if args.k is None else f"@{args.k}"
    d = float(table.loc[table["in_cutoff"], "cumulative_dcg"].iloc[-1])
    i = idcg(args.grades, k=args.k, **kw)
    n = ndcg(args.grades, k=args.k, zero_idcg=args.zero_idcg, **kw)
    print(f"\nDCG{k} = {d:.4f}\nIDCG{k} = {i:.4f}\nNDCG{k} = {n:.4f}")


NO_OVERLAP = "No queries with both results and relevance info"  # trec_eval's words


def _evaluate(args):
    qrels, run = read_qrels(args.qrels), read_run(args.run)
    ndcg, cutoffs = _measures(args.measure or ["ndcg", "ndcg_cut"])
    kw = dict(convention=args.convention, missing="zero" if args.complete else "skip",
              judged_only=args.judged_only, depth=args.depth)
    columns = []  # (printed name, values per query), in trec_eval's order
    if ndcg is not None:
        name, pairs = ndcg
        gain = None if pairs is None else _gain_map(qrels, pairs, args.convention)
        res = evaluate(qrels, run, k=None, gain=gain, **kw)
        columns.append((name, res["ndcg"]))
    if cutoffs:
        res = evaluate(qrels, run, k=cutoffs, **kw)
        columns += [(f"ndcg_cut_{c}", res[f"ndcg@{c}"]) for c in cutoffs]
    # with -c, trec_eval 10.0 scores every judged query (an empty ranking each) even when
    # the run shares none of them (trec_eval.c: average_complete_flag); 9.0.8 stops here
    if not args.complete and set(res.index) <= set(res.attrs["missing_queries"]):
        raise ValueError(NO_OVERLAP + " (the run's query ids are not in the judgments).")
    lines = []
    if args.per_query:
        for qid in res.index:
            lines += [f"{name:<22}\t{qid}\t{values[qid]:.4f}" for name, values in columns]
    lines += [f"{name:<22}\tall\t{values.mean():.4f}" for name, values in columns]
    print("\n".join(lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ndcg_core",
                                     description="NDCG tables and trec_eval-style evaluation.")
    sub = parser.add_subparsers(dest="command", required=True)

    t = sub.add_parser("table", help="print the DCG table of one ranking and its totals")
    t.add_argument("grades", nargs="+", type=float, help="grades in ranked order")
    t.add_argument("--k", type=int, default=None)
    for name in ("gain", "discount", "negative", "zero_idcg"):
        opt = OPTIONS[name]
        t.add_argument(f"--{name.replace('_', '-')}", dest=name, choices=list(opt.choices),
                       default=opt.default, help=opt.description)
    t.add_argument("--base", type=float, default=2.0, help="base b of the jarvelin discount")
    t.set_defaults(func=_table)

    e = sub.add_parser(
        "evaluate", help="per-query NDCG, printed like trec_eval",
        description="NDCG as trec_eval prints it: 'ndcg' first, then 'ndcg_cut_K' by "
                    "ascending K, per query with -q, then 'all' (the mean).")
    e.add_argument("qrels")
    e.add_argument("run")
    e.add_argument("-m", "--measure", action="append",
                   help="ndcg, ndcg.1=3,2=9 (gain per grade; unlisted grades keep gain = "
                        "grade; the gains apply to ndcg only, as in trec_eval), ndcg_cut or "
                        "ndcg_cut.5,10 (each cutoff once). Repeatable, each measure once; "
                        "default: ndcg and ndcg_cut at 5,10,15,20,30,100,200,500,1000")
    e.add_argument("-q", "--per-query", action="store_true", help="print each query too")
    e.add_argument("-c", "--complete", action="store_true",
                   help="judged queries missing from the run count as 0, also when "
                        "the run shares no query with the judgments (trec_eval 10.0; "
                        "trec_eval 9.0.8 stops there with 'No queries with both results "
                        "and relevance info')")
    e.add_argument("-J", "--judged-only", action="store_true",
                   help="drop unjudged documents from each ranking before cutting at k")
    e.add_argument("-M", "--max-depth", dest="depth", type=int, default=None,
                   help="keep only the top N documents of each query's ranking")
    e.add_argument("--convention", choices=sorted(CONVENTIONS), default="trec_eval",
                   help="trec_eval (10.x: scores as doubles) or pytrec_eval (trec_eval 9: "
                        "scores as 32-bit floats), or another library's NDCG")
    e.set_defaults(func=_evaluate)

    args = parser.parse_args(argv)
    try:
        args.func(args)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
