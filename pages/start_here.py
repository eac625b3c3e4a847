"""Start here: CG → DCG → IDCG → NDCG on one small list, one step at a time; why a position
discount; what a grade is and where grades come from."""

import pandas as pd
import streamlit as st

import ndcg_core as nc
from lab import tour as T
from lab.i18n import t
from lab.text import show_grades
from ui import charts, learn, lessons as L, present, routing, state, tables

routing.route_through_app(__file__)
lang = state.language()
L.header(T.START, summary=False)  # the intro below says it; the tour needs the height

# ---- the guided tour: one (lesson section, state) pair per step. First on the page, its
# buttons and progress on one line: a projector's first screen (1280x720) shows the step.
n_steps = len(T.TOUR)
at = state.tour_step()
step = T.TOUR[at]
prev, bar, nxt = st.columns([1, 4, 1], vertical_alignment="bottom")
bar.progress((at + 1) / n_steps, text=t("{step} of {steps} · {heading}", lang, step=at + 1,
                                         steps=n_steps, heading=T.heading(step, lang)))
prev.button(t("Previous", lang), key="sh_prev", icon=":material/arrow_back:",
            on_click=state.on_tour_move, args=(-1, n_steps), disabled=at == 0, width="stretch")
nxt.button(t("Next", lang), key="sh_next", icon=":material/arrow_forward:",
           on_click=state.on_tour_move, args=(1, n_steps), disabled=at == n_steps - 1,
           width="stretch")
# The step's text beside its figures (stacked on a phone), so that every step fits a
# projector's first screen. Its heading is an h2 (after the page's h1: heading order), drawn
# at an h3's size (ui/fit.css, .st-key-sh_tour).
with st.container(border=True, key="sh_tour"):
    text, figures = st.columns(2, gap="medium")
    with text:
        L.section(T.START, step.section, level="##")
    with figures:
        learn.render_step(step)

# ---- what NDCG tells you, and the four steps in a list
L.section(T.START, "intro")

# ---- why a positional discount
L.section(T.START, "why-discount")
pos = st.slider(t("Position of the one relevant item", lang), 1, 10, 10, key="sh_hit_pos")
for i, (col, p) in enumerate(zip(st.columns(2), (1, pos))):
    with col:
        grades = T.single_hit(p)
        st.markdown(t("**Relevant item at position {position}** · grades {grades}", lang,
                      position=p, grades=show_grades(grades)))
        learn.metric_row([(t("precision@{k}", lang, k=10), nc.precision_at_k(grades, k=10)),
                          ("NDCG@10", nc.ndcg(grades, k=10))])
        routing.open_in_playground([t("Product {n}", lang, n=i) for i in range(1, 11)], grades,
                                   k=10,
                                   key=f"sh_open_hit_{i}")
charts.show(charts.hit_chart(10), key="sh_hit_chart")

# ---- grades: what they are, where they come from
L.section(T.START, "grades")
L.section(T.START, "where-grades-come-from")
mapping = st.radio(t("Turn what shoppers did into grades", lang), list(T.MAPPINGS),
                   format_func=lambda m: T.mapping_label(m, lang), key="sh_mapping")
# the editor stores the English action (its options' values); it shows them in the language
shop = pd.DataFrame({"product": [T.product_name(p, lang) for p, _ in T.SHOP],
                     "what the shopper did": pd.Series([a for _, a in T.SHOP], dtype="object")})
edited = present.data_editor(
    shop, key="sh_actions", hide_index=True, disabled=["product"],
    column_config={
        "product": st.column_config.TextColumn(t("product", lang)),
        "what the shopper did": st.column_config.SelectboxColumn(
            t("what the shopper did", lang), options=list(T.ACTIONS), required=True,
            format_func=lambda a: T.action_label(a, lang))})
actions = [a if a in T.ACTIONS else "ignored" for a in edited["what the shopper did"]]
grades, labels = T.grades_of(actions, mapping), list(edited["product"])
k = len(grades)
learn.metric_row([(t("shop list NDCG@{k} (linear)", lang, k=k), nc.ndcg(grades, k=k)),
                  (t("shop list NDCG@{k} (exponential)", lang, k=k),
                   nc.ndcg(grades, k=k, gain="exponential"))])
tables.dcg_tables(grades, labels, k=k, gain="linear")
routing.open_in_playground(labels, grades, k=k, gain="both", key="sh_open_shop")
