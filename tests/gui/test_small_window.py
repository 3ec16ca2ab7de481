"""At the smallest window a new user may open (900×640), nothing a user needs is cut or out
of reach: the welcome page's Connect buttons, the preview's tabs, field hints and the expiry
list's names."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QScrollArea

SMALL = (900, 640)


def test_the_welcome_page_keeps_connect_and_disconnect_in_view(client_home, main_window, settle):
    main_window.resize(*SMALL)
    main_window.show_page("welcome")
    settle()
    welcome = main_window.views["welcome"]
    scroll = welcome.findChild(QScrollArea)
    viewport = scroll.viewport()
    for button in (welcome.connections.connect_button, welcome.connections.disconnect_button):
        bottom = button.mapTo(viewport, QPoint(0, button.height())).y()
        assert 0 < bottom <= viewport.height(), button.text()
    table = welcome.connections.table
    assert table.height() >= table.minimumHeight()  # a few rows, and a scroll bar for the rest


def test_the_preview_keeps_its_tabs_and_hints_whole(main_window, memdesk_app, settle):
    main_window.resize(*SMALL)
    main_window.show_page("preview")
    settle()
    view = main_window.views["preview"]
    bar = view.tabs.tabBar()
    assert all(bar.tabRect(i).right() <= bar.width() for i in range(bar.count()))
    assert not view.tabs.cornerWidget()
    line = view.message
    room = line.width() - 2 * line.style().pixelMetric(line.style().PixelMetric.PM_DefaultFrameWidth) - 8
    assert line.fontMetrics().horizontalAdvance(line.placeholderText()) <= room
    assert "recalled" in line.toolTip()


def test_the_expiry_list_has_room_for_an_entry_name(main_window, memdesk_app, settle):
    memdesk_app.entries.add("2026-02-03-team-offsite", "Team offsite idea", "timeline")
    main_window.resize(*SMALL)
    main_window.show_page("expiry")
    settle()
    view = main_window.views["expiry"]
    listed = view.upcoming
    texts = [listed.item(i).text() for i in range(listed.count())]
    name = next(text.split("\n")[1] for text in texts if "team-offsite" in text)
    room = listed.viewport().width() - 2 * listed.spacing() - 8
    assert listed.fontMetrics().horizontalAdvance(name) <= room, name


def test_a_section_source_wraps_in_the_gutter_rather_than_being_cut(main_window, memdesk_app, settle):
    from PySide6.QtGui import QFontMetricsF

    from memdesk.gui.views.preview import wrap_words

    memdesk_app.documents.set("user/profile", "Name: Ada.\nLives in Zürich.\nEdits in Helix.")
    main_window.resize(*SMALL)
    main_window.show_page("preview")
    settle()
    view = main_window.views["preview"].prompt_view
    metrics = QFontMetricsF(view.font())
    room = view.gutter.width() - 20  # the gutter's text room, less its colour strip
    lines = wrap_words("user/profile", metrics, room)
    assert "".join(lines) == "user/profile"  # every character shown, none elided
    assert all(metrics.horizontalAdvance(line) <= room for line in lines)
