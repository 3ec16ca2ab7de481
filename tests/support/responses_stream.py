"""A stand-in OpenAI Responses server on 127.0.0.1 for a real client that streams (Codex CLI).

``POST /v1/responses`` answers with the server-sent events of one text reply
(``response.created``, ``response.output_item.added``, ``response.output_text.delta``,
``response.output_item.done``, ``response.completed``); a GET (a model list) gets empty
lists. Every request is recorded.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StreamingResponses:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.requests: list[tuple[str, str, Any]] = []  # method, path, decoded body
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02})

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> StreamingResponses:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._thread.join(timeout=5)
        self._httpd.server_close()


def _events(text: str) -> list[dict]:
    item = {
        "type": "message",
        "id": "msg_stand_in",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    usage = {
        "input_tokens": 12,
        "output_tokens": 8,
        "total_tokens": 20,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens_details": {"reasoning_tokens": 0},
    }
    done = {
        "id": "resp_stand_in",
        "object": "response",
        "status": "completed",
        "output": [item],
        "usage": usage,
    }
    return [
        {
            "type": "response.created",
            "response": {"id": "resp_stand_in", "status": "in_progress", "output": []},
        },
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "status": "in_progress", "content": []},
        },
        {
            "type": "response.output_text.delta",
            "output_index": 0,
            "content_index": 0,
            "item_id": "msg_stand_in",
            "delta": text,
        },
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": done},
    ]


def _handler(server: StreamingResponses) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            server.requests.append(("GET", self.path, None))
            self._send("application/json", b'{"data": [], "models": []}')

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            server.requests.append(("POST", self.path, body))
            events = _events(server.reply)
            self._send(
                "text/event-stream",
                b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events),
            )

        def _send(self, kind: str, data: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
