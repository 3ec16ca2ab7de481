"""The big tables at scale: 1,000,000 entries, 10,000 apps x 10 memories. Prints; never fails on time.

The store is built once per scale (MEMDESK_BENCH_SCALE, default 1) with Core bulk inserts
inside ``app.store.write()`` and reused from the temp folder afterwards. Figures:

- store open -> the Knowledge view's first rows painted (the target is at most 1 s)
- all ids known (the scroll bar covers the whole table)
- scroll to the end, and paint times while jumping around the table
- sort by a column, filter by a common and by a rare word (first rows, and all ids)
- an app's memories shown
"""

from __future__ import annotations

import itertools
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from sqlalchemy import insert, text

from memdesk.gui.models.entries import EntryTableModel as E
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.apps import AppMemoriesView
from memdesk.gui.views.entries import EntriesView
from memdesk.services.memdesk import Memdesk
from memdesk.store import fts
from memdesk.store.models import App, AppMemory, Entry

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

FULL_ENTRIES = 1_000_000
FULL_APPS = 10_000
MEMORIES_PER_APP = 10
BATCH = 50_000
BUILD_VERSION = 1  # bump when the generated data changes, so a cached store is rebuilt
START = datetime(2025, 1, 1)
TIMEOUT_S = 120


def scale() -> float:
    return float(os.environ.get("MEMDESK_BENCH_SCALE", "1"))


class Words:
    """Sentences from a few thousand made-up words, common ones far more often (like real text)."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        syllables = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
        made_up = {"".join(self.rng.choices(syllables, k=self.rng.randint(2, 4))) for _ in range(6000)}
        self.words = ["coffee", "meeting", "project", "travel", *sorted(made_up)]
        self.cum_weights = list(itertools.accumulate(1 / rank for rank in range(1, len(self.words) + 1)))

    def sentence(self, count: int) -> str:
        return " ".join(self.rng.choices(self.words, cum_weights=self.cum_weights, k=count))


def build(app: Memdesk) -> None:
    """Bulk rows in one write transaction. The FTS triggers are dropped while inserting and
    the index is rebuilt in one pass afterwards (the same index, about three times faster)."""
    entries = int(FULL_ENTRIES * scale())
    apps = max(int(FULL_APPS * scale()), 10)
    words = Words()
    with app.store.write() as session:
        conn = session.connection()
        for table, _content, _columns in fts.INDEXES:
            for suffix in ("ai", "ad", "au"):
                conn.execute(text(f"DROP TRIGGER {table}_{suffix}"))
        conn.execute(insert(App), [{"app_id": f"app{n:05d}", "created_at": START} for n in range(apps)])
        for first in range(0, apps, BATCH // MEMORIES_PER_APP):
            rows = [
                {
                    "app_id": f"app{n:05d}",
                    "content": words.sentence(12),
                    "created_at": START + timedelta(minutes=m),
                    "updated_at": START + timedelta(minutes=m),
                    "importance": m,
                    "tags": "",
                    "pinned": False,
                }
                for n in range(first, min(first + BATCH // MEMORIES_PER_APP, apps))
                for m in range(MEMORIES_PER_APP)
            ]
            conn.execute(insert(AppMemory.__table__), rows)
        for first in range(0, entries, BATCH):
            rows = [
                {
                    "key": f"k{i:07d}",
                    "content": words.sentence(12),
                    "category": "knowledge",
                    "importance": (i % 101) / 100,
                    "session_id": f"telegram:{i % 997}",
                    "created_at": START + timedelta(seconds=30 * i),
                    "updated_at": START + timedelta(seconds=30 * i),
                    "pinned": False,
                }
                for i in range(first, min(first + BATCH, entries))
            ]
            conn.execute(insert(Entry.__table__), rows)
        fts.rebuild_indexes(conn)
        fts.create_indexes(conn)  # the triggers, back as the app makes them


def bench_store() -> tuple[Path, float | None]:
    """The cached store for this scale, and how long building it took (None: reused)."""
    folder = Path(tempfile.gettempdir()) / "memdesk-bench"
    path = folder / f"tables-{scale():g}-v{BUILD_VERSION}.sqlite3"
    if path.exists():
        return path, None
    folder.mkdir(exist_ok=True)
    building = path.with_suffix(".building")
    for stale in folder.glob(building.name + "*"):
        stale.unlink()
    started = time.perf_counter()
    app = Memdesk.open(data_dir=str(folder / "build"), db=str(building))
    try:
        build(app)
    finally:
        app.close()
    building.rename(path)
    return path, time.perf_counter() - started


def wait(condition: Callable[[], bool]) -> None:
    deadline = time.perf_counter() + TIMEOUT_S
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError("the table did not get there in time")
        QCoreApplication.processEvents()
        time.sleep(0.0005)


def painted(view: EntriesView, row: int) -> None:
    """Wait until ``row`` has been read, then paint the table now, as the screen would."""
    wait(lambda: view.model.rowCount() > row and view.model.entry_at(row) is not None)
    view.table.viewport().repaint()


def ms(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:,.0f} ms"


def test_big_tables(qapp, tmp_path):
    path, built = bench_store()
    started = time.perf_counter()
    app = Memdesk.open(data_dir=str(tmp_path), db=str(path))
    tasks = TaskRunner(app)
    view = EntriesView(app, tasks, "knowledge")
    try:
        view.resize(1200, 800)
        view.show()
        painted(view, 0)
        first_rows = ms(started)
        wait(lambda: view.model.complete)
        all_ids = ms(started)
        total = view.model.rowCount()
        print(
            f"\nstore: {total:,} knowledge entries, {max(int(FULL_APPS * scale()), 10):,} apps x 10 memories"
        )
        print(f"build: {built:.1f} s" if built is not None else f"build: reused {path}")
        print(f"open -> first rows painted: {first_rows} (all {total:,} ids known after {all_ids})")

        started = time.perf_counter()
        view.table.scrollToBottom()
        painted(view, total - 1)
        print(f"scroll to the end: {ms(started)}")

        bar, jumps, rng = view.table.verticalScrollBar(), [], random.Random(3)
        for _ in range(100):  # a fast drag: paint wherever the bar lands, rows or not
            bar.setValue(rng.randrange(bar.maximum() + 1))
            step = time.perf_counter()
            view.table.viewport().repaint()
            QCoreApplication.processEvents()
            jumps.append((time.perf_counter() - step) * 1000)
        print(
            f"paint while dragging the bar: median {statistics.median(jumps):.1f} ms, max {max(jumps):.1f} ms"
        )
        print(f"rows read so far: {view.model.rows_fetched:,} of {total:,}")

        view.table.scrollToTop()
        for label, change in (
            ("filter 'coffee' (common)", lambda: view.model.set_filter("coffee")),
            ("filter 'k0999' (a key prefix)", lambda: view.model.set_filter("k0999")),
            ("filter cleared", lambda: view.model.set_filter("")),
            (
                "sort by content (no index)",
                lambda: view.table.sortByColumn(E.CONTENT, Qt.SortOrder.AscendingOrder),
            ),
            ("sort by key, descending", lambda: view.table.sortByColumn(E.KEY, Qt.SortOrder.DescendingOrder)),
            (
                "sort by created (indexed)",
                lambda: view.table.sortByColumn(E.CREATED, Qt.SortOrder.AscendingOrder),
            ),
        ):
            resets: list[int] = []

            def count_reset(resets: list[int] = resets) -> None:  # the new query's first rows are in
                resets.append(1)

            view.model.modelReset.connect(count_reset)
            started = time.perf_counter()
            change()
            wait(lambda resets=resets: bool(resets) or view.model.complete)
            if view.model.rowCount():
                painted(view, 0)
            first = ms(started)
            view.model.modelReset.disconnect(count_reset)
            wait(lambda: view.model.complete)
            print(f"{label}: first rows {first}, all {view.model.rowCount():,} ids {ms(started)}")

        apps_view = AppMemoriesView(app, tasks)
        started = time.perf_counter()
        apps_view.show_app(f"app{max(int(FULL_APPS * scale()), 10) // 2:05d}")
        wait(lambda: apps_view.page is not None)
        print(f"an app's memories shown: {ms(started)} ({apps_view.model.rowCount()} rows)")
        apps_view.close()
    finally:
        view.close()
        tasks.wait_idle(30_000)
        tasks.shutdown()
        app.close()
