"""Where class mode keeps its rooms: a database URL from the environment or from
Streamlit's ``secrets.toml`` (in the ``.streamlit`` folder), else one SQLite file in the
data folder.

Read in this order (the first found wins):

1. ``NDCG_LAB_DB_URL`` — any SQLAlchemy URL; several app servers share one PostgreSQL
   database with ``postgresql+psycopg://user:password@host/dbname``.
2. ``[class] db_url`` in Streamlit's ``secrets.toml`` (the file Streamlit reads for secrets:
   a password in a URL belongs there, not in ``config.toml``).
3. ``sqlite:///<data>/class.sqlite3``, where ``<data>`` is ``NDCG_LAB_DATA``, else
   ``[class] data_dir`` of the same file, else ``./.data/`` (git-ignored).

No Streamlit here: the file is read with :mod:`tomllib`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

URL_ENV = "NDCG_LAB_DB_URL"
DATA_ENV = "NDCG_LAB_DATA"
DEFAULT_DATA = Path(".data")
DB_FILE = "class.sqlite3"
SECRETS = Path(".streamlit") / "secrets.toml"


def section(secrets_file: Path | None = None) -> Mapping:
    """The ``[class]`` table of ``secrets_file`` (Streamlit's ``secrets.toml`` by default)."""
    return _section(SECRETS if secrets_file is None else secrets_file)


def _section(secrets_file: Path) -> Mapping:
    try:
        with open(secrets_file, "rb") as f:
            found = tomllib.load(f).get("class", {})
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{secrets_file} is not valid TOML: {e}") from None
    if not isinstance(found, Mapping):
        raise ValueError(f"{secrets_file}: [class] must be a table, got {found!r}")
    return found


def database_url(env: Mapping[str, str] | None = None, *,
                 secrets_file: Path | None = None) -> str:
    """The SQLAlchemy URL class mode opens (see the module docstring for the order).

    >>> database_url({"NDCG_LAB_DB_URL": "postgresql+psycopg://u@h/db"})
    'postgresql+psycopg://u@h/db'
    >>> database_url({"NDCG_LAB_DATA": "/srv/lab"}, secrets_file=Path("/nonexistent"))
    'sqlite:////srv/lab/class.sqlite3'
    """
    env = os.environ if env is None else env
    found = section(secrets_file)
    url = env.get(URL_ENV) or found.get("db_url")
    if url:
        return str(url)
    data = Path(env.get(DATA_ENV) or found.get("data_dir") or DEFAULT_DATA)
    return f"sqlite:///{data.resolve() / DB_FILE}"


IP_HEADER_ENV = "NDCG_LAB_CLIENT_IP_HEADER"


def client_ip_header(env: Mapping[str, str] | None = None, *,
                     secrets_file: Path | None = None) -> str | None:
    """The request header that carries a student's address when a reverse proxy stands in
    front of the app (``X-Forwarded-For``, ``X-Real-IP``): ``NDCG_LAB_CLIENT_IP_HEADER``,
    else ``[class] client_ip_header``; ``None`` (the default) trusts no header, since any
    client can send one when no proxy overwrites it.

    >>> client_ip_header({"NDCG_LAB_CLIENT_IP_HEADER": "X-Real-IP"})
    'X-Real-IP'
    """
    env = os.environ if env is None else env
    section = _section(SECRETS if secrets_file is None else secrets_file)
    return str(env.get(IP_HEADER_ENV) or section.get("client_ip_header") or "") or None


def limits(*, secrets_file: Path | None = None):
    """Class mode's join limits (:class:`lab.classroom.limits.Limits`), with the numbers
    ``[class]`` of secrets.toml sets (``joins_per_address = 120``, ...); a value that is not
    a positive number is refused with its name."""
    from .limits import Limits
    section = _section(SECRETS if secrets_file is None else secrets_file)
    known = Limits.__dataclass_fields__
    given = {k: v for k, v in section.items() if k in known}
    for k, v in given.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError(f"[class] {k} must be a number, got {v!r}")
    return Limits(**given)
