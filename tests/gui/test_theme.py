"""Colours follow a live light/dark switch, in child widgets too (they get PaletteChange only)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from memdesk.gui import theme
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.gui.widgets.view_header import ViewHeader


@pytest.fixture
def dark(qapp) -> Iterator[QPalette]:
    """A dark application palette for one test; the previous one is put back."""
    previous = QApplication.palette()
    pal = QPalette(QColor("#2b2d30"))  # derives every role, text light on dark
    yield pal
    QApplication.setPalette(previous)


def test_child_widgets_restyle_when_the_application_palette_changes(qtbot, dark):
    window = QWidget()
    qtbot.addWidget(window)
    header = ViewHeader("Title", "A muted subtitle")
    bar = MessageBar(hue=theme.INFO_HUE)
    layout = QVBoxLayout(window)
    layout.addWidget(header)
    layout.addWidget(bar)
    bar.show_message("Hello")
    window.show()
    qtbot.waitExposed(window)
    assert not theme.is_dark()
    light_subtitle = header.subtitle.palette().color(QPalette.ColorRole.WindowText)
    light_bar = bar.palette().color(QPalette.ColorRole.Window)

    QApplication.setPalette(dark)
    QApplication.processEvents()  # the change events are posted, not sent

    assert theme.is_dark()
    subtitle = header.subtitle.palette().color(QPalette.ColorRole.WindowText)
    assert subtitle == theme.muted(dark) != light_subtitle
    assert bar.palette().color(QPalette.ColorRole.Window) == theme.tint(theme.INFO_HUE, dark) != light_bar


def test_a_child_that_sets_its_own_palette_keeps_following(qtbot, dark):
    """``apply`` changing the widget's palette sends it another PaletteChange: no loop, still followed."""
    window = QWidget()
    qtbot.addWidget(window)
    child = QWidget(window)
    calls = []

    def apply() -> None:
        calls.append(theme.is_dark())
        theme.set_text_color(child, theme.danger())

    theme.follow(child, apply)
    window.show()
    QApplication.setPalette(dark)
    QApplication.processEvents()

    assert calls == [False, True]
    assert child.palette().color(QPalette.ColorRole.WindowText) == theme.danger(dark)
