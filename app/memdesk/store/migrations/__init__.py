"""Schema upgrades with Alembic, on SQLite (in batch mode) and PostgreSQL alike.

Each revision in ``versions/`` is named by the schema version it makes (``0004`` makes
version 4) and spells out its tables as they were when it was written, so later changes to
the models never change what an old upgrade does. ``meta.schema_version`` is kept equal to
the revision: it is what every Memdesk, old or new, reads first.

A new store is made from the models and stamped at the newest revision by hand, so
creating one (and opening a current one) never loads Alembic; only an upgrade does.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Column, Connection, MetaData, String, Table

from memdesk.store.schema_version import SCHEMA_VERSION

__all__ = ["SCHEMA_VERSION"]
# The oldest schema an upgrade starts from (Memdesk's first).
FIRST_VERSION = 1
SCRIPTS = Path(__file__).parent

# Alembic's own record of the revision a database is at (its documented layout).
_alembic_version = Table(
    "alembic_version",
    MetaData(),
    Column("version_num", String(32), primary_key=True),
)


def revision(version: int) -> str:
    return f"{version:04d}"


def stamp(conn: Connection, version: int) -> None:
    """Record that the database is at schema ``version``, for Alembic to go on from."""
    _alembic_version.create(conn, checkfirst=True)
    conn.execute(_alembic_version.delete())
    conn.execute(_alembic_version.insert(), {"version_num": revision(version)})


def upgrade(conn: Connection, version: int) -> None:
    """Take the database from schema ``version`` to ``SCHEMA_VERSION`` in ``conn``'s transaction."""
    from alembic import command
    from alembic.config import Config

    # The schema version is the authority: a store from before upgrades were Alembic's has
    # no record of its own, and a record left behind by another copy must not skip steps.
    stamp(conn, version)
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    config.attributes["connection"] = conn
    command.upgrade(config, revision(SCHEMA_VERSION))
