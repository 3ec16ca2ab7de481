"""History: one step per action, undo/redo, conflicts; Trash: restore, empty for good."""

from __future__ import annotations

import json

import pytest

from memdesk.core.items import ItemKind
from memdesk.core.privacy import ReadScope
from memdesk.errors import ConflictError, NotFoundError


def test_each_action_is_one_step_and_undo_redo_walk_them(memdesk_app):
    app = memdesk_app
    app.documents.set("user/profile", "v1")
    app.documents.set("user/profile", "v2")
    steps = app.history.list()
    assert [s.label for s in steps] == ["Edit user/profile", "Edit user/profile"]
    assert app.history.undo().label == "Edit user/profile"
    assert app.documents.text("user/profile") == "v1"
    app.history.undo()
    assert app.documents.get("user/profile") is None
    with pytest.raises(NotFoundError, match="nothing to undo"):
        app.history.undo()
    app.history.redo()
    app.history.redo()
    assert app.documents.text("user/profile") == "v2"
    with pytest.raises(NotFoundError, match="nothing to redo"):
        app.history.redo()


def test_a_new_action_discards_the_redo_stack(memdesk_app):
    app = memdesk_app
    app.documents.set("global", "a")
    app.history.undo()
    app.documents.set("global", "b")
    with pytest.raises(NotFoundError):
        app.history.redo()
    assert [s.state for s in app.history.list()] == ["done", "discarded"]


def test_undo_refuses_to_overwrite_a_newer_change(memdesk_app, isolated_data_dir):
    from memdesk.services.memdesk import Memdesk

    memdesk_app.documents.set("global", "mine")
    other = Memdesk.open(data_dir=str(isolated_data_dir), actor="cli")
    try:
        with other.store.write() as session:  # another program edits without history
            from memdesk.store.models import Document

            session.query(Document).filter_by(namespace="global").update({"content": "theirs"})
    finally:
        other.close()
    with pytest.raises(ConflictError, match=r"Document \d+ has changed since"):
        memdesk_app.history.undo()
    assert memdesk_app.documents.text("global") == "theirs"


def test_undo_of_a_search_index_change_keeps_recall_in_step(memdesk_app):
    memdesk_app.documents.set("user/facts", "- likes zebras")
    memdesk_app.documents.set("user/facts", "- likes giraffes")
    memdesk_app.history.undo()

    def recalled(query: str) -> list[str]:
        hits, _left_out = memdesk_app.recall.for_prompt(query, "user", 5, memdesk_app.now(), ReadScope())
        return [h.text for h in hits]

    assert recalled("zebras") == ["likes zebras"]
    # the undone line is out of the index; what is left is found by meaning alone
    assert recalled("giraffes") == ["likes zebras"]
    memdesk_app.update_settings(memdesk_app.settings.with_values({"memory.recall_by_meaning": False}))
    assert recalled("giraffes") == []


def test_trash_restore_and_empty(memdesk_app):
    app = memdesk_app
    memory = app.apps.add("cal", "to delete").memory
    app.entries.upsert("k", "entry")
    app.apps.delete([memory.id])
    app.entries.delete_key("k")
    items = app.trash.list()
    assert sorted(i.kind for i in items) == [ItemKind.APP_MEMORY, ItemKind.ENTRY]
    assert app.trash.count() == len(items) == 2
    assert f"memory:{memory.id}" in {i.id for i in items}
    app.trash.restore(f"memory:{memory.id}")
    assert [m.id for m in app.apps.memories("cal")] == [memory.id]
    assert app.trash.empty() == 1
    assert app.trash.list() == []
    assert app.trash.count() == 0
    with pytest.raises(NotFoundError):
        app.entries.get("k")


def test_history_names_what_was_restored_or_pinned_as_a_person_does(memdesk_app):
    app = memdesk_app
    gym = app.entries.upsert("gym", "Gym on Tuesdays")
    app.documents.set("user/facts", "- Lives in Porto")
    app.sessions.log("telegram:1", "user", "hello")
    app.entries.delete_key("gym")
    app.documents.delete("user/facts")
    app.sessions.delete("telegram:1")
    for item in app.trash.list():
        app.trash.restore(item.id)
    app.entries.adjust_expiry(gym.id, pin=True)
    pinned, *restored = [step.label for step in app.history.list(limit=4)]
    assert pinned == "Pin entry gym"
    assert sorted(restored) == [
        "Restore document user/facts from Trash",
        "Restore entry gym from Trash",
        "Restore session telegram:1 from Trash",
    ]


def test_emptied_items_cannot_be_brought_back_by_undo(memdesk_app):
    app = memdesk_app
    app.entries.upsert("secret", "my bank pin is 1234")
    app.entries.delete_key("secret")
    app.trash.empty()
    with pytest.raises(ConflictError, match="removed from Trash for good"):
        app.history.undo()
    changes = [c for s in app.history.list() for c in app.history.changes(s.id)]
    assert all("1234" not in json.dumps([c.before, c.after]) for c in changes)


def test_bad_trash_ids(memdesk_app):
    from memdesk.errors import BadInputError

    with pytest.raises(BadInputError):
        memdesk_app.trash.restore("nonsense")
    with pytest.raises(NotFoundError):
        memdesk_app.trash.restore("memory:999")


def test_emptying_trash_is_recorded_but_final(memdesk_app):
    memdesk_app.entries.upsert("k", "v")
    memdesk_app.entries.delete_key("k")
    memdesk_app.trash.empty()
    latest = memdesk_app.history.list()[0]
    assert (latest.label, latest.state) == ("Empty Trash (1 item removed for good)", "final")


def test_an_in_memory_store_works_for_scripts(tmp_path):
    from memdesk.config import LoadedSettings, Settings
    from memdesk.paths import Paths
    from memdesk.services.memdesk import Memdesk

    paths = Paths(tmp_path, tmp_path / "c.toml", "sqlite:///:memory:", tmp_path)
    app = Memdesk(paths, LoadedSettings(Settings(), ()))
    app.documents.set("global", "in memory")
    assert app.documents.text("global") == "in memory"
    app.close()


def test_failure_bookkeeping_neither_makes_steps_nor_blocks_undo(memdesk_app):
    from memdesk.store.models import ChatSession

    memdesk_app.sessions.log("web:1", "user", "hello")
    steps = len(memdesk_app.history.list())
    with memdesk_app.store.write() as session:
        session.get(ChatSession, "web:1").failure_count = 2
    assert len(memdesk_app.history.list()) == steps
    memdesk_app.history.undo()
    assert memdesk_app.sessions.list() == []


def test_listing_history_counts_changes_in_one_query(memdesk_app):
    app = memdesk_app
    for n in range(30):
        app.entries.upsert(f"k{n}", "x")
    statements: list[str] = []
    from sqlalchemy import event

    engine = app.store.read_engine
    listener = lambda *args: statements.append(args[2])  # noqa: E731 - (conn, cursor, statement, ...)
    event.listen(engine, "before_cursor_execute", listener)
    try:
        steps = app.history.list(limit=30)
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert [step.changes for step in steps] == [1] * 30
    assert len(statements) <= 3  # the steps and their counts, not one count per step


def test_a_change_tells_the_step_it_made(memdesk_app):
    app = memdesk_app
    with app.ctx.change("Save two entries"):
        app.entries.upsert("a", "one", "knowledge")
        app.entries.upsert("b", "two", "knowledge")
    (step,) = app.history.list(limit=1)
    assert app.ctx.last_step_id() == step.id and step.label == "Save two entries"
    with app.ctx.change("Nothing at all"):
        pass
    assert app.ctx.last_step_id() is None  # nothing changed, so no step
