"""Build (once, then reuse) a large store for benchmarks: 10,000 apps x 10 memories and
1,000,000 knowledge entries at full scale. MEMDESK_BENCH_SCALE (e.g. 0.1) shrinks it.

Rows go in with plain SQL in large transactions; the FTS triggers index them as they would
any write, so the index is the one the app builds.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sqlite3
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from memdesk.store.engine import Store
from memdesk.store.fulltext import sqlite as fts
from memdesk.store.models import Base

FULL_ENTRIES = 1_000_000
# Like a conversation, some entries ask something: recall then ranks the entry written next.
ASKING_EVERY = 5
FULL_APPS = 10_000
MEMORIES_PER_APP = 10
SEED = 20261121
START = datetime(2025, 1, 1)

_COMMON = [
    "project",
    "meeting",
    "deadline",
    "database",
    "server",
    "deploy",
    "release",
    "review",
    "budget",
    "travel",
    "family",
    "doctor",
    "invoice",
    "contract",
    "design",
    "backend",
    "frontend",
    "python",
    "rust",
    "postgres",
    "docker",
    "kubernetes",
    "email",
    "calendar",
    "flight",
    "hotel",
    "dinner",
    "birthday",
    "gym",
    "running",
    "recipe",
    "garden",
    "book",
    "music",
    "podcast",
    "laptop",
    "phone",
    "car",
    "insurance",
    "tax",
    "salary",
    "interview",
    "client",
    "migration",
    "backup",
    "password",
    "wifi",
    "router",
    "printer",
    "coffee",
]


def scale() -> float:
    return float(os.environ.get("MEMDESK_BENCH_SCALE", "1"))


def vocabulary(rng: random.Random, size: int = 30_000) -> list[str]:
    syllables = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiou"] + ["qu", "sh", "th", "ch"]
    words = list(dict.fromkeys(_COMMON))
    while len(words) < size:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in words:
            words.append(word)
    return words


def zipf_weights(count: int) -> list[float]:
    total = 0.0
    cumulative = []
    for rank in range(1, count + 1):
        total += 1.0 / rank**1.07
        cumulative.append(total)
    return cumulative


class Corpus:
    def __init__(self) -> None:
        self.rng = random.Random(SEED)
        self.words = vocabulary(self.rng)
        self.cum = zipf_weights(len(self.words))

    def sentence(self, low: int, high: int) -> str:
        count = self.rng.randint(low, high)
        return " ".join(self.rng.choices(self.words, cum_weights=self.cum, k=count))

    def queries(self, count: int = 100) -> list[str]:
        """Varied user messages: plain words, stopwords, punctuation, a rare word, emoji."""
        rng = random.Random(SEED + 1)
        shapes = [
            "what did we decide about the {a} and {b}?",
            "remind me: {a} {b} {c}",
            "{a}",
            "is the {a} still blocked by {b}? 🤔",
            '"{a}" OR {b} -- {c}!',
            "can you find my notes on {a}, {b} and {c} from last week",
        ]
        out = []
        for index in range(count):
            picks = {
                key: rng.choices(self.words[50:5000], k=1)[0] if key != "c" else rng.choice(self.words[5000:])
                for key in ("a", "b", "c")
            }
            out.append(shapes[index % len(shapes)].format(**picks))
        return out


def _build(path: Path) -> dict[str, float]:
    factor = scale()
    entries = int(FULL_ENTRIES * factor)
    apps = max(int(FULL_APPS * factor), 10)
    Store(f"sqlite:///{path}").close()  # schema, FTS tables and triggers
    corpus = Corpus()
    started = time.perf_counter()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    now = START
    with conn:
        conn.executemany(
            "INSERT INTO apps(app_id, name, created_at) VALUES (?, ?, ?)",
            ((f"app{n:05d}", f"App {n}", str(now)) for n in range(apps)),
        )
        conn.executemany(
            "INSERT INTO app_memories(app_id, content, created_at, updated_at, pinned, tags) "
            "VALUES (?, ?, ?, ?, 0, '')",
            (
                (
                    f"app{n:05d}",
                    corpus.sentence(8, 25),
                    str(now + timedelta(minutes=m)),
                    str(now + timedelta(minutes=m)),
                )
                for n in range(apps)
                for m in range(MEMORIES_PER_APP)
            ),
        )
    batch = 100_000
    for offset in range(0, entries, batch):
        with conn:
            conn.executemany(
                "INSERT INTO entries(key, content, category, importance, created_at, updated_at, pinned) "
                "VALUES (?, ?, 'knowledge', 0.5, ?, ?, 0)",
                (
                    (
                        f"k{i:07d}",
                        corpus.sentence(6, 20) + ("?" if i % ASKING_EVERY == 0 else ""),
                        str(now + timedelta(seconds=i)),
                        str(now + timedelta(seconds=i)),
                    )
                    for i in range(offset, min(offset + batch, entries))
                ),
            )
    conn.execute("PRAGMA optimize")
    conn.close()
    return {"build_seconds": time.perf_counter() - started, "entries": entries, "apps": apps}


def schema_fingerprint() -> str:
    """Changes whenever tables, columns, indexes or full-text indexes change, so a stale cache
    is not reused."""
    shape = sorted(
        (table.name, [c.name for c in table.columns], sorted(str(i.name) for i in table.indexes))
        for table in Base.metadata.tables.values()
    )
    full_text = (fts.TOKENIZE, fts.INDEXES, fts.CJK_INDEXES)
    return hashlib.sha1(repr((shape, full_text, ASKING_EVERY)).encode()).hexdigest()[:10]


def big_store_path() -> tuple[Path, dict[str, float]]:
    """The cached benchmark database for the current scale (built on first use)."""
    folder = Path(tempfile.gettempdir()) / "memdesk-bench"
    folder.mkdir(exist_ok=True)
    path = folder / f"store-{scale():g}-{schema_fingerprint()}.sqlite3"
    stats_path = path.with_suffix(".stats")
    if not path.exists() or not stats_path.exists():
        tmp = path.with_suffix(".building")
        for stale in folder.glob(tmp.name + "*"):
            stale.unlink()
        stats = _build(tmp)
        shutil.move(tmp, path)
        stats_path.write_text(json.dumps(stats))
    stats = json.loads(stats_path.read_text())
    stats["db_bytes"] = path.stat().st_size
    return path, stats
