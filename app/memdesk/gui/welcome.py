"""First start on an empty store: what Memdesk is, ways to begin (connecting an assistant among
them), and assistants' writes that already wait for review."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractScrollArea,
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
from memdesk.services.clients.known import CLIENTS

ABOUT = (
    "See and control what your assistant remembers about you: its notes on who you are, what "
    "you are working on, what each app knows, and the exact prompt it will receive.\n\n"
)
CONNECT_WIDTH = 560  # fits the smallest window beside its margins
EMPTY = "Your memory store is empty. Look around with example memories, or import what you already have."


def waiting_text(count: int) -> str:
    """What the welcome page says when assistants' writes wait for review."""
    verb = "waits" if count == 1 else "wait"
    return f"Nothing is in memory yet, but {plural(count, 'write')} by assistants {verb} for your review."


class WelcomeView(Page):
    load_example_requested = Signal()
    import_requested = Signal()
    review_requested = Signal()

    def __init__(self, store_where: str, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        icon = QLabel()
        icon.setPixmap(theme.app_icon().pixmap(QSize(72, 72)))
        icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel("Welcome to Memdesk")
        title.setFont(theme.scaled_font(self.font(), 1.9, bold=True))
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.intro = intro = QLabel(ABOUT + EMPTY)
        intro.setWordWrap(True)
        intro.setAlignment(Qt.AlignmentFlag.AlignCenter)
        intro.setFixedWidth(500)
        self.example_button = QPushButton("Load example memories")
        self.example_button.setDefault(True)
        self.example_button.setAutoDefault(True)
        self.import_button = QPushButton("Import…")
        self.import_button.setAutoDefault(True)
        self.example_button.clicked.connect(self.load_example_requested)
        self.import_button.clicked.connect(self.import_requested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.example_button)
        buttons.addWidget(self.import_button)
        buttons.addStretch(1)
        connect_title = QLabel("Connect an assistant")
        connect_title.setFont(theme.scaled_font(self.font(), 1.15, bold=True))
        # The same list as the Assistants page, without the text to add by hand.
        self.connections = ClientConnections(tasks, snippets=False)
        self.connections.setFixedWidth(CONNECT_WIDTH)
        table = self.connections.table
        # Every row when there is room; in a small window a few and a scroll bar, so the
        # Connect and Disconnect buttons under the list stay in view.
        row = table.verticalHeader().defaultSectionSize()
        chrome = table.horizontalHeader().sizeHint().height() + 2 * table.frameWidth()
        table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustIgnored)
        table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        table.setMinimumHeight(chrome + row * 3)
        table.setMaximumHeight(chrome + row * len(CLIENTS))
        # No taller than its list and buttons: the buttons stay right under the last row.
        self.connections.layout().setSizeConstraint(QLayout.SizeConstraint.SetMaximumSize)
        self.waiting = MessageBar(hue=theme.WARNING_HUE)
        self.waiting.setFixedWidth(500)
        footnote = QLabel(
            f"Assistants read and write this store with the memdesk command.\n"
            f"Nothing leaves this computer unless you set up a remote language model.\n{store_where}"
        )
        footnote.setAlignment(Qt.AlignmentFlag.AlignCenter)
        footnote.setWordWrap(True)
        footnote.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        theme.follow(footnote, lambda: theme.set_text_color(footnote, theme.muted()))
        column = QVBoxLayout()
        column.setSpacing(12)
        column.addStretch(1)
        column.addWidget(icon)
        column.addWidget(title)
        centred = QHBoxLayout()  # not an alignment flag: that would cut the wrapped text's height
        centred.addStretch(1)
        centred.addWidget(intro)
        centred.addStretch(1)
        column.addLayout(centred)
        bar = QHBoxLayout()
        bar.addStretch(1)
        bar.addWidget(self.waiting)
        bar.addStretch(1)
        column.addLayout(bar)
        column.addSpacing(6)
        column.addLayout(buttons)
        column.addSpacing(10)
        column.addWidget(connect_title, 0, Qt.AlignmentFlag.AlignHCenter)
        connect_row = QHBoxLayout()
        connect_row.addStretch(1)
        connect_row.addWidget(self.connections)
        connect_row.addStretch(1)
        column.addLayout(connect_row, 100)  # the list takes the room first, up to every row
        column.addStretch(1)
        column.addWidget(footnote)
        # In a small window the page scrolls rather than squeezing the list under its buttons.
        content = QWidget()
        margins = QHBoxLayout(content)
        margins.setContentsMargins(24, 24, 24, 16)
        margins.addLayout(column)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        self.setFocusProxy(self.example_button)

    def refresh(self) -> None:
        """Read how many of assistants' writes wait for review, and which assistants are connected."""
        self.tasks.read(lambda app: app.review.count(), on_done=self._show_waiting)
        self.connections.refresh()

    def _show_waiting(self, count: int) -> None:
        if not count:
            self.intro.setText(ABOUT + EMPTY)
            self.waiting.hide()
            return
        self.intro.setText(ABOUT + "Look around with example memories, or import what you already have.")
        self.waiting.show_message(waiting_text(count), [("Open Review", self.review_requested.emit)])
