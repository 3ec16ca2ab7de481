"""PostgreSQL: one store shared by several machines.

Writers take one transaction-scoped advisory lock first, so writes are serialized across
every machine exactly as SQLite's ``BEGIN IMMEDIATE`` serializes them on one: a
read-check-write (the per-app cap, undo's "is this still the newest change") can never
interleave with another writer and lose its work. Readers take a snapshot
(``REPEATABLE READ``) and never wait for writers.

Each committed write sends ``NOTIFY memdesk_changes`` with the new revision, so an open
window learns of another machine's write at once instead of polling the server.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import URL, Connection, Engine, Integer, Table, create_engine, event, make_url, text

from memdesk.errors import StoreError
from memdesk.store.engines import busy_message, busy_timeout_ms
from memdesk.store.engines.postgresql_listen import ChangeListener
from memdesk.store.fulltext import postgresql as fulltext
from memdesk.store.fulltext.postgresql import PostgresFullText

CHANNEL = "memdesk_changes"
# Any fixed number: the one lock every Memdesk writer on this database takes.
WRITE_LOCK_KEY = 0x4D454D44  # "MEMD"
CONNECT_TIMEOUT_S = 10


def safe_url(url: str | URL) -> str:
    """The URL as it may be shown: the password, if any, replaced by ``***``."""
    return make_url(url).render_as_string(hide_password=True)


class PostgresEngine:
    """The engine-specific half of a ``Store`` on a PostgreSQL database."""

    name = "postgresql"
    driver_errors: tuple[type[Exception], ...] = (psycopg.Error,)
    pushes_changes = True
    # BEGIN and ROLLBACK are round trips to the server: hot reads do without them.
    reads_pay_for_transactions = True
    file: Path | None = None
    in_memory = False

    def __init__(self, url: str, backup_dir: Path | None) -> None:
        from memdesk.store.engines.passwords import with_password

        self.url = with_password(make_url(url))
        self.where = safe_url(self.url)
        self.backup_dir = backup_dir

    def make_engine(self, writes: bool) -> Engine:
        engine = create_engine(
            self.url,
            isolation_level="READ COMMITTED" if writes else "REPEATABLE READ",
            connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "memdesk"},
            # A write must not fail on a connection the server dropped (a restart): test it
            # first. A read skips that round trip (recall is hot); a read on a dropped
            # connection fails once, and the pool then starts afresh.
            pool_pre_ping=writes,
        )

        @event.listens_for(engine, "connect")
        def _wait_no_longer_than_sqlite(dbapi_conn: Any, _record: object) -> None:
            # A writer waits for the writers' lock as long as a SQLite writer would, then fails.
            with dbapi_conn.cursor() as cursor:
                cursor.execute(f"SET lock_timeout = {busy_timeout_ms()}")
            dbapi_conn.commit()

        if writes:

            @event.listens_for(engine, "begin")
            def _one_writer_at_a_time(conn: Connection) -> None:
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")

        return engine

    def table_names(self, conn: Connection) -> set[str]:
        return set(conn.scalars(text("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")))

    def full_text(self) -> PostgresFullText:
        return PostgresFullText()

    def announce_write(self, conn: Connection, revision: int) -> None:
        # Delivered by the server when the transaction commits, and only then.
        conn.execute(
            text("SELECT pg_notify(:channel, :revision)"), {"channel": CHANNEL, "revision": str(revision)}
        )

    def listen(
        self, on_change: Callable[[int], None], on_error: Callable[[Exception], None]
    ) -> ChangeListener:
        """Call ``on_change(revision)`` (on a thread of its own) for every committed write."""
        return ChangeListener(self.url, CHANNEL, on_change, on_error).start()

    def interrupt(self, dbapi_conn: Any) -> None:
        dbapi_conn.cancel()

    raw_rows = staticmethod(fulltext.raw_rows)

    @staticmethod
    def size_bytes(conn: Connection) -> int:
        return int(conn.execute(text("SELECT pg_database_size(current_database())")).scalar() or 0)

    @staticmethod
    def index_health(engine: Engine) -> list[tuple[str, str | None]]:
        """Each full-text GIN index: present, valid (a failed concurrent build leaves it not)
        and ready."""
        found: list[tuple[str, str | None]] = []
        with engine.connect() as conn:
            for table, index, _source in fulltext.INDEXES:
                state = conn.execute(
                    text(
                        "SELECT i.indisvalid AND i.indisready FROM pg_index i "
                        "JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = :index"
                    ),
                    {"index": index},
                ).scalar()
                problem = (
                    None if state else (f"missing on {table}" if state is None else "not valid: REINDEX it")
                )
                found.append((index, problem))
            conn.rollback()
        return found

    @staticmethod
    def bulk_insert(conn: Connection, table: Table, rows: list[tuple[Any, ...]]) -> None:
        """Rows in table column order, through ``COPY``: many times faster than INSERTs."""
        names = ", ".join(f'"{column.name}"' for column in table.columns)
        cursor = conn.connection.driver_connection.cursor()
        with cursor, cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row(row)

    @staticmethod
    def after_bulk_insert(conn: Connection, tables: list[Table]) -> None:
        """Move each id sequence past the ids copied in, or the next insert would collide."""
        for table in tables:
            key = table.columns.get("id")
            if key is not None and key.primary_key and isinstance(key.type, Integer):
                conn.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), max(id)) "
                        f"FROM {table.name} HAVING max(id) IS NOT NULL"
                    )
                )

    def backup(self) -> Path | None:
        """The server's data is not ours to copy: say how instead."""
        return None

    def backup_advice(self) -> str:
        parsed = make_url(self.url)
        return (
            f"back up the database first with: pg_dump -Fc -h {parsed.host or 'localhost'} "
            f"-p {parsed.port or 5432} -U {parsed.username or '$USER'} {parsed.database} > memdesk.dump"
        )

    def translate(self, exc: Exception) -> StoreError:
        return translate_error(exc, self.url)


def _server(url: URL) -> str:
    return f"{url.host or 'localhost'}:{url.port or 5432}"


def translate_error(exc: Exception, url: URL) -> StoreError:
    """A PostgreSQL failure in plain words, naming what to fix; never the password."""
    cause = getattr(exc, "orig", exc)
    message = str(cause).strip()
    if url.password:
        message = message.replace(url.password, "***")
    first_line = message.splitlines()[0] if message else type(cause).__name__
    code = getattr(getattr(cause, "diag", None), "sqlstate", None) or getattr(cause, "sqlstate", None)
    user, database, server = url.username or "(your login name)", url.database, _server(url)
    if code == "55P03" or "lock timeout" in message:
        return StoreError(*busy_message(safe_url(url)))
    if "password authentication failed" in message or code == "28P01":
        return StoreError(
            f"the PostgreSQL server at {server} refused the password for user {user}",
            "set the right one with `memdesk db password`, or in PGPASSFILE (~/.pgpass)",
        )
    if "no password supplied" in message:
        return StoreError(
            f"the PostgreSQL server at {server} wants a password for user {user}",
            "store it with `memdesk db password` (kept in the system keyring), or in PGPASSFILE (~/.pgpass)",
        )
    if code == "3D000" or re.search(r'database ".*" does not exist', message):
        return StoreError(
            f"there is no database {database!r} on the PostgreSQL server at {server}",
            f"create it first: createdb -h {url.host or 'localhost'} -p {url.port or 5432} {database}",
        )
    if code == "42501" or "permission denied" in message:
        return StoreError(
            f"user {user} lacks a privilege Memdesk needs on {database!r}: {first_line}",
            f"have the database owner run: GRANT ALL ON SCHEMA public TO {user} "
            "(and ownership of Memdesk's tables), or connect as the owner",
        )
    if "role" in message and "does not exist" in message:
        return StoreError(
            f"the PostgreSQL server at {server} has no user {user}",
            f"create it (createuser {user}) or put an existing user in the URL",
        )
    if any(
        sign in message
        for sign in (
            "Connection refused",
            "could not connect",
            "timeout expired",
            "Name or service not known",
            "could not translate host name",
            "No route to host",
            "server closed the connection",
        )
    ):
        return StoreError(
            f"cannot reach the PostgreSQL server at {server}: {first_line}",
            "check that the server runs and accepts connections from this machine, and the host "
            "and port in the URL (--db or MEMDESK_DB)",
        )
    return StoreError(f"database error in {safe_url(url)}: {first_line}")
