"""Opening the database: one engine per store, WAL, busy timeout, schema version, backups,
and SQLite's failures (busy, full disk, damaged file, no shared memory) in plain words.

Reads and writes use separate engines so that every write transaction starts with
``BEGIN IMMEDIATE``: a writer waits its turn up to the busy timeout instead of failing
half-way when another process (an assistant using the CLI) writes at the same time.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, make_url, select, text
from sqlalchemy.exc import DatabaseError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from memdesk.core.search_text import split_pieces
from memdesk.errors import DamagedStoreError, StoreError
from memdesk.store import backups, fts
from memdesk.store.migrations import SCHEMA_VERSION, STEPS
from memdesk.store.models import Base, Document, DocumentPiece, Meta

DEFAULT_BUSY_TIMEOUT_MS = 5000
# Less free space than this, after a failed write, means the disk is full.
LOW_DISK_BYTES = 1 << 20


def _busy_timeout_ms() -> int:
    raw = os.environ.get("MEMDESK_BUSY_TIMEOUT_MS", "")
    return int(raw) if raw.isdigit() else DEFAULT_BUSY_TIMEOUT_MS


def _make_engine(url: str, begin: str) -> Engine:
    if ":memory:" in url:
        # One shared connection, or each engine would see its own empty database.
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        engine = create_engine(url, connect_args={"timeout": _busy_timeout_ms() / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {_busy_timeout_ms()}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = NORMAL")
        # Already in WAL mode this changes nothing and takes no lock.
        mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        cursor.close()
        if mode != "wal" and sqlite_file(url) is not None:
            # Without shared memory SQLite quietly keeps its old journal, where readers
            # and writers block each other: refuse rather than hang behind a writer.
            raise _no_wal(url)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(begin)

    return engine


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


def _no_room_left(file: Path) -> bool:
    """After an I/O error: did the write run out of room (full disk or file size limit)?

    SQLite reports a write cut short as SQLITE_FULL but a refused one (EFBIG) as a plain
    I/O error, so look at the disk and at the limit.
    """
    try:
        if shutil.disk_usage(file.parent).free < LOW_DISK_BYTES:
            return True
    except OSError:
        pass
    if sys.platform == "win32":
        return False
    import resource

    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit == resource.RLIM_INFINITY:
        return False
    sizes = [Path(f"{file}{side}").stat().st_size for side in ("", "-wal") if Path(f"{file}{side}").exists()]
    return any(size >= limit - LOW_DISK_BYTES for size in sizes)


def translate_db_error(
    exc: Exception, where: str, file: Path | None = None, backup_dir: Path | None = None
) -> StoreError:
    cause = getattr(exc, "orig", exc)
    message = str(cause)
    name = getattr(cause, "sqlite_errorname", "")
    if "locked" in message or "busy" in message:
        return StoreError(
            f"the database {where} is busy: another program is writing to it",
            f"waited {_busy_timeout_ms() / 1000:g} s; try again in a moment",
        )
    if "readonly" in message or "read-only" in message:
        return StoreError(
            f"the database {where} is read-only",
            "check the permissions of the file and its folder",
        )
    if (
        name == "SQLITE_FULL"
        or "disk is full" in message
        or getattr(cause, "errno", None) in (errno.ENOSPC, errno.EFBIG)
        or (name.startswith("SQLITE_IOERR") and file is not None and _no_room_left(file))
    ):
        return StoreError(
            f"the disk is full: could not write to {where}; nothing of this change was saved",
            "free some space and try again; everything saved before is intact",
        )
    if "malformed" in message and file is not None:
        return _damaged(file, backup_dir)
    if "not a database" in message or "malformed" in message:
        return StoreError(f"{where} is not a readable Memdesk database ({message})")
    if name == "SQLITE_CANTOPEN" and file is not None and _usable(file):
        # The file and its folder are fine, so what failed is the -shm shared memory.
        return _no_wal(where)
    return StoreError(f"database error in {where}: {message}")


def _usable(file: Path) -> bool:
    return file.is_file() and os.access(file, os.R_OK | os.W_OK) and os.access(file.parent, os.W_OK)


def _damaged(file: Path, backup_dir: Path | None) -> DamagedStoreError:
    findings = backups.integrity_findings(file) or ["ok (though reading it failed)"]
    newest = backups.newest_backup(file, backup_dir)
    offer = (
        f"the newest backup is {newest}; `memdesk db restore {newest}` puts it in place "
        "and keeps the damaged file beside it"
        if newest
        else "there is no backup to restore; the file was left as it is"
    )
    return DamagedStoreError(
        f"the database file {file} is damaged; SQLite's integrity check says: " + "; ".join(findings),
        offer,
        file=file,
        backup=newest,
    )


def _no_wal(where: str) -> StoreError:
    return StoreError(
        f"{where} cannot be shared safely here: its folder does not support the shared memory "
        "SQLite needs (WAL mode), as on network or synced folders",
        "keep the database on a local disk (--data-dir, --db or MEMDESK_DATA_DIR)",
    )


def sqlite_file(url: str) -> Path | None:
    """The file behind a SQLite URL, also in its ``file:PATH?...&uri=true`` form."""
    parsed = make_url(url)
    name = parsed.database
    if not parsed.drivername.startswith("sqlite") or not name or ":memory:" in url:
        return None
    if parsed.query.get("uri") == "true" and name.startswith("file:"):
        name = name[len("file:") :]
    return Path(name)


class Store:
    """One database: short sessions for reads and for writes."""

    def __init__(self, url: str, backup_dir: Path | None = None) -> None:
        self.url = url
        self.backup_dir = backup_dir
        self.file = sqlite_file(url)
        self.where = str(self.file) if self.file else url
        if self.file:
            self._prepare_folder(self.file)
        self.write_engine = _make_engine(url, "BEGIN IMMEDIATE")
        self.read_engine = self.write_engine if ":memory:" in url else _make_engine(url, "BEGIN")
        # Read connections in use right now (checked out of the pool), for interrupt_reads().
        self._read_connections: set[sqlite3.Connection] = set()
        if self.read_engine is not self.write_engine:
            event.listen(self.read_engine, "checkout", self._on_read_checkout)
            event.listen(self.read_engine, "checkin", self._on_read_checkin)
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False)
        self._writer = sessionmaker(self.write_engine, expire_on_commit=False)
        event.listen(self._writer, "after_flush", _sync_document_pieces)
        try:
            self._open_schema()
        except (OperationalError, DatabaseError) as exc:
            self.close()
            raise self._translate(exc) from None
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _prepare_folder(file: Path) -> None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the data folder {file.parent}: {exc.strerror}",
                "choose another folder with --data-dir or MEMDESK_DATA_DIR",
            ) from None
        if not file.exists() and not os.access(file.parent, os.W_OK):
            raise StoreError(
                f"the data folder {file.parent} is read-only; cannot create the database",
                "choose another folder with --data-dir or MEMDESK_DATA_DIR",
            )

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
        tables = set(conn.scalars(text("SELECT name FROM sqlite_master WHERE type='table'")))
        if not tables:
            return None
        if "meta" not in tables:
            raise StoreError(f"{self.where} is a SQLite file but not a Memdesk database")
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

    @staticmethod
    def _create(conn: Any) -> None:
        Base.metadata.create_all(conn)
        fts.create_indexes(conn)
        conn.execute(
            Meta.__table__.insert(),
            [
                {"key": "schema_version", "value": str(SCHEMA_VERSION)},
                {"key": "revision", "value": "0"},
            ],
        )

    def _migrate(self, conn: Any, version: int) -> None:
        missing = [step for step in range(version, SCHEMA_VERSION) if step not in STEPS]
        if missing:
            raise StoreError(
                f"{self.where} has schema {version}, which this Memdesk cannot upgrade",
                "the file was not changed",
            )
        # The backup reads through its own connection; we hold the write lock, so it is
        # exactly what the steps below start from.
        self.backup()
        for step in range(version, SCHEMA_VERSION):
            STEPS[step](conn)
        conn.execute(
            Meta.__table__.update().where(Meta.key == "schema_version"),
            {"value": str(SCHEMA_VERSION)},
        )

    def backup(self) -> Path | None:
        """Copy the database (consistently, through SQLite's backup API) to the backup folder."""
        if self.file is None or self.backup_dir is None:
            return None
        return backups.make_backup(self.file, self.backup_dir)

    def _translate(self, exc: Exception) -> StoreError:
        return translate_db_error(exc, self.where, self.file, self.backup_dir)

    @contextmanager
    def read(self) -> Iterator[Session]:
        session = self._reader()
        try:
            yield session
        except (OperationalError, DatabaseError) as exc:
            raise self._translate(exc) from None
        finally:
            session.close()  # ends the read transaction; loaded rows stay usable, detached

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction: everything in the block is written, or nothing is."""
        session = self._writer()
        try:
            yield session
            session.execute(text("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'revision'"))
            session.commit()
        except (OperationalError, DatabaseError) as exc:
            session.rollback()
            raise self._translate(exc) from None
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def revision(self) -> int:
        """A number that grows with every committed write, from any process."""
        with self.read() as session:
            return int(session.scalar(select(Meta.value).where(Meta.key == "revision")) or 0)

    def _on_read_checkout(self, conn: sqlite3.Connection, _record: object, _proxy: object) -> None:
        self._read_connections.add(conn)

    def _on_read_checkin(self, conn: sqlite3.Connection | None, _record: object) -> None:
        self._read_connections.discard(conn)  # type: ignore[arg-type]

    def interrupt_reads(self) -> None:
        """Stop queries running on the read connections (they fail as interrupted).

        Used when the window closes, so exit does not wait for a long read nobody needs;
        writes are never interrupted.
        """
        for conn in list(self._read_connections):
            conn.interrupt()

    def close(self) -> None:
        self.read_engine.dispose()
        self.write_engine.dispose()
