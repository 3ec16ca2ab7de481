"""The official MCP conformance suite against the real `memdesk mcp --http`.

The suite (npm ``@modelcontextprotocol/conformance``, pinned, on Node 22) connects to a URL and
sends no token, so it reaches the server through a proxy on 127.0.0.1 that adds one. The
scenarios that test the suite's own fixture tools, resources and prompts are listed, each with
its reason, in ``mcp_conformance_expected_failures.yml``; the suite fails the run on any other
failure, and also when a listed scenario starts to pass, so the list cannot go stale.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from tests.support.auth_proxy import token_proxy
from tests.support.cli import MemdeskCommand, out
from tests.support.npm import npm_tool
from tests.support.ports import mcp_http_server

SUITE = "@modelcontextprotocol/conformance@0.1.16"
EXPECTED_FAILURES = Path(__file__).with_name("mcp_conformance_expected_failures.yml")


@pytest.mark.engines("sqlite")
def test_the_conformance_suite_passes_every_scenario_that_applies(memdesk: MemdeskCommand, tmp_path: Path):
    suite = npm_tool(SUITE, "conformance", node_major=22)
    token = out(memdesk("token", "create", "conformance")).strip().splitlines()[-1].strip()
    with mcp_http_server(memdesk.data_dir) as (port, _server), token_proxy(port, token) as proxy_port:
        run = subprocess.run(
            [
                *suite.command,
                "server",
                "--url",
                f"http://127.0.0.1:{proxy_port}/mcp",
                "--expected-failures",
                str(EXPECTED_FAILURES),
                "--output-dir",
                str(tmp_path / "results"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "PATH": suite.env_path},
        )
    report = run.stdout[-8000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "Baseline check passed" in run.stdout
    applies = ("server-initialize", "logging-set-level", "completion-complete", "dns-rebinding-protection")
    for scenario in applies:
        assert f"✓ {scenario}" in run.stdout, report
