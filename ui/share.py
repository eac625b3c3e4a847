"""The Share button: a dialog with a page's link to copy and its QR code, both drawn here
(lab/share.py)."""

from __future__ import annotations

import streamlit as st

from lab import address as A, share as S
from lab.i18n import t
from ui import state


def own_base() -> str:
    """The app's address as this browser reached it (a run with no browser, as under
    AppTest, has no address: this server's local one stands in)."""
    return S.app_base(st.context.url or f"http://localhost:{st.get_option('server.port')}")


def reach() -> A.Reach:
    """Where a link for other people's phones points (lab/address.py): the configured public
    address, this page's address, or this machine's network address when this page is
    ``localhost``. A public address that is not one reads ``how="bad_public"`` and its
    message."""
    try:
        public = A.public_url()
    except ValueError as e:
        return A.Reach(own_base(), "bad_public", str(e))
    return A.reach(own_base(), public=public, listening=st.get_option("server.address"),
                   addresses=A.network_addresses())


def base() -> str:
    """The app's address in a link for others (a share link, its QR code, a handout)."""
    return reach().base


def button(url, *, key: str) -> None:
    """A Share button that opens a dialog: the link (Streamlit's code block has a copy
    button; the link is plain text, never a Markdown link) and its QR code. A dialog sits in
    the middle of the screen wherever the button is: a popover opened below a button near
    the page's bottom put the code under a projector's 720th line. ``url``: the link, or a
    function that gives it, called only on the press (the playground reruns on every move
    and builds no link or QR code for a dialog nobody opened)."""
    lang = state.language()
    if st.button(t("Share", lang), icon=":material/share:", key=key):
        st.dialog(t("Share", lang), icon=":material/share:")(_shared)(
            url() if callable(url) else url, lang)


def _shared(url: str, lang: str) -> None:
    st.caption(t("Copy this link, or scan the code with a phone:", lang))
    st.code(url, language=None, wrap_lines=True)
    try:
        # a PNG as drawn (Streamlit would send a JPEG, blurring the modules); 240 px keeps
        # the dialog inside a 720-line projector and a phone's screen
        st.image(S.qr_png(url), width=240, output_format="PNG",
                 caption=t("QR code of the link above (drawn on this server).", lang))
    except ValueError:
        st.caption(t("This link is too long for a QR code ({n} characters; a code holds "
                     "2,331): copy the link instead.", lang, n=f"{len(url):,}"))


def exercise(exercise_id: str, *, key: str = "share_px"):
    button(S.link(base(), "practice", {state.EXERCISE_PARAM: exercise_id,
                                       state.LANG_PARAM: state.language(),
                                       **state.present_params()}), key=key)


def here() -> str:
    """The playground's link as the address bar holds it (``state.publish`` wrote it)."""
    return S.link(base(), "", {name: st.query_params.get_all(name) for name in st.query_params})


def playground(*, key: str = "share_pg"):
    button(here, key=key)


def worked_example(ranking_key: str, document: str):
    """A worked example's link: ``?doc=`` opens its document's tab, ``#`` scrolls to it."""
    button(S.link(base(), "worked_examples", {state.LANG_PARAM: state.language(),
                                              state.DOCUMENT_PARAM: document,
                                              **state.present_params()},
                  fragment=ranking_key), key=f"share_{ranking_key}")
