"""One vocabulary: what a search result, an expiry item and a write's changes are called."""

from __future__ import annotations

from memdesk.core.items import EVERYTHING, NOTHING, Changes, ItemKind, ItemRef


def test_changes_say_what_they_touch():
    documents = Changes.of(ItemKind.DOCUMENT)
    assert documents.touches(frozenset({ItemKind.DOCUMENT, ItemKind.WORKING}))
    assert not documents.touches(frozenset({ItemKind.APP, ItemKind.APP_MEMORY}))
    assert documents.touches(None)  # a view that shows anything
    assert EVERYTHING.touches(frozenset({ItemKind.TRASH})) and EVERYTHING.touches(None)
    assert not NOTHING.touches(None) and not NOTHING.touches(frozenset({ItemKind.TRASH}))


def test_changes_add_up():
    ref = ItemRef(ItemKind.DOCUMENT, "user/profile")
    both = Changes.of(ItemKind.DOCUMENT, refs=(ref,)) | Changes.of(ItemKind.TRASH)
    assert both.kinds == {ItemKind.DOCUMENT, ItemKind.TRASH}
    assert both.refs == {ref}
    assert (both | EVERYTHING) is EVERYTHING
    assert (NOTHING | both) == both


def test_search_results_point_at_items(memdesk_app):
    memory = memdesk_app.apps.add("calendar", "Stand-up moved to 13:30").memory
    memdesk_app.entries.upsert("standup", "The stand-up is daily")
    memdesk_app.documents.set("user/facts", "Stand-up notes live in the wiki")
    found = memdesk_app.search.search("stand")
    assert [r.item for r in found[ItemKind.APP_MEMORY]] == [ItemRef(ItemKind.APP_MEMORY, str(memory.id))]
    entry = memdesk_app.entries.get("standup")
    assert [r.item for r in found["knowledge"]] == [ItemRef(ItemKind.ENTRY, str(entry.id))]
    assert [r.item for r in found[ItemKind.DOCUMENT]] == [ItemRef(ItemKind.DOCUMENT, "user/facts")]
