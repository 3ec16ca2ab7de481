"""The background task runner: writes queued before closing still land."""

from __future__ import annotations

import threading

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
