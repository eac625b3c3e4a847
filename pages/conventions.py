"""Conventions and edge cases: ties, all-zero queries, negative grades, log base, unjudged
items, rescaled scores, and the library presets on the playground list.
Prose: assets/lessons/05_conventions.md."""

import pandas as pd
import streamlit as st

from lab import conventions, options_text as O
from lab.documents import RUNNING_EXAMPLE
from lab.errors import explain
from lab.i18n import t
from lab.text import escape_markdown, fmt
from ui import charts, lessons as L, playground as view, present, routing, state
from ui.conventions import presets_panel, table

LESSON = "05_conventions"
TIES = pd.DataFrame({"docid": ["d1", "d2", "d3"], "grade": [0, 2, 1],
                     "score": [1.0, 1.0, 0.5]})
NEGATIVE = [-1, 2, 0, 1]

routing.route_through_app(__file__)
pg = state.playground()
lang = state.language()
L.header(LESSON)
L.section(LESSON, "intro")

L.section(LESSON, "ties")
left, right = st.columns([1, 2])
with left:
    edited = present.data_editor(
        TIES, key="cv_ties_editor", hide_index=True, num_rows="fixed",
        # doc id and grade small, the score 105 px ("model score" and its icon): together
        # they fit a third of a projector (263 px); the grid stretches them to its width
        column_config={"docid": st.column_config.TextColumn(t("doc id", lang), required=True,
                                                            width="small"),
                       "grade": st.column_config.NumberColumn(t("grade", lang), required=True,
                                                              width="small"),
                       "score": st.column_config.NumberColumn(t("model score", lang),
                                                                required=True, width=105)})
    k_ties = st.slider(t("Cutoff k", lang), 1, 3, 1, key="cv_ties_k")
with right:
    try:
        table(conventions.ties_table(list(edited["docid"]), list(edited["grade"]),
                           list(edited["score"]), k_ties, lang=lang))
    except ValueError as exc:
        st.error(t("These rows cannot be ranked: {error}", lang, error=escape_markdown(explain(exc, lang))),
                 icon=":material/error:")

L.section(LESSON, "all-zero")
table(conventions.zero_idcg_table(lang=lang))

L.section(LESSON, "negative")
neg, message = conventions.negative_table(NEGATIVE, 3, lang=lang)
table(neg)
if message:
    # the exception's name as code, its message in the page's language (lab.errors.explain)
    st.error(t("With negative='error' the engine refuses the list: {error}", lang,
               error=f"`ValueError`: {escape_markdown(message)}"), icon=":material/block:")

L.section(LESSON, "exact-zero")

L.section(LESSON, "log-base")
base = st.slider(t("Base b of the Järvelin–Kekäläinen discount", lang), 1.5, 12.0, 2.0,
                 step=0.5, key="cv_base")
table(conventions.log_base_table(list(RUNNING_EXAMPLE), base, lang=lang))
weights = conventions.discount_weights(10, base)
charts.show(charts.lines_chart(
    weights, x="index", columns=weights.columns, y=t("weight of a gain of 1", lang),
    title=t("Weight of each rank, 1 / discount (Järvelin–Kekäläinen b = {base})", lang,
            base=f"{base:g}")),
    key="cv_weights")

L.section(LESSON, "unlabeled")
table(conventions.unlabeled_table(lang=lang))

L.section(LESSON, "monotone-scores")
name = st.selectbox(t("Transform the scores with", lang), list(conventions.TRANSFORMS),
                    format_func=lambda x: conventions.transform_label(x, lang), key="cv_transform")
shown_name = conventions.transform_label(name, lang)
items, before, after = conventions.transform_table(name, 3, lang=lang)
a, b = st.columns(2)
a.metric(t("NDCG@3, original scores", lang), fmt(before), border=True)
b.metric(t("NDCG@3, {transform}", lang, transform=shown_name), fmt(after),
         delta=f"{after - before:+.3f}" if abs(after - before) > 1e-12 else None, border=True)
if conventions.TRANSFORMS[name][1]:
    st.success(t("{transform} is strictly increasing: same order, same ties, same NDCG.", lang,
                 transform=shown_name), icon=":material/check_circle:")
else:
    st.warning(t("{transform} is not strictly increasing: the order or the ties change, and "
                 "NDCG can too.", lang, transform=shown_name), icon=":material/warning:")
table(items)

L.section(LESSON, "presets")
figures, problem = view.scored(pg, ("linear",))
if problem:
    st.error(t("The playground's list cannot be compared: {error}", lang,
               error=escape_markdown(problem)), icon=":material/error:")
else:
    presets_panel(pg, pg.cutoff)
with st.expander(t("Every option a preset sets", lang)):
    for opt in ("gain", "ties", "zero_idcg", "negative", "ideal_pool", "fractional",
                "score_precision", "judged_only"):
        st.markdown(f"**{O.label(opt, lang=lang)}** — {O.help_text(opt, lang=lang)}")
