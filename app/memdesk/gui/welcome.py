"""First start on an empty store: what Memdesk is, ways to begin (connecting an assistant among
them), and assistants' writes that already wait for review."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.views.client_connections import ClientConnections
from memdesk.gui.widgets.display import plural
from memdesk.gui.widgets.message_bar import MessageBar

ABOUT = (
    "See and control what your assistant remembers about you: its notes on who you are, what "
    "you are working on, what each app knows, and the exact prompt it will receive.\n\n"
)
EMPTY = "Your memory store is empty. Look around with example memories, or import what you already have."
INTRO_WIDTH = 420  # the text beside or above the list, in lines a reader takes in at once
CONNECT_WIDTH = 560  # the list's three columns without cutting a config file's name
MARGIN = 24  # around the page; half of it when the page is short
LEAST_ROWS = 3  # of the list, before the page scrolls
GAP = 36  # between the text and the list when they stand side by side
# (icon size, spacing between the parts): the regular look, and the one for a short page.
REGULAR = (72, 12)
COMPACT = (44, 6)


def waiting_text(count: int) -> str:
    """What the welcome page says when assistants' writes wait for review."""
    verb = "waits" if count == 1 else "wait"
    return f"Nothing is in memory yet, but {plural(count, 'write')} by assistants {verb} for your review."


class _Content(QWidget):
    """The scrolled page. It asks for its least height at a width, not its preferred one, so
    the list gives up rows (down to LEAST_ROWS) before the page scrolls."""

    def heightForWidth(self, width: int) -> int:
        return self.layout().totalMinimumHeightForWidth(width)


class WelcomeView(Page):
    """What Memdesk is, the two ways to begin, and the assistants to connect, arranged to the
    page: side by side when it is wide, the icon beside the title and less space between the
    parts when it is short, so that every button shows without scrolling in a small window."""

    load_example_requested = Signal()
    import_requested = Signal()
    review_requested = Signal()

    def __init__(self, store_where: str, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.icon = QLabel()
        self.icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title = title = QLabel("Welcome to Memdesk")
        title.setFont(theme.scaled_font(self.font(), 1.9, bold=True))
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.heading = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.heading.addWidget(self.icon)
        self.heading.addWidget(title)
        self.intro = intro = QLabel(ABOUT + EMPTY)
        intro.setWordWrap(True)
        intro.setAlignment(Qt.AlignmentFlag.AlignCenter)
        intro.setFixedWidth(INTRO_WIDTH)
        self.example_button = QPushButton("Load example memories")
        self.example_button.setDefault(True)
        self.example_button.setAutoDefault(True)
        self.import_button = QPushButton("Import…")
        self.import_button.setAutoDefault(True)
        self.example_button.clicked.connect(self.load_example_requested)
        self.import_button.clicked.connect(self.import_requested)
        self.waiting = MessageBar(hue=theme.WARNING_HUE)
        self.waiting.setFixedWidth(INTRO_WIDTH)
        # What Memdesk is and the two ways to begin: one block, beside the list or above it.
        self.start = QWidget()
        start = QVBoxLayout(self.start)
        start.setContentsMargins(0, 0, 0, 0)
        start.addLayout(self.heading)
        start.setAlignment(self.heading, Qt.AlignmentFlag.AlignHCenter)
        for widget in (
            intro,
            self.waiting,
        ):  # not an alignment flag: that would cut the wrapped text's height
            centred = QHBoxLayout()
            centred.addStretch(1)
            centred.addWidget(widget)
            centred.addStretch(1)
            start.addLayout(centred)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.example_button)
        buttons.addWidget(self.import_button)
        buttons.addStretch(1)
        start.addLayout(buttons)
        self.start.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.connect_block = QWidget()
        connect = QVBoxLayout(self.connect_block)
        connect.setContentsMargins(0, 0, 0, 0)
        connect_title = QLabel("Connect an assistant")
        connect_title.setFont(theme.scaled_font(self.font(), 1.15, bold=True))
        connect_title.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        connect.addWidget(connect_title, 0, Qt.AlignmentFlag.AlignHCenter)
        # The same list as the Assistants page, without the text to add by hand.
        self.connections = ClientConnections(tasks, snippets=False)
        self.connections.setFixedWidth(CONNECT_WIDTH)
        table = self.connections.table
        table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustIgnored)
        table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._size_list()
        self.connections.model.modelReset.connect(self._size_list)
        # No taller than its list and buttons: the buttons stay right under the last row.
        self.connections.layout().setSizeConstraint(QLayout.SizeConstraint.SetMaximumSize)
        connect.addWidget(self.connections, 1, Qt.AlignmentFlag.AlignHCenter)
        # No taller than the title and the whole list: the room left goes above and below.
        connect.setSizeConstraint(QLayout.SizeConstraint.SetMaximumSize)
        footnote = QLabel(
            f"Assistants read and write this store with the memdesk command.\n"
            f"Nothing leaves this computer unless you set up a remote language model.\n{store_where}"
        )
        footnote.setAlignment(Qt.AlignmentFlag.AlignCenter)
        footnote.setWordWrap(True)
        footnote.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        theme.follow(footnote, lambda: theme.set_text_color(footnote, theme.muted()))
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.body.addWidget(self.start)
        self.body.addWidget(self.connect_block, 1)  # the list takes the room first, up to every row
        self.column = QVBoxLayout()
        self.column.addStretch(1)
        self.column.addLayout(self.body, 100)
        self.column.addStretch(1)
        self.column.addWidget(footnote)
        # Should even the short arrangement not fit, the page scrolls rather than squeezing the
        # list under its buttons.
        self.content = _Content()
        self.margins = QHBoxLayout(self.content)
        self.margins.addLayout(self.column)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(self.content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll)
        self.setFocusProxy(self.example_button)
        self.wide = False  # the text and the list side by side
        self._arrange(compact=False)

    def _size_list(self) -> None:
        """Every row when there is room; in a small window a few and a scroll bar, so the
        Connect and Disconnect buttons under the list stay in view."""
        table = self.connections.table
        row = table.verticalHeader().defaultSectionSize()
        chrome = table.horizontalHeader().sizeHint().height() + 2 * table.frameWidth()
        table.setMinimumHeight(chrome + row * LEAST_ROWS)
        table.setMaximumHeight(chrome + row * max(LEAST_ROWS, self.connections.model.rowCount()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """Side by side when the text and the list fit in one row; the short arrangement when
        the regular one is taller than the page."""
        size = self.size()
        self.wide = size.width() >= INTRO_WIDTH + GAP + CONNECT_WIDTH + 2 * MARGIN
        self.body.setDirection(
            QBoxLayout.Direction.LeftToRight if self.wide else QBoxLayout.Direction.TopToBottom
        )
        # Beside the list, the text stands at the middle of its height.
        self.body.setAlignment(
            self.start, Qt.AlignmentFlag.AlignVCenter if self.wide else Qt.AlignmentFlag(0)
        )
        self._arrange(compact=False)
        if self.content.heightForWidth(size.width()) > size.height():
            self._arrange(compact=True)

    def _arrange(self, compact: bool) -> None:
        icon_size, spacing = COMPACT if compact else REGULAR
        self.icon.setPixmap(theme.app_icon().pixmap(QSize(icon_size, icon_size)))
        self.heading.setDirection(
            QBoxLayout.Direction.LeftToRight if compact else QBoxLayout.Direction.TopToBottom
        )
        self.heading.setSpacing(spacing * 2 if compact else spacing)
        for layout in (self.start.layout(), self.connect_block.layout(), self.column):
            layout.setSpacing(spacing)
        self.body.setSpacing(GAP if self.wide else spacing * 2)
        margin = MARGIN // 2 if compact else MARGIN
        self.margins.setContentsMargins(margin, margin, margin, margin * 2 // 3)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit()

    def refresh(self) -> None:
        """Read how many of assistants' writes wait for review, and which assistants are connected."""
        self.tasks.read(lambda app: app.review.count(), on_done=self._show_waiting)
        self.connections.refresh()

    def _show_waiting(self, count: int) -> None:
        if not count:
            self.intro.setText(ABOUT + EMPTY)
            self.waiting.hide()
        else:
            self.intro.setText(ABOUT + "Look around with example memories, or import what you already have.")
            self.waiting.show_message(waiting_text(count), [("Open Review", self.review_requested.emit)])
        self._fit()  # the bar takes room: the arrangement may change
