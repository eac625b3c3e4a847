"""A class's answers as a table: the distribution of a round, the CSV export, the summary.

The export holds anonymous ids (S001, …), never an address; names only when the teacher
turned names on. Every CSV cell passes through :func:`csv_text` (:func:`safe_cell`): a
spreadsheet opens none of them as a formula. No Streamlit here.
"""

from __future__ import annotations

import csv
import io
from collections import Counter

from lab.i18n import t

from . import questions as Q
from .store import Answer, Room, Round


def distribution(q: Q.Question, answers: list[Answer]) -> list[tuple[str, int, bool, str]]:
    """``(answer group, count, right, mistake key or "")`` per group, most common first.

    A choose question lists every option, even one nobody picked."""
    groups: Counter = Counter()
    meta: dict[str, tuple[bool, str]] = {}
    if q.kind == "choose":
        for letter, (_v, key) in zip(Q.LETTERS, q.options):
            groups[letter] += 0
            meta[letter] = (not key, key)
    for a in answers:
        g = Q.bucket(q, a.answer)
        groups[g] += 1
        meta.setdefault(g, (a.correct, a.mistake or ""))
    order = sorted(groups, key=lambda g: (-groups[g], g)) if q.kind != "choose" else \
        list(Q.LETTERS[:len(q.options)])
    return [(g, groups[g], meta[g][0], meta[g][1]) for g in order]


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
    """Every answer of the room, one row each (English column names, as data files have)."""
    by_round = {r.id: r for r in rounds}
    header = ["student", "question", "round", "kind", "question_text", "answer", "right",
              "mistake"]
    rows = []
    for a in answers:
        r = by_round[a.round_id]
        q = Q.from_json(r.question)
        row = [f"S{a.student:03d}", r.question_no, r.round_no, q.kind, Q.prompt(q, "en"),
               a.answer, "yes" if a.correct else "no", a.mistake or ""]
        rows.append(row + ([a.nickname or ""] if room.names_on else []))
    return csv_text(header + (["nickname"] if room.names_on else []), rows)


def summary(rounds: list[Round], answers: list[Answer], lang: str) -> list[dict]:
    """One row per round: how many answered, the share right, the most common mistake."""
    rows = []
    for r in rounds:
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
