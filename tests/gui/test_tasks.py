"""The background task runner: writes queued before closing still land."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Callable

from memdesk.gui.tasks import TaskRunner


def test_shutdown_lets_every_queued_write_finish(memdesk_app, qapp):
    runner = TaskRunner(memdesk_app)
    release = threading.Event()

    def slow_first_write(app):
        release.wait(5)
        app.entries.upsert("first", "written by the write that was running")

    runner.write(slow_first_write)
    for n in range(3):
        runner.write(lambda app, n=n: app.entries.upsert(f"queued-{n}", "queued behind the first"))
    threading.Timer(0.2, release.set).start()
    runner.shutdown()
    assert sorted(entry.key for entry in memdesk_app.entries.list()) == [
        "first",
        "queued-0",
        "queued-1",
        "queued-2",
    ]


def test_a_long_job_that_writes_counts_as_ours_even_when_it_fails(memdesk_app, qapp, qtbot):
    from memdesk.gui.refresh import StoreWatcher

    runner = TaskRunner(memdesk_app)
    watcher = StoreWatcher(runner, interval_ms=60_000)
    external: list[int] = []
    watcher.external_change.connect(lambda: external.append(1))
    watcher.start()
    runner.wait_idle()
    failures: list[Exception] = []

    def records_then_fails(app):
        app.documents.set("global", "the run recorded itself")
        raise RuntimeError("the model did not answer")

    with qtbot.waitSignal(runner.store_changed, raising=False, timeout=300) as changed:
        runner.long_write(records_then_fails, on_error=failures.append)
        runner.wait_idle()
    assert [str(error) for error in failures] == ["the model did not answer"]
    assert not changed.signal_triggered  # it failed: the window is not told it saved
    watcher.check()
    runner.wait_idle()
    assert external == []  # but its write is ours, not another program's
    with qtbot.waitSignal(runner.store_changed, timeout=2000):
        runner.long_write(lambda app: app.documents.set("global", "and again"))
    watcher.stop()
    runner.shutdown()


def test_a_widget_held_by_a_failed_reads_callback_is_freed_on_the_gui_thread(memdesk_app, qapp):
    """Freed as soon as the error is delivered, not left in a reference cycle: the garbage
    collector may run on a worker thread, and PySide then deletes the widget at an arbitrary
    moment of the GUI thread, which crashed the window."""
    from PySide6.QtWidgets import QLabel

    runner = TaskRunner(memdesk_app)
    label = QLabel("Looking…")
    freed_on: list[str] = []
    weakref.finalize(label, lambda: freed_on.append(threading.current_thread().name))
    shown: list[str] = []

    def show_in(label: QLabel) -> Callable[[Exception], None]:
        return lambda exc: shown.append(f"{label.text()} {exc}")

    def unreachable(app):
        raise ConnectionError("nobody listens there")

    gc.disable()  # only reference counting may free it
    try:
        runner.read(unreachable, on_error=show_in(label))
        del label
        assert runner.wait_idle()
        runner.shutdown()
        assert shown == ["Looking… nobody listens there"]
        assert freed_on == [threading.main_thread().name]
    finally:
        gc.enable()
