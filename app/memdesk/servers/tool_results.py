"""The structured results of the MCP tools, as models: each becomes the tool's ``outputSchema``,
and every result is checked against it before it is sent.

A write may be held for the person's review instead of applied, so every write's result has
``held``; a held one carries ``review_id``, ``reasons`` and ``target`` and none of the fields of
an applied write, which are therefore optional.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WriteResult(_Result):
    held: bool = Field(description="true: the write waits for the person's review and is not in memory yet")
    review_id: int | None = Field(None, description="when held: its number in the person's Review list")
    reasons: list[str] | None = Field(None, description="when held: why it waits")
    target: str | None = Field(None, description="when held: where it would go in the prompt")


class StoredFact(_Result):
    """A stored fact a write disagrees with, and what names it."""

    kind: str = Field(description="entry, app_memory or line (a line of a document)")
    key: str | None = Field(None, description="an entry's key")
    id: int | None = Field(None, description="an app memory's id")
    app: str | None = Field(None, description="an app memory's app")
    namespace: str | None = Field(None, description="the document a line is in")
    text: str


class Conflicting(WriteResult):
    conflicts: list[StoredFact] | None = Field(
        None,
        description="stored facts this write disagrees with: replace or forget the one no longer true "
        "(when held: approving replaces them)",
    )


class StoreResult(Conflicting):
    key: str | None = None
    category: str | None = None
    importance: float | None = None


class ForgetResult(WriteResult):
    key: str | None = None
    deleted: bool | None = None


class AppMemoryAddResult(Conflicting):
    app: str | None = None
    id: int | None = None
    merged: bool | None = None
    removed: list[int] | None = None
    reason: str | None = None


class AppMemoryEditResult(Conflicting):
    app: str | None = None
    id: int | None = None
    content: str | None = None
    updated_at: str | None = None


class AppMemoryDeleteResult(WriteResult):
    app: str | None = None
    id: int | None = None
    deleted: bool | None = None


class WorkingSetResult(WriteResult):
    namespace: str | None = None
    content: str | None = None
    expires_at: str | None = None


class AppendResult(Conflicting):
    namespace: str | None = None
    chars: int | None = None


class SessionLogResult(WriteResult):
    session: str | None = None
    id: int | None = None


class RecalledMemory(_Result):
    key: str
    category: str
    content: str


class RecallResult(_Result):
    memories: list[RecalledMemory]


class AppMemory(_Result):
    id: int
    content: str
    created_at: str
    updated_at: str
    importance: float | None = None
    tags: list[str]


class AppMemoriesResult(_Result):
    app: str
    memories: list[AppMemory]
    cap: int


class WorkingResult(_Result):
    content: str
    live: bool
    namespace: str | None = None
    updated_at: str | None = None
    expires_at: str | None = None
    reason: str | None = None


class DocumentResult(_Result):
    namespace: str
    content: str
    updated_at: str | None = None


class PromptItemSource(_Result):
    kind: str
    key: str
    written_by: str | None = Field(None, description="you (the person), compaction, or the assistant")
    written_at: str | None = None
    history_step: int | None = Field(
        None, description="the History step that wrote it; undoing it removes it"
    )


class PromptSection(_Result):
    name: str
    source: str
    included: bool
    tokens: int
    reason: str | None = None
    items: list[PromptItemSource] | None = None


class PromptProject(_Result):
    folder: str
    app: str | None
    trusted: bool
    memory: str | None = Field(description="the project's memory folder, when trusted")


class PromptResult(_Result):
    text: str
    tokens: int
    now: str
    sections: list[PromptSection]
    project: PromptProject | None = Field(None, description="the project it was composed for, if any")


class ProposedChange(_Result):
    id: int
    kind: str
    title: str
    target: str
    before: str | None
    after: str | None
    reason: str
    suspicious: bool
    ungrounded: str = Field(
        "", description="what the text says that the conversation does not; empty if nothing"
    )


class ProposalResult(_Result):
    proposal_id: str
    session: str
    changes: list[ProposedChange]
    notes: list[str]


class ApplyResult(_Result):
    proposal_id: str
    applied: list[int]
    history_step: int | None
