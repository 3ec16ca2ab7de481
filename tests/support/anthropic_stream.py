"""A stand-in Anthropic Messages server on 127.0.0.1 for a real client that streams (Claude Code).

``POST /v1/messages`` answers with the server-sent events of one text reply
(``message_start``, ``content_block_start``/``_delta``/``_stop``, ``message_delta``,
``message_stop``), or the JSON message when the request does not stream; given a tool call,
the first streamed reply calls that tool instead (a ``tool_use`` block), and the ones after it
answer with the text;
``/v1/messages/count_tokens`` answers a count. Anything else gets ``{}``. Every request
is recorded, so a test can check what the client sent.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    body: Any  # decoded JSON, or None


class StreamingAnthropic:
    def __init__(self, reply: str, tool_call: tuple[str, dict[str, Any]] | None = None) -> None:
        self.reply = reply
        self.tool_call = tool_call  # (tool name, its input) for the first reply, then None
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02})

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def messages(self) -> list[dict]:
        """The bodies of the chat requests (not token counts)."""
        return [seen.body for seen in self.requests if seen.path.split("?")[0] == "/v1/messages"]

    def __enter__(self) -> StreamingAnthropic:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._thread.join(timeout=5)
        self._httpd.server_close()

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self.requests.append(seen)

    def _next_tool_call(self) -> tuple[str, dict[str, Any]] | None:
        with self._lock:
            call, self.tool_call = self.tool_call, None
            return call


def _events(model: str, text: str, tool_call: tuple[str, dict[str, Any]] | None) -> list[tuple[str, dict]]:
    start = {
        "id": "msg_stand_in",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 1},
    }
    if tool_call is None:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": text}
    else:
        block = {"type": "tool_use", "id": "toolu_stand_in", "name": tool_call[0], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(tool_call[1])}
    return [
        ("message_start", {"type": "message_start", "message": start}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {
                    "stop_reason": "end_turn" if tool_call is None else "tool_use",
                    "stop_sequence": None,
                },
                "usage": {"output_tokens": 8},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]


def _handler(server: StreamingAnthropic) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            server._record(Seen("GET", self.path, None))
            self._send(200, "application/json", b"{}")

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            server._record(Seen("POST", self.path, body))
            route = self.path.split("?")[0]
            if route == "/v1/messages/count_tokens":
                self._send(200, "application/json", b'{"input_tokens": 12}')
            elif route == "/v1/messages" and isinstance(body, dict):
                model = str(body.get("model", ""))
                if body.get("stream"):
                    events = _events(model, server.reply, server._next_tool_call())
                    data = b"".join(f"event: {n}\ndata: {json.dumps(e)}\n\n".encode() for n, e in events)
                    self._send(200, "text/event-stream", data)
                else:
                    message = {
                        "id": "msg_stand_in",
                        "type": "message",
                        "role": "assistant",
                        "model": model,
                        "content": [{"type": "text", "text": server.reply}],
                        "stop_reason": "end_turn",
                        "stop_sequence": None,
                        "usage": {"input_tokens": 12, "output_tokens": 8},
                    }
                    self._send(200, "application/json", json.dumps(message).encode())
            else:
                self._send(200, "application/json", b"{}")

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
