"""The local admin API on the big store: list an app's memories over HTTP, and start-up.

One `memdesk serve` process, one keep-alive httpx client. Prints; never fails on time.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import time
from pathlib import Path

import httpx
from tests.perf.bigstore import big_store_path
from tests.perf.goals import judge
from tests.support.server import ServeProcess

from memdesk.config import LoadedSettings, Settings
from memdesk.paths import Paths
from memdesk.services.memdesk import Memdesk

REQUESTS = 500


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time a process has used (Linux), which a busy machine barely changes."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return None
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_list_memories_over_http(tmp_path):
    path, stats = big_store_path()
    paths = Paths(
        data_dir=tmp_path, config_file=tmp_path / "c.toml", db_url=f"sqlite:///{path}", log_dir=tmp_path
    )
    local = Memdesk(paths, LoadedSettings(Settings(), ()))
    name = f"bench-{time.time_ns()}"
    token = local.tokens.create(name)
    apps = [f"app{n:05d}" for n in range(0, stats["apps"], max(stats["apps"] // REQUESTS, 1))][:REQUESTS]
    try:
        direct = []
        for app_id in apps[:100]:
            started = time.perf_counter()
            local.apps.memories(app_id, include_expired=False)
            direct.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        served = ServeProcess(tmp_path, extra=("--db", str(path)))
        listening = time.perf_counter() - started
        try:
            headers = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=served.url, headers=headers) as client:
                first = client.get(f"/apps/{apps[0]}/memories")
                to_first = time.perf_counter() - started
                assert first.status_code == 200 and len(first.json()["memories"]) == 10
                for app_id in apps[:20]:  # warm up
                    client.get(f"/apps/{app_id}/memories")
                timings = []
                cpu_before = cpu_seconds(served.process.pid)
                for app_id in apps:
                    began = time.perf_counter()
                    response = client.get(f"/apps/{app_id}/memories")
                    timings.append((time.perf_counter() - began) * 1000)
                    assert response.status_code == 200
                cpu_after = cpu_seconds(served.process.pid)
                floor = []  # the guard and the HTTP round trip alone: a path that is not served
                for _ in range(200):
                    began = time.perf_counter()
                    assert client.get("/not-served").status_code == 404
                    floor.append((time.perf_counter() - began) * 1000)
        finally:
            served.stop()
    finally:
        local.close()
        with sqlite3.connect(path) as conn:  # leave the cached store as it was
            conn.execute("DELETE FROM api_tokens WHERE name = ?", (name,))
    load = os.getloadavg()[0]
    print(f"\nstore: {stats['entries']:,} entries, {stats['apps']:,} apps x 10 memories")
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} while measuring")
    print(
        f"GET /apps/{{appId}}/memories over HTTP (keep-alive, {len(timings)} requests): "
        f"p50 {statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms "
        f"(the service call alone: p50 {statistics.median(direct):.2f} ms)"
    )
    if cpu_before is not None and cpu_after is not None:
        print(f"server CPU time per request: {(cpu_after - cpu_before) * 1000 / len(timings):.2f} ms")
    print(
        f"the same server answering 404 (token check + HTTP only): p50 {statistics.median(floor):.2f} ms, "
        f"p95 {percentile(floor, 0.95):.2f} ms"
    )
    judge(
        "GET /apps/{appId}/memories, p50",
        statistics.median(timings),
        "the same server answering 404 (the token check and HTTP alone)",
        statistics.median(floor),
    )
    print(
        f"`memdesk serve`: listening after {listening * 1000:.0f} ms, "
        f"first answer after {to_first * 1000:.0f} ms"
    )
