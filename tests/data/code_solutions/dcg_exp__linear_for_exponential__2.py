from math import log2


def gain(g):
    return g


def dcg_exp(grades, k=None):
    n = len(grades) if k is None else min(len(grades), k)
    s = 0.0
    for i in range(n):
        s += gain(grades[i]) / log2(i + 2)
    return s
