import math
from collections import defaultdict


def evaluate(qrels_lines, run_lines, k=10):
    judged = defaultdict(dict)
    for line in qrels_lines:
        qid, _, doc, rel = line.split()
        judged[qid][doc] = max(int(rel), 0)
    ranked = defaultdict(list)
    for line in run_lines:
        qid, _, doc, _, score, _ = line.split()
        ranked[qid].append((float(score), doc))
    out = {}
    for qid, docs in ranked.items():
        if qid not in judged:
            continue
        docs.sort(reverse=True)
        gains = [judged[qid].get(doc, 0) for _, doc in docs[:k]]
        dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
        ideal = sorted(judged[qid].values(), reverse=True)[:k]
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        out[qid] = dcg / idcg if idcg > 0 else 1.0
    return out
