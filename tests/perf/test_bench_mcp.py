"""``memdesk mcp`` round trips through the SDK's real stdio client on the big store.

One server process, one client: memory_recall and prompt p50/p95, memory_store p50, and the
time from launching the server to its first answered call. The same calls made in this
process, without MCP, and a ping show how much of a round trip is the protocol and how much
the store. Prints (with the machine's load average); never fails on time.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation, PromptReference
from tests.perf.bigstore import Corpus, big_store_path
from tests.perf.test_bench_store import percentile, timed

from memdesk.config import LoadedSettings, Settings
from memdesk.paths import Paths
from memdesk.servers.tools import MemoryTools
from memdesk.services.memdesk import Memdesk

ROUNDS = 100
STORES = 50
STARTS = 5
START_GOAL_MS = 1000.0
COMPLETE_GOAL_MS = 20.0


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
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memdesk", "--data-dir", str(tmp_path / "data"), "--db", str(db), "mcp"],
    )
    figures: dict[str, list[float]] = {"recall": [], "prompt": [], "store": [], "ping": [], "complete": []}
    start: list[float] = []

    async def run() -> None:
        launched = time.perf_counter()
        async with stdio_client(params) as (read, write):
            info = Implementation(name="bench", version="1")
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                first = await session.call_tool("memory_recall", {"query": queries[0]})
                start.append(_ms(launched))
                assert not first.isError
                for query in queries[:5]:  # warm the page cache like a running assistant would
                    await session.call_tool("memory_recall", {"query": query})
                for query in queries:
                    began = time.perf_counter()
                    result = await session.call_tool("memory_recall", {"query": query, "limit": 5})
                    figures["recall"].append(_ms(began))
                    assert not result.isError
                for app, query in zip(apps, queries, strict=False):
                    began = time.perf_counter()
                    result = await session.call_tool("prompt", {"app": app, "message": query})
                    figures["prompt"].append(_ms(began))
                    assert not result.isError
                template = PromptReference(type="ref/prompt", name="session-start")
                # Prefixes that match a hundred apps and more, a few, and none (a whole scan).
                prefixes = ["app", "app0", "app001", "app0042", "app09999", "zzz", ""] * 15
                for prefix in prefixes:
                    began = time.perf_counter()
                    await session.complete(template, {"name": "app", "value": prefix})
                    figures["complete"].append(_ms(began))
                for _ in range(ROUNDS):
                    began = time.perf_counter()
                    await session.send_ping()
                    figures["ping"].append(_ms(began))
                for index in range(STORES):
                    began = time.perf_counter()
                    result = await session.call_tool(
                        "memory_store",
                        {"key": f"bench_mcp_{index}", "content": queries[index], "category": "knowledge"},
                    )
                    figures["store"].append(_ms(began))
                    assert not result.isError

    anyio.run(run)

    async def first_answer() -> None:
        launched = time.perf_counter()
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("memory_recall", {"query": queries[0]})
            start.append(_ms(launched))

    # Starts alternate with `memdesk prompt` runs, a process doing the same work without MCP.
    cli = [*params.args[:-1], "prompt", "--message", queries[0]]
    prompt_runs = []
    for _ in range(STARTS):
        anyio.run(first_answer)
        prompt_runs.append(
            timed(lambda: subprocess.run([params.command, *cli], check=True, capture_output=True))
        )
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    starts, runs = statistics.median(start), statistics.median(prompt_runs)
    print(
        f"server start to first answered call: median {starts:.0f} ms, best {min(start):.0f} ms over "
        f"{len(start)} starts; `memdesk prompt` as a process: median {runs:.0f} ms ({starts / runs:.2f}x)"
    )
    print(f"(goal: start to first answer ≤ {START_GOAL_MS:.0f} ms)")
    if starts > START_GOAL_MS:
        print(f"MISS MCP start to first answered call: {starts:.0f} ms > {START_GOAL_MS:.0f} ms")
    for name in ("recall", "prompt", "store", "complete"):
        print(_line(f"{name} round trip", figures[name]))
    complete = statistics.median(figures["complete"])
    print(f"(goal: an app completion over {stats['apps']:,} apps ≤ {COMPLETE_GOAL_MS:.0f} ms)")
    if complete > COMPLETE_GOAL_MS:
        print(f"MISS completion: p50 {complete:.1f} ms > {COMPLETE_GOAL_MS:.0f} ms")
    print(_line("ping round trip (the transport alone)", figures["ping"]))
    paths = Paths(
        data_dir=tmp_path, config_file=tmp_path / "c.toml", db_url=f"sqlite:///{db}", log_dir=tmp_path
    )
    app = Memdesk(paths, LoadedSettings(Settings(), ()))
    try:
        tools = MemoryTools(app)
        recall = [timed(lambda q=q: tools.memory_recall(q, limit=5)) for q in queries]
        prompt = [
            timed(lambda a=a, q=q: tools.prompt(app=a, message=q))
            for a, q in zip(apps, queries, strict=False)
        ]
    finally:
        app.close()
    print(_line("recall in process, no MCP", recall))
    print(_line("prompt in process, no MCP", prompt))
    assert all(figures.values())
