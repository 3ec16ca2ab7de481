"""API keys in the operating system's keyring, never in the config file or logs.

``MEMDESK_API_KEY`` overrides the keyring for headless runs (CI, servers, containers).
"""

from __future__ import annotations

import os

from memdesk.errors import BadInputError
from memdesk.secrets import delete_secret, read_secret, write_secret

ENV_VAR = "MEMDESK_API_KEY"
KEYED_BACKENDS = ("openai", "anthropic")
_WHAT = "the API key"
_HINT = f", or set {ENV_VAR} for this run"


def get_api_key(backend: str) -> str | None:
    """The key for ``backend``: the environment override first, then the keyring."""
    username = _username(backend)
    override = os.environ.get(ENV_VAR)
    if override:
        return override
    return read_secret(username, _WHAT, _HINT)


def set_api_key(backend: str, key: str) -> None:
    username = _username(backend)
    if not key.strip():
        raise BadInputError("The API key is empty.", "Paste the whole key, or remove it instead.")
    write_secret(username, key.strip(), _WHAT, _HINT)


def delete_api_key(backend: str) -> None:
    """Forget the key; forgetting a key that was never stored is not an error."""
    delete_secret(_username(backend), _WHAT, _HINT)


def _username(backend: str) -> str:
    if backend not in KEYED_BACKENDS:
        raise BadInputError(
            f"The {backend!r} backend does not use an API key.",
            "Keys exist for: " + ", ".join(KEYED_BACKENDS),
        )
    return backend
