"""Lesson prose: ``assets/lessons/*.md`` read into front matter plus sections by id.

A lesson file starts with ``---`` front matter (``title``, ``order``, ``summary``) and splits
into sections at ``## <id> | <Heading>`` lines. ``ui/lessons.py`` renders them; pages
interleave sections with widgets: ``section("03_gain", "flip")``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

LESSONS = Path(__file__).resolve().parents[1] / "assets" / "lessons"


@lru_cache(maxsize=None)
def lesson(name: str) -> dict:
    """``{"meta": {...}, "sections": {id: (heading, body)}}`` of ``assets/lessons/<name>.md``."""
    text = (LESSONS / f"{name}.md").read_text(encoding="utf-8")
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
            sections[current] = [heading.strip(), []]
        elif current:
            sections[current][1].append(line)
    return {"meta": meta,
            "sections": {k: (h, "\n".join(b).strip()) for k, (h, b) in sections.items()}}


def heading(name: str, sid: str) -> str:
    return lesson(name)["sections"][sid][0]
