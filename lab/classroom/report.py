"""A class's answers as a table: the distribution of a round, the CSV export, the summary.

The export holds anonymous ids (S001, …), never an address; names only when the teacher
turned names on. Every CSV cell passes through :func:`csv_text` (:func:`safe_cell`): a
spreadsheet opens none of them as a formula. No Streamlit here.
"""

from __future__ import annotations

import csv
import io
import time
from collections import Counter

from lab.i18n import t

from . import questions as Q
from .store import Answer, Room, Round


def distribution(q: Q.Question, answers: list[Answer]) -> list[tuple[str, int, bool, str]]:
    """``(answer group, count, right, mistake key or "")`` per group, in the order a chart
    reads them: the bars a kind always draws (a choose question's options in letter order,
    even one nobody picked; A then B for which-is-higher), else values from low to high.
    Which bar an answer counts in is its kind's (:meth:`~lab.classroom.kinds.Kind.group`):
    one bar per idea, not one per rounding."""
    kind = Q.kind_of(q)
    groups: Counter = Counter()
    meta: dict[str, tuple[bool, str]] = {}
    fixed = kind.fixed_groups(q)
    for g, right, mistake in fixed:
        groups[g] += 0
        meta[g] = (right, mistake)
    for a in answers:
        g = kind.group(q, a.answer, a.correct, a.mistake)
        groups[g] += 1
        meta.setdefault(g, (a.correct, a.mistake or ""))
    order = [g for g, *_ in fixed] if fixed else sorted(groups, key=_as_number)
    return [(g, groups[g], meta[g][0], meta[g][1]) for g in order]


def _as_number(g: str):
    try:
        return (0, float(g), g)
    except ValueError:
        return (1, 0.0, g)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # OWASP's CSV injection rule


def safe_cell(value):
    """A CSV cell a spreadsheet reads as text: one starting with ``= + - @``, a tab or a
    carriage return gets a leading apostrophe (OWASP), so ``=HYPERLINK(...)`` in a nickname
    opens as the characters typed, not as a formula. Numbers stay numbers.

    >>> safe_cell("=cmd|' /C calc'!A0"), safe_cell("@SUM(A1)"), safe_cell(-0.5), safe_cell("S001")
    ("'=cmd|' /C calc'!A0", "'@SUM(A1)", -0.5, 'S001')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(header: list[str], rows) -> str:
    """``header`` and ``rows`` as CSV text, each cell through :func:`safe_cell` (the one
    way class mode writes a CSV)."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([safe_cell(h) for h in header])
    for row in rows:
        w.writerow([safe_cell(v) for v in row])
    return out.getvalue()


def summary_csv(rows: list[dict]) -> str:
    """:func:`summary`'s rows as CSV (its column names in the page's language)."""
    header = list(rows[0]) if rows else []
    return csv_text(header, ([row[h] for h in header] for row in rows))


def export_csv(room: Room, rounds: list[Round], answers: list[Answer]) -> str:
    """Every answer of the room, one row each, in words a reader of the file needs no app
    for: the answer as the app shows it (an order by its labels and NDCG, an option with its
    value), the mistake's name, the question's ranking, when the answer was sent (UTC) and
    how long after the question opened. English column names, as data files have."""
    by_round = {r.id: r for r in rounds}
    header = ["student", "question", "round", "kind", "question_text", "ranking", "answer",
              "right", "mistake", "mistake_key", "sent_at_utc", "seconds_after_open"]
    rows = []
    for a in answers:
        r = by_round[a.round_id]
        q = Q.from_json(r.question)
        row = [f"S{a.student:03d}", r.question_no, r.round_no, q.kind, Q.prompt(q, "en"),
               ranking_text(q), Q.explain(q, a.answer, "en"), "yes" if a.correct else "no",
               Q.mistake_name(a.mistake, "en"), a.mistake or "",
               time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(a.sent_at)),
               round(max(0.0, a.sent_at - r.opened_at), 1)]
        rows.append(row + ([a.nickname or ""] if room.names_on else []))
    return csv_text(header + (["nickname"] if room.names_on else []), rows)


def ranking_text(q: Q.Question) -> str:
    """A question's ranking in one cell: each label with its grade, in rank order (ranking
    B after A for which-is-higher).

    >>> ranking_text(Q.Question("predict", (3, 0), 2, labels=("a", "b")))
    'a (3), b (0)'
    """
    return Q.kind_of(q).ranking_text(q)


def summary(rounds: list[Round], answers: list[Answer], lang: str) -> list[dict]:
    """One row per revealed round: how many answered, the share right, the most common
    mistake (a round not yet revealed is left out: its answers are still coming in, and the
    class has not seen them)."""
    rows = []
    for r in rounds:
        if r.phase != "revealed":
            continue
        mine = [a for a in answers if a.round_id == r.id]
        right = sum(a.correct for a in mine)
        mistakes = Counter(a.mistake for a in mine if a.mistake)
        top = mistakes.most_common(1)
        rows.append({
            t("Question", lang): Q.title(Q.from_json(r.question), r.question_no, lang),
            t("Round", lang): r.round_no,
            t("Answers", lang): len(mine),
            t("Right", lang): f"{100 * right / len(mine):.0f}%" if mine else "—",
            t("Most common mistake", lang): (
                f"{Q.mistake_name(top[0][0], lang)} ({top[0][1]})" if top else "—"),
        })
    return rows
