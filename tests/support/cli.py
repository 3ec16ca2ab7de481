"""Running the real `memdesk` command as a process on a temporary store, and checking it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


class MemdeskCommand:
    """Calls ``python -m memdesk --data-dir DIR [prefix...] ARGS`` and returns the finished process."""

    def __init__(self, data_dir: Path, prefix: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.prefix = prefix

    def __call__(
        self, *args: str, stdin: bytes | None = None, env: dict | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "memdesk", "--data-dir", str(self.data_dir), *self.prefix, *args],
            input=stdin,
            capture_output=True,
            env={**os.environ, **(env or {})},
            timeout=timeout,
        )


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
