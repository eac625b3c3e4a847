"""Which is higher: which of two rankings (A is the question's, B its ``other``) has the
higher NDCG@k under a gain. A wrong pick is named by the mistake under which it wins (the
other gain, or no cutoff)."""

from __future__ import annotations

from lab import mistakes as M
from lab.classroom import questions as Q
from lab.i18n import t

from . import Kind, register

PAIR = ("A", "B")


class Higher(Kind):
    name = "higher"
    style = "pick"
    exercise = "compare"

    def label(self, lang):
        return t("Which is higher", lang)

    def prompt(self, q, lang):
        return t("Which ranking has the higher NDCG@{k} under {gain}?", lang, k=q.k,
                 gain=Q.gain_words(q, lang))

    def check(self, q):
        if len(q.other) != len(q.grades):
            raise ValueError("a higher question needs ranking B of the same length")

    def make(self, grades, k, gain, labels=(), unretrieved=(), *, other=(), source=""):
        if not other:
            return None  # one ranking: nothing to compare it with
        return Q.Question(self.name, tuple(grades), k, gain, tuple(labels), other=tuple(other),
                          source=source)

    def choices(self, q):
        return PAIR

    def choice_words(self, q, letter, lang):
        return t("Ranking {name}", lang, name=letter)

    def grade(self, q, text, lang):
        if str(text or "").strip().upper() not in PAIR:  # in the words of its options
            raise ValueError(t("Pick Ranking A or Ranking B.", lang))
        pick = Q.letter(text, PAIR, lang)
        right = pick == self.right_answer(q)
        return Q.Graded(pick, right, None if right else self._mistake(q, pick))

    def right_answer(self, q):
        return "A" if Q.right_value(q) > Q.value(q.other, q) else "B"

    def _mistake(self, q, pick):
        """The mistake under which the wrong pick wins: the other gain, or no cutoff."""
        for key, change in (("exponential_for_linear" if q.gain == "linear"
                             else "linear_for_exponential",
                             {"gain": "exponential" if q.gain == "linear" else "linear"}),
                            ("cutoff_ignored", {"k": len(q.grades)})):
            other = Q.Question(self.name, q.grades, **{"k": q.k, "gain": q.gain, **change},
                               other=q.other)
            if key in M.KEYS and self.right_answer(other) == pick and other != q:
                return key
        return None

    def rankings(self, q, lang):
        return [("A", q.grades, q.labels), ("B", q.other, Q.other_labels(q))]


register(Higher())
