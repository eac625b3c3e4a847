"""Linear vs exponential gain: the two gain curves, the playground's ranking under both, and
a flip finder for orderings the two gains rank oppositely."""

import streamlit as st

from lab import flips
from lab.i18n import t
from lab.text import fmt
from ui import charts, learn, lessons as L, playground as view, routing, state, tables

routing.route_through_app(__file__)
lang = state.language()
pg = state.playground()  # the playground's shared state (this page never publishes it)


@st.cache_data(max_entries=128, show_spinner=False)
def flip_of(grades: tuple, k: int, judged: tuple | None):
    return flips.find_flip(grades, k, ideal=list(judged) if judged else None)


L.header(flips.GAIN)
L.section(flips.GAIN, "intro", heading=False)
L.section(flips.GAIN, "curves")
charts.show(charts.gain_chart(4), key="gain_curves")

st.header(t("Your playground ranking under both gains", lang))
n = len(pg.items) + len(pg.unretrieved)  # as the playground's: k may pass the list
if n > 1:
    state.set_widget_from_state(state.GAIN_K, pg.cutoff)
    st.slider(t("Cutoff k", lang), 1, n, key=state.GAIN_K, on_change=state.on_k,
              args=(state.GAIN_K,),
              help=t("The playground's cutoff: changing it here changes it there too.", lang))
k, judged = pg.cutoff, pg.judged
figures, problem = view.scored(pg, ("linear", "exponential"))
if problem:
    learn.scoring_error(problem)

left, right = st.columns([1, 1.2])
with left:
    view.ranked_list(pg, key=state.GAIN_LIST)
    routing.link_to_playground()
if figures:
    for col, (gain, values) in zip(right.columns(2), figures.items()):
        for m, v in zip(("DCG", "IDCG", "NDCG"), values):
            col.metric(learn.at_k(m, k, gain, lang), fmt(v), border=True,
                       help=f"{m}@{k} = {v:.12g}")
    for i, (col, gain) in enumerate(zip(st.columns(2), figures)):
        with col:
            if i == 0:
                tables.pair_marker()  # the two tables wrap where they do not fit side by side
            st.markdown(t("**Linear gain**", lang) if gain == "linear"
                        else t("**Exponential gain**", lang))
            tables.ranking_table(pg.grades, pg.labels, k=k, gain=gain, hint=False)

L.section(flips.GAIN, "flip")
if figures:
    try:
        # the answer depends on the grades, not their order: dragging reuses the cache
        learn.render_flip(pg, flip_of(tuple(sorted(pg.grades, reverse=True)), k,
                                      tuple(sorted(judged, reverse=True)) if judged else None))
    except ValueError as exc:
        learn.scoring_error(exc, t("The flip finder cannot search these grades", lang))

L.section(flips.GAIN, "who-uses-what")
