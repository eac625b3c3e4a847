"""Class-mode question kinds: one module each, registered in one table.

A kind says everything the classroom needs of it, and nothing else in the app names a kind:
its name in the teacher's menu, the sentence the class reads, how a phone answers it (the
answer *style*: ``value`` typed, ``pick`` one of some letters, ``order`` dragged, which
``ui/class_kinds.py`` draws), how an answer is read (empty or unknown is refused with a
message, never stored), scored, grouped in the distribution and named when it is a known
mistake, the right answer, and the words a reveal or the CSV says about an answer.

A new kind is one module here that subclasses :class:`Kind` and calls :func:`register`,
plus its words in ``locales/zh/LC_MESSAGES/*.po`` (as ``ir_measures`` registers a measure
in one file). The four the app ships:

- ``predict``: "NDCG@k = ?" of a ranking (:mod:`.predict`);
- ``choose``: multiple choice among the right value and named mistakes' (:mod:`.choose`);
- ``higher``: which of two rankings has the higher NDCG@k (:mod:`.higher`);
- ``arrange``: drag the items into an order that meets a goal (:mod:`.arrange`).

No Streamlit here.
"""

from __future__ import annotations

from typing import ClassVar

from lab.classroom import questions as Q
from lab.i18n import t
from lab.text import escape_markdown, fmt_grade

STYLES = ("value", "pick", "order")  # how a phone answers: ui/class_kinds.py draws each


class Kind:
    """A question kind. Subclasses set ``name`` and ``style`` and override what differs;
    the defaults fit a kind answered by a typed value about one ranking."""

    name: ClassVar[str] = ""
    style: ClassVar[str] = "value"
    exercise: ClassVar[str] = "compute"   # the practice exercise a number asks (lab.exercises)
    show_choices: ClassVar[bool] = False  # the projector lists the choices' words

    # ---- the words
    def label(self, lang: str) -> str:
        """The kind's name, as the teacher's menu and a question's title write it."""
        raise NotImplementedError

    def prompt(self, q: Q.Question, lang: str) -> str:
        """The question as the class reads it (the ranking itself is drawn as a table)."""
        raise NotImplementedError

    # ---- making one
    def check(self, q: Q.Question) -> None:
        """Raise ``ValueError`` naming the fix when ``q`` cannot be asked as this kind."""

    def make(self, grades: tuple, k: int, gain: str, labels: tuple = (),
             unretrieved: tuple = (), *, other: tuple = (), source: str = "") -> Q.Question | None:
        """This kind's question about a ranking (a share link's, an exercise's; ``other``: a
        second ranking), or None when it cannot be made from it."""
        return Q.Question(self.name, tuple(grades), k, gain, tuple(labels), tuple(unretrieved),
                          source=source)

    # ---- an answer
    def placeholder(self, lang: str) -> str:
        """A ``value`` kind's hint inside the empty answer box."""
        return ""

    def choices(self, q: Q.Question) -> tuple[str, ...]:
        """A ``pick`` kind's letters, in the order offered."""
        return ()

    def choice_words(self, q: Q.Question, letter: str, lang: str) -> str:
        """A choice as a phone offers it and a chart's axis names it."""
        return letter

    def sent_text(self, q: Q.Question, sent) -> str:
        """What the phone's widget sent, as the text :meth:`grade` reads."""
        return sent

    def grade(self, q: Q.Question, text, lang: str) -> Q.Graded:
        """Read and score an answer; ``ValueError`` (a message in ``lang``) if unreadable."""
        raise NotImplementedError

    def right_answer(self, q: Q.Question) -> str:
        """The right answer as stored."""
        raise NotImplementedError

    # ---- the distribution
    def fixed_groups(self, q: Q.Question) -> list[tuple[str, bool, str]]:
        """``(group, right, mistake key or "")`` of the bars drawn even when nobody picked
        them, in the chart's order; none: the groups are the answers, low to high."""
        return [(c, c == self.right_answer(q), "") for c in self.choices(q)]

    def group(self, q: Q.Question, answer, correct: bool, mistake: str | None) -> str:
        """The bar an answer counts in."""
        return answer

    # ---- what is said about an answer
    def explain(self, q: Q.Question, answer: str, lang: str) -> str:
        """An answer as a person reads it (plain text: the CSV)."""
        return answer

    def said(self, q: Q.Question, answer: str, lang: str) -> str:
        """An answer inside a Markdown sentence (labels escaped)."""
        if self.choices(q):
            return self.choice_words(q, answer, lang)  # our words and figures
        return escape_markdown(self.explain(q, answer, lang))

    def group_words(self, q: Q.Question, group: str, lang: str) -> str:
        """A bar's name on the chart's axis."""
        return self.choice_words(q, group, lang) if self.choices(q) else group

    def right_line(self, q: Q.Question, lang: str) -> str:
        """The reveal's sentence naming the right answer (Markdown)."""
        return t("Right answer: {answer}", lang, answer=self.said(q, self.right_answer(q), lang))

    def right_words(self, q: Q.Question, lang: str) -> str:
        """The right answer inside a student's sentence (Markdown)."""
        return self.said(q, self.right_answer(q), lang)

    # ---- what the question shows
    def rankings(self, q: Q.Question, lang: str) -> list[tuple[str, tuple, tuple]]:
        """``(title or "", grades, labels)`` of each ranking drawn with the question."""
        return [("", q.grades, q.labels)]

    def ranking_text(self, q: Q.Question) -> str:
        """The question's ranking(s) in one CSV cell: each label with its grade, in rank
        order."""
        return "; ".join((f"{title}: " if title else "") + ", ".join(
            f"{label} ({fmt_grade(g)})" for label, g in zip(labels, grades))
            for title, grades, labels in self.rankings(q, "en"))


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add ``kind`` to the table every part of class mode reads (its name must be new)."""
    if not kind.name or kind.name in KINDS:
        raise ValueError(f"a kind needs a name of its own; got {kind.name!r}")
    if kind.style not in STYLES:
        raise ValueError(f"a kind's style is one of {', '.join(STYLES)}; got {kind.style!r}")
    KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Take a kind out of the table (a test's own kind, once the test is done)."""
    KINDS.pop(name, None)


def get(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {name!r}") from None


def of(q: Q.Question) -> Kind:
    return get(q.kind)


def for_exercise(exercise: str) -> Kind:
    """The first kind asked from a practice exercise of kind ``exercise``."""
    return next(k for k in KINDS.values() if k.exercise == exercise)


def names(lang: str) -> dict[str, str]:
    """Each kind's name in ``lang``, in the table's order."""
    return {name: k.label(lang) for name, k in KINDS.items()}


from . import predict, choose, arrange, higher  # noqa: E402,F401  the kinds the app ships
