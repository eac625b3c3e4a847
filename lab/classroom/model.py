"""Class mode's records as the store returns them, and the user text it keeps.

No database here: :mod:`lab.classroom.store` reads and writes them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Room:
    id: int
    code: str
    lang: str
    names_on: bool
    max_students: int
    created_at: float
    expires_at: float
    current_round: int | None
    students: int


@dataclass(frozen=True)
class Student:
    id: int
    room_code: str
    number: int
    nickname: str | None

    @property
    def anon_id(self) -> str:
        return f"S{self.number:03d}"


@dataclass(frozen=True)
class Round:
    id: int
    question_no: int
    round_no: int
    question: str  # JSON (lab.classroom.questions)
    phase: str     # effective: an open round past its deadline reads "locked"
    opened_at: float
    deadline: float | None


@dataclass(frozen=True)
class Answer:
    round_id: int
    student: int   # the student's number in the room
    nickname: str | None
    answer: str
    correct: bool
    mistake: str | None
    sent_at: float


ANON_ID = re.compile(r"[sS]\d+")  # an anonymous id (S001), once look-alikes are folded


def looks_like_id(nickname: str) -> bool:
    """Whether a nickname would read as an anonymous id on the projector ("S001", "s 7",
    "Ｓ００１", "S-001."): it could pass for another student's.

    >>> looks_like_id("S001"), looks_like_id("Ｓ００１"), looks_like_id("S-1."), looks_like_id("Sam1")
    (True, True, True, False)
    """
    folded = "".join(c for c in unicodedata.normalize("NFKC", nickname) if c.isalnum())
    return bool(ANON_ID.fullmatch(folded))


def clean_text(text, limit: int) -> str:
    """User text as stored: control characters dropped, whitespace folded, capped."""
    kept = "".join(c if c.isprintable() else " " for c in str(text))
    return " ".join(kept.split())[:limit]
