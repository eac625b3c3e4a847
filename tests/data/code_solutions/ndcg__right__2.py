from math import log2, nan


def ndcg(grades, k=None, unretrieved=()):
    k = k or len(grades) + len(unretrieved)
    disc = [1 / log2(r + 1) for r in range(1, k + 1)]
    dcg = sum(g * d for g, d in zip(grades, disc))
    pool = sorted([*grades, *unretrieved], reverse=True)
    idcg = sum(g * d for g, d in zip(pool, disc))
    if idcg == 0:
        return nan
    return dcg / idcg
