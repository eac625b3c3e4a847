import math


def ndcg(grades, k=None, unretrieved=()):
    k = min(k or len(grades), len(grades))   # never past the list
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]))
    ideal = sorted([*grades, *unretrieved], reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else None
