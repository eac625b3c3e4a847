"""Step 8, reproduce the team's number: the team's files (the lead's, or the bundled sample)
to download, the command that computes the figure, optional uploads of the files the member
used, and the mean they typed checked against the engine under the team's convention.

Files are read as the data page reads them (:mod:`ui.parse_pool`, in another process) and a
bad one gets the data page's message (:func:`lab.errors.explain`).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from lab.errors import explain
from lab.i18n import t
from lab.onboarding import checks as C, record as REC
from lab.onboarding.store import Member
from lab.text import escape_markdown
from ui import parse_pool
from ui.onboarding import KEY, check, store

SAMPLE = Path(__file__).resolve().parent.parent / "assets" / "samples"
SAMPLE_FILES = ("qrels.txt", "system_a.run")


def team_files(code: str) -> tuple[tuple[str, bytes], tuple[str, bytes]]:
    """The team's judgments and run: the lead's, else the bundled sample's."""
    return store().files(code) or tuple((name, (SAMPLE / name).read_bytes())
                                        for name in SAMPLE_FILES)


def read(kind: str, name: str, data: bytes, lang: str):
    """``(table, None)`` or ``(None, the data page's message)``."""
    frame, err = parse_pool.read(kind, name, data)
    if err == parse_pool.STOPPED:
        return None, t("Reading {name} stopped before its end: the server ran out of memory "
                       "for it, or the process reading it was stopped. Press Clear and upload "
                       "it again; if it stops again, the file is too large for this server.",
                       lang, name=name)
    return (None, explain(err, lang)) if err else (frame, None)


def render(member: Member, n: int, lang: str) -> None:
    team = store().team(member.team_code)
    (qname, qdata), (rname, rdata) = team_files(team.code)
    st.markdown(t("The team reports NDCG@10 under **{convention}**'s convention. Download the "
                  "team's files, compute the mean NDCG@10 with your own code or the command "
                  "line, and type it here.", lang, convention=team.convention))
    a, b = st.columns(2)
    a.download_button(t("Judgments: {name}", lang, name=escape_markdown(qname)), qdata,
                      file_name=qname, key=KEY("dl_qrels"), icon=":material/download:")
    b.download_button(t("Run: {name}", lang, name=escape_markdown(rname)), rdata,
                      file_name=rname, key=KEY("dl_run"), icon=":material/download:")
    st.code(f"python -m ndcg_core evaluate {qname} {rname} -m ndcg_cut.10 "
            f"--convention {team.convention}", language="bash", wrap_lines=True)
    st.caption(t("Computed on other files (your own run)? Upload the judgments and the run you "
                 "used: the check runs on them, and the record names their checksums.", lang))
    u1, u2 = st.columns(2)
    u1.file_uploader(t("Judgments (qrels)", lang), key=KEY("up_qrels"))
    u2.file_uploader(t("Run", lang), key=KEY("up_run"))
    with st.form(KEY("f_repro"), border=False):
        st.text_input(t("Mean NDCG@10 =", lang), key=KEY("a_repro"), max_chars=40)
        st.form_submit_button(t("Check", lang), type="primary", on_click=check, args=(
            member, "reproduce", n, lambda: _verdict(team, lang)))


def _verdict(team, lang: str) -> C.Verdict:
    (qname, qdata), (rname, rdata) = team_files(team.code)
    ours = {"qrels": REC.digest(qdata), "run": REC.digest(rdata)}
    qup, rup = st.session_state.get(KEY("up_qrels")), st.session_state.get(KEY("up_run"))
    if qup is not None:
        qname, qdata = qup.name, qup.getvalue()
    if rup is not None:
        rname, rdata = rup.name, rup.getvalue()
    qrels, err = read("qrels", qname, qdata, lang)
    if err:
        return C.Verdict(C.INVALID, t("**Judgments** could not be read. {message}", lang,
                                      message=escape_markdown(err)))
    run, err = read("run", rname, rdata, lang)
    if err:
        return C.Verdict(C.INVALID, t("**Run {name}** could not be read. {message}", lang,
                                      name=escape_markdown(rname),
                                      message=escape_markdown(err)))
    digests = {"qrels_sha256": REC.digest(qdata), "run_sha256": REC.digest(rdata)}
    digests["team_files"] = (digests["qrels_sha256"] == ours["qrels"]
                             and digests["run_sha256"] == ours["run"])
    return C.check_reproduce(qrels, run, st.session_state.get(KEY("a_repro")),
                             team.convention, digests, lang)
