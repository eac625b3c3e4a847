"""Linear vs exponential gain: the two gain curves, the playground's ranking under both, and
a flip finder for orderings the two gains rank oppositely."""

from dataclasses import replace

import streamlit as st

from ui import controls
from ui import examples as E
from ui import lessons as L
from ui import playground as P

ss = st.session_state
pg = controls.load()  # the playground's shared state (this page never publishes it)


def _on_k():
    ss.pg = replace(ss.pg, k=int(ss.gain_k))
    ss.pg_k = ss.pg.cutoff


@st.cache_data(max_entries=128, show_spinner=False)
def flip_of(grades: tuple, k: int, ideal: tuple | None):
    return E.find_flip(grades, k, ideal=list(ideal) if ideal else None)


L.header(E.GAIN)
L.section(E.GAIN, "intro", heading=False)
L.section(E.GAIN, "curves")
st.plotly_chart(E.gain_chart(4), config={"displaylogo": False}, key="gain_curves")

st.header("Your playground ranking under both gains")
n = len(pg.items)
if n > 1:
    ss.gain_k = pg.cutoff
    st.slider("Cutoff k", 1, n, key="gain_k", on_change=_on_k,
              help="The playground's cutoff: changing it here changes it there too.")
k, pool = pg.cutoff, pg.ideal_pool()
try:
    figures = {g: P.summary(tuple(pg.grades), k, g, tuple(pool) if pool else None)
               for g in ("linear", "exponential")}
except (TypeError, ValueError) as exc:
    figures = None
    st.error(f"These grades cannot be scored: {exc}", icon=":material/error:")

left, right = st.columns([1, 1.2])
with left:
    controls.ranked_list(pg, key="gain_list")
    st.page_link("pages/playground.py", label="Edit the grades in the playground",
                 icon=":material/edit:")
if figures:
    for col, (gain, values) in zip(right.columns(2), figures.items()):
        for m, v in zip(("DCG", "IDCG", "NDCG"), values):
            col.metric(f"{m}@{k} ({gain})", f"{v:.4f}", border=True)
if figures:
    for col, gain in zip(st.columns(2), figures):
        with col:
            st.markdown(f"**{gain.capitalize()} gain**")
            P.one_table(pg.grades, pg.labels, k=k, gain=gain, pool=pool)

L.section(E.GAIN, "flip")
if figures:
    try:
        # the answer depends on the grades, not their order: dragging reuses the cache
        E.render_flip(pg, flip_of(tuple(sorted(pg.grades, reverse=True)), k,
                                  tuple(sorted(pool, reverse=True)) if pool else None))
    except ValueError as exc:
        st.error(f"The flip finder cannot search these grades: {exc}", icon=":material/error:")

L.section(E.GAIN, "who-uses-what")
