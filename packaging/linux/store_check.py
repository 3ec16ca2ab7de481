"""The installed `memdesk` on both engines: a PostgreSQL store, a copy into it, and the upgrade
of a SQLite store from before Alembic (so the bundled upgrade scripts are proven to load).

    python packaging/linux/store_check.py /usr/bin/memdesk WORK_DIR

Starts a throw-away PostgreSQL server (the test suite's own helper); exits 0 when every
step answers as it should and prints what was checked.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for tests.support
from tests.support.postgres import running_server

from memdesk.store.migrations import SCHEMA_VERSION


def run(memdesk: str, *args: str) -> str:
    done = subprocess.run([memdesk, *args], capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(f"memdesk {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def main(memdesk: str, work: Path) -> None:
    old = work / "old"
    run(memdesk, "--data-dir", str(old), "entry", "add", "coffee", "Ada drinks her coffee black")
    with sqlite3.connect(old / "memdesk.sqlite3") as conn:  # as a Memdesk before Alembic left it
        conn.execute("DROP TABLE alembic_version")
        conn.execute("DROP TABLE agent_clients")
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    info = run(memdesk, "--data-dir", str(old), "db", "info")
    if f"schema        {SCHEMA_VERSION}" not in info or not list((old / "backups").glob("*.sqlite3")):
        raise SystemExit(f"the old store was not upgraded with a backup: {info}")
    with running_server() as server:
        url = server.url(server.new_database())
        run(memdesk, "--data-dir", str(old), "db", "copy", "--to", url)
        listed = run(memdesk, "--data-dir", str(old), "--db", url, "recall", "coffee")
        if "Ada drinks her coffee black" not in listed:
            raise SystemExit(f"recall on PostgreSQL did not find the copied entry: {listed!r}")
        shown = run(memdesk, "--data-dir", str(old), "--db", url, "db", "info")
        if "engine        postgresql" not in shown or "search index  ok" not in shown:
            raise SystemExit(f"db info on PostgreSQL: {shown}")
    print("upgrade of a pre-Alembic SQLite store, copy to PostgreSQL, recall and db info there")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
