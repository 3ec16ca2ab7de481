"""A stand-in MCP server over stdio that writes down who connected: run as
``python mcp_recorder.py FILE``, it appends each ``initialize`` request's ``clientInfo`` to
FILE as a JSON line, and answers with an empty list of tools.

So a test learns the name a real assistant gives itself, which becomes its ``mcp:`` name in
Memdesk's history and Assistants list.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RECORDER = Path(__file__)


def recorded(file: Path) -> list[dict]:
    """The ``clientInfo`` of each client that connected, in order."""
    return [json.loads(line) for line in file.read_text().splitlines()] if file.exists() else []


def _answer(request: dict) -> dict:
    if request["method"] == "initialize":
        return {
            "protocolVersion": request["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "recorder", "version": "1"},
        }
    return {"tools": []} if request["method"] == "tools/list" else {}


def main(file: Path) -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("method") == "initialize":
            with file.open("a") as out:
                out.write(json.dumps(request["params"].get("clientInfo")) + "\n")
        if "id" in request and "method" in request:
            print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": _answer(request)}), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
