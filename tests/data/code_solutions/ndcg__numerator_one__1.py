import math


def ndcg(grades, k=None, unretrieved=()):
    hits = len(grades[:k])
    n_ideal = len(list(grades) + list(unretrieved))
    if k is not None:
        n_ideal = min(n_ideal, k)
    dcg = sum(1 / math.log2(r + 1) for r in range(1, hits + 1))
    idcg = sum(1 / math.log2(r + 1) for r in range(1, n_ideal + 1))
    return dcg / idcg if idcg else None
