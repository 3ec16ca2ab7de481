"""The guard's rules for Host and Origin, and reading a `--http` address."""

from __future__ import annotations

import pytest

from memdesk.errors import BadInputError
from memdesk.servers.runner import parse_address
from memdesk.servers.security import Policy, host_header, is_loopback


def policy(host: str = "127.0.0.1", port: int = 8765) -> Policy:
    return Policy(host=host, port=port, authenticate=lambda token: None)


@pytest.mark.parametrize(
    ("value", "allowed"),
    [
        ("127.0.0.1:8765", True),
        ("localhost:8765", True),
        ("LOCALHOST:8765", True),
        ("[::1]:8765", True),
        ("127.0.0.1:8766", False),
        ("127.0.0.1", False),
        ("evil.example:8765", False),
        ("localhost.evil.example:8765", False),
        ("192.168.1.5:8765", False),
        ("", False),
    ],
)
def test_host_on_loopback(value, allowed):
    assert policy().host_allowed(value) is allowed


def test_host_on_a_named_address_and_on_every_address():
    lan = policy("192.168.1.5")
    assert lan.host_allowed("192.168.1.5:8765") and lan.host_allowed("localhost:8765")
    assert not lan.host_allowed("10.0.0.1:8765")
    anywhere = policy("0.0.0.0")
    assert anywhere.host_allowed("10.0.0.1:8765") and anywhere.host_allowed("[fe80::1]:8765")
    assert not anywhere.host_allowed("rebound.example:8765")
    assert not anywhere.host_allowed("10.0.0.1:80")


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        (None, True),
        ("http://localhost", True),
        ("http://localhost:3000", True),
        ("https://127.0.0.1:8443", True),
        ("http://[::1]:1", True),
        ("null", False),
        ("file://", False),
        ("http://evil.example", False),
        ("http://127.0.0.1.evil.example", False),
        ("http://localhost:notaport", False),
        ("ftp://localhost", False),
    ],
)
def test_origin(origin, allowed):
    assert Policy.origin_allowed(origin) is allowed


def test_loopback_and_host_header_forms():
    assert is_loopback("localhost") and is_loopback("127.0.0.2") and is_loopback("[::1]")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.com")
    assert host_header("::1", 80) == "[::1]:80" and host_header("127.0.0.1", 80) == "127.0.0.1:80"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8765", ("127.0.0.1", 8765, False)),
        ("0", ("127.0.0.1", 0, False)),
        ("localhost:9000", ("localhost", 9000, True)),
        ("0.0.0.0:80", ("0.0.0.0", 80, True)),
        ("[::1]:8765", ("::1", 8765, True)),
    ],
)
def test_parse_address(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", "x", ":80", "host:", "host:65536", "[::1]", "[::1]8765", "-1"])
def test_parse_address_refuses(text):
    with pytest.raises(BadInputError):
        parse_address(text)
