"""Everything that expires, in one list, and the actions on it: each one undoable step."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

import pytest
from sqlalchemy import event

from memdesk.core.items import ItemKind
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.expiry import DELETE, EXPIRE, EXTEND, PIN, RESTORE, Expiry, describe_upcoming, until

NOW = datetime(2026, 3, 1, 12, 0, 0)  # the clock fixture's start


def by_kind(expiry: Expiry, kind: str) -> list:
    return [item for item in expiry.items() if item.kind == kind]


def only(expiry: Expiry, kind: str):
    (item,) = by_kind(expiry, kind)
    return item


def set_memory(app, **changes) -> None:
    memory = dataclasses.replace(app.settings.memory, **changes)
    app.ctx.settings = dataclasses.replace(app.settings, memory=memory)


@pytest.fixture
def expiry(memdesk_app) -> Expiry:
    return Expiry(memdesk_app)


@pytest.fixture
def store(memdesk_app):
    """One item of each kind, written at known moments."""
    app = memdesk_app
    app.working.write("planning the trip", ttl_days=14, updated_at=NOW - timedelta(days=12))
    app.entries.upsert("trip", "Booked Paris", category="timeline", created_at=NOW - timedelta(days=80))
    app.entries.upsert("tea", "Likes green tea")  # knowledge: never expires
    app.apps.add("calendar", "Meetings after 2pm", expires_at=NOW + timedelta(days=5))
    app.apps.add("calendar", "Prefers Mondays")  # no expiry
    doomed = app.apps.add("calendar", "Old address", created_at=NOW - timedelta(days=3))
    app.apps.delete([doomed.memory.id])
    return app


def test_each_kind_with_its_dates(store, expiry):
    working = only(expiry, ItemKind.WORKING)
    assert (working.ref, working.label) == ("user/working", "working memory")
    assert (working.start, working.end) == (NOW - timedelta(days=12), NOW + timedelta(days=2))

    entry = only(expiry, ItemKind.ENTRY)  # the knowledge entry has no expiry and is left out
    assert entry.label == "timeline trip" and entry.text == "Booked Paris"
    assert (entry.start, entry.end) == (NOW - timedelta(days=80), NOW + timedelta(days=10))

    memory = only(expiry, ItemKind.APP_MEMORY)  # the memory without an expiry is left out
    assert memory.text == "Meetings after 2pm" and memory.app_id == "calendar"
    assert (memory.start, memory.end) == (NOW, NOW + timedelta(days=5))

    trashed = only(expiry, ItemKind.TRASH)
    assert trashed.ref.startswith("memory:") and trashed.label == "calendar: Old address"
    assert trashed.app_id == "calendar" and trashed.text == "Old address"
    assert (trashed.start, trashed.end) == (NOW, NOW + timedelta(days=30))  # deleted now, 30 days kept

    assert not any(item.pinned or item.expired_at_now for item in expiry.items())


def test_a_knowledge_entry_given_an_expiry_is_listed(memdesk_app, expiry):
    entry = memdesk_app.entries.upsert("tea", "Likes green tea")
    memdesk_app.entries.adjust_expiry(entry.id, extend_days=3)
    item = only(expiry, ItemKind.ENTRY)
    assert (item.label, item.end) == ("knowledge tea", NOW + timedelta(days=3))


def test_trash_purge_dates_follow_the_retention_setting(store, expiry):
    set_memory(store, trash_retention_days=7)
    store.entries.delete_key("trip")
    purges = {item.label: item.end for item in by_kind(expiry, ItemKind.TRASH)}
    assert purges == {
        "calendar: Old address": NOW + timedelta(days=7),
        "timeline trip": NOW + timedelta(days=7),
    }


def test_pinned_items_are_open_ended(store, expiry):
    store.working.pin()
    store.entries.adjust_expiry(int(only(expiry, ItemKind.ENTRY).ref), pin=True)
    expiry.pin(ItemKind.APP_MEMORY, only(expiry, ItemKind.APP_MEMORY).ref)
    for kind in (ItemKind.WORKING, ItemKind.ENTRY, ItemKind.APP_MEMORY):
        item = only(expiry, kind)
        assert item.pinned and item.end is None and not item.expired_at_now
        assert PIN not in item.actions()


def test_expired_items_stay_listed_and_are_marked(store, expiry, clock):
    clock.now = NOW + timedelta(days=6)
    states = {item.kind: item.expired_at_now for item in expiry.items()}
    assert states == {
        ItemKind.WORKING: True,
        ItemKind.ENTRY: False,
        ItemKind.APP_MEMORY: True,
        ItemKind.TRASH: False,
    }
    assert EXPIRE not in only(expiry, ItemKind.WORKING).actions()


def test_upcoming_is_soonest_first_and_skips_the_past_and_the_pinned(store, expiry):
    store.entries.upsert("old", "Long gone", category="timeline", created_at=NOW - timedelta(days=200))
    store.entries.upsert("kept", "Pinned", category="timeline", created_at=NOW - timedelta(days=1))
    store.entries.adjust_expiry(store.entries.get("kept").id, pin=True)
    lines = [describe_upcoming(item, NOW) for item in expiry.upcoming(NOW, limit=10)]
    assert lines == [
        "in 2 days: working memory",
        "in 5 days: calendar: Meetings after 2pm",
        "in 10 days: timeline trip",
        "in 30 days: purged from Trash — calendar: Old address",
    ]
    assert [item.kind for item in expiry.upcoming(NOW, limit=2)] == [ItemKind.WORKING, ItemKind.APP_MEMORY]
    later = NOW + timedelta(days=7)
    assert [item.kind for item in expiry.upcoming(later, limit=10)] == [ItemKind.ENTRY, ItemKind.TRASH]


def test_upcoming_merges_fixed_and_retention_expiries_of_entries(memdesk_app, expiry):
    memdesk_app.entries.upsert("a", "A", category="timeline", created_at=NOW - timedelta(days=85))
    memdesk_app.entries.upsert("b", "B", category="timeline", created_at=NOW - timedelta(days=10))
    memdesk_app.entries.adjust_expiry(memdesk_app.entries.get("b").id, expire=True)
    memdesk_app.entries.adjust_expiry(memdesk_app.entries.get("b").id, extend_days=2)
    assert [item.label for item in expiry.upcoming(NOW)] == ["timeline b", "timeline a"]


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(days=2), "in 2 days"),
        (timedelta(days=1, hours=2), "in 1 day"),
        (timedelta(hours=5), "in 5 hours"),
        (timedelta(minutes=1), "in 1 minute"),
        (timedelta(seconds=20), "in 1 minute"),
        (timedelta(0), "expired"),
    ],
)
def test_until_in_plain_words(delta, text):
    assert until(NOW + delta, NOW) == text


def test_reading_takes_a_fixed_number_of_queries_however_many_items(memdesk_app, expiry):
    with memdesk_app.store.write() as session:
        from memdesk.store.models import Entry

        session.execute(
            Entry.__table__.insert(),
            [
                {
                    "key": f"k{i}",
                    "content": "x",
                    "category": "timeline",
                    "importance": 0.5,
                    "created_at": NOW,
                    "updated_at": NOW,
                    "pinned": False,
                }
                for i in range(2000)
            ],
        )
    statements: list[str] = []
    engine = memdesk_app.store.read_engine
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        items = expiry.items()
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert len(items) == 2000
    # working, timeline, other entries, app memories, and Trash's four tables
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 8


def state(expiry: Expiry, kind: str, ref: str):
    """What an action can change about an item: its kind (Trash or not), end and pin."""
    match = [item for item in expiry.items() if item.ref == ref and item.kind == kind]
    return (match[0].end, match[0].pinned) if match else None


@pytest.mark.parametrize("kind", [ItemKind.WORKING, ItemKind.ENTRY, ItemKind.APP_MEMORY])
@pytest.mark.parametrize("action", [EXTEND, PIN, EXPIRE, DELETE])
def test_each_action_is_one_undoable_step(store, expiry, clock, kind, action):
    clock.now = NOW + timedelta(hours=1)
    ref = only(expiry, kind).ref
    before = state(expiry, kind, ref)
    steps = len(store.history.list())
    if action == EXTEND:
        expiry.extend(kind, ref, 7)
    else:
        getattr(expiry, action)(kind, ref)
    after = state(expiry, kind, ref)
    expected = {
        EXTEND: (before[0] + timedelta(days=7), False),
        PIN: (None, True),
        EXPIRE: (clock.now, False),
        DELETE: None,
    }[action]
    assert after == expected
    assert len(store.history.list()) == steps + 1
    if action == DELETE:
        assert len(by_kind(expiry, ItemKind.TRASH)) == 2
    store.history.undo()
    assert state(expiry, kind, ref) == before
    assert len(by_kind(expiry, ItemKind.TRASH)) == 1


def test_extending_an_expired_item_counts_from_now(store, expiry, clock):
    clock.now = NOW + timedelta(days=20)
    expiry.extend(ItemKind.WORKING, "user/working", 3)
    assert only(expiry, ItemKind.WORKING).end == clock.now + timedelta(days=3)


def test_restore_takes_an_item_out_of_trash_and_undo_puts_it_back(store, expiry):
    trashed = only(expiry, ItemKind.TRASH)
    assert trashed.actions() == (RESTORE,)
    expiry.restore(ItemKind.TRASH, trashed.ref)
    assert by_kind(expiry, ItemKind.TRASH) == []
    assert len(store.apps.memories("calendar")) == 3
    store.history.undo()
    assert only(expiry, ItemKind.TRASH) == trashed


def test_items_in_trash_refuse_everything_but_restore(store, expiry):
    ref = only(expiry, ItemKind.TRASH).ref
    with pytest.raises(BadInputError, match="restored"):
        expiry.extend(ItemKind.TRASH, ref, 3)
    with pytest.raises(BadInputError, match="only items in Trash"):
        expiry.restore(ItemKind.WORKING, "user/working")
    with pytest.raises(BadInputError, match="days must be"):
        expiry.extend(ItemKind.WORKING, "user/working", 0)
    with pytest.raises(BadInputError, match="unknown kind"):
        expiry.pin("document", "user/profile")


def test_a_gone_item_is_reported_not_found(store, expiry):
    with pytest.raises(NotFoundError):
        expiry.pin(ItemKind.APP_MEMORY, "999")
    with pytest.raises(NotFoundError):
        expiry.delete(ItemKind.ENTRY, "999")


def test_per_session_working_memory(memdesk_app, expiry):
    set_memory(memdesk_app, user_namespace="")
    memdesk_app.working.write("chat context", session_id="web:1")
    item = only(expiry, ItemKind.WORKING)
    assert (item.ref, item.label) == ("sessions/web:1/working", "working memory (sessions/web:1/working)")
    expiry.pin(ItemKind.WORKING, item.ref)
    assert only(expiry, ItemKind.WORKING).pinned


def test_working_memory_of_another_namespace_setting_can_only_be_deleted(memdesk_app, expiry):
    memdesk_app.working.write("old context")
    set_memory(memdesk_app, user_namespace="alice")
    item = only(expiry, ItemKind.WORKING)
    assert item.label == "working memory (user/working)"
    with pytest.raises(BadInputError, match="not the working memory in use"):
        expiry.extend(ItemKind.WORKING, item.ref, 2)
    expiry.delete(ItemKind.WORKING, item.ref)
    assert only(expiry, ItemKind.TRASH).label == "user/working"
