"""The big store on PostgreSQL, next to SQLite: copy, recall, compose and the window's first page.

The SQLite store from ``bigstore`` is copied with the real ``memdesk db copy --to URL`` into a
server this benchmark starts; then the same queries run on both engines. Prints; never fails
on time.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractItemView
from sqlalchemy import create_engine, text
from tests.perf.bigstore import Corpus, big_store_path
from tests.perf.test_bench_gui import PaintWatch, ms, pump_until
from tests.perf.test_bench_store import percentile, timed
from tests.support.postgres import running_server, server_bin_dir

from memdesk.config import LoadedSettings, Settings
from memdesk.core.search_text import query_words
from memdesk.paths import Paths
from memdesk.services.memdesk import Memdesk
from memdesk.services.prompt import PromptSpec
from memdesk.store.fulltext.postgresql import CONFIG, folded

pytestmark = pytest.mark.skipif(
    server_bin_dir() is None, reason="PostgreSQL's server programs are not installed"
)


def _open(url: str, data_dir: Path) -> Memdesk:
    paths = Paths(data_dir=data_dir, config_file=data_dir / "c.toml", db_url=url, log_dir=data_dir)
    return Memdesk(paths, LoadedSettings(Settings(), ()))


def _raw_tsquery(words: list[str]) -> tuple[str, dict[str, str]]:
    """The words as one OR'ed tsquery, the way recall asks, for the query run directly."""
    parts = [f"plainto_tsquery('{CONFIG}', {folded(f'%(w{i})s')})" for i in range(len(words))]
    return " || ".join(parts), {f"w{i}": word for i, word in enumerate(words)}


def _recall_figures(app: Memdesk, queries: list[str], raw: Callable[[str], object]) -> dict[str, float]:
    for query in queries[:5]:  # warm caches as a running assistant would have
        app.recall.entries(query)
    recall, direct = [], []
    for query in queries:
        recall.append(timed(lambda q=query: app.recall.entries(q, limit=5)))
        direct.append(timed(lambda q=query: raw(q)))
    apps = [f"app{n:05d}" for n in range(0, 10_000, 100)][: len(queries)]
    compose = [
        timed(lambda a=a, q=q: app.prompt.compose(PromptSpec(app=a, message=q)))
        for a, q in zip(apps, queries, strict=False)
    ]
    return {
        "recall_p50": statistics.median(recall),
        "recall_p95": percentile(recall, 0.95),
        "direct_p50": statistics.median(direct),
        "compose_p50": statistics.median(compose),
    }


def _first_knowledge_page(app: Memdesk, data_dir: Path) -> float:
    """Seconds from building the window to the first Knowledge rows painted."""
    from memdesk.gui.main_window import MainWindow
    from memdesk.gui.tasks import TaskRunner

    (data_dir / "window-state.json").write_text(json.dumps({"page": "knowledge"}), encoding="utf-8")
    started = time.perf_counter()
    tasks = TaskRunner(app)
    window = MainWindow.for_store(app, tasks)
    window.resize(1280, 800)
    window.show()
    try:
        pump_until(lambda: window.current_page == "knowledge")
        table = window.views["knowledge"].findChild(QAbstractItemView)
        watch = PaintWatch(table.viewport(), lambda: table.model().rowCount() > 0)
        pump_until(lambda: watch.painted_at is not None)
        return watch.painted_at - started
    finally:
        window.close()
        tasks.shutdown()


def test_big_store_on_postgresql_next_to_sqlite(qapp, tmp_path):
    path, stats = big_store_path()
    queries = Corpus().queries(100)
    print(f"\nstore: {stats['entries']:,} entries, {stats['apps']:,} apps x 10 memories")
    with running_server() as server:
        url = server.url(server.new_database())
        started = time.perf_counter()
        copied = subprocess.run(
            [
                sys.executable,
                "-m",
                "memdesk",
                "--data-dir",
                str(tmp_path),
                "--db",
                str(path),
                "db",
                "copy",
                "--to",
                url,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        copy_seconds = time.perf_counter() - started
        assert copied.returncode == 0, copied.stderr
        print(f"copy SQLite -> PostgreSQL (memdesk db copy): {copy_seconds:.1f} s")
        with create_engine(url, isolation_level="AUTOCOMMIT").connect() as conn:
            conn.execute(text("VACUUM ANALYZE"))  # what autovacuum does soon after a bulk load

        sqlite_app = _open(f"sqlite:///{path}", tmp_path)
        sqlite_raw = sqlite_app.store.read_engine.raw_connection()
        try:
            figures = {
                "SQLite": _recall_figures(
                    sqlite_app,
                    queries,
                    lambda q: sqlite_raw.execute(
                        "SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rank LIMIT 5",
                        (" OR ".join(f'"{w}"' for w in query_words(q)),),
                    ).fetchall(),
                )
            }
        finally:
            sqlite_raw.close()
            sqlite_app.close()

        pg_app = _open(url, tmp_path)
        direct = create_engine(url).raw_connection()
        try:

            def pg_direct(query: str) -> object:
                tsquery, params = _raw_tsquery(query_words(query))
                sql = (
                    f"SELECT id FROM entries WHERE search_vector @@ ({tsquery}) "
                    f"ORDER BY ts_rank_cd(search_vector, {tsquery}) DESC LIMIT 5"
                )
                with direct.cursor() as cursor:
                    cursor.execute(sql, params)
                    return cursor.fetchall()

            figures["PostgreSQL"] = _recall_figures(pg_app, queries, pg_direct)
            first_page = _first_knowledge_page(pg_app, tmp_path)
        finally:
            direct.close()
            pg_app.close()

    print("engine      recall p50 / p95     direct query p50   ratio   compose p50")
    for engine, row in figures.items():
        recall = f"{row['recall_p50']:6.2f} / {row['recall_p95']:6.2f} ms"
        ratio = row["recall_p50"] / row["direct_p50"]
        direct, compose = row["direct_p50"], row["compose_p50"]
        print(f"{engine:<11} {recall}  {direct:8.2f} ms      {ratio:4.2f}x  {compose:7.2f} ms")
    print(f"window on PostgreSQL: first Knowledge rows painted {ms(first_page)} after the window was built")
    assert all(row["recall_p50"] > 0 for row in figures.values())
