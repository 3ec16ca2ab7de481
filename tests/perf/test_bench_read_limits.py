"""What assistants can read, on the big store: memory_recall and prompt through the real
``memdesk mcp`` with private items and an app limit in force, against the same calls without
them, in the same run and the same server: three runs, the best run's ratio judged.

The two take turns in blocks (the person's changes are followed from the next call), so drift
in the machine's speed weighs on both alike. Private items are chosen to matter: entries that
recall ranks at the top for the queries, the facts document, and apps; the limit names every
app the prompts ask for, so the composed text differs only by what is private. Prints each
figure with its goal and a line starting ``MISS`` when over it; never fails on time.
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
from mcp.types import Implementation
from tests.perf.bigstore import Corpus, big_store_path
from tests.perf.goals import judge

from memdesk.config import LoadedSettings, Settings
from memdesk.core.privacy import Target, TargetKind
from memdesk.paths import Paths
from memdesk.services.memdesk import Memdesk

ROUNDS = 100
BLOCKS = 5  # turns of each condition
RUNS = 3
PRIVATE_ENTRIES = 50
PRIVATE_APPS = 20
RATIO_GOAL = 1.10
CLIENT = "bench"


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _private_targets(app: Memdesk, queries: list[str], stats: dict[str, float]) -> list[Target]:
    """Entries recall puts first for the queries, the facts document, and some apps."""
    keys: list[str] = []
    for query in queries:
        keys += [hit.ref for hit in app.recall.entries(query, 2) if hit.ref not in keys]
        if len(keys) >= PRIVATE_ENTRIES:
            break
    app.documents.set("user/facts", "- Keeps a diary\n- Sees a doctor on Thursdays")
    apps = [f"app{n:05d}" for n in range(1, int(stats["apps"]), max(int(stats["apps"]) // PRIVATE_APPS, 2))]
    return (
        [Target(TargetKind.ENTRY, key) for key in keys[:PRIVATE_ENTRIES]]
        + [Target(TargetKind.DOC, "user/facts")]
        + [Target(TargetKind.APP, app_id) for app_id in apps[:PRIVATE_APPS]]
    )


def _set(app: Memdesk, targets: list[Target], limit: list[str], on: bool) -> None:
    for target in targets:
        app.privacy.set_private(target, on)
    app.privacy.set_app_limit(f"mcp:{CLIENT}", limit if on else None)


def test_recall_and_prompt_with_private_items_and_an_app_limit(tmp_path: Path):
    source, stats = big_store_path()
    db = tmp_path / "big.sqlite3"
    shutil.copyfile(source, db)  # the person's marks are written: keep the cached store pristine
    print(f"\nstore: {stats['entries']:,} entries, {stats['apps']:,} apps x 10 memories")
    queries = Corpus().queries(ROUNDS)
    apps = [f"app{n:05d}" for n in range(0, int(stats["apps"]), max(int(stats["apps"]) // ROUNDS, 2))]
    paths = Paths(
        data_dir=tmp_path, config_file=tmp_path / "c.toml", db_url=f"sqlite:///{db}", log_dir=tmp_path
    )
    person = Memdesk(paths, LoadedSettings(Settings(), ()), actor="cli")
    targets = _private_targets(person, queries, stats)
    env = dict(os.environ)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memdesk", "--data-dir", str(tmp_path / "data"), "--db", str(db), "mcp"],
        env=env,
    )
    # figures[run][(tool, in force)]: round-trip times of one run
    figures: list[dict[tuple[str, bool], list[float]]] = [
        {(name, on): [] for name in ("recall", "prompt") for on in (False, True)} for _ in range(RUNS)
    ]

    async def run() -> None:
        async with stdio_client(params) as (read, write):
            info = Implementation(name=CLIENT, version="1")
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                for query in queries[:5]:  # warm the page cache like a running assistant would
                    await session.call_tool("memory_recall", {"query": query})
                size = ROUNDS // BLOCKS
                for times in figures:
                    for block in range(BLOCKS * 2):
                        on = block % 2 == 1
                        _set(person, targets, apps, on)
                        part = slice((block // 2) * size, (block // 2 + 1) * size)
                        for query in queries[part]:
                            began = time.perf_counter()
                            result = await session.call_tool("memory_recall", {"query": query, "limit": 5})
                            times[("recall", on)].append(_ms(began))
                            assert not result.isError
                            if on:
                                found = {m["key"] for m in result.structuredContent["memories"]}
                                assert not found & {t.name for t in targets if t.kind is TargetKind.ENTRY}
                        for app_id, query in zip(apps[part], queries[part], strict=True):
                            began = time.perf_counter()
                            result = await session.call_tool("prompt", {"app": app_id, "message": query})
                            times[("prompt", on)].append(_ms(began))
                            assert not result.isError

    try:
        anyio.run(run)
    finally:
        person.close()
    print(
        f"in force: {PRIVATE_ENTRIES} private entries (recall's best for the queries), a private "
        f"document, {PRIVATE_APPS} private apps, and a limit of {len(apps)} apps for mcp:{CLIENT}"
    )
    for name in ("recall", "prompt"):
        # Each run's medians with and without; the best run's ratio is the figure (a quiet spell).
        runs = [
            (statistics.median(times[(name, True)]), statistics.median(times[(name, False)]))
            for times in figures
        ]
        within, without = min(runs, key=lambda run: run[0] / run[1])
        print(f"{name}: ratio of each run {', '.join(f'{w / wo:.2f}x' for w, wo in runs)}")
        judge(
            f"{name} round trip with private items and an app limit, p50 of {ROUNDS}, best of {RUNS} runs",
            within,
            f"the same {name} calls without them, same server, taking turns",
            without,
            ratio_goal=RATIO_GOAL,
        )
