"""The files listed in the data page's upload widgets: those the server holds, and those it
lost. After a restart (or a ``kill -9`` during an upload) the browser still lists the files
it sent to the old server; the new one has none of them, so the page says so and
offers fresh upload widgets. And which of the runs listed the page keeps."""

from __future__ import annotations

import io

import streamlit as st

from lab.i18n import t
from lab.runs import MAX_RUNS
from lab.upload_limits import MAX_UPLOAD_RUNS, within_budget
from lab.text import listing
from ui import state


def widget_files(key: str) -> tuple[list, list[str]]:
    """(the files in the upload widget ``key``, the ids of those it lists without the file).

    The files are the widget's own value in ``st.session_state``, whose bytes are those
    Streamlit stores for the upload. Not the widget's return value, a deep copy of every file
    (so that a script cannot change it): kept, it was a second copy of a 150 MB run through
    the parse and the evaluation (the peak was 4.5x the file). Only file objects
    count (``UploadedFile`` is an ``io.BytesIO``); a file the server does not have is listed
    as a placeholder with its ``file_id`` alone (also, until the next run, a removed one)."""
    value = st.session_state.get(key)
    listed = [f for f in (value if isinstance(value, list) else [value]) if f is not None]
    return ([f for f in listed if isinstance(f, io.BytesIO)],
            [str(f.file_id) for f in listed
             if not isinstance(f, io.BytesIO) and hasattr(f, "file_id")])


def lost_notice(n: int):
    """Say that ``n`` listed files are gone from the server, with a button for fresh upload
    widgets (:func:`ui.state.on_clear_files`)."""
    lang = state.language()
    st.warning(t("The server no longer has the file listed above (it restarted, or the "
                 "upload was cut off), so nothing can be read from it. Upload it again.", lang)
               if n == 1 else
               t("The server no longer has {n} of the files listed above (it restarted, or "
                 "the upload was cut off), so nothing can be read from them. Upload them "
                 "again.", lang, n=n), icon=":material/cloud_off:")
    st.button(t("Upload again", lang), key="yd_reupload", on_click=state.on_clear_files,
              icon=":material/upload_file:")


def runs_kept(run_files: list) -> list:
    """The first :data:`~lab.upload_limits.MAX_UPLOAD_RUNS` runs, as many of them as the memory
    budget allows beyond ten (:func:`lab.upload_limits.within_budget`); a warning names the others."""
    lang = state.language()
    if len(run_files) > MAX_UPLOAD_RUNS:
        left_out = [up.name for up in run_files[MAX_UPLOAD_RUNS:]]
        st.warning(t("{count} runs uploaded: the page compares at most {n}. Left out: {names}. "
                     "Remove some files to choose which.", lang, count=len(run_files),
                     n=MAX_UPLOAD_RUNS, names=listing(left_out, lang=lang)),
                   icon=":material/warning:")
        run_files = run_files[:MAX_UPLOAD_RUNS]
    mb = st.get_option("server.maxUploadSize")
    kept = within_budget([len(up.data) for up in run_files], mb)
    if kept < len(run_files):
        st.warning(t("Beyond {n} runs the page holds at most {cap} MB of runs (what {n} files "
                     "of the largest size take). Left out: {names}.", lang, n=MAX_RUNS,
                     cap=MAX_RUNS * mb, names=listing([up.name for up in run_files[kept:]],
                                                      lang=lang)), icon=":material/warning:")
        run_files = run_files[:kept]
    return run_files
