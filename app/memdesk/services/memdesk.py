"""``Memdesk``: the Qt-free application object. The CLI, the GUI and assistants use it.

from memdesk.services.memdesk import Memdesk
app = Memdesk.open()                       # the user's store and settings
app.apps.add("calendar", "Prefers meetings after 2pm")
print(app.prompt.compose(PromptSpec(app="calendar")).text)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import exists, or_, select
from sqlalchemy.orm import Session

from memdesk.config import SPECS, LoadedSettings, Settings, global_folder, load_settings, save_settings
from memdesk.core.actors import PYTHON
from memdesk.core.timefmt import utcnow
from memdesk.core.trust import is_assistant
from memdesk.errors import BadInputError
from memdesk.paths import Paths, resolve_paths
from memdesk.services.context import Context
from memdesk.store.engine import Store
from memdesk.store.models import FACT_TABLES, App, ChatSession, Document, Entry
from memdesk.store.recorder import Touched

if TYPE_CHECKING:
    from memdesk.services.access_log import AccessLog
    from memdesk.services.apps import AppMemories
    from memdesk.services.assistants import Assistants
    from memdesk.services.compaction import Compaction
    from memdesk.services.documents import Documents
    from memdesk.services.entries import Entries
    from memdesk.services.expiry import Expiry
    from memdesk.services.files import FileScopes
    from memdesk.services.flynn import FlynnFolder
    from memdesk.services.health import Health
    from memdesk.services.history import History
    from memdesk.services.privacy import Privacy
    from memdesk.services.prompt import Composer
    from memdesk.services.provenance import Provenance
    from memdesk.services.recall import Recall
    from memdesk.services.review import Review
    from memdesk.services.search import Search
    from memdesk.services.sessions import Sessions
    from memdesk.services.sources.sync import Sources
    from memdesk.services.tokens import Tokens
    from memdesk.services.transcripts import Transcripts
    from memdesk.services.transfer import Transfer
    from memdesk.services.trash import Trash
    from memdesk.services.working import WorkingMemory


class Memdesk:
    """The person's store and settings, and every service on them (``app.entries``, ``app.prompt``…).

    Its changes are the person's own: recorded in history under ``actor`` (``user`` by
    default; ``core.actors`` names the others, such as the window's) and never held for
    Review. An assistant's name (``mcp:…``, ``api:…``, ``python:…``) is refused as ``actor``:
    an assistant uses ``memdesk.assistant.Assistant``, whose writes pass Review.
    """

    def __init__(
        self,
        paths: Paths,
        loaded: LoadedSettings,
        actor: str = PYTHON,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        if is_assistant(actor):
            raise BadInputError(
                f"{actor!r} names an assistant, whose writes go through Review; "
                "this object writes as the person",
                "an assistant opens the store with memdesk.assistant.Assistant.open(NAME)",
            )
        self.paths = paths
        self.settings_problems = loaded.problems
        self.store = Store(paths.db_url, backup_dir=paths.backup_dir)
        self.ctx = Context(
            store=self.store,
            settings=loaded.settings,
            files_global_dir=global_folder(loaded.settings, paths),
            actor=actor,
            clock=clock,
            meaning_cache=paths.meaning_cache,
        )
        self.ctx.derived.append(self._keep_health_index)
        self.ctx.derived.append(self._keep_meaning_vectors)
        # The services are made (and their modules imported) on first use: a one-shot command
        # like `memdesk health`, `memdesk access log` or an assistant's hook needs few of them,
        # and starts sooner.

    @cached_property
    def documents(self) -> Documents:
        """Documents by namespace: the profile, preferences, notes."""
        from memdesk.services.documents import Documents

        return Documents(self.ctx)

    @cached_property
    def working(self) -> WorkingMemory:
        """The working memory of the session under way."""
        from memdesk.services.working import WorkingMemory

        return WorkingMemory(self.ctx)

    @cached_property
    def apps(self) -> AppMemories:
        """Apps and their memories."""
        from memdesk.services.apps import AppMemories

        return AppMemories(self.ctx)

    @cached_property
    def entries(self) -> Entries:
        """Knowledge and timeline entries."""
        from memdesk.services.entries import Entries

        return Entries(self.ctx)

    @cached_property
    def recall(self) -> Recall:
        """Ranked search for what a message is about."""
        from memdesk.services.recall import Recall

        return Recall(self.ctx)

    @cached_property
    def sessions(self) -> Sessions:
        """Conversations, message by message, until compacted."""
        from memdesk.services.sessions import Sessions

        return Sessions(self.ctx)

    @cached_property
    def prompt(self) -> Composer:
        """The system prompt a session receives."""
        from memdesk.services.prompt import Composer

        return Composer(self.ctx)

    @cached_property
    def privacy(self) -> Privacy:
        """Private items, and the apps each assistant may read (without the prompt's modules,
        which a window listing rows does not need)."""
        from memdesk.services.privacy import Privacy

        return Privacy(self.ctx)

    @classmethod
    def open(
        cls,
        data_dir: str | None = None,
        db: str | None = None,
        config: str | None = None,
        actor: str = PYTHON,
        clock: Callable[[], datetime] = utcnow,
    ) -> Memdesk:
        """Open the store and settings (``clock`` may return aware times: they are converted to UTC)."""
        paths = resolve_paths(data_dir=data_dir, db=db, config=config)
        return cls(paths, load_settings(paths.config_file), actor=actor, clock=clock)

    @cached_property
    def trash(self) -> Trash:
        """Deleted items until restored or purged."""
        from memdesk.services.trash import Trash

        return Trash(self.ctx)

    @cached_property
    def history(self) -> History:
        """Every change: list, undo and redo."""
        from memdesk.services.history import History

        return History(self.ctx)

    @cached_property
    def search(self) -> Search:
        """Global search over every kind of memory."""
        from memdesk.services.search import Search

        return Search(self.ctx)

    @cached_property
    def transfer(self) -> Transfer:
        """Whole-store JSON export and import."""
        from memdesk.services.transfer import Transfer

        return Transfer(self.ctx)

    @cached_property
    def flynn(self) -> FlynnFolder:
        """Flynn memory folders: export and import."""
        from memdesk.services.flynn import FlynnFolder

        return FlynnFolder(self.ctx)

    @cached_property
    def tokens(self) -> Tokens:
        """The admin API's bearer tokens."""
        from memdesk.services.tokens import Tokens

        return Tokens(self.ctx)

    @cached_property
    def assistants(self) -> Assistants:
        """Assistants seen over MCP and the API, and their trust levels."""
        from memdesk.services.assistants import Assistants

        return Assistants(self.ctx)

    @cached_property
    def access_log(self) -> AccessLog:
        """What assistants read: recorded off the reply path, listed by assistant and item."""
        from memdesk.services.access_log import AccessLog

        return AccessLog(self.ctx, status_dir=self.paths.log_dir)

    @cached_property
    def provenance(self) -> Provenance:
        """Who wrote each item a prompt carries."""
        from memdesk.services.provenance import Provenance

        return Provenance(self.ctx)

    @cached_property
    def expiry(self) -> Expiry:
        """Everything that expires, in one list, and the actions that change an expiry."""
        from memdesk.services.expiry import Expiry

        return Expiry(self)

    @cached_property
    def review(self) -> Review:
        """The gate for assistants' writes, and the writes it holds for the person's review."""
        from memdesk.services.review import Review

        return Review(self)

    def _keep_health_index(self, session: Session, touched: Touched) -> None:
        if any(table in FACT_TABLES for table, _key in touched.rows):  # Memory health loads only then
            self.health.keep_index(session, touched)

    def _keep_meaning_vectors(self, session: Session, touched: Touched) -> None:
        """The sentence vectors of what a change wrote that recall reads by meaning (the recall
        documents' paragraphs, knowledge entries), computed once it has committed, so the next
        prompt does not compute them. Only where the encoder is loaded already (the window, a
        server): a one-shot command does not load it for a write."""
        loaded = sys.modules.get("memdesk.meaning.encoder")
        if loaded is None or not loaded.shared_encoder.cache_info().currsize:
            return
        if not self.settings.memory.recall_by_meaning:
            return
        texts = self._written_paragraphs(session, touched) + self._written_entries(session, touched)
        if texts:
            from memdesk.meaning.likeness import keep_vectors

            self.ctx.after_commit(lambda: keep_vectors(texts, self.ctx.meaning_cache))

    def _written_paragraphs(self, session: Session, touched: Touched) -> list[str]:
        """The paragraphs of the recall documents, as the next prompt will read them, when a
        change wrote one of those documents."""
        ids = [int(key) for table, key in touched.rows if table == Document.__tablename__]
        namespace = self.settings.memory.user_namespace
        if not ids or not namespace:
            return []
        from memdesk.services.recall import paragraphs_by_meaning, recalled_documents

        recalled = recalled_documents(namespace)
        if not session.scalar(select(exists().where(Document.id.in_(ids), Document.namespace.in_(recalled)))):
            return []
        return [text for _namespace, text in paragraphs_by_meaning(session, recalled)]

    @staticmethod
    def _written_entries(session: Session, touched: Touched) -> list[str]:
        """The texts of the knowledge entries a change wrote."""
        ids = [int(key) for table, key in touched.rows if table == Entry.__tablename__]
        if not ids:
            return []
        found = select(Entry.content).where(Entry.id.in_(ids), Entry.category == "knowledge")
        return list(session.scalars(found))

    @cached_property
    def health(self) -> Health:
        """Memory health: live facts that disagree or repeat each other, and their fixes."""
        from memdesk.services.health import Health

        return Health(self)

    @cached_property
    def transcripts(self) -> Transcripts:
        """Conversation files (JSONL, plain text) imported into sessions."""
        from memdesk.services.transcripts import Transcripts

        return Transcripts(self)

    @cached_property
    def sources(self) -> Sources:
        """Assistants' own transcripts (Claude Code, Codex CLI, pi), read into sessions."""
        from memdesk.services.sources.sync import Sources

        return Sources(self)

    @cached_property
    def files(self) -> FileScopes:
        """The ``MEMORY.md`` scopes: the global folder in the settings and a project's."""
        from memdesk.services.files import FileScopes

        return FileScopes(self.ctx)

    @cached_property
    def compaction(self) -> Compaction:
        # Imported on first use: it brings in the model clients and the keyring, which
        # commands such as ``memdesk prompt`` must start without.
        from memdesk.services.compaction import Compaction

        return Compaction(self)

    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    @property
    def files_global_dir(self) -> Path:
        return self.ctx.files_global_dir

    def now(self) -> datetime:
        """The clock's time, as naive UTC."""
        return self.ctx.now()

    def is_empty(self) -> bool:
        """No live entry, document or session and no app: a store with nothing in it yet.
        Each is a lookup of one row, never a listing: a big store answers at once."""
        anything = or_(
            exists().where(Entry.deleted_at.is_(None)),
            exists().where(Document.deleted_at.is_(None)),
            exists().where(ChatSession.deleted_at.is_(None)),
            exists().select_from(App),
        )
        with self.store.read() as session:
            return not session.scalar(select(anything))

    def update_settings(self, settings: Settings) -> None:
        """Write the keys ``settings`` changes into the settings file, and nothing else in it,
        then use what the file now says: the file stays the one source of the settings (a key
        someone edited there meanwhile is kept, not overwritten with what was read at start)."""
        changed = {
            spec.key: value
            for spec in SPECS
            if (value := settings.get(spec.key)) != self.ctx.settings.get(spec.key)
        }
        if changed:
            save_settings(self.paths.config_file, changed)
        self.reload_settings()

    def reload_settings(self) -> None:
        """Use what the settings file says now (a long-running server follows the person's
        edits this way, from its next call on)."""
        loaded = load_settings(self.paths.config_file)
        self.settings_problems = loaded.problems
        self.ctx.settings = loaded.settings
        self.ctx.files_global_dir = global_folder(loaded.settings, self.paths)

    def close(self) -> None:
        """Finish what runs in the background (token use, the read log) and close the store."""
        if "tokens" in self.__dict__:  # made only when a token was used: nothing to wait for else
            self.tokens.settle()
        if "access_log" in self.__dict__:  # likewise: only a process that served reads has one
            self.access_log.close()
        self.store.close()
