from math import log2


def ndcg(grades, k=None, unretrieved=()):
    pool = sorted(list(grades) + list(unretrieved), reverse=True)
    dcg = idcg = 0.0
    for i, g in enumerate(grades):
        if k is not None and i >= k:
            break
        dcg += g / log2(i + 2)
        idcg += pool[i] / log2(i + 2)
    return dcg / idcg if idcg > 0 else None
