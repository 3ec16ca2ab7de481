"""One app's memories as a table (a handful of rows: the cap is about ten)."""

from __future__ import annotations

from memdesk.gui.models.common import RowsModel, time_sort_value
from memdesk.gui.widgets.display import one_line, when
from memdesk.services.apps import MemoryRow


class AppMemoryModel(RowsModel):
    ID, CREATED, UPDATED, CONTENT, IMPORTANCE, TAGS, EXPIRES = range(7)
    HEADERS = ("Id", "Created", "Updated", "Content", "Importance", "Tags", "Expires")
    EDITABLE = frozenset({CONTENT, IMPORTANCE, TAGS})
    NUMERIC = frozenset({ID, IMPORTANCE})
    DESCENDING_FIRST = frozenset({ID, CREATED, UPDATED, IMPORTANCE})

    def display(self, row: MemoryRow, column: int) -> str:
        if column == self.ID:
            return str(row.id)
        if column == self.CREATED:
            return when(row.created_at)
        if column == self.UPDATED:
            return when(row.updated_at)
        if column == self.CONTENT:
            return one_line(row.content, 400)
        if column == self.IMPORTANCE:
            return "" if row.importance is None else str(row.importance)
        if column == self.TAGS:
            return row.tags
        if row.pinned:
            return "pinned"
        return when(row.expires_at)

    def sort_value(self, row: MemoryRow, column: int) -> object:
        if column == self.ID:
            return row.id
        if column == self.IMPORTANCE:
            return -1 if row.importance is None else row.importance
        if column == self.CREATED:
            return time_sort_value(row.created_at)
        if column == self.UPDATED:
            return time_sort_value(row.updated_at)
        if column == self.EXPIRES:
            return time_sort_value(row.expires_at)
        return self.display(row, column).casefold()

    def edit_value(self, row: MemoryRow, column: int) -> object:
        if column == self.CONTENT:
            return row.content
        if column == self.IMPORTANCE:
            return 0 if row.importance is None else row.importance
        return row.tags

    def tooltip(self, row: MemoryRow, column: int) -> str | None:
        expired = f"Expired {when(row.expires_at)}: kept here, no longer in the prompt"
        if column == self.CONTENT:  # the whole text, which the cell may cut
            source = f"\n\nFrom session {row.source_session}" if row.source_session else ""
            return row.content + source + (f"\n\n{expired}" if row.expired else "")
        if row.expired:
            return expired
        if column == self.EXPIRES and row.pinned:
            return "Pinned: never expires"
        return None
