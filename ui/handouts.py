"""The handout buttons: a PDF of what the page shows, drawn when the button is clicked
(``lab/handouts.py`` draws it; Streamlit runs a callable ``data`` on click, off the page's
rerun, so a page that is only read never pays for a PDF)."""

from __future__ import annotations

from functools import partial

import streamlit as st

from lab import handouts as H
from lab.i18n import t
from ui import state


def _paper(key: str) -> str:
    lang = state.language()
    names = {"A4": "A4", "Letter": t("Letter", lang)}  # US Letter has a name in Chinese
    return st.radio(t("Paper", lang), H.PAPERS, horizontal=True, key=f"{key}_paper",
                    format_func=names.get)


def _download(make, *, file_name: str, key: str):
    lang = state.language()
    try:
        H.font_paths(lang)
    except ValueError as e:  # a machine without the fonts: say which to install
        st.caption(str(e))
        return
    st.download_button(t("Download PDF", lang), data=make, file_name=file_name,
                       mime="application/pdf", on_click="ignore", key=key,
                       icon=":material/download:", type="primary")


def worked_example(key: str):
    """A handout of one worked example (its tables, sums and the source's claims)."""
    lang = state.language()
    with st.popover(t("Handout (PDF)", lang), icon=":material/picture_as_pdf:"):
        paper = _paper(f"ho_{key}")
        _download(partial(H.worked_example, key, lang=lang, paper=paper),
                  file_name=f"ndcg-lab-{key}-{lang}.pdf", key=f"ho_{key}_pdf")


def playground(labels, grades, *, k, gain, unretrieved=(), link=None):
    """A handout of the playground as it stands: both tables, both sums, the curve."""
    lang = state.language()
    with st.popover(t("Handout (PDF)", lang), icon=":material/picture_as_pdf:"):
        paper = _paper("ho_pg")
        _download(partial(H.playground, tuple(labels), tuple(grades), k=k, gain=gain,
                          unretrieved=tuple(unretrieved), lang=lang, paper=paper, link=link),
                  file_name=f"ndcg-lab-playground-{lang}.pdf", key="ho_pg_pdf")


def worksheet(level: str, kind: str, first: int):
    """A worksheet of exercises from the one shown on, with the answer key at the end."""
    lang = state.language()
    with st.popover(t("Worksheet (PDF)", lang), icon=":material/picture_as_pdf:",
                    width="stretch"):
        count = st.number_input(t("How many exercises", lang), min_value=1, max_value=H.MAX_EXERCISES,
                                value=6, step=1, key="ho_px_count")
        paper = _paper("ho_px")
        st.caption(t("From exercise {number} of this level on; the answer key is on the last "
                     "page.", lang, number=first))
        _download(partial(H.exercise_set, level, int(count), first=first, kind=kind,
                          lang=lang, paper=paper),
                  file_name=f"ndcg-lab-exercises-{kind}-{level}-{first}-{lang}.pdf",
                  key="ho_px_pdf")
