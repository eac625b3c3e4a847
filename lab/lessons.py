"""Lesson prose: ``assets/lessons/*.md`` read into front matter plus sections by id.

English lessons are ``assets/lessons/<name>.md``; their Chinese twins ``assets/lessons/zh/``
(same sections in the same order: ``tests/engine/test_lessons_zh.py``).

A lesson file starts with ``---`` front matter (``title``, ``order``, ``summary``) and splits
into sections at ``## <id> | <Heading>`` lines. ``ui/lessons.py`` renders them; pages
interleave sections with widgets: ``section("03_gain", "flip")``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lab.i18n import LANGUAGES, SOURCE

LESSONS = Path(__file__).resolve().parents[1] / "assets" / "lessons"


def path(name: str, lang: str = "en") -> Path:
    """The lesson file of ``name`` in ``lang``: English at the top, others in a folder."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not one of {', '.join(LANGUAGES)}")
    return LESSONS / ("" if lang == SOURCE else lang) / f"{name}.md"


@lru_cache(maxsize=None)
def lesson(name: str, lang: str = "en") -> dict:
    """``{"meta": {...}, "sections": {id: (heading, body)}}`` of the lesson ``name`` in
    ``lang`` (``assets/lessons/<name>.md``, or ``assets/lessons/zh/<name>.md``); sections
    keep the file's order."""
    text = path(name, lang).read_text(encoding="utf-8")
    meta = {}
    if text.startswith("---"):
        head, _, text = text[3:].partition("\n---")
        for line in head.strip().splitlines():
            key, _, value = line.partition(":")
            meta[key.strip()] = value.strip()
    sections, current = {}, None
    for line in text.splitlines():
        if line.startswith("## ") and "|" in line:
            sid, _, heading = line[3:].partition("|")
            current = sid.strip()
            if current in sections:  # a second section would hide the first
                raise ValueError(f"{path(name, lang)}: section id {current!r} appears twice; "
                                 "give each section its own id")
            sections[current] = [heading.strip(), []]
        elif current:
            sections[current][1].append(line)
    return {"meta": meta,
            "sections": {k: (h, "\n".join(b).strip()) for k, (h, b) in sections.items()}}


def heading(name: str, sid: str, lang: str = "en") -> str:
    return lesson(name, lang)["sections"][sid][0]
