"""API keys in the operating system's keyring, never in the config file or logs.

``MEMDESK_API_KEY`` overrides the keyring for headless runs (CI, servers, containers).
"""

from __future__ import annotations

import os

import keyring
import keyring.backend
import keyring.backends.fail
import keyring.backends.null
import keyring.errors

from memdesk import APP_ID
from memdesk.errors import BadInputError, MemdeskError

SERVICE = APP_ID
ENV_VAR = "MEMDESK_API_KEY"
KEYED_BACKENDS = ("openai", "anthropic")

_NO_KEYRING = "No usable system keyring was found to keep the API key."
_NO_KEYRING_HINT = (
    "Install and unlock a keyring service (GNOME Keyring or KWallet on Linux; the macOS "
    f"Keychain and Windows Credential Manager work as they are), or set {ENV_VAR} for this run."
)


def get_api_key(backend: str) -> str | None:
    """The key for ``backend``: the environment override first, then the keyring."""
    username = _username(backend)
    override = os.environ.get(ENV_VAR)
    if override:
        return override
    store = _usable_keyring()
    try:
        return store.get_password(SERVICE, username) or None
    except keyring.errors.KeyringError as exc:
        raise _failure("read", exc) from None


def set_api_key(backend: str, key: str) -> None:
    username = _username(backend)
    if not key.strip():
        raise BadInputError("The API key is empty.", "Paste the whole key, or remove it instead.")
    store = _usable_keyring()
    try:
        store.set_password(SERVICE, username, key.strip())
    except keyring.errors.KeyringError as exc:
        raise _failure("save", exc) from None


def delete_api_key(backend: str) -> None:
    """Forget the key; forgetting a key that was never stored is not an error."""
    username = _username(backend)
    store = _usable_keyring()
    try:
        store.delete_password(SERVICE, username)
    except keyring.errors.PasswordDeleteError:
        pass
    except keyring.errors.KeyringError as exc:
        raise _failure("delete", exc) from None


def _username(backend: str) -> str:
    if backend not in KEYED_BACKENDS:
        raise BadInputError(
            f"The {backend!r} backend does not use an API key.",
            "Keys exist for: " + ", ".join(KEYED_BACKENDS),
        )
    return backend


def _usable_keyring() -> keyring.backend.KeyringBackend:
    store = keyring.get_keyring()
    # The fail backend raises on use and the null one silently forgets: neither keeps a key.
    if isinstance(store, keyring.backends.fail.Keyring | keyring.backends.null.Keyring):
        raise MemdeskError(_NO_KEYRING, _NO_KEYRING_HINT)
    return store


def _failure(verb: str, exc: keyring.errors.KeyringError) -> MemdeskError:
    # Only the error's type is reported: a backend's own text could quote what it was given.
    if isinstance(exc, keyring.errors.NoKeyringError):
        return MemdeskError(_NO_KEYRING, _NO_KEYRING_HINT)
    if isinstance(exc, keyring.errors.KeyringLocked):
        return MemdeskError(
            f"The system keyring is locked, so Memdesk could not {verb} the API key.",
            f"Unlock the keyring (log in to it once), or set {ENV_VAR} for this run.",
        )
    return MemdeskError(
        f"The system keyring could not {verb} the API key ({type(exc).__name__}).",
        _NO_KEYRING_HINT,
    )
