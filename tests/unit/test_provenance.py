"""Who wrote each item a prompt carries, read from history."""

from __future__ import annotations

from memdesk.core.items import ItemKind
from memdesk.services.prompt import PromptItem, PromptSpec
from memdesk.services.review import Write


def _origins(memdesk, **spec):
    found = memdesk.provenance.of_prompt(memdesk.prompt.compose(PromptSpec(**spec)))
    return {(item.kind, item.key, item.text): origin for item, origin in found.items()}


def test_each_item_names_its_writer_and_undo_moves_it_back(memdesk_app):
    app = memdesk_app
    app.documents.set("user/profile", "Name: Ada")
    app.apps.add("calendar", "Prefers mornings")
    with app.ctx.acting_as("api:picobot"):
        app.review.submit(Write.save_entry("editor", "Ada writes Rust in Helix"))
    with app.ctx.acting_as("mcp:web-agent"):
        app.review.submit(Write.append_document("user/facts", "- Ada has a cat called Rust"))
    app.documents.append("user/facts", "- Ada runs on Sundays")

    origins = _origins(app, app="calendar", message="rust")
    assert origins[(ItemKind.DOCUMENT, "user/profile", "")].writer == "you"
    [memory] = [o for (kind, _key, _text), o in origins.items() if kind is ItemKind.APP_MEMORY]
    assert memory.writer == "you"
    entry = origins[(ItemKind.ENTRY, "editor", "")]
    assert entry.writer == "api:picobot" and entry.by_assistant
    cat = origins[(ItemKind.DOCUMENT, "user/facts", "Ada has a cat called Rust")]
    assert cat.writer == "mcp:web-agent"  # the paragraph's own step, not the later append

    app.history.undo(entry.step_id)
    assert (ItemKind.ENTRY, "editor", "") not in _origins(app, message="rust")
    app.entries.upsert("editor", "Ada writes Rust in Vim")
    assert _origins(app, message="rust")[(ItemKind.ENTRY, "editor", "")].writer == "you"


def test_compaction_is_named_as_the_writer(memdesk_app):
    app = memdesk_app
    app.sessions.log("web:1", "user", "I moved to Bergen and I work on the Memdesk project now")
    app.sessions.log("web:1", "assistant", "Noted.")
    proposal = app.compaction.propose("web:1")
    app.compaction.apply(proposal)
    origins = _origins(app, session="web:1")
    [working] = [o for (kind, _k, _t), o in origins.items() if kind is ItemKind.WORKING]
    assert working.writer == "compaction"
    assert PromptItem(ItemKind.ENTRY, "nothing") not in app.provenance.of([])


def test_sources_say_where_each_item_is_in_the_prompt_text(memdesk_app):
    app = memdesk_app
    app.documents.set("user/profile", "Name: Ada\nLives in Bergen")
    app.apps.add("calendar", "Prefers mornings")
    with app.ctx.acting_as("mcp:web-agent"):
        app.review.submit(Write.save_entry("editor", "Ada writes Rust\nin   Helix"))
    composed = app.prompt.compose(PromptSpec(app="calendar", message="rust"))
    sources = app.provenance.sources(composed)
    by_key = {source.item.key: source for source in sources}
    marked = {key: [composed.text[a:b] for a, b in source.spans] for key, source in by_key.items()}
    assert marked["user/profile"] == ["Name: Ada", "Lives in Bergen"]
    assert [text for texts in marked.values() for text in texts if "mornings" in text] == ["Prefers mornings"]
    assert marked["editor"] == ["Ada writes Rust", "in Helix"]  # recall joins an entry's lines
    assert by_key["editor"].origin.writer == "mcp:web-agent"
    assert by_key["user/profile"].section == "profile"
    assert [s.section for s in sources if s.origin and s.origin.by_assistant] == ["recall"]
