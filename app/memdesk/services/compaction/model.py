"""What a compaction run produces: a proposal of reviewable changes, and its run record."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from memdesk.core.grounding import Mark, Sources, check, unread_words
from memdesk.core.grounding import describe as describe_marks
from memdesk.core.suspicious import describe
from memdesk.core.values import MONEY, values_in
from memdesk.errors import BadInputError, LLMError, MemdeskError
from memdesk.llm.results import StepResult

# ``progress(step label, step number, number of steps)``; called from the worker running the pipeline.
Progress = Callable[[str, int, int], None]


# How a proposal's note about a statement that contradicts a stored fact begins (it quotes the fact).
CONFLICT_NOTE = "Conflict:"


class ChangeKind(StrEnum):
    REPLACE_WORKING = "replace_working"
    ADD_TIMELINE = "add_timeline"
    APPEND_FACTS = "append_facts"
    ADD_APP_MEMORY = "add_app_memory"
    DELETE_APP_MEMORY = "delete_app_memory"
    EDIT_APP_MEMORY = "edit_app_memory"
    ADVANCE_POINTER = "advance_pointer"
    # What the conversation changes in stored facts: a document's line, an entry, a memory.
    UPDATE_LINE = "update_line"
    RETIRE_LINE = "retire_line"
    UPDATE_ENTRY = "update_entry"
    RETIRE_ENTRY = "retire_entry"
    UPDATE_MEMORY = "update_memory"
    RETIRE_MEMORY = "retire_memory"


_EDITABLE = frozenset(
    {
        ChangeKind.REPLACE_WORKING,
        ChangeKind.ADD_TIMELINE,
        ChangeKind.APPEND_FACTS,
        ChangeKind.ADD_APP_MEMORY,
        ChangeKind.EDIT_APP_MEMORY,
        ChangeKind.UPDATE_LINE,
        ChangeKind.UPDATE_ENTRY,
        ChangeKind.UPDATE_MEMORY,
    }
)
# Changes to stored facts: refused one by one at apply when their target changed since.
FACT_CHANGES = frozenset(
    {
        ChangeKind.UPDATE_LINE,
        ChangeKind.RETIRE_LINE,
        ChangeKind.UPDATE_ENTRY,
        ChangeKind.RETIRE_ENTRY,
        ChangeKind.UPDATE_MEMORY,
        ChangeKind.RETIRE_MEMORY,
    }
)
# The kinds whose text Memdesk writes itself; every other kind carries a model's text and is
# screened (kinds added later are screened without being listed anywhere).
_WRITTEN_BY_MEMDESK = frozenset({ChangeKind.DELETE_APP_MEMORY, ChangeKind.ADVANCE_POINTER})


@dataclass
class Change:
    """One write the proposal would make; a reviewer may reject it or edit ``after``.

    ``before`` is the target's current text. ``after`` is what the change writes: for
    ``append_facts`` the facts it appends (one per line), for the others the target's new
    text ("" for a deletion; a sentence for the pointer). For ``update_line`` and
    ``retire_line`` both are the one line of the document ``target``.

    ``note`` says what was cut from the model's reply to fit. ``suspicion`` says why the
    text reads as instructions to an assistant ("" when it does not); such a change is
    proposed but not accepted, so nothing applies it unless a person (or an explicit
    option) accepts it.

    ``marks`` are what the text says that the conversation (and the text it replaces) does
    not: invented names, numbers and dates, placeholders, repeated instructions, invented
    dialogue, loops (see ``core.grounding``); ``grounding`` says so in words ("not in the
    conversation: Spain, Europe"). Such a change is not accepted either.

    A suspicious change nobody accepted waits in Review once the proposal is applied,
    unless the person ``rejected`` it (see ``compaction.held``).

    ``doubted``: the change to a stored fact is not accepted because its evidence failed its
    check or the rules were not sure of it (``reason`` says why); only a person accepting
    it in review applies it, never an option that accepts marked changes in bulk.
    """

    kind: ChangeKind
    title: str
    target: str  # namespace, entry key, app id or session id
    before: str
    after: str
    reason: str = ""
    memory_id: int | None = None  # delete/edit_app_memory, update/retire_memory
    accepted: bool = True
    note: str = ""
    suspicion: str = ""
    marks: tuple[Mark, ...] = ()
    grounding: str = ""
    doubted: bool = False
    rejected: bool = False  # by the person: a suspicious change they rejected is not held for review
    original_after: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        self.original_after = self.after

    @property
    def editable(self) -> bool:
        return self.kind in _EDITABLE

    @property
    def suspicious(self) -> bool:
        return bool(self.suspicion)

    @property
    def model_written(self) -> bool:
        return self.kind not in _WRITTEN_BY_MEMDESK

    @property
    def ungrounded(self) -> bool:
        return bool(self.marks)

    def screen(self, sources: Sources) -> None:
        """Flag (and stop accepting) a change whose new text addresses an assistant or says
        what ``sources`` (the conversation the model read) do not."""
        if not self.model_written:
            return
        read = sources.with_text(self.before)
        # A change to a stored fact is judged by the learned detector on the words the model
        # added to what it read (the fact's, the person's, the other stored facts'): the phrase
        # that weighs most must hold one of them, and a line that speaks to no one is a note
        # about the person. Fact lines in the person's words (a phone number, a job at a named
        # place) score high on their own, and the line was already theirs; the rules still read
        # all of the new text, an order copied from the conversation included, since a pasted
        # message can carry one.
        own = unread_words(self.after, read) if self.kind in FACT_CHANGES else None
        self.suspicion = describe(self.after, own=own)
        if self.suspicion and self.kind in FACT_CHANGES and _only_amounts_changed(self.before, self.after):
            # The stored line already said it ("rent $1,150/month, paid by e-transfer to …"):
            # a new amount of money hands nothing to anyone it did not already name. A new
            # account or phone number still could, and stays held.
            self.suspicion = "" if describe(self.before) else self.suspicion
        self.marks = tuple(check(self.after, read))
        self.grounding = describe_marks(self.marks)
        if self.suspicion or self.marks:
            self.accepted = False

    @property
    def edited(self) -> bool:
        return self.after != self.original_after

    def result(self) -> str:
        """The target's whole text once the change is written (what a diff compares)."""
        if self.kind is ChangeKind.APPEND_FACTS:
            added = "\n".join(f"- {line.strip()}" for line in self.after.splitlines() if line.strip())
            return f"{self.before.rstrip()}\n{added}".strip("\n") if self.before.strip() else added
        return self.after


def _only_amounts_changed(before: str, after: str) -> bool:
    """The two texts differ only in their amounts of money ("rent $1,150/month" and "rent
    $1,190/month")."""
    return before != after and _without_amounts(before) == _without_amounts(after)


def _without_amounts(text: str) -> str:
    """``text`` with its amounts of money left out."""
    for value in reversed(values_in(text)):
        if value.kind == MONEY:
            text = text[: value.span[0]] + text[value.span[1] :]
    return text


@dataclass(frozen=True)
class Usage:
    """What the model calls of a run cost; ``estimated`` when any count was estimated."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    estimated: bool = False
    seconds: float = 0.0

    def describe(self) -> str:
        about = "~" if self.estimated else ""
        calls = "1 model call" if self.calls == 1 else f"{self.calls} model calls"
        return (
            f"{calls}, {about}{self.tokens_in:,} tokens in, {about}{self.tokens_out:,} out, "
            f"{self.seconds:.1f} s"
        )


class Tally:
    """Counts calls and tokens as they happen, so failed and cancelled runs are recorded too."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls = 0
        self.tokens_in = 0
        self.tokens_out = 0
        self.estimated = False

    def call(self) -> None:
        with self._lock:
            self.calls += 1

    def tokens(self, tokens_in: int, tokens_out: int, estimated: bool) -> None:
        with self._lock:
            self.tokens_in += tokens_in
            self.tokens_out += tokens_out
            self.estimated = self.estimated or estimated

    def absorb(self, result: StepResult[object]) -> None:
        """Count a step that made no model call (offline steps estimate their tokens).

        Steps that called a model were counted call by call already.
        """
        if result.calls == 0:
            self.tokens(result.tokens_in, result.tokens_out, result.estimated)

    def usage(self, seconds: float) -> Usage:
        with self._lock:
            return Usage(self.calls, self.tokens_in, self.tokens_out, self.estimated, seconds)


@dataclass
class Proposal:
    """The changes one run proposes for a session's new messages. Nothing is written yet."""

    session_id: str
    app_id: str | None
    message_count: int
    last_message_id: int  # 0 when the messages are not in the store (a transcript preview)
    last_message_at: datetime
    base_message_id: int  # the session's pointer when proposed; apply refuses if it moved
    changes: list[Change]
    notes: list[str]
    usage: Usage
    backend: str
    model: str
    run_id: int
    preview_only: bool = False  # made from a transcript file that was not imported
    refused: list[str] = field(default_factory=list)  # set by apply: changes whose target moved
    held: dict[int, int] = field(default_factory=dict)  # set by apply: change number → held write id

    def accepted(self) -> list[Change]:
        return [change for change in self.changes if change.accepted]

    def number(self, change: Change) -> int:
        """The change's number: "[3]" in the printed proposal, id 3 over MCP."""
        return self.changes.index(change) + 1

    def check_numbers(self, numbers: Iterable[object], verb: str) -> set[int]:
        """``numbers`` as change numbers to ``verb``, refusing any the proposal does not have."""
        count = len(self.changes)
        chosen: set[int] = set()
        for number in numbers:
            if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count:
                raise BadInputError(
                    f"no change [{number}] to {verb}: this proposal has changes [1] to [{count}]",
                    "the numbers are those the dry run prints",
                )
            chosen.add(number)
        return chosen

    def choose(self, *, accept: Iterable[object] | None = None, reject: Iterable[object] = ()) -> None:
        """Accept exactly the changes numbered in ``accept`` (None keeps the proposal's own
        choice), then reject those in ``reject``; nothing changes when a number is unknown."""
        accepted = None if accept is None else self.check_numbers(accept, "accept")
        rejected = self.check_numbers(reject, "reject")
        if accepted is not None and accepted & rejected:
            both = ", ".join(f"[{n}]" for n in sorted(accepted & rejected))
            raise BadInputError(f"change {both} is both accepted and rejected", "name each change once")
        for number, change in enumerate(self.changes, 1):
            if accepted is not None:
                change.accepted = number in accepted
                change.rejected = not change.accepted
            if number in rejected:
                change.accepted = False
                change.rejected = True

    def held_back(self) -> list[Change]:
        """Suspicious changes nobody has accepted: left out when the proposal is applied."""
        return [change for change in self.changes if change.suspicious and not change.accepted]

    def held_back_ungrounded(self) -> list[Change]:
        """Changes marked ungrounded that nobody has accepted: left out when applied."""
        return [change for change in self.changes if change.ungrounded and not change.accepted]

    def accept_marked(self, *, suspicious: bool = False, ungrounded: bool = False) -> None:
        """Accept the marked changes whose every mark is of a kind allowed here."""
        for change in self.changes:
            if (
                (change.suspicious or change.ungrounded)
                and not change.doubted
                and (suspicious or not change.suspicious)
                and (ungrounded or not change.ungrounded)
            ):
                change.accepted = True

    def accept_suspicious(self) -> None:
        self.accept_marked(suspicious=True)


@dataclass(frozen=True)
class RunRecord:
    id: int
    session_id: str | None
    started_at: datetime
    backend: str
    model: str
    duration_ms: int
    calls: int
    tokens_in: int
    tokens_out: int
    tokens_estimated: bool
    outcome: str  # proposed | applied | failed | degraded | cancelled
    message: str
    history_step_id: int | None


@dataclass(frozen=True)
class DueSession:
    session_id: str
    reasons: tuple[str, ...]


class CompactionCancelled(MemdeskError):
    def __init__(self) -> None:
        super().__init__("Compaction was cancelled before the next model call; nothing was written.")


class CompactionDegraded(LLMError):
    """The model failed too often in a row, so the raw messages were archived instead."""

    def __init__(
        self, cause: LLMError, failures: int, entry_key: str, archived: int, step_id: int | None
    ) -> None:
        super().__init__(
            f"{cause.message} After {failures} failed attempts in a row, the {archived} messages were "
            f"archived as they are in timeline entry {entry_key}, and the session is marked as compacted.",
            cause.backend,
            cause.hint,
        )
        self.entry_key = entry_key
        self.archived = archived
        self.step_id = step_id


class CancelToken:
    """Set from any thread; the pipeline stops before its next model call."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise CompactionCancelled()
