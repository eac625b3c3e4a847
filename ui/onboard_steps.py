"""A member's path: their progress, the steps with their levels, and the step they work on,
whose evidence is checked here (lab/onboarding/checks.py) and recorded as an event.

Questions are numbered per member (the same member sees the same question after a reload);
*New question* moves to the next number. Names and labels are drawn as data.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lab import handouts
from lab.i18n import t
from lab.onboarding import checks as C, record as REC, steps as S
from lab.onboarding.store import Member
from lab.text import escape_markdown, fmt, fmt_grade
from ui import onboard_repro
from ui.onboarding import (KEY, check, note, personal_link, remember, set_note, show_note,
                           store)
from ui.sortable import sortable_list

ss = st.session_state
MARKS = {S.DONE: "✓", S.TRIED: "…", S.NOT_STARTED: "○"}


def render(member: Member, lang: str) -> None:
    team = store().team(member.team_code)
    remember(team.code, "member", st.query_params.get("me", ""))
    prog = store().progress(member)
    shown = S.available()
    done = sum(prog[s].level == S.DONE for s in shown)
    st.title(t("Onboarding", lang))
    st.caption(t("Team {team} · you are {name} (member {n})", lang,
                 team=escape_markdown(team.name), name=escape_markdown(member.name),
                 n=member.number))
    st.progress(done / len(shown), text=S.progress_line(done, len(shown), lang))
    with st.expander(t("Your personal link (opens your progress on any device)", lang),
                     icon=":material/link:"):
        st.code(personal_link(member, st.query_params.get("me", "")), language=None,
                wrap_lines=True)
    left, right = st.columns([1, 2], gap="large")
    with left:
        first_open = next((s for s in S.STEP_IDS if s in shown and prog[s].level != S.DONE),
                          S.STEP_IDS[0])
        step = st.radio(t("Steps", lang), S.STEP_IDS, key=KEY("step"),
                        index=S.STEP_IDS.index(first_open),
                        format_func=lambda s: _step_label(s, prog, shown, lang))
    with right:
        _panel(member, step, prog, shown, lang)
    if prog["reproduce"].level == S.DONE:
        _record(member, team, lang)


def _step_label(step: str, prog, shown, lang: str) -> str:
    i = S.STEP_IDS.index(step) + 1
    if step not in shown:
        return f"{i}. {S.title(step, lang)} · {t('coming', lang)}"
    return f"{MARKS[prog[step].level]} {i}. {S.title(step, lang)}"


def _number(member: Member, step: str) -> int:
    return ss.get(KEY(f"n_{step}")) or member.id * 7 + 1


def _next(step: str, member: Member) -> None:
    ss[KEY(f"n_{step}")] = _number(member, step) + 1
    set_note(f"v_{step}", None)


def _panel(member: Member, step: str, prog, shown, lang: str) -> None:
    info = S.BY_ID[step]
    st.subheader(S.title(step, lang), anchor=False)
    st.caption(t("{teaches} About {m} min.", lang, teaches=S.teaches(step, lang),
                 m=info.minutes))
    if step not in shown:
        st.info(t("Coming: the code exercises are not on this server yet. This step counts "
                  "once they are.", lang), icon=":material/construction:")
        return
    store().start(member, step)
    level = prog[step].level
    st.markdown(t("Level: **{level}**", lang, level=S.level_name(level, lang)))
    st.page_link(info.page, label=t("The lesson that teaches it", lang),
                 icon=":material/school:")
    n = _number(member, step)
    {"ndcg": _ndcg, "drag": _drag, "flip": _flip, "cutoff": _cutoff,
     "conventions": _conventions, "mistakes": _mistakes, "code": _code, "review": _review,
     "reproduce": onboard_repro.render}[step](member, n, lang)
    verdict = note(f"v_{step}")
    if verdict and verdict["n"] == n:
        {C.RIGHT: st.success, C.STREAK: st.success, C.WRONG: st.warning,
         C.INVALID: st.error}[verdict["status"]](verdict["message"])
    show_note("check")
    if step not in ("mistakes", "reproduce"):
        st.button(t("New question", lang), key=KEY(f"new_{step}"), on_click=_next,
                  args=(step, member), icon=":material/refresh:")


def ranking(labels, grades, lang: str) -> None:
    st.dataframe(pd.DataFrame({t("position", lang): range(1, len(grades) + 1),
                               t("item", lang): list(labels),
                               t("grade", lang): [fmt_grade(g) for g in grades]}),
                 hide_index=True)


def _gain(gain: str, lang: str) -> str:
    from lab.text import gain_name
    return gain_name(gain, lang=lang, long=True)


# ------------------------------------------------------------------ the steps

def _ndcg(member, n, lang):
    ex = C.ndcg_question(n)
    st.markdown(t("What is NDCG@{k} of this ranking, with {gain}? Three decimals.", lang,
                  k=ex.k, gain=_gain(ex.gain, lang)))
    ranking(ex.labels, ex.grades, lang)
    with st.form(KEY(f"f_ndcg_{n}"), border=False):
        st.text_input(t("NDCG@{k} =", lang, k=ex.k), key=KEY(f"a_ndcg_{n}"), max_chars=40)
        st.form_submit_button(t("Check", lang), type="primary", on_click=check, args=(
            member, "ndcg", n, lambda: C.check_ndcg(n, ss.get(KEY(f"a_ndcg_{n}")), lang)))


def _drag(member, n, lang):
    q = C.drag_question(n)
    st.markdown(t("Drag the items until NDCG@{k} ({gain}) is **{target}**, then check.", lang,
                  k=q.k, gain=_gain(q.gain, lang), target=fmt(q.target)))
    key = KEY(f"order_{n}")
    memo = KEY(f"drawn_{n}")
    by_label = dict(zip(q.labels, q.grades))
    order = ss.get(memo) or list(q.labels)

    def moved():
        new = (ss.get(key) or {}).get("order")
        if isinstance(new, list) and sorted(new) == sorted(q.labels):
            ss[memo] = list(new)
    order = sortable_list([{"id": x, "label": x, "grade": by_label[x],
                            "dimmed": i >= q.k} for i, x in enumerate(order)],
                          key=key, on_change=moved)
    from ndcg_core import ndcg
    st.caption(t("This order: NDCG@{k} = {value}", lang, k=q.k,
                 value=fmt(ndcg([by_label[x] for x in order], k=q.k, gain=q.gain))))
    st.button(t("Check my order", lang), type="primary", key=KEY(f"check_drag_{n}"),
              on_click=check, args=(member, "drag", n,
                                    lambda: C.check_drag(n, ss.get(memo) or list(q.labels),
                                                         lang)))


def _flip(member, n, lang):
    ex = C.flip_question(n)
    st.markdown(t("Grades {grades}, cutoff k = {k}. Find two orderings of them whose winner "
                  "changes with the gain: A beats B under linear gain, B beats A under "
                  "exponential gain (or the other way round).", lang,
                  grades=" ".join(map(str, ex.grades)), k=ex.k))
    with st.form(KEY(f"f_flip_{n}"), border=False):
        a, b = st.columns(2)
        a.text_input(t("Ordering A (grades, top first)", lang), key=KEY(f"a_flip_{n}"),
                     max_chars=60, placeholder="3 2 0 1")
        b.text_input(t("Ordering B (grades, top first)", lang), key=KEY(f"b_flip_{n}"),
                     max_chars=60, placeholder="2 3 1 0")
        st.form_submit_button(t("Check", lang), type="primary", on_click=check, args=(
            member, "flip", n, lambda: C.check_flip(n, ss.get(KEY(f"a_flip_{n}")),
                                                    ss.get(KEY(f"b_flip_{n}")), lang)))


def _cutoff(member, n, lang):
    ex = C.cutoff_question(n)
    st.markdown(t("With {gain}, name a k at which NDCG@k is lower than NDCG@k−1 for this "
                  "ranking, and choose why.", lang, gain=_gain(ex.gain, lang)))
    ranking(ex.labels, ex.grades, lang)
    reasons = C.cutoff_reasons(lang)
    with st.form(KEY(f"f_cut_{n}"), border=False):
        st.text_input("k", key=KEY(f"a_cut_{n}"), max_chars=4)
        st.radio(t("Why?", lang), list(reasons), index=None, key=KEY(f"w_cut_{n}"),
                 format_func=reasons.get)
        st.form_submit_button(t("Check", lang), type="primary", on_click=check, args=(
            member, "cutoff", n, lambda: C.check_cutoff(n, ss.get(KEY(f"a_cut_{n}")),
                                                        ss.get(KEY(f"w_cut_{n}")), lang)))


def _choose(q, key: str, lang: str) -> None:
    letters = C.LETTERS[:len(q.options)]
    st.radio(t("Your answer", lang), letters, index=None, key=key, horizontal=True,
             format_func=lambda x: f"{x} · {C.option_text(q.options[letters.index(x)], lang)}")


def _conventions(member, n, lang):
    q = C.conventions_question(n)
    st.markdown(C.conventions_prompt(q, lang))
    with st.form(KEY(f"f_conv_{n}"), border=False):
        _choose(q, KEY(f"a_conv_{n}"), lang)
        st.form_submit_button(t("Check", lang), type="primary", on_click=check, args=(
            member, "conventions", n,
            lambda: C.check_conventions(n, ss.get(KEY(f"a_conv_{n}")), lang)))


def _mistakes(member, n, lang):
    from lab import mistakes as M, spot
    ex = C.spot_question(n)
    st.markdown(spot.question(ex, lang))
    ranking(ex.labels, ex.grades, lang)
    st.caption(spot.unretrieved_caption(ex, lang))
    st.caption(t("In a row so far: {n} of 3", lang, n=store().spot_streak(member)))

    def answer():
        verdict = C.check_spot(n, ss.get(KEY(f"a_spot_{n}")), store().spot_streak(member),
                               lang)
        if verdict.graded:
            ss[KEY("n_mistakes")] = n + 1  # the next one is a new figure
            set_note("v_mistakes", None)
        return verdict

    def checked():
        check(member, "mistakes", n, answer)
        last = note("v_mistakes")
        if last is not None:
            last["n"] = n + 1  # the verdict shows above the next question

    with st.form(KEY(f"f_spot_{n}"), border=False):
        st.radio(t("Your answer", lang), list(ex.options), index=None, key=KEY(f"a_spot_{n}"),
                 format_func=lambda m: M.name(m, lang))
        st.form_submit_button(t("Check", lang), type="primary", on_click=checked)


def _code(member, n, lang):
    st.markdown(t("Write dcg() and ndcg() in Python, both in this box, and run the tests. "
                  "They run in the Write it yourself page's sandbox, on its cases.", lang))
    key = KEY("a_code")
    if key not in ss:
        ss[key] = C.code_stub()
    st.text_area(t("Your dcg() and ndcg()", lang), key=key, height=320,
                 max_chars=C.MAX_CODE)
    st.button(t("Run the tests", lang), type="primary", key=KEY("run_code"), on_click=check,
              args=(member, "code", n, lambda: C.check_code(
                  ss.get(key), f"onboarding-{member.team_code}-{member.number}", lang)),
              icon=":material/play_arrow:")


def _review(member, n, lang):
    ex, cut, conv = C.review_questions(n)
    st.markdown(t("1. NDCG@{k} of this ranking, with {gain} (three decimals):", lang, k=ex.k,
                  gain=_gain(ex.gain, lang)))
    ranking(ex.labels, ex.grades, lang)
    st.markdown(t("2. A k at which NDCG@k is lower than NDCG@k−1 for this ranking, with "
                  "{gain}:", lang, gain=_gain(cut.gain, lang)))
    ranking(cut.labels, cut.grades, lang)
    st.markdown("3. " + C.conventions_prompt(conv, lang))
    with st.form(KEY(f"f_rev_{n}"), border=False):
        st.text_input(t("1. NDCG@{k} =", lang, k=ex.k), key=KEY(f"r1_{n}"), max_chars=40)
        st.text_input(t("2. k =", lang), key=KEY(f"r2_{n}"), max_chars=4)
        _choose(conv, KEY(f"r3_{n}"), lang)
        st.form_submit_button(t("Check", lang), type="primary", on_click=check, args=(
            member, "review", n, lambda: C.check_review(
                n, ss.get(KEY(f"r1_{n}")), ss.get(KEY(f"r2_{n}")), ss.get(KEY(f"r3_{n}")),
                lang)))


# ------------------------------------------------------------------ the record

def _record(member: Member, team, lang: str) -> None:
    evts = store().events(member)
    prog = store().progress(member)
    repro = REC.reproduced(evts)
    text = REC.signed_text(team, member, prog, repro, prog["reproduce"].done_at,
                           store().record_key())
    st.divider()
    st.subheader(t("Your onboarding record", lang), anchor=False)
    st.caption(t("One page with your steps, their dates, the number you reproduced and your "
                 "files' checksums. Your lead checks its code on the team page.", lang))
    try:
        handouts.font_paths()  # the PDF's fonts (a server without them: the text serves)
    except ValueError as e:
        st.warning(str(e), icon=":material/warning:")
    else:  # drawn when pressed, not on every run of the page
        st.download_button(t("Download the record (PDF)", lang),
                           lambda: REC.pdf(text, lang=lang), key=KEY("record"),
                           file_name=f"onboarding-{team.code}-{member.number}.pdf",
                           mime="application/pdf", icon=":material/download:")
    st.code(text, language=None, wrap_lines=True)
