import math


def idcg(judged, k=None):
    best = sorted(judged, reverse=True)
    return sum(g / math.log2(i + 2) for i, g in enumerate(best))
