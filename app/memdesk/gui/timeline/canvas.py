"""The painted timeline: a date axis, a "now" line, and a bar per item from written to expiry.

Only what is on screen is painted: rows by the vertical scroll position, bars by bisecting
each lane to the visible time range, so thousands of items repaint in a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from PySide6.QtCore import QEvent, QLineF, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QContextMenuEvent,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QLinearGradient,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from memdesk.core.items import ItemKind
from memdesk.core.timefmt import utcnow
from memdesk.gui import theme
from memdesk.gui.timeline.describe import bar_label, tooltip_html, when_text
from memdesk.gui.timeline.geometry import NOW_AT, ZOOMS, Tick, TimeScale, majors, ticks
from memdesk.gui.timeline.rows import Row
from memdesk.services.expiry import ExpiringItem

AXIS_HEIGHT = 44
ROW_HEIGHT = 22
BAR_MARGIN = 3
MIN_BAR_PX = 3.0
LABEL_MIN_PX = 40.0
PINNED_FADE_PX = 80.0
DRAG_THRESHOLD_PX = 4
WHEEL_ZOOM = 1.25  # per wheel notch
KIND_HUES = {
    ItemKind.WORKING: theme.WARNING_HUE,
    ItemKind.ENTRY: theme.INFO_HUE,
    ItemKind.APP_MEMORY: theme.OK_HUE,
    ItemKind.TRASH: theme.DANGER_HUE,
}


class _Style:
    """Pens and brushes, made once per palette rather than once per bar."""

    def __init__(self) -> None:
        pal = theme.palette()
        self.base = pal.color(QPalette.ColorRole.Base)
        self.text = pal.color(QPalette.ColorRole.Text)
        self.muted = theme.muted(pal)
        self.axis = theme.subtle_background(pal)
        self.header = theme.mix(self.axis, self.base, 0.3)
        self.grid = QPen(theme.mix(self.base, self.text, 0.07), 1)
        self.grid_major = QPen(theme.mix(self.base, self.text, 0.16), 1)
        self.border = QPen(theme.mix(self.base, self.text, 0.25), 1)
        self.now = theme.accent(theme.DANGER_HUE, pal)
        self.highlight = pal.color(QPalette.ColorRole.Highlight)
        self.fill = {kind: theme.tint(hue, pal, 0.42) for kind, hue in KIND_HUES.items()}
        self.fill_expired = {kind: theme.tint(hue, pal, 0.14) for kind, hue in KIND_HUES.items()}
        self.edge = {kind: QPen(theme.accent(hue, pal), 1) for kind, hue in KIND_HUES.items()}
        self.edge_expired = {
            kind: QPen(theme.mix(theme.accent(hue, pal), self.base, 0.55), 1, Qt.PenStyle.DashLine)
            for kind, hue in KIND_HUES.items()
        }


@dataclass
class _Bars:
    """The bars on screen, sorted by how they are painted."""

    fills: dict[tuple[str, bool], list[QRectF]] = field(default_factory=dict)  # (kind, expired)
    pinned: list[tuple[QRectF, tuple[str, bool]]] = field(default_factory=list)
    highlighted: list[QRectF] = field(default_factory=list)
    labels: list[tuple[QRectF, str]] = field(default_factory=list)
    faded_labels: list[tuple[QRectF, str]] = field(default_factory=list)
    hints: list[tuple[QRectF, bool]] = field(default_factory=list)  # (row, bars are before it)


class TimelineCanvas(QAbstractScrollArea):
    item_activated = Signal(object)  # ExpiringItem: double-click or Enter
    menu_requested = Signal(object, QPoint)  # ExpiringItem, global position
    date_clicked = Signal(object)  # datetime under a click on the axis
    zoom_changed = Signal(str)  # the preset now shown, or "" after a free zoom

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Expiry timeline")
        self.viewport().setMouseTracking(True)
        self.verticalScrollBar().setSingleStep(ROW_HEIGHT)
        self.verticalScrollBar().valueChanged.connect(self.viewport().update)
        self._rows: list[Row] = []
        self._row_of_items: dict[tuple[str, str], int] | None = {}
        self._now = utcnow()
        self._zoom = "month"
        self._scale = TimeScale.showing(ZOOMS[self._zoom], self._width(), self._now)
        self._placed = False
        self._hover: ExpiringItem | None = None
        self.selected: ExpiringItem | None = None
        self.empty_text = ""
        self._press: QPointF | None = None
        self._last: QPointF | None = None
        self._dragged = False
        self._style: _Style
        theme.follow(self, self._restyle)  # sets the style now, and again when the palette changes

    # -- state ---------------------------------------------------------------------------

    @property
    def scale(self) -> TimeScale:
        return self._scale

    @property
    def zoom(self) -> str:
        return self._zoom

    @property
    def now(self) -> datetime:
        return self._now

    @property
    def rows(self) -> list[Row]:
        return self._rows

    def set_rows(self, rows: list[Row], now: datetime) -> None:
        self._rows = rows
        if not self._placed:  # the first data decides where "now" is; later loads keep the view
            self._placed = True
            self._scale = TimeScale.showing(ZOOMS[self._zoom or "month"], self._width(), now)
        self._now = now
        self._row_of_items = None  # made when first asked
        if self.selected is not None:
            self.selected = self._same_item(self.selected)
        self._hover = None
        self._update_scroll_range()
        self.viewport().update()

    def _row_of(self) -> dict[tuple[str, str], int]:
        """The row of each item, by (kind, ref): built on first use, not on every load, since a
        load of 10,000 items would spend a frame's worth of time on it for nothing."""
        if self._row_of_items is None:
            self._row_of_items = {
                (item.kind, item.ref): index
                for index, row in enumerate(self._rows)
                if row.lane is not None
                for item in row.lane.items
            }
        return self._row_of_items

    def set_zoom(self, name: str) -> None:
        """Show a day, week, month or year, keeping the moment at the anchor point in place."""
        anchor = self._scale.time_at(self._width() * NOW_AT)
        self._scale = TimeScale.showing(ZOOMS[name], self._width(), anchor)
        self._set_zoom_name(name)
        self.viewport().update()

    def zoom_by(self, factor: float, anchor_x: float | None = None) -> None:
        x = self._width() / 2 if anchor_x is None else anchor_x
        self._scale = self._scale.zoomed(factor, x, self._width())
        self._set_zoom_name("")
        self.viewport().update()

    def pan_by(self, dx: float) -> None:
        self._scale = self._scale.panned(dx)
        self.viewport().update()

    def center_on(self, when: datetime) -> None:
        """Put ``when`` at the anchor point (where "now" sits after a zoom preset)."""
        self._scale = TimeScale.showing(self._scale.span(self._width()), self._width(), when)
        self.viewport().update()

    def scroll_to_item(self, item: ExpiringItem) -> None:
        index = self._row_of().get((item.kind, item.ref))
        if index is None:
            return
        bar = self.verticalScrollBar()
        top = index * ROW_HEIGHT
        if not bar.value() <= top <= bar.value() + self._plot_height() - ROW_HEIGHT:
            bar.setValue(max(0, top - self._plot_height() // 3))
        if item.end is not None and not 0 <= self._scale.x_of(item.end) <= self._width():
            self.center_on(item.end)
        self.selected = item
        self.viewport().update()

    # -- geometry ------------------------------------------------------------------------

    def _width(self) -> float:
        return float(max(self.viewport().width(), 1))

    def _plot_height(self) -> int:
        return max(self.viewport().height() - AXIS_HEIGHT, 0)

    def row_top(self, index: int) -> float:
        """The y of a row's top edge in the viewport."""
        return AXIS_HEIGHT + index * ROW_HEIGHT - self.verticalScrollBar().value()

    def bar_rect(self, item: ExpiringItem) -> QRectF | None:
        """The bar of ``item`` in viewport coordinates; None when it is filtered out.

        A pinned bar runs past the right edge; a bar is never thinner than a few pixels.
        """
        index = self._row_of().get((item.kind, item.ref))
        return None if index is None else self._bar_rect_in(index, item)

    def _bar_rect_in(self, index: int, item: ExpiringItem) -> QRectF:
        """The bar of ``item``, known to be in row ``index`` (painting knows it: no lookup)."""
        left = self._scale.x_of(item.start)
        right = self._width() + PINNED_FADE_PX if item.end is None else self._scale.x_of(item.end)
        right = max(right, left + MIN_BAR_PX)
        top = self.row_top(index) + BAR_MARGIN
        return QRectF(left, top, right - left, ROW_HEIGHT - 2 * BAR_MARGIN)

    def item_at(self, pos: QPointF) -> ExpiringItem | None:
        if pos.y() < AXIS_HEIGHT:
            return None
        index = int((pos.y() - AXIS_HEIGHT + self.verticalScrollBar().value()) // ROW_HEIGHT)
        if not 0 <= index < len(self._rows) or self._rows[index].lane is None:
            return None
        lane = self._rows[index].lane
        slack = timedelta(seconds=self._scale.seconds_per_px * MIN_BAR_PX)
        moment = self._scale.time_at(pos.x())
        for i in lane.between(moment - slack, moment + slack):
            rect = self._bar_rect_in(index, lane.items[i])
            if rect.contains(pos):
                return lane.items[i]
        return None

    def date_at(self, x: float) -> datetime:
        return self._scale.time_at(x)

    def _same_item(self, item: ExpiringItem) -> ExpiringItem | None:
        """The fresh copy of ``item`` after a reload, if it is still shown."""
        index = self._row_of().get((item.kind, item.ref))
        if index is None:
            return None
        lane = self._rows[index].lane
        return next((other for other in lane.items if other.ref == item.ref), None)

    def _update_scroll_range(self) -> None:
        bar = self.verticalScrollBar()
        bar.setRange(0, max(0, len(self._rows) * ROW_HEIGHT - self._plot_height()))
        bar.setPageStep(max(self._plot_height(), ROW_HEIGHT))

    def _set_zoom_name(self, name: str) -> None:
        if name != self._zoom:
            self._zoom = name
            self.zoom_changed.emit(name)

    def _restyle(self) -> None:
        self._style = _Style()
        self.viewport().update()

    # -- painting ------------------------------------------------------------------------

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        try:
            self._paint(painter)
        finally:
            painter.end()

    def _paint(self, painter: QPainter) -> None:
        style = self._style
        width = self._width()
        height = self.viewport().height()
        painter.fillRect(QRectF(0, 0, width, height), style.base)
        minor = ticks(self._scale, width)
        for major in (False, True):
            painter.setPen(style.grid_major if major else style.grid)
            painter.drawLines([QLineF(t.x, AXIS_HEIGHT, t.x, height) for t in minor if t.major == major])
        self._paint_rows(painter, width, height)
        now_x = self._scale.x_of(self._now)
        now_box = self._now_box(now_x) if 0 <= now_x <= width else QRectF()
        self._paint_axis(painter, width, minor, now_box)
        if not now_box.isNull():
            painter.setPen(QPen(style.now, 2))
            painter.drawLine(QLineF(now_x, AXIS_HEIGHT - 6, now_x, height))
            self._paint_now_label(painter, now_box)
        if not self._rows and self.empty_text:
            painter.setPen(style.muted)
            area = QRectF(24, AXIS_HEIGHT, width - 48, height - AXIS_HEIGHT)
            painter.drawText(area, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text)

    def _paint_rows(self, painter: QPainter, width: float, height: float) -> None:
        """Collect what is on screen, then paint it a style at a time (few painter calls)."""
        scroll = self.verticalScrollBar().value()
        first = scroll // ROW_HEIGHT
        last = min(len(self._rows), (scroll + self._plot_height()) // ROW_HEIGHT + 1)
        t0 = self._scale.time_at(-MIN_BAR_PX)
        t1 = self._scale.time_at(width)
        metrics = QFontMetricsF(self.font())
        headers: list[tuple[QRectF, str]] = []
        bars = _Bars()
        for index in range(first, last):
            row = self._rows[index]
            if row.lane is None:
                headers.append((QRectF(0, self.row_top(index), width, ROW_HEIGHT), row.header or ""))
                continue
            shown = row.lane.between(t0, t1)
            for i in shown:
                self._collect_bar(
                    bars, self._bar_rect_in(index, row.lane.items[i]), row.lane.items[i], width, metrics
                )
            if not shown:  # say where this lane's bars are, rather than leave it blank
                top = self.row_top(index)
                before = shown.start > 0
                bars.hints.append((QRectF(8, top, width - 16, ROW_HEIGHT), before))
        painter.save()
        painter.setClipRect(QRectF(0, AXIS_HEIGHT, width, height - AXIS_HEIGHT))
        self._paint_headers(painter, headers)
        self._paint_bars(painter, bars, width)
        painter.restore()

    def _collect_bar(
        self, bars: _Bars, rect: QRectF, item: ExpiringItem, width: float, metrics: QFontMetricsF
    ) -> None:
        # Keep coordinates near the screen: a bar years long at day zoom is still one short rect.
        visible = rect.intersected(QRectF(-4, rect.top(), width + PINNED_FADE_PX + 8, rect.height()))
        key = (item.kind, item.expired_at_now)
        if item.end is None:
            bars.pinned.append((visible, key))
        else:
            bars.fills.setdefault(key, []).append(visible)
        if item is self._hover or item == self.selected:
            bars.highlighted.append(visible.adjusted(1, 1, -1, -1))
        shown_left = max(visible.left(), 0.0)
        room = min(visible.right(), width) - shown_left - 8
        if room >= LABEL_MIN_PX:
            label = metrics.elidedText(bar_label(item), Qt.TextElideMode.ElideRight, room)
            where = QRectF(shown_left + 4, visible.top(), room, visible.height())
            (bars.faded_labels if item.expired_at_now else bars.labels).append((where, label))

    def _paint_headers(self, painter: QPainter, headers: list[tuple[QRectF, str]]) -> None:
        if not headers:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._style.header)
        painter.drawRects([rect for rect, _ in headers])
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(self._style.text)
        for rect, text in headers:
            painter.drawText(rect.adjusted(8, 0, -8, 0), Qt.AlignmentFlag.AlignVCenter, text)
        painter.setFont(self.font())

    def _paint_bars(self, painter: QPainter, bars: _Bars, width: float) -> None:
        style = self._style
        painter.setPen(Qt.PenStyle.NoPen)
        for (kind, expired), rects in bars.fills.items():
            painter.setBrush(style.fill_expired[kind] if expired else style.fill[kind])
            painter.drawRects(rects)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for (kind, expired), rects in bars.fills.items():
            painter.setPen(style.edge_expired[kind] if expired else style.edge[kind])
            painter.drawRects([rect.adjusted(0.5, 0.5, -0.5, -0.5) for rect in rects])
        for rect, (kind, expired) in bars.pinned:
            self._paint_pinned(painter, rect, kind, expired, width)
        if bars.highlighted:
            painter.setPen(QPen(style.highlight, 2))
            painter.drawRects(bars.highlighted)
        for color, labels in ((style.text, bars.labels), (style.muted, bars.faded_labels)):
            painter.setPen(color)
            for rect, text in labels:
                painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter, text)
        painter.setPen(style.muted)
        for rect, before in bars.hints:
            side = Qt.AlignmentFlag.AlignLeft if before else Qt.AlignmentFlag.AlignRight
            painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | side, "‹ earlier" if before else "later ›")

    def _paint_pinned(self, painter: QPainter, rect: QRectF, kind: str, expired: bool, width: float) -> None:
        """An open-ended bar: it fades out at the right edge, where a chevron says it goes on."""
        fill = self._style.fill_expired[kind] if expired else self._style.fill[kind]
        gradient = QLinearGradient(max(rect.left(), 0), 0, width, 0)
        transparent = QColor(fill)
        transparent.setAlphaF(0.0)
        gradient.setColorAt(0.0, fill)
        gradient.setColorAt(max(0.0, 1 - PINNED_FADE_PX / max(width, 1)), fill)
        gradient.setColorAt(1.0, transparent)
        painter.fillRect(rect, QBrush(gradient))
        painter.setPen(QPen(self._style.edge[kind].color(), 1.5))
        mid = rect.center().y()
        chevrons = QPainterPath()
        for x in (width - 14.0, width - 8.0):
            chevrons.moveTo(x - 4, mid - 4)
            chevrons.lineTo(x, mid)
            chevrons.lineTo(x - 4, mid + 4)
        painter.drawPath(chevrons)

    def _paint_axis(self, painter: QPainter, width: float, minor: list[Tick], now_box: QRectF) -> None:
        style = self._style
        painter.fillRect(QRectF(0, 0, width, AXIS_HEIGHT), style.axis)
        painter.setPen(style.border)
        painter.drawLines(
            [QLineF(0, AXIS_HEIGHT - 0.5, width, AXIS_HEIGHT - 0.5)]
            + [QLineF(t.x, AXIS_HEIGHT - (10 if t.major else 5), t.x, AXIS_HEIGHT) for t in minor]
        )
        half = AXIS_HEIGHT / 2
        metrics = QFontMetricsF(self.font())
        for major in (False, True):
            painter.setPen(style.text if major else style.muted)
            for tick in minor:
                label = QRectF(tick.x + 3, half, metrics.horizontalAdvance(tick.label), half - 4)
                # Labels cut by an edge or under the "now" marker are left out.
                inside = label.left() >= 0 and label.right() <= width and not label.intersects(now_box)
                if tick.major == major and inside:
                    painter.drawText(label, Qt.AlignmentFlag.AlignVCenter, tick.label)
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(style.text)
        metrics = QFontMetricsF(bold)
        spans = majors(self._scale, width)
        for index, tick in enumerate(spans):
            # A unit that began off screen is labelled at the left edge, until the next pushes it away.
            x = max(tick.x, 0.0) + 4
            end = spans[index + 1].x if index + 1 < len(spans) else width
            room = end - x - 4
            if room > 20:
                label = metrics.elidedText(tick.label, Qt.TextElideMode.ElideRight, room)
                painter.drawText(QRectF(x, 2, room, half - 2), Qt.AlignmentFlag.AlignVCenter, label)
        painter.setFont(self.font())

    def _now_box(self, x: float) -> QRectF:
        metrics = QFontMetricsF(self.font())
        box = QRectF(0, 0, metrics.horizontalAdvance("now") + 10, metrics.height() + 2)
        box.moveCenter(QPointF(x, AXIS_HEIGHT - box.height() / 2 - 1))
        return box

    def _paint_now_label(self, painter: QPainter, box: QRectF) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._style.now)
        painter.drawRoundedRect(box, 4, 4)
        painter.setPen(self._style.base)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, "now")
        painter.setBrush(Qt.BrushStyle.NoBrush)

    # -- interaction ---------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        old = event.oldSize().width()
        super().resizeEvent(event)
        new = self.viewport().width()
        if old > 0:
            self._scale = self._scale.with_width(float(old), float(new))
        else:
            self._scale = TimeScale.showing(ZOOMS.get(self._zoom, ZOOMS["month"]), new, self._now)
        self._update_scroll_range()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        pos = event.position()
        if pos.y() < AXIS_HEIGHT:
            self.date_clicked.emit(self.date_at(pos.x()))
            return
        self._press = self._last = pos
        self._dragged = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        if self._press is not None and self._last is not None:
            if not self._dragged and (pos - self._press).manhattanLength() >= DRAG_THRESHOLD_PX:
                self._dragged = True
                self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            if self._dragged:
                delta = pos - self._last
                self._scale = self._scale.panned(delta.x())
                bar = self.verticalScrollBar()
                bar.setValue(bar.value() - round(delta.y()))
                self._last = pos
                self.viewport().update()
            return
        on_axis = pos.y() < AXIS_HEIGHT
        self.viewport().setCursor(
            Qt.CursorShape.PointingHandCursor if on_axis else Qt.CursorShape.ArrowCursor
        )
        hover = self.item_at(pos)
        if hover is not self._hover:
            self._hover = hover
            self.viewport().update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._press is not None:
            if not self._dragged:
                self.selected = self.item_at(event.position())
                self.viewport().update()
            self._press = self._last = None
            self._dragged = False
            self.viewport().unsetCursor()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        item = self.item_at(event.position())
        if item is not None and event.button() == Qt.MouseButton.LeftButton:
            self.selected = item
            self.item_activated.emit(item)

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta()
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom_by(WHEEL_ZOOM ** (delta.y() / 120), event.position().x())
        elif delta.x() or event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.pan_by((delta.x() or delta.y()) / 2)
        else:
            super().wheelEvent(event)
            return
        event.accept()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if event.reason() == QContextMenuEvent.Reason.Mouse:
            item = self.item_at(QPointF(event.pos()))
            at = event.globalPos()
        else:
            item = self.selected
            rect = self.bar_rect(item) if item is not None else None
            at = self.viewport().mapToGlobal(rect.center().toPoint() if rect else QPoint(0, AXIS_HEIGHT))
        if item is not None:
            self.selected = item
            self.viewport().update()
            self.menu_requested.emit(item, at)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        step = self._width() / 8
        if key == Qt.Key.Key_Left:
            self.pan_by(step)
        elif key == Qt.Key.Key_Right:
            self.pan_by(-step)
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(WHEEL_ZOOM)
        elif key == Qt.Key.Key_Minus:
            self.zoom_by(1 / WHEEL_ZOOM)
        elif key == Qt.Key.Key_Home:
            self.center_on(self._now)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.selected is not None:
            self.item_activated.emit(self.selected)
        else:
            super().keyPressEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hover = None
        self.viewport().update()
        super().leaveEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(QPointF(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def tooltip_at(self, pos: QPointF) -> str:
        if pos.y() < AXIS_HEIGHT:
            return f"Click to preview the prompt at {when_text(self.date_at(pos.x()))}"
        item = self.item_at(pos)
        return tooltip_html(item, self._now) if item is not None else ""
