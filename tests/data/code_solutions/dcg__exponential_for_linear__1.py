import math


def dcg(grades, k=None):
    top = grades if k is None else grades[:k]
    return sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(top))
