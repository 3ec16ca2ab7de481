"""``Sources``: find the assistants' transcripts on this machine and read what is new in them.

Each transcript becomes the session ``<assistant>:<session id>``, with the messages' own
times and the project folder's app; each file is read from where the last read stopped
(``file_read``), and a file whose size and time have not changed is not opened. Reading
never sends anything anywhere. Qt-free: the window can call ``sync_file`` from a file
watcher.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select

from memdesk.errors import BadInputError
from memdesk.services.sources.catalog import ASSISTANTS, BY_NAME, Assistant
from memdesk.services.sources.file_read import FileRead, FileSync, Seen
from memdesk.store.models import SourceFile

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


@dataclass(frozen=True)
class SourceInfo:
    name: str  # claude-code, codex, pi
    title: str
    folder: Path
    found: bool  # the folder exists on this machine
    transcripts: int
    enabled: bool
    setting: str


@dataclass(frozen=True)
class SyncResult:
    files: tuple[FileSync, ...]
    unchanged: int  # files with nothing new, not opened

    @property
    def messages(self) -> int:
        return sum(item.messages for item in self.files)

    def lines(self) -> list[str]:
        """What was read and what was skipped, one line each."""
        out = [
            f"{item.session_id}: {item.messages} new messages from {item.path}"
            for item in self.files
            if item.messages
        ]
        out += [f"{item.path}: {item.problem}" for item in self.files if item.problem]
        out += [f"{item.path}: {line}" for item in self.files for line in item.skipped]
        return out


class Sources:
    def __init__(self, app: Memdesk) -> None:
        self.app = app

    # -- which assistants -------------------------------------------------------------------

    def list(self) -> list[SourceInfo]:
        settings = self.app.settings
        return [
            SourceInfo(
                a.name,
                a.title,
                a.folder(),
                a.folder().is_dir(),
                sum(1 for _ in a.files()),
                bool(settings.get(a.setting)),
                a.setting,
            )
            for a in ASSISTANTS
        ]

    def enabled(self) -> list[str]:
        """The names of the sources turned on (a settings read: no files are touched)."""
        return [a.name for a in ASSISTANTS if self.app.settings.get(a.setting)]

    def set_enabled(self, name: str, enabled: bool) -> SourceInfo:
        assistant = assistant_named(name)
        self.app.update_settings(self.app.settings.with_values({assistant.setting: enabled}))
        return next(info for info in self.list() if info.name == assistant.name)

    # -- reading ----------------------------------------------------------------------------

    def sync(self, names: Iterable[str] | None = None) -> SyncResult:
        """Read what is new in every transcript of the enabled sources (or of ``names``)."""
        chosen = (
            [assistant_named(n) for n in names]
            if names is not None
            else [assistant_named(name) for name in self.enabled()]
        )
        seen = self._seen()
        files: list[FileSync] = []
        unchanged = 0
        for assistant in chosen:
            for path in assistant.files():
                key = str(path)
                before = seen.get(key)
                if before is not None and _same(path, before):
                    unchanged += 1
                    continue
                files.append(self._read(assistant, path, before))
        return SyncResult(tuple(files), unchanged)

    def sync_file(self, path: Path | str, source: str | None = None) -> FileSync:
        """Read what is new in one transcript; ``source`` defaults to the assistant whose folder holds it."""
        path = Path(path).expanduser().absolute()
        assistant = assistant_named(source) if source else _owner(path)
        return self._read(assistant, path, self._seen(str(path)).get(str(path)))

    def _seen(self, only: str | None = None) -> dict[str, Seen]:
        query = select(
            SourceFile.path,
            SourceFile.read_to,
            SourceFile.size,
            SourceFile.mtime_ns,
            SourceFile.fingerprint,
            SourceFile.pending,
        )
        if only is not None:
            query = query.where(SourceFile.path == only)
        with self.app.store.read() as session:
            return {row[0]: Seen(*row[1:]) for row in session.execute(query)}

    def _read(self, assistant: Assistant, path: Path, before: Seen | None) -> FileSync:
        session_id = assistant.session_id(path)
        try:
            handle = path.open("rb")
        except FileNotFoundError:
            return FileSync(path, assistant.name, session_id, 0, problem="is not there (removed?); skipped")
        except OSError as exc:
            return FileSync(
                path,
                assistant.name,
                session_id,
                0,
                problem=f"cannot be read ({exc.strerror or exc}); skipped",
            )
        with handle:
            try:
                return FileRead(self.app, assistant, path, session_id, before).run(handle)
            except OSError as exc:  # removed or unreadable while being read
                return FileSync(
                    path,
                    assistant.name,
                    session_id,
                    0,
                    problem=f"could not be read to the end ({exc.strerror or exc}); skipped",
                )


def _same(path: Path, before: Seen) -> bool:
    try:
        stat = path.stat()
    except OSError:
        return False
    return stat.st_size == before.size and stat.st_mtime_ns == before.mtime_ns


def assistant_named(name: str) -> Assistant:
    try:
        return BY_NAME[name]
    except KeyError:
        raise BadInputError(f"unknown source {name!r}", "expected one of: " + ", ".join(BY_NAME)) from None


def _owner(path: Path) -> Assistant:
    for assistant in ASSISTANTS:
        if path.is_relative_to(assistant.folder()):
            return assistant
    raise BadInputError(
        f"{path} is not in a folder of Claude Code, Codex CLI or pi",
        "name its source: claude-code, codex or pi",
    )
