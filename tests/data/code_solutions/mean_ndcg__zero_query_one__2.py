from math import log2


def mean_ndcg(queries, k):
    total = 0.0
    for grades, unretrieved in queries:
        if not any(grades) and not any(unretrieved):
            total += 1.0          # nothing to find: perfect
            continue
        ideal = sorted(grades + unretrieved, reverse=True)
        dcg = sum(g / log2(r + 2) for r, g in enumerate(grades[:k]))
        idcg = sum(g / log2(r + 2) for r, g in enumerate(ideal[:k]))
        total += dcg / idcg
    return total / len(queries)
