"""The big tables at scale: 1,000,000 entries, 10,000 apps x 10 memories. Prints; never fails on time.

The store is the shared cached benchmark store (``tests/perf/bigstore.py``; MEMDESK_BENCH_SCALE
shrinks it). Figures:

- store open -> the Knowledge view's first rows painted (the target is at most 1 s)
- all ids known (the scroll bar covers the whole table)
- scroll to the end, and paint times while jumping around the table
- sort by a column, filter by a common and by a rare word (first rows, and all ids)
- an app's memories shown
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from tests.perf.bigstore import big_store_path

from memdesk.gui.models.entries import EntryTableModel as E
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.apps import AppMemoriesView
from memdesk.gui.views.entries import EntriesView
from memdesk.services.memdesk import Memdesk

TIMEOUT_S = 120


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
    path, stats = big_store_path()
    apps = int(stats["apps"])
    started = time.perf_counter()
    app = Memdesk.open(data_dir=str(tmp_path), db=str(path))
    tasks = TaskRunner(app)
    view = EntriesView(tasks, "knowledge")
    try:
        view.resize(1200, 800)
        view.show()
        painted(view, 0)
        first_rows = ms(started)
        wait(lambda: view.model.complete)
        all_ids = ms(started)
        total = view.model.rowCount()
        print(
            f"\nstore: {total:,} knowledge entries, {apps:,} apps x 10 memories (cached at {path})"
        )
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
        apps_view.show_app(f"app{apps // 2:05d}")
        wait(lambda: apps_view.page is not None)
        print(f"an app's memories shown: {ms(started)} ({apps_view.model.rowCount()} rows)")
        apps_view.close()
    finally:
        view.close()
        tasks.wait_idle(30_000)
        tasks.shutdown()
        app.close()
