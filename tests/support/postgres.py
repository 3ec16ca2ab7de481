"""A real PostgreSQL server for the test session, in a temporary folder, on 127.0.0.1.

Uses the server programs of Debian's ``postgresql`` package (``initdb``, ``pg_ctl``). The
server refuses to run as root, so under root the folder is handed to the ``postgres`` user
and the programs run as that user. Each test gets a database of its own.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import count
from pathlib import Path

from tests.support.ports import free_port

SUPERUSER = "memdesk_test"
# The one role that must give a password (scram-sha-256); every other connects as trusted.
PASSWORD_ROLE = "memdesk_pw"
# A database holding an empty store, copied for each test: faster than creating the schema.
TEMPLATE = "memdesk_template"
_database_numbers = count(1)


def server_bin_dir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are (Debian keeps them out of PATH), or None."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


@dataclass
class PostgresServer:
    port: int
    folder: Path
    _template_ready: bool = False

    def url(self, database: str = "postgres", user: str = SUPERUSER) -> str:
        return f"postgresql+psycopg://{user}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        """Run one statement as the superuser, outside a transaction (CREATE DATABASE needs that)."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql)

    def new_database(self) -> str:
        """A fresh database holding an empty Memdesk store (copied from a template); its name."""
        if not self._template_ready:
            self._make_template()
        name = f"memdesk_{next(_database_numbers)}"
        self.admin(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
        return name

    def empty_database(self) -> str:
        """A fresh database with nothing in it; its name."""
        name = f"empty_{next(_database_numbers)}"
        self.admin(f'CREATE DATABASE "{name}"')
        return name

    def login_role(self, name: str, password: str | None = None) -> None:
        """A role that can log in (made once per server), with this password."""
        self.admin(f"DO $$ BEGIN CREATE ROLE {name} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        if password:
            self.admin(f"ALTER ROLE {name} PASSWORD '{password}'")

    def copy_database(self, source: str, name: str | None = None) -> str:
        """A copy of ``source`` (which nobody may be connected to), as ``name`` (replacing it) or
        as a new database; its name."""
        name = name or f"copy_{next(_database_numbers)}"
        self.drop_database(name)
        self.admin(f'CREATE DATABASE "{name}" TEMPLATE "{source}"')
        return name

    def drop_database(self, name: str) -> None:
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _make_template(self) -> None:
        from memdesk.store.engine import Store

        self.admin(f'CREATE DATABASE "{TEMPLATE}"')
        Store(self.url(TEMPLATE)).close()
        self._template_ready = True


def _run_as_owner(args: list[str], owner: str | None) -> subprocess.CompletedProcess[str]:
    command = ["runuser", "-u", owner, "--", *args] if owner else args
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _run_checked(step: list[str], owner: str | None, folder: Path) -> None:
    done = _run_as_owner(step, owner)
    if done.returncode != 0:
        log_file = folder / "server.log"
        log = log_file.read_text(errors="replace") if log_file.exists() else ""
        raise RuntimeError(f"{Path(step[0]).name} failed: {done.stderr.strip()} {log[-2000:]}")


# Room the server's files take at most in memory: a test's database is dropped after it.
MEMORY_ROOM_BYTES = 2 << 30


def _memory_folder() -> str | None:
    """Linux's shared memory folder when it has room, else None (the temp folder). The server
    is thrown away and runs without fsync anyway; on a disk other programs keep busy, making
    each test's database from the template took 0.45 s there against 0.06 s in memory."""
    shm = "/dev/shm"
    try:
        if os.access(shm, os.W_OK) and shutil.disk_usage(shm).free >= MEMORY_ROOM_BYTES:
            return shm
    except OSError:
        pass
    return None


@contextmanager
def running_server() -> Iterator[PostgresServer]:
    """Start a throw-away server; stop it and remove its folder afterwards."""
    bin_dir = server_bin_dir()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL's server programs are not installed (Debian package: postgresql)")
    owner = "postgres" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="memdesk-pg-", dir=_memory_folder()))
    data = folder / "data"
    if owner:
        shutil.chown(folder, owner)
    port = free_port()
    steps = [
        [
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        ],
        [
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(folder / "server.log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {port} -c listen_addresses=127.0.0.1 -k {folder} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
            "start",
        ],
    ]
    try:
        for step in steps[:1]:
            _run_checked(step, owner, folder)
        (data / "pg_hba.conf").write_text(
            f"host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n"
            "host all all 127.0.0.1/32 trust\nlocal all all trust\n",
            encoding="utf-8",
        )
        for step in steps[1:]:
            _run_checked(step, owner, folder)
        yield PostgresServer(port, folder)
    finally:
        _run_as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], owner)
        shutil.rmtree(folder, ignore_errors=True)
