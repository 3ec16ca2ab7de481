"""``memdesk serve``: the local HTTP admin API."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

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
    from memdesk.servers.clients import ClientLog
    from memdesk.servers.runner import serve_guarded
    from memdesk.servers.security import host_header
    from memdesk.shutdown import before_exit, finish_on_sigterm

    clients = ClientLog(app)
    before_exit(clients.flush_before_exit)
    finish_on_sigterm()  # the read log and the calls counted are written before the server ends

    def build(host: str, port: int) -> Any:
        return build_app(app, clients, f"http://{host_header(host, port)}")

    try:
        serve_guarded(app, args.http, build, "the admin API")
    finally:
        clients.flush()
    return 0
