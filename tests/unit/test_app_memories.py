"""App memories: the cap with FIFO, strict isolation, edit, delete, purge."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memdesk.core.items import ItemKind
from memdesk.errors import BadInputError, NotFoundError


def add_many(app, clock, app_id, count):
    added = []
    for index in range(count):
        clock.now += timedelta(minutes=1)
        added.append(app.apps.add(app_id, f"{app_id} memory {index}"))
    return added


@pytest.mark.parametrize("count", [11, 12, 50])
def test_cap_holds_and_the_newest_survives(memdesk_app, clock, count):
    results = add_many(memdesk_app, clock, "calendar", count)
    live = memdesk_app.apps.memories("calendar")
    assert len(live) == 10
    assert live[0].content == f"calendar memory {count - 1}"
    assert {m.content for m in live} == {f"calendar memory {i}" for i in range(count - 10, count)}
    assert [m.content for m in results[10].removed] == ["calendar memory 0"]
    trashed = [item for item in memdesk_app.trash.list() if item.kind == ItemKind.APP_MEMORY]
    assert len(trashed) == count - 10


def test_apps_are_isolated(memdesk_app, clock):
    add_many(memdesk_app, clock, "calendar", 10)
    add_many(memdesk_app, clock, "email", 3)
    assert len(memdesk_app.apps.memories("calendar")) == 10
    assert all(m.app_id == "email" for m in memdesk_app.apps.memories("email"))
    memdesk_app.apps.purge("email")
    assert len(memdesk_app.apps.memories("calendar")) == 10
    summaries = {s.app_id: s for s in memdesk_app.apps.list_apps()}
    assert (summaries["calendar"].live, summaries["email"].live) == (10, 0)


def test_expired_memories_do_not_count_toward_the_cap(memdesk_app, clock):
    memdesk_app.apps.add("cal", "old and expiring", expires_at=clock.now + timedelta(hours=1))
    add_many(memdesk_app, clock, "cal", 9)
    clock.now += timedelta(hours=2)
    result = memdesk_app.apps.add("cal", "one more")
    assert result.removed == []
    assert len(memdesk_app.apps.memories("cal", include_expired=False)) == 10


def test_purge_is_one_undoable_step(memdesk_app, clock):
    add_many(memdesk_app, clock, "calendar", 7)
    assert memdesk_app.apps.purge("calendar") == 7
    assert memdesk_app.apps.memories("calendar") == []
    memdesk_app.history.undo()
    assert len(memdesk_app.apps.memories("calendar")) == 7


def test_edit_and_delete(memdesk_app, clock):
    memory = memdesk_app.apps.add("cal", "first text").memory
    clock.now += timedelta(minutes=5)
    edited = memdesk_app.apps.edit(memory.id, "second text")
    assert edited.content == "second text" and edited.updated_at == clock.now
    memdesk_app.apps.delete([memory.id])
    with pytest.raises(NotFoundError):
        memdesk_app.apps.edit(memory.id, "third")


def test_bad_input_is_refused_and_nothing_changes(memdesk_app):
    with pytest.raises(BadInputError, match="the limit is 200"):
        memdesk_app.apps.add("cal", "x" * 201)
    with pytest.raises(BadInputError, match="importance"):
        memdesk_app.apps.add("cal", "fine", importance=11)
    with pytest.raises(BadInputError, match="app id"):
        memdesk_app.apps.add("has space", "fine")
    assert memdesk_app.apps.list_apps() == []
    assert memdesk_app.history.list() == []


def test_the_app_list_can_leave_the_counting_to_the_rows_shown(memdesk_app, clock):
    app = memdesk_app
    app.apps.add("calendar", "Lunch with Ana")
    app.apps.add("calendar", "Dentist", expires_at=clock.now - timedelta(days=1))
    app.apps.add("mail", "Signs off with Best")
    app.apps.set_name("mail", "Mail")
    bare = app.apps.list_apps(counted=False)
    assert [(s.app_id, s.label, s.counted, s.over_cap) for s in bare] == [
        ("calendar", "calendar", False, False),
        ("mail", "Mail", False, False),
    ]
    [mail] = app.apps.summaries(["mail", "no-such-app"])
    assert (mail.app_id, mail.live, mail.total) == ("mail", 1, 1)
    assert app.apps.summaries(["calendar"]) == [s for s in app.apps.list_apps() if s.app_id == "calendar"]
    assert app.apps.summaries([]) == [] and app.apps.memory_count() == 3
