"""Start here: CG → DCG → IDCG → NDCG on one small list, one step at a time; why a position
discount; what a grade is and where grades come from."""

import pandas as pd
import streamlit as st

import ndcg_core as nc
from ui import examples as E
from ui import lessons as L
from ui import playground as P

ss = st.session_state
ss.setdefault("sh_step", 0)


def _move(by: int):
    ss.sh_step = max(0, min(ss.sh_step + by, len(E.TOUR) - 1))


L.header(E.START)
L.section(E.START, "intro", heading=False)

# ---- the guided tour: one (lesson section, state) pair per step
step = E.TOUR[ss.sh_step]
heading = L.lesson(E.START)["sections"][step.section][0]
st.progress((ss.sh_step + 1) / len(E.TOUR), text=f"{ss.sh_step + 1} of {len(E.TOUR)} · "
            f"{heading}")
prev, _, nxt = st.columns([1, 4, 1])
prev.button("Previous", key="sh_prev", icon=":material/arrow_back:", on_click=_move,
            args=(-1,), disabled=ss.sh_step == 0, width="stretch")
nxt.button("Next", key="sh_next", icon=":material/arrow_forward:", on_click=_move, args=(1,),
           disabled=ss.sh_step == len(E.TOUR) - 1, width="stretch")
with st.container(border=True):
    L.section(E.START, step.section)
    E.render_step(step)

# ---- why a positional discount
L.section(E.START, "why-discount")
pos = st.slider("Position of the one relevant item", 1, 10, 10, key="sh_hit_pos")
for i, (col, p) in enumerate(zip(st.columns(2), (1, pos))):
    with col:
        grades = E.single_hit(p)
        st.markdown(f"**Relevant item at position {p}** · grades {E.show(grades)}")
        E.metric_row([("precision@10", nc.precision_at_k(grades, k=10), ".4f"),
                      ("NDCG@10", nc.ndcg(grades, k=10), ".4f")])
        P.open_in_playground([f"Product {i}" for i in range(1, 11)], grades, k=10,
                             key=f"sh_open_hit_{i}")
st.plotly_chart(E.hit_chart(10), config={"displaylogo": False}, key="sh_hit_chart")

# ---- grades: what they are, where they come from
L.section(E.START, "grades")
L.section(E.START, "where-grades-come-from")
mapping = st.radio("Turn what shoppers did into grades", list(E.MAPPINGS), key="sh_mapping")
shop = pd.DataFrame({"product": [p for p, _ in E.SHOP], "what the shopper did":
                     pd.Series([a for _, a in E.SHOP], dtype="object")})
edited = st.data_editor(
    shop, key="sh_actions", hide_index=True, width="stretch", disabled=["product"],
    column_config={"what the shopper did": st.column_config.SelectboxColumn(
        options=list(E.ACTIONS), required=True)})
actions = [a if a in E.ACTIONS else "ignored" for a in edited["what the shopper did"]]
grades, labels = E.grades_of(actions, mapping), list(edited["product"])
k = len(grades)
E.metric_row([(f"shop list NDCG@{k} ({gain})", P.summary(tuple(grades), k, gain, None)[2], ".4f")
              for gain in ("linear", "exponential")])
P.dcg_tables(grades, labels, k=k, gain="linear")
P.open_in_playground(labels, grades, k=k, gain="both", key="sh_open_shop")
