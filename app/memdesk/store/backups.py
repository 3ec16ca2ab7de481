"""Backups of the database file: make one, find the newest, check a file, restore one.

Everything here works on the file directly (plain ``sqlite3``), because it must work
when the store cannot be opened. A damaged file is moved aside, never deleted or
written to: what is left in it may still be recovered by hand.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

from memdesk.errors import BadInputError, StoreError

SIDE_FILES = ("", "-wal", "-shm")
# SQLite's "dead man switch" byte in the -shm file: every process that has the
# database open holds a shared lock on it (see os_unix.c, UNIX_SHM_DMS).
SHM_DMS_OFFSET = 128
FINDINGS_SHOWN = 5


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def _read_only(file: Path) -> sqlite3.Connection:
    # mode=ro: reading a damaged file must never write to it, not even a checkpoint on close.
    return sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)


def _copy_database(source_file: Path, target: Path) -> None:
    """Copy a database page by page through SQLite's backup API, reading the source only."""
    source = _read_only(source_file)
    try:
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)
        finally:
            dest.close()
    finally:
        source.close()


def make_backup(file: Path, backup_dir: Path) -> Path:
    """Copy the database consistently (SQLite's backup API) into ``backup_dir``."""
    backup_dir.mkdir(parents=True, exist_ok=True)
    target = backup_dir / f"{file.stem}-{_stamp()}.sqlite3"
    # Written under another name first: a backup cut short (full disk) is never taken
    # for the newest backup.
    partial = target.with_name(f"{target.name}.partial")
    try:
        _copy_database(file, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def newest_backup(file: Path, backup_dir: Path | None) -> Path | None:
    if backup_dir is None or not backup_dir.is_dir():
        return None
    found = sorted(backup_dir.glob(f"{file.stem}-*.sqlite3"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def integrity_findings(file: Path) -> list[str]:
    """What ``PRAGMA integrity_check`` finds wrong with ``file`` (empty when it is sound)."""
    try:
        conn = _read_only(file)
        try:
            rows = conn.execute(f"PRAGMA integrity_check({FINDINGS_SHOWN})").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return [str(exc)]
    findings = [str(row[0]) for row in rows]
    return [] if findings == ["ok"] else findings


def in_use(file: Path) -> bool:
    """Whether another process has the database open right now."""
    if sys.platform == "win32":
        return False  # there an open file cannot be moved: _move fails instead
    import fcntl

    shm = Path(f"{file}-shm")
    if not shm.exists():
        return False
    with open(shm, "r+b") as handle:  # an exclusive lock needs a handle open for writing
        try:
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS_OFFSET)
        except OSError:
            return True
        fcntl.lockf(handle, fcntl.LOCK_UN, 1, SHM_DMS_OFFSET)
    return False


def _check_backup(backup: Path) -> None:
    if not backup.is_file():
        raise BadInputError(f"no backup file at {backup}")
    findings = integrity_findings(backup)
    if findings:
        raise BadInputError(f"the backup {backup} is damaged too: {findings[0]}", "choose another backup")
    conn = _read_only(backup)
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()
    if "meta" not in tables:
        raise BadInputError(f"{backup} is not a Memdesk database")


def _free_name(file: Path) -> Path:
    aside = file.with_name(f"{file.name}.damaged-{_stamp()}")
    number = 1
    while any(Path(f"{aside}{side}").exists() for side in SIDE_FILES):
        number += 1
        aside = file.with_name(f"{file.name}.damaged-{_stamp()}-{number}")
    return aside


def _move(file: Path, aside: Path) -> list[Path]:
    moved = []
    for side in SIDE_FILES:
        if Path(f"{file}{side}").exists():
            os.replace(f"{file}{side}", f"{aside}{side}")
            moved.append(Path(f"{aside}{side}"))
    return moved


def restore_backup(backup: Path, file: Path) -> list[Path]:
    """Put ``backup`` in place of ``file``; returns where the old file (and its -wal, -shm) went."""
    _check_backup(backup)
    if in_use(file):
        raise StoreError(
            f"{file} is open in another program",
            "close the Memdesk window (and any assistant using it), then try again",
        )
    aside = _free_name(file)
    try:
        moved = _move(file, aside)
    except OSError as exc:
        _move(aside, file)
        raise StoreError(
            f"could not move {file} aside: {exc.strerror}",
            "close every program using it and check the folder's permissions; nothing was changed",
        ) from None
    try:
        _copy_database(backup, file)
        findings = integrity_findings(file)
        if findings:
            raise StoreError(f"the restored copy failed its check: {findings[0]}")
    except (sqlite3.Error, OSError, StoreError) as exc:
        # Put everything back as it was: no half-restored store.
        for side in SIDE_FILES:
            Path(f"{file}{side}").unlink(missing_ok=True)
        _move(aside, file)
        if isinstance(exc, StoreError):
            raise
        raise StoreError(f"could not restore {backup}: {exc}", "the store was left as it was") from None
    return moved
