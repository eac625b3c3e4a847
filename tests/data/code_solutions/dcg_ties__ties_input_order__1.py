import math


def dcg_ties(scores, grades, k=None):
    ranked = [g for _, g in sorted(zip(scores, grades), key=lambda p: -p[0])]
    if k is not None:
        ranked = ranked[:k]
    return sum(g / math.log2(i + 2) for i, g in enumerate(ranked))
