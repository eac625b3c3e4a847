import math


def ndcg(grades, k=None, unretrieved=()):
    n = len(grades) if k is None else min(k, len(grades))
    disc = [math.log2(i + 2) for i in range(n)]
    dcg = sum(grades[i] / disc[i] for i in range(n))
    ideal = sorted(grades)[::-1]
    idcg = sum(ideal[i] / disc[i] for i in range(n))
    return dcg / idcg if idcg else float("nan")
