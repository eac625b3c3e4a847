"""Command line: ``python -m ndcg_core table ...`` and ``python -m ndcg_core evaluate ...``."""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from . import dcg_table, evaluate, idcg, ndcg, read_qrels, read_run
from .options import CONVENTIONS, OPTIONS


def _measures(text):
    """Parse trec_eval-style measures: 'ndcg', 'ndcg_cut.5,10' -> list of cutoffs."""
    cutoffs = []
    for part in text.split():
        for measure in part.split(";"):
            if measure == "ndcg":
                cutoffs.append(None)
            elif measure.startswith("ndcg_cut"):
                spec = measure[len("ndcg_cut"):].lstrip(".")
                for tok in (spec or "5,10,15,20,30,100,200,500,1000").split(","):
                    if not tok.isdigit() or int(tok) < 1:
                        raise ValueError(f"cutoff {tok!r} in {measure!r} is not a whole "
                                         "number >= 1.")
                    cutoffs.append(int(tok))
            else:
                raise ValueError(f"unknown measure {measure!r}: use ndcg or ndcg_cut.5,10.")
    return cutoffs


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


def _evaluate(args):
    qrels, run = read_qrels(args.qrels), read_run(args.run)
    cutoffs = []
    for m in args.measure or ["ndcg", "ndcg_cut"]:
        cutoffs += _measures(m)
    res = evaluate(qrels, run, k=cutoffs, convention=args.convention,
                   missing="zero" if args.complete else "skip")
    names = {c: ("ndcg" if c is None else f"ndcg_cut_{c}") for c in cutoffs}
    cols = {c: ("ndcg" if c is None else f"ndcg@{c}") for c in cutoffs}
    lines = []
    if args.per_query:
        for qid, row in res.iterrows():
            lines += [f"{names[c]:<22}\t{qid}\t{row[cols[c]]:.4f}" for c in cutoffs]
    for c in cutoffs:
        lines.append(f"{names[c]:<22}\tall\t{res[cols[c]].mean():.4f}")
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

    e = sub.add_parser("evaluate", help="per-query NDCG, printed like trec_eval")
    e.add_argument("qrels")
    e.add_argument("run")
    e.add_argument("-m", "--measure", action="append",
                   help="ndcg or ndcg_cut.5,10 (repeatable; default both)")
    e.add_argument("-q", "--per-query", action="store_true", help="print each query too")
    e.add_argument("-c", "--complete", action="store_true",
                   help="judged queries missing from the run count as 0")
    e.add_argument("--convention", choices=sorted(CONVENTIONS), default="trec_eval")
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
