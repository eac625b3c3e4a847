import math

def dcg(grades, k=None):
    top = list(grades)[: k or len(grades)]
    discounts = [1 / math.log(r + 1, 2) for r in range(1, len(top) + 1)]
    return float(sum(map(lambda p: p[0] * p[1], zip(top, discounts))))
