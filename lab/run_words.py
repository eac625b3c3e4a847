"""The headers of the "Evaluate your runs" tables as drawn, in English and 中文.

The page's tables keep their English column names (the tests, the CSV download and the
exports read them); in Chinese only the header drawn changes, through ``st.column_config``
labels. A run's name is data and comes first, as typed: "<run> retrieved" -> "<run> 检索到的
文档". No Streamlit here.
"""

from __future__ import annotations

import re

from lab.i18n import SOURCE, t


def _headers(lang: str) -> list:
    return [
        (r"queries", lambda v: t("queries", lang)),
        (r"relevant judged", lambda v: t("relevant judged", lang)),
        (r"preset", lambda v: t("preset", lang)),
        (r"system", lambda v: t("run", lang)),
        (r"spread", lambda v: t("spread", lang)),
        (r"sig\.", lambda v: t("sig.", lang)),
        (r"wins", lambda v: t("wins", lang)),
        (r"ties", lambda v: t("ties", lang)),
        (r"losses", lambda v: t("losses", lang)),
        (r"CI low", lambda v: t("CI low", lang)),
        (r"CI high", lambda v: t("CI high", lang)),
        (r"p \(adj\.\)", lambda v: t("p (adj.)", lang)),
        (r"baseline NDCG@(?P<k>\d+)", lambda v: t("baseline NDCG@{k}", lang, **v)),
        (r"(?P<run>.+) retrieved", lambda v: t("{run} retrieved", lang, **v)),
        (r"(?P<run>.*?) ?NDCG@(?P<k>\d+) unjudged=0",
         lambda v: t("{run} NDCG@{k} with unjudged as 0", lang, **v).strip()),
        (r"(?P<run>.*?) ?NDCG@(?P<k>\d+) unjudged=top",
         lambda v: t("{run} NDCG@{k} with unjudged as the top grade", lang, **v).strip()),
    ]


def header(column: str, *, lang: str) -> str:
    """A table column's header as drawn in ``lang`` (English: the column's own name;
    names that are notation, such as qid, run, NDCG@10, Judged@10, Δ, p, d_z, stay).

    >>> header("system_a.run retrieved", lang="zh")
    'system_a.run 检索到的文档'
    >>> header("NDCG@10 unjudged=0", lang="zh")
    'NDCG@10（未标注计为 0）'
    >>> header("NDCG@10", lang="zh"), header("queries", lang="en")
    ('NDCG@10', 'queries')
    """
    column = str(column)
    if lang == SOURCE:
        return column
    for pattern, wording in _headers(lang):
        found = re.fullmatch(pattern, column)
        if found:
            return wording(found.groupdict())
    return column

def file_counts(queries: int, lines: int, *, lang: str, low: float | None = None,
                high: float | None = None) -> str:
    """An uploaded file's one-line summary: its queries and lines (and, for judgments, the
    grades from ``low`` to ``high``), one whole sentence per plural (Chinese has none).

    >>> file_counts(1, 1, lang="en", low=2, high=2), file_counts(1, 2_000, lang="en")
    ('1 query, 1 line, grade 2', '1 query, 2,000 lines')
    """
    v = dict(queries=f"{queries:,}", lines=f"{lines:,}")
    if low is None:
        if queries != 1:
            return t("{queries} queries, {lines} lines", lang, **v)
        return t("1 query, 1 line", lang) if lines == 1 else t("1 query, {lines} lines", lang,
                                                                 **v)
    v.update(low=f"{low:g}", high=f"{high:g}")
    if queries != 1:
        return t("{queries} queries, {lines} lines, grades {low} to {high}", lang, **v)
    if lines == 1:
        return t("1 query, 1 line, grade {low}", lang, **v)
    return t("1 query, {lines} lines, grades {low} to {high}", lang, **v)
