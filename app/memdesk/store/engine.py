"""Opening the database: one engine-specific half (``engines.sqlite`` or ``engines.postgresql``)
and what both share: short read and write sessions, the schema version, the revision every
committed write raises, and each engine's failures in plain words.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Integer, String, cast, event, inspect, make_url, select, update
from sqlalchemy.exc import DatabaseError, InterfaceError, OperationalError, ProgrammingError
from sqlalchemy.orm import Session, sessionmaker

from memdesk.core.search_text import split_pieces
from memdesk.errors import StoreError
from memdesk.store import migrations
from memdesk.store.engines.sqlite import SQLiteEngine
from memdesk.store.fulltext import FullText
from memdesk.store.migrations import FIRST_VERSION, SCHEMA_VERSION
from memdesk.store.models import Base, Document, DocumentPiece, Meta

if TYPE_CHECKING:
    from memdesk.store.engines.postgresql import PostgresEngine
    from memdesk.store.engines.postgresql_listen import ChangeListener

__all__ = ["SCHEMA_VERSION", "Store"]

OWN_REVISIONS_KEPT = 10_000
# What a database driver raises for a failure of the database (not of our code).
DB_ERRORS = (OperationalError, DatabaseError, InterfaceError, ProgrammingError)


def _to_stderr(text: str) -> None:
    print(f"memdesk: {text}", file=sys.stderr)


def engine_for(url: str, backup_dir: Path | None) -> SQLiteEngine | PostgresEngine:
    backend = make_url(url).get_backend_name()
    if backend == "sqlite":
        return SQLiteEngine(url, backup_dir)
    if backend == "postgresql":
        # Imported only here: a SQLite store starts without loading the PostgreSQL driver.
        from memdesk.store.engines.postgresql import PostgresEngine

        return PostgresEngine(url, backup_dir)
    raise StoreError(
        f"Memdesk stores live in SQLite or PostgreSQL, not {backend!r}",
        "use a file path, sqlite:///PATH or postgresql+psycopg://USER@HOST/DBNAME",
    )


def _sync_document_pieces(session: Session, _context: object) -> None:
    """Keep each document's paragraphs/bullets (what recall ranks) in step with its text.

    Runs after the flush, when new documents have ids, using Core statements so that it
    does not start a flush of its own.
    """
    changed = [
        obj
        for obj in list(session.new) + list(session.dirty)
        if isinstance(obj, Document) and inspect(obj).attrs.content.history.has_changes()
    ]
    if not changed:
        return
    conn = session.connection()
    pieces = DocumentPiece.__table__
    for doc in changed:
        conn.execute(pieces.delete().where(pieces.c.document_id == doc.id))
        rows = [
            {"document_id": doc.id, "position": index, "text": piece}
            for index, piece in enumerate(split_pieces(doc.content))
        ]
        if rows:
            conn.execute(pieces.insert(), rows)


_REVISION = select(Meta.value).where(Meta.key == "revision")
_NEXT_REVISION = (
    update(Meta).where(Meta.key == "revision").values(value=cast(cast(Meta.value, Integer) + 1, String))
)


class Store:
    """One database: short sessions for reads and for writes."""

    def __init__(
        self, url: str, backup_dir: Path | None = None, notice: Callable[[str], None] | None = None
    ) -> None:
        self.url = url
        # What a person should know before an upgrade (no backup is made on PostgreSQL).
        self.notice = notice or _to_stderr
        self.backup_dir = backup_dir
        self.engine = engine_for(url, backup_dir)
        self.fulltext: FullText = self.engine.full_text()
        self.file = self.engine.file
        self.where = self.engine.where
        # The driver's own errors too: hot queries go to it directly.
        self._db_errors = DB_ERRORS + self.engine.driver_errors
        self.write_engine = self.engine.make_engine(writes=True)
        # ``:memory:`` has one shared connection, or each engine would see its own database.
        self.read_engine = (
            self.write_engine if self.engine.in_memory else self.engine.make_engine(writes=False)
        )
        # Read connections in use right now (checked out of the pool), for interrupt_reads().
        self._read_connections: set[Any] = set()
        # The revisions our own writes made (the newest few), so a listener can tell them
        # from other programs' writes.
        self.written_revisions: deque[int] = deque(maxlen=OWN_REVISIONS_KEPT)
        if self.read_engine is not self.write_engine:
            event.listen(self.read_engine, "checkout", self._on_read_checkout)
            event.listen(self.read_engine, "checkin", self._on_read_checkin)
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False)
        # Statements on their own, no transaction around them, where a transaction costs
        # round trips (a server): for hot reads (``read(consistent=False)``).
        quick = self.read_engine
        if self.engine.reads_pay_for_transactions:
            quick = quick.execution_options(isolation_level="AUTOCOMMIT")
        self._quick_reader = sessionmaker(quick, expire_on_commit=False)
        self._writer = sessionmaker(self.write_engine, expire_on_commit=False)
        event.listen(self._writer, "after_flush", _sync_document_pieces)
        try:
            self._open_schema()
        except self._db_errors as exc:
            self.close()
            raise self._translate(exc) from None
        except BaseException:
            self.close()
            raise

    def _open_schema(self) -> None:
        # Look in a read transaction first: in WAL mode it never waits for a writer, so a
        # command that only reads is not held up by another program's long write.
        with self.read_engine.connect() as conn:
            version = self._schema_version(conn)
            conn.rollback()
        if version == SCHEMA_VERSION:
            return
        self._check_not_newer(version)
        # Creating or upgrading needs the write lock; look again under it, since another
        # process may have done it while we waited.
        with self.write_engine.begin() as conn:
            version = self._schema_version(conn)
            if version is None:
                self._create(conn)
            elif version < SCHEMA_VERSION:
                self._migrate(conn, version)
        self._check_not_newer(version)

    def _schema_version(self, conn: Any) -> int | None:
        """The stored schema version, or None for an empty database."""
        tables = self.engine.table_names(conn)
        if not tables:
            return None
        if "meta" not in tables:
            raise StoreError(f"{self.where} is a database but not a Memdesk database (it has no meta table)")
        raw = conn.scalar(select(Meta.value).where(Meta.key == "schema_version"))
        if raw is None or not str(raw).isdigit():
            raise StoreError(
                f"{self.where} has no valid schema version (meta.schema_version is {raw!r})",
                "the file was not changed; restore a backup with `memdesk db restore`",
            )
        return int(raw)

    def _check_not_newer(self, version: int | None) -> None:
        if version is not None and version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.where} was written by a newer Memdesk (schema {version}; "
                f"this version reads up to {SCHEMA_VERSION})",
                "install the newer Memdesk to open it; the file was not changed",
            )

    def _create(self, conn: Any) -> None:
        Base.metadata.create_all(conn)
        self.fulltext.create_indexes(conn)
        migrations.stamp(conn, SCHEMA_VERSION)
        conn.execute(
            Meta.__table__.insert(),
            [
                {"key": "schema_version", "value": str(SCHEMA_VERSION)},
                {"key": "revision", "value": "0"},
            ],
        )

    def _migrate(self, conn: Any, version: int) -> None:
        if version < FIRST_VERSION:
            raise StoreError(
                f"{self.where} has schema {version}, which this Memdesk cannot upgrade",
                "the file was not changed",
            )
        # The backup reads through its own connection; we hold the write lock, so it is
        # exactly what the upgrade starts from. A server's database is not ours to copy.
        if self.backup() is None and self.engine.name == "postgresql":
            self.notice(
                f"upgrading {self.where} from schema {version} to {SCHEMA_VERSION}; "
                + self.engine.backup_advice()
            )  # type: ignore[union-attr]
        migrations.upgrade(conn, version)
        conn.execute(
            Meta.__table__.update().where(Meta.key == "schema_version"),
            {"value": str(SCHEMA_VERSION)},
        )

    def backup(self) -> Path | None:
        """Copy a SQLite file to the backup folder; None for an engine Memdesk cannot copy."""
        return self.engine.backup()

    def _translate(self, exc: Exception) -> StoreError:
        return self.engine.translate(exc)

    @contextmanager
    def read(self, consistent: bool = True, within: Session | None = None) -> Iterator[Session]:
        """A read-only session. ``consistent``: its statements all see one snapshot; without
        it, on a server, each sees what was committed when it ran (for hot reads whose
        statements need not agree, such as recall). ``within``: a read already open, used
        as it is (a caller that reads several things in one snapshot, such as a prompt)."""
        if within is not None:
            yield within
            return
        session = self._reader() if consistent else self._quick_reader()
        try:
            yield session
        except self._db_errors as exc:
            raise self._translate(exc) from None
        finally:
            session.close()  # ends the read transaction; loaded rows stay usable, detached

    @contextmanager
    def write(self, bookkeeping: bool = False) -> Iterator[Session]:
        """A transaction: everything in the block is written, or nothing is.

        ``bookkeeping``: it only keeps what is derived from memory up to date (Memory health's
        index), so it raises no revision and nobody reads anything again for it.
        """
        session = self._writer()
        try:
            yield session
            if not bookkeeping:
                session.execute(_NEXT_REVISION)
                revision = int(session.scalar(_REVISION) or 0)
                # Noted before the commit: a notification of it may arrive before commit() returns.
                self.written_revisions.append(revision)
                self.engine.announce_write(session.connection(), revision)
            session.commit()
        except self._db_errors as exc:
            session.rollback()
            raise self._translate(exc) from None
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def raw_rows(self, session: Session, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Rows of a hand-written query (``:name`` parameters) straight from the driver, in
        ``session``'s transaction: for hot queries, where SQLAlchemy's per-row work counts."""
        return self.engine.raw_rows(session.connection(), sql, params)

    def revision(self) -> int:
        """A number that grows with every committed write, from any process."""
        with self.read() as session:
            return int(session.scalar(_REVISION) or 0)

    @property
    def pushes_changes(self) -> bool:
        """Whether ``listen`` works: the server tells of other writers' commits as they happen."""
        return self.engine.pushes_changes

    def listen(
        self, on_change: Callable[[int], None], on_error: Callable[[Exception], None]
    ) -> ChangeListener:
        """Hear of every committed write (see ``pushes_changes``); returns what ``stop()``s it."""
        if not self.engine.pushes_changes:
            raise StoreError(f"{self.engine.name} does not announce changes; read revision() instead")
        engine: PostgresEngine = self.engine  # type: ignore[assignment]
        return engine.listen(on_change, lambda exc: on_error(self._translate(exc)))

    def _on_read_checkout(self, conn: Any, _record: object, _proxy: object) -> None:
        self._read_connections.add(conn)

    def _on_read_checkin(self, conn: Any, _record: object) -> None:
        self._read_connections.discard(conn)  # type: ignore[arg-type]

    def interrupt_reads(self) -> None:
        """Stop queries running on the read connections (they fail as interrupted).

        Used when the window closes, so exit does not wait for a long read nobody needs;
        writes are never interrupted.
        """
        for conn in list(self._read_connections):
            self.engine.interrupt(conn)

    def close(self) -> None:
        self.read_engine.dispose()
        self.write_engine.dispose()
