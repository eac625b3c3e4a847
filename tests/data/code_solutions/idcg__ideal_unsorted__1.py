import math


def idcg(judged, k=None):
    top = judged if k is None else judged[:k]
    return sum(g / math.log2(i + 2) for i, g in enumerate(top))
