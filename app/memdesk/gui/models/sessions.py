"""Conversation sessions, and the messages of one session."""

from __future__ import annotations

from PySide6.QtCore import Qt

from memdesk.gui.models.common import Index, RowsModel, time_sort_value
from memdesk.gui.widgets.display import when
from memdesk.services.sessions import MessageRow, SessionSummary


class SessionModel(RowsModel):
    SESSION, CHANNEL, APP, MESSAGES, UNCONSOLIDATED, LAST_MESSAGE, LAST_CONSOLIDATED = range(7)
    HEADERS = ("Session", "Channel", "App", "Messages", "Not compacted", "Last message", "Last compacted")
    NUMERIC = frozenset({MESSAGES, UNCONSOLIDATED})
    DESCENDING_FIRST = frozenset({MESSAGES, UNCONSOLIDATED, LAST_MESSAGE, LAST_CONSOLIDATED})

    def display(self, row: SessionSummary, column: int) -> str:
        if column == self.SESSION:
            return row.id
        if column == self.CHANNEL:
            return row.channel
        if column == self.APP:
            return row.app_id or ""
        if column == self.MESSAGES:
            return f"{row.messages:,}"
        if column == self.UNCONSOLIDATED:
            return f"{row.unconsolidated:,}"
        if column == self.LAST_MESSAGE:
            return when(row.last_message_at)
        return when(row.last_consolidated_at) or "never"

    def sort_value(self, row: SessionSummary, column: int) -> object:
        if column == self.MESSAGES:
            return row.messages
        if column == self.UNCONSOLIDATED:
            return row.unconsolidated
        if column == self.LAST_MESSAGE:
            return time_sort_value(row.last_message_at)
        if column == self.LAST_CONSOLIDATED:
            return time_sort_value(row.last_consolidated_at)
        return self.display(row, column).casefold()

    def tooltip(self, row: SessionSummary, column: int) -> str | None:
        if column == self.UNCONSOLIDATED:
            return f"{row.unconsolidated:,} messages not yet compacted into memory"
        if column == self.LAST_CONSOLIDATED and row.failure_count:
            return f"The last {row.failure_count} compactions failed"
        return None


class MessageModel(RowsModel):
    ROLE, TIME, TEXT = range(3)
    HEADERS = ("Role", "Time", "Text")

    def display(self, row: MessageRow, column: int) -> str:
        if column == self.ROLE:
            return row.role
        if column == self.TIME:
            return when(row.created_at)
        return row.content

    def tooltip(self, row: MessageRow, column: int) -> str | None:
        return "Compacted into memory" if row.consolidated else "Not compacted yet"

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.TextAlignmentRole and index.isValid():
            return Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop  # wrapped text starts at the top
        return super().data(index, role)
