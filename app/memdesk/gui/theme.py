"""Colours and fonts derived from the current palette, so light and dark both stay readable.

Nothing here is a fixed colour: a "danger" red keeps its hue but takes its lightness from
the palette's text, and tints are the base colour mixed with a little of a hue. Widgets
that use them call ``follow`` so they are recomputed when the system palette changes.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from memdesk import APP_ID
from memdesk.resources import resource_path

# Around every view's content, so that all views line up under the toolbar (left, top, right, bottom).
VIEW_MARGINS = (16, 14, 16, 10)
VIEW_SPACING = 10
DANGER_HUE = 4
WARNING_HUE = 38
OK_HUE = 140
INFO_HUE = 210


def app_icon() -> QIcon:
    """The application icon (scalable, so sharp at any DPI), or an empty one if not shipped."""
    try:
        return QIcon(str(resource_path("icons", f"{APP_ID}.svg")))
    except FileNotFoundError:
        return QIcon()


def palette() -> QPalette:
    return QApplication.palette()


def is_dark(pal: QPalette | None = None) -> bool:
    pal = pal or palette()
    return pal.color(QPalette.ColorRole.Window).lightnessF() < 0.5


def mix(a: QColor, b: QColor, amount: float) -> QColor:
    """``a`` moved ``amount`` (0..1) of the way towards ``b``."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * amount,
        a.greenF() + (b.greenF() - a.greenF()) * amount,
        a.blueF() + (b.blueF() - a.blueF()) * amount,
    )


def accent(hue: int, pal: QPalette | None = None) -> QColor:
    """A hue at a lightness that reads well as text on the palette's base colour."""
    pal = pal or palette()
    return QColor.fromHslF(hue / 360, 0.72, 0.68 if is_dark(pal) else 0.38)


def danger(pal: QPalette | None = None) -> QColor:
    return accent(DANGER_HUE, pal)


def warning(pal: QPalette | None = None) -> QColor:
    return accent(WARNING_HUE, pal)


def ok(pal: QPalette | None = None) -> QColor:
    return accent(OK_HUE, pal)


def muted(pal: QPalette | None = None) -> QColor:
    """Secondary text: captions, expired items."""
    pal = pal or palette()
    return mix(pal.color(QPalette.ColorRole.Text), pal.color(QPalette.ColorRole.Base), 0.45)


def tint(hue: int, pal: QPalette | None = None, strength: float = 0.16) -> QColor:
    """A background washed with a hue: message bars, section bands."""
    pal = pal or palette()
    return mix(pal.color(QPalette.ColorRole.Base), accent(hue, pal), strength)


def subtle_background(pal: QPalette | None = None) -> QColor:
    """Between window and base: headers and panels that should recede."""
    pal = pal or palette()
    return mix(pal.color(QPalette.ColorRole.Window), pal.color(QPalette.ColorRole.Base), 0.5)


def scaled_font(base: QFont, scale: float, bold: bool = False) -> QFont:
    font = QFont(base)
    font.setPointSizeF(max(base.pointSizeF(), 1.0) * scale)
    font.setBold(bold)
    return font


def view_layout(view: QWidget) -> QVBoxLayout:
    """The top-level layout of a view: the shared margins and spacing."""
    layout = QVBoxLayout(view)
    layout.setContentsMargins(*VIEW_MARGINS)
    layout.setSpacing(VIEW_SPACING)
    return layout


def set_text_color(widget: QWidget, color: QColor) -> None:
    pal = widget.palette()
    pal.setColor(QPalette.ColorRole.WindowText, color)
    pal.setColor(QPalette.ColorRole.Text, color)
    widget.setPalette(pal)


def set_background(widget: QWidget, color: QColor) -> None:
    pal = widget.palette()
    pal.setColor(QPalette.ColorRole.Window, color)
    widget.setPalette(pal)
    widget.setAutoFillBackground(True)


# Qt sends ApplicationPaletteChange to top-level windows only; every other widget learns
# of a new application palette through the PaletteChange its parent passes down.
_PALETTE_EVENTS = (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange)


class _Follower(QObject):
    def __init__(self, widget: QWidget, apply: Callable[[], None]) -> None:
        super().__init__(widget)
        self._apply = apply
        self._applying = False
        widget.installEventFilter(self)

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        # ``apply`` usually sets the widget's own palette, which sends another PaletteChange.
        if event.type() in _PALETTE_EVENTS and not self._applying:
            self._applying = True
            try:
                self._apply()
            finally:
                self._applying = False
        return False


def follow(widget: QWidget, apply: Callable[[], None]) -> None:
    """Run ``apply`` now and again whenever the palette changes (a light/dark switch)."""
    apply()
    _Follower(widget, apply)


def empty_note(text: str) -> QLabel:
    """The muted, centred line a list shows in its place when it has nothing to show."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    follow(label, lambda: set_text_color(label, muted()))
    return label
