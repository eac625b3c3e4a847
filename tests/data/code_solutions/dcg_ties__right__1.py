import math
from itertools import groupby


def dcg_ties(scores, grades, k=None):
    n = len(grades) if k is None else min(k, len(grades))
    order = sorted(range(len(grades)), key=lambda i: -scores[i])
    total, pos = 0.0, 0
    for _, group in groupby(order, key=lambda i: scores[i]):
        group = list(group)
        mean_gain = sum(grades[i] for i in group) / len(group)
        for _ in group:
            if pos < n:
                total += mean_gain / math.log2(pos + 2)
            pos += 1
    return total
