"""The suspicious-text detector on the public dev data: how much of each family it flags, and
how fast it reads.

The data is read from ``../shared/data/`` at bench time and never copied; the bench skips
with one line when it is absent. Prints each figure with its goal, and a line starting
``MISS`` for a figure on the wrong side of it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memdesk.core.suspicious import is_suspicious

DATA_DIR = Path(os.environ.get("MEMDESK_BENCH_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"))
ATTACKS_AT_LEAST = 0.90
LOCOMO_AT_MOST = 0.005
BENIGN_AT_MOST = 0.01
SPEED_GOAL_MS_PER_KB = 1.0  # a 1 MB import is judged within a second
ROUNDS = 5


def _load(name: str) -> object:
    path = DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"{path} is absent; the detector bench needs the shared dev data")
    return json.loads(path.read_text(encoding="utf-8"))


def _locomo_turns(conversations: object) -> Iterator[str]:
    assert isinstance(conversations, list)
    for item in conversations:
        for name, turns in item["conversation"].items():
            if name.startswith("session_") and isinstance(turns, list):
                yield from (turn["text"] for turn in turns)


def _share(texts: list[str]) -> tuple[int, float]:
    flagged = sum(1 for text in texts if is_suspicious(text))
    return flagged, flagged / len(texts)


def _report(name: str, texts: list[str], goal: float, at_least: bool) -> None:
    flagged, share = _share(texts)
    relation = "≥" if at_least else "≤"
    print(f"{name}: {flagged} of {len(texts)} flagged = {share:.2%} (goal {relation} {goal:.1%})")
    if (share < goal) if at_least else (share > goal):
        print(f"MISS {name}: {share:.2%} is not {relation} {goal:.1%}")


def test_detector_on_the_dev_data():
    injection = _load("injection-dev.json")
    locomo = _load("locomo-dev.json")
    assert isinstance(injection, dict)
    attacks = [attack["as_memory"] for attack in injection["attacks"]]
    benign = list(injection["benign_dev"])
    turns = list(_locomo_turns(locomo))
    print()
    _report("attacks (injection-dev.json)", attacks, ATTACKS_AT_LEAST, at_least=True)
    _report("benign developer paragraphs", benign, BENIGN_AT_MOST, at_least=False)
    _report("LoCoMo dev chat turns", turns, LOCOMO_AT_MOST, at_least=False)

    everything = attacks + benign + turns
    kilobytes = sum(len(text.encode()) for text in everything) / 1024
    best = float("inf")
    for _ in range(ROUNDS):
        began = time.perf_counter()
        for text in everything:
            is_suspicious(text)
        best = min(best, time.perf_counter() - began)
    per_kb = best * 1000 / kilobytes
    print(f"speed: {per_kb:.3f} ms/KB over {kilobytes:.0f} KB in {len(everything):,} texts, best of {ROUNDS}")
    if per_kb > SPEED_GOAL_MS_PER_KB:
        print(f"MISS detector speed: {per_kb:.3f} ms/KB > {SPEED_GOAL_MS_PER_KB} ms/KB")
