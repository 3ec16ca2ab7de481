"""``memdesk mcp`` round trips through the SDK's real stdio client on the big store.

One server process, one client: memory_recall and prompt p50/p95, memory_store p50, and
completions of app ids (10,000 apps) and entry keys (1,000,000 entries). The same calls made
in this process, without MCP, and a ping show how much of a round trip is the protocol and
how much the store. Each tool call is judged beside its floor, a call of a tool that does
not exist (taking turns with recall), and each completion beside a ping. Then the start:
from launching the server to its first answers, next to `memdesk prompt` and a Python that
only imports ``sqlalchemy.orm``, taking turns in the same run (with bytecode cached, as on
an installed machine). Prints each figure with its goal and a line starting ``MISS`` when
over it (with the machine's load average); never fails on time.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
from mcp.types import (
    CallToolRequest,
    CallToolRequestParams,
    CallToolResult,
    ClientRequest,
    Implementation,
    PromptReference,
    ResourceTemplateReference,
)
from tests.perf.bigstore import Corpus, big_store_path
from tests.perf.goals import IMPORT_FLOOR, judge, process_ms
from tests.perf.test_bench_store import percentile, timed

from memdesk.config import LoadedSettings, Settings
from memdesk.paths import Paths
from memdesk.servers.tools import MemoryTools
from memdesk.services.memdesk import Memdesk

ROUNDS = 100
STORES = 50
STARTS = 7
START_GOAL_MS = 1000.0
COMPLETE_GOAL_MS = 20.0
# An assistant's answer waits for its tool calls, and the person for the answer: patience.
STORE_GOAL_MS = 15.0
READ_GOAL_MS = 15.0  # memory_recall and prompt, each
# Prefixes that match a hundred values and more, a few, one, and none.
APP_PREFIXES = ["app", "app0", "app001", "app0042", "app09999", "zzz", ""]
KEY_PREFIXES = ["k", "k0", "k00012", "k0004242", "k0999999", "zzz", ""]


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _line(name: str, values: list[float]) -> str:
    return (
        f"{name}: p50 {statistics.median(values):.2f} ms, p95 {percentile(values, 0.95):.2f} ms "
        f"over {len(values)} calls"
    )


def test_mcp_round_trips_on_the_big_store(tmp_path: Path):
    source, stats = big_store_path()
    db = tmp_path / "big.sqlite3"
    shutil.copyfile(source, db)  # memory_store writes: keep the cached store pristine
    print(f"\nstore: {stats['entries']:,} entries, {stats['apps']:,} apps x 10 memories")
    queries = Corpus().queries(ROUNDS)
    apps = [f"app{n:05d}" for n in range(0, int(stats["apps"]), max(int(stats["apps"]) // ROUNDS, 1))]
    env = dict(os.environ)  # bytecode written and reused: tests/conftest.py sees to it
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memdesk", "--data-dir", str(tmp_path / "data"), "--db", str(db), "mcp"],
        env=env,
    )
    figures: dict[str, list[float]] = {
        name: []
        for name in (
            "recall",
            "prompt",
            "recall, request alone",
            "prompt, request alone",
            "store",
            "store, request alone",
            "ping",
            "unknown tool",
            "complete app",
            "complete key",
        )
    }

    async def run() -> None:
        async with stdio_client(params) as (read, write):
            info = Implementation(name="bench", version="1")
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                for query in queries[:5]:  # warm the page cache like a running assistant would
                    await session.call_tool("memory_recall", {"query": query})
                for query in queries:
                    began = time.perf_counter()
                    result = await session.call_tool("memory_recall", {"query": query, "limit": 5})
                    figures["recall"].append(_ms(began))
                    assert not result.isError
                    began = time.perf_counter()
                    result = await _request_alone(session, "memory_recall", {"query": query, "limit": 5})
                    figures["recall, request alone"].append(_ms(began))
                    began = time.perf_counter()
                    await _unknown_tool(session)
                    figures["unknown tool"].append(_ms(began))
                for app, query in zip(apps, queries, strict=False):
                    began = time.perf_counter()
                    result = await session.call_tool("prompt", {"app": app, "message": query})
                    figures["prompt"].append(_ms(began))
                    assert not result.isError
                    began = time.perf_counter()
                    result = await _request_alone(session, "prompt", {"app": app, "message": query})
                    figures["prompt, request alone"].append(_ms(began))
                prompt = PromptReference(type="ref/prompt", name="session-start")
                entries = ResourceTemplateReference(type="ref/resource", uri="memdesk://entries/{key}")
                completions = [("complete app", prompt, "app", APP_PREFIXES)]
                completions.append(("complete key", entries, "key", KEY_PREFIXES))
                for figure, ref, argument, prefixes in completions:
                    for prefix in prefixes * 15:
                        began = time.perf_counter()
                        found = await session.complete(ref, {"name": argument, "value": prefix})
                        figures[figure].append(_ms(began))
                        assert all(value.startswith(prefix) for value in found.completion.values)
                for _ in range(ROUNDS):
                    began = time.perf_counter()
                    await session.send_ping()
                    figures["ping"].append(_ms(began))
                for index in range(STORES):
                    began = time.perf_counter()
                    result = await session.call_tool(
                        "memory_store", {"key": f"bench_mcp_{index}", "content": queries[index]}
                    )
                    figures["store"].append(_ms(began))
                    assert not result.isError
                    began = time.perf_counter()
                    result = await _request_alone(
                        session,
                        "memory_store",
                        {"key": f"bench_mcp_raw_{index}", "content": queries[-index - 1]},
                    )
                    figures["store, request alone"].append(_ms(began))
                    assert not result.isError

    anyio.run(run)
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name in ("recall", "prompt", "store"):
        print(_line(f"{name} round trip", figures[name]))
        alone = figures[f"{name}, request alone"]
        print(_line("  the same request without the SDK client's schema check", alone))
    floor = statistics.median(figures["unknown tool"])
    for name, tool in (("recall", "memory_recall"), ("prompt", "prompt"), ("store", "memory_store")):
        judge(
            f"an assistant's {tool} through MCP, p50",
            statistics.median(figures[f"{name}, request alone"]),
            "a call of a tool that does not exist, the same session, taking turns with recall",
            floor,
            patience_ms=STORE_GOAL_MS if name == "store" else READ_GOAL_MS,
        )
    print(_line("ping round trip (the transport alone)", figures["ping"]))
    for name, total in (("complete app", "apps"), ("complete key", "entries")):
        print(_line(f"{name} over {stats[total]:,} {total}, round trip", figures[name]))
        judge(
            f"{name} p50",
            statistics.median(figures[name]),
            "a ping, the same session",
            statistics.median(figures["ping"]),
            patience_ms=COMPLETE_GOAL_MS,
        )

    paths = Paths(
        data_dir=tmp_path, config_file=tmp_path / "c.toml", db_url=f"sqlite:///{db}", log_dir=tmp_path
    )
    app = Memdesk(paths, LoadedSettings(Settings(), ()))
    try:
        tools = MemoryTools(app)
        began = time.process_time()
        recall = [timed(lambda q=q: tools.memory_recall(q, limit=5)) for q in queries]
        recall_cpu = (time.process_time() - began) * 1000 / len(recall)
        began = time.process_time()
        prompt = [
            timed(lambda a=a, q=q: tools.prompt(app=a, message=q))
            for a, q in zip(apps, queries, strict=False)
        ]
        prompt_cpu = (time.process_time() - began) * 1000 / len(prompt)
        keys = [timed(lambda p=p: app.entries.keys_starting(p, 101)) for p in KEY_PREFIXES * 15]
    finally:
        app.close()
    print(_line("recall in process, no MCP", recall) + f"; processor time {recall_cpu:.2f} ms a call")
    print(_line("prompt in process, no MCP", prompt) + f"; processor time {prompt_cpu:.2f} ms a call")
    print(_line("key completion query in process, no MCP", keys))

    _starts(params, env, tmp_path, queries[0])
    assert all(figures.values())


async def _unknown_tool(session: ClientSession) -> None:
    """The protocol's floor: a tool call the server answers without any tool's work."""
    request = CallToolRequest(params=CallToolRequestParams(name="no_such_tool", arguments={}))
    try:
        result = await session.send_request(ClientRequest(request), CallToolResult)
    except McpError:
        return  # refused as an error: the round trip is what counts
    assert result.isError


async def _request_alone(session: ClientSession, tool: str, arguments: dict[str, object]) -> CallToolResult:
    """A tool call sent as it is. The SDK client's ``call_tool`` also checks the tool's output
    schema against the JSON Schema metaschema on every call, a cost of that client alone (one
    that compiles a schema once pays it once); this is the round trip without it."""
    request = CallToolRequest(params=CallToolRequestParams(name=tool, arguments=arguments))
    result = await session.send_request(ClientRequest(request), CallToolResult)
    assert not result.isError
    return result


def _starts(params: StdioServerParameters, env: dict[str, str], tmp_path: Path, query: str) -> None:
    """Launch to the first answers, taking turns with `memdesk prompt` and the bare import so
    that drift in the machine's speed weighs on all three alike."""
    listed: list[float] = []
    recalled: list[float] = []

    async def first_answers() -> None:
        launched = time.perf_counter()
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            listed.append(_ms(launched))
            await session.call_tool("memory_recall", {"query": query})
            recalled.append(_ms(launched))

    prompt_command = [params.command, *params.args[:-1], "prompt", "--message", query]
    prompts: list[float] = []
    floors: list[float] = []
    anyio.run(first_answers)  # bytecode written; not counted
    listed.clear()
    recalled.clear()
    for _ in range(STARTS):
        anyio.run(first_answers)
        prompts.append(process_ms(prompt_command, env))
        floors.append(process_ms(IMPORT_FLOOR, env))
    print(f"load average while starting: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    floor, prompt = statistics.median(floors), statistics.median(prompts)
    print(f"`import sqlalchemy.orm` alone: median {floor:.0f} ms; `memdesk prompt`: median {prompt:.0f} ms")
    for name, values in (("initialize and tools/list", listed), ("a first memory_recall", recalled)):
        median = statistics.median(values)
        print(
            f"`memdesk mcp` launched to {name} answered: median {median:.0f} ms, "
            f"best {min(values):.0f} ms over {len(values)} starts; "
            f"{median / floor:.2f}x the import, {median / prompt:.2f}x `memdesk prompt`"
        )
    judge(
        "MCP start to its first answers (initialize, tools/list), median",
        statistics.median(listed),
        "`python -c 'import sqlalchemy.orm'`, taking turns",
        floor,
        patience_ms=START_GOAL_MS,
    )
