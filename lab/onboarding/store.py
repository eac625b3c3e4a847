"""Teams, members and their progress events in the database (:mod:`lab.onboarding.db`).

A team has a code (members: its link ``?team=CODE``) and a lead's secret (only its SHA-256
is stored, compared in constant time: :mod:`lab.classroom.codes`). A member joins with a
name and gets a token (their personal link, stored hashed too) that brings their progress
back on any device; where the server has a sign-in, the sign-in's subject finds the member
instead. Progress is events: :meth:`Store.record` appends one, and every level, time and
export is read back from them (a step that is done stays done: :func:`steps.level_of`).

Teams never expire on their own: only the lead's :meth:`Store.close` ends one.
Times are seconds since the epoch from ``clock`` (injected, so tests can move time).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Callable

import sqlalchemy as sa

from lab.classroom import codes
from lab.classroom.store import clean_text
from ndcg_core import CONVENTIONS

from . import steps as S
from .db import WRITE, events, keys, members, teams
from .errors import OnboardError

MAX_MEMBERS = 200
MAX_NAME = 40
MAX_TEAM_NAME = 60
MAX_FILE_NAME = 120
MAX_EVENTS = 5000  # per member: a whole path is a few hundred
VERBS = ("started", "tried", "done")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")  # codes.new_secret(): token_urlsafe of 16 bytes


def well_formed(secret) -> bool:
    """Whether a link's secret or token has the shape the app makes (checked before any
    query: a link's value reaches the database only when it could be one)."""
    return isinstance(secret, str) and _TOKEN.fullmatch(secret) is not None


@dataclass(frozen=True)
class Team:
    id: int
    code: str
    name: str
    convention: str
    qrels_name: str | None
    run_name: str | None
    max_members: int
    members: int
    created_at: float
    closed_at: float | None


@dataclass(frozen=True)
class Member:
    id: int
    team_code: str
    number: int
    name: str
    joined_at: float
    last_active: float


@dataclass(frozen=True)
class Event:
    member: int  # the member's number in the team
    name: str
    step: str
    verb: str
    evidence: dict
    at: float


@dataclass(frozen=True)
class StepProgress:
    level: str
    first_at: float | None  # the first event of the step
    done_at: float | None   # the first "done"
    seconds: float          # first event to done (or to the last event while not done)


class Store:
    """Teams in the database behind ``engine`` (:func:`lab.onboarding.db.open_engine`)."""

    def __init__(self, engine: sa.Engine, *, clock: Callable[[], float] = time.time):
        self.engine = engine
        self.clock = clock
        self._pg = engine.dialect.name == "postgresql"

    def _write(self):
        return _Tx(self.engine, write=True)

    def _read(self):
        return _Tx(self.engine, write=False)

    # teams -----------------------------------------------------------------------------
    def _team_row(self, conn, code, *, lock: bool = False):
        code = codes.normal_code(str(code))
        if code is None:
            raise OnboardError("no_team")
        q = sa.select(teams).where(teams.c.code == code)
        row = conn.execute(q.with_for_update() if lock and self._pg else q).first()
        if row is None:
            raise OnboardError("no_team")
        if row.closed_at is not None:
            raise OnboardError("closed")
        return row

    def _lead_row(self, conn, code, secret):
        code = codes.normal_code(str(code))
        if code is None or not well_formed(secret):
            raise OnboardError("not_lead")
        row = conn.execute(sa.select(teams).where(teams.c.code == code)).first()
        # one refusal for a wrong code, a wrong secret and a closed team: nothing to probe
        if (row is None or not codes.same_secret(str(secret), row.secret_hash)
                or row.closed_at is not None):
            raise OnboardError("not_lead")
        return row

    def create_team(self, name: str = "", *, convention: str = "trec_eval",
                    max_members: int = MAX_MEMBERS) -> tuple[Team, str]:
        """A new team and its lead's secret (shown once, in the lead's link)."""
        if convention not in CONVENTIONS:
            raise OnboardError("convention")
        if not 1 <= int(max_members) <= MAX_MEMBERS:
            raise ValueError(f"max_members must be 1 to {MAX_MEMBERS}, got {max_members}")
        secret = codes.new_secret()
        for _ in range(20):  # a clash among ~887 million codes is rare; try another
            code = codes.new_code()
            try:
                with self._write() as conn:
                    conn.execute(teams.insert().values(
                        code=code, secret_hash=codes.digest(secret),
                        name=clean_text(name, MAX_TEAM_NAME) or code, convention=convention,
                        max_members=int(max_members), members=0, created_at=self.clock(),
                        closed_at=None))
                return self.team(code), secret
            except sa.exc.IntegrityError:
                continue
        raise RuntimeError("no free team code after 20 tries")

    def team(self, code) -> Team:
        with self._read() as conn:
            return _team(self._team_row(conn, code))

    def lead_team(self, code, secret) -> Team:
        """The team, if ``secret`` is its lead's (else ``OnboardError('not_lead')``)."""
        with self._read() as conn:
            return _team(self._lead_row(conn, code, secret))

    def set_convention(self, code, secret, convention: str) -> None:
        if convention not in CONVENTIONS:
            raise OnboardError("convention")
        with self._write() as conn:
            row = self._lead_row(conn, code, secret)
            conn.execute(teams.update().where(teams.c.id == row.id).values(
                convention=convention))

    def set_files(self, code, secret, qrels: tuple[str, bytes] | None,
                  run: tuple[str, bytes] | None) -> None:
        """The team's judgments and run (``(file name, bytes)``); None for both: the sample.
        The caller has read them with the data page's readers."""
        (qn, qb), (rn, rb) = qrels or (None, None), run or (None, None)
        with self._write() as conn:
            row = self._lead_row(conn, code, secret)
            conn.execute(teams.update().where(teams.c.id == row.id).values(
                qrels_name=clean_text(qn, MAX_FILE_NAME) if qn else None, qrels=qb,
                run_name=clean_text(rn, MAX_FILE_NAME) if rn else None, run=rb))

    def files(self, code) -> tuple[tuple[str, bytes], tuple[str, bytes]] | None:
        """The lead's files, or None when the team uses the bundled sample."""
        with self._read() as conn:
            row = self._team_row(conn, code)
        if row.qrels is None or row.run is None:
            return None
        return (row.qrels_name, bytes(row.qrels)), (row.run_name, bytes(row.run))

    def close(self, code, secret) -> None:
        """End the team: its links stop working; its records are kept for export."""
        with self._write() as conn:
            row = self._lead_row(conn, code, secret)
            conn.execute(teams.update().where(teams.c.id == row.id).values(
                closed_at=self.clock()))

    # members ---------------------------------------------------------------------------
    def join(self, code, name, *, subject: str | None = None) -> tuple[Member, str]:
        """A new member and their token (their personal link). With ``subject`` (a
        sign-in), the member who signed in before is found instead and given a new token."""
        name = clean_text(name or "", MAX_NAME)
        if not name:
            raise OnboardError("no_name", n=MAX_NAME)
        token = codes.new_secret()
        now = self.clock()
        with self._write() as conn:
            row = self._team_row(conn, code, lock=True)
            if subject:
                old = conn.execute(sa.select(members).where(
                    members.c.team_id == row.id, members.c.subject == str(subject)[:255])).first()
                if old is not None:
                    conn.execute(members.update().where(members.c.id == old.id).values(
                        token_hash=codes.digest(token), name=name, last_active=now))
                    return Member(old.id, row.code, old.number, name, old.joined_at, now), token
            if row.members >= row.max_members:
                raise OnboardError("full", n=row.max_members)
            number = row.members + 1
            conn.execute(teams.update().where(teams.c.id == row.id).values(members=number))
            mid = conn.execute(members.insert().values(
                team_id=row.id, number=number, token_hash=codes.digest(token), name=name,
                subject=str(subject)[:255] if subject else None, joined_at=now,
                last_active=now)).inserted_primary_key[0]
        return Member(mid, row.code, number, name, now, now), token

    def member(self, code, token) -> Member:
        if not well_formed(token):
            raise OnboardError("not_member")
        with self._read() as conn:
            row = self._team_row(conn, code)
            m = conn.execute(sa.select(members).where(
                members.c.token_hash == codes.digest(str(token)),
                members.c.team_id == row.id)).first()
            if m is None:
                raise OnboardError("not_member")
            return Member(m.id, row.code, m.number, m.name, m.joined_at, m.last_active)

    # events ----------------------------------------------------------------------------
    def record(self, member: Member, step: str, verb: str, evidence: dict | None = None) -> str:
        """Append one event; the step's level after it."""
        S.check_step(step)
        if verb not in VERBS:
            raise ValueError(f"verb must be one of {', '.join(VERBS)}; got {verb!r}.")
        now = self.clock()
        with self._write() as conn:
            self._team_row(conn, member.team_code)  # a closed team takes nothing more
            n = conn.execute(sa.select(sa.func.count()).select_from(events).where(
                events.c.member_id == member.id)).scalar()
            if n >= MAX_EVENTS:
                raise OnboardError("too_many", n=MAX_EVENTS)
            conn.execute(events.insert().values(
                member_id=member.id, step=step, verb=verb, at=now,
                evidence=json.dumps(evidence or {}, sort_keys=True, allow_nan=False,
                                    default=str)))
            conn.execute(members.update().where(members.c.id == member.id).values(
                last_active=now))
            verbs = conn.execute(sa.select(events.c.verb).where(
                events.c.member_id == member.id, events.c.step == step)).scalars().all()
        return S.level_of(verbs)

    def start(self, member: Member, step: str) -> None:
        """Note that the member opened ``step`` (once: the time spent counts from it)."""
        with self._read() as conn:
            seen = conn.execute(sa.select(events.c.id).where(
                events.c.member_id == member.id, events.c.step == step).limit(1)).first()
        if seen is None:
            self.record(member, step, "started")

    def _events(self, conn, team_id: int, member_id: int | None = None) -> list[Event]:
        q = (sa.select(events, members.c.number, members.c.name)
             .join(members, members.c.id == events.c.member_id)
             .where(members.c.team_id == team_id))
        if member_id is not None:
            q = q.where(members.c.id == member_id)
        return [Event(r.number, r.name, r.step, r.verb, json.loads(r.evidence), r.at)
                for r in conn.execute(q.order_by(events.c.at, events.c.id))]

    def events(self, member: Member) -> list[Event]:
        with self._read() as conn:
            row = self._team_row(conn, member.team_code)
            return self._events(conn, row.id, member.id)

    def progress(self, member: Member) -> dict[str, StepProgress]:
        return progress_of(self.events(member))

    def spot_streak(self, member: Member) -> int:
        """Right spot answers in a row at the end of the member's mistakes step."""
        streak = 0
        for e in self.events(member):
            if e.step == "mistakes" and e.verb in ("tried", "done"):
                streak = int(e.evidence.get("streak", 0))
        return streak

    # the lead's view -------------------------------------------------------------------
    def roster(self, code, secret) -> tuple[Team, list[Member], list[Event]]:
        """The team, its members (by number) and every event with its evidence (the lead's
        downloads; the matrix reads :meth:`summary`)."""
        with self._read() as conn:
            row = self._lead_row(conn, code, secret)
            people = [Member(m.id, row.code, m.number, m.name, m.joined_at, m.last_active)
                      for m in conn.execute(sa.select(members).where(
                          members.c.team_id == row.id).order_by(members.c.number))]
            return _team(row), people, self._events(conn, row.id)

    def summary(self, code, secret) -> tuple[Team, list[Member], dict]:
        """The team, its members and ``{number: {step: StepProgress}}``, summed up in the
        database (one row per member and step, not one per event): the lead's matrix."""
        done_at = sa.func.min(sa.case((events.c.verb == "done", events.c.at)))
        tried = sa.func.max(sa.case((events.c.verb == "tried", 1), else_=0))
        with self._read() as conn:
            row = self._lead_row(conn, code, secret)
            people = [Member(m.id, row.code, m.number, m.name, m.joined_at, m.last_active)
                      for m in conn.execute(sa.select(members).where(
                          members.c.team_id == row.id).order_by(members.c.number))]
            rows = conn.execute(
                sa.select(members.c.number, events.c.step, sa.func.min(events.c.at),
                          sa.func.max(events.c.at), done_at, tried)
                .join(members, members.c.id == events.c.member_id)
                .where(members.c.team_id == row.id)
                .group_by(members.c.number, events.c.step)).all()
        out: dict[int, dict[str, StepProgress]] = {m.number: {} for m in people}
        for number, step, first, last, done, was_tried in rows:
            level = S.DONE if done is not None else S.TRIED if was_tried else S.NOT_STARTED
            end = done if done is not None else last
            out.setdefault(number, {})[step] = StepProgress(level, first, done,
                                                            max(0.0, end - first))
        return _team(row), people, out

    def record_key(self) -> bytes:
        """The server's key for completion records (made with the tables)."""
        with self._read() as conn:
            return bytes.fromhex(conn.execute(sa.select(keys.c.value).where(
                keys.c.name == "record")).scalar_one())


def progress_of(evts: list[Event]) -> dict[str, StepProgress]:
    """Each step's level, first event, first done and time spent, from one member's events."""
    out = {}
    for step in S.STEP_IDS:
        mine = [e for e in evts if e.step == step]
        if not mine:
            out[step] = StepProgress(S.NOT_STARTED, None, None, 0.0)
            continue
        done = next((e.at for e in mine if e.verb == "done"), None)
        first = mine[0].at
        end = done if done is not None else mine[-1].at
        out[step] = StepProgress(S.level_of(e.verb for e in mine), first, done,
                                 max(0.0, end - first))
    return out


def _team(row) -> Team:
    return Team(row.id, row.code, row.name, row.convention, row.qrels_name, row.run_name,
                row.max_members, row.members, row.created_at, row.closed_at)


class _Tx:
    """A connection in one transaction; ``write`` makes SQLite's BEGIN IMMEDIATE."""

    def __init__(self, engine: sa.Engine, *, write: bool):
        self.engine, self.write = engine, write

    def __enter__(self):
        self.conn = self.engine.connect().execution_options(**{WRITE: self.write})
        self.tx = self.conn.begin()
        return self.conn

    def __exit__(self, kind, *_):
        try:
            (self.tx.rollback if kind else self.tx.commit)()
        finally:
            self.conn.close()
        return False
