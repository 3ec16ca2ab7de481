"""Store, recall, composer and CLI figures at the foundation's scale. Prints; never fails on time."""

from __future__ import annotations

import os
import sqlite3
import statistics
import sys
import time

from tests.perf.bigstore import Corpus, big_store_path
from tests.perf.goals import IMPORT_FLOOR, judge, process_ms, ratio_of_turns, taking_turns

from memdesk.config import LoadedSettings, Settings
from memdesk.core.search_text import fts_query, query_words
from memdesk.paths import Paths
from memdesk.services.memdesk import Memdesk
from memdesk.services.prompt import PromptSpec


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


PROCESS_RUNS = 11
PROMPT_RATIO_GOAL = 1.3


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def test_store_recall_compose_and_cli(tmp_path):
    path, stats = big_store_path()
    print(f"\nstore: {stats['entries']:,} entries, {stats['apps']:,} apps x 10 memories")
    print(
        f"build: {stats['build_seconds']:.1f} s (cached after the first run); "
        f"size {stats['db_bytes'] / 2**20:.0f} MiB"
    )
    paths = Paths(
        data_dir=tmp_path, config_file=tmp_path / "c.toml", db_url=f"sqlite:///{path}", log_dir=tmp_path
    )
    app = Memdesk(paths, LoadedSettings(Settings(), ()))
    queries = Corpus().queries(100)
    try:
        for query in queries[:5]:  # warm the page cache like a running assistant would
            app.recall.entries(query)
        # The same words, tokenizer and OR form, straight to FTS5; timed next to each recall so
        # that load from other processes weighs on both alike.
        raw_conn = sqlite3.connect(path)
        recall, raw = [], []
        for query in queries:
            match = fts_query(query_words(query))
            recall.append(timed(lambda q=query: app.recall.entries(q, limit=5)))
            raw.append(
                timed(
                    lambda m=match: raw_conn.execute(
                        "SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rank LIMIT 5", (m,)
                    ).fetchall()
                )
            )
        raw_conn.close()
        apps = [f"app{n:05d}" for n in range(0, stats["apps"], max(stats["apps"] // 100, 1))][:100]
        compose = [
            timed(lambda a=a, q=q: app.prompt.compose(PromptSpec(app=a, message=q)))
            for a, q in zip(apps, queries, strict=False)
        ]
    finally:
        app.close()
    p50, p95, raw50 = statistics.median(recall), percentile(recall, 0.95), statistics.median(raw)
    print(f"recall: p50 {p50:.2f} ms, p95 {p95:.2f} ms over {len(recall)} queries")
    print(
        f"raw FTS5 (sqlite3): p50 {raw50:.2f} ms, p95 {percentile(raw, 0.95):.2f} ms; "
        f"ratio p50 {p50 / raw50:.2f}x"
    )
    print(f"compose: p50 {statistics.median(compose):.2f} ms, p95 {percentile(compose, 0.95):.2f} ms")
    command = [
        sys.executable,
        "-m",
        "memdesk",
        "--db",
        str(path),
        "--data-dir",
        str(tmp_path),
        "prompt",
        "--app",
        "app00042",
        "--message",
        queries[0],
    ]
    env = {**os.environ, "MEMDESK_DATA_DIR": str(tmp_path)}
    times = taking_turns(
        PROCESS_RUNS,
        {"prompt": lambda: process_ms(command, env), "import": lambda: process_ms(IMPORT_FLOOR, env)},
    )
    judge(
        f"`memdesk prompt --message` as a process on {stats['entries']:,} entries (recall included), "
        f"median of {PROCESS_RUNS}",
        statistics.median(times["prompt"]),
        "`python -c 'import sqlalchemy.orm'`, taking turns",
        statistics.median(times["import"]),
        ratio_goal=PROMPT_RATIO_GOAL,
        ratio=ratio_of_turns(times, "prompt", "import"),
    )
    assert recall and raw and compose  # the figures above exist for every query
