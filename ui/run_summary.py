"""The headline of "Evaluate your runs": the means table, the notes on queries left out or
counted as 0, and the hint under a table wider than its box. Every figure is
:func:`lab.runs.means_table`'s (the engine's); words in the page's language, headers through
``st.column_config`` labels only (:func:`lab.runs.header`)."""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

from lab import runs as run_analysis
from lab.i18n import t
from lab.runs import Settings
from lab.text import DATA_DECIMALS, MISSING, escape_markdown, listing, number_format
from ui import state

NARROWEST_BOX = 700  # px: the main column at 1280 px wide with the sidebar open
SIDE_BOX = 300       # px: the narrower of two side-by-side columns there


def _coverage_note(what: str, one: bool, rule: str, lang: str, **v) -> str:
    """One sentence per case and number (Chinese has no plural, English does)."""
    if what == "unjudged_queries":
        return (t("{runs}: {n} retrieved query has no judgments and is left out: {ids}", lang,
                  **v) if one else
                t("{runs}: {n} retrieved queries have no judgments and are left out: {ids}",
                  lang, **v))
    if what == "emptied_queries":
        return (t("{runs}: {n} query retrieves no judged document: judged documents only, "
                  "NDCG 0 (as pytrec_eval scores it): {ids}", lang, **v) if one else
                t("{runs}: {n} queries retrieve no judged document: judged documents only, "
                  "NDCG 0 (as pytrec_eval scores it): {ids}", lang, **v))
    if rule == "zero":
        return (t("{runs}: {n} judged query is not in the run, scored 0 and counted in the "
                  "mean: {ids}", lang, **v) if one else
                t("{runs}: {n} judged queries are not in the run, scored 0 and counted in the "
                  "mean: {ids}", lang, **v))
    return (t("{runs}: {n} judged query is not in the run, left out of the mean (choose "
              "“scores 0” to count it): {ids}", lang, **v) if one else
            t("{runs}: {n} judged queries are not in the run, left out of the mean (choose "
              "“scores 0” to count them): {ids}", lang, **v))


def run_names(systems, lang: str) -> str:
    """Run names (escaped) as a sentence lists them: "a.run and b.run" / "a.run、b.run"."""
    return t(" and ", lang).join(escape_markdown(s) for s in systems)


def show_coverage(tables: dict, settings: Settings):
    """Say which queries are left out or counted as 0, and why (evaluate's attrs)."""
    lang = state.language()
    rule = settings.opts["missing"]
    notes = {}
    for system, table in tables.items():
        for what in ("unjudged_queries", "missing_queries", "emptied_queries"):
            if table.attrs.get(what):
                notes.setdefault((what, tuple(table.attrs[what])), []).append(system)
    for (what, ids), systems in notes.items():
        names = (t("Every run", lang) if len(systems) == len(tables) > 2 else
                 run_names(systems, lang))
        st.caption(_coverage_note(what, len(ids) == 1, rule, lang, runs=names, n=len(ids),
                                  ids=listing(ids, lang=lang)))


def _means_help(column: str, k: int, lang: str) -> str:
    if "Judged" in column:
        return t("Judged@{k}: the share of the top {k} documents (or all retrieved, if fewer) "
                 "that have a judgment, averaged over queries (ir_measures' Judged@k). Low "
                 "values mean NDCG@{k} rests on unjudged documents counted as 0.", lang, k=k)
    if "unjudged=0" in column:
        return t("Mean NDCG@{k} with every unjudged retrieved document graded 0 (what "
                 "trec_eval does without -J).", lang, k=k)
    if "unjudged=top" in column:
        return t("Mean NDCG@{k} with every unjudged retrieved document graded the top grade "
                 "of the judgments; the ideal includes them too, so on a query it can fall "
                 "below the other value.", lang, k=k)
    return t("Mean NDCG@{k} over the queries.", lang, k=k)


def show_means(tables: dict, extras: dict, ks: tuple):
    """The headline: per run, mean NDCG@k at every cutoff with Judged@k and the range the
    unjudged documents leave open, the run column pinned."""
    lang = state.language()
    df = run_analysis.means_table(tables, extras, ks)
    config = {"run": st.column_config.TextColumn(run_analysis.header("run", lang=lang),
                                                 pinned=True),
              "queries": st.column_config.NumberColumn(
                  run_analysis.header("queries", lang=lang),
                  help=t("Queries in the mean (the missing rule decides).", lang))}
    for c in df.columns[2:]:
        k = int(re.search(r"@(\d+)", c).group(1))
        config[c] = st.column_config.NumberColumn(
            run_analysis.header(c, lang=lang), format=number_format(DATA_DECIMALS),
            help=_means_help(c, k, lang))
    st.dataframe(df, hide_index=True, width="stretch", key="yd_means", column_config=config,
                 placeholder=MISSING)
    scroll_hint(df)


def scroll_hint(df: pd.DataFrame, box: int = NARROWEST_BOX):
    """Under a table wider than its box (px; the page's main column by default): say it
    scrolls sideways."""
    if run_analysis.table_width(df, lang=state.language()) > box:
        st.caption(":material/swap_horiz: " + t(
            "{n} columns: where they do not all fit, scroll the table sideways (Shift + wheel, "
            "or swipe); the first column stays in place.", state.language(), n=len(df.columns)))
