import math


def _dcg(gs, k):
    return sum(g / math.log2(i + 2) for i, g in enumerate(gs[:k]))


def ndcg(grades, k=None, unretrieved=()):
    ideal = sorted(grades, reverse=True)
    best = _dcg(ideal, k)
    return _dcg(list(grades), k) / best if best > 0 else None
