"""Running the steps over a session's new messages and turning their results into changes.

Only reads the store: every change is a proposal until ``apply`` writes it.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from memdesk.config import Settings
from memdesk.core.grounding import Sources
from memdesk.core.timefmt import format_minute
from memdesk.core.tokens import CHARS_PER_TOKEN
from memdesk.core.working import cut_to_budget
from memdesk.errors import NotFoundError
from memdesk.llm import prompts
from memdesk.llm.changes import Edit, Known, Said, said_in
from memdesk.llm.results import PartNotes, StepResult
from memdesk.llm.steps import Steps
from memdesk.llm.text import dedupe_key
from memdesk.llm.transcript import dated_turns, format_transcript
from memdesk.services.compaction.carry import carry_over
from memdesk.services.compaction.changes import (
    known_facts,
    learned_suggestions,
    memory_apps,
    model_candidates,
    to_changes,
)
from memdesk.services.compaction.held import facts_title
from memdesk.services.compaction.model import FACT_CHANGES, CancelToken, Change, ChangeKind, Progress, Tally
from memdesk.services.compaction.parts import split_parts
from memdesk.services.compaction.runs import archived_by

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk
    from memdesk.services.transcripts import Transcript

P = ParamSpec("P")
T = TypeVar("T")

_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
STEP_LABELS = {
    "summary": "Summarising the conversation",
    "facts": "Extracting lasting facts",
    "app": "Writing the app memory",
}
DECISION_LABEL = "Choosing which app memory makes room"


@dataclass(frozen=True)
class SourceMessage:
    id: int  # 0 for a message not in the store yet
    role: str
    content: str
    at: datetime


@dataclass(frozen=True)
class Source:
    """The messages one run compacts, and where the session's pointer stood."""

    session_id: str
    app_id: str | None
    messages: tuple[SourceMessage, ...]
    base_message_id: int
    base_consolidated_at: datetime | None
    preview_only: bool = False

    @property
    def last(self) -> SourceMessage:
        return self.messages[-1]


def session_source(app: Memdesk, session_id: str) -> Source:
    chat = app.sessions.get(session_id)
    messages = tuple(
        SourceMessage(m.id, m.role, m.content, m.created_at)
        for m in app.sessions.messages(session_id, only_unconsolidated=True)
    )
    if not messages:
        hint = "everything it holds is compacted already"
        archive = archived_by(app.store, session_id)
        if archive is not None:
            hint += (
                f": the last run archived the messages as they are, after failed model calls "
                f"(history step #{archive}); `memdesk undo` brings them back while that is the "
                "latest change (or undo it in History), to compact them again"
            )
        raise NotFoundError(f"session {session_id} has no new messages to compact", hint)
    return Source(
        session_id, chat.app_id, messages, chat.last_consolidated_message_id, chat.last_consolidated_at
    )


def transcript_source(app: Memdesk, transcript: Transcript, session_id: str) -> Source:
    """A transcript as if it were logged into ``session_id`` after what that session holds."""
    try:
        chat = app.sessions.get(session_id)
    except NotFoundError:
        app_id, base, base_at, earlier = None, 0, None, ()
    else:
        app_id, base, base_at = chat.app_id, chat.last_consolidated_message_id, chat.last_consolidated_at
        earlier = tuple(
            SourceMessage(m.id, m.role, m.content, m.created_at)
            for m in app.sessions.messages(session_id, only_unconsolidated=True)
        )
    now = app.now()
    imported = tuple(SourceMessage(0, m.role, m.content, m.at or now) for m in transcript.messages)
    return Source(session_id, app_id, earlier + imported, base, base_at, preview_only=True)


def grounding_sources(source: Source, settings: Settings, today: datetime) -> Sources:
    """What the model read, for checking what it wrote: the messages with their times, and
    every system prompt (each ``*_SYSTEM`` of ``llm.prompts``, so a new step's is included)."""
    system = [
        text for name, text in vars(prompts).items() if name.endswith("_SYSTEM") and isinstance(text, str)
    ]
    system.append(prompts.app_memory_system(settings.memory.app_memory_max_chars))
    return Sources(((m.content, m.at) for m in source.messages), today, system)


class Reporter:
    """Step-by-step progress: "step n of m", and the model call number within a long step."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.label = ""
        self.number = 0
        self.total = 0
        self.calls = 0

    def step(self, label: str, number: int) -> None:
        self.label, self.number, self.calls = label, number, 0
        self.progress(label, number, self.total)

    def call(self) -> None:
        self.calls += 1
        if self.calls > 1:  # the step's own report covers its first call
            self.progress(f"{self.label} (model call {self.calls})", self.number, self.total)


class Builder:
    """Runs the enabled steps in order and collects the changes and notes for review."""

    def __init__(
        self,
        app: Memdesk,
        source: Source,
        steps: Steps,
        settings: Settings,
        cancel: CancelToken,
        reporter: Reporter,
        tally: Tally,
    ) -> None:
        self.app = app
        self.source = source
        self.steps = steps
        self.settings = settings
        self.cancel = cancel
        self.reporter = reporter
        self.tally = tally
        self.changes: list[Change] = []
        self.notes: list[str] = []
        self.summary: str | None = None  # reused by the app-memory step for long sessions
        self.step_note = ""
        self.dated: list[tuple[str, str]] = []  # (role, content with absolute dates)
        self.compared: list[str] = []  # the stored facts the changes step compared

    def run(self) -> None:
        enabled = set(self.settings.compaction.steps)
        plan = []
        if enabled & {"working", "timeline"}:
            plan.append("summary")
        if "facts" in enabled:
            plan.append("facts")
        if "app" in enabled and self.source.app_id:
            plan.append("app")
        self.reporter.total = len(plan)
        # Relative dates made absolute once, for the whole and for each timeline part.
        self.dated = dated_turns((m.role, m.content, m.at) for m in self.source.messages)
        transcript = format_transcript(self.dated)
        for number, name in enumerate(plan, 1):
            self.cancel.check()
            self.reporter.step(STEP_LABELS[name], number)
            if name == "summary":
                self._summary(transcript, enabled)
            elif name == "facts":
                self._facts(transcript)
            else:
                self._app_memory(transcript, number)
        self.cancel.check()  # a cancel during the last call still means "write nothing"
        self.changes.append(self._pointer())

    def _step(self, fn: Callable[P, StepResult[T]], *args: P.args, **kwargs: P.kwargs) -> T:
        result = fn(*args, **kwargs)
        self.tally.absorb(result)
        self.step_note = " ".join(result.notes)  # goes on the changes the step's value makes
        return result.value

    # --- summary: working memory and timeline ----------------------------------------

    def _summary(self, transcript: str, enabled: set[str]) -> None:
        messages = self.source.messages
        parts = split_parts(messages) if "timeline" in enabled else [(0, len(messages))]
        if len(parts) > 1:
            texts = [format_transcript(self.dated[start:end]) for start, end in parts]
            notes = self._step(self.steps.summarize_parts, transcript, texts)
        else:
            summary = self._step(self.steps.summarize, transcript)
            notes = PartNotes(summary, [summary])
        self.summary = notes.whole.strip()
        if "working" in enabled:
            self._working(self.summary)
        if "timeline" in enabled:
            self._timeline(parts, [text.strip() for text in notes.parts])

    def _working(self, summary: str) -> None:
        sid = self.source.session_id
        state = self.app.working.state(sid)
        memory = self.settings.memory
        budget = memory.working_memory_max_tokens * CHARS_PER_TOKEN
        previous = state.content if state else ""
        # A live memory the summary does not fully cover keeps its other lines (see carry).
        after = carry_over(previous, summary, budget) if state and state.live else summary
        self.changes.append(
            Change(
                ChangeKind.REPLACE_WORKING,
                f"Replace working memory ({self.app.working.namespace(sid)})",
                self.app.working.namespace(sid),
                previous,
                cut_to_budget(after, memory.working_memory_max_tokens),
                f"Summary of the {len(self.source.messages)} new messages; it replaces working memory "
                f"and stays in the prompt for {memory.working_memory_ttl_days} days."
                + (" Earlier lines it does not cover are kept." if after != summary else ""),
                note=self.step_note,
            )
        )

    def _timeline(self, parts: list[tuple[int, int]], texts: list[str]) -> None:
        """One dated entry per part of the session, so recall can find each part on its own."""
        messages = self.source.messages
        for number, ((_start, end), text) in enumerate(zip(parts, texts, strict=True), 1):
            key = f"ctx_{self.source.session_id}_{uuid.uuid4().hex[:8]}"
            which = f"part {number} of {len(parts)} of the conversation" if len(parts) > 1 else "the summary"
            self.changes.append(
                Change(
                    ChangeKind.ADD_TIMELINE,
                    f"Add timeline entry {key}",
                    key,
                    "",
                    f"[{format_minute(messages[end - 1].at)}] {text}",
                    f"{which.capitalize()} as a dated timeline entry, found later with recall.",
                    note=self.step_note,
                )
            )

    # --- facts -----------------------------------------------------------------------

    def facts_namespace(self) -> str:
        namespace = self.settings.memory.user_namespace
        return f"{namespace}/facts" if namespace else f"sessions/{self.source.session_id}"

    def _facts(self, transcript: str) -> None:
        facts = self._step(self.steps.extract_facts, transcript)
        facts_note = self.step_note
        namespace = self.facts_namespace()
        facts = self._changes(transcript, namespace, facts)
        self.step_note = facts_note
        existing = self.app.documents.text(namespace)
        new = new_facts(existing, facts)
        if new:
            self.changes.append(
                Change(
                    ChangeKind.APPEND_FACTS,
                    facts_title(len(new), namespace),
                    namespace,
                    existing,
                    "\n".join(new),
                    "Lasting facts and preferences from the conversation that are not there yet.",
                    note=self.step_note,
                )
            )
        elif facts:
            self.notes.append(f"Facts: the {len(facts)} facts found are in {namespace} already.")
        elif any(change.kind in FACT_CHANGES for change in self.changes):
            self.notes.append("Facts: nothing new to add beyond the changes to stored facts.")
        else:
            self.notes.append("Facts: the conversation holds no lasting facts.")

    def _changes(self, transcript: str, namespace: str, facts: list[str]) -> list[str]:
        """Propose what the conversation changes in stored facts; returns the facts to add:
        ``facts`` without the statements a change carries, with the new statements of change."""
        said = said_in(
            [
                (role, content, m.at)
                for (role, content), m in zip(self.dated, self.source.messages, strict=True)
            ]
        )
        if self.settings.llm.backend == "offline":
            known = known_facts(self.app, said, namespace, self.source.app_id)
        else:
            recalled = self.settings.compaction.change_candidates
            known = model_candidates(self.app, said, namespace, self.source.app_id, recalled)
        if not said:
            return facts
        self.compared = [fact.text for fact in known]
        self.cancel.check()
        edits = self._step(self.steps.find_changes, transcript, said, known)
        found = to_changes(edits, known, memory_apps(self.app, known))
        for change in found.changes:
            change.note = self.step_note
        self.changes += found.changes
        self.notes += found.notes
        if self.step_note:
            self.notes.append(self.step_note)
        # A statement that changed a stored fact is not added to the facts as well.
        reasons = [fact_key(change.reason) for change in found.changes]
        kept = [fact for fact in facts if not any(fact_key(fact) in reason for reason in reasons)]
        added = kept + found.additions
        if self.settings.llm.backend == "offline" and self.settings.compaction.learned_reader:
            self._learned(said, namespace, known, edits)
        return added

    def _learned(self, said: list[Said], namespace: str, known: list[Known], decided: list[Edit]) -> None:
        """The learned reader's suggestions for the lines no rule ``decided``. Asked last, so a
        rule's sure change is never left to a suggestion, and a suggestion (a quote, not a change
        the person has accepted) never keeps the statement it quotes from being added."""
        learned = learned_suggestions(self.app, said, namespace, self.source.app_id, known, decided)
        every = [*known, *learned.known]
        found = to_changes(learned.edits, every, memory_apps(self.app, every))
        for change in found.changes:
            change.note = self.step_note
        self.changes += found.changes
        self.notes += learned.notes + found.notes

    # --- app memory and the compaction decision ---------------------------------------

    def _app_memory(self, transcript: str, number: int) -> None:
        app_id = self.source.app_id
        assert app_id is not None
        record = self._step(self.steps.make_app_memory, transcript, self.summary)
        if record is None:
            self.notes.append("App memory: the reply was too short to keep (under 10 characters).")
            return
        cap = self.settings.memory.app_memory_cap
        live = sorted(
            self.app.apps.memories(app_id, include_expired=False), key=lambda m: (m.created_at, m.id)
        )
        add = Change(
            ChangeKind.ADD_APP_MEMORY,
            f"Add a memory to app {app_id}",
            app_id,
            "",
            record,
            f"One record of this conversation for later ones in {app_id}.",
            note=self.step_note,
        )
        if len(live) + 1 <= cap:
            self.changes.append(add)
            return
        self.cancel.check()
        self.reporter.step(DECISION_LABEL, number)
        decision = self._step(self.steps.decide_compaction, [(m.id, m.content) for m in live], record, None)
        target = next(m for m in live if m.id == decision.target_id)
        if decision.action == "edit":
            assert decision.new_content is not None
            self.changes.append(
                Change(
                    ChangeKind.EDIT_APP_MEMORY,
                    f"Merge the new memory into memory {target.id} of app {app_id}",
                    app_id,
                    target.content,
                    decision.new_content,
                    f"{decision.reason} The new memory is not kept on its own: “{record}”",
                    memory_id=target.id,
                    note=self.step_note,
                )
            )
        else:
            self.changes += [add, _removal(target.id, target.content, app_id, decision.reason)]
        # Still over the cap (it was lowered, say): the oldest others go too, as apply would.
        over = len(live) - cap
        others = [m for m in live if m.id != target.id][: max(over, 0)]
        self.changes += [
            _removal(m.id, m.content, app_id, f"{app_id} is over its cap of {cap}; the oldest memory goes.")
            for m in others
        ]

    # --- the pointer ---------------------------------------------------------------------

    def _pointer(self) -> Change:
        source = self.source
        before = (
            f"Compacted up to {format_minute(source.base_consolidated_at)} UTC."
            if source.base_consolidated_at
            else "Nothing compacted yet."
        )
        count = len(source.messages)
        return Change(
            ChangeKind.ADVANCE_POINTER,
            f"Mark {count} {'message' if count == 1 else 'messages'} of {source.session_id} as compacted",
            source.session_id,
            before,
            f"Compacted up to {format_minute(source.last.at)} UTC ({count} more messages).",
            "Rejecting this leaves the messages to be compacted again next time.",
        )


def _removal(memory_id: int, content: str, app_id: str, reason: str) -> Change:
    return Change(
        ChangeKind.DELETE_APP_MEMORY,
        f"Move memory {memory_id} of app {app_id} to Trash",
        app_id,
        content,
        "",
        reason,
        memory_id=memory_id,
    )


def fact_key(line: str) -> str:
    """Lines that differ only in a list marker, case, spacing or final punctuation match."""
    return dedupe_key(_BULLET.sub("", line))


def new_facts(existing: str, facts: Sequence[str]) -> list[str]:
    """``facts`` not already in the document ``existing`` (nor repeated among themselves)."""
    known = {fact_key(line) for line in existing.splitlines()}
    fresh: list[str] = []
    for fact in facts:
        key = fact_key(fact)
        if key and key not in known:
            known.add(key)
            fresh.append(_BULLET.sub("", fact).strip())
    return fresh
