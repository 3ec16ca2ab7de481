"""The expiry timeline view on a real store: bars where their dates are, actions, filters, clicks."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QHelpEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QToolTip

from memdesk.core.items import ItemKind, ItemRef
from memdesk.gui import dialogs
from memdesk.gui.timeline.canvas import AXIS_HEIGHT, MIN_BAR_PX
from memdesk.gui.views.timeline import ExpiryTimelineView
from memdesk.services.expiry import DELETE, EXPIRE, EXTEND, PIN, RESTORE, Expiry

NOW = datetime(2026, 3, 1, 12, 0, 0)  # the clock fixture's start
SPAN_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}


@pytest.fixture
def store(memdesk_app):
    app = memdesk_app
    app.working.write("Planning the offsite", ttl_days=14, updated_at=NOW - timedelta(days=12))
    app.entries.upsert("trip", "Booked Paris", category="timeline", created_at=NOW - timedelta(days=80))
    app.apps.set_name("calendar", "Calendar")
    app.apps.add(
        "calendar",
        "Meetings after 2pm",
        created_at=NOW - timedelta(days=1),
        expires_at=NOW + timedelta(days=5),
    )
    app.apps.add(
        "mail", "Signs off with Best", created_at=NOW - timedelta(days=2), expires_at=NOW + timedelta(days=9)
    )
    gone = app.apps.add("calendar", "Old gym schedule", created_at=NOW - timedelta(days=30))
    app.apps.delete([gone.memory.id])
    return app


@pytest.fixture
def view(store, tasks, qtbot) -> ExpiryTimelineView:
    widget = ExpiryTimelineView(store, tasks)
    qtbot.addWidget(widget)
    widget.resize(1100, 600)
    with qtbot.waitSignal(widget.loaded, timeout=10000):
        widget.show()  # the first show loads
    return widget


def settle(view: ExpiryTimelineView, qtbot) -> None:
    """Let a write, the reload it starts, and any reload queued behind it finish."""
    for _ in range(3):
        assert view.tasks.wait_idle(10000)
        qtbot.wait(20)


def find(view: ExpiryTimelineView, kind: str, ref: str | None = None):
    return next(i for i in view.data.items if i.kind == kind and (ref is None or i.ref == ref))


def visible_point(view: ExpiryTimelineView, item) -> QPoint:
    rect = view.canvas.bar_rect(item)
    x = min(max(rect.left() + 6, 6), view.canvas.viewport().width() - 6)
    return QPoint(round(x), round(rect.center().y()))


@pytest.mark.parametrize("zoom", SPAN_DAYS)
def test_bars_sit_at_their_dates_at_every_zoom(view, zoom):
    canvas = view.canvas
    canvas.set_zoom(zoom)
    assert view.zoom_buttons[zoom].isChecked()
    width = canvas.viewport().width()
    px_per_day = width / SPAN_DAYS[zoom]
    now_x = canvas.scale.x_of(NOW)
    assert now_x == pytest.approx(0.3 * width)  # the preset keeps "now" where it was
    working = canvas.bar_rect(find(view, ItemKind.WORKING))  # written 12 days ago, expires in 2 days
    assert working.left() == pytest.approx(now_x - 12 * px_per_day)
    assert working.right() == pytest.approx(now_x + 2 * px_per_day)
    trash = canvas.bar_rect(find(view, ItemKind.TRASH))  # deleted now, purged in 30 days
    assert trash.left() == pytest.approx(now_x)
    assert trash.width() == pytest.approx(max(30 * px_per_day, MIN_BAR_PX))


def test_pinned_bars_run_past_the_right_edge_and_expired_ones_are_marked(view, store, qtbot):
    store.working.pin()
    store.entries.adjust_expiry(int(find(view, ItemKind.ENTRY).ref), expire=True)
    view.refresh()
    settle(view, qtbot)
    assert view.canvas.bar_rect(find(view, ItemKind.WORKING)).right() > view.canvas.viewport().width()
    assert find(view, ItemKind.WORKING).end is None
    assert find(view, ItemKind.ENTRY).expired_at_now


def test_ctrl_wheel_zooms_around_the_mouse_and_drag_pans(view, qtbot):
    canvas = view.canvas
    viewport = canvas.viewport()
    anchor = canvas.date_at(400)
    before = canvas.scale.seconds_per_px
    wheel = QWheelEvent(
        QPointF(400, 200),
        QPointF(viewport.mapToGlobal(QPoint(400, 200))),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ControlModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(viewport, wheel)
    assert canvas.scale.seconds_per_px == pytest.approx(before / 1.25)
    assert abs((canvas.date_at(400) - anchor).total_seconds()) < 1
    assert not any(button.isChecked() for button in view.zoom_buttons.values())

    now_x = canvas.scale.x_of(NOW)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=QPoint(500, 300))
    qtbot.mouseMove(viewport, QPoint(520, 300))
    qtbot.mouseMove(viewport, QPoint(580, 300))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=QPoint(580, 300))
    assert canvas.scale.x_of(NOW) == pytest.approx(now_x + 80)


@pytest.mark.parametrize("zoom", SPAN_DAYS)
def test_clicking_the_axis_asks_for_a_preview_at_that_date(view, qtbot, zoom):
    canvas = view.canvas
    canvas.set_zoom(zoom)
    target = NOW + timedelta(days=SPAN_DAYS[zoom] / 3)
    x = round(canvas.scale.x_of(target))
    with qtbot.waitSignal(view.preview_at_requested) as signal:
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, AXIS_HEIGHT // 2))
    (when,) = signal.args
    assert abs((when - target).total_seconds()) <= canvas.scale.seconds_per_px


def test_double_click_opens_the_item(view, qtbot):
    for kind, ref in (
        (ItemKind.WORKING, "user/working"),
        (ItemKind.APP_MEMORY, None),
        (ItemKind.TRASH, None),
    ):
        item = find(view, kind, ref)
        with qtbot.waitSignal(view.open_requested) as signal:
            qtbot.mouseDClick(
                view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=visible_point(view, item)
            )
        assert signal.args == [ItemRef(kind, item.ref)]


# A tooltip is a window of its own, and the offscreen platform cannot raise windows.
@pytest.mark.qt_log_ignore(r"This plugin does not support (raise|propagateSizeHints)\(\)")
def test_the_tooltip_shows_the_text_and_dates(view):
    viewport = view.canvas.viewport()
    point = visible_point(view, find(view, ItemKind.WORKING))
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, point, viewport.mapToGlobal(point)))
    text = QToolTip.text()
    assert "<b>working memory</b>" in text
    assert "written 2026-02-17 12:00 UTC" in text
    assert "expires 2026-03-03 12:00 UTC (in 2 days)" in text
    assert "Planning the offsite" in text
    QToolTip.hideText()
    assert view.canvas.tooltip_at(QPointF(10, 10)).startswith("Click to preview the prompt at 2026-")


def test_the_upcoming_list(view):
    lines = [view.upcoming.item(i).text() for i in range(view.upcoming.count())]
    assert lines == [
        "in 2 days\nworking memory",
        "in 5 days\ncalendar: Meetings after 2pm",
        "in 9 days\nmail: Signs off with Best",
        "in 10 days\ntimeline trip",
        "in 30 days\npurged from Trash — calendar: Old gym schedule",
    ]


def test_filters_hide_what_they_say(view):
    canvas = view.canvas
    assert canvas.bar_rect(find(view, ItemKind.ENTRY)) is not None
    view.kind_actions[ItemKind.ENTRY].setChecked(False)
    assert canvas.bar_rect(find(view, ItemKind.ENTRY)) is None
    assert canvas.bar_rect(find(view, ItemKind.WORKING)) is not None
    assert "Entries" not in view.kinds_button.text()
    view.kind_actions[ItemKind.ENTRY].setChecked(True)

    view.app_filter.setCurrentIndex(view.app_filter.findData("calendar"))
    shown = {(row.group, row.header) for row in canvas.rows if row.header}
    assert shown == {
        ("app_memory:calendar", "App memories · Calendar (1)"),
        (ItemKind.TRASH, "Trash · purge dates (1)"),
    }
    assert canvas.bar_rect(find(view, ItemKind.WORKING)) is None
    mail = next(i for i in view.data.items if i.app_id == "mail")
    assert canvas.bar_rect(mail) is None


def state(app, kind: str, ref: str):
    match = [i for i in Expiry(app).items() if (i.kind, i.ref) == (kind, ref)]
    return (match[0].end, match[0].pinned) if match else None


@pytest.mark.parametrize("kind", [ItemKind.WORKING, ItemKind.ENTRY, ItemKind.APP_MEMORY])
@pytest.mark.parametrize("action", [EXTEND, PIN, EXPIRE, DELETE])
def test_each_menu_action_changes_the_store_and_undoes(view, store, qtbot, monkeypatch, kind, action):
    asked = []
    monkeypatch.setattr(dialogs, "ask_int", lambda *args: asked.append(args[1:]) or 3)
    item = find(view, kind)
    before = state(store, kind, item.ref)
    menu = view.menu_for(item)
    entry = next(a for a in menu.actions() if a.objectName() == action)
    entry.trigger()
    settle(view, qtbot)
    after = state(store, kind, item.ref)
    expected = {
        EXTEND: (item.end + timedelta(days=3) if item.end else None, False),
        PIN: (None, True),
        EXPIRE: (NOW, False),
        DELETE: None,
    }[action]
    assert after == expected
    assert bool(asked) == (action == EXTEND)
    if action == DELETE:
        assert (
            find(view, ItemKind.TRASH, None)
            and len([i for i in view.data.items if i.kind == ItemKind.TRASH]) == 2
        )
    store.history.undo()
    assert state(store, kind, item.ref) == before


def test_restore_from_trash_and_undo(view, store, qtbot):
    trashed = find(view, ItemKind.TRASH)
    menu = view.menu_for(trashed)
    assert [a.objectName() for a in menu.actions() if a.objectName()] == ["open", RESTORE]
    next(a for a in menu.actions() if a.objectName() == RESTORE).trigger()
    settle(view, qtbot)
    assert not [i for i in view.data.items if i.kind == ItemKind.TRASH]
    store.history.undo()
    assert state(store, ItemKind.TRASH, trashed.ref) == (trashed.end, False)


def test_a_cancelled_extend_changes_nothing(view, store, monkeypatch, qtbot):
    monkeypatch.setattr(dialogs, "ask_int", lambda *args: None)
    steps = len(store.history.list())
    view.act(find(view, ItemKind.WORKING), EXTEND)
    settle(view, qtbot)
    assert len(store.history.list()) == steps


def test_a_failed_action_is_shown_in_plain_words(view, store, monkeypatch, qtbot):
    shown = []
    monkeypatch.setattr(dialogs, "show_error", lambda parent, exc, title="": shown.append(str(exc)))
    item = find(view, ItemKind.APP_MEMORY)
    store.apps.delete([int(item.ref)])  # gone before the menu action runs
    view.act(item, PIN)
    qtbot.waitUntil(lambda: bool(shown), timeout=5000)
    assert shown == [f"no app memory {item.ref}"]


def test_an_empty_store_says_so(memdesk_app, tasks, qtbot):
    widget = ExpiryTimelineView(memdesk_app, tasks)
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.loaded, timeout=10000):
        widget.show()
    assert widget.canvas.rows == []
    assert widget.canvas.empty_text.startswith("Nothing here expires yet.")
    assert widget.upcoming.item(0).text() == "Nothing expires."


def test_a_refresh_asked_for_during_a_load_runs_after_it(view, store, qtbot):
    view.refresh()  # a load is under way
    store.working.pin()
    view.refresh()  # coalesced: runs once the first load is done
    settle(view, qtbot)
    assert find(view, ItemKind.WORKING).pinned


@pytest.mark.parametrize("page", ["expiry", "preview"])
def test_opening_a_page_reads_the_store_once(memdesk_app, make_window, settle, monkeypatch, page):
    from memdesk.gui.views import preview, timeline

    reads: list[str] = []
    for module, name in ((timeline, "read_timeline"), (preview, "compose_preview")):
        original = getattr(module, name)

        def counted(*args, original=original, name=name):
            reads.append(name)
            return original(*args)

        monkeypatch.setattr(module, name, counted)
    memdesk_app.working.write("Planning the offsite", ttl_days=3)
    window = make_window()
    settle()
    reads.clear()
    window.show_page(page)
    settle()
    assert reads == [{"expiry": "read_timeline", "preview": "compose_preview"}[page]]
