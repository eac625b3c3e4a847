"""The lead's side of a team: the team link to send, the members × steps matrix (levels, time
spent, last active) that follows the team live, its downloads (CSV, events CSV, xAPI JSON),
the team's files and convention for step 8, a completion record's check, and closing the
team. Every action takes the lead's secret (kept in this session, never in the address).
"""

from __future__ import annotations

import pandas as pd
import sqlalchemy as sa
import streamlit as st

from lab.i18n import t
from lab.onboarding import record as REC, report as R, steps as S
from lab.onboarding.errors import OnboardError
from lab.onboarding.store import MAX_FILE_NAME
from lab.text import escape_markdown
from ndcg_core import CONVENTIONS
from ui import tables
from ui.onboard_repro import read
from ui.onboarding import (KEY, LEAD, db_message, guarded, note, remember, set_note,
                           show_note, store, team_link)

POLL = "5s"  # the matrix follows the team this often (a member's step takes minutes)


def render(code: str, secret: str, lang: str) -> None:
    team = store().lead_team(code, secret)  # OnboardError("not_lead"): the page says so
    remember(team.code, "lead", secret)
    st.title(t("Onboarding", lang))
    st.subheader(t("Team {name} · code {code}", lang, name=escape_markdown(team.name),
                   code=team.code), anchor=False)
    st.markdown(t("Send your team this link: each member joins with a name and gets a "
                  "personal link.", lang))
    st.code(team_link(team.code), language=None, wrap_lines=True)
    with st.expander(t("Your lead link (keep it private)", lang), icon=":material/key:"):
        st.caption(t("This link opens this view: keep it to come back after a closed tab or a "
                     "restart. The address bar shows only the team link.", lang))
        st.code(team_link(team.code, lead=secret), language=None, wrap_lines=True)
    _matrix(code, secret)
    _settings(code, secret, team, lang)
    _verify(lang)
    _close(code, secret, lang)


@st.fragment(run_every=POLL)
def _matrix(code: str, secret: str) -> None:
    from ui import state
    lang = state.language()
    try:  # the fragment reruns alone: its refusals are drawn here
        team, people, progress = store().summary(code, secret)
    except OnboardError as e:  # closed from another tab
        st.error(e.message(lang), icon=":material/error:")
        return
    except sa.exc.SQLAlchemyError:
        st.error(db_message(lang), icon=":material/cloud_off:")
        return
    frame = R.matrix(people, progress)
    st.subheader(t("Where each member is", lang), anchor=False)
    if frame.empty:
        st.info(t("No member has joined yet.", lang), icon=":material/hourglass_top:")
        return
    steps = {s: str(S.STEP_IDS.index(s) + 1) for s in S.available()}
    blank = "–"  # a step not started: a word in each of nine cells would not fit a projector
    shown = pd.DataFrame({
        t("member", lang): frame["member"], t("name", lang): frame["name"],
        t("progress", lang): [f"{d}/{m}" for d, m in zip(frame["done"], frame["of"])],
        **{number: [blank if x == S.NOT_STARTED else S.level_name(x, lang) for x in frame[s]]
           for s, number in steps.items()},
        t("minutes", lang): frame["minutes"], t("last active (UTC)", lang): frame["last_active"],
    })
    # the steps' columns are numbered (their titles in the header's tooltip) and as narrow as
    # their cells, a long name is cut short, and ui/fit.css narrows the page's margins: every
    # column fits a projector's width in both languages; on a phone the matrix scrolls
    # sideways under the member's number and name, the swipe hint above it
    tables.swipe_hint()
    st.dataframe(shown, hide_index=True, width="stretch", key=KEY("matrix"), column_config={
        t("member", lang): st.column_config.NumberColumn("#", help=t("member", lang),
                                                         pinned=True),
        t("name", lang): st.column_config.TextColumn(width=140, pinned=True),
        **{number: st.column_config.TextColumn(number, help=S.title(s, lang))
           for s, number in steps.items()}})
    st.caption(f"{blank}: {S.level_name(S.NOT_STARTED, lang)}")
    a, b, c = st.columns(3)
    a.download_button(t("Download the matrix (CSV)", lang), frame.to_csv(index=False),
                      file_name=f"onboarding-{team.code}.csv", mime="text/csv",
                      key=KEY("dl_matrix"), icon=":material/download:")
    # the events with their evidence are read when a download is pressed, not every 5 s
    b.download_button(t("Download the events (CSV)", lang),
                      lambda: R.events_csv(*_with_evidence(code, secret)),
                      file_name=f"onboarding-{team.code}-events.csv", mime="text/csv",
                      key=KEY("dl_events"), icon=":material/download:")
    c.download_button(t("Download the events (xAPI JSON)", lang),
                      lambda: R.xapi_json(*_with_evidence(code, secret)),
                      file_name=f"onboarding-{team.code}-xapi.json",
                      mime="application/json", key=KEY("dl_xapi"), icon=":material/download:")


def _with_evidence(code: str, secret: str):
    team, _people, evts = store().roster(code, secret)
    return team, evts


@guarded("settings")
def _set_convention(code: str, secret: str) -> None:
    store().set_convention(code, secret, st.session_state.get(KEY("lead_convention")))


@guarded("settings")
def _set_files(code: str, secret: str) -> None:
    from ui import state
    lang = state.language()
    qup, rup = (st.session_state.get(KEY("lead_qrels")),
                st.session_state.get(KEY("lead_run")))
    if qup is None or rup is None:
        set_note("files", t("Upload both files: the judgments and the run.", lang))
        return
    for kind, up in (("qrels", qup), ("run", rup)):
        _frame, err = read(kind, up.name, up.getvalue(), lang)
        if err:
            set_note("files", t("**{name}** could not be read. {message}", lang,
                                name=escape_markdown(up.name), message=escape_markdown(err)))
            return
    store().set_files(code, secret, (up_name(qup), qup.getvalue()),
                      (up_name(rup), rup.getvalue()))
    set_note("files", None)


def up_name(up) -> str:
    return str(up.name)[:MAX_FILE_NAME]


@guarded("settings")
def _use_sample(code: str, secret: str) -> None:
    store().set_files(code, secret, None, None)


def _settings(code: str, secret: str, team, lang: str) -> None:
    with st.expander(t("Step 8: the team's files and convention", lang),
                     icon=":material/tune:"):
        conventions = list(CONVENTIONS)
        st.selectbox(t("The team's convention", lang), conventions,
                     index=conventions.index(team.convention), key=KEY("lead_convention"),
                     on_change=_set_convention, args=(code, secret))
        if team.qrels_name:
            st.caption(t("The team's files: {qrels} and {run}.", lang,
                         qrels=escape_markdown(team.qrels_name),
                         run=escape_markdown(team.run_name)))
        else:
            st.caption(t("The team's files: the bundled sample (50 queries, one run).", lang))
        a, b = st.columns(2)
        a.file_uploader(t("Judgments (qrels)", lang), key=KEY("lead_qrels"))
        b.file_uploader(t("Run", lang), key=KEY("lead_run"))
        c, d = st.columns(2)
        c.button(t("Use these files", lang), key=KEY("set_files"), on_click=_set_files,
                 args=(code, secret), type="primary")
        d.button(t("Use the bundled sample", lang), key=KEY("use_sample"),
                 on_click=_use_sample, args=(code, secret))
        if text := note("files"):
            st.error(text, icon=":material/error:")
        show_note("settings")


def _check_record() -> None:
    text = st.session_state.get(KEY("record_text")) or ""
    set_note("record", REC.verify(text, store().record_key()) if text.strip() else None)


def _verify(lang: str) -> None:
    with st.expander(t("Check a completion record", lang), icon=":material/verified:"):
        st.text_area(t("Paste the record's text (from its PDF or the member's page)", lang),
                     key=KEY("record_text"), max_chars=5000, height=200)
        st.button(t("Check the record", lang), key=KEY("check_record"),
                  on_click=_check_record)
        verdict = note("record")
        if verdict is True:
            st.success(t("Valid: this record was issued by this server and is unchanged.",
                         lang), icon=":material/verified:")
        elif verdict is False:
            st.error(t("Not valid: the record was changed, or another server issued it.",
                       lang), icon=":material/gpp_bad:")


@guarded("close")
def _do_close(code: str, secret: str) -> None:
    store().close(code, secret)
    st.session_state.pop(LEAD, None)
    st.query_params.clear()


def _close(code: str, secret: str, lang: str) -> None:
    with st.expander(t("Close the team", lang), icon=":material/lock:"):
        st.caption(t("A team stays open until you close it. Closing ends the team link and "
                     "every personal link; download the matrix first.", lang))
        sure = st.checkbox(t("Yes, close this team", lang), key=KEY("close_sure"))
        st.button(t("Close the team", lang), key=KEY("close"), on_click=_do_close,
                  args=(code, secret), disabled=not sure)
        show_note("close")
