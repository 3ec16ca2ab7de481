"""Secrets (API keys, database passwords) in the operating system's keyring.

Never in the config file or logs. ``what`` names the secret in messages ("the API key").
"""

from __future__ import annotations

import keyring
import keyring.backend
import keyring.backends.fail
import keyring.backends.null
import keyring.errors

from memdesk import APP_ID
from memdesk.errors import MemdeskError

SERVICE = APP_ID

_NO_KEYRING_HINT = (
    "Install and unlock a keyring service (GNOME Keyring or KWallet on Linux; the macOS "
    "Keychain and Windows Credential Manager work as they are)"
)


def read_secret(name: str, what: str = "the secret", hint: str = "") -> str | None:
    """The stored secret, or None when there is none. Raises when the keyring fails."""
    store = _usable_keyring(what, hint)
    try:
        return store.get_password(SERVICE, name) or None
    except keyring.errors.KeyringError as exc:
        raise _failure("read", what, hint, exc) from None


def keyring_usable() -> bool:
    store = keyring.get_keyring()
    return not isinstance(store, keyring.backends.fail.Keyring | keyring.backends.null.Keyring)


def write_secret(name: str, value: str, what: str = "the secret", hint: str = "") -> None:
    store = _usable_keyring(what, hint)
    try:
        store.set_password(SERVICE, name, value)
    except keyring.errors.KeyringError as exc:
        raise _failure("save", what, hint, exc) from None


def delete_secret(name: str, what: str = "the secret", hint: str = "") -> None:
    """Forget a secret; forgetting one that was never stored is not an error."""
    store = _usable_keyring(what, hint)
    try:
        store.delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        pass
    except keyring.errors.KeyringError as exc:
        raise _failure("delete", what, hint, exc) from None


def _no_keyring(what: str, hint: str) -> MemdeskError:
    return MemdeskError(f"No usable system keyring was found to keep {what}.", _NO_KEYRING_HINT + hint + ".")


def _usable_keyring(what: str, hint: str) -> keyring.backend.KeyringBackend:
    # The fail backend raises on use and the null one silently forgets: neither keeps a secret.
    if not keyring_usable():
        raise _no_keyring(what, hint)
    return keyring.get_keyring()


def _failure(verb: str, what: str, hint: str, exc: keyring.errors.KeyringError) -> MemdeskError:
    # Only the error's type is reported: a backend's own text could quote what it was given.
    if isinstance(exc, keyring.errors.NoKeyringError):
        return _no_keyring(what, hint)
    if isinstance(exc, keyring.errors.KeyringLocked):
        return MemdeskError(
            f"The system keyring is locked, so Memdesk could not {verb} {what}.",
            f"Unlock the keyring (log in to it once){hint}.",
        )
    return MemdeskError(
        f"The system keyring could not {verb} {what} ({type(exc).__name__}).", _NO_KEYRING_HINT + hint + "."
    )
