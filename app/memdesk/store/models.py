"""Typed SQLAlchemy 2 models. Times are naive UTC. Rows are soft-deleted via ``deleted_at``."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Meta(Base):
    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Document(Base):
    """A markdown document per namespace (``user/profile``, ``global``, ``sessions/x``...)."""

    __tablename__ = "documents"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    namespace: Mapped[str] = mapped_column(String(300), unique=True)
    content: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)


class DocumentPiece(Base):
    """A paragraph or bullet of a document: the unit recall ranks. Derived, never edited."""

    __tablename__ = "document_pieces"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)


class App(Base):
    __tablename__ = "apps"
    app_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(200), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime)


def _partial(name: str, column: str) -> Index:
    """An index of only the rows where ``column`` is set: few rows, found without a scan."""
    # SQLite only: naming another dialect here would load it at every start (30 ms), and
    # PostgreSQL's b-tree over the column serves the same queries.
    return Index(name, column, sqlite_where=text(f"{column} IS NOT NULL"))


class AppMemory(Base):
    __tablename__ = "app_memories"
    __table_args__ = (
        Index("ix_app_memories_app_live", "app_id", "deleted_at", "updated_at"),
        # Covers the per-app live and total counts (the sidebar, at thousands of apps).
        Index("ix_app_memories_counts", "app_id", "deleted_at", "expires_at", "pinned"),
        _partial("ix_app_memories_expires", "expires_at"),
        _partial("ix_app_memories_deleted", "deleted_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    app_id: Mapped[str] = mapped_column(ForeignKey("apps.app_id", ondelete="CASCADE"))
    content: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)
    importance: Mapped[int | None] = mapped_column(Integer, default=None)
    tags: Mapped[str] = mapped_column(Text, default="")  # space-separated
    source_session: Mapped[str | None] = mapped_column(String(300), default=None)


class Entry(Base):
    """A knowledge or timeline entry (unique key)."""

    __tablename__ = "entries"
    __table_args__ = (
        Index("ix_entries_category_created", "category", "created_at"),
        Index("ix_entries_category_updated", "category", "updated_at"),
        _partial("ix_entries_expires", "expires_at"),
        _partial("ix_entries_deleted", "deleted_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(300), unique=True)
    content: Mapped[str] = mapped_column(Text)
    category: Mapped[str] = mapped_column(String(20), default="knowledge")
    importance: Mapped[float] = mapped_column(Float, default=0.5)
    session_id: Mapped[str | None] = mapped_column(String(300), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)


class ChatSession(Base):
    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(String(300), primary_key=True)
    channel: Mapped[str] = mapped_column(String(64))
    app_id: Mapped[str | None] = mapped_column(String(200), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    last_message_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    last_consolidated_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    last_consolidated_message_id: Mapped[int] = mapped_column(Integer, default=0)
    failure_count: Mapped[int] = mapped_column(Integer, default=0)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class Message(Base):
    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    content: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class HistoryStep(Base):
    """One user action; undo and redo work a whole step at a time."""

    __tablename__ = "history_steps"
    # One assistant's changes (`history --actor`, the Assistants page) without a scan.
    __table_args__ = (Index("ix_history_steps_actor", "actor", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)
    actor: Mapped[str] = mapped_column(String(40))
    label: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(12), default="done")  # done|undone|discarded|final


class HistoryChange(Base):
    """A row's state before and after a step, as JSON; NULL means the row did not exist."""

    __tablename__ = "history_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    step_id: Mapped[int] = mapped_column(ForeignKey("history_steps.id", ondelete="CASCADE"), index=True)
    table_name: Mapped[str] = mapped_column(String(40))
    item_key: Mapped[str] = mapped_column(String(300))
    before: Mapped[str | None] = mapped_column(Text, default=None)
    after: Mapped[str | None] = mapped_column(Text, default=None)
    redacted: Mapped[bool] = mapped_column(Boolean, default=False)
    __table_args__ = (Index("ix_history_changes_item", "table_name", "item_key"),)


class CompactionRun(Base):
    __tablename__ = "compaction_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str | None] = mapped_column(String(300), default=None)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    backend: Mapped[str] = mapped_column(String(40))
    model: Mapped[str] = mapped_column(String(200), default="")
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
    calls: Mapped[int] = mapped_column(Integer, default=0)
    tokens_in: Mapped[int] = mapped_column(Integer, default=0)
    tokens_out: Mapped[int] = mapped_column(Integer, default=0)
    tokens_estimated: Mapped[bool] = mapped_column(Boolean, default=False)
    outcome: Mapped[str] = mapped_column(String(20))  # proposed|applied|failed|degraded|cancelled
    message: Mapped[str] = mapped_column(Text, default="")
    history_step_id: Mapped[int | None] = mapped_column(Integer, default=None)


class ApiToken(Base):
    """A named bearer token for the local HTTP servers; only its SHA-256 is kept."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class AgentClient(Base):
    """An assistant that connected over MCP: when first and last, and how many calls it made.

    Bookkeeping, not memory: history neither records nor undoes it.
    """

    __tablename__ = "agent_clients"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)  # the actor, e.g. mcp:claude-code
    first_seen: Mapped[datetime] = mapped_column(DateTime)
    last_seen: Mapped[datetime] = mapped_column(DateTime)
    calls: Mapped[int] = mapped_column(Integer, default=0)


class HeldWrite(Base):
    """An assistant's write that waits for the person's review; nothing an assistant reads sees it.

    ``operation`` and ``arguments`` (JSON) say what approving it does; ``target`` where it
    goes, ``content`` the text a reviewer reads. Approving applies it and marks it approved
    in the same step; rejecting moves it to Trash (``deleted_at``); undo reverses either.
    """

    __tablename__ = "held_writes"
    __table_args__ = (Index("ix_held_writes_state", "state", "deleted_at", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    operation: Mapped[str] = mapped_column(String(30))
    target: Mapped[str] = mapped_column(String(300))
    content: Mapped[str] = mapped_column(Text, default="")
    arguments: Mapped[str] = mapped_column(Text, default="{}")
    reasons: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of sentences
    state: Mapped[str] = mapped_column(String(12), default="pending")  # pending|approved
    decided_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class AssistantTrust(Base):
    """The trust level the person gave one assistant (``mcp:…`` or ``api:…``).

    A setting, not memory: history neither records nor undoes it. An assistant without a row
    has the level of ``agents.default_trust``.
    """

    __tablename__ = "assistant_trust"
    actor: Mapped[str] = mapped_column(String(40), primary_key=True)
    level: Mapped[str] = mapped_column(String(20))
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class PrivateItem(Base):
    """An app, entry or document the person keeps from every assistant.

    Named as the command line names it (``app:NAME``, ``entry:KEY``, ``doc:NAMESPACE``), so
    the mark stays with the name through Trash and back. Memory: marking and unmarking are
    history steps, undoable like any change.
    """

    __tablename__ = "private_items"
    target: Mapped[str] = mapped_column(String(320), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class AssistantApp(Base):
    """One app an assistant may read; an assistant with no rows may read every app.

    A setting, not memory, like ``AssistantTrust``: history neither records nor undoes it.
    The app need not exist yet: the limit applies when it appears.
    """

    __tablename__ = "assistant_apps"
    actor: Mapped[str] = mapped_column(String(40), primary_key=True)
    app_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class SourceFile(Base):
    """How far an assistant's transcript file has been read into its session.

    Bookkeeping, not memory: written in the transaction of the messages it produced, so a
    crash never reads a line twice; history neither records nor undoes it, so an undone
    import is not read again.
    """

    __tablename__ = "source_files"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True)
    source: Mapped[str] = mapped_column(String(40))  # claude-code, codex, pi
    session_id: Mapped[str] = mapped_column(String(300))
    read_to: Mapped[int] = mapped_column(BigInteger, default=0)  # bytes read, always at a line's end
    size: Mapped[int] = mapped_column(BigInteger, default=0)  # the file's size and time when read
    mtime_ns: Mapped[int] = mapped_column(BigInteger, default=0)
    fingerprint: Mapped[str] = mapped_column(String(64), default="")  # first line: a rewrite changes it
    pending: Mapped[str] = mapped_column(Text, default="{}")  # tool calls still waiting for their result
    synced_at: Mapped[datetime] = mapped_column(DateTime)


class AssistantRead(Base):
    """One read by an assistant: who, when and through which tool; what it got is in
    ``AssistantReadItem``. References only, never the text read.

    Bookkeeping, not memory: history neither records nor undoes it, and rows older than the
    setting ``agents.read_log_retention_days`` are pruned as new ones are written.
    """

    __tablename__ = "assistant_reads"
    __table_args__ = (
        # One assistant's reads, newest first (the Reads tab, `memdesk access log`), from the
        # index alone: read backwards, it is already in the listing's order (time, then id),
        # so the newest come first without sorting the assistant's whole log.
        Index("ix_assistant_reads_newest", "actor", "at", "id", "tool"),
        Index("ix_assistant_reads_at", "at"),  # pruning by age
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)
    actor: Mapped[str] = mapped_column(String(40))
    tool: Mapped[str] = mapped_column(String(40))


class AssistantReadItem(Base):
    """One item a read returned: its ``ItemKind`` and the key, id or namespace that finds it."""

    __tablename__ = "assistant_read_items"
    # Who last read an item, and the reads of items whose reference starts with some text. On
    # SQLite the rows are stored in key order: a read's items are found in one lookup.
    __table_args__ = (
        Index("ix_assistant_read_items_ref", "ref", "kind", "read_id"),
        {"sqlite_with_rowid": False},
    )
    read_id: Mapped[int] = mapped_column(
        ForeignKey("assistant_reads.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    ref: Mapped[str] = mapped_column(String(320))


class HealthFact(Base):
    """What Memory health knows of one live fact (an entry, an app memory, a line of a facts
    document): a slot it fills and its value, one row per claim (none: ``slot`` NULL), and a
    signature of its words. Derived from the facts as History shows them changed; history neither records nor
    restores it.
    """

    __tablename__ = "health_facts"
    __table_args__ = (
        Index("ix_health_facts_owner", "owner"),
        Index("ix_health_facts_slot", "slot"),
        Index("ix_health_facts_signature", "signature"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner: Mapped[str] = mapped_column(String(40))  # the row it is in: entry:12, memory:7, document:3
    fact: Mapped[str] = mapped_column(String(80))  # the owner, or for a line the owner and the line's hash
    slot: Mapped[str | None] = mapped_column(String(80), default=None)
    value: Mapped[str] = mapped_column(String(200), default="")  # the slot's value, normalised
    past: Mapped[bool] = mapped_column(Boolean, default=False)  # the fact says it no longer holds
    slots: Mapped[int] = mapped_column(Integer, default=0)  # how many slots the fact fills
    signature: Mapped[str] = mapped_column(String(16))


class HealthFinding(Base):
    """Two live facts that disagree (``conflict``) or say the same (``duplicate``).

    ``first_text`` and ``second_text`` are the facts as found: a finding whose fact has since
    changed or gone is not shown. A fix or an ignore sets ``state`` in the fix's history step,
    so undoing it shows the finding again.
    """

    __tablename__ = "health_findings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pair: Mapped[str] = mapped_column(String(40), unique=True)  # the two facts and their texts, hashed
    kind: Mapped[str] = mapped_column(String(12))  # conflict | duplicate
    slot: Mapped[str] = mapped_column(String(80), default="")
    first: Mapped[str] = mapped_column(String(80))
    first_text: Mapped[str] = mapped_column(Text)
    second: Mapped[str] = mapped_column(String(80))
    second_text: Mapped[str] = mapped_column(Text)
    found_at: Mapped[datetime] = mapped_column(DateTime)
    state: Mapped[str] = mapped_column(String(12), default="open")  # open | ignored | fixed


TRACKED_MODELS: tuple[type[Base], ...] = (
    Document,
    App,
    AppMemory,
    Entry,
    ChatSession,
    Message,
    HeldWrite,
    PrivateItem,
    HealthFinding,
)
# The tables whose rows hold facts (Memory health), and the name a fact's owner gives each.
FACT_TABLES: dict[str, str] = {
    Entry.__tablename__: "entry",
    AppMemory.__tablename__: "memory",
    Document.__tablename__: "document",
}
