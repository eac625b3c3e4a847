"""Class mode's tables (SQLAlchemy Core) and the engine that opens them.

SQLite by default, PostgreSQL by URL (:mod:`lab.classroom.config`). The schema is versioned:
:func:`open_engine` creates the tables on start and records :data:`SCHEMA_VERSION` in
``schema_version``; a database written by a newer version is refused rather than misread.

SQLite is opened in WAL mode with a busy timeout, and every write transaction starts with
``BEGIN IMMEDIATE``: measured here (shared/STREAMLIT-NOTES.md, 40 threads x 25 writes), WAL
plus a 5 s timeout lost no write where the default journal lost 988 of 1,000; and a deferred
transaction that reads and then writes can fail at once with "database is locked" (a lock
upgrade the busy timeout does not wait for), which an immediate one never does.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 5000
WRITE = "ndcg_class_write"  # execution option: this connection's transaction writes

meta = sa.MetaData()

schema_version = sa.Table("schema_version", meta, sa.Column("version", sa.Integer, nullable=False))

rooms = sa.Table(
    "class_rooms", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(6), nullable=False, unique=True),
    sa.Column("secret_hash", sa.String(64), nullable=False),  # sha256 hex of the secret
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("names_on", sa.Boolean, nullable=False, default=False),
    sa.Column("max_students", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
    sa.Column("current_round", sa.Integer, nullable=True),  # rounds.id shown to the class
    sa.Column("students", sa.Integer, nullable=False, default=0),  # how many joined
)

students = sa.Table(
    "class_students", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("room_id", sa.Integer, sa.ForeignKey("class_rooms.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("number", sa.Integer, nullable=False),  # 1, 2, ... in the room: the anonymous id
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("nickname", sa.String(40), nullable=True),
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("window_start", sa.Float, nullable=False, default=0.0),  # rate limit
    sa.Column("window_sends", sa.Integer, nullable=False, default=0),
    sa.UniqueConstraint("room_id", "number"),
)

rounds = sa.Table(
    "class_rounds", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("room_id", sa.Integer, sa.ForeignKey("class_rooms.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("question_no", sa.Integer, nullable=False),
    sa.Column("round_no", sa.Integer, nullable=False),
    sa.Column("question", sa.Text, nullable=False),  # JSON, lab.classroom.questions
    sa.Column("phase", sa.String(10), nullable=False),  # open, locked, revealed
    sa.Column("opened_at", sa.Float, nullable=False),
    sa.Column("deadline", sa.Float, nullable=True),  # a countdown's end: locked from then on
    sa.UniqueConstraint("room_id", "question_no", "round_no"),
)

answers = sa.Table(
    "class_answers", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("round_id", sa.Integer, sa.ForeignKey("class_rounds.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("student_id", sa.Integer,
              sa.ForeignKey("class_students.id", ondelete="CASCADE"), nullable=False),
    sa.Column("answer", sa.String(200), nullable=False),  # the canonical text of the answer
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("mistake", sa.String(40), nullable=True),  # the named mistake it matches
    sa.Column("sent_at", sa.Float, nullable=False),
    sa.UniqueConstraint("round_id", "student_id"),  # one answer per student per round
)


def _sqlite_setup(engine: sa.Engine, busy_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # SQLAlchemy's BEGIN below, not pysqlite's own
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across a process kill
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE)
                             else "BEGIN")


def make_engine(url: str, *, busy_ms: int = BUSY_TIMEOUT_MS) -> sa.Engine:
    """An engine for ``url`` with class mode's connection settings (not yet checked);
    ``busy_ms``: how long a SQLite write waits for another's lock before it is refused."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": busy_ms / 1000,
                                                     "check_same_thread": False})
        _sqlite_setup(engine, busy_ms)
        return engine
    if parsed.get_backend_name() == "postgresql":
        return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
    raise ValueError(f"class mode stores rooms in SQLite or PostgreSQL, not "
                     f"{parsed.get_backend_name()!r} ({url.split(':', 1)[0]}:...)")


def create_schema(engine: sa.Engine) -> int:
    """Create the tables if missing and return the schema version the database holds.

    Raises ``ValueError`` for a database written by a newer schema than this code knows.
    """
    with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
        meta.create_all(conn)
        found = conn.execute(sa.select(schema_version.c.version)).scalars().all()
        if not found:
            conn.execute(schema_version.insert().values(version=SCHEMA_VERSION))
            return SCHEMA_VERSION
        if max(found) > SCHEMA_VERSION:
            raise ValueError(f"the class database has schema version {max(found)}; this "
                             f"NDCG Lab reads version {SCHEMA_VERSION} (update the app)")
        return max(found)


def open_engine(url: str, *, busy_ms: int = BUSY_TIMEOUT_MS) -> sa.Engine:
    """:func:`make_engine` with the schema created (the app calls this once per process)."""
    engine = make_engine(url, busy_ms=busy_ms)
    create_schema(engine)
    return engine
