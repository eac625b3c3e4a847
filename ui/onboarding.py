"""The onboarding page (/onboarding): who is here decides what is drawn.

- ``?team=CODE`` with the lead's secret in this session: the lead (ui/onboard_lead.py). The
  lead's link carries the secret as ``&lead=SECRET``; the first run moves it into the
  session and takes it off the address bar (a screen shared with the team never shows it);
- ``?team=CODE&me=TOKEN``: a member's personal link, their path (ui/onboard_steps.py);
- ``?team=CODE``: the team link, the join form;
- nothing: *Start a team*.

Every link value is checked (:func:`lab.classroom.codes.normal_code`, the token's shape)
before a query; a database that does not answer is a message, never a traceback.
"""

from __future__ import annotations

import functools
from urllib.parse import urlencode

import sqlalchemy as sa
import streamlit as st

from lab import address
from lab.classroom import codes, config
from lab.i18n import t
from lab.onboarding import db, steps as S
from lab.onboarding.errors import OnboardError
from lab.text import escape_markdown
from lab.onboarding.store import MAX_NAME, MAX_TEAM_NAME, Member, Store, well_formed
from ndcg_core import CONVENTIONS
from ui import page_hooks, state

ss = st.session_state
KEY = "ob_{}".format  # the page's widgets and notes
LEAD = KEY("lead")    # {"code": ..., "secret": ...}: the lead's secret, kept off the address bar
PAGE = "pages/onboarding.py"
# A team lasts until its lead closes it: the browser remembers its place for half a year.
COOKIE_AGE = 183 * 24 * 3600


def cookie(code: str, who: str) -> str:
    """The cookie that keeps this browser's place in team ``code`` (a checked code):
    ``lead`` (the secret) or ``member`` (the token)."""
    return f"ndcg_team_{code}_{'l' if who == 'lead' else 'm'}"


def remembered(code: str, who: str) -> str | None:
    """The secret or token this browser's cookie holds for ``code``, if well formed."""
    value = st.context.cookies.get(cookie(code, who))
    return value if well_formed(value) else None


def remember(code: str, who: str, value: str) -> None:
    """Keep ``value`` in this browser (ui/page_hooks: a reload, a reopened team link or a
    restarted server finds the lead's view or the member's path again)."""
    page_hooks.remember(cookie(code, who), value, max_age=COOKIE_AGE, key=KEY(f"keep_{who}"))


@st.cache_resource(show_spinner=False)
def store() -> Store:
    """One engine per server process, in class mode's database."""
    return Store(db.open_engine(config.database_url()))


def base_url() -> str:
    """The address links name: the deployment's public one (lab/address.py), else the one
    this browser reached (a team's members open it from their own machines)."""
    try:
        public = address.public_url()
    except ValueError:  # a bad public address: class mode's screen says so; links go on
        public = None
    if public:
        return public
    url = str(st.context.url or "").split("?")[0].rstrip("/")
    return url[: -len("/onboarding")] if url.endswith("/onboarding") else url


def team_link(code: str, **more) -> str:
    return f"{base_url()}/onboarding?{urlencode({'team': code, **more})}"


def note(name: str):
    return ss.get(KEY(f"note_{name}"))


def set_note(name: str, value) -> None:
    ss[KEY(f"note_{name}")] = value


def db_message(lang: str) -> str:
    return t("The team database did not answer. Wait a moment and press the button again; "
             "finished steps are kept.", lang)


def guarded(where: str):
    """A callback whose refusals and database failures become a note drawn at ``where``."""
    def wrap(fn):
        @functools.wraps(fn)
        def run(*args):
            lang = state.language()
            try:
                fn(*args)
            except OnboardError as e:
                set_note(where, e.message(lang))
            except sa.exc.SQLAlchemyError:
                set_note(where, db_message(lang))
            else:
                set_note(where, None)
        return run
    return wrap


def show_note(where: str) -> None:
    if text := note(where):
        st.error(text, icon=":material/error:")


@guarded("check")
def check(member: Member, step: str, n: int, make) -> None:
    """Check the answer (``make()`` gives the verdict); record it unless unreadable."""
    verdict = make()
    set_note(f"v_{step}", {"n": n, "status": verdict.status, "message": verdict.message})
    if verdict.graded:
        store().record(member, step, "done" if verdict.right else "tried", verdict.evidence)


def render() -> None:
    lang = state.language()
    qp = st.query_params
    code = codes.normal_code(qp.get("team") or "")
    if code and well_formed(qp.get("lead")):
        ss[LEAD] = {"code": code, "secret": qp["lead"]}
        del st.query_params["lead"]  # off the address bar; this session keeps it
    try:
        _route(code, lang)
    except OnboardError as e:  # the team closed while this page was drawn
        st.error(e.message(lang), icon=":material/error:")
    except sa.exc.SQLAlchemyError:
        st.error(db_message(lang), icon=":material/cloud_off:")


def _route(code: str | None, lang: str) -> None:
    from ui import onboard_lead, onboard_steps
    qp = st.query_params
    lead = ss.get(LEAD) or {}
    if code and lead.get("code") != code and (secret := remembered(code, "lead")):
        lead = ss[LEAD] = {"code": code, "secret": secret}
    if code and not qp.get("me") and (token := remembered(code, "member")):
        st.query_params["me"] = token  # this browser joined before: its personal link
    if code and lead.get("code") == code:
        try:
            onboard_lead.render(code, lead["secret"], lang)
            return
        except OnboardError as e:
            ss.pop(LEAD, None)
            st.error(e.message(lang), icon=":material/error:")
    elif qp.get("team") and code is None:
        st.error(OnboardError("no_team").message(lang), icon=":material/error:")
    if code and qp.get("me"):
        try:
            member = store().member(code, qp["me"])
        except OnboardError as e:
            st.error(e.message(lang), icon=":material/error:")
        else:
            onboard_steps.render(member, lang)
            return
    if code:
        _join(code, lang)
    else:
        _landing(lang)


# ------------------------------------------------------------------ arriving

@guarded("start")
def _start() -> None:
    team, secret = store().create_team(ss.get(KEY("team_name")) or "",
                                       convention=ss.get(KEY("convention")) or "trec_eval")
    ss[LEAD] = {"code": team.code, "secret": secret}
    st.query_params.from_dict({"team": team.code})


def _landing(lang: str) -> None:
    st.title(t("Onboarding", lang))
    st.caption(t("A path for a new team member: each step is finished by evidence the app "
                 "checks, and the last one is the team's own NDCG@10 reproduced. The lead sees "
                 "where each member is.", lang))
    st.header(t("Lead a team", lang))
    st.text_input(t("Team name (optional)", lang), key=KEY("team_name"),
                  max_chars=MAX_TEAM_NAME)
    st.selectbox(t("The team's convention", lang), list(CONVENTIONS), key=KEY("convention"),
                 help=t("The library whose NDCG the team reports: step 8 checks the "
                        "member's number under it. You can change it later.", lang))
    st.button(t("Start a team", lang), type="primary", key=KEY("start"), on_click=_start,
              icon=":material/flag:")
    show_note("start")
    st.caption(t("Joining a team? Open the team link your lead sent you.", lang))


@guarded("join")
def _do_join(code: str, subject: str | None = None, name: str | None = None) -> None:
    member, token = store().join(code, name if name is not None else ss.get(KEY("name")),
                                 subject=subject)
    st.query_params.from_dict({"team": code, "me": token})


def _join(code: str, lang: str) -> None:
    try:
        team = store().team(code)
    except OnboardError as e:
        st.error(e.message(lang), icon=":material/error:")
        return
    st.title(t("Onboarding", lang))
    st.subheader(t("Team {name}", lang, name=escape_markdown(team.name)), anchor=False)
    st.caption(t("{n} steps, about {h} hours in all. Your progress is kept: your personal "
                 "link brings it back on any device.", lang, n=len(S.available()),
                 h=round(sum(S.BY_ID[s].minutes for s in S.available()) / 60, 1)))
    if _signed_in_join(code, lang):
        return
    with st.form(KEY("join_form"), border=False):
        st.text_input(t("Your name", lang), key=KEY("name"), max_chars=MAX_NAME)
        st.form_submit_button(t("Join the team", lang), type="primary", on_click=_do_join,
                              args=(code,))
    show_note("join")


def _auth_configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # no secrets file at all: Streamlit raises its own error type
        return False


def _signed_in_join(code: str, lang: str) -> bool:
    """Where the server has a sign-in ([auth] in its secrets), the name comes from it and
    the same account finds the same member again; else nothing is drawn."""
    if not _auth_configured():
        return False
    if not st.user.get("is_logged_in"):  # absent where no one has signed in yet
        st.button(t("Sign in", lang), key=KEY("login"), on_click=st.login,
                  icon=":material/login:")
        st.caption(t("Or join with a name below.", lang))
        return False
    name = str(st.user.get("name") or st.user.get("email") or "")
    st.button(t("Join the team as {name}", lang, name=escape_markdown(name)), type="primary",
              key=KEY("join_signed"), on_click=_do_join,
              args=(code, str(st.user.get("sub") or ""), name))
    show_note("join")
    return True


def personal_link(member: Member, token: str) -> str:
    return team_link(member.team_code, me=token)
