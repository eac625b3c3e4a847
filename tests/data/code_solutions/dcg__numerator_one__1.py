import math


def dcg(grades, k=None):
    top = grades if k is None else grades[:k]
    # every judged item is a hit
    return sum(1 / math.log2(rank + 1) for rank, _ in enumerate(top, 1))
