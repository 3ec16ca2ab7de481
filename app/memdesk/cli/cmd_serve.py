"""``memdesk serve``: the local HTTP admin API."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    serve = subparsers.add_parser("serve", help="serve the local HTTP admin API (needs a token)")
    serve.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        default="8765",
        help="where to listen (default 127.0.0.1:8765; 0 picks a free port)",
    )
    serve.set_defaults(handler=serve_run)


def serve_run(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.servers.admin_api import build_app
    from memdesk.servers.runner import bind, parse_address, serve
    from memdesk.servers.security import Guarded, Policy, host_header, is_loopback

    host, port, explicit = parse_address(args.http)
    if explicit and not is_loopback(host):
        print(
            f"memdesk: warning: listening on {host}, which other machines can reach; "
            "every request still needs a token",
            file=sys.stderr,
        )
    sock = bind(host, port)
    port = sock.getsockname()[1]
    policy = Policy(host=host, port=port, authenticate=app.tokens.verify)
    url = f"http://{host_header(host, port)}"
    guarded = Guarded(build_app(app, url), policy)
    if not any(token.active for token in app.tokens.list()):
        print("memdesk: no API token yet; create one with `memdesk token create NAME`", file=sys.stderr)
    print(
        f"memdesk: serving the admin API on {url} (OpenAPI at {url}/openapi.json; Ctrl+C stops)", flush=True
    )
    serve(guarded, sock)
    return 0
