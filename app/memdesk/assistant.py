"""An assistant written in Python, connected to the store under its own name.

    from memdesk.assistant import Assistant

    with Assistant.open("mybot") as bot:          # acts as python:mybot
        reply = bot.memory_store("train", "Ada's train leaves at 9.", "knowledge")
        reply.data["held"]                        # True: it waits in Review

It offers what ``memdesk mcp`` offers an assistant, tool for tool and through the same code
(``memdesk.servers.backend.Backend.run``): each write passes Review's gate under the trust
level the person gave this assistant, each read sees only what the person lets assistants
read, and the assistant is listed by ``memdesk assistant list``. The person's own object,
``memdesk.services.memdesk.Memdesk``, is not handed out: with it an assistant could approve
its own held writes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any

from memdesk.core.timefmt import format_iso, naive_utc, utcnow
from memdesk.core.trust import PYTHON_PREFIX
from memdesk.errors import BadInputError

if TYPE_CHECKING:
    from memdesk.servers.backend import Backend
    from memdesk.servers.tools import Reply


def python_actor(name: str) -> str:
    """``python:<name>``; a name that is not already safe to show is refused, not changed."""
    from memdesk.servers.actors import actor_name

    actor = actor_name(PYTHON_PREFIX, name)
    if not isinstance(name, str) or actor != PYTHON_PREFIX + name:
        raise BadInputError(
            f"{name!r} is not usable as an assistant's name",
            f"use lower-case letters, digits, '.', '_' and '-', e.g. {actor.removeprefix(PYTHON_PREFIX)!r}",
        )
    return actor


class Assistant:
    """The store as one assistant sees it. Each method but ``entry`` is the MCP tool of the
    same name (``entry`` reads what the MCP resource ``memdesk://entries/{key}`` does) and
    returns its answer as a ``Reply``: ``text`` for a model, ``data`` as a dict.

    A write the trust level or the write check holds comes back with ``data["held"]`` true
    and ``data["review_id"]``: it is not in memory until the person approves it. What the
    person does not allow (a read-only assistant, writes off in the settings, an app outside
    its read limit) raises ``memdesk.errors.NotAllowedError``; a bad argument raises
    ``memdesk.errors.ArgumentError`` (a ``BadInputError``) naming it; a model that fails
    raises ``LLMError``, ``ModelUnreachableError`` when nothing answers at its address.
    Nothing is written in any case. The Errors section lists every class.
    """

    def __init__(self, backend: Backend, name: str) -> None:
        self.actor = python_actor(name)
        self._backend = backend

    @classmethod
    def open(
        cls,
        name: str,
        data_dir: str | None = None,
        db: str | None = None,
        config: str | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> Assistant:
        """Open the person's store and settings (the same ones ``memdesk`` opens, or those
        given as ``memdesk --data-dir/--db/--config`` takes them) as the assistant ``name``."""
        from memdesk.servers.backend import Backend
        from memdesk.services.memdesk import Memdesk

        python_actor(name)  # a bad name is refused before the store opens
        return cls(Backend(Memdesk.open(data_dir, db, config, clock=clock)), name)

    def close(self) -> None:
        """Write the calls counted for ``memdesk assistant list``, then close the store."""
        self._backend.clients.flush()
        self._backend.app.close()

    def __enter__(self) -> Assistant:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _run(self, tool: str, *args: Any) -> Reply:
        return self._backend.run(self.actor, tool, *args)

    # --- entries ---------------------------------------------------------------------------

    def memory_store(self, key: str, content: str, category: str, importance: float | None = None) -> Reply:
        """Save a knowledge or timeline entry under ``key`` (replacing the one there)."""
        return self._run("memory_store", key, content, category, importance)

    def memory_recall(
        self,
        query: str,
        category: str | None = None,
        since: str | int | None = None,
        until: str | int | None = None,
        limit: int | None = None,
    ) -> Reply:
        """Entries that match ``query``, best first (times as ISO 8601 text or Unix seconds)."""
        return self._run("memory_recall", query, category, since, until, limit)

    def entry(self, key: str) -> Reply:
        """One live entry by its key."""
        return self._run("entry", key)

    def memory_forget(self, key: str) -> Reply:
        """Move an entry to Trash (the person can restore it)."""
        return self._run("memory_forget", key)

    # --- app memories ----------------------------------------------------------------------

    def app_memories(self, app: str) -> Reply:
        """An app's live memories."""
        return self._run("app_memories", app)

    def app_memory_add(self, app: str, content: str) -> Reply:
        """Add a memory to an app (at the app's cap, one is merged or moved to Trash)."""
        return self._run("app_memory_add", app, content)

    def app_memory_edit(self, app: str, id: int, content: str) -> Reply:
        """Replace the text of one of an app's memories (it keeps its id and creation time)."""
        return self._run("app_memory_edit", app, id, content)

    def app_memory_delete(self, app: str, id: int) -> Reply:
        """Move one of an app's memories to Trash."""
        return self._run("app_memory_delete", app, id)

    # --- working memory and documents ------------------------------------------------------

    def working_memory(self) -> Reply:
        """The working memory of the session under way, and when it expires."""
        return self._run("working_memory")

    def working_memory_set(self, content: str) -> Reply:
        """Replace the working memory; it expires after the ``memory.working_memory_ttl_days`` setting."""
        return self._run("working_memory_set", content)

    def document_read(self, namespace: str) -> Reply:
        """A document by namespace, e.g. ``user/profile``."""
        return self._run("document_read", namespace)

    def document_append(self, namespace: str, text: str) -> Reply:
        """Append text to a document (to the profile it always waits for review, unless trusted)."""
        return self._run("document_append", namespace, text)

    def session_log(self, session: str, role: str, content: str, app: str | None = None) -> Reply:
        """Add a message to a session's conversation log, for compaction to read."""
        return self._run("session_log", session, role, content, app)

    # --- the prompt and compaction ---------------------------------------------------------

    def prompt(
        self,
        session: str | None = None,
        app: str | None = None,
        message: str | None = None,
        at: datetime | str | int | None = None,
        project: str | None = None,
    ) -> Reply:
        """The system prompt a session receives, as of ``at`` (default now): a datetime (aware,
        or naive UTC), ISO 8601 text or Unix seconds. ``project``: the session's working folder
        (a full path): its app unless ``app`` is given, and its project's MEMORY.md when the
        person trusts the project. ``data`` has its sections and who wrote each item."""
        when = format_iso(naive_utc(at)) if isinstance(at, datetime) else at
        return self._run("prompt", session, app, message, when, project)

    def compaction_propose(self, session: str) -> Reply:
        """Propose how to fold a session into memory; nothing is written yet."""
        return self._run("compaction_propose", session)

    def compaction_apply(self, proposal_id: str, accept: list[int] | None = None) -> Reply:
        """Apply a proposal's changes (``accept``: their ids; default: the proposal's choice)."""
        return self._run("compaction_apply", proposal_id, accept)
