"""Predict: "NDCG@k = ?" of a ranking, typed to 3 decimals; right within ±0.001 (the
exercises' tolerance). A wrong value that a named mistake gives (:mod:`lab.mistakes`) is
named, and counts in that mistake's bar."""

from __future__ import annotations

import math

from lab import exercises
from lab.classroom import questions as Q
from lab.i18n import t
from lab.text import fmt

from . import Kind, register


class Predict(Kind):
    name = "predict"
    style = "value"

    def label(self, lang):
        return t("Predict", lang)

    def prompt(self, q, lang):
        return t("What is NDCG@{k} of this ranking, with {gain}? Type it to 3 decimals.",
                 lang, k=q.k, gain=Q.gain_words(q, lang))

    def placeholder(self, lang):
        return t("3 decimals, e.g. 0.972", lang)

    def grade(self, q, text, lang):
        given = exercises.parse(text, lang=lang)
        if not 0 <= given <= 1:
            raise ValueError(t("NDCG lies between 0 and 1: “{typed}” cannot be it.", lang,
                               typed=str(text).strip()[:40]))
        right = exercises.close(given, Q.right_value(q))
        mistake = None if right else next(
            (key for key, v in Q.mistaken(q).items()
             if math.isfinite(v) and exercises.close(given, v)), None)
        return Q.Graded(f"{given:.3f}", right, mistake)

    def right_answer(self, q):
        return fmt(Q.right_value(q))

    def said(self, q, answer, lang):
        return answer  # a value this module wrote: digits and a point, nothing to escape

    def group(self, q, answer, correct, mistake):
        """A typed value within the tolerance of the right value counts with it (0.960 and
        0.962 are both the right 0.961), one a named mistake gives with that mistake's value:
        one bar per idea, not one per rounding."""
        if correct:
            return self.right_answer(q)
        v = Q.mistake_value(q, mistake) if mistake else None
        return f"{v:.3f}" if v is not None else answer


register(Predict())
