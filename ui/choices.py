"""The data page's "Choose gain and cutoff" tab: the evidence for choosing NDCG's gain and
cutoff on the team's own runs (agreement, discriminative power, stability, topic-set size),
a recommendation in words, charts for a design doc, exports, and the query where a choice
and the reference disagree most, opened in the playground.

Every figure comes from :mod:`ndcg_core.choices`; the words and the grid of choices from
:mod:`lab.choices`; the charts from :mod:`ui.choice_charts`. Results are cached per session
with the page's other results (:func:`ui.your_data._cached`).
"""

from __future__ import annotations

import functools
import time

import pandas as pd
import streamlit as st

import ndcg_core as nc
from lab import choices as LC, options_text as O, runs as R
from lab.errors import explain
from lab.i18n import t
from lab.text import DATA_DECIMALS, MISSING, escape_markdown, gain_name, number_format
from lab import slides as slide_images
from ui import (choice_charts as CC, charts, routing, run_summary, slides, state, tables,
                your_data as D)

PROGRESS_AFTER = 1.0  # seconds: a shorter computation shows no bar


class _Progress:
    """A progress bar that appears only once the work has taken PROGRESS_AFTER seconds."""

    def __init__(self, text: str):
        self.start, self.text = time.perf_counter(), text
        self.slot, self.bar = st.empty(), None

    def __call__(self, fraction: float):
        if self.bar is None and time.perf_counter() - self.start > PROGRESS_AFTER:
            self.bar = self.slot.progress(0.0, text=self.text)
        if self.bar is not None:
            self.bar.progress(min(1.0, fraction), text=self.text)

    def done(self):
        self.slot.empty()


def _evidence(qrels, runs: tuple, choices: dict, settings, test: str):
    """Every run's scores under every choice, every pair's p-values and both τ matrices:
    what does not depend on the reference, α or the correction (cached per session)."""
    def compute():
        bar = _Progress(t("Weighing the choices …", state.language()))
        q, _ = D.load("qrels", qrels)
        frames = {name: D.load("run", up)[0] for name, up in runs}
        base = dict(settings.opts, convention=settings.preset)
        specs = {n: {**base, **spec} for n, spec in choices.items()}
        try:
            scores = nc.choice_scores(q, frames, specs, progress=lambda f: bar(0.7 * f))
            pvalues = nc.pair_pvalues(scores, test=test)
            bar(0.9)
            return dict(scores=scores, pvalues=pvalues, key=key, test=test,
                        kendall_tau=nc.tau_matrix(scores),
                        tau_ap=nc.tau_matrix(scores, measure="tau_ap")), None
        except ValueError as exc:
            return None, str(exc)
        finally:
            bar.done()
    key = ("choices", D._upload_key(qrels), D.runs_key(runs), tuple(
        (n, tuple(s.items())) for n, s in choices.items()), settings.preset, settings.options,
        test)
    return D._cached(key, compute)


def _table(evidence: dict, reference, correction, alpha: float):
    """compare_choices's table from the cached scores and p-values (cached)."""
    return D._cached(
        ("choices table", evidence["key"], reference, correction, alpha),
        lambda: nc.compare_choices(None, None, None, reference=reference,
                                   test=evidence["test"], alpha=alpha, correction=correction,
                                   scores=evidence["scores"], pvalues=evidence["pvalues"]))


def _stability(evidence: dict, difference: float, alpha: float):
    """The swap-rate curve, the sizes where it falls under 5 %, Sakai's sizes (cached)."""
    def compute():
        curve = nc.swap_curve(evidence["scores"], difference=difference)
        return (curve, nc.queries_for_swap_rate(curve, target=LC.SWAP_TARGET),
                nc.topic_set_size(evidence["scores"], difference=difference, alpha=alpha,
                                  power=LC.POWER))
    return D._cached(("stability", evidence["key"], difference, alpha), compute,
                     t("Splitting the queries …", state.language()))


def _controls(choices_now: list, labels: dict):
    lang = state.language()
    test, corr = nc.COMPARE_OPTIONS["test"], nc.COMPARE_OPTIONS["correction"]
    c = st.columns([1.5, 1.4, 1.2, 0.8, 1.1])
    c[0].selectbox(t("Reference choice", lang), choices_now, key=state.CH_REFERENCE,
                   format_func=labels.get,
                   help=t("The choice the others are compared with: τ and the swapped pairs "
                          "are against its ordering.", lang))
    c[1].selectbox(O.label("test", lang=lang), list(test.choices), key=state.CH_TEST,
                   format_func=O.namer("test", lang=lang), help=O.help_text("test", lang=lang))
    words = {state.NO_CORRECTION if v is None else v: v for v in corr.choices}
    c[2].selectbox(O.label("correction", lang=lang), list(words), key=state.CH_CORRECTION,
                   format_func=lambda w: O.value_name("correction", words[w], lang=lang),
                   help=t("None by default: discriminative power counts the pairs with an "
                          "unadjusted p-value below α (Sakai 2006).", lang))
    c[3].number_input("α", min_value=0.001, max_value=0.5, step=0.01, format="%.3f",
                      key=state.CH_ALPHA, help=t("A pair of systems is separated when its "
                                                 "p-value is below α.", lang))
    c[4].number_input(t("Smallest difference", lang), min_value=0.001, max_value=0.5,
                      step=0.005, format="%.3f", key=state.CH_DIFFERENCE,
                      help=t("The smallest difference in mean NDCG worth detecting: the "
                             "swap-rate curve counts pairs at least this far apart, and the "
                             "topic-set size is for it.", lang))


def show(qrels, runs: tuple, settings) -> None:
    """The tab, for these uploads and the page's settings (every option but gain, k and
    judged-only is the page's)."""
    lang = state.language()
    state.choices_init({state.CH_GAINS: list(LC.GAINS), state.CH_KS: list(LC.DEFAULT_CUTOFFS),
                        state.CH_DISCOUNTS: list(LC.DISCOUNTS), state.CH_JUDGED: False, state.CH_TEST: "t",
                        state.CH_ALPHA: state.DEFAULT_ALPHA,
                        state.CH_CORRECTION: state.NO_CORRECTION,
                        state.CH_DIFFERENCE: LC.DEFAULT_DIFFERENCE, state.CH_TAU: "kendall_tau"})
    st.caption(t("Which gain and cutoff should your team report? The evidence the IR "
                 "literature uses, on your runs: do the choices order the systems alike, how "
                 "many pairs does each separate, how stable is it between halves of the "
                 "queries, and how many queries does it need. Every other option is set "
                 "above.", lang))
    c = st.columns([1.2, 1.4, 1.4, 1.4], vertical_alignment="bottom")
    c[0].multiselect(t("Gains", lang), list(LC.GAINS), key=state.CH_GAINS,
                     format_func=functools.partial(gain_name, lang=lang))
    c[1].multiselect(t("Discounts", lang), list(LC.DISCOUNTS), key=state.CH_DISCOUNTS,
                     format_func=functools.partial(LC.discount_name, lang=lang),
                     help=t("log2(i + 1), the usual discount; steeper: Järvelin & "
                            "Kekäläinen's log_b(i) with b = 1.5 (rank 1 undiscounted), under "
                            "which every rank counts less against the one above it than "
                            "under log2(i + 1): a user who rarely reads past the first "
                            "results.", lang))
    c[2].multiselect(t("Cutoffs k", lang), D.CUTOFF_CHOICES, key=state.CH_KS)
    c[3].toggle(t("Also judged only", lang), key=state.CH_JUDGED,
                help=t("Each choice also with unjudged documents removed before ranking "
                       "(condensed lists, Sakai 2007).", lang))
    ss = st.session_state
    choices = LC.grid(ss[state.CH_GAINS], ss[state.CH_KS], ss[state.CH_JUDGED],
                      ss[state.CH_DISCOUNTS])
    if not choices:
        st.info(t("Choose at least one gain, one discount and one cutoff.", lang),
                icon=":material/tune:")
        return
    labels = {n: LC.label(n, spec, lang=lang) for n, spec in choices.items()}
    state.choices_init({}, among={state.CH_REFERENCE: list(choices)})
    ref = ss[state.CH_REFERENCE]  # the choice opened first is one that can differ from it
    state.choices_init({}, among={state.CH_OPEN: [n for n in choices if n != ref] + [ref]})
    _controls(list(choices), labels)
    test, alpha = ss[state.CH_TEST], float(ss[state.CH_ALPHA])
    correction = None if ss[state.CH_CORRECTION] == state.NO_CORRECTION else ss[
        state.CH_CORRECTION]
    evidence, err = _evidence(qrels, runs, choices, settings, test)
    if err:
        st.warning(t("The choices cannot be compared: {message}", lang,
                     message=escape_markdown(explain(err, lang))), icon=":material/warning:")
        return
    table = _table(evidence, ref, correction, alpha)
    difference = float(ss[state.CH_DIFFERENCE])
    curve, swap_queries, sizes = _stability(evidence, difference, alpha)
    test_name = O.value_name("test", test, lang=lang)
    if correction:
        test_name = t("{test}, {correction}", lang, test=test_name,
                      correction=O.value_name("correction", correction, lang=lang))
    reason, caveat = LC.recommendation(table, sizes, labels, difference=difference,
                                       test_name=test_name, lang=lang, choices=choices,
                                       taus=evidence["kendall_tau"])
    st.success(reason, icon=":material/recommend:")
    st.info(caveat, icon=":material/info:")
    _show_table(table, sizes, swap_queries, labels, choices)
    _charts(evidence, table, curve, labels, difference)
    _swaps_and_playground(evidence["scores"], table, qrels, runs, choices, labels, settings)


def _show_table(table, sizes, swap_queries, labels, choices):
    lang = state.language()
    view = LC.table_view(table, labels)
    view["queries needed"] = sizes["queries"].to_numpy()
    view["queries for swaps < 5 %"] = swap_queries.reindex(table.index)["queries"].to_numpy()
    decimals = number_format(DATA_DECIMALS)
    words = {
        "choice": (t("choice", lang), None),
        "kendall_tau": ("τ", t("Kendall's τ-b between the systems' orderings by mean NDCG "
                               "under this choice and under the reference.", lang)),
        "tau_ap": ("τ_AP", t("τ_AP (Yilmaz, Aslam & Robertson 2008): like τ, but a swap near "
                             "the top costs more. A pair tied in either ordering counts ½.",
                             lang)),
        "discriminative_power": (t("pairs separated", lang), t(
            "Discriminative power (Sakai 2006): the share of pairs of systems whose paired "
            "test gives p < α (adjusted if a correction is chosen).", lang)),
        "significant_pairs": (t("separated", lang), None),
        "pairs": (t("pairs", lang), None),
        "swap_rate": (t("swap rate", lang), t(
            "The share of pairs that one half of the queries orders one way and the other "
            "half the other way, over 200 random splits (Voorhees & Buckley 2002).", lang)),
        "swapped_pairs": (t("pairs swapped", lang), t(
            "Pairs of systems this choice orders the other way from the reference.", lang)),
        "best": (t("best run", lang), None),
        "queries needed": (t("queries needed", lang), t(
            "Sakai's (2016) topic-set size: the queries a paired t-test needs to detect the "
            "smallest difference with 80 % power.", lang)),
        "queries for swaps < 5 %": (t("queries for swaps < 5 %", lang), t(
            "The query-set size at which the swap rate of pairs at least the smallest "
            "difference apart falls under 5 % (measured, or extrapolated as Voorhees & "
            "Buckley 2002 did).", lang)),
    }
    config = {}
    for column in view.columns:
        label, help_ = words.get(column, (column, None))
        if pd.api.types.is_float_dtype(view[column]):
            fmt = "%.0f" if column.startswith("queries") else decimals
            config[column] = st.column_config.NumberColumn(label, help=help_, format=fmt)
        else:
            config[column] = st.column_config.TextColumn(label, help=help_,
                                                         pinned=column == "choice")
    tables.swipe_hint()  # twelve columns: the phone's hint; elsewhere the caption under it
    st.dataframe(view, hide_index=True, width="stretch", key="ch_table", column_config=config,
                 placeholder=MISSING)
    run_summary.scroll_hint(view)
    for n, note in table["note"].items():
        if note:
            st.caption(t("{choice}: {why}", lang, choice=labels[n],
                         why=LC.note_text(note, lang=lang)))
    attrs = table.attrs
    st.caption(t("{n} queries, {systems} runs; {test}, α = {alpha}; randomization and "
                 "bootstrap with {resamples} resamples; swap rate over {splits} splits into "
                 "halves.", lang, n=attrs["n_queries"], systems=len(attrs["systems"]),
                 test=O.value_name("test", attrs["test"], lang=lang),
                 alpha=f"{attrs['alpha']:g}", resamples=f"{attrs['n_resamples']:,}",
                 splits=attrs["n_splits"]))
    labels_en = {n: LC.label(n, spec, lang="en") for n, spec in choices.items()}
    st.download_button(t("Download the evidence (CSV)", lang),
                       LC.export_csv(table, sizes, swap_queries, labels_en),
                       file_name="ndcg_choices.csv", mime="text/csv", key="ch_download",
                       icon=":material/download:", on_click="ignore")


def _charts(evidence, table, curve, labels, difference):
    lang = state.language()
    measure = st.segmented_control(
        t("Agreement measure", lang), ["kendall_tau", "tau_ap"], key=state.CH_TAU,
        required=True, format_func={"kendall_tau": "Kendall's τ", "tau_ap": "τ_AP"}.get)
    figures = {
        "heatmap": CC.tau_heatmap(evidence[measure], labels, measure),
        "power": CC.power_chart(table, labels),
        "significance": CC.significance_chart(nc.achieved_significance(evidence["pvalues"]),
                                              labels, table.attrs["alpha"]),
        "swaps": CC.swap_chart(curve, labels, difference, LC.SWAP_TARGET)}
    charts.show(figures["heatmap"], key="ch_heatmap")
    left, right = st.columns(2)
    with left:
        charts.show(figures["power"], key="ch_power")
    with right:
        charts.show(figures["significance"], key="ch_asl")
    charts.show(figures["swaps"], key="ch_swaps")
    st.caption(t("The camera button above each chart saves it as a PNG for a design doc.",
                 lang))
    _slides(figures)


def _slides(figures: dict):
    """PNG and SVG of each chart at 1600 × 900, drawn on the server on click (Kaleido,
    lab/slides.py), as the playground's slide images are."""
    lang = state.language()
    with st.popover(t("Slides", lang), icon=":material/slideshow:"):
        if not slide_images.available():
            st.caption(t("Slide images need a Chromium on the server (Debian: apt-get install "
                         "chromium).", lang))
            return
        st.caption(t("Images 1600 × 900 px, drawn on the server when you click.", lang))
        names = {"heatmap": t("τ heatmap", lang), "power": t("Pairs separated", lang),
                 "significance": t("Achieved significance", lang),
                 "swaps": t("Swap-rate curve", lang)}
        for name, fig in figures.items():
            slides.downloads(names[name], functools.partial(_same, fig), key=f"ch_slide_{name}",
                             stem=f"choices-{name}")


def _same(fig):
    return fig


def _swaps_and_playground(scores, table, qrels, runs, choices, labels, settings):
    lang = state.language()
    ref = table.attrs["reference"]
    rows = []
    for name in choices:
        if name == ref:
            continue
        for p in nc.swapped_pairs(scores, name, reference=ref).itertuples(index=False):
            rows.append({"choice": labels[name], "run 1": p.system_1, "run 2": p.system_2,
                         "reference 1": p.reference_1, "reference 2": p.reference_2,
                         "choice 1": p.choice_1, "choice 2": p.choice_2})
    st.subheader(t("Pairs of runs that swap against {ref}", lang, ref=labels[ref]))
    if rows:
        swaps = pd.DataFrame(rows)
        headers = {"choice": t("choice", lang), "run 1": t("run 1", lang),
                   "run 2": t("run 2", lang), "reference 1": t("run 1 under the reference", lang),
                   "reference 2": t("run 2 under the reference", lang),
                   "choice 1": t("run 1 under the choice", lang),
                   "choice 2": t("run 2 under the choice", lang)}
        decimals = number_format(DATA_DECIMALS)
        tables.swipe_hint()
        st.dataframe(swaps, hide_index=True, width="stretch", key="ch_swapped",
                     column_config={c: st.column_config.NumberColumn(headers[c], format=decimals)
                                    if c.startswith(("reference", "choice ")) else
                                    st.column_config.TextColumn(headers[c], pinned=c == "choice")
                                    for c in swaps.columns})
        run_summary.scroll_hint(swaps)
    else:
        st.caption(t("Every choice orders the runs as the reference does.", lang))
    st.subheader(t("Where a choice and the reference disagree most", lang))
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    name = c1.selectbox(t("Choice", lang), list(choices), key=state.CH_OPEN,
                        format_func=labels.get)
    spot = nc.disagreement(scores, name, reference=ref)
    if spot is None:
        c2.caption(t("No query scores differently under this choice.", lang))
        return
    st.caption(t("Query {qid}, run {run}: NDCG {before} under {ref}, {after} under {choice}.",
                 lang, qid=escape_markdown(spot["qid"]), run=escape_markdown(spot["system"]),
                 before=f"{spot['reference']:.4f}", after=f"{spot['choice']:.4f}",
                 ref=labels[ref], choice=labels[name]))
    if LC.is_steep(choices[name]):  # the playground draws log2, ln and J&K's b = 2 only
        st.caption(t("The playground has no log_1.5 discount: it opens this query under "
                     "log2(i + 1), with this choice's gain and cutoff.", lang))
    if c2.button(t("Open in playground", lang), key="ch_open_button",
                 icon=":material/open_in_new:"):
        spec = choices[name]
        q, r = D.frames(qrels, dict(runs)[spot["system"]])
        if spec["judged_only"]:
            r = R.judged_run(q, r)
        opts = dict(settings.options, gain=spec["gain"])
        chosen = R.Settings((spec["k"],), settings.preset, tuple(opts.items()),
                            spec["judged_only"])
        params = R.playground_link(q, r, spot["qid"], chosen, spec["k"])
        if params is not None:
            st.switch_page(routing.PLAYGROUND, query_params=routing.within_limit(params))
