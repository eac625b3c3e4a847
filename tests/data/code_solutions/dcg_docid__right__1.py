import math


def dcg_docid(docids, scores, grades, k=None):
    rows = sorted(zip(scores, docids, grades), reverse=True)   # score, then doc id, descending
    ranked = [g for _, _, g in rows][:k]
    return sum(g / math.log2(i + 2) for i, g in enumerate(ranked))
