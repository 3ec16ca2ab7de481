"""Servers the tests start on 127.0.0.1: a free port, waiting until one listens, and the MCP server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    """Return once something listens on ``port``; fail with the process's errors if it died."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


@contextmanager
def mcp_http_server(data_dir: Path) -> Iterator[tuple[int, subprocess.Popen]]:
    """The real ``memdesk mcp --http PORT`` on a free port, stopped afterwards: (port, process)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "memdesk", "--data-dir", str(data_dir), "mcp", "--http", str(port)],
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )
    try:
        wait_for_port(port, process)
        yield port, process
    finally:
        process.terminate()
        process.wait(10)
