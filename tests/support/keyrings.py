"""Keyrings for tests, so they never touch the person's real one."""

from __future__ import annotations

import json
import os
from pathlib import Path

import keyring.backend
import keyring.errors


class MemoryKeyring(keyring.backend.KeyringBackend):
    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.passwords.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError(username)


class FileKeyring(keyring.backend.KeyringBackend):
    """A keyring in the JSON file named by MEMDESK_TEST_KEYRING: for a ``memdesk`` process a
    test starts (``PYTHON_KEYRING_BACKEND=tests.support.keyrings.FileKeyring``)."""

    priority = 1

    @staticmethod
    def _load() -> dict[str, str]:
        path = Path(os.environ["MEMDESK_TEST_KEYRING"])
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    @staticmethod
    def _save(passwords: dict[str, str]) -> None:
        Path(os.environ["MEMDESK_TEST_KEYRING"]).write_text(json.dumps(passwords), encoding="utf-8")

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}/{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        self._save({**self._load(), f"{service}/{username}": password})

    def delete_password(self, service: str, username: str) -> None:
        passwords = self._load()
        if passwords.pop(f"{service}/{username}", None) is None:
            raise keyring.errors.PasswordDeleteError(username)
        self._save(passwords)
