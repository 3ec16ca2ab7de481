"""The official MCP conformance suite against the real `memdesk mcp --http`.

The suite (npm ``@modelcontextprotocol/conformance``, pinned, on Node 22) connects to a URL and
sends no token, so it reaches the server through a proxy on 127.0.0.1 that adds one. Every
server scenario runs, pending ones included. Those that test the suite's own fixture tools,
resources and prompts are listed, each with its reason, in
``mcp_conformance_expected_failures.toml``; the test fails when any other scenario fails, and
also when a listed one passes, so the list cannot go stale.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
import tomllib
from pathlib import Path

import pytest
from tests.support.auth_proxy import token_proxy
from tests.support.cli import MemdeskCommand, out
from tests.support.npm import npm_tool
from tests.support.ports import mcp_http_server

SUITE = "@modelcontextprotocol/conformance@0.1.16"
EXPECTED_FAILURES = Path(__file__).with_name("mcp_conformance_expected_failures.toml")
GOAL_SECONDS = 60
# The suite's summary: one line per scenario, ✓ when none of its checks failed.
_SUMMARY_LINE = re.compile(r"^([✓✗]) ([\w./-]+): \d+ passed", re.MULTILINE)


@pytest.mark.engines("sqlite")
def test_the_conformance_suite_passes_every_scenario_that_applies(memdesk: MemdeskCommand, tmp_path: Path):
    expected = tomllib.loads(EXPECTED_FAILURES.read_text(encoding="utf-8"))["server"]
    assert all(reason.strip() for reason in expected.values())
    baseline = tmp_path / "expected-failures.yml"  # the form the suite reads
    baseline.write_text("server:\n" + "".join(f"  - {name}\n" for name in expected), encoding="utf-8")
    suite = npm_tool(SUITE, "conformance", node_major=22)
    token = out(memdesk("token", "create", "conformance")).strip().splitlines()[-1].strip()
    with mcp_http_server(memdesk.data_dir) as (port, _server), token_proxy(port, token) as proxy_port:
        started = time.perf_counter()
        run = subprocess.run(
            [
                *suite.command,
                "server",
                "--url",
                f"http://127.0.0.1:{proxy_port}/mcp",
                "--suite",
                "all",
                "--expected-failures",
                str(baseline),
                "--output-dir",
                str(tmp_path / "results"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "PATH": suite.env_path},
        )
        seconds = time.perf_counter() - started
    report = run.stdout[-8000:] + run.stderr[-2000:]
    outcomes = {name: mark == "✓" for mark, name in _SUMMARY_LINE.findall(run.stdout)}
    passed = sorted(name for name, ok in outcomes.items() if ok)
    print(f"\nconformance: {len(outcomes)} scenarios in {seconds:.1f} s (goal ≤ {GOAL_SECONDS} s)")
    print(f"passed ({len(passed)}): {', '.join(passed)}")
    assert outcomes, report
    assert sorted(name for name, ok in outcomes.items() if not ok) == sorted(expected), report
    assert run.returncode == 0 and "Baseline check passed" in run.stdout, report
    assert seconds <= GOAL_SECONDS
