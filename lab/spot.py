"""The "spot the mistake" exercise: a ranking and a wrong NDCG@k are given, the learner
picks which catalogued mistake (:mod:`lab.mistakes`) produced the figure.

Part of :mod:`lab.exercises` (which calls in here for ``kind == "spot"``). The options are
unambiguous: only mistakes whose numbers differ from the right one and from each other by
more than twice the tolerance (:func:`lab.mistakes.distinct_mistakes`), so no figure could
come from two of them or be the right answer rounded.
"""

from __future__ import annotations

from lab import mistakes as M
from lab.i18n import t
from lab.text import escape_markdown, fmt, show_grades

N_OPTIONS = 4  # the mistake that produced the figure and three others


def make(rng, spec, draw, build):
    """One spot exercise from ``rng`` (``draw(rng, spec)`` gives n, grades, k, gain as for
    the other kinds; ``build(grades, k, gain, **fields)`` makes the Exercise), or None when
    this draw has too few distinct mistakes."""
    n, grades, k, gain = draw(rng, spec)
    if sum(g > 0 for g in grades) < 2:
        return None
    # judged documents the system missed, from medium on: the ideal then needs them
    unretrieved = tuple(rng.randint(1, spec.max_grade)
                        for _ in range(rng.randint(0, 2) if spec.cut else 0))
    options = sorted(M.distinct_mistakes(grades, k=k, gain=gain, unretrieved=unretrieved))
    if len(options) < N_OPTIONS:
        return None
    answer = rng.choice(options)
    others = rng.sample([key for key in options if key != answer], N_OPTIONS - 1)
    shown = [answer, *others]
    rng.shuffle(shown)
    return build(tuple(grades), k, gain, mistake=answer, options=tuple(shown),
                 unretrieved=unretrieved)


def figures(ex) -> dict:
    """The right NDCG@k and each option's mistaken one."""
    kw = dict(k=ex.k, gain=ex.gain, unretrieved=ex.unretrieved)
    values = M.mistaken_values(list(ex.grades), **kw)
    return {"right": M.right_value(list(ex.grades), **kw),
            **{key: values[key] for key in ex.options}}


def question(ex, lang: str) -> str:
    """What the learner is asked (the wrong figure in it)."""
    return t("Someone computed NDCG@{k} of this ranking with {gain} and got **{figure}**. "
             "Which mistake produced that figure?", lang, k=ex.k,
             gain=_gain(ex.gain, lang), figure=fmt(figures(ex)[ex.mistake]))


def unretrieved_caption(ex, lang: str) -> str:
    if not ex.unretrieved:
        return t("Every judged document of this query was retrieved.", lang)
    return t("Judged but not retrieved: grades {unretrieved}.", lang,
             unretrieved=show_grades(ex.unretrieved))


def _gain(gain: str, lang: str) -> str:
    from lab.exercises import gain_name  # the exercises' words for the gains
    return gain_name(gain, lang=lang)


def no_pick(lang: str) -> str:
    return t("pick one of the mistakes.", lang)


def report(ex, fb, lang: str) -> list[tuple[str, str]]:
    """The verdict of a spot exercise as ``(level, markdown)`` lines."""
    f = figures(ex)
    values = dict(k=ex.k, figure=fmt(f[ex.mistake]), right=fmt(f["right"]),
                  name=escape_markdown(M.name(ex.mistake, lang)))
    if fb.status == "correct":
        return [("success", t("Right: {figure} is NDCG@{k} with **{name}**. The right NDCG@{k} "
                              "is {right}.", lang, **values)),
                ("info", escape_markdown(M.what(ex.mistake, lang)))]
    picked = fb.given["choice"]
    return [("error", t("Not this one: **{picked}** gives {value}. {figure} comes from "
                        "**{name}**; the right NDCG@{k} is {right}.", lang,
                        picked=escape_markdown(M.name(picked, lang)), value=fmt(f[picked]),
                        **values)),
            ("info", escape_markdown(M.what(ex.mistake, lang)))]
