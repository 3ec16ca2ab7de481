"""The compaction steps the pipeline calls, with a model (LLMSteps) or without (OfflineSteps).

Transcripts are plain text in the ``role: text`` form of ``memdesk.llm.transcript``.
Every step returns a StepResult recording the model calls made, tokens and time taken.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from memdesk.config import Settings
from memdesk.core.tokens import CHARS_PER_TOKEN, estimate_tokens
from memdesk.errors import BadInputError, LLMError
from memdesk.llm import failures, prompts
from memdesk.llm.base import ChatBackend, make_backend
from memdesk.llm.changes import Edit, Known, Said
from memdesk.llm.chunking import group_to_fit, runs_to_fit, split_to_fit
from memdesk.llm.evidence import Spoken, doubt
from memdesk.llm.offline import OfflineSteps
from memdesk.llm.replies import (
    NEEDS_EXISTING,
    BadReply,
    Shaped,
    check_prose,
    fifo_decision,
    parse_changes,
    parse_decision,
    shape_app_memory,
    shape_facts,
    shape_part_notes,
    shape_summary,
)
from memdesk.llm.results import Decision, PartNotes, StepResult
from memdesk.llm.sure import offline_edits
from memdesk.llm.text import clip_at_word, dedupe_key

T = TypeVar("T")

# Room kept for the words wrapped around the material and for estimates that run low
# (code and non-English text take more than four characters per token).
_WRAPPER_TOKENS = 64
_SAFETY_SHARE = 0.1
_MIN_PART_TOKENS = 256
# Notes are asked to be about a fifth of their material: parts share one call only while
# their notes can all fit one reply.
_MATERIAL_PER_NOTE_TOKEN = 5
# A reply of the wrong shape is asked for once more before the step counts as failed.
_ATTEMPTS = 2


class Steps(Protocol):
    """What the compaction pipeline needs; LLM failures raise LLMError, except in
    ``decide_compaction``, which falls back to FIFO instead, and ``find_changes``, which
    falls back to the offline rules. A reply of the wrong shape
    for its step is asked for once more, then counts as a failure."""

    name: str

    def summarize(self, transcript: str) -> StepResult[str]: ...

    def summarize_parts(self, transcript: str, parts: Sequence[str]) -> StepResult[PartNotes]:
        """Notes on ``transcript`` and on each of ``parts`` (consecutive pieces of it)."""
        ...

    def extract_facts(self, transcript: str) -> StepResult[list[str]]: ...

    def make_app_memory(self, transcript: str, summary: str | None = None) -> StepResult[str | None]: ...

    def find_changes(
        self, transcript: str, said: Sequence[Said], known: Sequence[Known]
    ) -> StepResult[list[Edit]]:
        """What the person's sentences ``said`` change in the stored facts ``known``; never
        raises for the model: an unusable reply or a failed call gives the offline rules' result."""
        ...

    def decide_compaction(
        self, existing: Sequence[tuple[int, str]], new_content: str, new_id: int | None
    ) -> StepResult[Decision]: ...


def make_steps(
    settings: Settings, api_key: str | None, wrap: Callable[[ChatBackend], ChatBackend] | None = None
) -> Steps:
    """The steps for ``llm.backend``: offline, or a model behind the configured server
    (seen through ``wrap``, when given, e.g. to count and cancel calls)."""
    backend = make_backend(settings, api_key)
    if backend is None:
        return OfflineSteps(
            app_memory_max_chars=settings.memory.app_memory_max_chars,
            summary_max_chars=settings.memory.working_memory_max_tokens * CHARS_PER_TOKEN,
        )
    return LLMSteps(
        backend if wrap is None else wrap(backend),
        context_window_tokens=settings.compaction.context_window_tokens,
        app_memory_max_chars=settings.memory.app_memory_max_chars,
        summary_max_chars=settings.memory.working_memory_max_tokens * CHARS_PER_TOKEN,
    )


class LLMSteps:
    """Each step as one model call, or several when the transcript exceeds the context."""

    def __init__(
        self,
        backend: ChatBackend,
        *,
        context_window_tokens: int,
        app_memory_max_chars: int = 200,
        summary_max_chars: int = 4000,
    ) -> None:
        self.backend = backend
        self.name = backend.name
        self.context_window_tokens = context_window_tokens
        self.app_memory_max_chars = app_memory_max_chars
        self.summary_max_chars = summary_max_chars

    def summarize(self, transcript: str) -> StepResult[str]:
        meter = _Meter(self.backend)
        return meter.result(self._shaped_summary(transcript, meter))

    def summarize_parts(self, transcript: str, parts: Sequence[str]) -> StepResult[PartNotes]:
        """As many parts per call as the context and one reply's notes allow; the whole from
        the transcript when it fits one call, else by merging the parts' notes (the
        transcript is not read twice)."""
        meter = _Meter(self.backend)
        notes = self._part_notes(parts, meter)
        if estimate_tokens(transcript) <= self.part_tokens(prompts.SUMMARY_SYSTEM):
            whole = self._summary(transcript, meter)
        else:
            whole = self._merged(notes, meter)
        return meter.result(PartNotes(meter.keep(shape_summary(whole, self.summary_max_chars)), notes))

    def _part_notes(self, parts: Sequence[str], meter: _Meter) -> list[str]:
        notes: list[str] = []
        reply_room = self.backend.max_tokens * _MATERIAL_PER_NOTE_TOKEN
        budget = min(self.part_tokens(prompts.PARTS_SYSTEM), reply_room)
        for run in runs_to_fit(parts, budget):
            numbered = [(number + 1, parts[number]) for number in run]
            together = self._notes_together(numbered, meter) if len(numbered) > 1 else None
            if together is None:
                together = [self._shaped_summary(part, meter) for _number, part in numbered]
            notes += together
        return notes

    def _notes_together(self, numbered: list[tuple[int, str]], meter: _Meter) -> list[str] | None:
        """Several parts' notes from one call; None when the reply does not keep them apart
        (the parts are then asked for one by one)."""
        reply = meter.ask(prompts.PARTS_SYSTEM, prompts.parts_message(numbered))
        numbers = [number for number, _part in numbered]
        try:
            return meter.keep(shape_part_notes(reply, numbers, self.summary_max_chars))
        except BadReply:
            return None

    def _shaped_summary(self, transcript: str, meter: _Meter) -> str:
        return meter.keep(shape_summary(self._summary(transcript, meter), self.summary_max_chars))

    def extract_facts(self, transcript: str) -> StepResult[list[str]]:
        meter = _Meter(self.backend)
        parts = split_to_fit(transcript, self.part_tokens(prompts.FACTS_SYSTEM))
        facts: list[str] = []
        seen: set[str] = set()
        for number, part in enumerate(parts, 1):
            message = prompts.conversation_message(part, number, len(parts))
            for fact in meter.ask_for("facts", prompts.FACTS_SYSTEM, message, shape_facts):
                if dedupe_key(fact) not in seen:
                    seen.add(dedupe_key(fact))
                    facts.append(fact)
        return meter.result(facts)

    def make_app_memory(self, transcript: str, summary: str | None = None) -> StepResult[str | None]:
        """One record from the conversation; from ``summary`` (made by the summary step, or
        made here) when the conversation is too long to send whole."""
        meter = _Meter(self.backend)
        system = prompts.app_memory_system(self.app_memory_max_chars)
        if estimate_tokens(transcript) <= self.part_tokens(system):
            message = prompts.conversation_message(transcript)
        else:
            message = prompts.summary_message(summary or self._summary(transcript, meter))
        max_chars = self.app_memory_max_chars
        record = meter.ask_for("app memory", system, message, lambda r: shape_app_memory(r, max_chars))
        return meter.result(record)

    def find_changes(
        self, transcript: str, said: Sequence[Said], known: Sequence[Known]
    ) -> StepResult[list[Edit]]:
        """One call per part of the conversation with the numbered candidates (several when
        they do not fit one call with it); the offline rules when there is nothing to compare,
        or when a reply or a call fails. Each edit's evidence is checked (``llm.evidence``):
        one that fails is kept, not sure, with the reason."""
        meter = _Meter(self.backend)
        if not known:
            return meter.result(offline_edits(said, known))
        edits: dict[int, Edit] = {}
        additions: list[Edit] = []
        try:
            for group, part, number, parts in self._changes_calls(transcript, known):
                message = prompts.changes_message(part, group, number, parts)
                parsed = parse_changes(meter.ask(prompts.CHANGES_SYSTEM, message), [n for n, _w, _t in group])
                meter.notes += [f"Changes to stored facts: the model's {why}." for why in parsed.refused]
                # a later part of the conversation wins over an earlier one
                edits |= {edit.target: edit for edit in parsed.edits if edit.target is not None}
                additions += [edit for edit in parsed.edits if edit.target is None]
        except LLMError as exc:
            return self._offline_changes(meter, said, known, f"the model call failed: {exc.message}")
        except BadReply as exc:
            return self._offline_changes(meter, said, known, f"the model's reply was unusable: {exc.reason}")
        by_number = {fact.number: fact for fact in known}
        spoken = Spoken.of(transcript, "\n".join(k.text for k in known if k.where == "profile"))
        checked = [_checked(edit, by_number[target], spoken) for target, edit in sorted(edits.items())]
        return meter.result([*checked, *additions])

    def _changes_calls(
        self, transcript: str, known: Sequence[Known]
    ) -> list[tuple[list[tuple[int, str, str]], str, int, int]]:
        """(candidates, part of the conversation, part number, parts) for each call: the
        candidates in groups that leave at least half of a call to the conversation, each
        group with every part of it."""
        listed = [(fact.number, _listed_where(fact), fact.text) for fact in known]
        room = self.part_tokens(prompts.CHANGES_SYSTEM)
        lines = [f"{number}. ({where}) {text}\n" for number, where, text in listed]
        runs = runs_to_fit(lines, room // 2)
        groups = [[listed[i] for i in run] for run in runs]
        largest = max(estimate_tokens("".join(lines[run.start : run.stop])) for run in runs)
        parts = split_to_fit(transcript, max(room - largest, room // 4))
        return [(group, part, n, len(parts)) for group in groups for n, part in enumerate(parts, 1)]

    @staticmethod
    def _offline_changes(
        meter: _Meter, said: Sequence[Said], known: Sequence[Known], why: str
    ) -> StepResult[list[Edit]]:
        meter.notes.append(
            f"Changes to stored facts: {why}; the offline rules' changes are proposed instead."
        )
        return meter.result(offline_edits(said, known))

    def decide_compaction(
        self, existing: Sequence[tuple[int, str]], new_content: str, new_id: int | None
    ) -> StepResult[Decision]:
        if not existing:
            raise BadInputError(NEEDS_EXISTING)
        meter = _Meter(self.backend)
        message = prompts.decision_message(existing, new_content, new_id)
        if estimate_tokens(message) > self.part_tokens(prompts.DECISION_SYSTEM):
            return meter.result(fifo_decision(existing, "the memories do not fit the model's context"))
        for _attempt in range(_ATTEMPTS):
            try:
                reply = meter.ask(prompts.DECISION_SYSTEM, message)
            except LLMError as exc:
                return meter.result(fifo_decision(existing, f"the model call failed: {exc.message}"))
            # An unusable decision already carries the FIFO fallback; asking again may do better.
            decision = parse_decision(reply, existing, new_id)
            if not decision.fallback:
                break
        if decision.new_content is not None:
            clipped = clip_at_word(decision.new_content, self.app_memory_max_chars)
            if clipped != " ".join(decision.new_content.split()):
                meter.notes.append(
                    f"The model's merged text was {len(decision.new_content):,} characters; it was cut "
                    f"to the limit of {self.app_memory_max_chars:,}."
                )
            decision = dataclasses.replace(decision, new_content=clipped)
        return meter.result(decision)

    def part_tokens(self, system: str) -> int:
        """How much material one call with ``system`` can carry, leaving room for the reply."""
        window = self.context_window_tokens
        room = (
            window
            - int(window * _SAFETY_SHARE)
            - estimate_tokens(system)
            - _WRAPPER_TOKENS
            - self.backend.max_tokens
        )
        if room < _MIN_PART_TOKENS:
            raise LLMError(
                f"A context window of {window} tokens leaves no room for the conversation once "
                f"the prompt and a reply of {self.backend.max_tokens} tokens are counted.",
                self.backend.name,
                "Raise compaction.context_window_tokens to match the model, or lower llm.max_tokens.",
            )
        return room

    def _summary(self, transcript: str, meter: _Meter) -> str:
        parts = split_to_fit(transcript, self.part_tokens(prompts.SUMMARY_SYSTEM))
        notes = [
            meter.ask_for(
                "summary",
                prompts.SUMMARY_SYSTEM,
                prompts.conversation_message(part, number, len(parts)),
                _prose,
            )
            for number, part in enumerate(parts, 1)
        ]
        return self._merged(notes, meter)

    def _merged(self, notes: list[str], meter: _Meter) -> str:
        """Partial notes merged in rounds until one set is left."""
        budget = self.part_tokens(prompts.MERGE_SYSTEM)
        while len(notes) > 1:
            notes = [
                meter.ask_for("summary", prompts.MERGE_SYSTEM, prompts.notes_message(group), _prose)
                if len(group) > 1
                else group[0]
                for group in group_to_fit(notes, budget)
            ]
        return notes[0]


def _listed_where(fact: Known) -> str:
    """Where a candidate is stored, as the changes prompt names it: an entry with its key."""
    return f"entry {fact.ref}" if fact.where == "entry" else fact.where


def _checked(edit: Edit, fact: Known, spoken: Spoken) -> Edit:
    """The edit, not sure and saying why when what the person said speaks against it."""
    reason = doubt(edit, fact.text, spoken, note=fact.where in ("entry", "app"))
    return dataclasses.replace(edit, sure=False, why=reason) if reason else edit


def _prose(reply: str) -> Shaped[str]:
    """Partial notes: prose, uncut (the whole summary is cut to its budget at the end)."""
    return Shaped(check_prose(reply, "notes in prose"))


class _Meter:
    """Counts the calls, tokens and time one step spends."""

    def __init__(self, backend: ChatBackend) -> None:
        self.backend = backend
        self.calls = 0
        self.tokens_in = 0
        self.tokens_out = 0
        self.estimated = False
        self.notes: list[str] = []
        self.started = time.perf_counter()

    def ask(self, system: str, user: str) -> str:
        self.calls += 1  # counted before the call: a failed call was still made
        reply = self.backend.complete(system, user)
        self.tokens_in += reply.tokens_in
        self.tokens_out += reply.tokens_out
        self.estimated = self.estimated or reply.estimated
        # A model that never stops is held by the token limit; the change says its end is missing.
        cut = (
            f"The model's reply reached the limit of {self.backend.max_tokens:,} tokens "
            "(llm.max_tokens) and was cut there, so its end is missing."
        )
        if reply.cut_off and cut not in self.notes:
            self.notes.append(cut)
        return reply.text

    def ask_for(self, step: str, system: str, user: str, shape: Callable[[str], Shaped[T]]) -> T:
        """Ask until the reply has the step's shape, at most twice; LLMError after that."""
        problem = ""
        for _attempt in range(_ATTEMPTS):
            try:
                return self.keep(shape(self.ask(system, user)))
            except BadReply as exc:
                problem = exc.reason
        raise failures.bad_reply(self.backend.name, step, problem)

    def keep(self, shaped: Shaped[T]) -> T:
        """The value, with its note (if something was cut) kept for the step's result."""
        if shaped.note:
            self.notes.append(shaped.note)
        return shaped.value

    def result(self, value: T) -> StepResult[T]:
        return StepResult(
            value,
            self.calls,
            self.tokens_in,
            self.tokens_out,
            self.estimated,
            time.perf_counter() - self.started,
            tuple(self.notes),
        )
