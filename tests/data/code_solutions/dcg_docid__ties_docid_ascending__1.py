import math


def dcg_docid(docids, scores, grades, k=None):
    rows = sorted(zip(docids, scores, grades), key=lambda r: (-r[1], r[0]))
    ranked = [g for _, _, g in rows][:k]
    return sum(g / math.log2(i + 2) for i, g in enumerate(ranked))
