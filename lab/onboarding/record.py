"""A member's completion record: one page (PDF) with the steps, the dates, the reproduced
number and the run's checksum, and a verification code the lead checks on the team page.

The code is an HMAC-SHA256 of the record's *canonical text* under a key kept in the
server's database (:func:`lab.onboarding.store.Store.record_key`), cut to 80 bits: a
member can print the record but not change a digit of it and keep a code the server accepts.
The canonical text is the record's lines with every run of whitespace made one space, so the
text copied out of the PDF (whose line breaks a viewer may move) checks the same.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from lab import handouts
from lab.i18n import t

from . import steps as S
from .report import when
from .store import Event, Member, StepProgress, Team

CODE_CHARS = 20  # hex digits of the HMAC: 80 bits
HEADER = "NDCG Lab onboarding record"  # the signed text starts here and ends at the code
_CODE_LINE = re.compile(r"Verification code:\s*((?:[0-9A-Fa-f]{4}[\s-]*){4}[0-9A-Fa-f]{4})")


def digest(data: bytes) -> str:
    """A file's SHA-256, as the record prints it."""
    return hashlib.sha256(data).hexdigest()


def reproduced(evts: list[Event]) -> dict | None:
    """The evidence of the member's first done "reproduce" event, or None."""
    return next((e.evidence for e in evts if e.step == "reproduce" and e.verb == "done"), None)


def lines(team: Team, member: Member, prog: dict[str, StepProgress], repro: dict,
          issued: float) -> list[str]:
    """The record's lines (English: the text the code signs reads the same everywhere)."""
    out = [HEADER,
           f"Team: {team.code} ({team.name})",
           f"Member: {member.number} ({member.name})"]
    for i, step in enumerate(S.STEP_IDS, start=1):
        p = prog[step]
        done = when(p.done_at)[:10] if p.done_at is not None else ""
        out.append(f"Step {i}. {S.title(step, 'en')}: {p.level}" + (f" on {done}" if done
                                                                   else ""))
    out += [f"Reproduced: mean NDCG@{repro.get('k', 10)} = {float(repro['engine']):.4f} "
            f"(typed {float(repro['mean']):.4f}, convention {repro['convention']})",
            f"Judgments SHA-256: {repro.get('qrels_sha256', '')}",
            f"Run SHA-256: {repro.get('run_sha256', '')}",
            f"Issued: {when(issued)}"]
    return out


def canonical(text: str) -> str:
    """The signed part of a record's text (from its first line to its code line), every run
    of whitespace one space: what the PDF prints around it is not signed."""
    text = str(text)
    start = max(0, text.find(HEADER))
    found = _CODE_LINE.search(text, start)
    return " ".join(text[start:found.start() if found else len(text)].split())


def code(text: str, key: bytes) -> str:
    """The verification code of a record's text: 20 hex digits in groups of four."""
    mac = hmac.new(key, canonical(text).encode("utf-8"), hashlib.sha256).hexdigest()
    raw = mac[:CODE_CHARS].upper()
    return "-".join(raw[i:i + 4] for i in range(0, CODE_CHARS, 4))


def signed_text(team, member, prog, repro, issued: float, key: bytes) -> str:
    body = "\n".join(lines(team, member, prog, repro, issued))
    return body + f"\nVerification code: {code(body, key)}"


def verify(text: str, key: bytes) -> bool:
    """Whether ``text`` (a record, with its code line) is one the server signed, unchanged."""
    text = str(text or "")
    found = _CODE_LINE.search(text, max(0, text.find(HEADER)))
    if HEADER not in text or not found:
        return False
    given = re.sub(r"[^0-9A-F]", "", found.group(1).upper())
    want = code(text, key).replace("-", "")
    return len(given) == CODE_CHARS and hmac.compare_digest(given, want)


def pdf(text: str, *, lang: str = "en", paper: str = "A4") -> bytes:
    """The record on one page: a heading in ``lang``, then its signed lines as they are."""
    title = t("Onboarding record", lang)
    sheet = handouts._Sheet(lang, paper, title)
    sheet.add_page()
    sheet.heading(title)
    sheet.para(t("Check it on the team page: the lead pastes this record's text there. A "
                 "changed digit fails the check.", lang), size=9)
    sheet.ln(2)
    for line in text.splitlines():
        sheet.para(line, size=10 if not line.startswith(("Judgments", "Run SHA")) else 8)
    return handouts._bytes(sheet)
