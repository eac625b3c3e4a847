"""The formula written out with a ranking's numbers: DCG's and IDCG's sums and the NDCG
ratio, as plain text (handouts, slide images) and as LaTeX (to copy into slides).

Every number is the engine's: the terms are a ``dcg_table``'s / ``ideal_table``'s rows
within k, the totals their cumulative DCG, the ratio ``ndcg_parts``.
"""

from __future__ import annotations

import ndcg_core as nc
from lab.gains import GAINS
from lab.text import fmt, fmt_grade


def _rows(frame):
    return frame[frame["in_cutoff"]]


def sum_line(frame, name: str, k: int, gain: str) -> str:
    """A DCG sum written out from a table's rows within k.

    >>> sum_line(nc.dcg_table([3, 2, 3, 0], k=3), "DCG", 3, "linear")
    'DCG@3 = 3/log₂2 + 2/log₂3 + 3/log₂4 = 3.000 + 1.262 + 1.500 = 5.762'
    >>> sum_line(nc.dcg_table([1, 2], k=2, gain="exponential"), "DCG", 2, "exponential")
    'DCG@2 = (2^1−1)/log₂2 + (2^2−1)/log₂3 = 1.000 + 1.893 = 2.893'
    """
    rows = _rows(frame)
    if rows.empty:
        return f"{name}@{k} = 0"
    terms = []
    for r in rows.itertuples():
        num = GAINS[gain].numerator.format(g=fmt_grade(r.relevance))
        terms.append(f"{num}/log₂{int(r.position) + 1}")
    values = " + ".join(fmt(c) for c in rows["contribution"])
    return f"{name}@{k} = {' + '.join(terms)} = {values} = {fmt(rows['cumulative_dcg'].iloc[-1])}"


def ratio_line(parts: nc.NDCGParts, k: int) -> str:
    """NDCG@k as the ratio of the two sums.

    >>> ratio_line(nc.ndcg_parts([3, 2, 3, 0, 1, 2], k=4), 4)
    'NDCG@4 = DCG@4 / IDCG@4 = 5.762 / 6.754 = 0.853'
    """
    if parts.idcg > 0:
        return (f"NDCG@{k} = DCG@{k} / IDCG@{k} = {fmt(parts.dcg)} / {fmt(parts.idcg)} = "
                f"{fmt(parts.ndcg)}")
    return f"IDCG@{k} = 0 ⇒ NDCG@{k} = {fmt(parts.ndcg)}"


def _latex_sum(frame, name: str, k: int, gain: str) -> str:
    rows = _rows(frame)
    terms = []
    for r in rows.itertuples():
        g = fmt_grade(r.relevance)
        num = GAINS[gain].numerator_latex.format(g=g)
        terms.append(rf"\frac{{{num}}}{{\log_2 {int(r.position) + 1}}}")
    total = fmt(rows["cumulative_dcg"].iloc[-1]) if len(rows) else "0"
    return rf"\mathrm{{{name}@{k}}} &= {' + '.join(terms) or '0'} = {total}"


def latex(grades, *, k: int, gain: str, judged=None) -> str:
    """The whole formula as LaTeX (an ``aligned`` block): DCG's sum, IDCG's sum, the ratio.

    >>> print(latex([2, 1], k=2, gain="linear"))
    \\begin{aligned}
    \\mathrm{DCG@2} &= \\frac{2}{\\log_2 2} + \\frac{1}{\\log_2 3} = 2.631 \\\\
    \\mathrm{IDCG@2} &= \\frac{2}{\\log_2 2} + \\frac{1}{\\log_2 3} = 2.631 \\\\
    \\mathrm{NDCG@2} &= \\frac{2.631}{2.631} = 1.000
    \\end{aligned}
    """
    grades = list(grades)
    ideal = list(judged) if judged else None
    ranking = nc.dcg_table(grades, k=k, gain=gain)
    best = nc.ideal_table(grades, k=k, gain=gain, ideal=ideal)
    parts = nc.ndcg_parts(grades, k=k, gain=gain, ideal=ideal)
    ratio = (rf"\mathrm{{NDCG@{k}}} &= \frac{{{fmt(parts.dcg)}}}{{{fmt(parts.idcg)}}} = "
             rf"{fmt(parts.ndcg)}" if parts.idcg > 0 else
             rf"\mathrm{{NDCG@{k}}} &= {fmt(parts.ndcg)}")
    lines = [_latex_sum(ranking, "DCG", k, gain), _latex_sum(best, "IDCG", k, gain), ratio]
    return "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}"
