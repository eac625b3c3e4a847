import math


def ndcg(grades, k=None, unretrieved=()):
    top = grades[:k]
    dcg = sum(g / math.log(i + 2) for i, g in enumerate(top))
    ideal = sorted([*grades, *unretrieved], reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else None
