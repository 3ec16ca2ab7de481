"""Writing a reviewed proposal: the accepted changes, in one transaction that is one history step."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from memdesk.core.grounding import once_each
from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.compaction.build import fact_key
from memdesk.services.compaction.held import hold_for_review
from memdesk.services.compaction.model import Change, ChangeKind, Proposal
from memdesk.services.context import MAX_DOCUMENT_CHARS, MAX_ENTRY_CHARS, check_text
from memdesk.services.documents import find_document
from memdesk.store.models import AppMemory, ChatSession, Entry

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# Removals and merges go first, so that adding the new app memory only pushes out the
# oldest one (to keep the cap) when the reviewer rejected the proposed removal.
_ORDER = (
    ChangeKind.UPDATE_LINE,
    ChangeKind.RETIRE_LINE,
    ChangeKind.UPDATE_ENTRY,
    ChangeKind.RETIRE_ENTRY,
    ChangeKind.UPDATE_MEMORY,
    ChangeKind.RETIRE_MEMORY,
    ChangeKind.DELETE_APP_MEMORY,
    ChangeKind.EDIT_APP_MEMORY,
    ChangeKind.REPLACE_WORKING,
    ChangeKind.ADD_TIMELINE,
    ChangeKind.APPEND_FACTS,
    ChangeKind.ADD_APP_MEMORY,
    ChangeKind.ADVANCE_POINTER,
)


def apply_label(proposal: Proposal) -> str:
    # No run number: runs are numbered across every session and dry run, and no view shows it,
    # so "(run 2)" after a first apply read as a second one. History links a run to its step.
    return f"Compact {proposal.session_id}"


def apply_proposal(app: Memdesk, proposal: Proposal) -> tuple[list[int], int | None]:
    """Write the accepted changes; returns the ids of memories that went to keep the cap and
    the history step written (None when the accepted changes changed nothing).

    A change to a stored fact whose target was deleted or edited since the proposal is
    refused on its own (``proposal.refused`` says which and why); the others are written.
    """
    if proposal.preview_only:
        raise BadInputError(
            "this proposal previews a transcript file that has not been imported",
            "import the transcript first (`memdesk compact --transcript FILE --yes`, or "
            "Import transcript… in the Compaction view)",
        )
    accepted = sorted(proposal.accepted(), key=lambda change: _ORDER.index(change.kind))
    if not accepted:
        raise BadInputError("no change is accepted, so there is nothing to apply")
    for change in accepted:
        if change.model_written:  # a looping text, once accepted, keeps one copy of each sentence
            change.after = once_each(change.after)
        _check_text(app, change)
    writer = _Writer(app, proposal)
    with app.ctx.change(apply_label(proposal)) as session:
        chat = session.get(ChatSession, proposal.session_id)
        if chat is None or chat.deleted_at is not None:
            raise NotFoundError(f"no session {proposal.session_id!r}")
        if chat.last_consolidated_message_id != proposal.base_message_id:
            raise ConflictError(
                f"session {proposal.session_id} was compacted again after this proposal was made",
                "run compaction again for a proposal of what is left",
            )
        for change in accepted:
            writer.write(session, chat, change)
        held = hold_for_review(app, proposal)
        chat.failure_count = 0
    proposal.refused = writer.refused
    proposal.held = held
    return writer.pushed_out, app.ctx.last_step_id()


def _check_text(app: Memdesk, change: Change) -> None:
    """Refuse an edited text that could not be stored, naming the change, before writing anything."""
    what = f"the text of “{change.title}”"
    if change.kind is ChangeKind.ADD_TIMELINE:
        check_text(change.after, what, MAX_ENTRY_CHARS)
    elif change.kind is ChangeKind.UPDATE_ENTRY:
        check_text(change.after, what, MAX_ENTRY_CHARS, allow_empty=True)
    elif change.kind in (ChangeKind.REPLACE_WORKING, ChangeKind.APPEND_FACTS):
        check_text(change.after, what, MAX_DOCUMENT_CHARS)
    elif change.kind is ChangeKind.UPDATE_LINE:
        check_text(change.after, what, MAX_DOCUMENT_CHARS, allow_empty=True)
    elif change.kind is ChangeKind.UPDATE_MEMORY:
        check_text(change.after, what, app.settings.memory.app_memory_max_chars, allow_empty=True)
    elif change.kind in (ChangeKind.ADD_APP_MEMORY, ChangeKind.EDIT_APP_MEMORY):
        check_text(change.after, what, app.settings.memory.app_memory_max_chars)


class _Writer:
    def __init__(self, app: Memdesk, proposal: Proposal) -> None:
        self.app = app
        self.proposal = proposal
        self.pushed_out: list[int] = []
        self.refused: list[str] = []
        self._writers: dict[ChangeKind, Callable[[Session, ChatSession, Change], None]] = {
            ChangeKind.REPLACE_WORKING: self._working,
            ChangeKind.ADD_TIMELINE: self._timeline,
            ChangeKind.APPEND_FACTS: self._facts,
            ChangeKind.ADD_APP_MEMORY: self._add_memory,
            ChangeKind.DELETE_APP_MEMORY: self._delete_memory,
            ChangeKind.EDIT_APP_MEMORY: self._edit_memory,
            ChangeKind.ADVANCE_POINTER: self._pointer,
            ChangeKind.UPDATE_LINE: self._line,
            ChangeKind.RETIRE_LINE: self._line,
            ChangeKind.UPDATE_ENTRY: self._entry,
            ChangeKind.RETIRE_ENTRY: self._entry,
            ChangeKind.UPDATE_MEMORY: self._memory,
            ChangeKind.RETIRE_MEMORY: self._memory,
        }

    def write(self, session: Session, chat: ChatSession, change: Change) -> None:
        self._writers[change.kind](session, chat, change)

    # The services' own write methods join this change (same Context), so each keeps its rules.

    def _working(self, session: Session, chat: ChatSession, change: Change) -> None:
        self.app.working.write(change.after, session_id=chat.id)

    def _timeline(self, session: Session, chat: ChatSession, change: Change) -> None:
        self.app.entries.upsert(change.target, change.after.strip(), "timeline", session_id=chat.id)

    def _facts(self, session: Session, chat: ChatSession, change: Change) -> None:
        doc = find_document(session, change.target)
        current = doc.content if doc is not None and doc.deleted_at is None else ""
        known = {fact_key(line) for line in current.splitlines()}
        lines: list[str] = []
        for line in change.after.splitlines():
            key = fact_key(line)
            if key and key not in known:  # checked again: the document may have changed since
                known.add(key)
                lines.append(f"- {line.strip().removeprefix('- ')}")
        if lines:
            self.app.documents.append(change.target, "\n".join(lines))

    def _add_memory(self, session: Session, chat: ChatSession, change: Change) -> None:
        added = self.app.apps.add(change.target, change.after.strip(), source_session=chat.id)
        self.pushed_out += [memory.id for memory in added.removed]

    def _delete_memory(self, session: Session, chat: ChatSession, change: Change) -> None:
        memory = self._unchanged(session, change)
        if memory is not None:
            memory.deleted_at = self.app.now()

    def _edit_memory(self, session: Session, chat: ChatSession, change: Change) -> None:
        if self._unchanged(session, change) is None:
            raise ConflictError(
                f"memory {change.memory_id} was deleted after the proposal was made, "
                "so the new memory cannot be merged into it",
                "run compaction again",
            )
        assert change.memory_id is not None
        self.app.apps.edit(change.memory_id, change.after.strip())

    @staticmethod
    def _unchanged(session: Session, change: Change) -> AppMemory | None:
        """The live memory the change targets; None when it is gone already."""
        memory = session.get(AppMemory, change.memory_id)
        if memory is None or memory.deleted_at is not None:
            return None
        if memory.content != change.before:
            raise ConflictError(
                f"memory {memory.id} was edited after the proposal was made",
                "run compaction again so the proposal shows its current text",
            )
        return memory

    # Changes to stored facts: a target that moved since the proposal refuses only its change.

    def _refuse(self, change: Change, why: str) -> None:
        self.refused.append(f"Not applied: “{change.title}”: {why} after the proposal was made.")

    def _line(self, session: Session, chat: ChatSession, change: Change) -> None:
        doc = find_document(session, change.target)
        content = doc.content if doc is not None and doc.deleted_at is None else ""
        lines = content.splitlines()
        index = next((i for i, line in enumerate(lines) if line.rstrip() == change.before.rstrip()), None)
        if index is None:
            self._refuse(change, f"the line was changed or removed in {change.target}")
            return
        new = change.after.strip("\n")
        lines[index : index + 1] = [new] if new.strip() else []
        self.app.documents.set(change.target, "\n".join(lines) + ("\n" if content.endswith("\n") else ""))

    def _entry(self, session: Session, chat: ChatSession, change: Change) -> None:
        entry = session.scalar(select(Entry).where(Entry.key == change.target))
        self._replace(
            change,
            entry,
            f"entry {change.target}",
            lambda text: self.app.entries.upsert(change.target, text, entry.category if entry else None),
        )

    def _memory(self, session: Session, chat: ChatSession, change: Change) -> None:
        memory = session.get(AppMemory, change.memory_id)
        self._replace(
            change,
            memory,
            f"memory {change.memory_id}",
            lambda text: self.app.apps.edit(change.memory_id, text),
        )

    def _replace(
        self, change: Change, row: Entry | AppMemory | None, name: str, edit: Callable[[str], object]
    ) -> None:
        """Rewrite or retire (to Trash) a stored fact, unless it changed since the proposal."""
        if row is None or row.deleted_at is not None:
            self._refuse(change, f"{name} was deleted")
        elif row.content != change.before:
            self._refuse(change, f"{name} was edited")
        elif change.kind in (ChangeKind.RETIRE_ENTRY, ChangeKind.RETIRE_MEMORY) or not change.after.strip():
            row.deleted_at = self.app.now()  # to Trash
        else:
            edit(change.after.strip())

    def _pointer(self, session: Session, chat: ChatSession, change: Change) -> None:
        chat.last_consolidated_message_id = self.proposal.last_message_id
        chat.last_consolidated_at = self.proposal.last_message_at
