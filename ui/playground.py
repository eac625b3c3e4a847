"""The playground's renderers: the settings row, the buttons, the ranking table (the list
the user drags and edits, which is its own DCG table, with the ideal beside it and the
figures above), the formula, the charts and the notices. Undo and Redo are the table's own
buttons (beside "+ Add item": they answer with the table, in order with its moves). The
state they read and every write they cause go through :mod:`ui.state`; every figure comes
from ndcg_core through :mod:`lab.ranking_table` (the table's, the formula's and the
charts': :func:`figures`; the lessons' pages read :func:`scored`).

Why there is no ``st.data_editor`` grid any more: the table edits grades, labels, adds and
removes in place, with the same refusal rule (:func:`lab.playground.apply_event`); a
second editable view of the same items would be a second path for every edit (its own
row order, its own deltas) and would push the figures below the first screen.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from lab import grades as G, playground as P, ranking_table as RT
from lab import rules as mistake_rules
from lab.i18n import t
from lab.text import escape_markdown, fmt_grade, gain_name
from ui import charts as plotly_charts, state
from ui.ranking_table import View, ranking_formula, ranking_table, settled_listener
from ui.sortable import sortable_list



def button_specs(lang: str) -> list[tuple[str, str, str, str]]:
    """(action, label, icon, help) of the five reorder buttons: short labels, so the five
    fit beside the title at 1280 px."""
    return [
        ("ideal", t("Ideal", lang), ":material/vertical_align_top:",
         t("Ideal order: highest grades first", lang)),
        ("worst", t("Worst", lang), ":material/vertical_align_bottom:",
         t("Worst order: lowest grades first", lang)),
        ("reverse", t("Reverse", lang), ":material/swap_vert:", t("Reverse the list", lang)),
        ("shuffle", t("Shuffle", lang), ":material/shuffle:",
         t("Shuffle the list (seeded)", lang)),
        ("reset", t("Reset", lang), ":material/restart_alt:",
         t("Back to the ranking this page opened with", lang)),
    ]



def notices(pg: P.Playground):
    """A link that could not be read, and grades the chosen scale cannot take (each text
    escaped: labels and links are user input)."""
    lang = state.language()
    link = state.pop_notice()
    if link:
        problem = escape_markdown(link["problem"])
        st.warning(t("The link's ranking could not be read ({problem}), so your current "
                     "ranking is kept.", lang, problem=problem) if link["kept"] else
                   t("The link's ranking could not be read ({problem}), so the default "
                     "example is shown instead.", lang, problem=problem),
                   icon=":material/link_off:")
    off = [it for it in pg.items if it.grade is not None and not G.fits_scale([it.grade],
                                                                             pg.scale)]
    if off:
        names = ", ".join(f"{escape_markdown(it.label)} ({fmt_grade(it.grade)})"
                          for it in off[:5])
        scale = G.scale_label(pg.scale, lang=lang)  # our own words, not user text
        st.warning(t("Outside the {scale} scale: {names} and {n} more. Edit these grades, or "
                     "choose the free scale.", lang, scale=scale, names=names, n=len(off) - 5)
                   if len(off) > 5 else
                   t("Outside the {scale} scale: {names}. Edit these grades, or choose the "
                     "free scale.", lang, scale=scale, names=names),
                   icon=":material/straighten:")
    if pg.rules.changed:  # the figures below are a mistake's: say so where they are read
        st.warning(t("Mistake settings on: {settings}.", lang,
                     settings=mistake_rules.summary(pg.rules, lang)), icon=":material/bug_report:")


def settings(pg: P.Playground):
    lang = state.language()
    state.settings_widgets(pg)
    # the gain's three options on one line (a wrapped radio costs a line of height)
    a, b, c, d = st.columns([2.6, 1.9, 1.2, 1.7])
    a.radio(t("Gain", lang), P.GAINS, key=state.GAIN_WIDGET, horizontal=True,
            on_change=state.on_settings, format_func=partial(gain_name, lang=lang),
            help=t("linear: gain = grade. exponential: gain = 2^grade − 1. both: side by "
                   "side.", lang))
    n = len(pg.items) + len(pg.unretrieved)  # k may pass the list: the unretrieved count
    if n > 1:
        b.slider(t("Cutoff k", lang), 1, n, key=state.K_WIDGET, on_change=state.on_settings,
                 help=t("Only the top k positions count, in the ranking and in the ideal.",
                        lang))
    else:
        b.markdown(t("**Cutoff k** = 1 (one item)", lang))
    c.selectbox(t("Grade scale", lang), list(G.SCALES), key=state.SCALE_WIDGET,
                on_change=state.on_settings, format_func=partial(G.scale_label, lang=lang))
    d.text_input(t("Judged but not retrieved", lang), key=state.UNRETRIEVED_WIDGET,
                 on_change=state.on_settings, placeholder=t("e.g. 3, 2", lang),
                 help=t("The unretrieved grades: those of judged items the ranking missed. "
                        "They count in the ideal (like trec_eval), not in your ranking.",
                        lang))
    if state.unretrieved_error():
        d.error(escape_markdown(state.unretrieved_error()))


def settings_drawn():
    """The settings row's hidden twin: which of the server's settings of the row this page
    shows, reported with every rerun (:data:`ui.state.SETTINGS_DRAWN`). Drawn after the
    row's widgets (the mistake settings too), so the browser has taken their values when it
    takes this one; hidden by ui/fit.css."""
    st.number_input(t("Settings shown", state.language()), key=state.SETTINGS_DRAWN,
                    step=1, label_visibility="collapsed")


def mistake_settings(pg: P.Playground):
    """The advanced settings (lab.rules), folded away below the table so the first screen
    stays as it was: each a real ndcg_core option, the right convention first; the Common
    mistakes page opens the playground with the one it shows (a notice above the figures
    says when one is on). A change reruns the app (the settings row's signature changed)."""
    lang = state.language()
    names, choices = mistake_rules.setting_names(lang), mistake_rules.choice_names(lang)
    with st.expander(t("Advanced: mistake settings", lang), icon=":material/bug_report:",
                     expanded=bool(pg.rules.changed)):
        st.caption(t("Advanced: compute NDCG the way a catalogued mistake does", lang))
        cols = st.columns(3)
        for i, (name, values) in enumerate(mistake_rules.CHOICES.items()):
            cols[i % 3].selectbox(names[name], values, key=state.RULE_WIDGET.format(name),
                                  on_change=state.on_rules, format_func=choices[name].get)
        st.button(t("Back to the right conventions", lang), key="pg_rules_reset",
                  on_click=state.on_rules, args=(True,), disabled=not pg.rules.changed)


def buttons(where=st):
    """The five reorder buttons, in a row inside ``where``."""
    row = where.container(horizontal=True, gap="small", width="content")
    for action, label, icon, help_ in button_specs(state.language()):
        row.button(label, key=f"pg_btn_{action}", icon=icon, on_click=state.on_button,
                   args=(action,), help=help_)


def ranked_list(pg: P.Playground, *, key: str):
    """The shared ranking as a compact draggable list (the lessons' pages: gain, beyond)."""
    k = pg.cutoff
    items = [{"id": it.id, "label": it.label, "grade": fmt_grade(it.grade),
              "dimmed": pos > k} for pos, it in enumerate(pg.items, start=1)]
    sortable_list(items, key=key, on_change=partial(state.on_list_move, key))


def table(pg: P.Playground, key: str = state.LIST):
    """The ranking table of the shared state: figures, the ranking's rows (drag, edit, add,
    remove) and the ideal ordering, every figure from the engine. Its events go to the
    playground's history (:data:`ui.state.PLAYGROUND_TABLE`)."""
    # "judged i": the table tags these rows "not retrieved" itself
    lang = state.language()
    unretrieved = [{"label": t("judged {i}", lang, i=i), "grade": g}
                   for i, g in enumerate(pg.unretrieved, start=1)]
    ranking_table([{"id": it.id, "label": it.label, "grade": it.grade} for it in pg.items],
                  k=pg.cutoff, gain=pg.gain, key=key, scale=G.SCALES[pg.scale],
                  unretrieved=(unretrieved or None) if pg.judged else None, rules=pg.rules,
                  owner=state.PLAYGROUND_TABLE, view=View(size=state.table_size()))


def settled():
    """Reruns the fragment it is drawn in once the ranking table has drawn the engine's
    answer to a move or an edit (nothing on screen)."""
    settled_listener(key=state.SETTLED)


def formula():
    """DCG@k's and IDCG@k's sums and the NDCG ratio, per gain shown: the ranking table's
    figures, and in the browser its preview in the same frame (no rerun, no KaTeX)."""
    ranking_formula(table=state.LIST, key=state.FORMULA, size=state.table_size())


def figures(pg: P.Playground) -> tuple[dict | None, str | None]:
    """This run's figures, per gain shown (``{gain: lab.ranking_table.gain_figures}``: the
    ranking table's own, memoised by value), or (None, why they cannot be computed). The
    page computes them once per run and hands them to the charts and the slides."""
    problem = _ungraded(pg)
    if problem:
        return None, problem
    try:
        return {g: RT.gain_figures(pg.grades, pg.cutoff, g, pg.judged, rules=pg.rules)
                for g in pg.gains}, None
    except ValueError as exc:
        return None, str(exc)


def _ungraded(pg: P.Playground) -> str | None:
    missing = P.missing_grade(pg)
    if missing:
        label, pos = missing
        return t("{label} (position {position}) has no grade: type a number in its "
                 "grade cell.", state.language(), label=label, position=pos)
    return None


def scored(pg: P.Playground, gains) -> tuple[dict | None, str | None]:
    """({gain: (DCG@k, IDCG@k, NDCG@k)} from the engine, None) or (None, why not)."""
    problem = _ungraded(pg)
    if problem:
        return None, problem
    try:
        return {g: tuple(P.figures(pg.grades, pg.cutoff, g, pg.judged, pg.rules))
                for g in gains}, None
    except ValueError as exc:
        return None, str(exc)


def charts(pg: P.Playground, figures: dict):
    """The contributions of the first gain shown and the NDCG@k curve, from this run's
    ``figures`` (:func:`figures`): the numbers the table and the formula show. With a
    mistake setting on, the charts draw the right conventions' figures, and say so."""
    if pg.rules.changed:
        st.caption(t("The charts use the right conventions, not the mistake settings.",
                     state.language()))
        figures = {g: RT.gain_figures(pg.grades, pg.cutoff, g, pg.judged, rules=mistake_rules.RIGHT)
                   for g in figures}
    gain = next(iter(figures))
    left, right = st.columns(2)
    with left:
        plotly_charts.show(plotly_charts.contribution_chart(pg.cutoff, gain, figures[gain]))
    with right:
        plotly_charts.show(plotly_charts.curve_chart(pg.grades, pg.cutoff, pg.judged,
                             {g: f["ranking"]["ndcg"] for g, f in figures.items()}))
