"""Running an ASGI application with uvicorn on a socket bound before the server starts.

Binding first lets the caller learn the real port (``0`` picks a free one) and build the
guard's policy for it before the first request can arrive.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memdesk.errors import BadInputError

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def parse_address(value: str) -> tuple[str, int, bool]:
    """``PORT``, ``HOST:PORT`` or ``[IPv6]:PORT`` -> (host, port, host given explicitly)."""
    text = value.strip()
    host, explicit = DEFAULT_HOST, False
    if text.startswith("["):
        inside, sep, rest = text[1:].partition("]")
        if not sep or not rest.startswith(":"):
            raise BadInputError(f"address {value!r} is not valid", "expected [IPv6]:PORT, e.g. [::1]:8765")
        host, explicit, text = inside, True, rest[1:]
    elif ":" in text:
        host, _, text = text.rpartition(":")
        explicit = True
        if not host:
            raise BadInputError(f"address {value!r} has no host before the colon")
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise BadInputError(f"port {text!r} is not valid", "expected a number from 0 to 65535")
    return host, int(text), explicit


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise BadInputError(
            f"cannot listen on {host}:{port}: {exc.strerror}",
            "choose another port with --http [HOST:]PORT (0 picks a free one)",
        ) from None
    # Answers go out at once: without this, Nagle's algorithm and the client's delayed ACK
    # hold the body of many responses back by about 40 ms. Accepted sockets inherit it.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve_guarded(
    memdesk: Memdesk,
    address: str,
    build: Callable[[str, int], Any],
    what: str,
    path: str = "",
    lifespan: bool = False,
) -> None:
    """Listen on ``address`` and serve ``build(host, port)`` behind the guard (token, Host,
    Origin, body size), following the settings file, until interrupted. Every local HTTP
    server of Memdesk starts here."""
    from memdesk.servers.clients import FollowingSettings, SettingsWatch
    from memdesk.servers.security import Guarded, Policy, host_header, is_loopback

    host, port, explicit = parse_address(address)
    if explicit and not is_loopback(host):
        print(
            f"memdesk: warning: listening on {host}, which other machines can reach; "
            "every request still needs a token",
            file=sys.stderr,
        )
    sock = bind(host, port)
    port = sock.getsockname()[1]
    url = f"http://{host_header(host, port)}"
    served = FollowingSettings(build(host, port), SettingsWatch(memdesk))
    guarded = Guarded(served, Policy(host=host, port=port, authenticate=memdesk.tokens.verify))
    if not any(token.active for token in memdesk.tokens.list()):
        print("memdesk: no API token yet; create one with `memdesk token create NAME`", file=sys.stderr)
    print(f"memdesk: serving {what} on {url}{path} (Ctrl+C stops)", flush=True)
    serve(guarded, sock, lifespan)


def serve(app: Any, sock: socket.socket, lifespan: bool = False) -> None:
    """Serve until interrupted (Ctrl+C or SIGTERM), then finish the requests in flight."""
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on" if lifespan else "off",
        server_header=False,
        timeout_graceful_shutdown=5,
    )
    uvicorn.Server(config).run(sockets=[sock])
