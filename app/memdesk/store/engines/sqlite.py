"""SQLite: one file, WAL, busy timeout, and SQLite's failures (busy, full disk, damaged
file, no shared memory) in plain words.

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
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Table, create_engine, event, make_url, text
from sqlalchemy.exc import DatabaseError
from sqlalchemy.pool import StaticPool

from memdesk.errors import DamagedStoreError, StoreError
from memdesk.store import backups
from memdesk.store.engines import busy_message, busy_timeout_ms
from memdesk.store.fulltext import sqlite as fulltext
from memdesk.store.fulltext.sqlite import SQLiteFullText

# Less free space than this, after a failed write, means the disk is full.
LOW_DISK_BYTES = 1 << 20
# Pages a reading connection keeps, in KiB (SQLite's default is 2 MiB). Ranking a full-text
# match reads the size of every matching row, spread over the file at a million entries;
# with room for them, a run of recalls finds most pages already read. The memory is taken
# only as pages are read.
READ_CACHE_KIB = 32 * 1024


def _make_engine(url: str, begin: str, cache_kib: int | None = None) -> Engine:
    if ":memory:" in url:
        # One shared connection, or each engine would see its own empty database.
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        engine = create_engine(url, connect_args={"timeout": busy_timeout_ms() / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {busy_timeout_ms()}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = NORMAL")
        if cache_kib is not None:
            cursor.execute(f"PRAGMA cache_size = -{cache_kib}")
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
        return StoreError(*busy_message(where))
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


class SQLiteEngine:
    """The engine-specific half of a ``Store`` on a SQLite file (or ``:memory:``)."""

    name = "sqlite"
    driver_errors: tuple[type[Exception], ...] = (sqlite3.Error,)
    # Another program's writes are seen by reading the revision: cheap on a local file.
    pushes_changes = False
    reads_pay_for_transactions = False  # in process: a transaction costs next to nothing

    def __init__(self, url: str, backup_dir: Path | None) -> None:
        self.url = url
        self.backup_dir = backup_dir
        self.file = sqlite_file(url)
        self.where = str(self.file) if self.file else url
        self.in_memory = ":memory:" in url
        if self.file:
            _prepare_folder(self.file)

    def make_engine(self, writes: bool) -> Engine:
        if writes:
            return _make_engine(self.url, "BEGIN IMMEDIATE")
        return _make_engine(self.url, "BEGIN", READ_CACHE_KIB)

    def table_names(self, conn: Connection) -> set[str]:
        return set(conn.scalars(text("SELECT name FROM sqlite_master WHERE type='table'")))

    def full_text(self) -> SQLiteFullText:
        return SQLiteFullText()

    def announce_write(self, conn: Connection, revision: int) -> None:
        """Nothing to do: watchers read the revision the write raised."""

    def interrupt(self, dbapi_conn: Any) -> None:
        dbapi_conn.interrupt()

    raw_rows = staticmethod(fulltext.raw_rows)

    def size_bytes(self, conn: Connection) -> int:
        """The file and its write-ahead log."""
        if self.file is None:
            page_size = conn.exec_driver_sql("PRAGMA page_size").scalar() or 0
            return page_size * (conn.exec_driver_sql("PRAGMA page_count").scalar() or 0)
        return sum(side.stat().st_size for side in (self.file, Path(f"{self.file}-wal")) if side.exists())

    @staticmethod
    def index_health(engine: Engine) -> list[tuple[str, str | None]]:
        """FTS5's own check of each full-text index against its table (read only: rolled back)."""
        found = []
        with engine.connect() as conn:
            for name, *_rest in fulltext.INDEXES + fulltext.CJK_INDEXES:
                try:
                    conn.exec_driver_sql(f"INSERT INTO {name}({name}, rank) VALUES ('integrity-check', 1)")
                    found.append((name, None))
                except DatabaseError as exc:
                    found.append((name, str(getattr(exc, "orig", exc))))
            conn.rollback()
        return found

    @staticmethod
    def bulk_insert(conn: Connection, table: Table, rows: list[tuple[Any, ...]]) -> None:
        names = [column.name for column in table.columns]
        conn.execute(table.insert(), [dict(zip(names, row, strict=True)) for row in rows])

    @staticmethod
    def after_bulk_insert(conn: Connection, tables: list[Table]) -> None:
        """Nothing to do: SQLite's next id is always past the largest."""

    def backup(self) -> Path | None:
        """Copy the database (consistently, through SQLite's backup API) to the backup folder."""
        if self.file is None or self.backup_dir is None:
            return None
        return backups.make_backup(self.file, self.backup_dir)

    def translate(self, exc: Exception) -> StoreError:
        return translate_db_error(exc, self.where, self.file, self.backup_dir)


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
