"""Input checks shared by the metric functions: every message names the bad value,
where it is, and how to fix it."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from .options import check_option

# 2**1024 overflows a float64; refuse before inf reaches a table.
MAX_EXP_GRADE = 1023


def as_numbers(values, name: str = "relevance") -> np.ndarray:
    """Return ``values`` as a 1-D float array, or raise ValueError naming the first bad entry."""
    if values is None or isinstance(values, (str, bytes, Mapping)) or np.isscalar(values):
        raise ValueError(f"{name} must be a list of numbers; got {values!r}.")
    arr = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a flat list of numbers; got shape {arr.shape}.")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: give at least one grade.")
    if arr.dtype.kind == "b":
        raise ValueError(
            f"{name} at position 1 is {bool(arr[0])!r}, a boolean: write grades as numbers "
            "(1 for relevant, 0 for not)."
        )
    if arr.dtype.kind in "iuf":
        out = arr.astype(np.float64)
    else:
        out = np.empty(arr.size, dtype=np.float64)
        for i, v in enumerate(arr):
            if isinstance(v, (bool, np.bool_)):
                raise ValueError(
                    f"{name} at position {i + 1} is {v!r}, a boolean: write grades as numbers "
                    "(1 for relevant, 0 for not)."
                )
            if not isinstance(v, numbers.Real):
                raise ValueError(
                    f"{name} at position {i + 1} is {v!r}, not a number: use numbers such as "
                    "0, 1, 2, 3."
                )
            try:
                out[i] = float(v)
            except OverflowError:  # a Python int beyond the float range, e.g. 10**400
                raise ValueError(
                    f"{name} at position {i + 1} is too large for a float: every value must "
                    "be a finite number."
                ) from None
    bad = ~np.isfinite(out)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"{name} at position {i + 1} is {out[i]}: every value must be a finite number."
        )
    return out


def apply_negative(grades: np.ndarray, negative: str, name: str = "relevance") -> np.ndarray:
    """Apply the negative-grade rule (``keep``, ``zero`` or ``error``)."""
    negative = check_option("negative", negative)
    neg = grades < 0
    if not neg.any() or negative == "keep":
        return grades
    if negative == "zero":
        return np.where(neg, 0.0, grades)
    i = int(np.argmax(neg))
    raise ValueError(
        f"{name} at position {i + 1} is {grades[i]:g}, a negative grade, refused with "
        "negative='error' (as scikit-learn does). Use negative='zero' to count it as 0 "
        "(trec_eval) or negative='keep' to use it as written."
    )


OVERFLOW = "the DCG overflows a float: use linear gain or smaller grades."


def gains_of(grades: np.ndarray, gain, name: str = "relevance", where=None) -> np.ndarray:
    """Turn grades into gains: ``linear`` rel, ``exponential`` 2^rel − 1, or a mapping.

    ``where(i)`` names the place of grade ``i`` in a message (default: "<name> at position
    i + 1"), so a list and a qrels file say where the bad grade is in their own terms.
    """
    gain = check_option("gain", gain)
    where = where or (lambda i: f"{name} at position {i + 1}")
    if isinstance(gain, Mapping):
        uniq, inv = np.unique(grades, return_inverse=True)
        out = []
        for j, g in enumerate(uniq):
            key = int(g) if float(g).is_integer() else g
            if key not in gain:
                i = int(np.argmax(inv == j))
                raise ValueError(
                    f"{where(i)} is {g:g}, a grade the gain mapping does not cover (it maps "
                    f"{sorted(gain)}): add a gain for it."
                )
            out.append(gain[key])
        # checked as given, so a gain such as 'x' or None is named rather than cast
        return as_numbers(np.asarray(out, dtype=object)[inv], "gain mapping values")
    if gain == "linear":
        return grades
    too_big = grades > MAX_EXP_GRADE
    if too_big.any():
        i = int(np.argmax(too_big))
        raise ValueError(
            f"{where(i)} is {grades[i]:g}: with exponential gain 2^{grades[i]:g}"
            f" − 1 overflows a float. Use linear gain, or grades of at most {MAX_EXP_GRADE}."
        )
    return np.exp2(grades) - 1.0


def check_k(k, n: int | None = None):
    """Return the effective cutoff: None means the whole list, k > n means n."""
    if k is None:
        return n
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise ValueError(f"k must be a whole number of at least 1, or None; got {k!r}.")
    if k < 1:
        raise ValueError(f"k must be at least 1 (the top k positions); got {k}.")
    return int(k) if n is None else min(int(k), n)


def check_base(base) -> float:
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or not np.isfinite(base) \
            or base <= 1:
        raise ValueError(f"base must be a number greater than 1; got {base!r}.")
    return float(base)


@lru_cache(maxsize=64)
def _denominators(n: int, discount: str, base: float, shift: int = 0) -> np.ndarray:
    # the C library's logarithms, one call per rank: correctly rounded in all but rare
    # cases and exact at powers of two (log2(8) is 3), whatever SIMD build numpy has
    ranks = range(1 + shift, n + 1 + shift)
    if discount == "log2":
        d = [math.log2(i + 1) for i in ranks]
    elif discount == "ln":
        d = [math.log(i + 1) for i in ranks]
    elif base == 2:  # Järvelin & Kekäläinen 2002: ranks below b are not discounted
        d = [1.0 if i < 2 else math.log2(i) for i in ranks]
    else:
        d = [1.0 if i < base else math.log(i) / math.log(base) for i in ranks]
    d = np.array(d, dtype=np.float64)
    d.setflags(write=False)
    return d


def denominators(n: int, discount: str = "log2", base: float = 2.0,
                 shift: int = 0) -> np.ndarray:
    """Discount denominators for ranks 1..n (the gain at rank i is divided by d[i-1]); with
    ``shift`` the ranks are moved down that many places first (rank i read as i + shift).

    >>> [round(float(d), 4) for d in denominators(3, "log2", shift=1)]  # log2(3), log2(4), log2(5)
    [1.585, 2.0, 2.3219]
    """
    discount = check_option("discount", discount)
    base = check_base(base)
    shift = check_option("shift", shift)
    # grow in powers of two so the cache is reused across list lengths
    size = 1 << max(4, int(n - 1).bit_length())
    return _denominators(size, discount, base if discount == "jarvelin" else 2.0, shift)[:n]
