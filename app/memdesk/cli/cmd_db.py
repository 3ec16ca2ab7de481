"""``memdesk db``: the database itself.

``check`` / ``backup`` / ``restore BACKUP`` work on a SQLite file without opening the store,
so they also work when it is damaged. ``info``, ``copy --to URL`` and ``password`` work on
either engine.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.errors import BadInputError, StoreError

if TYPE_CHECKING:
    from memdesk.store.engine import Store


def register(subparsers: argparse._SubParsersAction) -> None:
    db = subparsers.add_parser("db", help="check, back up or restore the database file")
    sub = db.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("check", help="run SQLite's integrity check").set_defaults(handler=check)
    sub.add_parser("backup", help="make a backup now").set_defaults(handler=backup)
    restore = sub.add_parser("restore", help="replace the database with a backup")
    restore.add_argument("backup", metavar="BACKUP", type=Path, help="a file from the backups folder")
    restore.set_defaults(handler=restore_backup)
    sub.add_parser("info", help="engine, schema version, sizes, rows and index health").set_defaults(
        handler=info
    )
    copy = sub.add_parser("copy", help="copy the whole store into another database (any engine)")
    copy.add_argument("--to", required=True, metavar="URL", help="an empty database: PATH or SQLAlchemy URL")
    copy.set_defaults(handler=copy_to)
    password = sub.add_parser(
        "password", help="keep the PostgreSQL password for --db/MEMDESK_DB in the system keyring"
    )
    password.add_argument("--delete", action="store_true", help="forget it instead")
    password.set_defaults(handler=set_password)
    db.set_defaults(needs_store=False)


def _files(args: argparse.Namespace) -> tuple[Path, Path]:
    """The database file and the backups folder."""
    from memdesk.paths import resolve_paths
    from memdesk.store.engines.postgresql import safe_url
    from memdesk.store.engines.sqlite import sqlite_file

    paths = resolve_paths(args.data_dir, args.db, args.config)
    file = sqlite_file(paths.db_url)
    if file is None:
        raise StoreError(
            f"`memdesk db {args.action}` works on a SQLite file, not {safe_url(paths.db_url)}",
            "on PostgreSQL use the server's tools: pg_dump -Fc to back up, pg_restore to restore, "
            "and `memdesk db info` for the index health",
        )
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


def _open(url: str, backup_dir: Path) -> Store:
    from memdesk.store.engine import Store

    return Store(url, backup_dir=backup_dir)


def info(args: argparse.Namespace, _app: None) -> int:
    from memdesk.paths import resolve_paths
    from memdesk.store.info import describe

    paths = resolve_paths(args.data_dir, args.db, args.config)
    store = _open(paths.db_url, paths.backup_dir)
    try:
        found = describe(store)
    finally:
        store.close()
    rows = " · ".join(f"{name} {count:,}" for name, count in found.rows.items())
    bad = [index for index in found.indexes if not index.ok]
    health = (
        f"ok ({len(found.indexes)} full-text indexes checked)"
        if not bad
        else "; ".join(f"{index.name}: {index.problem}" for index in bad)
    )
    print(f"engine        {found.engine}")
    print(f"store         {found.where}")
    print(f"schema        {found.schema_version}")
    print(f"revision      {found.revision}")
    print(f"size          {found.size_bytes / 2**20:.1f} MiB")
    print(f"rows          {rows}")
    print(f"search index  {health}")
    return 1 if bad else 0


def copy_to(args: argparse.Namespace, _app: None) -> int:
    from memdesk.paths import db_url_for, resolve_paths
    from memdesk.store.copy import copy_store

    paths = resolve_paths(args.data_dir, args.db, args.config)
    target_url = db_url_for(args.to)
    if target_url == paths.db_url:
        raise BadInputError("the target is the store itself", "give --to another database")
    source = _open(paths.db_url, paths.backup_dir)
    try:
        target = _open(target_url, paths.backup_dir)
        try:
            copied = copy_store(source, target)
            where = target.where
        finally:
            target.close()
    finally:
        source.close()
    for table in copied:
        print(f"{table.table:<16} {table.target_rows:>10,} rows (source {table.source_rows:,})")
    print(f"copied {source.where} to {where}; every table's row count matches")
    return 0


def set_password(args: argparse.Namespace, _app: None) -> int:
    import getpass
    import sys

    from sqlalchemy import make_url

    from memdesk.paths import resolve_paths
    from memdesk.secrets import delete_secret, write_secret
    from memdesk.store.engines.passwords import keyring_name
    from memdesk.store.engines.postgresql import safe_url

    url = make_url(resolve_paths(args.data_dir, args.db, args.config).db_url)
    if url.get_backend_name() != "postgresql":
        raise BadInputError(
            "`memdesk db password` is for a PostgreSQL store; this store is a SQLite file",
            "give the server's URL with --db or MEMDESK_DB",
        )
    if url.password is not None:
        raise BadInputError(
            "the URL already holds a password", "leave it out of the URL; the keyring keeps it instead"
        )
    name, what = keyring_name(url), "the database password"
    if args.delete:
        delete_secret(name, what)
        print(f"forgot the password for {safe_url(url)}")
        return 0
    secret = (
        getpass.getpass(f"Password for {safe_url(url)}: ") if sys.stdin.isatty() else sys.stdin.readline()
    )
    secret = secret.rstrip("\r\n")
    if not secret:
        raise BadInputError("the password is empty", "type it, or pipe it on standard input")
    write_secret(name, secret, what)
    print(f"kept the password for {safe_url(url)} in the system keyring")
    return 0
