from math import log2


def dcg(grades, k=None):
    total = 0
    i = 0
    while i < len(grades):
        total += grades[i] / log2(i + 2)
        i += 1
    return total
