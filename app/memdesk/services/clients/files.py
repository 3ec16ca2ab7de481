"""Changing another program's config file safely: checked before anything is written, backed
up beside itself first, replaced in one step (a temporary file renamed over it, same mode).

A symlink is never replaced (the rename would turn it into a plain file and leave its target
as it was), and a file without write permission is left alone even for root, who could write it.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from memdesk.errors import MemdeskError

BACKUP_MARK = ".memdesk-backup-"


@dataclass(frozen=True)
class Edit:
    """What one file would become; nothing is written yet."""

    path: Path
    existed: bool
    text: str  # the whole new content
    changes: tuple[str, ...]  # what is added or removed, a line each; empty: leave the file as it is


@dataclass(frozen=True)
class FileChange:
    path: Path
    changes: tuple[str, ...]
    backup: Path | None  # the copy made before writing; None when the file was new or unchanged
    created: bool = False  # the file did not exist before


def read_text(path: Path) -> str:
    """The file's text; empty when it does not exist yet."""
    try:
        # utf-8-sig: a byte-order mark some Windows editors put first is not part of the JSON or TOML.
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise MemdeskError(f"{path} cannot be read ({reason}); not changed") from None


def why_unwritable(path: Path) -> str | None:
    """Why Memdesk must not replace ``path``, in one line; None when it may."""
    if path.is_symlink():
        return (
            f"{path} is a symlink to {os.readlink(path)}; not changed, since writing would replace "
            "the link with a copy (change the file it points to by hand)"
        )
    if path.exists() and not path.stat().st_mode & stat.S_IWUSR:
        return f"{path} is read-only; not changed (make it writable to let Memdesk edit it)"
    return None


def apply(edits: list[Edit], dry_run: bool = False) -> list[FileChange]:
    """Write every edit with changes, each file backed up first; all are checked before any is
    written. ``dry_run``: check them, and say what would change, writing nothing."""
    for edit in edits:
        problem = why_unwritable(edit.path) if edit.changes else None
        if problem:
            raise MemdeskError(problem)
    done = []
    for edit in edits:
        backup = None
        # An empty file has nothing to back up, but it is no new file either.
        created = bool(edit.changes) and not edit.path.exists()
        if edit.changes and not dry_run:
            try:
                backup = _back_up(edit.path) if edit.existed else None
                replace(edit.path, edit.text)
            except OSError as exc:
                raise MemdeskError(f"{edit.path} could not be written ({exc.strerror or exc})") from None
        done.append(
            FileChange(edit.path, edit.changes, backup, created=created)
        )
    return done


def _back_up(path: Path) -> Path:
    """A copy beside ``path`` named by the time; a second one in the same second gets a number."""
    stem = f"{path.name}{BACKUP_MARK}{datetime.now(UTC):%Y%m%d-%H%M%S}"
    backup, number = path.with_name(stem), 1
    while backup.exists():
        number += 1
        backup = path.with_name(f"{stem}-{number}")
    shutil.copy2(path, backup)
    return backup


def replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in one step (a temporary file renamed over it, same mode)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
