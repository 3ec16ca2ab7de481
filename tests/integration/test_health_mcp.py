"""An assistant's write that contradicts a stored fact, through the real ``memdesk mcp`` and the
MCP SDK's own client: the reply names the fact, Memory health lists a live conflict, and a
held write is approved as a replacement of that fact."""

from __future__ import annotations

import json

import anyio
import pytest
from tests.support.cli import MemdeskCommand, out, store_of
from tests.support.mcp_client import call_ok, connect, text_of

KNOWLEDGE = {"category": "knowledge"}
BERLIN = {"kind": "line", "namespace": "user/facts", "text": "Lives in Berlin"}


@pytest.mark.engines("sqlite")  # the replies' wording; health's SQL runs on both engines in tests/unit
def test_a_write_that_contradicts_a_stored_fact_names_it(memdesk: MemdeskCommand):
    with store_of(memdesk) as store:
        store.documents.set("user/facts", "- Lives in Berlin\n- Drinks coffee every morning")
        store.entries.upsert("employer", "Works at Acme", "knowledge")

    async def write() -> list[tuple[str, dict]]:
        async with connect(memdesk.data_dir, "chat-agent") as s:
            calls = [
                (
                    "memory_store",
                    {"key": "home", "content": "Priya lives in Paris now", "category": "knowledge"},
                ),
                ("app_memory_add", {"app": "work", "content": "Works at Globex as a designer"}),
                ("document_append", {"namespace": "user/profile", "text": "Lives in Madrid"}),
                (
                    "memory_store",
                    {"key": "hobby", "content": "Plays chess on Sundays", "category": "knowledge"},
                ),
            ]
            return [
                (text_of(result), result.structuredContent)
                for result in [await call_ok(s, tool, **arguments) for tool, arguments in calls]
            ]

    (stored, stored_data), (added, added_data), (held, held_data), (plain, plain_data) = anyio.run(write)
    assert 'It disagrees with user/facts: "Lives in Berlin"' in stored
    assert stored_data["conflicts"] == [
        {"kind": "line", "namespace": "user/facts", "text": "Lives in Berlin"}
    ]
    assert 'entry employer: "Works at Acme"' in added
    assert added_data["conflicts"] == [{"kind": "entry", "key": "employer", "text": "Works at Acme"}]
    assert held_data["held"] is True and "Approving it replaces" in held
    assert {json.dumps(fact, sort_keys=True) for fact in held_data["conflicts"]} == {
        json.dumps(BERLIN, sort_keys=True),
        json.dumps({"kind": "entry", "key": "home", "text": "Priya lives in Paris now"}, sort_keys=True),
    }
    assert "disagrees" not in plain and "conflicts" not in plain_data

    listed = json.loads(out(memdesk("health", "--json")))
    pairs = {(f["first"]["text"], f["second"]["text"]) for f in listed if f["kind"] == "conflict"}
    assert ("Lives in Berlin", "Priya lives in Paris now") in pairs
    assert ("Works at Acme", "Works at Globex as a designer") in pairs

    out(memdesk("review", "approve", str(held_data["review_id"])))
    assert out(memdesk("doc", "show", "user/facts")) == "- Drinks coffee every morning\n"
    assert "home" not in out(memdesk("entry", "list"))
    assert out(memdesk("doc", "show", "user/profile")) == "Lives in Madrid\n"
    out(memdesk("undo"))
    assert out(memdesk("doc", "show", "user/facts")) == "- Lives in Berlin\n- Drinks coffee every morning\n"
    assert "Priya lives in Paris now" in out(memdesk("entry", "list"))
