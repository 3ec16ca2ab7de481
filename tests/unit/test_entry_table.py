"""The table queries: ids in SQL order and filtered, rows by id, guarded edits."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.entries import EntryQuery, filter_words
from memdesk.store.lifetime import entry_live
from memdesk.store.models import ChatSession, Entry, HistoryStep

T0 = datetime(2026, 2, 1, 8, 0, 0)


@pytest.fixture
def entries(memdesk_app, clock):
    """Six knowledge entries and two timeline ones, created a day apart."""
    specs = [
        ("banana", "yellow fruit from the market", 0.2, "telegram:1"),
        ("apple", "green apple pie recipe", 0.9, "discord:2"),
        ("cherry", "coffee with cherry notes", 0.5, None),
        ("date", "coffee meeting with Ana", 0.7, "telegram:1"),
        ("Elder", "elderflower cordial 100% natural", 0.1, "web:3"),
        ("fig", "fig jam and coffee beans", 0.5, "web:3"),
    ]
    for day, (key, content, importance, session) in enumerate(specs):
        memdesk_app.entries.upsert(
            key, content, importance=importance, session_id=session, created_at=T0 + timedelta(days=day)
        )
    for day, key in enumerate(("log-1", "log-2")):
        memdesk_app.entries.upsert(
            key, f"timeline {key}", category="timeline", created_at=T0 + timedelta(days=day)
        )
    return memdesk_app


def keys(app, ids):
    return [row.key for row in app.entries.rows(ids)]


def test_default_order_is_newest_first_within_the_category(entries):
    ids = entries.entries.ids(EntryQuery("knowledge"))
    assert keys(entries, ids) == ["fig", "Elder", "date", "cherry", "apple", "banana"]
    assert keys(entries, entries.entries.ids(EntryQuery("timeline"))) == ["log-2", "log-1"]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("key", ["Elder", "apple", "banana", "cherry", "date", "fig"]),  # binary order, like the index
        (
            "content",
            ["coffee meeting with Ana", "coffee with cherry notes", "elderflower cordial 100% natural"],
        ),
        ("importance", [0.1, 0.2, 0.5, 0.5, 0.7, 0.9]),
        ("session", [None, "discord:2", "telegram:1", "telegram:1", "web:3", "web:3"]),
        ("created", ["banana", "apple", "cherry", "date", "Elder", "fig"]),
    ],
)
def test_sorting_happens_in_sql_in_both_directions(entries, sort, expected):
    ascending = entries.entries.rows(entries.entries.ids(EntryQuery("knowledge", sort, False)))
    descending = entries.entries.rows(entries.entries.ids(EntryQuery("knowledge", sort, True)))
    field = {"created": "key", "session": "session_id"}.get(sort, sort)
    values = [getattr(row, field) for row in ascending]
    assert values[: len(expected)] == expected
    assert [row.id for row in descending] == [row.id for row in reversed(ascending)]  # ties by id, reversed


def test_sort_by_updated_follows_edits(entries, clock):
    clock.now = T0 + timedelta(days=30)
    entries.entries.upsert("apple", "apple crumble instead")
    ids = entries.entries.ids(EntryQuery("knowledge", "updated", True))
    assert keys(entries, ids)[0] == "apple"


def test_timeline_sorts_by_effective_expiry(entries, clock):
    def by_expiry():
        return keys(entries, entries.entries.ids(EntryQuery("timeline", "expires", False)))

    assert by_expiry() == ["log-1", "log-2"]  # retention counts from creation
    log_1 = entries.entries.get("log-1")
    entries.entries.adjust_expiry(log_1.id, extend_days=400)
    assert by_expiry() == ["log-2", "log-1"]
    entries.entries.adjust_expiry(log_1.id, pin=True)  # pinned: no expiry, sorts first
    assert by_expiry() == ["log-1", "log-2"]
    assert entries.entries.rows([log_1.id])[0].expires_at is None


def test_filter_matches_every_word_as_a_prefix_in_key_or_content(entries):
    def matching(text):
        return sorted(keys(entries, entries.entries.ids(EntryQuery("knowledge", text=text))))

    assert matching("coffee") == ["cherry", "date", "fig"]
    assert matching("cof") == ["cherry", "date", "fig"]
    assert matching("coffee beans") == ["fig"]
    assert matching("ELDER") == ["Elder"]  # the key is indexed too, and case does not matter
    assert matching("banana") == ["banana"]
    assert matching("nothing-like-this") == []


@pytest.mark.parametrize("text", ['"', "AND", "NEAR(", "*", "coffee OR", "(cherry)", "c:o"])
def test_filter_text_never_reaches_fts_syntax(entries, text):
    entries.entries.ids(EntryQuery("knowledge", text=text))  # no error


def test_filter_without_words_looks_for_the_characters(entries):
    assert keys(entries, entries.entries.ids(EntryQuery("knowledge", text="%"))) == ["Elder"]
    assert keys(entries, entries.entries.ids(EntryQuery("knowledge", text="_"))) == []


def test_filter_finds_a_word_typed_part_way_past_its_stem(entries):
    entries.entries.upsert("habit", "goes running and finds happiness")
    for typed in ("runn", "running", "happine", "happiness", "goes runni"):
        assert keys(entries, entries.entries.ids(EntryQuery("knowledge", text=typed))) == ["habit"]


def test_filter_words_are_the_words_typed_once_each():
    assert filter_words('say "hi" to Ana, say') == ["say", "hi", "to", "ana"]
    assert filter_words("  ?! ") == []


def test_limit_gives_the_head_of_the_order(entries):
    full = entries.entries.ids(EntryQuery("knowledge", "key"))
    assert entries.entries.ids(EntryQuery("knowledge", "key"), limit=2) == full[:2]


def test_trash_is_left_out_of_ids_but_rows_still_read(entries):
    ids = entries.entries.ids(EntryQuery("knowledge"))
    entries.entries.delete_key("fig")
    assert len(entries.entries.ids(EntryQuery("knowledge"))) == len(ids) - 1
    assert keys(entries, ids) == ["fig", "Elder", "date", "cherry", "apple", "banana"]
    assert keys(entries, [ids[0], 999_999, ids[1]]) == ["fig", "Elder"]  # unknown ids are skipped


def test_unknown_category_or_sort_is_refused(entries):
    with pytest.raises(BadInputError):
        entries.entries.ids(EntryQuery("notes"))
    with pytest.raises(BadInputError, match="cannot sort entries"):
        entries.entries.ids(EntryQuery("knowledge", sort="content; DROP TABLE entries"))


def test_rows_say_when_timeline_entries_expire(entries, clock):
    old, new = entries.entries.rows(entries.entries.ids(EntryQuery("timeline", "created", False)))
    retention = timedelta(days=entries.entries.retention_days)
    assert old.expires_at == T0 + retention and not old.expired
    clock.now = T0 + retention + timedelta(hours=1)
    old, new = entries.entries.rows([old.id, new.id])
    assert old.expired and not new.expired


def live_by_condition(app, category):
    """The straightforward count the sidebar's faster one must agree with."""
    with app.store.read() as session:
        return session.scalar(
            select(func.count())
            .select_from(Entry)
            .where(Entry.category == category, entry_live(app.now(), app.entries.retention_days))
        )


def test_live_entry_count_leaves_out_trash_and_expired_entries(entries, clock):
    app = entries
    assert (app.entries.live_count("knowledge"), app.entries.live_count("timeline")) == (6, 2)
    app.entries.delete_key("fig")
    app.entries.adjust_expiry(app.entries.get("cherry").id, expire=True)
    date = app.entries.get("date").id
    app.entries.adjust_expiry(date, expire=True)
    app.entries.adjust_expiry(date, pin=True)  # pinned: kept although its expiry has passed
    app.entries.upsert("log-3", "timeline log-3", category="timeline", created_at=T0)
    app.entries.adjust_expiry(app.entries.get("log-1").id, pin=True)
    assert app.entries.live_count("knowledge") == 4

    retention = timedelta(days=app.entries.retention_days)
    clock.now = T0 + retention - timedelta(days=1)
    app.entries.adjust_expiry(app.entries.get("log-3").id, extend_days=30)  # past retention, own expiry
    for now, live_timeline in [
        (T0 + retention, 3),  # log-1 pinned, log-3 extended: both outlive the retention
        (T0 + retention + timedelta(days=1), 2),  # log-2 (a day younger) ends at exactly this moment
        (T0 + retention + timedelta(days=40), 1),  # log-3's own expiry has passed too
    ]:
        clock.now = now
        assert app.entries.live_count("timeline") == live_timeline == live_by_condition(app, "timeline")
        assert app.entries.live_count("knowledge") == 4 == live_by_condition(app, "knowledge")


def test_add_entry_refuses_a_key_in_use(entries):
    row = entries.entries.add("grape", "purple", "knowledge")
    assert row.key == "grape" and row.content == "purple"
    with pytest.raises(ConflictError):
        entries.entries.add("apple", "another apple", "timeline")
    assert entries.entries.get("apple").content == "green apple pie recipe"


def test_edit_entry_writes_or_refuses_a_change_made_meanwhile(entries, clock):
    seen = entries.entries.get("apple")
    clock.now = T0 + timedelta(days=40)
    row = entries.entries.edit(seen.id, seen.updated_at, content="apple tart")
    assert row.content == "apple tart" and row.updated_at == clock.now
    with pytest.raises(ConflictError):  # the person still had the old version open
        entries.entries.edit(seen.id, seen.updated_at, content="mine")
    assert entries.entries.get("apple").content == "apple tart"
    row = entries.entries.edit(seen.id, None, importance=0.3)  # "save mine anyway"
    assert (row.content, row.importance) == ("apple tart", 0.3)
    with pytest.raises(BadInputError):
        entries.entries.edit(seen.id, None, importance=3)


def test_edit_entry_in_trash_is_not_found(entries):
    seen = entries.entries.get("apple")
    entries.entries.delete_key("apple")
    with pytest.raises(NotFoundError):
        entries.entries.edit(seen.id, seen.updated_at, content="revived?")


def test_delete_entries_is_one_undoable_step(entries):
    ids = list(entries.entries.ids(EntryQuery("knowledge")))[:3]
    with entries.store.read() as session:
        steps = session.scalar(select(func.count(HistoryStep.id)))
    assert entries.entries.delete(ids) == 3
    with entries.store.read() as session:
        assert session.scalar(select(func.count(HistoryStep.id))) == steps + 1
        assert session.scalar(select(HistoryStep.label).order_by(HistoryStep.id.desc())) == "Delete 3 entries"
    assert len(entries.entries.ids(EntryQuery("knowledge"))) == 3
    entries.history.undo()
    assert len(entries.entries.ids(EntryQuery("knowledge"))) == 6


def test_app_page_counts_live_memories(memdesk_app, clock):
    memdesk_app.apps.add("calendar", "likes mornings")
    memdesk_app.apps.add("calendar", "old plan", expires_at=clock.now + timedelta(hours=1))
    memdesk_app.apps.set_name("calendar", "Calendar")
    page = memdesk_app.apps.page("calendar")
    assert (page.label, page.cap, page.live, len(page.rows)) == ("Calendar", 10, 2, 2)
    clock.now += timedelta(hours=2)
    page = memdesk_app.apps.page("calendar")
    assert page.live == 1
    assert {row.content: row.expired for row in page.rows} == {"likes mornings": False, "old plan": True}
    unknown = memdesk_app.apps.page("nothing")
    assert (unknown.label, unknown.rows) == ("nothing", [])


def test_edit_memory_refuses_a_change_made_meanwhile(memdesk_app, clock):
    memory = memdesk_app.apps.add("calendar", "likes mornings").memory
    clock.now += timedelta(minutes=5)
    memdesk_app.apps.edit(memory.id, "likes evenings")  # another program
    with pytest.raises(ConflictError):
        memdesk_app.apps.edit(memory.id, "likes noon", memory.updated_at)
    assert memdesk_app.apps.get(memory.id).content == "likes evenings"
    assert memdesk_app.apps.edit(memory.id, "likes noon", None).content == "likes noon"


def test_message_rows_mark_what_was_compacted(memdesk_app):
    for text in ("one", "two", "three"):
        memdesk_app.sessions.log("telegram:9", "user", text)
    _first, second, _third = memdesk_app.sessions.messages("telegram:9")
    with memdesk_app.store.write() as session:
        session.get(ChatSession, "telegram:9").last_consolidated_message_id = second.id
    rows = memdesk_app.sessions.messages("telegram:9")
    assert [row.consolidated for row in rows] == [True, True, False]
    with pytest.raises(NotFoundError):
        memdesk_app.sessions.messages("telegram:404")


def test_many_ids_come_back_in_order(memdesk_app):
    rows = [
        {"key": f"k{i:05d}", "content": "x", "category": "knowledge", "importance": 0.5,
         "created_at": T0 + timedelta(seconds=i), "updated_at": T0, "pinned": False}
        for i in range(20_000)
    ]  # fmt: skip
    with memdesk_app.store.write() as session:
        session.execute(Entry.__table__.insert(), rows)
    ids = memdesk_app.entries.ids(EntryQuery("knowledge", "created", False))
    assert len(ids) == 20_000 and list(ids) == sorted(ids)


def test_delete_entries_in_chunks_counts_what_moved(memdesk_app):
    rows = [
        {"key": f"k{i:05d}", "content": "x", "category": "knowledge", "importance": 0.5,
         "created_at": T0, "updated_at": T0, "pinned": False}
        for i in range(1_200)
    ]  # fmt: skip
    with memdesk_app.store.write() as session:
        session.execute(Entry.__table__.insert(), rows)
    ids = list(memdesk_app.entries.ids(EntryQuery("knowledge")))
    assert memdesk_app.entries.delete(ids[:10]) == 10
    assert memdesk_app.entries.delete(ids) == 1_190  # the ten already in Trash are not counted
    assert len(memdesk_app.entries.ids(EntryQuery("knowledge"))) == 0
