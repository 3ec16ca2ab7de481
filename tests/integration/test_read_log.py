"""The read log, end to end: what the real servers returned to an assistant — through the MCP
SDK's client and the admin API over HTTP — is what ``memdesk access log`` lists, references
only; a log that cannot be written never fails the read, and SIGTERM writes what is queued."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time

import anyio
import httpx
import pytest
from tests.support.cli import MemdeskCommand, fails, out, store_of
from tests.support.mcp_client import call_ok, connect
from tests.support.seeded import SeededStores
from tests.support.server import ServeProcess


def _log(memdesk: MemdeskCommand, *args: str) -> list[dict]:
    return json.loads(out(memdesk("access", "log", "--json", *args)))


def _items(read: dict) -> list[tuple[str, str]]:
    return [(item["kind"], item["ref"]) for item in read["items"]]


def _seed(memdesk: MemdeskCommand) -> None:
    with store_of(memdesk) as store:
        store.apps.add("health", "Sees a therapist for anxiety every Thursday.")
        store.entries.upsert("therapy", "Therapy with Dr. Lind on Thursdays", "knowledge")
        store.documents.set("user/profile", "Name: Ada")


def test_every_mcp_read_is_logged_with_what_it_returned(memdesk: MemdeskCommand, seeded: SeededStores):
    seeded.start(memdesk, _seed)

    async def run() -> dict[str, object]:
        got: dict[str, object] = {}
        async with connect(memdesk.data_dir, "coder") as s:
            listed = await call_ok(s, "app_memories", app="health")
            got["ids"] = [m["id"] for m in listed.structuredContent["memories"]]
            recalled = await call_ok(s, "memory_recall", query="therapy")
            got["keys"] = [m["key"] for m in recalled.structuredContent["memories"]]
            await call_ok(s, "document_read", namespace="user/profile")
            await call_ok(s, "memory_store", key="pet", content="Has a cat")  # a write: not a read
            prompt = await call_ok(s, "prompt", app="health", message="therapy")
            got["prompt"] = [
                (item["kind"], item["key"])
                for section in prompt.structuredContent["sections"]
                if section["included"]
                for item in section.get("items", [])
            ]
            await s.read_resource("memdesk://entries/therapy")
            await s.read_resource("memdesk://apps/health/memories")
            await s.get_prompt("session-start", {"app": "health"})
        return got

    got = anyio.run(run)
    reads = _log(memdesk, "--assistant", "coder")
    assert [read["tool"] for read in reads] == [
        "prompt:session-start",
        "resource:app-memories",
        "resource:entry",
        "prompt",
        "document_read",
        "memory_recall",
        "app_memories",
    ]
    assert {read["assistant"] for read in reads} == {"mcp:coder"}
    by_tool = {read["tool"]: _items(read) for read in reads}
    memory_refs = [("app_memory", str(memory_id)) for memory_id in got["ids"]]
    assert by_tool["app_memories"] == memory_refs == by_tool["resource:app-memories"]
    assert by_tool["memory_recall"] == [("entry", key) for key in got["keys"]] == [("entry", "therapy")]
    assert by_tool["document_read"] == [("document", "user/profile")]
    assert by_tool["resource:entry"] == [("entry", "therapy")]
    assert by_tool["prompt"] == got["prompt"]
    assert {("document", "user/profile"), ("entry", "therapy"), *memory_refs} <= set(by_tool["prompt"])
    assert set(by_tool["prompt:session-start"]) >= {("document", "user/profile"), *memory_refs}
    # References only: the text read is nowhere in the log.
    assert "Thursday" not in out(memdesk("access", "log", "--json"))


@pytest.mark.engines("sqlite")  # which reads are logged; the log's SQL runs on both engines in tests/unit
def test_the_admin_apis_reads_are_logged_and_its_writes_are_not(
    memdesk: MemdeskCommand, seeded: SeededStores
):
    seeded.start(memdesk, _seed)
    token = out(memdesk("token", "create", "picobot")).strip()
    served = ServeProcess(memdesk.data_dir)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=served.url, headers=headers) as client:
            memories = client.get("/apps/health/memories").json()["memories"]
            assert client.get("/recall", params={"query": "therapy"}).status_code == 200
            assert client.get("/prompt", params={"app": "health"}).status_code == 200
            assert client.post("/entries", json={"key": "pet", "content": "Has a cat"}).status_code == 200
            assert client.get("/openapi.json").status_code == 200
    finally:
        assert served.stop() in (0, -signal.SIGTERM), served.stderr
    reads = _log(memdesk, "--assistant", "api:picobot")
    assert [read["tool"] for read in reads] == ["GET /prompt", "GET /recall", "GET /apps/{appId}/memories"]
    prompt, recall, listing = (_items(read) for read in reads)
    assert listing == [("app_memory", str(m["id"])) for m in memories]
    assert recall == [("entry", "therapy")]
    assert {("document", "user/profile"), *listing} <= set(prompt)


@pytest.mark.engines("sqlite")  # wording; the log's SQL runs on both engines in tests/unit/test_access_log.py
def test_access_log_text_since_and_a_deleted_item(memdesk: MemdeskCommand, seeded: SeededStores):
    seeded.start(memdesk, _seed)

    async def run() -> None:
        async with connect(memdesk.data_dir, "coder") as s:
            await call_ok(s, "memory_recall", query="therapy")

    anyio.run(run)
    out(memdesk("entry", "rm", "therapy"))
    text = out(memdesk("access", "log"))
    assert text.endswith("  mcp:coder  memory_recall  entry therapy (deleted)\n")
    assert _log(memdesk, "--since", "2999-01-01") == []
    # Unix seconds as every other --since takes them: 1970 lists the read, 2999 none.
    assert [read["tool"] for read in _log(memdesk, "--since", "0")] == ["memory_recall"]
    assert _log(memdesk, "--since", "32472144000") == []
    assert _log(memdesk, "--assistant", "mcp:coder")[0]["items"] == [
        {"kind": "entry", "ref": "therapy", "deleted": True}
    ]
    unreadable = memdesk("access", "log", "--since", "yesterday")
    fails(unreadable, 2, "--since: 'yesterday' is neither ISO 8601 nor Unix seconds")
    fails(memdesk("access", "log", "--assistant", "nobody"), 1, "no assistant called 'nobody'")


@pytest.mark.engines("sqlite")  # the export's and the hook's output
def test_an_export_leaves_the_log_out_unless_asked(memdesk: MemdeskCommand, seeded: SeededStores, tmp_path):
    seeded.start(memdesk, _seed)

    async def run() -> None:
        async with connect(memdesk.data_dir, "coder") as s:
            await call_ok(s, "app_memories", app="health")

    anyio.run(run)
    out(memdesk("export", str(tmp_path / "plain.json")))
    assert "access_log" not in json.loads((tmp_path / "plain.json").read_text())
    printed = out(memdesk("export", str(tmp_path / "full.json"), "--with-access-log"))
    assert "1 access_log" in printed
    (read,) = json.loads((tmp_path / "full.json").read_text())["access_log"]
    assert (read["assistant"], read["tool"]) == ("mcp:coder", "app_memories")


@pytest.mark.engines("sqlite")
def test_a_locked_log_never_fails_the_read_and_sigterm_writes_what_waits(
    memdesk: MemdeskCommand, seeded: SeededStores
):
    seeded.start(memdesk, _seed)
    token = out(memdesk("token", "create", "picobot")).strip()
    os.environ["MEMDESK_BUSY_TIMEOUT_MS"] = "1500"
    try:
        served = ServeProcess(memdesk.data_dir)
    finally:
        del os.environ["MEMDESK_BUSY_TIMEOUT_MS"]
    status_files = memdesk.data_dir / "logs"
    locker = sqlite3.connect(memdesk.data_dir / "memdesk.sqlite3", timeout=0, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")  # in WAL mode readers go on; writers wait
    try:
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=served.url, headers=headers) as client:
            answer = client.get("/apps/health/memories")
        assert answer.status_code == 200 and len(answer.json()["memories"]) == 1
        deadline = time.monotonic() + 15
        while not list(status_files.glob("reads-not-logged-*.json")) and time.monotonic() < deadline:
            time.sleep(0.1)
        (status,) = status_files.glob("reads-not-logged-*.json")
        assert "busy" in json.loads(status.read_text())["problem"]
        served.process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert served.stop() == -signal.SIGTERM, served.stderr
    (read,) = _log(memdesk, "--assistant", "api:picobot")
    assert read["tool"] == "GET /apps/{appId}/memories"


@pytest.mark.engines("sqlite")  # the export's and the hook's output
def test_the_claude_code_hooks_prompt_is_logged_as_claude_codes_read(
    memdesk: MemdeskCommand, seeded: SeededStores
):
    seeded.start(memdesk, _seed)
    event = json.dumps({"hook_event_name": "SessionStart", "cwd": "/home/ada/src/health"}).encode()
    answer = json.loads(out(memdesk("hook", "claude-code", stdin=event)))
    assert "Sees a therapist" in answer["hookSpecificOutput"]["additionalContext"]
    (read,) = _log(memdesk, "--assistant", "mcp:claude-code")
    assert read["tool"] == "SessionStart hook"
    assert sorted(_items(read)) == [("app_memory", "1"), ("document", "user/profile")]
