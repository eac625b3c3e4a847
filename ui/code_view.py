"""The "Write it yourself" page's result: "N of M tests passed", the first failing visible
case, the mistake named with its real case and a link to its screen on Common mistakes.
Learner output (printed text, exception messages) is shown as code, never as Markdown."""

from __future__ import annotations

import streamlit as st

from lab import code_check as C, code_text as text
from lab.i18n import t


def _call(ex, args) -> str:
    return f"{ex.function}({', '.join(C.show_value(a, 120) for a in args)})"


def visible_cases(ex, lang: str):
    """The visible cases with their expected values (the engine's)."""
    with st.expander(t("Visible tests", lang), expanded=False):
        lines = [f"{_call(ex, args)}\n    → {C.show_value(ex.right(*args))}"
                 for args in ex.visible]
        st.code("\n".join(lines), language="python", wrap_lines=True)
        st.caption(t("The hidden tests add edge cases and random ones drawn for your "
                     "browser; their inputs are not shown.", lang))


def _got(got: dict, lang: str) -> str:
    return text.call_problem(got, lang) or C.show_value(got.get("value"))


def report(rep: C.Report | None, ex, lang: str):
    if rep is None:
        return
    if rep.problem:
        st.error(text.outcome_message(rep, lang), icon=":material/error:")
    else:
        message = t("{n} of {m} tests passed", lang, n=rep.passed, m=rep.total)
        if rep.all_passed:
            st.success(message, icon=":material/check_circle:")
        else:
            st.error(message, icon=":material/close:")
        if rep.first_failure:
            f = rep.first_failure
            st.markdown(t("First failing test:", lang))
            st.code(f"{_call(ex, f.args)}\n"
                    f"{t('expected', lang)}: {C.show_value(f.expected)}\n"
                    f"{t('got', lang)}: {_got(f.got, lang)}", language="python",
                    wrap_lines=True)
        elif rep.hidden_failed:
            st.warning(t("Every visible test passes, but {n} hidden tests fail: think of "
                         "the edge cases (k larger than the list, a single item, all "
                         "grades 0).", lang, n=rep.hidden_failed))
        if rep.mistake:
            _mistake(rep.mistake, lang)
    if rep.printed:
        st.caption(t("What your code printed:", lang))
        st.code(rep.printed, language=None)


def _mistake(key: str, lang: str):
    with st.container(border=True):
        st.markdown(t("**Your code makes a known mistake:** {name}", lang,
                      name=text.mistake_name(key, lang)))
        case = text.mistake_case(key, lang)
        if case:
            st.caption(case)
            st.page_link("pages/mistakes.py", label=t("See it on the Common mistakes page",
                                                      lang),
                         icon=":material/bug_report:", query_params={"mistake": key})
        else:
            st.page_link("pages/conventions.py", label=t("See ties on the Conventions page",
                                                         lang),
                         icon=":material/balance:")
