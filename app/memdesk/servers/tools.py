"""What each assistant tool does, without any protocol: plain arguments in, a Reply out.

The MCP server wraps these; tests and other faces can call them directly. Every tool calls
the same services the ``memdesk`` command does. A bad argument raises ArgumentError naming
it; what the settings forbid raises NotAllowedError; either way nothing was written.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdesk.core.items import ItemKind
from memdesk.core.namespaces import check_namespace, check_session_id
from memdesk.core.privacy import OUTSIDE_LIMIT, ReadScope
from memdesk.core.records import MAX_DOCUMENT_CHARS, MAX_ENTRY_CHARS, MAX_NAME_CHARS
from memdesk.core.timefmt import format_iso, parse_moment
from memdesk.errors import ArgumentError, BadInputError, NotAllowedError, NotFoundError
from memdesk.servers.arguments import (
    MAX_PATH_CHARS,
    MAX_PROPOSAL_ID_CHARS,
    MAX_QUERY_CHARS,
    MAX_RECALL_LIMIT,
)
from memdesk.servers.permissions import (
    check_may_add_app_memory,
    check_may_edit_app_memory,
    check_may_forget,
    check_may_write,
)
from memdesk.services.apps import check_app_id
from memdesk.services.context import check_text
from memdesk.services.entries import check_category, check_entry_importance, check_key
from memdesk.services.files import project_memory_dir
from memdesk.services.projects import Project, check_project_folder, project_for, working_project
from memdesk.services.prompt import ComposedPrompt, PromptItem, PromptSpec
from memdesk.services.provenance import Origin
from memdesk.services.review import Outcome, Write
from memdesk.services.sessions import check_role

if TYPE_CHECKING:
    from memdesk.services.compaction import Change, Proposal
    from memdesk.services.entries import EntryRow
    from memdesk.services.health import Fact
    from memdesk.services.memdesk import Memdesk

PROFILE_NAMESPACE = "profile"  # under the user namespace setting, e.g. user/profile
MAX_HELD_PROPOSALS = 20


@dataclass(frozen=True)
class Reply:
    """A tool's answer: a short sentence or listing for the model, and the same as data."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


@contextmanager
def argument(name: str) -> Iterator[None]:
    """Report a BadInputError raised in the block as a problem with argument ``name``."""
    try:
        yield
    except ArgumentError:
        raise
    except BadInputError as error:
        raise ArgumentError(name, error.message, error.hint) from None


def _text(name: str, value: object, max_chars: int, allow_empty: bool = False) -> str:
    with argument(name):
        return check_text(value, name, max_chars, allow_empty)


def _optional_text(name: str, value: object, max_chars: int) -> str | None:
    return None if value is None else _text(name, value, max_chars)


def _time(name: str, value: object) -> datetime | None:
    """ISO 8601 text, or seconds since 1970 (UTC) as the PicoBot tools pass them."""
    if value is None:
        return None
    with argument(name):
        return parse_moment(value, name)


def _iso(value: datetime | None) -> str | None:
    return format_iso(value) if value is not None else None


def prompt_data(composed: ComposedPrompt, origins: dict[PromptItem, Origin | None]) -> dict[str, Any]:
    """The composed prompt with each section's source, tokens, why it was left out, and who
    wrote each item it carries."""

    def item(entry: PromptItem) -> dict[str, Any]:
        origin = origins.get(entry)
        found: dict[str, Any] = {"kind": str(entry.kind), "key": entry.key}
        if origin is not None:
            found["written_by"], found["written_at"] = origin.writer, format_iso(origin.at)
            found["history_step"] = origin.step_id
        return found

    return {
        "text": composed.text,
        "tokens": composed.tokens,
        "now": format_iso(composed.now),
        "sections": [
            {
                "name": s.name,
                "source": s.source,
                "included": s.included,
                "tokens": s.tokens,
                **({"reason": s.reason} if not s.included else {}),
                **({"items": [item(entry) for entry in s.items]} if s.items else {}),
            }
            for s in composed.sections
        ],
    }


def read_base_prompt(path: str) -> str:
    """The assistant's own system prompt file (setting ``prompt.base_file``), as text."""
    try:
        raw = Path(path).expanduser().read_bytes()
    except OSError as exc:
        raise BadInputError(f"base prompt {path}: {exc.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"base prompt {path}: not valid UTF-8 (byte {exc.start})") from None


def _hides_target(scope: ReadScope, change: Change) -> bool:
    """Whether the reader may not see what ``change``'s target holds now."""
    # Imported here, as compaction is: a server that never compacts starts without it.
    from memdesk.services.compaction import ChangeKind

    app_changes = (
        ChangeKind.ADD_APP_MEMORY,
        ChangeKind.DELETE_APP_MEMORY,
        ChangeKind.EDIT_APP_MEMORY,
        ChangeKind.UPDATE_MEMORY,  # a fact the conversation changes: its target is the app
        ChangeKind.RETIRE_MEMORY,
    )
    if change.kind in app_changes:
        return _hides_app(scope, change.target)
    if change.kind in (ChangeKind.ADD_TIMELINE, ChangeKind.UPDATE_ENTRY, ChangeKind.RETIRE_ENTRY):
        return scope.hides_entry(change.target)
    return scope.hides_doc(change.target)  # a namespace (working memory, facts), or the session


def _hides_app(scope: ReadScope, app_id: str) -> bool:
    return scope.hides_app(app_id) or not scope.may_read_app(app_id)


def _hides_fact(scope: ReadScope, fact: Fact) -> bool:
    """Whether the reader may not read the item a stored fact is part of."""
    if fact.kind is ItemKind.ENTRY:
        return scope.hides_entry(fact.locator)
    if fact.kind is ItemKind.APP_MEMORY:
        return _hides_app(scope, fact.app)
    return scope.hides_doc(fact.locator)


def _hides_anything(scope: ReadScope) -> bool:
    return bool(scope.private_apps or scope.private_entries or scope.private_docs) or scope.apps is not None


class MemoryTools:
    """The tools over one Memdesk; compaction proposals are held here until applied."""

    def __init__(self, app: Memdesk) -> None:
        self.app = app
        self._proposals: dict[str, Proposal] = {}
        self._lock = threading.Lock()

    # --- permissions --------------------------------------------------------------------

    def _scope(self) -> ReadScope:
        """What the calling assistant may read, as the person has set it now."""
        return self.app.privacy.scope()

    def _may_write(self) -> None:
        check_may_write(self.app.settings)

    def _may_forget(self) -> None:
        check_may_forget(self.app.settings)

    def _submit(self, write: Write) -> Outcome:
        """The write through the review gate: applied, held for the person, or refused."""
        self._may_write()
        return self.app.review.submit(write)

    def _held_reply(self, outcome: Outcome) -> Reply:
        """What an assistant is told when its write waits for the person's review."""
        held = outcome.held
        assert held is not None
        where = self.app.review.where(held.write)
        text = (
            f"Held for review (#{held.id}): {held.write.title} waits until the person approves it in "
            f"Memdesk, because {'; '.join(held.reasons)}. It is not in memory yet. Do not write it "
            "again; tell the user it is waiting for their review if it matters now."
        )
        return Reply(
            text, {"held": True, "review_id": held.id, "reasons": list(held.reasons), "target": where}
        )

    def _naming_conflicts(self, outcome: Outcome, reply: Reply) -> Reply:
        """The reply, naming the stored facts the write disagrees with (Memory health's rule)
        that the assistant may read; the person still sees the others in Memory health."""
        scope = self._scope()
        conflicts = [fact for fact in outcome.conflicts if not _hides_fact(scope, fact)]
        if not conflicts:
            return reply
        named = "; ".join(f'{fact.name}: "{fact.text}"' for fact in conflicts)
        if outcome.held:
            said = f" Approving it replaces {named}."
        else:
            said = (
                f" It disagrees with {named}. If that is no longer true, replace or forget it; "
                "until then the person sees both in Memory health."
            )
        data = {**reply.data, "conflicts": [fact.described() for fact in conflicts]}
        return Reply(reply.text + said, data)

    # --- entries (PicoBot) -------------------------------------------------------------

    def memory_store(self, key: str, content: str, category: str, importance: float | None = None) -> Reply:
        with argument("key"):
            key = check_key(key)
        content = _text("content", content, MAX_ENTRY_CHARS)
        with argument("category"):
            category = check_category(category)
        with argument("importance"):
            check_entry_importance(importance)
        outcome = self._submit(Write.save_entry(key, content, category, importance))
        if outcome.held:
            return self._naming_conflicts(outcome, self._held_reply(outcome))
        entry = outcome.result
        reply = Reply(
            f"Stored {entry.key} ({entry.category}).",
            {"key": entry.key, "category": entry.category, "importance": entry.importance, "held": False},
        )
        return self._naming_conflicts(outcome, reply)

    def memory_recall(
        self,
        query: str,
        category: str | None = None,
        since: str | int | None = None,
        until: str | int | None = None,
        limit: int | None = None,
    ) -> Reply:
        query = _text("query", query, MAX_QUERY_CHARS)
        if category is not None:
            with argument("category"):
                category = check_category(category)
        start, end = _time("since", since), _time("until", until)
        if limit is None:
            limit = self.app.settings.memory.recall_limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_RECALL_LIMIT:
            raise ArgumentError(
                "limit", f"expected a whole number from 1 to {MAX_RECALL_LIMIT}, not {limit!r}"
            )
        hits = self.app.recall.entries(query, limit, category, start, end)
        items = [{"key": h.ref, "category": h.kind, "content": h.text} for h in hits]
        text = "\n".join(f"{h.ref} [{h.kind}]: {' '.join(h.text.split())}" for h in hits)
        return Reply(text or "No memories match.", {"memories": items})

    def _entry(self, key: str) -> EntryRow:
        """A live entry; a private one is answered for as if it were not there."""
        with argument("key"):
            try:
                if self._scope().hides_entry(key):
                    raise NotFoundError(f"no entry {key!r}")
                return self.app.entries.get(key)
            except NotFoundError as error:
                raise BadInputError(error.message) from None

    def entry(self, key: str) -> Reply:
        """One live entry by its key."""
        with argument("key"):
            key = check_key(key)
        entry = self._entry(key)
        if entry.expired:
            raise ArgumentError("key", f"entry {key!r} has expired", "the person may extend it in Memdesk")
        return Reply(entry.content, {"key": entry.key, "category": entry.category, "content": entry.content})

    def memory_forget(self, key: str) -> Reply:
        with argument("key"):
            key = check_key(key)
        self._may_forget()
        self._entry(key)
        outcome = self._submit(Write.forget_entry(key))
        if outcome.held:
            return self._held_reply(outcome)
        return Reply(
            f"Moved {key} to Trash; the person can restore it.", {"key": key, "deleted": True, "held": False}
        )

    # --- app memories ------------------------------------------------------------------

    def _app(self, app: object) -> str:
        with argument("app"):
            if not isinstance(app, str):
                raise BadInputError(f"expected text, not {type(app).__name__}")
            return check_app_id(app)

    def app_memories(self, app: str) -> Reply:
        app_id = self._app(app)
        scope = self._scope()
        if not scope.may_read_app(app_id):
            raise NotAllowedError(
                f"app_memories: {OUTSIDE_LIMIT}", "the person sets it on Memdesk's Assistants page"
            )
        # A private app answers as an app with no memories: its existence is not confirmed.
        memories = [] if scope.hides_app(app_id) else self.app.apps.memories(app_id, include_expired=False)
        items = [
            {
                "id": m.id,
                "content": m.content,
                "created_at": format_iso(m.created_at),
                "updated_at": format_iso(m.updated_at),
                "importance": m.importance,
                "tags": m.tags.split() if m.tags else [],
            }
            for m in memories
        ]
        text = "\n".join(f"{m.id}. {m.content}" for m in memories)
        return Reply(
            text or f"No memories for {app_id}.", {"app": app_id, "memories": items, "cap": self.app.apps.cap}
        )

    def app_memory_add(self, app: str, content: str) -> Reply:
        app_id = self._app(app)
        max_chars = self.app.settings.memory.app_memory_max_chars
        content = _text("content", content, max_chars)
        check_may_add_app_memory(self.app, app_id)
        outcome = self._submit(Write.add_app_memory(app_id, content, max_chars))
        if outcome.held:
            return self._naming_conflicts(outcome, self._held_reply(outcome))
        added = outcome.result
        at_most = f"{app_id} keeps at most {self.app.apps.cap} memories"
        if added.merged:
            text = f"Merged into memory {added.memory_id}, as {at_most}. {added.reason}"
        else:
            text = f"Added memory {added.memory_id}."
            if added.removed:
                ids = ", ".join(map(str, added.removed))
                moved = f"memory {ids}" if len(added.removed) == 1 else f"memories {ids}"
                text += f" Moved {moved} to Trash, as {at_most}. {added.reason}"
        data = {
            "app": app_id,
            "id": added.memory_id,
            "merged": added.merged,
            "removed": added.removed,
            "reason": added.reason,
            "held": False,
        }
        return self._naming_conflicts(outcome, Reply(text, data))

    @staticmethod
    def _memory_id(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ArgumentError("id", f"expected a memory id (a whole number), not {value!r}")
        return value

    def app_memory_edit(self, app: str, id: int, content: str) -> Reply:
        app_id, memory_id = self._app(app), self._memory_id(id)
        max_chars = self.app.settings.memory.app_memory_max_chars
        content = _text("content", content, max_chars)
        with argument("id"):
            try:
                check_may_edit_app_memory(self.app, app_id, memory_id)
            except NotFoundError as error:
                raise BadInputError(error.message) from None
        outcome = self._submit(Write.edit_app_memory(app_id, memory_id, content, max_chars))
        if outcome.held:
            return self._naming_conflicts(outcome, self._held_reply(outcome))
        memory = outcome.result
        data = {
            "app": app_id,
            "id": memory.id,
            "content": memory.content,
            "updated_at": format_iso(memory.updated_at),
            "held": False,
        }
        return self._naming_conflicts(
            outcome, Reply(f"Changed the text of memory {memory.id} of {app_id}.", data)
        )

    def app_memory_delete(self, app: str, id: int) -> Reply:
        app_id = self._app(app)
        id = self._memory_id(id)
        self._may_forget()
        with argument("id"):
            try:
                memory = self.app.apps.get(id)
            except NotFoundError as error:
                raise BadInputError(error.message) from None
            # A private app's memories answer as those of an app with none.
            if memory.app_id != app_id or self._scope().hides_app(app_id):
                raise BadInputError(f"memory {id} does not belong to {app_id}")
        outcome = self._submit(Write.delete_app_memory(app_id, id))
        if outcome.held:
            return self._held_reply(outcome)
        data = {"app": app_id, "id": id, "deleted": True, "held": False}
        return Reply(f"Moved memory {id} of {app_id} to Trash.", data)

    # --- working memory and documents --------------------------------------------------

    def working_memory(self) -> Reply:
        hidden = self._scope().hides_doc(self.app.working.namespace())
        state = None if hidden else self.app.working.state()
        if state is None:
            return Reply("Working memory is empty.", {"content": "", "live": False})
        data = {
            "namespace": state.namespace,
            "content": state.content if state.live else "",
            "live": state.live,
            "updated_at": format_iso(state.updated_at),
            "expires_at": _iso(state.expires_at),
        }
        if not state.live:
            data["reason"] = state.reason
            return Reply(f"Working memory is not in the prompt: {state.reason}.", data)
        return Reply(state.content, data)

    def working_memory_set(self, content: str) -> Reply:
        content = _text("content", content, MAX_DOCUMENT_CHARS)
        outcome = self._submit(Write.set_working(self.app.working.namespace(), content))
        if outcome.held:
            return self._held_reply(outcome)
        state = outcome.result
        return Reply(
            f"Working memory replaced; it expires {_iso(state.expires_at) or 'never'}.",
            {
                "namespace": state.namespace,
                "content": state.content,
                "expires_at": _iso(state.expires_at),
                "held": False,
            },
        )

    def _namespace(self, namespace: object) -> str:
        with argument("namespace"):
            if not isinstance(namespace, str):
                raise BadInputError(f"expected text, not {type(namespace).__name__}")
            return check_namespace(namespace)

    def document_read(self, namespace: str) -> Reply:
        namespace = self._namespace(namespace)
        doc = None if self._scope().hides_doc(namespace) else self.app.documents.get(namespace)
        content = doc.content if doc is not None else ""
        data = {
            "namespace": namespace,
            "content": content,
            "updated_at": _iso(doc.updated_at) if doc else None,
        }
        return Reply(content or f"{namespace} is empty.", data)

    def document_append(self, namespace: str, text: str) -> Reply:
        namespace = self._namespace(namespace)
        text = _text("text", text, MAX_DOCUMENT_CHARS)
        with argument("namespace"):
            write = Write.append_document(namespace, text)
        outcome = self._submit(write)
        if outcome.held:
            return self._naming_conflicts(outcome, self._held_reply(outcome))
        doc = outcome.result
        reply = Reply(
            f"Appended to {namespace}.", {"namespace": namespace, "chars": len(doc.content), "held": False}
        )
        return self._naming_conflicts(outcome, reply)

    def session_log(self, session: str, role: str, content: str, app: str | None = None) -> Reply:
        with argument("session"):
            session = check_session_id(_text("session", session, MAX_NAME_CHARS))
        with argument("role"):
            role = check_role(role)
        content = _text("content", content, MAX_DOCUMENT_CHARS)
        app_id = None if app is None else self._app(app)
        outcome = self._submit(Write.log_message(session, role, content, app_id))
        if outcome.held:
            return self._held_reply(outcome)
        message = outcome.result
        data = {"session": session, "id": message.id, "held": False}
        return Reply(f"Logged message {message.id} in {session}.", data)

    # --- prompt ------------------------------------------------------------------------

    def compose(
        self,
        session: str | None = None,
        app: str | None = None,
        message: str | None = None,
        at: str | int | None = None,
    ) -> ComposedPrompt:
        """What ``memdesk prompt`` composes for the same session, app and message."""
        return self.app.prompt.compose(self._prompt_spec(session, app, message, at))

    def _prompt_spec(
        self, session: str | None, app: str | None, message: str | None, at: str | int | None
    ) -> PromptSpec:
        if session is not None:
            with argument("session"):
                session = check_session_id(_text("session", session, MAX_NAME_CHARS))
        app_id = None if app is None else self._app(app)
        message = _optional_text("message", message, MAX_ENTRY_CHARS)
        now = _time("at", at)
        base_file = self.app.settings.prompt.base_file
        base = read_base_prompt(base_file) if base_file else ""
        return PromptSpec(base=base, session=session, app=app_id, message=message, now=now)

    def prompt(
        self,
        session: str | None = None,
        app: str | None = None,
        message: str | None = None,
        at: str | int | None = None,
        project: str | None = None,
        started_in: Path | None = None,
    ) -> Reply:
        """The prompt, for ``project`` (a folder) when given, else for the folder the server
        was ``started_in`` when that is a project: its app unless ``app`` is given, and its
        MEMORY.md when the person trusts it. The text is the prompt exactly, as the preview
        shows it; which project it was composed for is in the reply's data."""
        spec = self._prompt_spec(session, app, message, at)
        chosen = self._project(project, started_in)
        if chosen is not None:
            spec = spec.in_project(chosen)
        # One snapshot for the prompt and for who wrote what it carries.
        with self.app.store.read() as reading:
            composed = self.app.prompt.compose(spec, reading)
            origins = self.app.provenance.of_prompt(composed, reading)
        data = prompt_data(composed, origins)
        if chosen is not None:
            data["project"] = {
                "folder": str(chosen.folder),
                "app": spec.app,
                "trusted": chosen.trusted,
                "memory": str(project_memory_dir(chosen.root)) if chosen.trusted else None,
            }
        return Reply(composed.text, data)

    def _project(self, project: str | None, started_in: Path | None) -> Project | None:
        trusted = self.app.settings.files.trusted_projects
        if project is None:
            return None if started_in is None else working_project(started_in, trusted)
        with argument("project"):
            folder = check_project_folder(_text("project", project, MAX_PATH_CHARS))
        return project_for(folder, trusted)

    # --- compaction --------------------------------------------------------------------

    def compaction_propose(self, session: str) -> Reply:
        with argument("session"):
            session = check_session_id(_text("session", session, MAX_NAME_CHARS))
        with argument("session"):
            proposal = self.app.compaction.propose(session)
        proposal_id = uuid.uuid4().hex[:12]
        with self._lock:
            self._proposals[proposal_id] = proposal
            while len(self._proposals) > MAX_HELD_PROPOSALS:
                self._proposals.pop(next(iter(self._proposals)))
        scope = self._scope()
        changes = [
            {
                "id": number,
                "kind": str(change.kind),
                "title": change.title,
                "target": change.target,
                # What a private item, or an app outside the limit, holds now stays unread.
                "before": "" if _hides_target(scope, change) else change.before,
                "after": change.after,
                "reason": change.reason,
                "suspicious": bool(getattr(change, "suspicious", False)),
                "ungrounded": change.grounding,
            }
            for number, change in enumerate(proposal.changes, 1)
        ]
        lines = [f"Proposal {proposal_id}: {len(changes)} changes (nothing written yet)."]
        lines += [
            f"{c['id']}. {c['title']}"
            + (" [suspicious]" if c["suspicious"] else "")
            + (f" [ungrounded: {c['ungrounded']}]" if c["ungrounded"] else "")
            for c in changes
        ]
        # A conflict note quotes the stored fact; a reader kept from some items gets none of them
        # (the person sees each conflict in Memory health).
        from memdesk.services.compaction.model import CONFLICT_NOTE

        notes = [
            note for note in proposal.notes if not (_hides_anything(scope) and note.startswith(CONFLICT_NOTE))
        ]
        lines += notes
        data = {"proposal_id": proposal_id, "session": session, "changes": changes, "notes": notes}
        return Reply("\n".join(lines), data)

    def compaction_apply(self, proposal_id: str, accept: list[int] | None = None) -> Reply:
        with argument("proposal_id"):
            proposal_id = _text("proposal_id", proposal_id, MAX_PROPOSAL_ID_CHARS)
        with self._lock:
            proposal = self._proposals.get(proposal_id)
        if proposal is None:
            raise ArgumentError("proposal_id", f"no proposal {proposal_id!r} is held", "propose again")
        count = len(proposal.changes)
        if accept is None:  # the proposal's own choice: every change not marked or doubted
            chosen = {proposal.number(change) for change in proposal.changes if change.accepted}
        elif not isinstance(accept, list):
            raise ArgumentError("accept", f"expected a list of change ids from 1 to {count}")
        else:
            with argument("accept"):
                chosen = proposal.check_numbers(accept, "accept")
        self._may_write()
        suspicious = [n for n, c in enumerate(proposal.changes, 1) if n in chosen and c.suspicious]
        self.app.review.check_compaction(suspicious)
        proposal.choose(accept=chosen)
        if any(c.kind == "delete_app_memory" for c in proposal.accepted()):
            self._may_forget()
        with self._lock:
            if self._proposals.pop(proposal_id, None) is None:
                raise ArgumentError("proposal_id", f"proposal {proposal_id!r} was applied already")
        step_id = self.app.compaction.apply(proposal)
        applied = sorted(chosen)
        return Reply(
            f"Applied {len(applied)} of {count} changes"
            + (f" as history step #{step_id}." if step_id else "."),
            {"proposal_id": proposal_id, "applied": applied, "history_step": step_id},
        )
