"""Who wrote what a prompt carries: for each item, the history step that put its text there.

History already records every write with its actor, so provenance is a read of it: the
newest step (not undone) that touched an entry, an app memory or working memory; for a
paragraph of a document, the step that added that paragraph. From an origin the person can
open the step in History and undo it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select, tuple_
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind
from memdesk.core.trust import is_assistant
from memdesk.services.context import Context
from memdesk.services.prompt import SECTION_GAP, ComposedPrompt, PromptItem
from memdesk.store.models import AppMemory, Document, Entry, HistoryChange, HistoryStep

# Compaction's steps are named by ``services.compaction`` ("Compact telegram:1", and
# "Archive 40 raw messages of …" when it gives up); a test applies one and checks this.
_COMPACTION_LABELS = ("Compact ", "Archive ")
# How far back a document's history is searched for the step that added a paragraph.
_DOCUMENT_STEPS = 500
# Shorter lines ("-", "ok") would be found anywhere; they are not worth marking.
_SHORTEST_LINE = 3
_TABLES = {
    ItemKind.DOCUMENT: Document.__tablename__,
    ItemKind.WORKING: Document.__tablename__,
    ItemKind.ENTRY: Entry.__tablename__,
    ItemKind.APP_MEMORY: AppMemory.__tablename__,
}
# Built once: every prompt asks who wrote its items, and building these statements took
# longer than running them.
_CHANGES = (
    select(
        HistoryChange.table_name,
        HistoryChange.item_key,
        HistoryChange.before,
        HistoryChange.after,
        HistoryStep.id,
        HistoryStep.actor,
        HistoryStep.at,
        HistoryStep.label,
    )
    .join(HistoryStep, HistoryStep.id == HistoryChange.step_id)
    .where(
        tuple_(HistoryChange.table_name, HistoryChange.item_key).in_(bindparam("pairs", expanding=True)),
        HistoryStep.state.in_(("done", "final")),
    )
    .order_by(HistoryStep.id.desc())
)
# Straight from the driver, a placeholder per value (``{values}``): every prompt asks for
# these, and SQLAlchemy's own work took ten times as long as the queries.
_DOCUMENT_IDS = "SELECT namespace, id FROM documents WHERE namespace IN ({values})"
_ENTRY_IDS = "SELECT key, id FROM entries WHERE key IN ({values})"


@dataclass(frozen=True)
class Origin:
    """The history step that wrote an item's text."""

    step_id: int
    actor: str
    at: datetime
    label: str

    @property
    def by_assistant(self) -> bool:
        return is_assistant(self.actor)

    @property
    def writer(self) -> str:
        """ "you", "compaction", or the assistant (``mcp:claude-code``, ``api:picobot``)."""
        if self.by_assistant:
            return self.actor
        return "compaction" if self.label.startswith(_COMPACTION_LABELS) else "you"


@dataclass(frozen=True)
class PromptSource:
    """One item of a composed prompt: its section, who wrote it, and where its text is."""

    section: str
    item: PromptItem
    origin: Origin | None  # None: written before history began
    spans: tuple[tuple[int, int], ...]  # (start, end) offsets of its lines in the prompt's text


class Provenance:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def sources(self, composed: ComposedPrompt) -> list[PromptSource]:
        """Every item of the included sections with its origin and where the prompt shows it,
        so a preview can mark what assistants wrote."""
        origins = self.of_prompt(composed)
        texts = self._texts(list(origins))
        found: list[PromptSource] = []
        offset = 0
        for section in composed.sections:
            if not section.included:
                continue
            for item in section.items:
                spans = _spans(section.text, item.text or texts.get(item, ""), offset)
                found.append(PromptSource(section.name, item, origins.get(item), spans))
            offset += len(section.text) + len(SECTION_GAP)
        return found

    def of_prompt(
        self, composed: ComposedPrompt, session: Session | None = None
    ) -> dict[PromptItem, Origin | None]:
        """The origin of every item of every included section (None: written before history)."""
        included = (item for section in composed.sections if section.included for item in section.items)
        return self.of(included, session)

    def of(
        self, items: Iterable[PromptItem], session: Session | None = None
    ) -> dict[PromptItem, Origin | None]:
        """Each item's origin, read in ``session`` when given (the snapshot a prompt was
        composed in), else in a read of its own."""
        wanted = list(dict.fromkeys(items))
        with self.ctx.store.read(within=session) as session:
            row_keys = self._row_keys(session, wanted)
            pairs = sorted({(_TABLES[item.kind], key) for item, key in row_keys.items()})
            changes: dict[tuple[str, str], list[tuple[Origin, str | None, str | None]]] = {}
            if pairs:
                # On the connection: rows of plain columns need none of the session's work.
                found_changes = session.connection().execute(_CHANGES, {"pairs": pairs})
                for table, key, before, after, step_id, actor, at, label in found_changes:
                    found = changes.setdefault((table, key), [])
                    if len(found) < _DOCUMENT_STEPS:
                        found.append((Origin(step_id, actor, at, label), before, after))
        return {
            item: self._origin(item, changes.get((_TABLES[item.kind], row_keys.get(item, "")), []))
            for item in wanted
        }

    def _texts(self, items: list[PromptItem]) -> dict[PromptItem, str]:
        """The stored text of each item, as the composer read it."""
        namespaces = {i.key for i in items if i.kind in (ItemKind.DOCUMENT, ItemKind.WORKING)}
        keys = {i.key for i in items if i.kind is ItemKind.ENTRY}
        memory_ids = {int(i.key) for i in items if i.kind is ItemKind.APP_MEMORY}
        queries = (
            (ItemKind.DOCUMENT, namespaces, select(Document.namespace, Document.content)),
            (ItemKind.ENTRY, keys, select(Entry.key, Entry.content)),
            (ItemKind.APP_MEMORY, memory_ids, select(AppMemory.id, AppMemory.content)),
        )
        texts: dict[tuple[ItemKind, str], str] = {}
        with self.ctx.store.read() as session:
            for kind, wanted, query in queries:
                if wanted:
                    key_column = query.selected_columns[0]
                    for key, content in session.execute(query.where(key_column.in_(wanted))):
                        texts[(kind, str(key))] = content
        document = {ItemKind.WORKING: ItemKind.DOCUMENT}
        return {item: texts.get((document.get(item.kind, item.kind), item.key), "") for item in items}

    def _row_keys(self, session: Session, items: list[PromptItem]) -> dict[PromptItem, str]:
        """Each item's primary key as history records it (documents and entries by id)."""
        namespaces = {i.key for i in items if i.kind in (ItemKind.DOCUMENT, ItemKind.WORKING)}
        keys = {i.key for i in items if i.kind is ItemKind.ENTRY}
        doc_ids = self._ids(session, _DOCUMENT_IDS, namespaces)
        entry_ids = self._ids(session, _ENTRY_IDS, keys)
        found: dict[PromptItem, str] = {}
        for item in items:
            if item.kind is ItemKind.APP_MEMORY:
                found[item] = item.key
            elif item.kind is ItemKind.ENTRY and item.key in entry_ids:
                found[item] = str(entry_ids[item.key])
            elif item.key in doc_ids:
                found[item] = str(doc_ids[item.key])
        return found

    def _ids(self, session: Session, sql: str, names: set[str]) -> dict[str, int]:
        """The row id of each of ``names`` that ``sql`` finds."""
        if not names:
            return {}
        params = {f"v{index}": name for index, name in enumerate(names)}
        values = ", ".join(f":{param}" for param in params)
        return dict(self.ctx.store.raw_rows(session, sql.format(values=values), params))

    @staticmethod
    def _origin(item: PromptItem, changes: list[tuple[Origin, str | None, str | None]]) -> Origin | None:
        """The newest step for a row; for a paragraph, the newest step that added it."""
        if not changes:
            return None
        if item.text:
            paragraph = item.text.strip()
            for origin, before, after in changes:
                if paragraph in _content(after) and paragraph not in _content(before):
                    return origin
        return changes[0][0]


def _spans(section_text: str, content: str, offset: int) -> tuple[tuple[int, int], ...]:
    """Where the lines of ``content`` appear in the section, in order (offsets in the prompt).

    The composer may bullet, trim or cut what it carries, so lines are found one by one.
    """
    spans: list[tuple[int, int]] = []
    cursor = 0
    for line in content.splitlines():
        line = " ".join(line.strip().lstrip("-*• ").split())  # recall joins an entry's lines
        if len(line) < _SHORTEST_LINE:
            continue
        at = section_text.find(line, cursor)
        if at < 0:
            continue
        spans.append((offset + at, offset + at + len(line)))
        cursor = at + len(line)
    return tuple(spans)


def _content(snapshot: str | None) -> str:
    return "" if snapshot is None else str(json.loads(snapshot).get("content") or "")
