"""The one prompt composer. The CLI, the Python API and the GUI preview all call ``compose``.

Formats here are exact (see the prompt spec): sections in a fixed order, joined by one
blank line, each right-stripped, no trailing newline.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind
from memdesk.core.namespaces import check_namespace, working_namespace
from memdesk.core.privacy import OUTSIDE_LIMIT, ReadScope, Target, TargetKind
from memdesk.core.timefmt import format_day, format_iso, naive_utc
from memdesk.core.tokens import estimate_tokens
from memdesk.errors import BadInputError
from memdesk.services.apps import AppMemories
from memdesk.services.context import Context
from memdesk.services.files import build_files_block
from memdesk.services.privacy import Privacy
from memdesk.services.working import state_of
from memdesk.store.models import Document

if TYPE_CHECKING:
    from memdesk.services.projects import Project
    from memdesk.services.recall import Recall

GREETING = (
    "[If relevant, briefly acknowledge what the user was last working on "
    "before responding to their first message.]"
)
PROFILE_HEADER = "--- Who you're talking to ---"
WORKING_HEADER = "--- Recent context ---"

SECTION_GAP = "\n\n"  # between the included sections of a prompt

# Built once: every prompt reads its documents with it.
_DOCUMENTS = select(Document).where(Document.namespace.in_(bindparam("namespaces", expanding=True)))


@dataclass(frozen=True)
class PromptSpec:
    """What a session's prompt depends on besides the store.

    The base prompt is ``base`` as given, or read from ``base_file`` (UTF-8) when that is
    set. ``session`` is the session id (its working memory), ``app`` the app whose memories
    it carries, ``message`` the user's first message, which recall searches for. ``now`` is
    the moment to compose at (default: the clock's now); naive means UTC, an aware time is
    converted. ``project`` is a project folder whose ``MEMORY.md`` scope is read when
    ``trusted``. ``reader`` is whose prompt it is: an assistant's name composes within its
    app limit; None means whoever acts now.
    """

    base: str = ""
    base_file: Path | None = None
    session: str | None = None
    app: str | None = None
    message: str | None = None
    now: datetime | None = None  # the moment to compose at; aware times are converted to UTC
    project: Path | None = None
    trusted: bool = False
    # Whose prompt: an assistant's actor name (``mcp:coder``) composes within its app limit;
    # None: whoever acts now. Private items are left out for every reader.
    reader: str | None = None

    def in_project(self, project: Project) -> PromptSpec:
        """This prompt for a session working in ``project``: the folder's app unless an app is
        given, and the project's MEMORY.md when the person trusts it."""
        return replace(self, app=self.app or project.app, project=project.root, trusted=project.trusted)


@dataclass(frozen=True)
class PromptItem:
    """A stored item whose text a section carries, so the preview can say who wrote it.

    ``key``: the namespace (documents, working memory), the entry key or the memory id;
    ``text``: for a recalled paragraph of a document, that paragraph.
    """

    kind: ItemKind
    key: str
    text: str = ""


@dataclass
class Section:
    name: str
    source: str
    text: str = ""
    tokens: int = 0
    included: bool = False
    reason: str = ""
    items: list[PromptItem] = field(default_factory=list)

    def include(self, text: str) -> None:
        self.text = text.rstrip()
        self.tokens = estimate_tokens(self.text)
        self.included = True
        self.reason = ""

    def leave_out(self, reason: str) -> None:
        self.included = False
        self.reason = reason


@dataclass
class ComposedPrompt:
    """The prompt's ``text``, its estimated ``tokens``, the moment it was composed for, and
    its ``sections``: each one's source, whether it is in the text and, if not, why."""

    now: datetime
    text: str
    tokens: int
    sections: list[Section] = field(default_factory=list)
    # Files and folders outside the store the text depends on (present or not), so a
    # preview can follow them without knowing how the composer finds them.
    depends_on: tuple[Path, ...] = ()
    # The private items (``doc:…``, ``app:…``, ``entry:…``) the text would have carried, for
    # the person's preview only: a reader's sections say "empty" as if they were absent.
    private: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "now": format_iso(self.now),
            "text": self.text,
            "tokens": self.tokens,
            "sections": [
                {
                    "name": section.name,
                    "source": section.source,
                    "text": section.text,
                    "tokens": section.tokens,
                    "included": section.included,
                    "reason": section.reason,
                }
                for section in self.sections
            ],
        }


def read_base_file(path: Path) -> str:
    """The base prompt file, strictly UTF-8; a file that cannot be read is a clear error."""
    try:
        raw = path.expanduser().read_bytes()
    except OSError as exc:
        raise BadInputError(f"base prompt {path}: {exc.strerror}", "choose another file") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"base prompt {path}: not valid UTF-8 (byte {exc.start})") from None


def format_app_block(label: str, lines: list[str]) -> str:
    numbered = "\n".join(f"{index}. {line}" for index, line in enumerate(lines, start=1))
    return (
        f"(memories for app: {label})\n"
        "The following are memories from previous conversations with this app:\n\n"
        f"{numbered}\n\n"
        "Use these memories to provide context-aware responses."
    )


def _documents(session: Session, namespace: str, chat: str | None) -> dict[str, Document]:
    """The profile and working memory documents, live or in Trash, by namespace: read in one
    statement."""
    names = [check_namespace(f"{namespace}/profile")] if namespace else []
    if namespace or chat:
        names.append(working_namespace(namespace, chat))
    if not names:
        return {}
    return {doc.namespace: doc for doc in session.scalars(_DOCUMENTS, {"namespaces": names})}


def _left_out_private(section: Section, target: Target, private: list[str]) -> None:
    """Leave ``section`` out as a reader would see it, absent, and note why for the person."""
    section.leave_out("empty")
    private.append(str(target))


class Composer:
    """The system prompt a session receives, section by section, as ``memdesk prompt`` shows it."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.apps = AppMemories(ctx)
        self.privacy = Privacy(ctx)

    @cached_property
    def recall(self) -> Recall:
        """Loaded for the first message to recall for: most prompts (a session's start, the
        hook's) have none, and its rules take a start-up's noticeable share to load."""
        from memdesk.services.recall import Recall

        return Recall(self.ctx)

    def configured_base_file(self) -> Path | None:
        """The base prompt file the ``prompt.base_file`` setting names, if any."""
        configured = self.ctx.settings.prompt.base_file
        return Path(configured) if configured else None

    def compose(self, spec: PromptSpec, session: Session | None = None) -> ComposedPrompt:
        """``spec``'s prompt, everything read in one snapshot of the store: ``session``'s when
        given (a caller that reads more in the same snapshot), else a read of its own."""
        with self.ctx.store.read(within=session) as session:
            return self._compose(spec, session)

    def _compose(self, spec: PromptSpec, session: Session) -> ComposedPrompt:
        settings = self.ctx.settings
        now = naive_utc(spec.now) or self.ctx.now()
        namespace = settings.memory.user_namespace
        scope = self.privacy.scope(spec.reader, session)
        private: list[str] = []
        documents = _documents(session, namespace, spec.session)
        profile, working = self._profile_and_working(spec, namespace, now, scope, private, documents)
        files, files_depend_on = self._files(spec)
        sections = [
            self._base(spec),
            profile,
            working,
            self._greeting(profile, working),
            files,
            self._app(session, spec, now, scope, private),
            self._recall(session, spec, namespace, now, scope, private),
        ]
        text = SECTION_GAP.join(section.text for section in sections if section.included)
        base_file = () if spec.base_file is None else (spec.base_file,)
        return ComposedPrompt(
            now=now,
            text=text,
            tokens=estimate_tokens(text),
            sections=sections,
            depends_on=base_file + files_depend_on,
            private=tuple(private),
        )

    @staticmethod
    def _base(spec: PromptSpec) -> Section:
        section = Section("base", "base prompt")
        base = spec.base if spec.base_file is None else read_base_file(spec.base_file)
        if spec.base_file is not None:
            section.source = str(spec.base_file)
        if base.strip():
            section.include(base.strip())
        else:
            section.leave_out("empty")
        return section

    def _profile_and_working(
        self,
        spec: PromptSpec,
        namespace: str,
        now: datetime,
        scope: ReadScope,
        private: list[str],
        documents: dict[str, Document],
    ) -> tuple[Section, Section]:
        profile = Section("profile", f"{namespace}/profile" if namespace else "")
        if not namespace:
            profile.leave_out("disabled")
        elif scope.hides_doc(profile.source):
            _left_out_private(profile, Target(TargetKind.DOC, profile.source), private)
        else:
            doc = documents.get(profile.source)
            content = doc.content.strip() if doc is not None and doc.deleted_at is None else ""
            if content:
                profile.include(f"{PROFILE_HEADER}\n{content}")
                profile.items.append(PromptItem(ItemKind.DOCUMENT, profile.source))
            else:
                profile.leave_out("empty")
        working = Section("working", "")
        if not namespace and not spec.session:
            working.leave_out("no session")
            return profile, working
        working.source = working_namespace(namespace, spec.session)
        if scope.hides_doc(working.source):
            _left_out_private(working, Target(TargetKind.DOC, working.source), private)
            return profile, working
        doc = documents.get(working.source)
        state = state_of(doc, now) if doc is not None and doc.deleted_at is None else None
        if state is None:
            working.leave_out("empty")
        elif not state.live:
            working.leave_out(state.reason)
        else:
            working.include(f"{WORKING_HEADER}\n{state.content.strip()}")
            working.items.append(PromptItem(ItemKind.WORKING, working.source))
        return profile, working

    def _greeting(self, profile: Section, working: Section) -> Section:
        section = Section("greeting", "memory.proactive_session_greeting")
        if not self.ctx.settings.memory.proactive_session_greeting:
            section.leave_out("disabled")
        elif profile.included or working.included:
            section.include(GREETING)
        else:
            section.leave_out("empty")
        return section

    def _files(self, spec: PromptSpec) -> tuple[Section, tuple[Path, ...]]:
        files = self.ctx.settings.files
        section = Section("files", str(self.ctx.files_global_dir))
        if not files.enabled:
            section.leave_out("disabled")
            return section, ()
        block = build_files_block(
            self.ctx.files_global_dir,
            spec.project,
            spec.trusted,
            files.max_inject_lines,
            files.max_inject_bytes,
        )
        section.source = ", ".join(str(path) for path in block.sources) or section.source
        if block.text:
            section.include(block.text)
            section.reason = block.truncated or ""
        else:
            section.leave_out(block.reason or "empty")
        return section, block.depends_on

    def _app(
        self, session: Session, spec: PromptSpec, now: datetime, scope: ReadScope, private: list[str]
    ) -> Section:
        section = Section("app", f"app:{spec.app}" if spec.app else "")
        if not spec.app:
            section.leave_out("no app")
            return section
        if not scope.may_read_app(spec.app):
            section.leave_out(OUTSIDE_LIMIT)
            return section
        if scope.hides_app(spec.app):
            _left_out_private(section, Target(TargetKind.APP, spec.app), private)
            return section
        memories = self.apps.live_memories(spec.app, now, self.ctx.settings.memory.app_memory_cap, session)
        if not memories:
            section.leave_out("empty")
            return section
        label = self.apps.label(spec.app, session)
        lines = [f"[{format_day(memory.created_at)}] {memory.content}" for memory in memories]
        section.source = f"app:{spec.app} (memories {', '.join(str(m.id) for m in memories)})"
        section.include(format_app_block(label, lines))
        section.items.extend(PromptItem(ItemKind.APP_MEMORY, str(memory.id)) for memory in memories)
        return section

    def _recall(
        self,
        session: Session,
        spec: PromptSpec,
        namespace: str,
        now: datetime,
        scope: ReadScope,
        private: list[str],
    ) -> Section:
        section = Section("recall", "")
        if not spec.message or not spec.message.strip():
            section.leave_out("no message")
            return section
        limit = self.ctx.settings.memory.recall_limit
        hits, left_out = self.recall.for_prompt(spec.message, namespace, limit, now, scope, session)
        private.extend(left_out)
        if not hits:
            section.leave_out("no matches")
            return section
        section.source = ", ".join(dict.fromkeys(hit.label for hit in hits))
        lines = "\n".join(f"- {hit.label}: {' '.join(hit.text.split())}" for hit in hits)
        section.include(f"## Memory Context\n\n{lines}")
        section.items.extend(
            PromptItem(ItemKind.DOCUMENT, hit.ref, hit.text)
            if hit.kind == "document"
            else PromptItem(ItemKind.ENTRY, hit.ref)
            for hit in hits
        )
        return section
