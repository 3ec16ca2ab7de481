"""MCP over standard input and output, answering every request read before the input ended.

The SDK's server cancels the requests it is still handling as soon as its input ends, so a
client that writes its requests and then closes its end (a pipe, a script) would get the
answer to the first and lose the rest. Here the server's input ends only once every request
read from standard input has had its answer.
"""

from __future__ import annotations

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.fastmcp import FastMCP
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCRequest, JSONRPCResponse, RequestId


class _InFlight:
    """The ids of the requests read and not yet answered."""

    def __init__(self) -> None:
        self.ids: set[RequestId] = set()
        self._answered = anyio.Event()

    def read(self, message: SessionMessage | Exception) -> None:
        if isinstance(message, SessionMessage) and isinstance(message.message.root, JSONRPCRequest):
            self.ids.add(message.message.root.id)

    def written(self, message: SessionMessage) -> None:
        root = message.message.root
        if isinstance(root, JSONRPCResponse | JSONRPCError) and root.id in self.ids:
            self.ids.discard(root.id)
            self._answered.set()
            self._answered = anyio.Event()

    async def all_answered(self) -> None:
        while self.ids:
            await self._answered.wait()


async def _pass_input(
    source: MemoryObjectReceiveStream[SessionMessage | Exception],
    server_input: MemoryObjectSendStream[SessionMessage | Exception],
    in_flight: _InFlight,
) -> None:
    async with server_input:
        async for message in source:
            in_flight.read(message)
            await server_input.send(message)
        await in_flight.all_answered()  # only then does the server see the end of its input


async def _pass_output(
    from_server: MemoryObjectReceiveStream[SessionMessage],
    sink: MemoryObjectSendStream[SessionMessage],
    in_flight: _InFlight,
) -> None:
    async with sink, from_server:
        async for message in from_server:
            await sink.send(message)
            in_flight.written(message)


async def serve_stdio(server: FastMCP) -> None:
    """Serve ``server`` on standard input and output until the input ends and all is answered."""
    lowlevel = server._mcp_server
    in_flight = _InFlight()
    # (send, receive) pairs: what goes to the server, and what it answers.
    to_server, server_input = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_output, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    async with stdio_server() as (source, sink), anyio.create_task_group() as group:
        group.start_soon(_pass_input, source, to_server, in_flight)
        group.start_soon(_pass_output, from_server, sink, in_flight)
        await lowlevel.run(server_input, server_output, lowlevel.create_initialization_options())
