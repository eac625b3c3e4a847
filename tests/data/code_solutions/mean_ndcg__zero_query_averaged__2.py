from math import log2
from statistics import mean


def mean_ndcg(queries, k):
    scores = []
    for grades, unretrieved in queries:
        ideal = sorted(grades + unretrieved, reverse=True)
        dcg = sum(g / log2(r + 2) for r, g in enumerate(grades[:k]))
        idcg = sum(g / log2(r + 2) for r, g in enumerate(ideal[:k]))
        try:
            scores.append(dcg / idcg)
        except ZeroDivisionError:
            scores.append(0)
    return mean(scores)
