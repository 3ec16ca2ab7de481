"""Running the real `memdesk` command as a process on a temporary store, and checking it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.core.actors import COMMAND

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


class MemdeskCommand:
    """Calls ``python -m memdesk --data-dir DIR [prefix...] ARGS`` and returns the finished process."""

    def __init__(self, data_dir: Path, prefix: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.prefix = prefix

    def __call__(
        self,
        *args: str,
        stdin: bytes | None = None,
        env: dict | None = None,
        timeout: float = 60,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "memdesk", "--data-dir", str(self.data_dir), *self.prefix, *args],
            input=stdin,
            capture_output=True,
            env={**os.environ, **(env or {})},
            timeout=timeout,
            cwd=cwd,
        )


@contextmanager
def store_of(memdesk: MemdeskCommand, now: str | None = None, actor: str = COMMAND) -> Iterator[Memdesk]:
    """The store ``memdesk`` works on, opened in this process as the command opens it (its data
    folder, ``MEMDESK_DB``, the command's actor unless ``actor`` names another; ``now``: the
    command's ``--now``).

    For set-up that is not what a test checks: each write here saves starting a command, and
    leaves the same rows the command would. Likewise for reading what a command left, where how
    a command prints it is not the test's subject.
    """
    from memdesk.core.timefmt import utcnow
    from memdesk.services.memdesk import Memdesk

    moment = datetime.fromisoformat(now) if now else None
    app = Memdesk.open(
        data_dir=str(memdesk.data_dir), actor=actor, clock=(lambda: moment) if moment else utcnow
    )
    try:
        yield app
    finally:
        app.close()


def out(result: subprocess.CompletedProcess) -> str:
    """Standard output of a command that must have succeeded."""
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


def fails(result: subprocess.CompletedProcess, code: int, message: str) -> str:
    """Standard error of a command that must have failed cleanly with ``code`` and ``message``."""
    err = result.stderr.decode()
    assert result.returncode == code, err
    assert message in err
    assert "Traceback" not in err
    return err
