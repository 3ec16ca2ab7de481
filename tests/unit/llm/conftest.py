from collections.abc import Iterator

import keyring
import keyring.backend
import keyring.errors
import pytest
from tests.support.llm_servers import FakeLLMServer


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring that lives in a dict, so tests never touch the real one."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.passwords.get((service, username))

    def set_password(self, service, username, password):
        self.passwords[(service, username)] = password

    def delete_password(self, service, username):
        if self.passwords.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError(username)


@pytest.fixture
def llm_server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def use_keyring() -> Iterator:
    """Install a keyring backend for one test and put the previous one back."""
    previous = keyring.get_keyring()
    yield keyring.set_keyring
    keyring.set_keyring(previous)


@pytest.fixture
def memory_keyring(use_keyring) -> MemoryKeyring:
    ring = MemoryKeyring()
    use_keyring(ring)
    return ring
