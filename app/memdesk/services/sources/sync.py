"""``Sources``: find the assistants' transcripts on this machine and read what is new in them.

Each transcript becomes the session ``<assistant>:<session id>``, with the messages' own
times and the project folder's app. A file is read from where the last read stopped; the
new offset is written in the transaction of the messages it produced, and only if no other
reader moved it meanwhile, so a crash or two readers at once never log a line twice. A
file that shrank or whose first line changed was rewritten: it is read again from the
start, leaving out the messages the session already holds. Reading never sends anything
anywhere. Qt-free: the window can call ``sync_file`` from a file watcher.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from sqlalchemy import select

from memdesk.errors import BadInputError
from memdesk.services.context import MAX_DOCUMENT_CHARS
from memdesk.services.sources.catalog import ASSISTANTS, BY_NAME, Assistant, app_id_for_folder
from memdesk.services.sources.lines import fingerprint, read_lines
from memdesk.services.sources.notes import Note, ToolCalls, clean, dump_pending, load_pending
from memdesk.store.models import Message, SourceFile

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# Messages per transaction: a big file is read in steps, each with its own offset.
BATCH_NOTES = 5000
BATCH_CHARS = 8 * 1024 * 1024


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
class FileSync:
    path: Path
    source: str
    session_id: str
    messages: int  # logged by this sync
    skipped: tuple[str, ...] = ()  # lines left out, each with why
    problem: str | None = None  # why the whole file was left out this time


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


class _Overtaken(Exception):
    """Another reader moved the file's offset since this one started: its lines are logged."""


@dataclass
class _Seen:
    """What the last read of a file left behind."""

    read_to: int
    size: int
    mtime_ns: int
    fingerprint: str
    pending: str


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
            else [a for a in ASSISTANTS if self.app.settings.get(a.setting)]
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

    def _seen(self, only: str | None = None) -> dict[str, _Seen]:
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
            return {row[0]: _Seen(*row[1:]) for row in session.execute(query)}

    def _read(self, assistant: Assistant, path: Path, before: _Seen | None) -> FileSync:
        session_id = assistant.session_id(path)
        try:
            handle = path.open("rb")
        except FileNotFoundError:
            return FileSync(path, assistant.name, session_id, 0, problem="no longer there; skipped")
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
                return _FileRead(self.app, assistant, path, session_id, before).run(handle)
            except OSError as exc:  # removed or unreadable while being read
                return FileSync(
                    path,
                    assistant.name,
                    session_id,
                    0,
                    problem=f"could not be read to the end ({exc.strerror or exc}); skipped",
                )


class _FileRead:
    """One read of one file, written in batches."""

    def __init__(
        self, app: Memdesk, assistant: Assistant, path: Path, session_id: str, before: _Seen | None
    ) -> None:
        self.app = app
        self.assistant = assistant
        self.path = path
        self.session_id = session_id
        self.before = before
        self.expected = before.read_to if before else None  # the offset the row must still hold
        self.logged = 0
        self.skipped: list[str] = []
        self.known: set[tuple[str, str]] | None = None  # after a rewrite: messages already logged

    def run(self, handle: BinaryIO) -> FileSync:
        stat = os.fstat(handle.fileno())
        mark = fingerprint(handle)
        if mark is None:  # not even one whole line yet
            return self._result()
        before = self.before
        rewritten = before is not None and (stat.st_size < before.read_to or before.fingerprint != mark)
        start = 0 if before is None or rewritten else before.read_to
        calls = ToolCalls(None if before is None or rewritten else load_pending(before.pending))
        reader = self.assistant.reader(calls)
        if rewritten:
            self.known = self._known()
        batch: list[Note] = []
        chars = 0
        end = start
        for line in read_lines(handle, start):
            if line.start == 0 and line.record is None and line.problem:
                return self._result(
                    f"is not a {self.assistant.title} transcript (its first line is {line.problem}); skipped"
                )
            if line.problem:
                self.skipped.append(f"the line at byte {line.start:,} is {line.problem}; skipped")
            elif line.record is not None:
                notes = reader.read(line.record)
                batch.extend(notes)
                chars += sum(len(note.text) for note in notes)
            end = line.end
            if len(batch) >= BATCH_NOTES or chars >= BATCH_CHARS:
                if not self._write(batch, reader.cwd, end, mark, stat, calls):
                    return self._result("another sync was reading it; left to that one")
                batch, chars = [], 0
        moved = before is None or rewritten or end != before.read_to or stat.st_size != before.size
        if moved and not self._write(batch, reader.cwd, end, mark, stat, calls):
            return self._result("another sync was reading it; left to that one")
        return self._result()

    def _result(self, problem: str | None = None) -> FileSync:
        return FileSync(
            self.path, self.assistant.name, self.session_id, self.logged, tuple(self.skipped), problem
        )

    def _known(self) -> set[tuple[str, str]]:
        with self.app.store.read() as session:
            rows = session.execute(
                select(Message.role, Message.content).where(Message.session_id == self.session_id)
            )
            return {(role, content) for role, content in rows}

    def _write(
        self, notes: list[Note], cwd: str | None, end: int, mark: str, stat: os.stat_result, calls: ToolCalls
    ) -> bool:
        """Log ``notes`` and move the offset to ``end`` in one transaction; False if overtaken."""
        ctx = self.app.ctx
        fresh = [note for note in (clean(n, MAX_DOCUMENT_CHARS) for n in notes) if note is not None]
        if self.known is not None:
            fresh = [n for n in fresh if (n.role, n.text) not in self.known]
        app_id = app_id_for_folder(cwd)
        now = self.app.now()
        label = f"Read {len(fresh)} messages from {self.assistant.title} into {self.session_id}"
        try:
            with ctx.acting_as(f"source:{self.assistant.name}"), ctx.change(label) as session:
                row = session.scalar(select(SourceFile).where(SourceFile.path == str(self.path)))
                if (row.read_to if row else None) != self.expected:
                    raise _Overtaken
                if fresh:
                    rows = [(note.role, note.text, note.at or now) for note in fresh]
                    self.app.sessions.log_many(self.session_id, rows, app_id)
                if row is None:
                    row = SourceFile(
                        path=str(self.path), source=self.assistant.name, session_id=self.session_id
                    )
                    session.add(row)
                row.read_to, row.size, row.mtime_ns, row.fingerprint = (
                    end,
                    stat.st_size,
                    stat.st_mtime_ns,
                    mark,
                )
                row.pending, row.synced_at = dump_pending(calls), now
        except _Overtaken:
            return False
        self.expected = end
        self.logged += len(fresh)
        return True


def _same(path: Path, before: _Seen) -> bool:
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
