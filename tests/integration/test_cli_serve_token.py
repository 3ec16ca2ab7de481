"""`memdesk token` and `memdesk serve` as real processes."""

from __future__ import annotations

import socket

import httpx
import pytest
from tests.support import peek
from tests.support.cli import fails, out
from tests.support.server import ServeProcess


@pytest.mark.engines("sqlite")  # wording; tokens' SQL runs on both engines in tests/unit/test_tokens.py
def test_token_create_list_revoke(memdesk):
    token = out(memdesk("token", "create", "claude")).strip()
    assert len(token) >= 43 and "\n" not in token
    listing = out(memdesk("token", "list"))
    assert listing.startswith("claude\tcreated 20") and "\tlast used never\tactive\n" in listing
    assert token not in listing
    fails(memdesk("token", "create", "claude"), 1, "a token named 'claude' exists")
    fails(memdesk("token", "create", "bad name"), 2, "token name 'bad name' is not valid")
    assert out(memdesk("token", "revoke", "claude")) == "revoked claude\n"
    assert "\trevoked 20" in out(memdesk("token", "list"))
    fails(memdesk("token", "revoke", "claude"), 1, "no active token named 'claude'")
    stored = peek.rows(memdesk.data_dir, "SELECT token_hash FROM api_tokens")
    assert len(stored) == 1 and stored[0][0] != token and len(stored[0][0]) == 64


@pytest.mark.engines("sqlite")  # the server's address and wording, not storage
def test_serve_refuses_a_bad_address_and_a_taken_port(memdesk):
    fails(memdesk("serve", "--http", "localhost:notaport"), 2, "port 'notaport' is not valid")
    fails(memdesk("serve", "--http", "99999"), 2, "port '99999' is not valid")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        # MCP over HTTP listens the same way; both say how to get another port.
        for command in (("serve", "--http", f"127.0.0.1:{port}"), ("mcp", "--http", str(port))):
            taken_message = fails(memdesk(*command), 2, f"cannot listen on 127.0.0.1:{port}")
            assert "choose another port with --http [HOST:]PORT (0 picks a free one)" in taken_message


@pytest.mark.engines("sqlite")  # the server's address and wording, not storage
def test_serving_on_every_address_warns_and_still_checks_hosts_and_tokens(memdesk):
    token = out(memdesk("token", "create", "lan")).strip()
    served = ServeProcess(memdesk.data_dir, host="0.0.0.0")
    try:
        headers = {"Authorization": f"Bearer {token}"}
        url = f"http://127.0.0.1:{served.port}/apps/x/memories"
        assert httpx.get(url, headers=headers).json() == {"memories": []}
        assert httpx.get(url).status_code == 401
        rebound = httpx.get(url, headers={**headers, "Host": f"attacker.example:{served.port}"})
        assert rebound.status_code == 403
    finally:
        served.stop()
    assert "warning: listening on 0.0.0.0" in served.stderr
    assert token not in served.stderr


@pytest.mark.engines("sqlite")  # the server's address and wording, not storage
def test_serve_says_when_there_is_no_token_yet(memdesk):
    served = ServeProcess(memdesk.data_dir)
    served.stop()
    assert "no API token yet; create one with `memdesk token create NAME`" in served.stderr
    assert "warning" not in served.stderr
