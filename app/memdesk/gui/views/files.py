"""Files: the MEMORY.md folders (global, and a trusted project) that an assistant edits itself.

Everything goes through ``services.files``; nothing here creates a folder except the first
save. Whether a project is trusted is the setting ``files.trusted_projects``, which the
"Trust this project" box writes: the window remembers only which folder was chosen. The
view follows the disk: a file watcher on the folders that exist, and a check every few
seconds for folders that appear, both only while the view is on screen.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QFileSystemWatcher,
    QModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.filecaps import MemoryEntry
from memdesk.core.items import NOTHING
from memdesk.errors import MemdeskError, NotFoundError
from memdesk.gui import dialogs, theme
from memdesk.gui.models.common import Index, TableModel
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.views.editor_view import STATE_TEXT
from memdesk.gui.widgets import display
from memdesk.gui.widgets.autosave import AutosaveController
from memdesk.gui.widgets.markdown_editor import MarkdownEditor
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.gui.widgets.path_label import PathLabel
from memdesk.gui.widgets.tables import setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services import files
from memdesk.services.files import FilesStatus, ScopeStatus
from memdesk.services.memdesk import Memdesk
from memdesk.services.projects import TRUSTED_KEY, Project, project_for, with_trust

CHECK_MS = 2000
KIND_NAMES = {"index": "Index", "topic": "Topic", "archive": "Archived"}


@dataclass(frozen=True)
class FileRow:
    name: str  # "MEMORY.md", "build.md", "archive/old.md"
    kind: str  # "index", "topic", "archive"
    size: int | None  # None: not written yet

    @property
    def folder_and_name(self) -> tuple[str, str]:
        """(sub-folder, plain name): the services take plain names inside a folder."""
        folder, _, name = self.name.rpartition("/")
        return folder, name


def file_rows(scope: ScopeStatus) -> list[FileRow]:
    """The scope's files; an index that does not exist yet is listed so it can be written."""
    rows = [FileRow(f.name, f.kind, f.size) for f in scope.files]
    if not any(row.kind == "index" for row in rows):
        rows.insert(0, FileRow(files.INDEX_NAME, "index", None))
    return rows


class FilesModel(TableModel):
    NAME, KIND, SIZE = range(3)
    HEADERS = ("File", "Kind", "Size")

    @property
    def rows(self) -> list[FileRow]:
        return self._rows

    def set_rows(self, rows: list[FileRow]) -> bool:
        """Replace the rows; False (and no reset) when nothing changed."""
        if rows == self.rows:
            return False
        self._reset_rows(rows)
        return True

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            size = "not yet" if row.size is None else display.size(row.size)
            return (row.name, KIND_NAMES[row.kind], size)[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and (row.kind == "archive" or row.size is None):
            return theme.muted()
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == self.SIZE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def describe_index(scope: ScopeStatus, status: FilesStatus, enabled: bool) -> tuple[str, bool]:
    """The sentence about what of MEMORY.md reaches the prompt, and whether it is a warning."""
    caps = f"cap: {status.max_lines:,} lines or {display.size(status.max_bytes)}"
    if not enabled:
        return "Not in the prompt: file scopes are turned off in Settings.", False
    if not status.enabled:
        return "Not in the prompt: a config.json in this folder turns injection off.", True
    index = scope.index
    if index is None:
        return f"No MEMORY.md yet: the prompt says nothing is saved ({caps}).", False
    if index.truncated:
        return (
            f"Over the cap: {display.size(index.injected_bytes)} of {display.size(index.total_bytes)} "
            f"({index.injected_lines:,} of {index.total_lines:,} lines) reach the prompt ({caps}). "
            "Move detail to topic files.",
            True,
        )
    return f"All of MEMORY.md is injected: {display.size(index.total_bytes)} ({caps}).", False


def _project_text(project: Project | None) -> str:
    if project is None:
        return "No project chosen yet."
    if project.trusted and project.root != project.folder:
        return f"Project: {project.folder} (trusted as part of the repository {project.root})"
    return f"Project: {project.folder}"


class FilesView(Page):
    project_changed = Signal(object)  # the chosen folder (Path | None): for the window to remember

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.scope = files.GLOBAL
        self.project: Path | None = None  # the chosen folder, as chosen
        self.status: FilesStatus | None = None
        self.current_scope: ScopeStatus | None = None
        self._build()
        self._watcher = QFileSystemWatcher(self)
        self._watcher.directoryChanged.connect(lambda _path: self.refresh())
        self._watcher.fileChanged.connect(lambda _path: self.refresh())
        self._timer = QTimer(self, interval=CHECK_MS)
        self._timer.timeout.connect(self.refresh)

    # --- layout --------------------------------------------------------------------------

    def _build(self) -> None:
        self.header = ViewHeader("Files")
        self.project_row = QWidget()
        row = QHBoxLayout(self.project_row)
        row.setContentsMargins(0, 0, 0, 0)
        self.project_label = QLabel()
        self.project_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.choose_button = QPushButton("Choose project…")
        self.choose_button.clicked.connect(self.choose_project)
        self.trust_box = QCheckBox("Trust this project")
        self.trust_box.setToolTip(
            "Memdesk reads a project's .pi/memory folder only when you trust the project: its "
            "files are written by whoever commits to the repository. A trusted project's MEMORY.md "
            "reaches the prompt of an assistant working in it (setting files.trusted_projects)."
        )
        self.trust_box.toggled.connect(self.set_trusted)
        row.addWidget(self.project_label, 1)
        row.addWidget(self.choose_button)
        row.addWidget(self.trust_box)
        self.index_label = QLabel()
        self.index_label.setWordWrap(True)
        self.problems = MessageBar()
        self.model = FilesModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        # A narrow list beside the editor: file names are short.
        setup_table(
            self.table, FilesModel.NAME, {FilesModel.KIND: 8, FilesModel.SIZE: 9}, stretch_min_chars=12
        )
        self.table.selectionModel().currentRowChanged.connect(self._file_selected)
        self.new_button = QPushButton("New file…")
        self.archive_button = QPushButton("Archive")
        self.restore_button = QPushButton("Restore")
        self.archive_button.setToolTip("Move the file into archive/: kept, never injected")
        self.restore_button.setToolTip("Move the file back out of archive/")
        self.new_button.clicked.connect(self.new_file)
        self.archive_button.clicked.connect(self.archive_selected_file)
        self.restore_button.clicked.connect(self.restore_selected_file)
        file_buttons = QHBoxLayout()
        for button in (self.new_button, self.archive_button, self.restore_button):
            file_buttons.addWidget(button)
        file_buttons.addStretch(1)
        self.entries_title = QLabel("Entries")
        self.entries_title.setFont(theme.scaled_font(self.font(), 1.0, bold=True))
        self.entries = QListWidget()
        self.entries.setAccessibleName("Entries")
        self.entries.setWordWrap(False)
        self.entries.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.entries.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.entry_button = QPushButton("Archive entry")
        self.entry_button.clicked.connect(self.move_selected_entry)
        self.entries.currentRowChanged.connect(lambda _row: self._update_buttons())
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.table, 3)
        left_layout.addLayout(file_buttons)
        left_layout.addSpacing(6)
        left_layout.addWidget(self.entries_title)
        left_layout.addWidget(self.entries, 2)
        left_layout.addWidget(self.entry_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.bar = MessageBar()
        self.editor = MarkdownEditor()
        self.autosave = AutosaveController(self.tasks, self.editor, self.bar)
        self.autosave.state_changed.connect(lambda state: self.save_label.setText(STATE_TEXT[state]))
        self.save_label = QLabel()
        self.file_label = PathLabel()
        for label in (self.save_label, self.file_label):
            theme.follow(label, lambda label=label: theme.set_text_color(label, theme.muted()))
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.bar)
        right_layout.addWidget(self.editor, 1)
        footer = QHBoxLayout()
        footer.addWidget(self.file_label, 1)
        footer.addWidget(self.save_label)
        right_layout.addLayout(footer)
        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setSizes([320, 700])
        self.splitter.setChildrenCollapsible(False)
        self.untrusted = QLabel()
        self.untrusted.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.untrusted.setWordWrap(True)
        theme.follow(self.untrusted, lambda: theme.set_text_color(self.untrusted, theme.muted()))
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.project_row)
        layout.addWidget(self.index_label)
        layout.addWidget(self.problems)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.untrusted, 1)
        for key, target, action in (
            (QKeySequence.StandardKey.Save, self, self.autosave.flush),
            (QKeySequence(Qt.Key.Key_Delete), self.table, self.archive_selected_file),
            (QKeySequence(Qt.Key.Key_Delete), self.entries, self.move_selected_entry),
            (QKeySequence(Qt.Key.Key_Return), self.table, self.editor.setFocus),
            (QKeySequence(Qt.Key.Key_Escape), self.editor, self.autosave.revert),
        ):
            context = (
                Qt.ShortcutContext.WidgetWithChildrenShortcut
                if target is self or target is self.editor
                else Qt.ShortcutContext.WidgetShortcut
            )
            QShortcut(key, target, context=context).activated.connect(action)
        self.setFocusProxy(self.table)

    # --- what the main window calls ------------------------------------------------------

    def set_project(self, project: Path | None) -> None:
        """The remembered project folder (no signal back)."""
        self.project = project
        self._show_trust()

    def chosen_project(self) -> Project | None:
        """The chosen folder's project, trusted as the setting says now."""
        if self.project is None:
            return None
        return project_for(self.project, self.app.settings.files.trusted_projects)

    def _show_trust(self) -> None:
        project = self.chosen_project()
        self.trust_box.blockSignals(True)
        self.trust_box.setChecked(project is not None and project.trusted)
        self.trust_box.blockSignals(False)

    def show_scope(self, scope: str) -> None:
        if scope != self.scope:
            self.autosave.flush()
        self.scope = scope
        self.refresh()

    def refresh(self) -> None:
        self._show_trust()  # the setting may have changed elsewhere (`memdesk files trust`)
        project = self.chosen_project()
        root, trusted = (project.root, project.trusted) if project else (None, False)
        self.tasks.read(lambda app: app.files.status(root, trusted), on_done=self._show_status)
        self.autosave.refresh()

    def has_unsaved_changes(self) -> bool:
        return self.autosave.has_unsaved_changes()

    def flush(self) -> None:
        self.autosave.flush()

    def showEvent(self, event: Any) -> None:
        self._timer.start()
        super().showEvent(event)

    def hideEvent(self, event: Any) -> None:
        self._timer.stop()
        self.autosave.flush()
        super().hideEvent(event)

    # --- project and trust ------------------------------------------------------------------

    def choose_project(self) -> None:
        folder = dialogs.pick_folder(self, "Choose a project folder", str(self.project or Path.home()))
        if folder is None:
            return
        self.set_project(folder)  # trusted only when the setting already lists it
        self.project_changed.emit(self.project)
        self.refresh()

    def set_trusted(self, trusted: bool) -> None:
        """Add the chosen folder to the setting files.trusted_projects, or take out what
        makes it trusted (the folder, or its repository's root)."""
        if trusted and self.project is None:
            self.choose_project()
        project = self.chosen_project()
        if project is None:
            self._show_trust()
            return
        changed = with_trust(
            self.app.settings.files.trusted_projects, project.folder if trusted else project.root, trusted
        )
        if changed is None:
            self.refresh()
            return

        def write(app: Memdesk) -> None:
            app.update_settings(app.settings.with_values({TRUSTED_KEY: list(changed)}))

        self.tasks.write(
            write,
            on_done=lambda _none: self.refresh(),
            on_error=lambda exc: (self._show_trust(), dialogs.show_error(self, exc, "Trust not changed")),
            label="Saving settings…",
        )

    # --- showing the status ------------------------------------------------------------------

    def _scope_status(self, status: FilesStatus) -> ScopeStatus | None:
        return next((scope for scope in status.scopes if scope.scope == self.scope), None)

    def _show_status(self, status: FilesStatus) -> None:
        self.status = status
        scope = self._scope_status(status)
        self.current_scope = scope
        is_project = self.scope == files.PROJECT
        self.project_row.setVisible(is_project)
        self.project_label.setText(_project_text(self.chosen_project()))
        readable = scope is not None and scope.trusted
        if not readable:
            self.header.set_text("Files · Project folder", "The project's .pi/memory folder")
            self.untrusted.setText(
                "Choose a project folder and tick “Trust this project” to see its memory files.\n"
                "Until then Memdesk does not read, list or create anything in it."
            )
            self.model.set_rows([])
            self._show_editor(None)
        else:
            assert scope is not None
            title = "Global folder" if scope.scope == files.GLOBAL else "Project folder"
            existence = "" if scope.exists else " · created when you first save a file"
            self.header.set_text(f"Files · {title}", f"{scope.folder}{existence}")
            text, warn = describe_index(scope, status, self.app.settings.files.enabled)
            self.index_label.setText(text)
            theme.set_text_color(self.index_label, theme.warning() if warn else theme.muted())
            current = self._current_row()
            if self.model.set_rows(file_rows(scope)):
                self._select_name(current.name if current else files.INDEX_NAME)
            self._watch(scope.folder)
        self.index_label.setVisible(readable)
        self.splitter.setVisible(readable)
        self.untrusted.setVisible(not readable)
        problems = scope.problems if scope is not None else ()
        if problems:
            listed = "<br>".join(html.escape(problem) for problem in problems)
            self.problems.show_message(f"<b>Config problems</b> (defaults apply):<br>{listed}")
        else:
            self.problems.hide()
        self._update_buttons()

    def _watch(self, folder: Path) -> None:
        wanted = [str(path) for path in (folder, folder / files.ARCHIVE_DIR) if path.is_dir()]
        wanted += [str(folder / files.INDEX_NAME)] if (folder / files.INDEX_NAME).is_file() else []
        stale = [path for path in self._watcher.directories() + self._watcher.files() if path not in wanted]
        if stale:
            self._watcher.removePaths(stale)
        missing = [path for path in wanted if path not in self._watcher.directories() + self._watcher.files()]
        if missing:
            self._watcher.addPaths(missing)

    def _current_row(self) -> FileRow | None:
        index = self.table.currentIndex()
        return self.model.rows[index.row()] if index.isValid() else None

    def _select_name(self, name: str) -> None:
        row = next((i for i, r in enumerate(self.model.rows) if r.name == name), 0)
        if self.model.rows:
            if self.table.currentIndex().row() != row:
                self.table.selectRow(row)
            else:
                self._open_row(self.model.rows[row])

    def _file_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._open_row(self.model.rows[current.row()] if current.isValid() else None)

    def _open_row(self, row: FileRow | None) -> None:
        self._show_editor(row)
        self._load_entries(row)
        self._update_buttons()

    def _folder_for(self, row: FileRow) -> tuple[Path, str]:
        assert self.current_scope is not None
        sub, name = row.folder_and_name
        return (self.current_scope.folder / sub if sub else self.current_scope.folder), name

    def _show_editor(self, row: FileRow | None) -> None:
        if row is None or self.current_scope is None:
            self.editor.setEnabled(False)
            self.file_label.set_path("")
            return
        folder, name = self._folder_for(row)
        self.editor.setEnabled(True)
        self.editor.preview.set_base_folder(folder)
        self.file_label.set_path(str(folder / name))

        def load(_app: Memdesk) -> str:
            try:
                return files.read_file(folder, name)
            except NotFoundError:
                return ""

        def save(_app: Memdesk, text: str) -> str:
            files.write_file(folder, name, text)
            return text

        self.autosave.open(str(folder / name), load, save)

    # --- entries of MEMORY.md -------------------------------------------------------------

    def _entries_source(self, row: FileRow | None) -> tuple[Path, bool] | None:
        """(scope folder, archived) when the row is MEMORY.md or archive/MEMORY.md."""
        if row is None or self.current_scope is None or row.size is None:
            return None
        if row.name == files.INDEX_NAME:
            return self.current_scope.folder, False
        if row.name == f"{files.ARCHIVE_DIR}/{files.INDEX_NAME}":
            return self.current_scope.folder, True
        return None

    def _load_entries(self, row: FileRow | None) -> None:
        source = self._entries_source(row)
        self.entries_title.setVisible(source is not None)
        self.entries.setVisible(source is not None)
        self.entry_button.setVisible(source is not None)
        if source is None:
            self.entries.clear()
            return
        folder, archived = source
        self.entry_button.setText("Restore entry" if archived else "Archive entry")
        self.entries_title.setText("Archived entries" if archived else "Entries (sections and bullets)")
        self.tasks.read(lambda _app: files.list_entries(folder, archived), on_done=self._show_entries)

    def _show_entries(self, entries: tuple[MemoryEntry, ...]) -> None:
        current = self.entries.currentItem()
        keep = current.data(Qt.ItemDataRole.UserRole) if current else None
        self.entries.clear()
        for entry in entries:
            item = QListWidgetItem(display.one_line(entry.title, 90))
            item.setData(Qt.ItemDataRole.UserRole, entry)
            item.setToolTip(entry.text[:1500])
            self.entries.addItem(item)
            if keep is not None and (entry.kind, entry.lines) == (keep.kind, keep.lines):
                self.entries.setCurrentItem(item)
        self._update_buttons()

    def move_selected_entry(self) -> None:
        item = self.entries.currentItem()
        source = self._entries_source(self._current_row())
        if item is None or source is None:
            return
        entry: MemoryEntry = item.data(Qt.ItemDataRole.UserRole)
        folder, archived = source
        self.autosave.flush()
        move = files.restore_entry if archived else files.archive_entry
        self.tasks.write(
            lambda _app: move(folder, entry), on_done=lambda _none: self.refresh(), changes=NOTHING
        )

    # --- file operations -------------------------------------------------------------------

    def new_file(self) -> None:
        if self.current_scope is None:
            return
        name = dialogs.ask_text(self, "New memory file", "File name (ending in .md):", "notes.md")
        if not name:
            return
        folder = self.current_scope.folder
        title = Path(name).stem.replace("-", " ").replace("_", " ").capitalize()

        def job(_app: Memdesk) -> None:
            if (folder / files.check_name(name)).exists():
                raise MemdeskError(f"{name} exists already", "Pick it in the list to edit it.")
            files.write_file(folder, name, f"# {title}\n")

        self.tasks.write(job, on_done=lambda _none: self._created(name), changes=NOTHING)

    def _created(self, name: str) -> None:
        self.refresh()
        QTimer.singleShot(0, lambda: self._select_name(name))

    def archive_selected_file(self) -> None:
        row = self._current_row()
        if row is None or row.kind == "archive" or row.size is None or self.current_scope is None:
            return
        folder, name = self.current_scope.folder, row.name
        self.autosave.flush()
        self.tasks.write(
            lambda _app: files.archive_file(folder, name),
            on_done=lambda _path: self.refresh(),
            changes=NOTHING,
        )

    def restore_selected_file(self) -> None:
        row = self._current_row()
        if row is None or row.kind != "archive" or self.current_scope is None:
            return
        folder, name = self.current_scope.folder, row.folder_and_name[1]
        self.autosave.flush()
        self.tasks.write(
            lambda _app: files.restore_file(folder, name),
            on_done=lambda _path: self.refresh(),
            changes=NOTHING,
        )

    def _update_buttons(self) -> None:
        row = self._current_row()
        self.archive_button.setEnabled(row is not None and row.kind != "archive" and row.size is not None)
        self.restore_button.setEnabled(row is not None and row.kind == "archive")
        self.new_button.setEnabled(self.current_scope is not None and self.current_scope.trusted)
        self.entry_button.setEnabled(self.entries.currentItem() is not None)
