"""One PostgreSQL store, two machines: two ``Memdesk`` objects on one database.

Each stands for a program on a machine of its own (its own engines, pools and listener).
"""

from __future__ import annotations

import queue
import threading
import time

import pytest
from sqlalchemy import text

from memdesk.errors import ConflictError
from memdesk.services.memdesk import Memdesk

pytestmark = pytest.mark.engines("postgresql")

WRITES_PER_THREAD = 25


@pytest.fixture
def other_machine(memdesk_app, store_url, clock):
    other = Memdesk.open(data_dir=str(memdesk_app.paths.data_dir), db=store_url, actor="laptop", clock=clock)
    yield other
    other.close()


def _write_many(app: Memdesk, prefix: str, errors: list[BaseException]) -> None:
    try:
        for number in range(WRITES_PER_THREAD):
            app.entries.upsert(f"{prefix}-{number}", f"Note {number} written by {prefix}")
    except BaseException as exc:  # collected, so the test fails with it rather than hangs
        errors.append(exc)


def test_concurrent_writers_on_two_machines_lose_nothing(memdesk_app, other_machine):
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=_write_many, args=(app, f"{name}{thread}", errors))
        for name, app in (("desk", memdesk_app), ("laptop", other_machine))
        for thread in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    keys = {row.key for row in memdesk_app.entries.list(limit=1000)}
    assert len(keys) == 4 * WRITES_PER_THREAD
    assert len(memdesk_app.history.list(limit=1000)) == 4 * WRITES_PER_THREAD
    # Every write raised the revision once, none overwrote another's.
    assert memdesk_app.store.revision() == other_machine.store.revision() >= 4 * WRITES_PER_THREAD


def test_the_per_app_cap_holds_under_concurrent_adds(memdesk_app, other_machine):
    cap = memdesk_app.apps.cap
    errors: list[BaseException] = []

    def add(app: Memdesk, who: str) -> None:
        try:
            for number in range(cap):
                app.apps.add("calendar", f"{who} preference {number}")
        except BaseException as exc:
            errors.append(exc)

    threads = [
        threading.Thread(target=add, args=pair) for pair in ((memdesk_app, "desk"), (other_machine, "laptop"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    live = memdesk_app.apps.live_memories("calendar", memdesk_app.now(), 100)
    assert len(live) == cap
    # The rest went to Trash (oldest out first), not lost.
    assert memdesk_app.trash.count() == cap


def test_undo_refuses_to_overwrite_another_machines_newer_change(memdesk_app, other_machine):
    memdesk_app.documents.set("global", "mine")
    other_machine.documents.set("global", "theirs")
    with pytest.raises(ConflictError, match="has changed since"):
        memdesk_app.history.undo(memdesk_app.history.list(limit=10)[-1].id)
    assert other_machine.documents.text("global") == "theirs"


def test_a_listener_hears_another_machines_write_at_once(memdesk_app, other_machine):
    heard: queue.Queue[int] = queue.Queue()
    listener = memdesk_app.store.listen(heard.put, lambda exc: pytest.fail(str(exc)))
    try:
        assert listener.wait_listening(10)
        started = time.monotonic()
        other_machine.apps.add("notes", "Buy oat milk")
        revision = heard.get(timeout=1)
        assert time.monotonic() - started < 1
        assert revision == other_machine.store.revision()
        assert revision not in memdesk_app.store.written_revisions
        memdesk_app.apps.add("notes", "Buy bread")
        own = heard.get(timeout=1)
        assert own in memdesk_app.store.written_revisions
    finally:
        listener.stop()


def test_a_write_that_fails_announces_nothing(memdesk_app, other_machine):
    heard: queue.Queue[int] = queue.Queue()
    listener = other_machine.store.listen(heard.put, lambda exc: pytest.fail(str(exc)))
    try:
        assert listener.wait_listening(10)
        with pytest.raises(RuntimeError), memdesk_app.store.write() as session:
            session.connection()
            raise RuntimeError("changed my mind")
        with pytest.raises(queue.Empty):
            heard.get(timeout=0.5)
    finally:
        listener.stop()


def _count(session) -> int:
    return session.execute(text("SELECT count(*) FROM entries")).scalar_one()


def test_a_read_sees_one_snapshot_and_a_hot_read_sees_each_commit(memdesk_app, other_machine):
    with memdesk_app.store.read() as session:
        before = _count(session)
        other_machine.entries.upsert("during-read", "written while the read was open")
        assert _count(session) == before  # one snapshot for the whole read
    with memdesk_app.store.read(consistent=False) as session:
        before = _count(session)
        other_machine.entries.upsert("during-hot-read", "written while the hot read was open")
        # no transaction around its statements (no BEGIN/ROLLBACK round trips): each sees
        # what was committed when it ran
        assert _count(session) == before + 1
