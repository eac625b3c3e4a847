import numbers
from math import log, log2


def discounted(gs, log_fn):
    return sum(g / log_fn(r + 1) for r, g in enumerate(gs, 1))


def ndcg(grades, k=None, unretrieved=()):
    pool = sorted(list(grades) + list(unretrieved), reverse=True)
    idcg = discounted(pool[:k], log2)
    if not idcg:
        return None
    return discounted(grades[:k], log) / idcg
