"""The onboarding path's tables, in class mode's database (:mod:`lab.classroom.db` opens the
engine: SQLite in WAL mode by default, PostgreSQL by URL).

Tables of their own (``onboard_*``) with a schema version of their own, so class mode's
schema and this one change apart. Progress is kept as events, one row per thing a member did
(who, which step, what verb, the evidence as JSON, when): levels, time spent and exports are
read from them, and nothing is ever updated in place but a member's last-active time.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa

from lab.classroom import db as class_db

SCHEMA_VERSION = 1
WRITE = class_db.WRITE  # SQLite's BEGIN IMMEDIATE for a writing transaction (class mode's)

meta = sa.MetaData()

schema_version = sa.Table("onboard_schema_version", meta,
                          sa.Column("version", sa.Integer, nullable=False))

# One row: the key that signs completion records (HMAC-SHA256), made on the first start.
keys = sa.Table(
    "onboard_keys", meta,
    sa.Column("name", sa.String(20), primary_key=True),
    sa.Column("value", sa.String(64), nullable=False),
)

teams = sa.Table(
    "onboard_teams", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(6), nullable=False, unique=True),
    sa.Column("secret_hash", sa.String(64), nullable=False),  # sha256 hex of the lead's secret
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("convention", sa.String(20), nullable=False),
    sa.Column("qrels_name", sa.String(120), nullable=True),  # the lead's files (None: sample)
    sa.Column("qrels", sa.LargeBinary, nullable=True),
    sa.Column("run_name", sa.String(120), nullable=True),
    sa.Column("run", sa.LargeBinary, nullable=True),
    sa.Column("max_members", sa.Integer, nullable=False),
    sa.Column("members", sa.Integer, nullable=False, default=0),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("closed_at", sa.Float, nullable=True),  # a team ends only when its lead closes it
)

members = sa.Table(
    "onboard_members", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("team_id", sa.Integer, sa.ForeignKey("onboard_teams.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("subject", sa.String(255), nullable=True),  # the sign-in's subject (st.login)
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("last_active", sa.Float, nullable=False),
    sa.UniqueConstraint("team_id", "number"),
)

events = sa.Table(
    "onboard_events", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("member_id", sa.Integer, sa.ForeignKey("onboard_members.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("step", sa.String(20), nullable=False),
    sa.Column("verb", sa.String(12), nullable=False),  # started, tried, done
    sa.Column("evidence", sa.Text, nullable=False),    # JSON
    sa.Column("at", sa.Float, nullable=False),
)


def create_schema(engine: sa.Engine) -> int:
    """Create the onboarding tables and the signing key if missing; the schema version.

    Raises ``ValueError`` for a database written by a newer schema than this code knows.
    """
    with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
        meta.create_all(conn)
        if conn.execute(sa.select(keys.c.value).where(keys.c.name == "record")).first() is None:
            conn.execute(keys.insert().values(name="record", value=secrets.token_hex(32)))
        found = conn.execute(sa.select(schema_version.c.version)).scalars().all()
        if not found:
            conn.execute(schema_version.insert().values(version=SCHEMA_VERSION))
            return SCHEMA_VERSION
        if max(found) > SCHEMA_VERSION:
            raise ValueError(f"the onboarding tables have schema version {max(found)}; this "
                             f"NDCG Lab reads version {SCHEMA_VERSION} (update the app)")
        return max(found)


def open_engine(url: str) -> sa.Engine:
    """Class mode's engine for ``url`` (its tables too), with the onboarding tables."""
    engine = class_db.open_engine(url)
    create_schema(engine)
    return engine
