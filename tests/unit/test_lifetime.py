"""The expiry rule is written once in Python and once in SQL: prove the two agree.

Rows for every combination of pinned, own expiry, category, age and Trash go into a real
SQLite file; at several moments the SQL conditions must select exactly the rows the Python
rule calls live, and the subtractive count must equal the direct one.
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from memdesk.core import lifetime
from memdesk.store.engine import Store
from memdesk.store.lifetime import (
    document_live,
    entry_expiry,
    entry_live,
    entry_not_live_parts,
    memory_live,
)
from memdesk.store.models import App, AppMemory, Document, Entry

NOW = datetime(2026, 6, 1, 12, 0, 0)
RETENTION_DAYS = 90
MOMENTS = [NOW - timedelta(days=200), NOW, NOW + timedelta(days=45), NOW + timedelta(days=400)]
OWN_EXPIRIES = [None, NOW - timedelta(days=1), NOW, NOW + timedelta(days=1), NOW + timedelta(days=100)]
AGES = [timedelta(0), timedelta(days=89, hours=23), timedelta(days=90), timedelta(days=365)]


CATEGORIES = ("knowledge", "timeline")


@pytest.fixture
def store(tmp_path, store_url):
    """The rule is checked on every engine: the same expressions compile for each."""
    store = Store(store_url or f"sqlite:///{tmp_path / 'grid.sqlite3'}")
    yield store
    store.close()


def _grid():
    return itertools.product([False, True], OWN_EXPIRIES, CATEGORIES, AGES, [False, True])


def test_entry_rule_in_sql_equals_the_python_rule(store):
    expected_expiry = {}
    with store.write() as session:
        for n, (pinned, own, category, age, trashed) in enumerate(_grid()):
            created = NOW - age
            session.add(
                Entry(
                    key=f"k{n}",
                    content="x",
                    category=category,
                    created_at=created,
                    updated_at=created,
                    expires_at=own,
                    pinned=pinned,
                    deleted_at=NOW - timedelta(days=3) if trashed else None,
                )
            )
            retention = lifetime.entry_retention(category, RETENTION_DAYS)
            expected_expiry[f"k{n}"] = (lifetime.expires_at(pinned, own, created, retention), trashed)
    for moment in MOMENTS:
        with store.read() as session:
            live_sql = set(session.scalars(select(Entry.key).where(entry_live(moment, RETENTION_DAYS))))
            total = session.scalar(select(func.count()).select_from(Entry))
            not_live = [
                session.scalar(select(func.count()).select_from(Entry).where(part))
                for category in CATEGORIES
                for part in entry_not_live_parts(moment, RETENTION_DAYS, category)
            ]
        live_python = {
            key
            for key, (expiry, trashed) in expected_expiry.items()
            if lifetime.is_live(NOW if trashed else None, expiry, moment)
        }
        assert live_sql == live_python, moment
        assert total - sum(not_live) == len(live_python), moment


def test_entry_expiry_in_sql_orders_like_the_python_rule(store):
    with store.write() as session:
        for n, (pinned, own, category, age, _trashed) in enumerate(_grid()):
            created = NOW - age
            session.add(
                Entry(
                    key=f"k{n}",
                    content="x",
                    category=category,
                    created_at=created,
                    updated_at=created,
                    expires_at=own,
                    pinned=pinned,
                )
            )
    with store.read() as session:
        rows = session.execute(select(Entry, entry_expiry(RETENTION_DAYS).label("expiry"))).all()
    for entry, sql_expiry in rows:
        retention = lifetime.entry_retention(entry.category, RETENTION_DAYS)
        python_expiry = lifetime.expires_at(entry.pinned, entry.expires_at, entry.created_at, retention)
        if python_expiry is None:
            assert sql_expiry is None, entry.key
        else:
            assert sql_expiry is not None, entry.key
            assert abs((datetime.fromisoformat(str(sql_expiry)) - python_expiry).total_seconds()) < 0.01


@pytest.mark.parametrize("model", [AppMemory, Document])
def test_memory_and_document_rules_in_sql_equal_the_python_rule(store, model):
    expected = {}
    with store.write() as session:
        session.add(App(app_id="a", created_at=NOW))
        for n, (pinned, own, _category, age, trashed) in enumerate(_grid()):
            created = NOW - age
            common = dict(
                content="x",
                created_at=created,
                updated_at=created,
                expires_at=own,
                pinned=pinned,
                deleted_at=NOW if trashed else None,
            )
            if model is AppMemory:
                row = AppMemory(app_id="a", **common)
            else:
                row = Document(namespace=f"n{n}", **common)
            session.add(row)
            session.flush()
            expected[row.id] = (lifetime.expires_at(pinned, own, created), trashed)
    condition = memory_live if model is AppMemory else document_live
    for moment in MOMENTS:
        with store.read() as session:
            live_sql = set(session.scalars(select(model.id).where(condition(moment))))
        live_python = {
            row_id
            for row_id, (expiry, trashed) in expected.items()
            if lifetime.is_live(NOW if trashed else None, expiry, moment)
        }
        assert live_sql == live_python, moment


def test_recall_finds_exactly_the_live_entries(memdesk_app):
    """Recall writes its full-text SQL by hand: it must still apply the same rule."""
    retention = memdesk_app.settings.memory.timeline_retention_days
    expected = {}
    with memdesk_app.store.write() as session:
        for n, (pinned, own, category, age, trashed) in enumerate(_grid()):
            created = NOW - age
            session.add(
                Entry(
                    key=f"k{n}",
                    content="the needle in the grid",
                    category=category,
                    created_at=created,
                    updated_at=created,
                    expires_at=own,
                    pinned=pinned,
                    deleted_at=NOW if trashed else None,
                )
            )
            kept = lifetime.entry_retention(category, retention)
            expected[f"k{n}"] = (lifetime.expires_at(pinned, own, created, kept), trashed)
    for moment in MOMENTS:
        found = {hit.ref for hit in memdesk_app.recall.entries("needle", limit=1000, now=moment)}
        live = {
            key
            for key, (expiry, trashed) in expected.items()
            if lifetime.is_live(NOW if trashed else None, expiry, moment)
        }
        assert found == live, moment
