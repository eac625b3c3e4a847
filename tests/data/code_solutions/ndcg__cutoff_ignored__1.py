import math


def ndcg(grades, k=None, unretrieved=()):
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(grades))
    ideal = sorted([*grades, *unretrieved], reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else None
