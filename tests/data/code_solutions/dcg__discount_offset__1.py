import math


def dcg(grades, k=None):
    grades = grades if k is None else grades[:k]
    total = grades[0] if grades else 0
    for i in range(2, len(grades) + 1):
        total += grades[i - 1] / math.log2(i)
    return total
