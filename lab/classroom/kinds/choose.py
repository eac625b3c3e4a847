"""Choose: multiple choice among the right NDCG@k and wrong options that are each a named
mistake's value, computed when the question is made (:func:`choose`)
and stored with it. Every option is a bar of the distribution, even one nobody picked."""

from __future__ import annotations

import math
import random

from lab import mistakes as M
from lab.classroom import questions as Q
from lab.i18n import t
from lab.text import fmt

from . import Kind, register


def choose(grades, *, k: int, gain: str = "linear", unretrieved=(), keys=None, n: int = 4,
           labels=(), source: str = "") -> Q.Question:
    """A choose question: the right NDCG@k and ``n - 1`` mistakes' values (``keys`` in that
    order of preference, else the catalogue's), each at least 0.002 from every other option
    so a class can tell them apart, and within 0 to 1 (an NDCG above 1 gives itself away).
    The options' order is shuffled, seeded by the ranking: the same question, the same order.
    """
    draft = Q.Question("", tuple(grades), k, gain, tuple(labels), tuple(unretrieved))
    right = Q.right_value(draft)
    wrong = Q.mistaken(draft)
    picked = [(right, "")]
    for key in keys or M.KEYS:
        v = wrong.get(key)
        if (v is None or not math.isfinite(v) or not 0 <= v <= 1
                or any(abs(v - p) < 0.002 for p, _ in picked)):
            continue
        picked.append((v, key))
        if len(picked) == n:
            break
    if len(picked) < 2:
        raise ValueError("no mistake gives this ranking a different NDCG: choose another")
    random.Random(f"{list(grades)}/{k}/{gain}/{list(unretrieved)}").shuffle(picked)
    options = tuple((round(v, 3), key) for v, key in picked)
    return Q.Question(Choose.name, tuple(grades), k, gain, tuple(labels), tuple(unretrieved),
                      options=options, source=source)


class Choose(Kind):
    name = "choose"
    style = "pick"
    show_choices = True  # the values are the question: the projector lists them

    def label(self, lang):
        return t("Choose", lang)

    def prompt(self, q, lang):
        return t("Which value is NDCG@{k} of this ranking, with {gain}?", lang, k=q.k,
                 gain=Q.gain_words(q, lang))

    def check(self, q):
        if not 2 <= len(q.options) <= len(Q.LETTERS):
            raise ValueError(f"a choose question has 2 to {len(Q.LETTERS)} options")

    def make(self, grades, k, gain, labels=(), unretrieved=(), *, other=(), source=""):
        return choose(grades, k=k, gain=gain, unretrieved=unretrieved, labels=labels,
                        source=source)

    def choices(self, q):
        return tuple(Q.LETTERS[:len(q.options)])

    def choice_words(self, q, letter, lang):
        return f"{letter} · {fmt(self._option(q, letter)[0])}"

    def _option(self, q, letter):
        return q.options[Q.LETTERS.index(letter)]

    def grade(self, q, text, lang):
        letter = Q.letter(text, self.choices(q), lang)
        key = self._option(q, letter)[1]
        return Q.Graded(letter, not key, key or None)

    def right_answer(self, q):
        return Q.LETTERS[[key for _, key in q.options].index("")]

    def fixed_groups(self, q):
        return [(c, not key, key) for c, (_v, key) in zip(self.choices(q), q.options)]

    def explain(self, q, answer, lang):
        return f"{answer}: {fmt(self._option(q, answer)[0])}"


register(Choose())
