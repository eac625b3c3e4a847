from math import log


def dcg(grades, k=None):
    n = len(grades) if k is None else min(k, len(grades))
    total = 0.0
    for rank in range(n):
        total += grades[rank] / (log(rank + 2) / log(2))
    return total
