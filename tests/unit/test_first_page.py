"""The Knowledge table's first page read with plain sqlite3 (``services.first_page``): the
same rows as the entries service gives the table's model, and None wherever the usual way of
opening a store has to decide."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest

from memdesk.core.entry_rows import EntryQuery
from memdesk.core.privacy import Target, TargetKind
from memdesk.services.first_page import read_first_page

PAGE = 25
pytestmark = pytest.mark.engines("sqlite")  # a file read with sqlite3; PostgreSQL has none


@pytest.fixture
def filled(memdesk_app, clock):
    """Knowledge entries with ties in time, one in Trash, one pinned, one expired, one private,
    and timeline entries newer than all of them."""
    app = memdesk_app
    start = clock.now - timedelta(days=30)
    for number in range(40):
        at = start + timedelta(hours=number // 3)  # three entries share each moment
        app.entries.upsert(
            f"k{number:02d}", f"fact {number}\nsecond line", "knowledge", number / 40, created_at=at
        )
    for number in range(5):
        app.entries.upsert(f"t{number}", f"day {number}", "timeline", created_at=clock.now)
    newest = app.entries.get("k39")
    app.entries.adjust_expiry(newest.id, pin=True)
    app.entries.adjust_expiry(app.entries.get("k37").id, expire=True)
    app.entries.delete([app.entries.get("k38").id])
    app.entries.upsert("k30", "fact 30, edited", importance=0.9)
    app.entries.upsert("k35", "on a session", session_id="telegram:42")
    app.privacy.set_private(Target(TargetKind.ENTRY, "k36"), True)
    app.privacy.set_private(Target(TargetKind.ENTRY, "k00"), True)  # private, but not on the page
    return app


def test_the_first_page_is_the_one_the_table_model_reads(filled, clock):
    page = read_first_page(filled.paths.db_file, clock.now, PAGE)

    assert page is not None
    served = filled.entries.rows(filled.entries.ids(EntryQuery("knowledge"), PAGE))
    assert page.rows == served
    assert [row.key for row in page.rows[:3]] == ["k39", "k37", "k36"]
    assert page.rows[0].pinned and page.rows[0].expires_at is None
    assert page.rows[1].expired
    assert page.private_keys == filled.privacy.scope().private_entries & {row.key for row in served}
    assert page.private_keys == {"k36"}


def test_a_page_longer_than_the_entries_is_all_of_them(filled, clock):
    page = read_first_page(filled.paths.db_file, clock.now, 1000)

    assert page is not None
    assert len(page.rows) == 39  # one of the 40 is in Trash; timeline entries are not here


def test_no_knowledge_entry_leaves_the_choice_to_the_usual_opening(memdesk_app, clock):
    memdesk_app.entries.upsert("t1", "a day", "timeline")
    assert read_first_page(memdesk_app.paths.db_file, clock.now, PAGE) is None


def test_a_store_that_is_not_a_sqlite_file_has_no_first_page(clock, tmp_path):
    assert read_first_page(None, clock.now, PAGE) is None  # PostgreSQL: no file
    assert read_first_page(tmp_path / "missing.sqlite3", clock.now, PAGE) is None
    assert not (tmp_path / "missing.sqlite3").exists()  # read-only: nothing made


@pytest.mark.parametrize("version", ["11", "13"])
def test_a_store_at_another_schema_version_is_left_to_the_upgrade_or_the_refusal(filled, clock, version):
    filled.close()
    with sqlite3.connect(filled.paths.db_file) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
    assert read_first_page(filled.paths.db_file, clock.now, PAGE) is None


def test_a_damaged_file_is_left_to_the_usual_opening(tmp_path, clock):
    damaged = tmp_path / "memdesk.sqlite3"
    damaged.write_bytes(b"this is not a database, just some bytes" * 100)
    assert read_first_page(damaged, clock.now, PAGE) is None


def test_a_locked_store_is_left_to_the_usual_opening(filled, clock):
    filled.close()
    holder = sqlite3.connect(filled.paths.db_file)
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE meta SET value = value WHERE key = 'schema_version'")
        assert read_first_page(filled.paths.db_file, clock.now, PAGE) is None
    finally:
        holder.rollback()
        holder.close()
