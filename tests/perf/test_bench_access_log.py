"""The read log on the big store with 1,000,000 logged reads. Prints; never fails on time.

The store is a copy of the shared benchmark store (``tests/perf/bigstore.py``) with a million
reads added over the last 30 days by ten assistants (cached beside it, rebuilt weekly so the
reads stay inside the 90 days kept): ``mcp:assistant-0`` made 1% of them, ``mcp:assistant-1``
10%, the other eight the rest. Figures:

- one read logged on the reply path (items taken from a reply body and queued)
- 100,000 reads logged by concurrent clients (4 server processes x 4 threads): none lost
- the Assistants page's Reads tab: first page on screen
- one assistant's reads listed newest first (the service, 1% of the reads) against the same
  query in plain SQL: ≤ 1.5x
- ``memdesk access log --json --assistant NAME`` over the million, as a process: ≤ 500 ms for
  the assistant with 1% of the reads, beside a Python running the same query with sqlite3;
  the one with 10% for scale
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from sqlalchemy import event
from tests.perf.bigstore import big_store_path, scale
from tests.perf.goals import (
    IMPORT_FLOOR,
    judge,
    patience,
    process_ms,
    ratio_of_turns,
    taking_turns,
)

from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.assistant_reads import ReadsPanel
from memdesk.servers.reads import record
from memdesk.services.memdesk import Memdesk

FULL_READS = 1_000_000
ASSISTANTS = 10
LOAD_READS = 100_000
LOAD_PROCESSES = 4
LOAD_THREADS = 4
RECORD_GOAL_MS = 0.2
FIRST_PAGE_GOAL_MS = 200  # the Reads tab answers a click: patience
QUIET_ASSISTANT = "mcp:assistant-0"  # 1% of the reads: the listing's figure
BUSY_ASSISTANT = "mcp:assistant-1"  # 10%
LISTING_RUNS = 5
LISTING_RATIO_GOAL = 1.5
COMMAND_RUNS = 3
COMMAND_PATIENCE_MS = 500
TOOLS = ("memory_recall", "app_memories", "prompt", "document_read")


def report(what: str, value: float, unit: str, goal: float) -> None:
    line = f"{what}: {value:,.3g} {unit} (goal ≤ {goal:g} {unit})"
    print(("MISS " if value > goal else "") + line)


def _assistant(read_id: int) -> str:
    if read_id % 100 == 0:
        return "mcp:assistant-0"
    if read_id % 10 == 1:
        return "mcp:assistant-1"
    return f"mcp:assistant-{2 + read_id % (ASSISTANTS - 2)}"


def _build_reads(path: Path, reads: int, entries: int, apps: int) -> None:
    rng = random.Random(29)
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    start = now - timedelta(days=30)
    step = timedelta(days=30) / reads
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    batch = 100_000
    for offset in range(0, reads, batch):
        heads, items = [], []
        for read_id in range(offset + 1, min(offset + batch, reads) + 1):
            tool = TOOLS[read_id % len(TOOLS)]
            heads.append((read_id, str(start + step * read_id), _assistant(read_id), tool))
            if tool == "app_memories":
                refs = [("app_memory", str(rng.randrange(1, apps * 10)))]
            elif tool == "document_read":
                refs = [("document", "user/profile")]
            else:
                refs = [("entry", f"k{rng.randrange(entries):07d}") for _ in range(3)]
            items += [(read_id, position, kind, ref) for position, (kind, ref) in enumerate(refs)]
        with conn:
            conn.executemany("INSERT INTO assistant_reads(id, at, actor, tool) VALUES (?, ?, ?, ?)", heads)
            conn.executemany(
                "INSERT INTO assistant_read_items(read_id, position, kind, ref) VALUES (?, ?, ?, ?)", items
            )
    conn.execute("PRAGMA optimize")
    conn.close()


def reads_store() -> tuple[Path, int]:
    """The big store with the read log filled (built on first use this week)."""
    big, stats = big_store_path()
    reads = int(FULL_READS * scale())
    week = datetime.now(UTC).strftime("%G-%V")
    path = big.with_name(f"{big.stem}-reads-{week}.sqlite3")
    if not path.exists():
        for stale in big.parent.glob(f"{big.stem}-reads-*"):
            stale.unlink()
        tmp = path.with_suffix(".building")
        shutil.copyfile(big, tmp)
        _build_reads(tmp, reads, int(stats["entries"]), int(stats["apps"]))
        tmp.rename(path)
    return path, reads


_LOAD = """
import sys, threading
from memdesk.core.items import ItemKind, ItemRef
from memdesk.services.memdesk import Memdesk
app = Memdesk.open(data_dir=sys.argv[1], db=sys.argv[2])
process, threads, each = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def client(number):
    for call in range(each):
        app.access_log.record(f"mcp:load-{process}-{number}", "memory_recall",
                              [ItemRef(ItemKind.ENTRY, f"k{call:07d}")])
clients = [threading.Thread(target=client, args=(n,)) for n in range(threads)]
for c in clients: c.start()
for c in clients: c.join()
app.close()
"""


def test_read_log(qapp, tmp_path):
    path, reads = reads_store()
    app = Memdesk.open(data_dir=str(tmp_path), db=str(path))
    tasks = TaskRunner(app)
    try:
        print(f"\nstore: {reads:,} logged reads by {ASSISTANTS} assistants (cached at {path})")
        _reply_path(app)
        _load(app, tmp_path, path)
        _reads_tab(app, tasks)
        statement = _listing(app, path, reads)
    finally:
        tasks.shutdown()
        app.close()
    _cli(tmp_path, path, reads, statement)


def _reply_path(app: Memdesk) -> None:
    from memdesk.servers.tools import MemoryTools

    tools = MemoryTools(app)
    bodies = [
        ("memory_recall", tools.memory_recall("project deadline", limit=5).data),
        ("app_memories", tools.app_memories("app00001").data),
        ("prompt", tools.prompt(app="app00001", message="project deadline").data),
    ]
    for tool, body in bodies:
        times = []
        for _ in range(5000):
            started = time.perf_counter()
            record(app, "mcp:bench", tool, body)
            times.append((time.perf_counter() - started) * 1000)
        median, p95 = statistics.median(times), sorted(times)[int(len(times) * 0.95)]
        report(
            f"one read logged on the reply path, {tool}: p50 {median:.4f} ms, p95", p95, "ms", RECORD_GOAL_MS
        )
    assert app.access_log.flush(60)
    with app.store.write_engine.begin() as conn:
        conn.exec_driver_sql(
            "DELETE FROM assistant_read_items WHERE read_id IN "
            "(SELECT id FROM assistant_reads WHERE actor = 'mcp:bench')"
        )
        conn.exec_driver_sql("DELETE FROM assistant_reads WHERE actor = 'mcp:bench'")


def _load(app: Memdesk, tmp_path: Path, path: Path) -> None:
    each = LOAD_READS // (LOAD_PROCESSES * LOAD_THREADS)
    started = time.perf_counter()
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _LOAD, str(tmp_path), str(path), str(n), str(LOAD_THREADS), str(each)]
        )
        for n in range(LOAD_PROCESSES)
    ]
    codes = [process.wait() for process in processes]
    took = time.perf_counter() - started
    with app.store.read() as session:
        logged = (
            session.connection()
            .exec_driver_sql("SELECT count(*) FROM assistant_reads WHERE actor LIKE 'mcp:load-%'")
            .scalar()
        )
    with app.store.write_engine.begin() as conn:  # the cached store stays as built
        conn.exec_driver_sql(
            "DELETE FROM assistant_read_items WHERE read_id IN "
            "(SELECT id FROM assistant_reads WHERE actor LIKE 'mcp:load-%')"
        )
        conn.exec_driver_sql("DELETE FROM assistant_reads WHERE actor LIKE 'mcp:load-%'")
    lost = LOAD_READS - logged
    line = (
        f"{LOAD_READS:,} reads by {LOAD_PROCESSES} processes x {LOAD_THREADS} clients: {logged:,} logged, "
        f"{lost:,} lost, in {took:.1f} s including start-up (goal: none lost)"
    )
    print(("MISS " if lost or any(codes) else "") + line)


def _reads_tab(app: Memdesk, tasks: TaskRunner) -> None:
    times = []
    for number in range(5):
        panel = ReadsPanel(tasks)
        panel.resize(900, 600)
        panel.show()
        started = time.perf_counter()
        panel.show_assistant(f"mcp:assistant-{number + 1}")
        deadline = started + 60
        while panel.model.rowCount() == 0 and time.perf_counter() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.0005)
        panel.table.viewport().repaint()
        times.append((time.perf_counter() - started) * 1000)
        panel.close()
    patience(
        f"Reads tab, first page on screen (5 assistants: {', '.join(f'{t:.0f}' for t in times)} ms), median",
        statistics.median(times),
        FIRST_PAGE_GOAL_MS,
    )
    # An item every fourth read returned (the profile), and a rare one (one app memory).
    for item in ("user/profile", "12345"):
        started = time.perf_counter()
        filtered = app.access_log.reads("mcp:assistant-1", item=item)
        took = (time.perf_counter() - started) * 1000
        print(f"Reads tab filtered by item {item!r}: first page in {took:.0f} ms ({len(filtered)} reads)")


def _listing(app: Memdesk, path: Path, reads: int) -> str:
    """One assistant's reads, newest first, against the same statement run with plain sqlite3."""
    statements: list[str] = []

    # The statement as SQLite ran it, its values in place: the driver's own trace.
    def trace(connection: sqlite3.Connection, _record: object, _proxy: object) -> None:
        connection.set_trace_callback(statements.append)

    def untrace(connection: sqlite3.Connection, _record: object) -> None:
        connection.set_trace_callback(None)

    event.listen(app.store.read_engine, "checkout", trace)
    event.listen(app.store.read_engine, "checkin", untrace)
    listed = list(app.access_log.all_reads(QUIET_ASSISTANT))
    event.remove(app.store.read_engine, "checkout", trace)
    event.remove(app.store.read_engine, "checkin", untrace)
    (statement,) = [text for text in statements if "assistant_read_items" in text]
    plain = sqlite3.connect(path)

    def service() -> float:
        started = time.perf_counter()
        for _read in app.access_log.all_reads(QUIET_ASSISTANT):
            pass
        return (time.perf_counter() - started) * 1000

    def plain_sql() -> float:
        started = time.perf_counter()
        plain.execute(statement).fetchall()
        return (time.perf_counter() - started) * 1000

    try:
        times = taking_turns(LISTING_RUNS, {"service": service, "plain": plain_sql})
    finally:
        plain.close()
    judge(
        f"one assistant's reads, newest first ({len(listed):,} of {reads:,}), median of {LISTING_RUNS}",
        statistics.median(times["service"]),
        "the same query in plain SQL",
        statistics.median(times["plain"]),
        ratio_goal=LISTING_RATIO_GOAL,
        ratio=ratio_of_turns(times, "service", "plain"),
    )
    return statement


# The floor of the command: a Python that runs the listing's query with sqlite3 and prints
# each read as JSON, without Memdesk.
_PLAIN_COMMAND = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
rows = conn.execute(sys.argv[2]).fetchall()
out = sys.stdout
out.write("[")
for number, row in enumerate(rows):
    out.write(("," if number else "") + "\\n" + json.dumps(row, ensure_ascii=False))
out.write("\\n]\\n")
"""


def _cli(tmp_path: Path, path: Path, reads: int, statement: str) -> None:
    memdesk = [sys.executable, "-m", "memdesk", "--data-dir", str(tmp_path), "--db", str(path)]
    listing = [*memdesk, "access", "log", "--json", "--assistant"]
    plain = [sys.executable, "-c", _PLAIN_COMMAND, str(path), statement]
    times = taking_turns(
        COMMAND_RUNS,
        {
            "quiet": lambda: process_ms([*listing, QUIET_ASSISTANT]),
            "busy": lambda: process_ms([*listing, BUSY_ASSISTANT]),
            "plain": lambda: process_ms(plain),
            "import": lambda: process_ms(IMPORT_FLOOR),
        },
    )
    printed = subprocess.run([*listing, QUIET_ASSISTANT], capture_output=True, check=True).stdout
    listed = printed.count(b'"assistant"')
    # A person waits for the whole command; what any Python must do for the same is the floor.
    judge(
        f"memdesk access log --json for one assistant ({listed:,} of {reads:,} reads) as a process, "
        f"best of {COMMAND_RUNS}",
        min(times["quiet"]),
        "a Python running the same query with sqlite3, printing JSON",
        min(times["plain"]),
        patience_ms=COMMAND_PATIENCE_MS,
    )
    print(
        f"  for scale: `import sqlalchemy.orm` alone, best {min(times['import']):,.0f} ms; "
        f"the assistant with 10% of the reads, best {min(times['busy']):,.0f} ms"
    )
