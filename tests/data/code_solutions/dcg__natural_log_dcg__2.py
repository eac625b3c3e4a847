from math import log1p


def dcg(grades, k=None):
    top = grades if k is None else grades[:k]
    return sum(rel / log1p(rank) for rank, rel in enumerate(top, 1))
