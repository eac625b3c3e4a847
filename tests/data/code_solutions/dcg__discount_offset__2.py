import math


def dcg(grades, k=None):
    out = 0.0
    for rank, rel in enumerate(grades[:k], 1):
        out += rel / max(1.0, math.log2(rank))
    return out
