"""``memdesk db check`` / ``db backup`` / ``db restore BACKUP``: the database file itself.

These work on the file without opening the store, so they also work when it is damaged.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from memdesk.errors import BadInputError, StoreError


def register(subparsers: argparse._SubParsersAction) -> None:
    db = subparsers.add_parser("db", help="check, back up or restore the database file")
    sub = db.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("check", help="run SQLite's integrity check").set_defaults(handler=check)
    sub.add_parser("backup", help="make a backup now").set_defaults(handler=backup)
    restore = sub.add_parser("restore", help="replace the database with a backup")
    restore.add_argument("backup", metavar="BACKUP", type=Path, help="a file from the backups folder")
    restore.set_defaults(handler=restore_backup)
    db.set_defaults(needs_store=False)


def _files(args: argparse.Namespace) -> tuple[Path, Path]:
    """The database file and the backups folder."""
    from memdesk.paths import resolve_paths
    from memdesk.store.engines.sqlite import sqlite_file

    paths = resolve_paths(args.data_dir, args.db, args.config)
    file = sqlite_file(paths.db_url)
    if file is None:
        raise BadInputError(f"`memdesk db` works on a SQLite file, not {paths.db_url}")
    return file, paths.backup_dir


def _existing(file: Path) -> Path:
    if not file.is_file():
        raise StoreError(f"there is no database at {file}")
    return file


def check(args: argparse.Namespace, _app: None) -> int:
    from memdesk.store.backups import integrity_findings, newest_backup

    file, backup_dir = _files(args)
    findings = integrity_findings(_existing(file))
    if not findings:
        print(f"{file}: ok")
        return 0
    for finding in findings:
        print(f"{file}: {finding}")
    newest = newest_backup(file, backup_dir)
    hint = f"restore the newest backup with: memdesk db restore {newest}" if newest else "there is no backup"
    raise StoreError(f"the database file {file} is damaged", hint)


def backup(args: argparse.Namespace, _app: None) -> int:
    import sqlite3

    from memdesk.store.backups import make_backup
    from memdesk.store.engines.sqlite import translate_db_error

    file, backup_dir = _files(args)
    try:
        print(make_backup(_existing(file), backup_dir))
    except (sqlite3.Error, OSError) as exc:
        raise translate_db_error(exc, str(file), file, backup_dir) from None
    return 0


def restore_backup(args: argparse.Namespace, _app: None) -> int:
    from memdesk.store import backups

    file, _ = _files(args)
    moved = backups.restore_backup(args.backup.expanduser().resolve(), file)
    for path in moved:
        print(f"kept the old file as {path}")
    print(f"restored {args.backup} to {file} (integrity check: ok)")
    return 0
