import math


def one(grades, k, unretrieved):
    d = sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]))
    ideal = sorted([*grades, *unretrieved], reverse=True)[:k]
    i = sum(g / math.log2(j + 2) for j, g in enumerate(ideal))
    return d / i if i > 0 else 0.0


def mean_ndcg(queries, k):
    return sum(one(g, k, u) for g, u in queries) / len(queries)
