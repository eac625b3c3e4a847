"""Arrange: drag the items into an order that meets a goal (the highest NDCG@k, or one below
/ above a target); the submitted order is scored, and grouped by the NDCG@k it scores."""

from __future__ import annotations

from collections.abc import Mapping

from lab.classroom import questions as Q
from lab.classroom.errors import ClassError
from lab.i18n import t
from lab.table import Report
from lab.text import fmt

from . import Kind, register

GOALS = ("highest", "below", "above")


class Arrange(Kind):
    name = "arrange"
    style = "order"

    def label(self, lang):
        return t("Arrange", lang)

    def prompt(self, q, lang):
        gain = Q.gain_words(q, lang)
        return {
            "highest": t("Drag the items into the order with the highest NDCG@{k} under "
                         "{gain}.", lang, k=q.k, gain=gain),
            "below": t("Drag the items into an order whose NDCG@{k} under {gain} is below "
                       "{target}.", lang, k=q.k, gain=gain, target=fmt(q.target, 2)),
            "above": t("Drag the items into an order whose NDCG@{k} under {gain} is above "
                       "{target}.", lang, k=q.k, gain=gain, target=fmt(q.target, 2)),
        }[q.goal]

    def check(self, q):
        if q.goal not in GOALS:
            raise ValueError(f"an arrange question's goal is one of {', '.join(GOALS)}")

    def make(self, grades, k, gain, labels=(), unretrieved=(), *, other=(), source=""):
        return Q.Question(self.name, tuple(grades), k, gain, tuple(labels), tuple(unretrieved),
                          goal="highest", source=source)

    def sent_text(self, q, sent):
        """What the table sent (its state, ``{"order": [item ids]}``) as the text
        :meth:`grade` reads; the order shown when the student sent without moving anything.
        A state the table cannot have sent (``{"order": 5}``, a list) is refused
        (``ClassError("bad_answer")``), never a ``TypeError``."""
        order = Report.parse(sent).order  # the table's value read where every table's is
        if order is not None:
            return ",".join(order)
        if sent is None or (isinstance(sent, Mapping) and sent.get("order") is None):
            return ",".join(q.item_ids)  # nothing moved yet
        raise ClassError("bad_answer")

    def _order(self, q, text, lang):
        """The item ids of an answer, as positions in ``q.grades``."""
        ids = [s.strip() for s in str(text or "").split(",") if s.strip()]
        if sorted(ids) != sorted(q.item_ids):
            raise ValueError(t("Drag the items into your order, then send it.", lang))
        return [q.item_ids.index(i) for i in ids]

    def _score(self, q, order):
        return Q.value([q.grades[i] for i in order], q)

    def grade(self, q, text, lang):
        order = self._order(q, text, lang)
        return Q.Graded(",".join(q.item_ids[i] for i in order),
                        self.meets_goal(q, self._score(q, order)), None)

    def meets_goal(self, q, score):
        if q.goal == "highest":
            return score >= Q.best_value(q) - 1e-9
        return score < q.target if q.goal == "below" else score > q.target

    def right_answer(self, q):
        """The best order (the worst, for a goal below a target): one that meets the goal."""
        order = sorted(range(len(q.grades)), key=lambda i: -q.grades[i])
        if q.goal == "below":
            order.reverse()
        return ",".join(q.item_ids[i] for i in order)

    def group(self, q, answer, correct, mistake):
        return fmt(self._score(q, self._order(q, answer, "en")))

    def explain(self, q, answer, lang):
        order = self._order(q, answer, lang)
        return t("{order} (NDCG@{k} = {value})", lang, k=q.k,
                 order=", ".join(q.labels[i] for i in order), value=fmt(self._score(q, order)))

    def right_words(self, q, lang):
        """For a goal ("below 0.50") every order that meets it, and one."""
        example = self.said(q, self.right_answer(q), lang)
        if q.goal == "below":
            return t("any order whose NDCG@{k} is below {target}, e.g. {order}", lang,
                     k=q.k, target=fmt(q.target, 2), order=example)
        if q.goal == "above":
            return t("any order whose NDCG@{k} is above {target}, e.g. {order}", lang,
                     k=q.k, target=fmt(q.target, 2), order=example)
        return example

    def right_line(self, q, lang):
        if q.goal == "highest":
            return super().right_line(q, lang)
        return t("Orders that meet the goal: {answer}", lang, answer=self.right_words(q, lang))


register(Arrange())
