"""Real assistants and test suites from the npm registry, installed once into a cache.

``npm_tool("@anthropic-ai/claude-code@2.1.331", "claude")`` installs that exact version into
``~/.cache/memdesk-tests/npm/<name>@<version>/`` (or ``$MEMDESK_TEST_CACHE``), once for
every test session and every parallel worker (a file lock), and returns how to run it.
Programs that need a newer Node than the system's get Node from the ``node`` package on
npm, installed the same way.

When the registry cannot be reached the test is skipped with one line; with
``MEMDESK_REQUIRE_CLIENTS=1`` (CI) it fails instead, so a green run means the clients ran.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

INSTALL_TIMEOUT_S = 600
NODE_PACKAGE = "node@22.23.3"


@dataclass(frozen=True)
class NpmTool:
    """An installed program: ``command`` runs it (node first when it needs a newer one)."""

    command: tuple[str, ...]
    node: str  # the Node.js executable it runs on
    prefix: Path  # where it is installed

    @property
    def env_path(self) -> str:
        """A PATH that puts this Node first, for programs that start ``node`` themselves."""
        return _path_with(self.node)


def cache_root() -> Path:
    root = os.environ.get("MEMDESK_TEST_CACHE") or str(Path.home() / ".cache" / "memdesk-tests")
    return Path(root) / "npm"


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("MEMDESK_REQUIRE_CLIENTS"):
        pytest.fail(f"{reason} (MEMDESK_REQUIRE_CLIENTS is set)")
    pytest.skip(reason)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def install(spec: str, node: str | None = None) -> Path:
    """Install ``spec`` (name@exact-version) into its own cached prefix; the prefix.

    ``node``: the Node.js that npm and the package's install scripts run on (default: the
    system's), for packages whose scripts need a newer one."""
    if not re.fullmatch(r"(@[\w.-]+/)?[\w.-]+@\d+\.\d+\.\d+", spec):
        raise ValueError(f"pin an exact version: {spec!r}")
    npm = shutil.which("npm")
    if npm is None:
        unavailable("npm is not installed (Debian package: npm)")
    prefix = cache_root() / spec.replace("/", "+")
    done = prefix / ".installed"
    with locked(prefix.with_name(prefix.name + ".lock")):
        if done.exists():
            return prefix
        shutil.rmtree(prefix, ignore_errors=True)
        prefix.mkdir(parents=True)
        try:
            result = subprocess.run(
                [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(prefix), spec],
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
                env=None if node is None else {**os.environ, "PATH": _path_with(node)},
            )
        except subprocess.TimeoutExpired:
            unavailable(f"npm install {spec} timed out; is the npm registry reachable?")
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["no output"])[-1]
            unavailable(f"npm install {spec} failed: {last}")
        done.touch()
    return prefix


def _path_with(node: str) -> str:
    return os.pathsep.join([str(Path(node).parent), os.environ.get("PATH", "")])


def _node_major(node: str) -> int:
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    return int(version.strip().lstrip("v").split(".")[0])


def node_at_least(major: int) -> str:
    """A Node.js executable of at least ``major``: the system's, else the ``node`` package's."""
    system = shutil.which("node")
    if system is not None and _node_major(system) >= major:
        return system
    return str(install(NODE_PACKAGE) / "node_modules" / ".bin" / "node")


def npm_tool(spec: str, bin_name: str, node_major: int = 18) -> NpmTool:
    """The program ``bin_name`` of the npm package ``spec``, installed and ready to run."""
    node = node_at_least(node_major)
    prefix = install(spec, node)  # its install scripts may need that Node too
    script = prefix / "node_modules" / ".bin" / bin_name
    if not script.exists():
        raise FileNotFoundError(f"{spec} has no program {bin_name}")
    return NpmTool(command=(node, str(script.resolve())), node=node, prefix=prefix)
