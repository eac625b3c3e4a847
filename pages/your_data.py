"""Evaluate your runs: NDCG of up to ten runs against your judgments, under any convention,
compared with a baseline by the statistics IR papers use."""

import streamlit as st

from lab import runs as R
from lab.text import escape_markdown
from ui import charts, routing, state, your_data as D

routing.route_through_app()

st.title("Evaluate your runs")
st.caption(f"Upload judgments and up to {R.MAX_RUNS} runs: NDCG@k per query and on average, "
           "computed by `ndcg_core` the way the preset's library does, then each run tested "
           "against a baseline, query by query.")

inputs = D.input_panel()
settings = D.settings_panel()
if inputs is None:
    st.stop()
if not settings.ks:
    st.warning("Choose at least one cutoff k above.", icon=":material/warning:")
    st.stop()
qrels, runs = inputs
runs = tuple(runs.items())
tables, errors = D.evaluate_runs(qrels, runs, settings.ks, settings.preset, settings.options,
                                 settings.judged_only)
for err, systems in R.by_message(errors).items():
    names = " and ".join(escape_markdown(s) for s in systems)
    st.error(f"**{names}** cannot be evaluated. {escape_markdown(err)}",
             icon=":material/error:")
if not tables:
    st.stop()
runs = tuple((s, up) for s, up in runs if s in tables)
if all(t.empty for t in tables.values()):
    st.warning("No judged query appears in the run: check that both files use the same query "
               "ids.", icon=":material/warning:")
    D.show_coverage(tables, settings)
    st.stop()

extras = D.unjudged(qrels, runs, settings.ks, settings)
st.header("Mean over queries")
D.show_means(tables, extras, settings.ks)
D.show_coverage(tables, settings)

state.data_cutoff(settings.ks)
k = st.segmented_control("Cutoff for the comparison, tables and charts below", settings.ks,
                         key=state.YD_K, format_func=lambda c: f"NDCG@{c}", required=True)
per_query = R.per_query_scores(tables, k)
several = len(tables) >= 2
compared = None
if several:
    st.header(f"Against a baseline, NDCG@{k}")
    data_key = ("compare-data", qrels.digest, D.runs_key(runs), settings)
    compared = D.compare_panel(per_query, k, data_key)
else:
    st.caption("Upload a second run to compare runs against a baseline.")

# Only the open tab is computed and drawn: switching tabs reruns, and the others cost nothing.
names = ["Per query"] + (["Wins and losses"] if compared else []) + ["Charts",
                                                                      "What changed?"]
tab = dict(zip(names, st.tabs(names, key=state.YD_TAB, on_change="rerun")))

if tab["Per query"].open:
    with tab["Per query"]:
        table = R.per_query_table(tables, settings.ks, k, extras)
        find = st.text_input("Find queries", key="yd_find", placeholder="part of a query id")
        shown = table[table["qid"].str.contains(find, regex=False)] if find else table
        st.dataframe(shown, hide_index=True, width="stretch", key="yd_table",
                     column_config=D.decimals(table) | {
                         "qid": st.column_config.TextColumn("qid", pinned=True)})
        D.scroll_hint(table)
        st.download_button("Download the table (CSV)", lambda: table.to_csv(index=False),
                           file_name="ndcg_per_query.csv", mime="text/csv", key="yd_download",
                           icon=":material/download:", on_click="ignore")
        st.header("Open a query in the playground")
        c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
        qid = c1.selectbox("Query", table["qid"], key="yd_open_qid")
        system = c2.selectbox("Run", [s for s, _ in runs], key="yd_open_run")
        if c3.button("Open in playground", key="yd_open", icon=":material/open_in_new:"):
            q, r = D.frames(qrels, dict(runs)[system])
            if settings.judged_only:
                r = R.judged_run(q, r)
            params = R.playground_link(q, r, qid, settings, k)
            if params is None:
                st.warning(f"{escape_markdown(system)} retrieved nothing for this query: no "
                           "ranking to open.")
            else:
                st.switch_page(routing.PLAYGROUND, query_params=routing.within_limit(params))
        st.caption(f"Its top {R.PLAYGROUND_DEPTH} documents (ids as labels, grades from the "
                   "judgments, unjudged as 0), the other relevant documents as its judged pool.")

if compared and tab["Wins and losses"].open:
    with tab["Wins and losses"]:
        table, counts = compared
        baseline = table.attrs["baseline"]
        charts.show(charts.wins_chart(counts, baseline, k), key="yd_wins")
        others = [s for s in per_query.columns if s != baseline]
        system = st.selectbox("Run against the baseline, query by query", others,
                              key=state.YD_DELTA_RUN)
        left, right = st.columns([3, 2])
        with left:
            charts.show(charts.delta_chart(R.deltas(per_query, system, baseline), system, baseline,
                                      k), key="yd_deltas")
        moved = R.most_changed(per_query, baseline, k)
        right.markdown("**The queries that changed most** (any run against the baseline)")
        with right:
            st.dataframe(moved, hide_index=True, width="stretch", key="yd_moved",
                         column_config=D.decimals(moved) | {
                             "qid": st.column_config.TextColumn("qid", pinned=True)})
            D.scroll_hint(moved, D.SIDE_BOX)

if tab["Charts"].open:
    with tab["Charts"]:
        left, right = st.columns(2)
        with left:
            charts.show(charts.runs_histogram(tables, k), key="yd_hist")
        kmax = max(D.CURVE_MAX, max(settings.ks))
        with right:
            charts.show(charts.runs_curve_chart(D.curves(qrels, runs, kmax, settings)), key="yd_curve")
        st.caption("Solid lines: linear gain; dashed: exponential gain; other options as set.")

if tab["What changed?"].open:
    with tab["What changed?"]:
        results, perrors = D.under_presets(qrels, runs, settings.ks, settings.opts["missing"],
                                           settings.judged_only)
        st.markdown("**Mean NDCG under every preset**: the same files, the missing-query rule "
                    "as chosen.")
        means = R.preset_means(results, settings.ks)
        st.dataframe(means, hide_index=True, key="yd_presets", column_config=D.decimals(means))
        for (preset, system), err in perrors.items():
            st.caption(f"{preset} refuses {escape_markdown(system)}: {escape_markdown(err)}")
        why = {s: R.reasons(D.facts(qrels, up), k) for s, up in runs}
        spread = R.preset_spread(results, why, k)
        st.markdown(f"**The queries whose NDCG@{k} differs most between presets**, and what "
                    "in the data makes them differ.")
        st.dataframe(spread, hide_index=True, width="stretch", key="yd_spread",
                     column_config=D.decimals(spread) | {"why": st.column_config.TextColumn(
                         "why (from the data)", width="large")})
