import math


def dcg_exp(grades, k=None):
    top = grades if k is None else grades[:k]
    return sum(g / math.log2(i + 2) for i, g in enumerate(top))
