"""The order in which ranx ranks a query's documents, ties included.

ranx sorts each query of a ``Run`` with ``np.argsort(-scores)`` compiled by numba
(``ranx.data_structures.common.sort_dict_by_value``). numba's argsort is its own quicksort
(``numba/misc/quicksort.py``, numba 0.68): an insertion sort, which is stable, for a list
of at most 15 items; above that, median-of-three partitioning, which is not. So equal scores
keep the order given only in queries of up to 15 documents.

This module re-implements that algorithm step for step in plain Python, so the
``ties='ranx'`` rule gives the very order ranx evaluates. It is only needed for queries of
16 or more documents holding tied scores: elsewhere any stable sort gives the same order.
"""

from __future__ import annotations

import numpy as np

SMALL = 15  # numba's SMALL_QUICKSORT: shorter stretches are insertion-sorted


def _insertion_sort(keys, order, low, high):
    for i in range(low + 1, high + 1):
        item = order[i]
        value = keys[item]
        j = i
        while j > low and value < keys[order[j - 1]]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = item


def _partition(keys, order, low, high):
    mid = (low + high) >> 1
    # median of three: low, mid, high
    if keys[order[mid]] < keys[order[low]]:
        order[low], order[mid] = order[mid], order[low]
    if keys[order[high]] < keys[order[mid]]:
        order[high], order[mid] = order[mid], order[high]
    if keys[order[mid]] < keys[order[low]]:
        order[low], order[mid] = order[mid], order[low]
    pivot = keys[order[mid]]
    order[high], order[mid] = order[mid], order[high]  # park the pivot at the end
    i, j = low, high - 1
    while True:
        while i < high and keys[order[i]] < pivot:
            i += 1
        while j >= low and pivot < keys[order[j]]:
            j -= 1
        if i >= j:
            break
        order[i], order[j] = order[j], order[i]
        i += 1
        j -= 1
    order[i], order[high] = order[high], order[i]
    return i


def numba_argsort(keys) -> np.ndarray:
    """Indices that sort ``keys`` ascending, in the order numba's ``np.argsort`` returns.

    >>> numba_argsort([2.0, 1.0, 2.0, 0.0]).tolist()   # up to 15 items: stable
    [3, 1, 0, 2]
    >>> numba_argsort([0.0] * 17)[:3].tolist()         # 17 equal keys: not the input order
    [15, 14, 13]
    """
    keys = [float(v) for v in keys]
    n = len(keys)
    order = list(range(n))
    if n < 2:
        return np.asarray(order, dtype=np.int64)
    stack = [(0, n - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= SMALL:
            i = _partition(keys, order, low, high)
            if high - i > i - low:  # keep the larger part for later, go on with the smaller
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        _insertion_sort(keys, order, low, high)
    return np.asarray(order, dtype=np.int64)


def ranx_order(scores) -> np.ndarray:
    """Positions of ``scores`` (one query, in the order given) as ranx ranks them."""
    return numba_argsort(-np.asarray(scores, dtype=np.float64))
