"""The guard in front of every local HTTP server: Host, Origin, bearer token and body size.

``Guarded(app, policy)`` wraps any ASGI application. A request reaches it only when:
- its ``Host`` is the address the server is bound to, or a loopback form of its port
  (a page whose DNS name was rebound to 127.0.0.1 cannot pass);
- its ``Origin`` is absent or a loopback origin (a web page elsewhere cannot pass);
- it carries ``Authorization: Bearer <token>`` for an active token;
- its body is at most ``max_body`` bytes.
Refusals are JSON ``{"error": "..."}`` with 401, 403, 413 (or 503 when tokens cannot be
checked); no token is ever echoed.
The name of the token used is in the scope, for the application: ``token_name(scope)``.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from memdesk.errors import MemdeskError

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]
ASGIApp = Callable[[Scope, Receive, Send], Any]

DEFAULT_MAX_BODY = 1024 * 1024
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_TOKEN_KEY = "memdesk.token_name"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host.strip("[]") in ("0.0.0.0", "::", "")


def host_header(host: str, port: int) -> str:
    """``host:port`` as a client writes it in ``Host`` (IPv6 in brackets)."""
    bare = host.strip("[]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Policy:
    """What the guard lets through.

    ``authenticate`` maps a token to its name, or None. It runs on the event loop, so it
    must be quick and must not wait (a read in a WAL database is both).
    """

    host: str
    port: int
    authenticate: Callable[[str], str | None]
    max_body: int = DEFAULT_MAX_BODY

    def host_allowed(self, value: str) -> bool:
        value = value.strip().lower()
        allowed = {host_header(name, self.port) for name in (*LOOPBACK_NAMES, self.host.lower())}
        if value in allowed:
            return True
        if is_wildcard(self.host):
            # Bound to every address: any IP literal with our port. A DNS name (what a
            # rebinding attack needs) still has to be localhost.
            name, _, port = value.rpartition(":")
            return port == str(self.port) and _is_ip_literal(name)
        return False

    @staticmethod
    def origin_allowed(value: str | None) -> bool:
        if value is None:
            return True
        try:
            parts = urlsplit(value.strip())
            hostname = parts.hostname
            parts.port  # noqa: B018  (raises on a malformed port)
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and hostname is not None and is_loopback(hostname)


def token_name(scope: Scope) -> str:
    """The name of the token the request was made with (set by the guard)."""
    return str(scope[_TOKEN_KEY])


class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def _send_error(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _headers(scope: Scope) -> dict[str, str]:
    """Request headers by lower-case name; a repeated header keeps its first value."""
    found: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", []):
        found.setdefault(raw_name.decode("latin-1").lower(), raw_value.decode("latin-1"))
    return found


def _bearer(headers: dict[str, str]) -> str:
    value = headers.get("authorization")
    if value is None:
        raise _Refused(401, "missing Authorization: Bearer <token>")
    scheme, _, token = value.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _Refused(401, "the Authorization header must be 'Bearer <token>'")
    return token.strip()


class Guarded:
    """ASGI middleware: refuses what the policy does not allow, then calls the application."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            return
        try:
            name = await self._admit(scope)
            receive = await self._buffered_body(scope, receive)
        except _Refused as refused:
            await _send_error(send, refused.status, refused.message)
            return
        await self.app({**scope, _TOKEN_KEY: name}, receive, send)

    async def _admit(self, scope: Scope) -> str:
        headers = _headers(scope)
        if not self.policy.host_allowed(headers.get("host", "")):
            raise _Refused(403, "the Host header does not name this server")
        if not self.policy.origin_allowed(headers.get("origin")):
            raise _Refused(403, "requests from web pages outside this machine are not allowed")
        token = _bearer(headers)
        try:
            name = self.policy.authenticate(token)
        except MemdeskError as error:  # e.g. the database cannot be read
            raise _Refused(503, f"cannot check the token: {error.message}") from None
        if name is None:
            raise _Refused(401, "the token is not valid (unknown or revoked)")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.policy.max_body):
            raise _Refused(413, f"the request body is over {self.policy.max_body:,} bytes")
        return name

    async def _buffered_body(self, scope: Scope, receive: Receive) -> Receive:
        """Read the whole body (refusing it past the limit), then hand it on in one piece."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                chunks.clear()  # the client went away: the application sees that first
                pending = [message]
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.policy.max_body:
                raise _Refused(413, f"the request body is over {self.policy.max_body:,} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]
                break

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        return replay
