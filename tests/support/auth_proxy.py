"""A reverse proxy on 127.0.0.1 that adds a bearer token, for clients that cannot send one.

The MCP conformance suite connects to a URL and sets no headers of its own choosing, while
``memdesk mcp --http`` requires a token. The proxy forwards every request with the token
added, and streams the answer back as it comes (server-sent events stay open). A ``Host``
that names the proxy is rewritten to name the server; any other ``Host`` and ``Origin`` pass
unchanged, so the server's own checks still see what the client sent.
"""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Headers about one hop, not the message: never forwarded.
_HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}
)
CHUNK = 64 * 1024


def _handler(upstream_port: int, token: str) -> type[BaseHTTPRequestHandler]:
    class Forward(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # the answer ends when the connection closes: streams work

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
            own = {f"127.0.0.1:{self.server.server_port}", f"localhost:{self.server.server_port}"}
            if headers.get("host") in own:
                headers["host"] = f"127.0.0.1:{upstream_port}"
            headers["authorization"] = f"Bearer {token}"
            connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=120)
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                answer = connection.getresponse()
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in _HOP_BY_HOP and name.lower() != "content-length":
                        self.send_header(name, value)
                self.end_headers()
                while chunk := answer.read1(CHUNK):
                    self.wfile.write(chunk)
                    self.wfile.flush()
            except (ConnectionError, TimeoutError, http.client.HTTPException):
                pass  # the client or the server went away: nothing left to carry
            finally:
                connection.close()

        do_GET = do_POST = do_DELETE = _forward

        def log_message(self, *_args: object) -> None:
            """Quiet: the test reads the suite's own report."""

    return Forward


@contextmanager
def token_proxy(upstream_port: int, token: str) -> Iterator[int]:
    """Run the proxy for the block; yields the port it listens on."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(upstream_port, token))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
