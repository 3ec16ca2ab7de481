"""One read of one transcript file: its new lines, written in batches with the file's offset.

The offset is written in the transaction of the messages it produced, and only if the
row still holds the offset this read started from: a crash, or another reader that got
there first, never logs a line twice. A file that shrank or whose first line changed was
rewritten: it is read from the start, leaving out the messages the session already holds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from sqlalchemy import select

from memdesk.core.actors import SOURCE_PREFIX
from memdesk.core.plural import plural
from memdesk.core.projects import app_id_for_folder
from memdesk.services.context import MAX_DOCUMENT_CHARS
from memdesk.services.sources.catalog import Assistant
from memdesk.services.sources.lines import fingerprint, read_lines
from memdesk.services.sources.notes import Note, ToolCalls, clean, dump_pending, load_pending
from memdesk.store.models import Message, SourceFile

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# Messages per transaction: a big file is read in steps, each with its own offset.
BATCH_NOTES = 5000
BATCH_CHARS = 8 * 1024 * 1024


@dataclass(frozen=True)
class FileSync:
    path: Path
    source: str
    session_id: str
    messages: int  # logged by this sync
    skipped: tuple[str, ...] = ()  # lines left out, each with why
    problem: str | None = None  # why the whole file was left out this time


class _Overtaken(Exception):
    """Another reader moved the file's offset since this one started: its lines are logged."""


@dataclass
class Seen:
    """What the last read of a file left behind."""

    read_to: int
    size: int
    mtime_ns: int
    fingerprint: str
    pending: str


class FileRead:
    """One read of one file, written in batches."""

    def __init__(
        self, app: Memdesk, assistant: Assistant, path: Path, session_id: str, before: Seen | None
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
        label = f"Read {plural(len(fresh), 'message')} from {self.assistant.title} into {self.session_id}"
        try:
            with ctx.acting_as(SOURCE_PREFIX + self.assistant.name), ctx.change(label) as session:
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
