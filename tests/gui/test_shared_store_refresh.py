"""A window on a PostgreSQL store sees another machine's write within a second, without polling."""

from __future__ import annotations

import time

import pytest

from memdesk.services.memdesk import Memdesk

pytestmark = pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)


def test_another_machines_write_refreshes_the_open_window(main_window, memdesk_app, store_url, qtbot, settle):
    settle()
    watcher = main_window.watcher
    assert not watcher._timer.isActive()  # a server is never polled
    assert watcher._listener.wait_listening(10)
    laptop = Memdesk.open(data_dir=str(memdesk_app.paths.data_dir), db=store_url, actor="laptop")
    try:
        with qtbot.waitSignal(watcher.external_change, timeout=1000):
            started = time.monotonic()
            laptop.apps.add("notes", "Buy oat milk")
        assert time.monotonic() - started < 1
    finally:
        laptop.close()
    model = main_window.sidebar.sidebar_model
    qtbot.waitUntil(lambda: model.find("app:notes") is not None, timeout=5000)


def test_the_windows_own_write_is_not_taken_for_another_machines(main_window, tasks, qtbot, settle):
    settle()
    assert main_window.watcher._listener.wait_listening(10)
    with qtbot.assertNotEmitted(main_window.watcher.external_change, wait=500):
        tasks.write(lambda app: app.apps.add("notes", "Buy bread"))
        settle()
