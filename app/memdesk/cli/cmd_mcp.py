"""``memdesk mcp``: serve the memory store to assistants over the Model Context Protocol."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memdesk.cli.startup import loading

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    mcp = subparsers.add_parser(
        "mcp",
        help="serve memories to assistants over MCP (stdio by default)",
        description="Run an MCP server on the store. Assistants such as Claude Desktop, Claude Code "
        "or Cursor start it themselves over stdio; --http serves streamable HTTP instead.",
    )
    mcp.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1; "
        "every request needs a token from `memdesk token create`)",
    )
    mcp.set_defaults(handler=mcp_run)


def mcp_run(args: argparse.Namespace, app: Memdesk) -> int:
    if args.http is None:
        with loading():  # the SDK's import and the tools' schemas: before the first answer
            from memdesk.servers.mcp_server import build_server

            mcp = build_server(app)
        try:
            mcp.server.run("stdio")
        finally:
            mcp.clients.flush()
        return 0
    return _serve_http(app, args.http)


def _serve_http(app: Memdesk, address: str) -> int:
    from memdesk.servers.mcp_server import MemdeskMCP, build_server, http_app
    from memdesk.servers.runner import serve_guarded

    built: list[MemdeskMCP] = []

    def build(host: str, port: int) -> Any:
        built.append(build_server(app, host, port))
        return http_app(built[-1])

    try:
        serve_guarded(app, address, build, "MCP over streamable HTTP", path="/mcp", lifespan=True)
    finally:
        for mcp in built:
            mcp.clients.flush()
    return 0
