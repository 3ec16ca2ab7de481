"""Review: assistants' writes pass a gate; the ones their trust level says to review wait here.

Every write an assistant makes (through the MCP server or the admin API) is a ``Write``
handed to ``Review.submit``. The person's own writes go straight through; an assistant's
is refused (read-only), held, or applied, by the rule in ``memdesk.core.trust``. A held
write is a row of its own, so nothing an assistant reads — the prompt, recall, its tools —
sees it until the person approves it; approving applies it through the same services as
any other write, as one history step that one undo reverts.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind
from memdesk.core.namespaces import check_namespace, check_session_id, is_working
from memdesk.core.records import KNOWLEDGE
from memdesk.core.trust import ALWAYS_IN_PROMPT, TrustLevel, hold_reasons, is_assistant
from memdesk.errors import (
    BadInputError,
    ChangedSinceHeldError,
    ConflictError,
    MemdeskError,
    NotAllowedError,
    NotFoundError,
    UnseenChange,
)
from memdesk.services.apps import MemoryRow, check_app_id
from memdesk.services.context import MAX_DOCUMENT_CHARS, MAX_ENTRY_CHARS, check_text
from memdesk.services.entries import check_category, check_entry_importance, check_key
from memdesk.services.sessions import check_role
from memdesk.store.models import AppMemory, Document, Entry, HeldWrite
from memdesk.store.snapshots import column_values

if TYPE_CHECKING:
    from memdesk.services.health import Fact
    from memdesk.services.memdesk import Memdesk

log = logging.getLogger(__name__)

HELD_WRITES = HeldWrite.__tablename__  # History's name for a held write's changes
# The first page of the Review list; the window loads further pages as it scrolls.
PAGE = 200


class Operation(StrEnum):
    SAVE_ENTRY = "save_entry"
    FORGET_ENTRY = "forget_entry"
    SET_WORKING = "set_working"
    APPEND_DOCUMENT = "append_document"
    ADD_APP_MEMORY = "add_app_memory"
    DELETE_APP_MEMORY = "delete_app_memory"
    EDIT_APP_MEMORY = "edit_app_memory"
    PURGE_APP = "purge_app"
    LOG_MESSAGE = "log_message"


# Operations that change or remove something that exists: approving checks it still does.
_REPLACES = frozenset(
    {
        Operation.SAVE_ENTRY,
        Operation.FORGET_ENTRY,
        Operation.APPEND_DOCUMENT,
        Operation.DELETE_APP_MEMORY,
        Operation.EDIT_APP_MEMORY,
    }
)
# Operations whose approving replaces or removes text: what is there is kept when the write is
# held, and approving refuses (unless told to replace it) when that text changed meanwhile.
_OVERWRITES = frozenset(
    {
        Operation.SAVE_ENTRY,
        Operation.FORGET_ENTRY,
        Operation.SET_WORKING,
        Operation.DELETE_APP_MEMORY,
        Operation.EDIT_APP_MEMORY,
        Operation.PURGE_APP,
    }
)
# Operations on one memory of an app: the target is the memory's id, its app an argument.
_ONE_MEMORY = frozenset({Operation.DELETE_APP_MEMORY, Operation.EDIT_APP_MEMORY})
# What approving each operation does, in a few words ("Save entry home_city").
_VERBS = {
    Operation.SAVE_ENTRY: "Save entry",
    Operation.FORGET_ENTRY: "Delete entry",
    Operation.SET_WORKING: "Replace",
    Operation.APPEND_DOCUMENT: "Append to",
    Operation.ADD_APP_MEMORY: "Add a memory to",
    Operation.DELETE_APP_MEMORY: "Delete memory",
    Operation.EDIT_APP_MEMORY: "Edit memory",
    Operation.PURGE_APP: "Delete every memory of",
    Operation.LOG_MESSAGE: "Log a message in",
}


@dataclass(frozen=True)
class Write:
    """One write an assistant asks for: what it does, where, the text, and its other arguments.

    Built only through the constructors below, which check every argument the way the
    service that applies it will: a held write is one that can be applied.
    """

    operation: Operation
    target: str  # the key, namespace, app id, memory id or session id it changes
    content: str = ""  # the text that would enter memory ("" for a delete)
    arguments: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def save_entry(
        cls, key: str, content: str, category: str = "knowledge", importance: float | None = None
    ) -> Write:
        key = check_key(key)
        check_text(content, f"content of {key}", MAX_ENTRY_CHARS)
        check_entry_importance(importance)
        arguments = {"category": check_category(category), "importance": importance}
        return cls(Operation.SAVE_ENTRY, key, content, arguments)

    @classmethod
    def forget_entry(cls, key: str) -> Write:
        return cls(Operation.FORGET_ENTRY, check_key(key))

    @classmethod
    def set_working(cls, namespace: str, content: str) -> Write:
        check_text(content, "working memory", MAX_DOCUMENT_CHARS)
        return cls(Operation.SET_WORKING, namespace, content)

    @classmethod
    def append_document(cls, namespace: str, text: str) -> Write:
        namespace = check_namespace(namespace)
        if is_working(namespace):
            raise BadInputError(f"{namespace} is working memory", "use working_memory_set to write it")
        check_text(text, f"text for {namespace}", MAX_DOCUMENT_CHARS)
        return cls(Operation.APPEND_DOCUMENT, namespace, text)

    @classmethod
    def add_app_memory(cls, app_id: str, content: str, max_chars: int) -> Write:
        check_app_id(app_id)
        check_text(content, "memory text", max_chars)
        return cls(Operation.ADD_APP_MEMORY, app_id, content.strip())

    @classmethod
    def delete_app_memory(cls, app_id: str, memory_id: int) -> Write:
        check_app_id(app_id)
        return cls(Operation.DELETE_APP_MEMORY, str(memory_id), arguments={"app": app_id})

    @classmethod
    def edit_app_memory(cls, app_id: str, memory_id: int, content: str, max_chars: int) -> Write:
        check_app_id(app_id)
        check_text(content, "memory text", max_chars)
        return cls(Operation.EDIT_APP_MEMORY, str(memory_id), content.strip(), {"app": app_id})

    @classmethod
    def purge_app(cls, app_id: str) -> Write:
        return cls(Operation.PURGE_APP, check_app_id(app_id))

    @classmethod
    def log_message(cls, session_id: str, role: str, content: str, app_id: str | None = None) -> Write:
        check_session_id(session_id)
        check_role(role)
        check_text(content, "message", MAX_DOCUMENT_CHARS)
        if app_id is not None:
            check_app_id(app_id)
        return cls(Operation.LOG_MESSAGE, session_id, content, {"role": role, "app": app_id})

    @property
    def title(self) -> str:
        """What approving it does, e.g. "Save entry home_city" or "Add a memory to calendar"."""
        if self.operation in _ONE_MEMORY:
            return f"{_VERBS[self.operation]} {self.target} of {self.arguments['app']}"
        return f"{_VERBS[self.operation]} {self.target}"


def decision_label(verb: str, writes: list[Write]) -> str:
    """History's name for deciding held writes: "Approve: Save entry gym", "Reject 2 held writes"."""
    return f"{verb}: {writes[0].title}" if len(writes) == 1 else f"{verb} {len(writes)} held writes"


@dataclass(frozen=True)
class HeldInfo:
    """A held write as the person reviews it."""

    id: int
    actor: str
    created_at: datetime
    write: Write
    reasons: tuple[str, ...]
    state: str  # pending | approved
    decided_at: datetime | None
    rejected: bool  # moved to Trash

    @property
    def pending(self) -> bool:
        return self.state == "pending" and not self.rejected


@dataclass(frozen=True)
class Outcome:
    """What ``submit`` did: applied (``result`` is the service's answer) or held (``held``), and
    the stored facts an assistant's write disagrees with (approving a held one replaces them)."""

    result: Any = None
    held: HeldInfo | None = None
    conflicts: tuple[Fact, ...] = ()


def held_info(row: HeldWrite) -> HeldInfo:
    write = Write(Operation(row.operation), row.target, row.content, json.loads(row.arguments))
    return HeldInfo(
        id=row.id,
        actor=row.actor,
        created_at=row.created_at,
        write=write,
        reasons=tuple(json.loads(row.reasons)),
        state=row.state,
        decided_at=row.decided_at,
        rejected=row.deleted_at is not None,
    )


def recorded_held_info(values: dict[str, Any]) -> HeldInfo:
    """A held write as a History step recorded its row (the values of ``held_writes``)."""
    return held_info(HeldWrite(**column_values(HeldWrite, values)))


def _pending() -> Any:
    return (HeldWrite.state == "pending") & HeldWrite.deleted_at.is_(None)


def instruction_reasons(text: str) -> list[str]:
    """Why the write check holds ``text`` from an assistant (a review-suspicious one, the
    default), each a clause that follows "because": "it tells an assistant to …"."""
    # Loaded with the first write checked: the rules and the detector's features are a
    # server's largest start-up import, and most sessions start by reading.
    from memdesk.core.suspicious import suspicious_reasons

    return [f"it {reason}" for reason in suspicious_reasons(text)]


# Operations whose approving leaves nothing of the text it removes.
_REMOVES = frozenset({Operation.FORGET_ENTRY, Operation.DELETE_APP_MEMORY, Operation.PURGE_APP})


class Review:
    """The gate every assistant's write passes, and the writes it holds for the person."""

    def __init__(self, app: Memdesk) -> None:
        self.app = app
        self.ctx = app.ctx

    # --- the gate ------------------------------------------------------------------------

    def submit(self, write: Write) -> Outcome:
        """Apply ``write`` for whoever acts now, hold it for review, or refuse it."""
        actor = self.ctx.current_actor
        if not is_assistant(actor):
            return Outcome(result=self._apply(write))
        level = self.app.assistants.level(actor)
        if level is TrustLevel.READ_ONLY:
            raise NotAllowedError(
                f"{actor} may only read here: the person set it to read-only, so nothing was written",
                "the person can change that on Memdesk's Assistants page",
            )
        flags = self._flags(write)
        if not flags and level is TrustLevel.REVIEW_SUSPICIOUS:
            flags = self._second_opinion(write)
        reasons = hold_reasons(level, self._always_in_prompt(write), flags)
        conflicts = self._conflicts(write)
        if not reasons:
            return Outcome(result=self._apply(write), conflicts=conflicts)
        return Outcome(held=self._hold(actor, write, reasons, conflicts), conflicts=conflicts)

    def _conflicts(self, write: Write) -> tuple[Fact, ...]:
        """Live facts that fill a slot of the write's text with another value (Memory health's
        rule), less the entry a save or the memory an edit overwrites anyway."""
        operation = write.operation
        if operation is Operation.SAVE_ENTRY:
            checked = write.arguments["category"] == KNOWLEDGE
        elif operation is Operation.APPEND_DOCUMENT:
            checked = self.app.health.holds_facts(write.target)
        else:
            checked = operation in (Operation.ADD_APP_MEMORY, Operation.EDIT_APP_MEMORY)
        if not checked:
            return ()
        found = self.app.health.conflicts_with(write.content)
        overwritten = {Operation.SAVE_ENTRY: ItemKind.ENTRY, Operation.EDIT_APP_MEMORY: ItemKind.APP_MEMORY}
        if operation in overwritten:
            kind = overwritten[operation]
            found = [f for f in found if not (f.kind is kind and f.locator == write.target)]
        return tuple(found)

    def check_compaction(self, suspicious: list[int]) -> None:
        """Refuse an assistant's applying of a compaction its level does not allow.

        A proposal is many writes at once: an assistant whose writes are all reviewed leaves
        it to the person, and only a trusted one may accept changes marked suspicious.
        """
        actor = self.ctx.current_actor
        if not is_assistant(actor):
            return
        level = self.app.assistants.level(actor)
        if level in (TrustLevel.READ_ONLY, TrustLevel.REVIEW_EVERYTHING):
            raise NotAllowedError(
                f"{actor} may not apply compaction here (its trust level is {level.label.lower()})",
                "the person applies it in Memdesk's Compaction page",
            )
        if suspicious and level is not TrustLevel.TRUSTED:
            listed = ", ".join(map(str, suspicious))
            raise NotAllowedError(
                f"change {listed} is marked suspicious; only the person can accept it",
                "apply without it (leave out accept), and the person reviews it in Memdesk",
            )

    def where(self, write: Write) -> str:
        """Which part of the prompt the write would change, in words a person reads."""
        namespace = self.ctx.settings.memory.user_namespace
        operation = write.operation
        if operation is Operation.SAVE_ENTRY:
            return (
                f"your assistant's prompt, when a message brings it up "
                f"({write.arguments['category']} entry {write.target})"
            )
        if operation is Operation.FORGET_ENTRY:
            return f"removes entry {write.target} from recall"
        if operation is Operation.SET_WORKING:
            return f"your assistant's prompt, every time (working memory, {write.target})"
        if operation is Operation.APPEND_DOCUMENT:
            if namespace and write.target == f"{namespace}/profile":
                return f"your assistant's prompt, every time ({write.target})"
            if namespace and write.target in (f"{namespace}/patterns", f"{namespace}/facts"):
                return f"your assistant's prompt, when a message brings it up ({write.target})"
            return f"{write.target} (not in the prompt)"
        if operation is Operation.ADD_APP_MEMORY:
            return f"the memories of app {write.target}"
        if operation is Operation.PURGE_APP:
            return f"removes every memory of app {write.target}"
        if operation is Operation.DELETE_APP_MEMORY:
            return f"removes memory {write.target} from app {write.arguments['app']}"
        if operation is Operation.EDIT_APP_MEMORY:
            return f"the memories of app {write.arguments['app']} (the text of memory {write.target})"
        return f"the conversation log of {write.target} (read by compaction, not the prompt)"

    def _always_in_prompt(self, write: Write) -> bool:
        namespace = self.ctx.settings.memory.user_namespace
        return (
            write.operation is Operation.APPEND_DOCUMENT
            and bool(namespace)
            and write.target in {f"{namespace}/{name}" for name in ALWAYS_IN_PROMPT}
        )

    @staticmethod
    def _flags(write: Write) -> list[str]:
        # A logged message is the conversation itself, not memory: compaction judges what it
        # takes from it. Holding the message would only leave a gap in the log.
        if write.operation is Operation.LOG_MESSAGE or not write.content:
            return []
        return instruction_reasons(write.content)

    def _second_opinion(self, write: Write) -> list[str]:
        """The model's view of text the rules let through, when the person asked for it."""
        settings = self.ctx.settings
        if not settings.agents.model_second_opinion or settings.llm.backend == "offline" or not write.content:
            return []
        if write.operation is Operation.LOG_MESSAGE:
            return []
        from memdesk.llm.base import make_backend
        from memdesk.llm.second_opinion import second_opinion
        from memdesk.services.compaction.backends import api_key_for

        try:
            backend = make_backend(settings, api_key_for(settings.llm.backend))
            reason = second_opinion(backend, write.content) if backend is not None else None
        except MemdeskError as error:  # never required: the detector's verdict stands
            log.warning("no second opinion on a write by %s: %s", self.ctx.current_actor, error.message)
            return []
        return [reason] if reason else []

    def hold(self, actor: str, write: Write, reasons: list[str]) -> HeldInfo:
        """Hold ``write`` for the person's review as ``actor``'s, whoever acts now (compaction
        holds the suspicious text it proposed). Approving it replaces no stored fact; those it
        contradicts now are kept, so approving can tell them from ones written later."""
        return self._hold(actor, write, reasons, (), self._conflicts(write))

    def _hold(
        self,
        actor: str,
        write: Write,
        reasons: list[str],
        replaces: tuple[Fact, ...],
        contradicts: tuple[Fact, ...] = (),
    ) -> HeldInfo:
        with self.ctx.change(f"Hold for review: {write.title}") as session:
            row = HeldWrite(
                actor=actor,
                created_at=self.ctx.now(),
                operation=str(write.operation),
                target=write.target,
                content=write.content,
                arguments=json.dumps(
                    self._arguments_to_keep(write, replaces, contradicts), ensure_ascii=False
                ),
                reasons=json.dumps(reasons, ensure_ascii=False),
                state="pending",
            )
            session.add(row)
            session.flush()
            return held_info(row)

    def _arguments_to_keep(
        self, write: Write, replaces: tuple[Fact, ...], contradicts: tuple[Fact, ...]
    ) -> dict[str, Any]:
        """The write's arguments, whether what it replaces or deletes exists now and its text,
        and the facts it disagrees with (approving replaces those still as they were, and
        leaves those it only ``contradicts``).

        Approving later can then tell "the target was deleted meanwhile" from "it is new", and
        text written since from text that was there.
        """
        arguments = dict(write.arguments)
        if write.operation in _REPLACES:
            arguments["target_existed"] = self._target_exists(write)
        if write.operation in _OVERWRITES:
            arguments["text_before"] = self._text_there(write)
        if replaces:
            arguments["replaces"] = [{"ref": fact.ref, "text": fact.text} for fact in replaces]
        if contradicts:
            arguments["contradicts"] = [{"ref": fact.ref, "text": fact.text} for fact in contradicts]
        return arguments

    def _target_exists(self, write: Write) -> bool:
        with self.ctx.store.read() as session:
            if write.operation is Operation.APPEND_DOCUMENT:
                model: type[Document | Entry | AppMemory] = Document
                condition = Document.namespace == write.target
            elif write.operation in _ONE_MEMORY:
                model, condition = AppMemory, AppMemory.id == int(write.target)
            else:
                model, condition = Entry, Entry.key == write.target
            live = select(func.count()).select_from(model).where(condition, model.deleted_at.is_(None))
            return bool(session.scalar(live))

    # --- applying --------------------------------------------------------------------------

    def _apply(self, write: Write) -> Any:
        app, args = self.app, write.arguments
        match write.operation:
            case Operation.SAVE_ENTRY:
                return app.entries.upsert(write.target, write.content, args["category"], args["importance"])
            case Operation.FORGET_ENTRY:
                return app.entries.delete_key(write.target)
            case Operation.SET_WORKING:
                return app.working.write(write.content)
            case Operation.APPEND_DOCUMENT:
                return app.documents.append(write.target, write.content)
            case Operation.ADD_APP_MEMORY:
                from memdesk.services.decided_add import add_app_memory

                return add_app_memory(app, write.target, write.content)
            case Operation.DELETE_APP_MEMORY:
                return app.apps.delete([self._memory_of_app(write).id])
            case Operation.EDIT_APP_MEMORY:
                return app.apps.edit(self._memory_of_app(write).id, write.content)
            case Operation.PURGE_APP:
                return app.apps.purge(write.target)
            case Operation.LOG_MESSAGE:
                return app.sessions.log(write.target, args["role"], write.content, args.get("app"))

    def _memory_of_app(self, write: Write) -> MemoryRow:
        """The memory a write on one memory names, when it is still its app's and not in Trash."""
        memory = self.app.apps.get(int(write.target))
        if memory.app_id != write.arguments["app"]:
            raise NotFoundError(f"memory {write.target} does not belong to {write.arguments['app']}")
        return memory

    # --- the person's decisions ----------------------------------------------------------------

    def list(self, limit: int = PAGE, offset: int = 0, actor: str | None = None) -> list[HeldInfo]:
        """Writes waiting for review, newest first (only ``actor``'s when given)."""
        query = select(HeldWrite).where(_pending())
        if actor is not None:
            query = query.where(HeldWrite.actor == actor)
        query = query.order_by(HeldWrite.id.desc()).limit(limit).offset(offset)
        with self.ctx.store.read() as session:
            return [held_info(row) for row in session.scalars(query)]

    def count(self, actor: str | None = None) -> int:
        query = select(func.count()).select_from(HeldWrite).where(_pending())
        if actor is not None:
            query = query.where(HeldWrite.actor == actor)
        with self.ctx.store.read() as session:
            return session.scalar(query) or 0

    def get(self, held_id: int) -> HeldInfo:
        with self.ctx.store.read() as session:
            row = session.get(HeldWrite, held_id)
            if row is None:
                raise NotFoundError(f"no held write {held_id}", "see `memdesk review list`")
            return held_info(row)

    def current(self, held: HeldInfo) -> str | None:
        """What the write would replace or remove, as it is now (None: nothing, or new)."""
        return self._text_there(held.write)

    def _text_there(self, write: Write, session: Session | None = None) -> str | None:
        """The text of the write's target now (None: there is none); an app's memories one a
        line. An entry's is read in ``session`` when given (an approval's own transaction)."""
        match write.operation:
            case Operation.SAVE_ENTRY | Operation.FORGET_ENTRY:
                # The text alone: read at every hold and approval, where a whole row costs more.
                live = select(Entry.content).where(Entry.key == write.target, Entry.deleted_at.is_(None))
                if session is not None:
                    return session.scalar(live)
                with self.ctx.store.read() as reading:
                    return reading.scalar(live)
            case Operation.SET_WORKING:
                state = self.app.working.state()
                return state.content if state is not None else None
            case Operation.APPEND_DOCUMENT:
                doc = self.app.documents.get(write.target)
                return doc.content if doc is not None else None
            case Operation.DELETE_APP_MEMORY | Operation.EDIT_APP_MEMORY:
                try:
                    return self.app.apps.get(int(write.target)).content
                except NotFoundError:
                    return None
            case Operation.PURGE_APP:
                memories = sorted(self.app.apps.memories(write.target), key=lambda memory: memory.id)
                return "\n".join(memory.content for memory in memories) or None
        return None

    def unseen_changes(self, held: HeldInfo, write: Write | None = None) -> list[UnseenChange]:
        """What approving ``held`` (as ``write``, when the person edited it) would replace or
        remove that was written after it was held: its target's text, created or changed since,
        and stored facts it contradicts that it did not when it was held."""
        write = write or held.write
        return self._unseen(held, write, self._conflicts(write))

    def changed_since_held(self, held: HeldInfo) -> UnseenChange | None:
        """Its target's text, when it was created or changed since ``held`` was held: what
        approving would replace unseen, as Review marks it before anyone clicks Approve."""
        changes = self._unseen_text(held, held.write)
        return changes[0] if changes else None

    def _unseen(
        self, held: HeldInfo, write: Write, conflicts: tuple[Fact, ...], session: Session | None = None
    ) -> list[UnseenChange]:
        return self._unseen_text(held, write, session) + self._unseen_facts(held, write, conflicts)

    def _unseen_text(
        self, held: HeldInfo, write: Write, session: Session | None = None
    ) -> list[UnseenChange]:
        """The target's text, when it was created or changed since ``held`` was held."""
        if write.operation not in _OVERWRITES:
            return []
        arguments = held.write.arguments
        now = self._text_there(write, session)
        put = "" if write.operation in _REMOVES else write.content
        if "text_before" in arguments:
            changed = now != arguments["text_before"]
        else:  # held before the text was kept: only a target created since shows
            changed = arguments.get("target_existed") is False and now is not None
        if not changed or now is None or now == put:
            return []
        return [UnseenChange(held.id, self._naming(write), now, put)]

    @staticmethod
    def _unseen_facts(held: HeldInfo, write: Write, conflicts: tuple[Fact, ...]) -> list[UnseenChange]:
        """The live facts among ``conflicts`` that ``held`` did not contradict when it was held."""
        arguments = held.write.arguments
        seen = [*(arguments.get("replaces") or []), *(arguments.get("contradicts") or [])]
        stored = {(item["ref"], item["text"]) for item in seen}
        newer = [fact for fact in conflicts if (fact.ref, fact.text) not in stored]
        if not newer:
            return []
        now = "\n".join(fact.text for fact in newer)
        names = ", ".join(fact.name for fact in newer)
        return [UnseenChange(held.id, f"the stored facts it contradicts ({names})", now, write.content)]

    @staticmethod
    def _naming(write: Write) -> str:
        """The target in a few words: "entry train-b", "memory 3 of calendar"."""
        match write.operation:
            case Operation.APPEND_DOCUMENT:
                return f"document {write.target}"
            case Operation.SET_WORKING:
                return f"working memory {write.target}"
            case Operation.DELETE_APP_MEMORY | Operation.EDIT_APP_MEMORY:
                return f"memory {write.target} of {write.arguments['app']}"
            case Operation.PURGE_APP:
                return f"the memories of app {write.target}"
        return f"entry {write.target}"

    def replaces(self, held: HeldInfo) -> list[Fact]:
        """The stored facts a held write replaces when approved: those it disagreed with when it
        was held, still live and as they were."""
        stored = held.write.arguments.get("replaces") or []
        live = self.app.health.facts(item["ref"] for item in stored)
        return [
            live[item["ref"]]
            for item in stored
            if item["ref"] in live and live[item["ref"]].text == item["text"]
        ]

    def approve(self, ids: list[int], edited: str | None = None, replace: bool = False) -> list[int]:
        """Apply held writes; one history step per assistant (recorded as its write). Step ids.

        ``edited`` replaces the text of the one write given. Nothing is applied when any of
        them was decided already, or its target is gone. Nor when one would replace or remove
        text written after it was held (``ChangedSinceHeldError`` says what is there now and
        what it would put), unless ``replace`` is true: then that text is replaced too.
        """
        if edited is not None and len(ids) != 1:
            raise BadInputError("an edited text goes with exactly one held write")
        by_actor: dict[str, list[HeldInfo]] = {}
        pending = self._pending_ones(ids, "approve")
        for held in pending:
            by_actor.setdefault(held.actor, []).append(held)
        # The facts each write contradicts now, found before any step: finding them may first
        # bring Memory health's index up to date, a write of its own.
        conflicts = {held.id: self._conflicts(self._as_approved(held, edited)) for held in pending}
        if not replace and len(by_actor) > 1:  # one step each: refuse before the first is written
            self._refuse_unseen(
                [c for h in pending for c in self._unseen(h, self._as_approved(h, edited), conflicts[h.id])]
            )
        steps: list[int] = []
        for actor, writes in by_actor.items():
            label = decision_label("Approve", [held.write for held in writes])
            with self.ctx.acting_as(actor), self.ctx.change(label) as session:
                plan = []
                for held in writes:
                    row = self._lock_pending(session, held.id, "approve")
                    write = self._as_approved(held, edited)
                    self._check_target(held, write)
                    # Read in this transaction before its first write: what is there now.
                    changes = self._unseen(held, write, conflicts[held.id], session)
                    retired = self.replaces(held)
                    if changes:  # unless refused below, the person chose to replace what is there now
                        retired = list({f.ref: f for f in [*retired, *conflicts[held.id]]}.values())
                    plan.append((row, write, changes, retired))
                if not replace:
                    self._refuse_unseen(
                        [change for _row, _write, changes, _retired in plan for change in changes]
                    )
                for row, write, _changes, retired in plan:
                    if edited is not None:
                        row.content = write.content
                    self._apply(write)
                    self.app.health.retire(session, retired)
                    row.state = "approved"
                    row.decided_at = self.ctx.now()
            step = self.ctx.last_step_id()
            if step is not None:
                steps.append(step)
        return steps

    def approve_all(self, actor: str, replace: bool = False) -> list[int]:
        """Approve every write ``actor`` has waiting (``replace`` as for ``approve``)."""
        ids = [held.id for held in self.list(limit=1_000_000, actor=actor)]
        return self.approve(ids, replace=replace) if ids else []

    def _as_approved(self, held: HeldInfo, edited: str | None) -> Write:
        return held.write if edited is None else self._edited(held.write, edited)

    @staticmethod
    def _refuse_unseen(unseen: list[UnseenChange]) -> None:
        if not unseen:
            return
        ids = list(dict.fromkeys(change.held_id for change in unseen))
        lines = [
            f"held write #{ids[0] if len(ids) == 1 else ', #'.join(map(str, ids))} would replace text "
            "written after it was held, which you have not reviewed; nothing was changed"
        ]
        for change in unseen:
            lines += [
                f"#{change.held_id} {change.what}",
                f"  there now:      {change.now}",
                f"  approving puts: {change.put or '(nothing: it is removed)'}",
            ]
        numbers = " ".join(map(str, ids))
        raise ChangedSinceHeldError(
            "\n".join(lines),
            f"to put it anyway, approve again with replace (`memdesk review approve {numbers} "
            f"--replace`, or replace=True in Python); to keep what is there, reject it "
            f"(`memdesk review reject {numbers}`)",
            tuple(unseen),
        )

    def reject(self, ids: list[int]) -> int:
        """Move held writes to Trash (undo or a restore brings them back to Review); how many."""
        pending = self._pending_ones(ids, "reject")
        with self.ctx.change(decision_label("Reject", [held.write for held in pending])) as session:
            for held in pending:
                self._lock_pending(session, held.id, "reject").deleted_at = self.ctx.now()
        return len(pending)

    def _pending_ones(self, ids: list[int], verb: str) -> list[HeldInfo]:
        if not ids:
            raise BadInputError(f"name at least one held write to {verb}")
        found = [self.get(held_id) for held_id in dict.fromkeys(ids)]
        for held in found:
            self._check_pending(held, verb)
        return found

    @staticmethod
    def _check_pending(held: HeldInfo, verb: str) -> None:
        if held.rejected:
            raise ConflictError(
                f"held write {held.id} was rejected already (it is in Trash); nothing was changed",
                "restore it from Trash to review it again",
            )
        if held.state != "pending":
            raise ConflictError(f"held write {held.id} was approved already; nothing was changed")

    def _lock_pending(self, session: Any, held_id: int, verb: str) -> HeldWrite:
        """The row, read again inside the write: another window may have decided it meanwhile."""
        row = session.get(HeldWrite, held_id)
        if row is None:
            raise NotFoundError(f"held write {held_id} is gone (Trash was emptied)")
        self._check_pending(held_info(row), verb)
        return row

    def _edited(self, write: Write, text: str) -> Write:
        """The write with the person's text instead of the assistant's."""
        rebuilt = {
            Operation.SAVE_ENTRY: lambda: Write.save_entry(
                write.target, text, write.arguments["category"], write.arguments["importance"]
            ),
            Operation.SET_WORKING: lambda: Write.set_working(write.target, text),
            Operation.APPEND_DOCUMENT: lambda: Write.append_document(write.target, text),
            Operation.ADD_APP_MEMORY: lambda: Write.add_app_memory(
                write.target, text, self.ctx.settings.memory.app_memory_max_chars
            ),
            Operation.EDIT_APP_MEMORY: lambda: Write.edit_app_memory(
                write.arguments["app"], int(write.target), text, self.ctx.settings.memory.app_memory_max_chars
            ),
            Operation.LOG_MESSAGE: lambda: Write.log_message(
                write.target, write.arguments["role"], text, write.arguments.get("app")
            ),
        }.get(write.operation)
        if rebuilt is None:
            raise BadInputError(f"a {write.title.lower()} has no text to edit")
        fresh = rebuilt()
        return Write(fresh.operation, fresh.target, fresh.content, {**write.arguments, **fresh.arguments})

    def _check_target(self, held: HeldInfo, write: Write) -> None:
        """Refuse to approve a write whose target was deleted since it was held."""
        if not held.write.arguments.get("target_existed") or self._target_exists(write):
            return
        if write.operation in (Operation.FORGET_ENTRY, Operation.DELETE_APP_MEMORY):
            raise ConflictError(f"{write.target} was deleted meanwhile; nothing was changed")
        raise ConflictError(
            f"the {self._naming(write)} was deleted after {held.actor} wrote this; nothing was changed",
            "restore it from Trash and approve again, or reject this write",
        )
