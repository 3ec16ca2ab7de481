"""A real HTTP server on 127.0.0.1 that speaks the two chat protocols Memdesk uses.

One server answers both ``POST /v1/chat/completions`` (OpenAI-compatible) and
``POST /v1/messages`` (Anthropic), and lists ``models`` at ``GET /v1/models`` and, like
Ollama, at ``GET /api/tags`` (``model_routes`` picks which of the two it has; ``list_delay``
makes it slow to answer). Each chat
request takes the next scripted behaviour from a queue (or the default one when the queue
is empty); every request is recorded, so tests can check what the client sent: model, max
tokens, prompts and the API key header.

    with FakeLLMServer() as server:
        server.script(Reply("hello"), Status(429))
        ... point a client at server.openai_url or server.anthropic_url ...
        assert server.requests[0].body["model"] == "llama3.2"
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"
MODELS_PATH = "/v1/models"
OLLAMA_TAGS_PATH = "/api/tags"


@dataclass(frozen=True)
class Reply:
    """A normal answer. ``usage=False`` leaves the token counts out of the body;
    ``cut_off=True`` says the reply stopped at the token limit."""

    text: str = "ok"
    delay: float = 0.0
    usage: bool = True
    cut_off: bool = False


@dataclass(frozen=True)
class Status:
    """An HTTP error with the protocol's error body."""

    code: int
    message: str = "scripted failure"


@dataclass(frozen=True)
class Empty:
    """A well-formed answer with no text in it."""


@dataclass(frozen=True)
class Refusal:
    """The model declines (OpenAI ``refusal`` field, Anthropic ``stop_reason: refusal``)."""

    message: str = "I can't help with that."


@dataclass(frozen=True)
class Malformed:
    """Status 200 with a body that is not the protocol's JSON."""

    body: bytes = b"<html>this is not json"


Behaviour = Reply | Status | Empty | Refusal | Malformed


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # decoded JSON, or the raw text when it was not JSON

    @property
    def system_text(self) -> str:
        """The system prompt, whichever protocol carried it."""
        if self.path == ANTHROPIC_PATH:
            return str(self.body.get("system", ""))
        return next((m["content"] for m in self.body["messages"] if m["role"] == "system"), "")

    @property
    def api_key(self) -> str | None:
        """The key the client sent, in whichever header its protocol uses."""
        if "x-api-key" in self.headers:
            return self.headers["x-api-key"]
        auth = self.headers.get("authorization", "")
        return auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else None

    @property
    def user_text(self) -> str:
        return next(m["content"] for m in self.body["messages"] if m["role"] == "user")


class FakeLLMServer:
    """Scriptable chat server; start it with ``with`` or ``start()``/``stop()``."""

    def __init__(
        self,
        default: Behaviour | None = None,
        models: tuple[str, ...] = (),
        model_routes: tuple[str, ...] = (MODELS_PATH, OLLAMA_TAGS_PATH),
        list_delay: float = 0.0,
    ) -> None:
        self.default: Behaviour = default or Reply()
        self.models = models
        self.model_routes = model_routes
        self.list_delay = list_delay
        # Computes a behaviour from the request when the queue is empty (e.g. echo tests).
        self.responder: Callable[[RecordedRequest], Behaviour] | None = None
        self.requests: list[RecordedRequest] = []
        self._queue: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        # A short poll interval keeps stop() quick: shutdown waits for the next poll.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping in a scripted delay
        # shutdown() would wait forever for a loop that was never started.
        if self._thread.is_alive():
            self._httpd.shutdown()
            self._thread.join(timeout=5)
        self._httpd.server_close()

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses -----------------------------------------------------------------------

    @property
    def root_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_url(self) -> str:
        """Base URL for the OpenAI client (it appends ``/chat/completions``)."""
        return self.root_url + "/v1"

    @property
    def anthropic_url(self) -> str:
        """Base URL for the Anthropic client (it appends ``/v1/messages``)."""
        return self.root_url

    # -- scripting -----------------------------------------------------------------------

    def script(self, *behaviours: Behaviour) -> None:
        with self._lock:
            self._queue.extend(behaviours)

    def _next(self, request: RecordedRequest) -> Behaviour:
        with self._lock:
            self.requests.append(request)
            if self._queue:
                return self._queue.popleft()
        return self.responder(request) if self.responder else self.default

    def _sleep(self, seconds: float) -> None:
        self._stopping.wait(seconds)


def _make_handler(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def do_GET(self) -> None:
            headers = {name.lower(): value for name, value in self.headers.items()}
            with server._lock:
                server.requests.append(RecordedRequest(self.path, headers, None))
            server._sleep(server.list_delay)
            if self.path not in server.model_routes:
                self._send(404, {"error": {"message": f"no route {self.path}"}})
            elif self.path == MODELS_PATH:
                listed = [{"id": name, "object": "model", "owned_by": "test"} for name in server.models]
                self._send(200, {"object": "list", "data": listed})
            else:
                self._send(200, {"models": [{"name": name, "model": name} for name in server.models]})

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body: Any = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            headers = {name.lower(): value for name, value in self.headers.items()}
            request = RecordedRequest(self.path, headers, body)
            if self.path not in (OPENAI_PATH, ANTHROPIC_PATH):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            behaviour = server._next(request)
            status, payload = _respond(request, behaviour, server)
            # The client may have given up already (a timeout test); nothing left to do then.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._send(status, payload)

        def _send(self, status: int, payload: Any) -> None:
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _respond(request: RecordedRequest, behaviour: Behaviour, server: FakeLLMServer) -> tuple[int, Any]:
    anthropic = request.path == ANTHROPIC_PATH
    model = request.body.get("model", "") if isinstance(request.body, dict) else ""
    match behaviour:
        case Reply(text=text, delay=delay, usage=usage, cut_off=cut_off):
            if delay:
                server._sleep(delay)
            body = (_anthropic_body if anthropic else _openai_body)(model, text, None, cut_off)
            if not usage:
                body.pop("usage")
            return 200, body
        case Empty():
            return 200, (_anthropic_body if anthropic else _openai_body)(model, "", None)
        case Refusal(message=message):
            return 200, (_anthropic_body if anthropic else _openai_body)(model, None, message)
        case Status(code=code, message=message):
            if anthropic:
                error = {"type": "error", "error": {"type": "api_error", "message": message}}
                return code, error
            return code, {"error": {"message": message, "type": "api_error", "code": str(code)}}
        case Malformed(body=raw):
            return 200, raw
    raise AssertionError(f"unknown behaviour {behaviour!r}")


def _openai_body(model: str, text: str | None, refusal: str | None, cut_off: bool = False) -> dict[str, Any]:
    message = {"role": "assistant", "content": text, "refusal": refusal}
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "length" if cut_off else "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def _anthropic_body(
    model: str, text: str | None, refusal: str | None, cut_off: bool = False
) -> dict[str, Any]:
    content = [] if refusal else [{"type": "text", "text": text or ""}]
    details = {"type": "refusal", "category": None, "explanation": refusal} if refusal else None
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "refusal" if refusal else "max_tokens" if cut_off else "end_turn",
        "stop_details": details,
        "stop_sequence": None,
        "usage": {"input_tokens": 11, "output_tokens": 7},
    }
