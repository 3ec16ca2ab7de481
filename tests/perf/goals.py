"""How a waiting figure is judged: against a floor measured in the same run, and, only where a
person's patience sets it, against a fixed time.

A goal in milliseconds moves with the machine: on a slower one it misses with no change in
the code, and a regression can hide on a faster one. So each figure is measured next to its
floor (the least any program could do for the same result: the import Memdesk cannot start
without, the same query in plain SQL, a bare Qt table, the protocol's own round trip), the
two taking turns so that load from other programs weighs on both alike, and its goal is a
ratio to that floor. A fixed time is kept only where it is what a person notices.

``judge`` prints the figure, its floor, the ratio, each goal with its kind and the machine's
load, and a line starting ``MISS`` for each goal not met. Benchmarks never fail on time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

RATIO = "ratio to the floor"
PATIENCE = "a person's patience"
IMPORT_FLOOR = [sys.executable, "-c", "import sqlalchemy.orm"]  # what opening a store needs first


def load_average() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def judge(
    what: str,
    value_ms: float,
    floor_name: str,
    floor_ms: float,
    ratio_goal: float | None = None,
    patience_ms: float | None = None,
    ratio: float | None = None,
) -> None:
    """Print a figure beside its floor; ``ratio`` when the figure's own is not value/floor
    (a median of ratios of runs taken in turns)."""
    ratio = value_ms / floor_ms if ratio is None else ratio
    goals = []
    if ratio_goal is not None:
        goals.append(f"≤ {ratio_goal:.2f}x, {RATIO}")
    if patience_ms is not None:
        goals.append(f"≤ {patience_ms:,.0f} ms, {PATIENCE}")
    print(
        f"{what}: {value_ms:,.1f} ms; floor ({floor_name}) {floor_ms:,.1f} ms; {ratio:.2f}x the floor "
        f"(goal {'; '.join(goals) or 'none'}); {load_average()}"
    )
    if ratio_goal is not None and ratio > ratio_goal:
        print(f"MISS {what}: {ratio:.2f}x the floor > {ratio_goal:.2f}x")
    if patience_ms is not None and value_ms > patience_ms:
        print(f"MISS {what}: {value_ms:,.0f} ms > {patience_ms:,.0f} ms")


def patience(what: str, value_ms: float, goal_ms: float) -> None:
    """A figure whose only goal is a person's patience (no program could do it for less that
    is worth measuring beside it)."""
    print(f"{what}: {value_ms:,.1f} ms (goal ≤ {goal_ms:,.0f} ms, {PATIENCE}); {load_average()}")
    if value_ms > goal_ms:
        print(f"MISS {what}: {value_ms:,.0f} ms > {goal_ms:,.0f} ms")


def process_ms(command: list[str], env: dict[str, str] | None = None, stdin: bytes | None = None) -> float:
    """The whole run of a process, from launch to exit, in milliseconds (bytecode is written
    and reused, as on an installed machine: tests/conftest.py sees to it)."""
    started = time.perf_counter()
    subprocess.run(command, input=stdin, check=True, capture_output=True, env=env, timeout=300)
    return (time.perf_counter() - started) * 1000


def taking_turns(runs: int, measures: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Each measure ``runs`` times, one of each per round after a round not counted (files
    cached, bytecode written), so that drift in the machine's speed weighs on all alike."""
    for measure in measures.values():
        measure()
    times: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(runs):
        for name, measure in measures.items():
            times[name].append(measure())
    return times


def ratio_of_turns(times: dict[str, list[float]], name: str, floor: str) -> float:
    """The median over rounds of each round's ratio: a round slowed by load slows both."""
    return statistics.median(value / base for value, base in zip(times[name], times[floor], strict=True))
