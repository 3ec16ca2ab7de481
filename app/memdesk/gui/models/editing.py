"""Editing table cells in place: the editors, and writing an edit without overwriting others.

Text cells get a multi-line editor: Enter saves, Shift+Enter starts a new line, Esc
cancels. Number cells get a spin box limited to the allowed range. The edit itself is
written by ``write_edit``: if another program changed the item while the person was
editing, they are asked whether to save over it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QDoubleSpinBox,
    QPlainTextEdit,
    QSpinBox,
    QStyleOptionViewItem,
    QWidget,
)

from memdesk.core.items import Changes
from memdesk.errors import ConflictError
from memdesk.gui import dialogs
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.tables import WrappingDelegate

if TYPE_CHECKING:  # tables are made before the store layer has loaded
    from memdesk.services.memdesk import Memdesk

Index = QModelIndex | QPersistentModelIndex
TEXT_EDITOR_LINES = 5


class CellDelegate(WrappingDelegate):
    def __init__(
        self,
        parent: QObject,
        text_columns: Iterable[int] = (),
        number_ranges: dict[int, tuple[float, float, int]] | None = None,  # min, max, decimals
    ) -> None:
        super().__init__(parent, wrap_columns=text_columns)  # text wraps on a two-line row
        self._text_columns = frozenset(text_columns)
        self._ranges = dict(number_ranges or {})

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        column = index.column()
        if column in self._text_columns:
            editor = QPlainTextEdit(parent)
            editor.setTabChangesFocus(True)
            return editor
        if column in self._ranges:
            low, high, decimals = self._ranges[column]
            spin: QSpinBox | QDoubleSpinBox
            if decimals:
                spin = QDoubleSpinBox(parent)
                spin.setDecimals(decimals)
                spin.setSingleStep(10**-decimals)
            else:
                spin = QSpinBox(parent)
            spin.setRange(low, high)
            return spin
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QPlainTextEdit):
            editor.setPlainText(str(value or ""))
            editor.moveCursor(editor.textCursor().MoveOperation.End)
        elif isinstance(editor, QSpinBox | QDoubleSpinBox):
            editor.setValue(value or 0)
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        if isinstance(editor, QPlainTextEdit):
            model.setData(index, editor.toPlainText(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QSpinBox | QDoubleSpinBox):
            editor.interpretText()
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Index) -> None:
        if not isinstance(editor, QPlainTextEdit):
            super().updateEditorGeometry(editor, option, index)
            return
        # Taller than the row, so a few lines show, and moved up if it would leave the view.
        rect = QRect(option.rect)
        rect.setHeight(max(rect.height(), editor.fontMetrics().lineSpacing() * TEXT_EDITOR_LINES + 12))
        area = editor.parentWidget().rect()
        if rect.bottom() > area.bottom():
            rect.moveBottom(area.bottom())
        rect.moveTop(max(rect.top(), 0))
        editor.setGeometry(rect)

    def eventFilter(self, editor: QObject, event: QEvent) -> bool:
        if (
            isinstance(editor, QPlainTextEdit)
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.commitData.emit(editor)
            self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)
            return True
        return super().eventFilter(editor, event)


def write_edit(
    tasks: TaskRunner,
    parent: QWidget,
    job: Callable[[Memdesk, datetime | None], Any],
    seen: datetime,
    on_done: Callable[[Any], Any],
    on_kept_theirs: Callable[[], Any],
    changes: Changes,
) -> None:
    """Run ``job(app, seen)``, which raises ConflictError if the item changed since ``seen``.

    On a conflict the person chooses: save over the other change (``job(app, None)``) or keep
    it (``on_kept_theirs``, e.g. a refresh). Other errors go to the one error path, and the
    row keeps its old text since it only changes through ``on_done``.
    """

    def failed(exc: Exception) -> None:
        if not isinstance(exc, ConflictError):
            tasks.error.emit(exc)
        elif dialogs.confirm(
            parent,
            "Changed elsewhere",
            f"{dialogs.describe_error(exc)}\n\nSave your version over it?",
            action="Save mine",
        ):
            tasks.write(lambda app: job(app, None), on_done=on_done, changes=changes)
        else:
            on_kept_theirs()

    tasks.write(lambda app: job(app, seen), on_done=on_done, on_error=failed, changes=changes)
