"""Running the real `memdesk serve` as a process on a free port, and stopping it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

_URL = re.compile(rb"serving the admin API on (http://\S+) ")


class ServeProcess:
    """``python -m memdesk --data-dir DIR serve --http HOST:0``; ``url`` once it listens.
    ``command``: another way to start memdesk, such as the one of another environment."""

    def __init__(
        self,
        data_dir: Path,
        host: str = "127.0.0.1",
        extra: tuple[str, ...] = (),
        command: tuple[str, ...] = (sys.executable, "-m", "memdesk"),
    ) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [
                *command,
                "--data-dir",
                str(data_dir),
                *extra,
                "serve",
                "--http",
                f"{host}:0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = _URL.search(line)
        if found is None:
            self.stop()
            raise AssertionError(f"the server did not start: {line!r} {self.stderr}")
        self.url = found.group(1).decode()
        self.port = int(self.url.rsplit(":", 1)[1])
        self.stderr = ""

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read().decode()
        self.process.stdout.close()  # type: ignore[union-attr]
        self.process.stderr.close()
        return self.process.returncode
