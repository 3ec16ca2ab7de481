"""``memdesk mcp``: serve the memory store to assistants over the Model Context Protocol."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdesk.cli.io import say_aside, typed_by_hand
from memdesk.cli.startup import loading
from memdesk.errors import MemdeskError

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
    # The store opens here: over stdio, while the server answers the client's handshake.
    mcp.set_defaults(handler=mcp_run, needs_store=False)


def mcp_run(args: argparse.Namespace, _app: None) -> int:
    from memdesk.cli.main import open_app
    from memdesk.shutdown import finish_on_sigterm

    finish_on_sigterm()  # the read log is written before the server ends

    if args.http is not None:
        app = open_app(args)
        try:
            return _serve_http(app, args.http)
        finally:
            app.close()
    return _serve_stdio(lambda: open_app(args))


def _serve_stdio(open_app: Callable[[], Memdesk]) -> int:
    from memdesk.cli.main import report

    opened: list[Memdesk] = []

    def open_store() -> Memdesk:
        try:
            with loading():
                opened.append(open_app())
        except MemdeskError as error:
            report(error)  # said once here; each call that needs the store answers with it too
            raise
        return opened[-1]

    with loading():  # the SDK's import and the tools' schemas: before the first answer
        import anyio

        from memdesk.servers.backend import in_background
        from memdesk.servers.mcp_server import MemdeskMCP
        from memdesk.servers.stdio import serve_stdio

        mcp = MemdeskMCP(in_background(open_store), started_in=_working_folder())
    if typed_by_hand():
        say_aside(
            "memdesk: serving MCP on standard input and output, for an assistant that starts this "
            "command itself; `memdesk connect --help` sets one up. Ctrl+D stops."
        )
    try:
        anyio.run(serve_stdio, mcp.server)
    finally:
        mcp.finish()
        for app in opened:
            app.close()
    return 0


def _working_folder() -> Path | None:
    """The folder the client started the server in (None: it no longer exists)."""
    try:
        return Path.cwd()
    except OSError:
        return None


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
            mcp.finish()
    return 0
