import math

def dcg(grades, k=None):
    n = len(grades) if k is None else min(k, len(grades))
    return sum([grades[r] / math.log(r + 3, 2) for r in range(n)])
