"""``memdesk mcp`` through the MCP SDK's real client, over stdio, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp.types import CallToolResult
from tests.support import peek
from tests.support.cli import MemdeskCommand, out, store_of
from tests.support.mcp_client import call_ok, connect, text_of
from tests.support.seeded import SeededStores

TOOLS = {
    "memory_store",
    "memory_recall",
    "memory_forget",
    "app_memories",
    "app_memory_add",
    "app_memory_edit",
    "app_memory_delete",
    "working_memory",
    "working_memory_set",
    "document_read",
    "document_append",
    "session_log",
    "prompt",
    "compaction_propose",
    "compaction_apply",
}


def _count(data_dir: Path, sql: str) -> int:
    return int(peek.scalar(data_dir, sql))


def test_every_tool_resource_and_the_prompt(memdesk: MemdeskCommand):
    data = memdesk.data_dir
    with store_of(memdesk) as store:
        store.documents.set("user/profile", "Name: Ada")

    async def run() -> None:
        async with connect(data, "Claude Desktop") as s:
            assert {tool.name for tool in (await s.list_tools()).tools} == TOOLS
            stored = await call_ok(s, "memory_store", key="user_language_pref", content="Ada prefers Rust")
            assert stored.structuredContent == {
                "key": "user_language_pref",
                "category": "knowledge",
                "importance": 0.5,
                "held": False,
            }
            await call_ok(s, "memory_store", key="trip", content="Went to Oslo", category="timeline")
            recall = await call_ok(s, "memory_recall", query="rust", category="knowledge", limit=3)
            assert [m["key"] for m in recall.structuredContent["memories"]] == ["user_language_pref"]
            await call_ok(s, "memory_forget", key="trip")
            none = await call_ok(s, "memory_recall", query="oslo", since=0)
            assert none.structuredContent == {"memories": []}

            added = await call_ok(s, "app_memory_add", app="calendar", content="Prefers meetings after 2pm")
            memory_id = added.structuredContent["id"]
            second = await call_ok(s, "app_memory_add", app="calendar", content="Skips Friday meetings")
            listed = await call_ok(s, "app_memories", app="calendar")
            assert [m["id"] for m in listed.structuredContent["memories"]] == [
                second.structuredContent["id"],
                memory_id,
            ]
            edited = await call_ok(
                s, "app_memory_edit", app="calendar", id=memory_id, content="Prefers meetings after 3pm"
            )
            assert edited.structuredContent == {
                "app": "calendar",
                "id": memory_id,
                "content": "Prefers meetings after 3pm",
                "updated_at": edited.structuredContent["updated_at"],
                "held": False,
            }
            assert text_of(edited) == f"Changed the text of memory {memory_id} of calendar."
            await call_ok(s, "app_memory_delete", app="calendar", id=second.structuredContent["id"])

            await call_ok(s, "working_memory_set", content="Shipping the MCP server")
            working = await call_ok(s, "working_memory")
            assert working.structuredContent["content"] == "Shipping the MCP server"
            await call_ok(s, "document_append", namespace="user/facts", text="- Has a cat")
            facts = await call_ok(s, "document_read", namespace="user/facts")
            assert text_of(facts) == "- Has a cat"

            for role, text in (("user", "I moved to Bergen last week"), ("assistant", "Noted")):
                await call_ok(s, "session_log", session="web:1", role=role, content=text, app="calendar")
            proposal = await call_ok(s, "compaction_propose", session="web:1")
            changes = proposal.structuredContent["changes"]
            assert changes and all(not c["suspicious"] and not c["ungrounded"] for c in changes)
            applied = await call_ok(
                s, "compaction_apply", proposal_id=proposal.structuredContent["proposal_id"]
            )
            assert applied.structuredContent["applied"] == [c["id"] for c in changes]
            again = await s.call_tool(
                "compaction_apply", {"proposal_id": proposal.structuredContent["proposal_id"]}
            )
            assert again.isError and "proposal_id" in text_of(again)

            prompt = await call_ok(s, "prompt", app="calendar", message="rust")
            sections = {sec["name"]: sec for sec in prompt.structuredContent["sections"]}
            assert sections["profile"]["included"] and sections["profile"]["source"] == "user/profile"
            assert sections["base"]["reason"] == "empty"
            assert "Ada prefers Rust" in text_of(prompt)

            templates = {t.uriTemplate for t in (await s.list_resource_templates()).resourceTemplates}
            assert templates == {
                "memdesk://prompt{?app,session,message}",
                "memdesk://apps/{app}/memories",
                "memdesk://documents/{namespace}",
                "memdesk://entries/{key}",
            }
            resources = {str(r.uri) for r in (await s.list_resources()).resources}
            assert resources == {"memdesk://working", "memdesk://documents/user/profile"}
            composed = await s.read_resource("memdesk://prompt?app=calendar&message=rust")
            assert composed.contents[0].text == text_of(prompt)
            assert (await s.read_resource("memdesk://working")).contents[0].text.startswith("## ")
            assert (await s.read_resource("memdesk://documents/user/profile")).contents[0].text == "Name: Ada"
            app_text = (await s.read_resource("memdesk://apps/calendar/memories")).contents[0].text
            assert "Prefers meetings after 3pm" in app_text and "2pm" not in app_text
            # A namespace holds a slash, which a client may send as it is or escaped.
            for uri in ("memdesk://documents/user/facts", "memdesk://documents/user%2Ffacts"):
                assert (await s.read_resource(uri)).contents[0].text.startswith("- Has a cat\n")
            entry = await s.read_resource("memdesk://entries/user_language_pref")
            assert entry.contents[0].text == "Ada prefers Rust"
            start = await s.get_prompt("session-start", {"app": "calendar", "message": "rust"})
            assert start.messages[0].content.text == text_of(prompt)

    anyio.run(run)
    history = out(memdesk("history", "--actor", "mcp:claude-desktop", "--limit", "100"))
    labels = [line.split("\t")[4] for line in history.splitlines()]
    assert "Save entry user_language_pref" in labels and "Delete entry trip" in labels
    assert "Edit memory 1 of calendar" in labels
    assert all(line.split("\t")[2] == "mcp:claude-desktop" for line in history.splitlines())
    assert out(memdesk("history", "--actor", "cli")).count("\n") == 1  # the profile set up above
    name, calls = peek.rows(data, "SELECT name, calls FROM agent_clients")[0]
    assert name == "mcp:claude-desktop" and calls >= 1


@pytest.mark.engines("sqlite")  # the prompt's text, the same on both engines in tests/unit
def test_prompt_tool_is_byte_for_byte_memdesk_prompt(memdesk: MemdeskCommand, tmp_path: Path):
    base = tmp_path / "base.md"
    base.write_text("You are a helpful assistant.\n", encoding="utf-8")
    (memdesk.data_dir).mkdir(parents=True, exist_ok=True)
    (memdesk.data_dir / "config.toml").write_text(f'[prompt]\nbase_file = "{base}"\n', encoding="utf-8")
    with store_of(memdesk, "2026-05-01T00:00:00Z") as store:
        store.documents.set("user/profile", "Name: Ada\nLives in Zürich 🏔")
        store.working.write("Writing the MCP server")
        store.apps.add("calendar", "Prefers mornings")
        store.entries.upsert("lang", "Ada writes Rust", "knowledge")
    cases = [
        ({}, []),
        (
            {"session": "web:1", "app": "calendar", "message": "rust?", "at": "2026-05-02T00:00:00Z"},
            ["--now", "2026-05-02T00:00:00Z", "prompt", "--session", "web:1", "--app", "calendar"],
        ),
        ({"at": "2026-06-01"}, ["--now", "2026-06-01", "prompt"]),  # working memory has expired
    ]
    texts: list[str] = []

    async def run() -> None:
        async with connect(memdesk.data_dir) as s:
            for arguments, _ in cases:
                texts.append(text_of(await call_ok(s, "prompt", **arguments)))

    anyio.run(run)
    for (arguments, argv), text in zip(cases, texts, strict=True):
        argv = argv or ["prompt"]
        if "message" in arguments:
            argv = [*argv, "--message", arguments["message"]]
        assert out(memdesk(*argv)).encode() == (text + "\n").encode()
    assert "Writing the MCP server" in texts[1] and "Writing the MCP server" not in texts[2]


BAD_CALLS = [
    ("memory_store", {"key": "", "content": "x", "category": "knowledge"}, "key"),
    ("memory_store", {"key": "a\nb", "content": "x", "category": "knowledge"}, "key"),
    ("memory_store", {"key": "k", "content": "  ", "category": "knowledge"}, "content"),
    ("memory_store", {"key": "k", "content": "x", "category": "gossip"}, "category"),
    ("memory_store", {"key": "k", "content": "x", "category": "knowledge", "importance": 7}, "importance"),
    ("memory_store", {"key": "k", "content": "x", "category": "knowledge", "importance": "hi"}, "importance"),
    ("memory_store", {"key": "k"}, "content is required"),
    ("session_log", {"session": "web:1", "content": "hi", "role": "robot"}, "role must be"),
    ("memory_recall", {"query": ""}, "query"),
    ("memory_recall", {"query": "x", "category": "gossip"}, "category"),
    ("memory_recall", {"query": "x", "since": "yesterday"}, "since"),
    ("memory_recall", {"query": "x", "until": "soon"}, "until"),
    ("memory_recall", {"query": "x", "limit": 0}, "limit"),
    ("memory_forget", {"key": "never-stored"}, "key"),
    ("memory_forget", {"key": 5}, "key"),
    ("app_memories", {"app": "bad app!"}, "app"),
    ("app_memory_add", {"app": "", "content": "hello there"}, "app"),
    ("app_memory_add", {"app": "cal", "content": "x" * 201}, "content"),
    ("app_memory_edit", {"app": "cal", "id": 999, "content": "Prefers evenings"}, "id"),
    ("app_memory_edit", {"app": "other", "id": 1, "content": "Prefers evenings"}, "id"),
    ("app_memory_edit", {"app": "cal", "id": "one", "content": "Prefers evenings"}, "id"),
    ("app_memory_edit", {"app": "cal", "id": 1, "content": ""}, "content"),
    ("app_memory_edit", {"app": "cal", "id": 1, "content": "x" * 201}, "content"),
    ("app_memory_edit", {"app": "cal", "id": 1}, "content is required"),
    ("app_memory_delete", {"app": "cal", "id": 999}, "id"),
    ("app_memory_delete", {"app": "cal", "id": "one"}, "id"),
    ("app_memory_delete", {"app": "other", "id": 1}, "id"),
    ("working_memory_set", {"content": ""}, "content"),
    ("working_memory_set", {"content": "a\x00b"}, "content"),
    ("document_read", {"namespace": "secrets"}, "namespace"),
    ("document_append", {"namespace": "user/working", "text": "x"}, "namespace"),
    ("document_append", {"namespace": "user/facts", "text": ""}, "text"),
    ("session_log", {"session": "nochannel", "role": "user", "content": "x"}, "session"),
    ("session_log", {"session": "web:1", "role": "robot", "content": "x"}, "role"),
    ("session_log", {"session": "web:1", "role": "user", "content": ""}, "content"),
    ("session_log", {"session": "web:1", "role": "user", "content": "x", "app": "a b"}, "app"),
    ("prompt", {"session": "bad session"}, "session"),
    ("prompt", {"app": "a b"}, "app"),
    ("prompt", {"at": "tomorrow"}, "at"),
    ("compaction_propose", {"session": "nope"}, "session"),
    ("compaction_apply", {"proposal_id": "unknown"}, "proposal_id"),
]


@pytest.mark.engines("sqlite")  # argument errors: their wording is the server's
def test_bad_arguments_are_tool_errors_naming_the_argument_and_write_nothing(memdesk: MemdeskCommand):
    with store_of(memdesk) as store:
        store.apps.add("cal", "Prefers mornings")  # memory 1, of app cal
    data = memdesk.data_dir

    def state() -> tuple[int, ...]:
        tables = ("history_steps", "entries", "app_memories", "documents", "messages", "sessions")
        return tuple(_count(data, f"SELECT count(*) FROM {table}") for table in tables)

    before = state()
    failures: list[str] = []

    async def run() -> None:
        async with connect(data) as s:
            for tool, arguments, name in BAD_CALLS:
                result = await s.call_tool(tool, arguments)
                message = text_of(result)
                library_words = ("Traceback", "pydantic", "http", "validation error", "Input should", "type=")
                if not result.isError or name not in message or any(w in message for w in library_words):
                    failures.append(f"{tool}({arguments}) -> {result.isError}: {message}")
            # the server is still there and answers
            await call_ok(s, "memory_recall", query="anything")

    anyio.run(run)
    assert failures == []
    assert state() == before


def test_two_clients_writing_at_once_lose_nothing_and_are_told_apart(memdesk: MemdeskCommand):
    data = memdesk.data_dir
    with store_of(memdesk):  # creates the store before two servers open it
        pass
    count = 25

    async def client(name: str) -> None:
        async with connect(data, name) as s:
            for index in range(count):
                await call_ok(
                    s, "memory_store", key=f"{name}_{index}", content=f"fact {index}", category="knowledge"
                )
                await call_ok(s, "document_append", namespace="user/facts", text=f"- {name} {index}")

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(client, "alpha")
            group.start_soon(client, "beta")

    anyio.run(run)
    for name in ("alpha", "beta"):
        keys = {row[0] for row in peek.rows(data, "SELECT key FROM entries WHERE key LIKE :k", k=f"{name}_%")}
        assert keys == {f"{name}_{i}" for i in range(count)}
        labels = peek.rows(
            data, "SELECT actor FROM history_steps WHERE label LIKE :l", l=f"Save entry {name}_%"
        )
        assert {row[0] for row in labels} == {f"mcp:{name}"}
        steps = peek.scalar(data, "SELECT count(*) FROM history_steps WHERE actor = :a", a=f"mcp:{name}")
        assert steps == 2 * count
    facts = peek.scalar(data, "SELECT content FROM documents WHERE namespace = 'user/facts'")
    lines = facts.splitlines()
    assert sorted(lines) == sorted(f"- {n} {i}" for n in ("alpha", "beta") for i in range(count))


def _an_entry_and_an_app_memory(memdesk: MemdeskCommand) -> None:
    with store_of(memdesk) as store:
        store.entries.upsert("lang", "Ada writes Rust", "knowledge")
        store.apps.add("cal", "Prefers mornings")


@pytest.mark.parametrize(
    ("settings", "refused", "allowed"),
    [
        (
            "allow_writes = false",
            [
                ("memory_store", {"key": "k", "content": "x", "category": "knowledge"}),
                ("working_memory_set", {"content": "x"}),
                ("document_append", {"namespace": "user/facts", "text": "x"}),
                ("session_log", {"session": "web:1", "role": "user", "content": "x"}),
                ("app_memory_add", {"app": "cal", "content": "hello there"}),
                ("app_memory_edit", {"app": "cal", "id": 1, "content": "Prefers evenings"}),
                ("memory_forget", {"key": "lang"}),
            ],
            [
                ("memory_recall", {"query": "rust"}),
                ("prompt", {}),
                ("document_read", {"namespace": "user/profile"}),
            ],
        ),
        (
            "allow_forget = false",
            [("memory_forget", {"key": "lang"}), ("app_memory_delete", {"app": "cal", "id": 1})],
            [("memory_store", {"key": "k", "content": "x", "category": "knowledge"})],
        ),
    ],
)
@pytest.mark.engines("sqlite")  # settings file, not storage
def test_read_only_settings_refuse_writes(
    memdesk: MemdeskCommand, seeded: SeededStores, settings, refused, allowed
):
    seeded.start(memdesk, _an_entry_and_an_app_memory)
    (memdesk.data_dir / "config.toml").write_text(f"[agents]\n{settings}\n", encoding="utf-8")
    setting = "agents." + settings.split(" ")[0]
    steps_before = _count(memdesk.data_dir, "SELECT count(*) FROM history_steps")

    async def run() -> None:
        async with connect(memdesk.data_dir) as s:
            for tool, arguments in refused:
                result = await s.call_tool(tool, arguments)
                assert result.isError and setting in text_of(result), (tool, text_of(result))
            for tool, arguments in allowed:
                await call_ok(s, tool, **arguments)

    anyio.run(run)
    writes_allowed = sum(1 for tool, _ in allowed if tool == "memory_store")
    assert _count(memdesk.data_dir, "SELECT count(*) FROM history_steps") == steps_before + writes_allowed


@pytest.mark.engines("sqlite")  # settings file, not storage
def test_a_setting_changed_while_the_server_runs_holds_from_the_next_call(memdesk: MemdeskCommand):
    async def run() -> None:
        async with connect(memdesk.data_dir) as s:
            await call_ok(s, "memory_store", key="a", content="x", category="knowledge")
            (memdesk.data_dir / "config.toml").write_text(
                "[agents]\nallow_writes = false\n", encoding="utf-8"
            )
            refused = await s.call_tool("memory_store", {"key": "b", "content": "x", "category": "knowledge"})
            assert refused.isError and "agents.allow_writes" in text_of(refused)

    anyio.run(run)


def test_an_assistants_write_is_undone_like_any_change(memdesk: MemdeskCommand):
    async def run() -> None:
        async with connect(memdesk.data_dir, "Cursor") as s:
            await call_ok(s, "memory_store", key="city", content="Lives in Oslo", category="knowledge")
            await call_ok(s, "memory_store", key="city", content="Lives in Bergen", category="knowledge")

    anyio.run(run)
    first = out(memdesk("history", "--actor", "mcp:cursor")).splitlines()[0]
    assert first.split("\t")[2:] == ["mcp:cursor", "done", "Save entry city"]
    assert out(memdesk("undo")).startswith("undid #")
    assert "city [knowledge] Lives in Oslo" in out(memdesk("entry", "list"))
    assert out(memdesk("history", "--actor", "mcp:cursor")).splitlines()[0].split("\t")[3] == "undone"


@pytest.mark.engines("sqlite")  # the tool's reply; the cap and undo run on both engines in tests/unit
def test_adding_at_the_cap_keeps_it_in_one_undoable_step(memdesk: MemdeskCommand):
    (memdesk.data_dir).mkdir(parents=True, exist_ok=True)
    (memdesk.data_dir / "config.toml").write_text("[memory]\napp_memory_cap = 3\n", encoding="utf-8")
    for index, text in enumerate(("Likes tea", "Works from home on Fridays", "Has a dog called Rex")):
        with store_of(memdesk, f"2026-05-01T00:0{index}:00Z") as store:
            store.apps.add("cal", text)

    async def run() -> CallToolResult:
        async with connect(memdesk.data_dir) as s:
            return await call_ok(s, "app_memory_add", app="cal", content="Prefers meetings after 2pm")

    added = anyio.run(run)
    data = added.structuredContent
    # The decision step's reason, as compaction reports it: none of the three repeats the new
    # one, so the oldest goes, and the reply says so in words a person reads.
    assert data["removed"] == [1]
    assert text_of(added) == (
        f"Added memory {data['id']}. Moved memory 1 to Trash, as cal keeps at most 3 memories. "
        "Removed the oldest memory (1) because no memories were near-duplicates."
    )
    assert _count(memdesk.data_dir, "SELECT count(*) FROM app_memories WHERE deleted_at IS NULL") == 3
    assert out(memdesk("history", "--actor", "mcp:test-client")).count("\n") == 1
    out(memdesk("undo"))
    assert _count(memdesk.data_dir, "SELECT count(*) FROM app_memories WHERE deleted_at IS NULL") == 3
    assert "Prefers meetings" not in out(memdesk("app", "show", "cal"))
