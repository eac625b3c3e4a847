"""Evaluate your runs: NDCG of up to ten runs against your judgments, under any convention,
compared with a baseline by the statistics IR papers use; "Choose gain and cutoff" weighs up
to thirty."""

import functools

import streamlit as st

from lab import runs as run_analysis, upload_limits
from lab.errors import explain
from lab.i18n import t
from lab.text import MISSING, escape_markdown
from ui import charts, choices, routing, run_summary as summary, state, your_data as D

routing.route_through_app(__file__)
lang = state.language()

st.title(t("Evaluate your runs", lang))
st.caption(t("Upload judgments and up to {n} runs: NDCG@k per query and on average, computed "
             "by `ndcg_core` the way the preset's library does, then each run tested against "
             "a baseline, query by query.", lang, n=upload_limits.MAX_UPLOAD_RUNS))

# No lambda or function defined in this file: Streamlit keeps a widget's format_func and a
# download's data callable until the next run, and with them this page's globals, which hold
# the uploads' bytes (a 150 MB run held twice between runs).
# The files' panel draws one line or several; in one container it keeps the settings below
# at the same place in the page, so loading the sample or a file never remounts their
# widgets (a remounted multiselect can come back empty: CI saw the cutoffs lost).
with st.container():
    inputs = D.input_panel()
settings = D.settings_panel()
if inputs is None:
    st.stop()
if not settings.ks:
    st.warning(t("Choose at least one cutoff k above.", lang), icon=":material/warning:")
    st.stop()
qrels, runs = inputs
every_run = tuple(runs.items())  # up to 30: "Choose gain and cutoff" weighs them all
runs = every_run[:run_analysis.MAX_RUNS]
if len(every_run) > len(runs):
    st.caption(t("{count} runs: the tables, charts and the comparison show the first {n}; "
                 "Choose gain and cutoff weighs all {count}.", lang, count=len(every_run),
                 n=len(runs)))
tables, errors = D.evaluate_runs(qrels, runs, settings.ks, settings.preset, settings.options,
                                 settings.judged_only)
for err, systems in run_analysis.by_message(errors).items():
    st.error(t("**{runs}** cannot be evaluated. {message}", lang,
               runs=summary.run_names(systems, lang), message=escape_markdown(explain(err, lang))),
             icon=":material/error:")
if not tables:
    st.stop()
runs = tuple((s, up) for s, up in runs if s in tables)
every_run = runs + every_run[run_analysis.MAX_RUNS:]  # the others' errors: the tab says them
if all(table.empty for table in tables.values()):
    st.warning(t("No judged query appears in the run: check that both files use the same "
                 "query ids.", lang), icon=":material/warning:")
    summary.show_coverage(tables, settings)
    st.stop()

extras = D.unjudged(qrels, runs, settings.ks, settings)
st.header(t("Mean over queries", lang))
summary.show_means(tables, extras, settings.ks)
summary.show_coverage(tables, settings)

state.data_cutoff(settings.ks)
k = st.segmented_control(t("Cutoff for the comparison, tables and charts below", lang),
                         settings.ks,
                         key=state.YD_K, format_func="NDCG@{}".format, required=True)
per_query = run_analysis.per_query_scores(tables, k)
several = len(tables) >= 2
compared = None
if several:
    st.header(t("Against a baseline, NDCG@{k}", lang, k=k))
    data_key = ("compare-data", qrels.digest, D.runs_key(runs), settings)
    compared = D.compare_panel(per_query, k, data_key)
else:
    st.caption(t("Upload a second run to compare runs against a baseline.", lang))

# Only the open tab is computed and drawn: switching tabs reruns, and the others cost nothing.
choosing = len(every_run) >= 2
tab = D.result_tabs(["Per query"] + (["Wins and losses"] if compared else [])
                    + ["Charts", "What changed?"] + (["Choose gain and cutoff"] if choosing else []))

if tab["Per query"].open:
    with tab["Per query"]:
        table = run_analysis.per_query_table(tables, settings.ks, k, extras)
        find = st.text_input(t("Find queries", lang), key="yd_find",
                             placeholder=t("part of a query id", lang))
        shown = table[table["qid"].str.contains(find, regex=False)] if find else table
        st.dataframe(shown, hide_index=True, width="stretch", key="yd_table", placeholder=MISSING,
                     column_config=D.decimals(table) | {
                         "qid": st.column_config.TextColumn("qid", pinned=True)})
        summary.scroll_hint(table)
        # the CSV keeps the English column names in every language: it is data for scripts
        # (the headers drawn above are translated for display only)
        st.download_button(t("Download the table (CSV)", lang),
                           functools.partial(table.to_csv, index=False),
                           file_name="ndcg_per_query.csv", mime="text/csv", key="yd_download",
                           icon=":material/download:", on_click="ignore")
        st.header(t("Open a query in the playground", lang))
        c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
        qid = c1.selectbox(t("Query", lang), table["qid"], key="yd_open_qid")
        system = c2.selectbox(t("Run", lang), [s for s, _ in runs], key="yd_open_run")
        if c3.button(t("Open in playground", lang), key="yd_open",
                     icon=":material/open_in_new:"):
            q, r = D.frames(qrels, dict(runs)[system])
            if settings.judged_only:
                r = run_analysis.judged_run(q, r)
            params = run_analysis.playground_link(q, r, qid, settings, k)
            if params is None:
                st.warning(t("{run} retrieved nothing for this query: no ranking to open.",
                             lang, run=escape_markdown(system)))
            else:
                st.switch_page(routing.PLAYGROUND, query_params=routing.within_limit(params))
        st.caption(t("Its top {n} documents (ids as labels, grades from the judgments, "
                     "unjudged as 0), the other relevant documents as its unretrieved grades.", lang,
                     n=run_analysis.PLAYGROUND_DEPTH))

if compared and tab["Wins and losses"].open:
    with tab["Wins and losses"]:
        table, counts = compared
        baseline = table.attrs["baseline"]
        charts.show(charts.wins_chart(counts, baseline, k), key="yd_wins")
        others = [s for s in per_query.columns if s != baseline]
        system = st.selectbox(t("Run against the baseline, query by query", lang), others,
                              key=state.YD_DELTA_RUN)
        left, right = st.columns([3, 2])
        with left:
            deltas = run_analysis.deltas(per_query, system, baseline)
            charts.show(charts.delta_chart(deltas, system, baseline, k), key="yd_deltas")
        moved = run_analysis.most_changed(per_query, baseline, k)
        right.markdown(t("**The queries that changed most** (any run against the baseline)",
                         lang))
        with right:
            st.dataframe(moved, hide_index=True, width="stretch", key="yd_moved",
                         placeholder=MISSING, column_config=D.decimals(moved) | {
                             "qid": st.column_config.TextColumn("qid", pinned=True)})
            summary.scroll_hint(moved, summary.SIDE_BOX)

if tab["Charts"].open:
    with tab["Charts"]:
        left, right = st.columns(2)
        with left:
            charts.show(charts.runs_histogram(tables, k), key="yd_hist")
        kmax = max(D.CURVE_MAX, max(settings.ks))
        with right:
            charts.show(charts.runs_curve_chart(D.curves(qrels, runs, kmax, settings)), key="yd_curve")
        st.caption(t("Solid lines: linear gain; dashed: exponential gain; other options as "
                     "set.", lang))

if tab["What changed?"].open:
    with tab["What changed?"]:
        results, perrors = D.under_presets(qrels, runs, settings.ks, settings.opts["missing"],
                                           settings.judged_only)
        st.markdown(t("**Mean NDCG under every preset**: the same files, the missing-query "
                      "rule as chosen.", lang))
        means = run_analysis.preset_means(results, settings.ks)
        st.dataframe(means, hide_index=True, key="yd_presets", column_config=D.decimals(means),
                     placeholder=MISSING)
        for (preset, system), err in perrors.items():
            st.caption(t("{preset} refuses {run}: {message}", lang, preset=preset,
                         run=escape_markdown(system), message=escape_markdown(explain(err, lang))))
        why = {s: run_analysis.reasons(D.facts(qrels, up), k, lang=lang) for s, up in runs}
        spread = run_analysis.preset_spread(results, why, k)
        st.markdown(t("**The queries whose NDCG@{k} differs most between presets**, and what "
                      "in the data makes them differ.", lang, k=k))
        st.dataframe(spread, hide_index=True, width="stretch", key="yd_spread", placeholder=MISSING,
                     column_config=D.decimals(spread) | {"why": st.column_config.TextColumn(
                         t("why (from the data)", lang), width="large")})

if choosing and tab["Choose gain and cutoff"].open:
    with tab["Choose gain and cutoff"]:
        choices.show(qrels, every_run, settings)
