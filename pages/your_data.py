"""Evaluate your runs: NDCG of one or two runs against your judgments, under any convention."""

import streamlit as st

from lab import runs as R
from lab.text import escape_markdown
from ui import charts, routing, state, your_data as D

routing.route_through_app()

st.title("Evaluate your runs")
st.caption("Upload judgments and one or two runs: NDCG@k per query and on average, computed by "
           "`ndcg_core` the way the preset's library does, then compared query by query.")

inputs = D.input_panel()
settings = D.settings_panel()
if inputs is None:
    st.stop()
if not settings.ks:
    st.warning("Choose at least one cutoff k above.", icon=":material/warning:")
    st.stop()
qrels, runs = inputs
runs = tuple(runs.items())
tables, errors = D.evaluate_runs(qrels, runs, settings.ks, settings.preset, settings.options)
for err, systems in R.by_message(errors).items():
    st.error(f"**{' and '.join(systems)}** cannot be evaluated. {escape_markdown(err)}",
             icon=":material/error:")
if not tables:
    st.stop()
runs = tuple((s, up) for s, up in runs if s in tables)
if all(t.empty for t in tables.values()):
    st.warning("No judged query appears in the run: check that both files use the same query "
               "ids.", icon=":material/warning:")
    D.show_coverage(tables, settings)
    st.stop()

D.show_means(tables, settings.ks)
D.show_coverage(tables, settings)

state.data_cutoff(settings.ks)
k = st.segmented_control("Cutoff for the tables and charts below", settings.ks, key=state.YD_K,
                         format_func=lambda c: f"NDCG@{c}", required=True)
two = len(tables) == 2
# Only the open tab is computed and drawn: switching tabs reruns, and the others cost nothing.
names = ["Per query", "Charts"] + (["A vs B"] if two else []) + ["What changed?"]
tab = dict(zip(names, st.tabs(names, key=state.YD_TAB, on_change="rerun")))

if tab["Per query"].open:
    with tab["Per query"]:
        table = R.per_query_table(tables, settings.ks, k)
        find = st.text_input("Find queries", key="yd_find", placeholder="part of a query id")
        shown = table[table["qid"].str.contains(find, regex=False)] if find else table
        st.dataframe(shown, hide_index=True, width="stretch", key="yd_table",
                     column_config=D.decimals(table, like="DCG"))
        st.download_button("Download the table (CSV)", lambda: table.to_csv(index=False),
                           file_name="ndcg_per_query.csv", mime="text/csv", key="yd_download",
                           icon=":material/download:", on_click="ignore")
        st.header("Open a query in the playground")
        c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
        qid = c1.selectbox("Query", table["qid"], key="yd_open_qid")
        system = c2.selectbox("Run", [s for s, _ in runs], key="yd_open_run")
        if c3.button("Open in playground", key="yd_open", icon=":material/open_in_new:"):
            params = R.playground_link(*D.frames(qrels, dict(runs)[system]), qid, settings, k)
            if params is None:
                st.warning(f"{system} retrieved nothing for this query: no ranking to open.")
            else:
                st.switch_page(routing.PLAYGROUND, query_params=routing.within_limit(params))
        st.caption(f"Its top {R.PLAYGROUND_DEPTH} documents (ids as labels, grades from the "
                   "judgments, unjudged as 0), the other relevant documents as its judged pool.")

if tab["Charts"].open:
    with tab["Charts"]:
        left, right = st.columns(2)
        with left:
            charts.show(D.histogram(tables, k), key="yd_hist")
        kmax = max(D.CURVE_MAX, max(settings.ks))
        with right:
            charts.show(D.curve_chart(D.curves(qrels, runs, kmax, settings)), key="yd_curve")
        st.caption("Solid lines: linear gain; dashed: exponential gain; other options as set.")

if two and tab["A vs B"].open:
    with tab["A vs B"]:
        pairs = R.paired(tables, k)
        if len(pairs) < 2:
            st.info("The two runs share fewer than two evaluated queries: nothing to compare.")
        else:
            D.show_comparison(pairs, k)
            left, right = st.columns(2)
            with left:
                charts.show(D.scatter(pairs, k), key="yd_scatter")
            moved = R.most_changed(pairs, k)
            right.markdown("**The queries that changed most**")
            right.dataframe(moved, hide_index=True, width="stretch", key="yd_moved",
                            column_config=D.decimals(moved))

if tab["What changed?"].open:
    with tab["What changed?"]:
        results, perrors = D.under_presets(qrels, runs, settings.ks, settings.opts["missing"])
        st.markdown("**Mean NDCG under every preset**: the same files, the missing-query rule "
                    "as chosen.")
        means = R.preset_means(results, settings.ks)
        st.dataframe(means, hide_index=True, key="yd_presets", column_config=D.decimals(means))
        for (preset, system), err in perrors.items():
            st.caption(f"{preset} refuses {system}: {escape_markdown(err)}")
        why = {s: R.reasons(D.facts(qrels, up), k) for s, up in runs}
        spread = R.preset_spread(results, why, k)
        st.markdown(f"**The queries whose NDCG@{k} differs most between presets**, and what "
                    "in the data makes them differ.")
        st.dataframe(spread, hide_index=True, width="stretch", key="yd_spread",
                     column_config=D.decimals(spread) | {"why": st.column_config.TextColumn(
                         "why (from the data)", width="large")})
