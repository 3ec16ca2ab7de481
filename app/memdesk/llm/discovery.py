"""The models a server offers, and the local model servers running on this computer.

OpenAI-compatible servers list their models at ``GET /v1/models``; Ollama also at its own
``GET /api/tags``. Local servers are looked for on 127.0.0.1 at the ports they use out of
the box, all at once and briefly, so a port nobody listens on costs nothing.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from memdesk.errors import LLMError
from memdesk.llm import failures

BACKEND = "openai"  # every local server speaks its protocol
LOCAL_HOST = "127.0.0.1"
# (name, port) of the servers people run, at their default ports.
LOCAL_SERVERS = (("Ollama", 11434), ("LM Studio", 1234), ("llama.cpp", 8080))
PROBE_TIMEOUT_S = 1.0  # a local server that takes longer to list its models is not offered
LIST_TIMEOUT_S = 10.0  # the configured server, which may be remote
_MODELS_PATH = "/models"
_OLLAMA_TAGS_PATH = "/api/tags"
_OPENAI_SUFFIX = "/v1"


@dataclass(frozen=True)
class LocalServer:
    """A server found on this computer: its name, the URL the openai backend uses, its models."""

    name: str
    base_url: str
    models: tuple[str, ...]

    def describe(self) -> str:
        """ "Ollama at http://127.0.0.1:11434/v1: llama3.2, qwen2.5" (or "no models yet")."""
        return f"{self.name} at {self.base_url}: {', '.join(self.models) or 'no models yet'}"


def list_models(base_url: str, api_key: str | None, timeout: float) -> list[str]:
    """The model names the server at ``base_url`` (the openai backend's URL) offers, sorted.

    ``GET {base_url}/models`` first; a server that has no such route but is Ollama answers
    ``/api/tags`` at its root. LLMError, in the backend's words, when neither answers."""
    base = base_url.rstrip("/")
    try:
        return _names(_get_json(base + _MODELS_PATH, base_url, api_key, timeout), "data", "id", base_url)
    except LLMError as first:
        tags = base.removesuffix(_OPENAI_SUFFIX) + _OLLAMA_TAGS_PATH
        try:
            return _names(_get_json(tags, base_url, api_key, timeout), "models", "name", base_url)
        except LLMError:
            raise first from None


def find_local_servers(
    ports: tuple[tuple[str, int], ...] | None = None, timeout: float = PROBE_TIMEOUT_S
) -> list[LocalServer]:
    """The servers of ``ports`` (default ``LOCAL_SERVERS``) that answer on 127.0.0.1, each
    with its models, in that order."""
    ports = LOCAL_SERVERS if ports is None else ports

    def probe(entry: tuple[str, int]) -> LocalServer | None:
        name, port = entry
        base_url = f"http://{LOCAL_HOST}:{port}{_OPENAI_SUFFIX}"
        try:
            return LocalServer(name, base_url, tuple(list_models(base_url, None, timeout)))
        except LLMError:
            return None

    with ThreadPoolExecutor(max_workers=len(ports) or 1) as pool:
        found = list(pool.map(probe, ports))
    return [server for server in found if server is not None]


def _get_json(url: str, shown_url: str, api_key: str | None, timeout: float) -> Any:
    """The JSON at ``url``; failures are LLMErrors naming ``shown_url`` (the configured one)."""
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
    except urllib.error.HTTPError as exc:
        detail = failures.server_detail(_json_or_none(exc.read()), api_key)
        raise failures.http_status(BACKEND, shown_url, exc.code, detail) from None
    except TimeoutError:
        raise failures.timeout(BACKEND, shown_url, timeout) from None
    except (urllib.error.URLError, OSError):
        raise failures.unreachable(BACKEND, shown_url) from None
    parsed = _json_or_none(body)
    if parsed is None:
        raise failures.unreadable(BACKEND, shown_url)
    return parsed


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _names(payload: Any, key: str, field: str, shown_url: str) -> list[str]:
    """``payload[key][*][field]`` as sorted names; an answer of another shape is unreadable."""
    items = payload.get(key) if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise failures.unreadable(BACKEND, shown_url)
    names = {item.get(field) for item in items if isinstance(item, dict)}
    return sorted((name for name in names if isinstance(name, str) and name), key=str.lower)
