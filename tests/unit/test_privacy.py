"""Private items and read limits in the services: recall and the composer leave private items
out as if absent, still give as many results as asked, and say to the person what was left
out; marks are undoable; limits are read on every call."""

from __future__ import annotations

import pytest

from memdesk.core.privacy import OUTSIDE_LIMIT, Target, TargetKind
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.privacy import parse_target
from memdesk.services.prompt import PromptSpec


@pytest.fixture
def store(memdesk_app):
    app = memdesk_app
    for number in range(8):
        app.entries.upsert(f"coffee_{number}", f"Coffee with friend number {number} on Thursdays")
    app.documents.set("user/profile", "Name: Ada")
    app.documents.set("user/facts", "- Drinks coffee black")
    app.apps.add("health", "Sees a therapist every Thursday.")
    app.apps.add("work", "Stand-up at nine.")
    return app


def _private(app, kind: TargetKind, name: str) -> None:
    assert app.privacy.set_private(Target(kind, name), True)


def test_recall_skips_private_entries_and_still_fills_the_limit(store):
    best = [hit.ref for hit in store.recall.entries("coffee Thursdays", 5)]
    for key in best[:3]:
        _private(store, TargetKind.ENTRY, key)
    hits = [hit.ref for hit in store.recall.entries("coffee Thursdays", 5)]
    assert len(hits) == 5 and not set(hits) & set(best[:3])
    assert hits[:2] == best[3:]  # the rest keep their order


def test_recall_looks_deeper_when_private_entries_fill_its_first_pass(store):
    for number in range(40):
        store.entries.upsert(f"kiln_{number:02d}", f"Glaze firing number {number} in the kiln")
    best = [hit.ref for hit in store.recall.entries("kiln glaze firing", 40)]
    for key in best[:35]:
        _private(store, TargetKind.ENTRY, key)
    hits = [hit.ref for hit in store.recall.entries("kiln glaze firing", 5)]
    assert sorted(hits) == sorted(best[35:])


def test_the_composer_leaves_private_items_out_as_if_absent(store):
    _private(store, TargetKind.DOC, "user/profile")
    _private(store, TargetKind.APP, "health")
    _private(store, TargetKind.DOC, "user/facts")
    top = store.recall.entries("coffee", 1)[0].ref
    _private(store, TargetKind.ENTRY, top)
    composed = store.prompt.compose(PromptSpec(app="health", message="coffee"))
    sections = {section.name: section for section in composed.sections}
    assert not sections["profile"].included and sections["profile"].reason == "empty"
    assert not sections["app"].included and sections["app"].reason == "empty"
    assert "Ada" not in composed.text and "therapist" not in composed.text and "black" not in composed.text
    assert top not in sections["recall"].source and "coffee_" in sections["recall"].source
    assert composed.private == ("doc:user/profile", "app:health", f"entry:{top}", "doc:user/facts")
    assert "private" not in str(composed.to_json())  # what assistants get names nothing


def test_an_app_limit_composes_within_it_for_that_reader_only(store):
    store.privacy.set_app_limit("mcp:coder", ["health"])
    as_coder = store.prompt.compose(PromptSpec(app="work", reader="mcp:coder"))
    app_section = next(s for s in as_coder.sections if s.name == "app")
    assert not app_section.included and app_section.reason == OUTSIDE_LIMIT
    assert "Stand-up" in store.prompt.compose(PromptSpec(app="work")).text
    assert "Stand-up" in store.prompt.compose(PromptSpec(app="work", reader="mcp:other")).text
    with store.ctx.acting_as("mcp:coder"):  # a server's call: the actor is the reader
        assert "Stand-up" not in store.prompt.compose(PromptSpec(app="work")).text
    store.privacy.set_app_limit("coder", None)
    assert store.privacy.scope("mcp:coder").apps is None


def test_marks_are_history_steps_that_undo(store):
    target = Target(TargetKind.APP, "health")
    assert store.privacy.set_private(target, True)
    assert not store.privacy.set_private(target, True)  # already: no second step
    assert store.history.list(1)[0].label == "Make app health private"
    store.history.undo()
    assert not store.privacy.is_private(target)
    store.history.redo()
    assert store.privacy.is_private(target)
    assert [(str(i.target), i.exists) for i in store.privacy.list()] == [("app:health", True)]


def test_bad_targets(store):
    steps = store.history.list(50)
    with pytest.raises(NotFoundError, match="no entry 'nope'"):
        store.privacy.set_private(Target(TargetKind.ENTRY, "nope"), True)
    with pytest.raises(NotFoundError, match="no document 'user/patterns'"):
        store.privacy.set_private(parse_target("doc:user/patterns"), True)
    for text in ("health", "user:x", ":x", "app:bad app"):
        with pytest.raises(BadInputError):
            parse_target(text)
    assert parse_target("ENTRY:coffee_1") == Target(TargetKind.ENTRY, "coffee_1")
    assert store.history.list(50) == steps  # nothing was written
    with pytest.raises(BadInputError, match="at least one app"):
        store.privacy.set_app_limit("mcp:coder", [])


def test_an_export_carries_the_marks_to_another_store(store, tmp_path):
    from memdesk.services.memdesk import Memdesk

    _private(store, TargetKind.APP, "health")
    _private(store, TargetKind.ENTRY, "coffee_1")
    path = tmp_path / "export.json"
    assert store.transfer.export_file(path)["private_items"] == 2
    other = Memdesk.open(data_dir=str(tmp_path / "other"), db=str(tmp_path / "other.sqlite3"))
    try:
        other.transfer.import_file(path)
        assert [str(item.target) for item in other.privacy.list()] == ["app:health", "entry:coffee_1"]
        assert "therapist" not in other.prompt.compose(PromptSpec(app="health")).text
    finally:
        other.close()


def test_an_assistants_write_names_no_private_fact_it_contradicts(memdesk_app):
    from memdesk.servers.tools import MemoryTools

    app = memdesk_app
    app.documents.set("user/facts", "- Lives in Berlin")
    app.entries.upsert("home_city", "Lives in Paris now")
    app.health.look()
    tools = MemoryTools(app)
    with app.ctx.acting_as("mcp:test"):
        reply = tools.memory_store("new_home", "Lives in Madrid", "knowledge")
    assert {fact["key"] for fact in reply.data["conflicts"] if "key" in fact} == {"home_city"}
    _private(app, TargetKind.ENTRY, "home_city")
    with app.ctx.acting_as("mcp:test"):
        reply = tools.memory_store("newer_home", "Lives in Lisbon", "knowledge")
    assert "Paris" not in reply.text
    named = reply.data["conflicts"]
    assert {fact.get("key") for fact in named} == {"new_home", None}  # not home_city
    assert "user/facts" in {fact.get("namespace") for fact in named}
    seen = {fact.text for f in app.health.findings() for fact in (f.first, f.second)}
    assert {"Lives in Lisbon", "Lives in Paris now"} <= seen  # the person sees that conflict
