"""``memdesk mcp``: serve the memory store to assistants over the Model Context Protocol."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _address(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep:
        host = ""
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected [HOST:]PORT with a port from 1 to 65535, not {value!r}")
    return host, int(port)


def register(subparsers: argparse._SubParsersAction) -> None:
    mcp = subparsers.add_parser(
        "mcp",
        help="serve memories to assistants over MCP (stdio by default)",
        description="Run an MCP server on the store. Assistants such as Claude Desktop, Claude Code "
        "or Cursor start it themselves over stdio; --http serves streamable HTTP instead.",
    )
    mcp.add_argument(
        "--http",
        type=_address,
        metavar="[HOST:]PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1)",
    )
    mcp.set_defaults(handler=mcp_run)


def mcp_run(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.servers.mcp_server import build_server

    if args.http is None:
        mcp = build_server(app)
        try:
            mcp.server.run("stdio")
        finally:
            mcp.clients.flush()
        return 0
    host, port = args.http
    if host not in LOCAL_HOSTS:
        print(
            f"memdesk: warning: serving on {host}, reachable from other machines; "
            "anyone who can reach it can read and write your memories",
            file=sys.stderr,
        )
    return _serve_http(app, host, port)


def _serve_http(app: Memdesk, host: str, port: int) -> int:
    import uvicorn

    from memdesk.servers.mcp_server import build_server, http_app

    mcp = build_server(app, host, port)
    print(f"memdesk: MCP over streamable HTTP at http://{host}:{port}/mcp", file=sys.stderr)
    try:
        uvicorn.run(http_app(mcp), host=host, port=port, log_level="warning")
    finally:
        mcp.clients.flush()
    return 0
