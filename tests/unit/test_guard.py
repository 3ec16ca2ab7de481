"""The guard as ASGI middleware, driven with hand-made messages (no sockets)."""

from __future__ import annotations

import asyncio
import json

from memdesk.errors import StoreError
from memdesk.servers.security import Guarded, Policy, token_name

TOKENS = {"good-token": "bot"}


class Echo:
    """An application that answers with the token name and the body it read."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, scope, receive, send):
        self.calls += 1
        message = await receive()
        reply = json.dumps({"name": token_name(scope), "body": message["body"].decode()}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": reply})


def call(app, headers, chunks=(b"",), policy_kwargs=None):
    policy = Policy("127.0.0.1", 8765, TOKENS.get, **(policy_kwargs or {}))
    guarded = Guarded(app, policy)
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    incoming = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        for i, chunk in enumerate(chunks)
    ]
    sent = []

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(guarded(scope, receive, send))
    status = sent[0]["status"]
    body = json.loads(sent[1]["body"])
    return status, body, dict(sent[0]["headers"])


GOOD = {"Host": "127.0.0.1:8765", "Authorization": "Bearer good-token"}


def test_a_good_request_reaches_the_app_with_its_body_in_one_piece():
    app = Echo()
    status, body, _ = call(app, GOOD, chunks=(b'{"a":', b" 1}"))
    assert (status, body) == (200, {"name": "bot", "body": '{"a": 1}'})


def test_refusals_never_reach_the_app():
    app = Echo()
    assert call(app, {**GOOD, "Host": "evil.example:8765"})[0] == 403
    assert call(app, {**GOOD, "Origin": "https://evil.example"})[0] == 403
    status, body, headers = call(app, {"Host": "127.0.0.1:8765"})
    assert status == 401 and headers[b"www-authenticate"] == b"Bearer" and set(body) == {"error"}
    assert call(app, {**GOOD, "Authorization": "Bearer wrong"})[0] == 401
    assert call(app, {**GOOD, "Content-Length": "2000"}, policy_kwargs={"max_body": 1000})[0] == 413
    assert call(app, GOOD, chunks=(b"x" * 600, b"x" * 600), policy_kwargs={"max_body": 1000})[0] == 413
    assert app.calls == 0


def test_a_store_failure_while_checking_is_503_in_json():
    def broken(_token):
        raise StoreError("the database is busy")

    guarded = Guarded(Echo(), Policy("127.0.0.1", 8765, broken))
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "headers": [(b"host", b"localhost:8765"), (b"authorization", b"Bearer x")]}
    asyncio.run(guarded(scope, receive, send))
    assert sent[0]["status"] == 503
    assert json.loads(sent[1]["body"]) == {"error": "cannot check the token: the database is busy"}


def test_websockets_are_closed():
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "websocket.connect"}

    asyncio.run(Guarded(Echo(), Policy("127.0.0.1", 8765, TOKENS.get))({"type": "websocket"}, receive, send))
    assert sent == [{"type": "websocket.close", "code": 1008}]
