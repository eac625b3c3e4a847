import math


def dcg(grades, k=None):
    if k is not None:
        grades = grades[:k]
    return sum(g / math.log(i + 1) for i, g in enumerate(grades, start=1))
