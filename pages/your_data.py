"""Evaluate your runs: NDCG of one or two runs against your judgments, under any convention."""

import streamlit as st

from ui import data as D

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
for system, err in errors.items():
    st.error(f"**{system}** cannot be evaluated. {D.md(err)}", icon=":material/error:")
if not tables:
    st.stop()
runs = tuple((s, up) for s, up in runs if s in tables)

D.show_means(tables, settings.ks)
D.show_coverage(tables, settings)

if st.session_state.get("yd_k") not in settings.ks:
    st.session_state.yd_k = settings.ks[-1]
k = st.segmented_control("Cutoff for the tables and charts below", settings.ks, key="yd_k",
                         format_func=lambda c: f"NDCG@{c}", required=True)
two = len(tables) == 2
tabs = st.tabs(["Per query", "Charts"] + (["A vs B"] if two else []) + ["What changed?"])

with tabs[0]:
    table = D.per_query_table(tables, settings.ks, k)
    find = st.text_input("Find queries", key="yd_find", placeholder="part of a query id")
    shown = table[table["qid"].str.contains(find, regex=False)] if find else table
    st.dataframe(shown, hide_index=True, width="stretch", key="yd_table",
                 column_config={c: st.column_config.NumberColumn(format="%.4f")
                                for c in table.columns if "DCG" in c})
    st.download_button("Download the table (CSV)", lambda: table.to_csv(index=False),
                       file_name="ndcg_per_query.csv", mime="text/csv", key="yd_download",
                       icon=":material/download:", on_click="ignore")
    st.subheader("Open a query in the playground")
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    qid = c1.selectbox("Query", table["qid"], key="yd_open_qid")
    system = c2.selectbox("Run", [s for s, _ in runs], key="yd_open_run")
    if c3.button("Open in playground", key="yd_open", icon=":material/open_in_new:"):
        params = D.playground_link(qrels, dict(runs)[system], qid, settings, k)
        if params is None:
            st.warning(f"{system} retrieved nothing for this query: no ranking to open.")
        else:
            st.switch_page("pages/playground.py", query_params=params)
    st.caption(f"Its top {D.PLAYGROUND_DEPTH} documents (ids as labels, grades from the "
               "judgments, unjudged as 0) in the playground, the remaining relevant "
               "documents kept as its judged pool.")

with tabs[1]:
    left, right = st.columns(2)
    left.plotly_chart(D.histogram(tables, k), key="yd_hist")
    kmax = max(D.CURVE_MAX, max(settings.ks))
    right.plotly_chart(D.curve_chart(D.curves(qrels, runs, kmax, settings.preset,
                                              settings.options)), key="yd_curve")
    st.caption("Solid lines: linear gain; dashed: exponential gain; the other options as set.")

if two:
    with tabs[2]:
        pairs = D.paired(tables, k)
        if len(pairs) < 2:
            st.info("The two runs share fewer than two evaluated queries: nothing to compare.")
        else:
            D.show_comparison(pairs, k)
            left, right = st.columns(2)
            left.plotly_chart(D.scatter(pairs, k), key="yd_scatter")
            right.markdown("**The queries that changed most**")
            right.dataframe(D.most_changed(pairs, k), hide_index=True, width="stretch",
                            key="yd_moved")

with tabs[-1]:
    results, perrors = D.under_presets(qrels, runs, settings.ks, settings.opts["missing"])
    st.markdown("**Mean NDCG under every preset** (the same files, the missing-query rule "
                "as chosen)")
    st.dataframe(D.preset_means(results, settings.ks), hide_index=True, key="yd_presets")
    for (preset, system), err in perrors.items():
        st.caption(f"{preset} refuses {system}: {D.md(err)}")
    why = {s: D.reasons(qrels, up, k) for s, up in runs}
    st.markdown(f"**The queries whose NDCG@{k} differs most between presets**, and what in "
                "the data makes them differ")
    st.dataframe(D.preset_spread(results, why, k), hide_index=True, width="stretch",
                 key="yd_spread")
