"""API keys in the keyring, the environment override, and a clear error without a keyring."""

import keyring.backend
import keyring.backends.fail
import keyring.backends.null
import keyring.errors
import pytest

from memdesk.errors import BadInputError, MemdeskError
from memdesk.llm.keys import ENV_VAR, delete_api_key, get_api_key, set_api_key
from memdesk.secrets import SERVICE


def test_set_get_delete(memory_keyring):
    assert get_api_key("openai") is None
    set_api_key("openai", "  sk-one  ")
    set_api_key("anthropic", "sk-two")
    assert memory_keyring.passwords == {(SERVICE, "openai"): "sk-one", (SERVICE, "anthropic"): "sk-two"}
    assert get_api_key("openai") == "sk-one"

    delete_api_key("openai")
    assert get_api_key("openai") is None
    assert get_api_key("anthropic") == "sk-two"
    delete_api_key("openai")  # already gone: not an error


def test_service_name_is_the_app_id():
    assert SERVICE == "io.github.memdesk.Memdesk"


def test_environment_overrides_the_keyring(memory_keyring, monkeypatch):
    set_api_key("anthropic", "from-keyring")
    monkeypatch.setenv(ENV_VAR, "from-env")
    assert get_api_key("anthropic") == "from-env"


def test_environment_works_without_any_keyring(use_keyring, monkeypatch):
    use_keyring(keyring.backends.fail.Keyring())
    monkeypatch.setenv(ENV_VAR, "from-env")
    assert get_api_key("openai") == "from-env"


@pytest.mark.parametrize("backend", [keyring.backends.fail.Keyring, keyring.backends.null.Keyring])
@pytest.mark.parametrize("action", [get_api_key, lambda name: set_api_key(name, "sk-secret"), delete_api_key])
def test_no_usable_keyring_says_what_to_do(use_keyring, backend, action):
    use_keyring(backend())
    with pytest.raises(MemdeskError) as caught:
        action("openai")
    text = str(caught.value)
    assert "No usable system keyring" in text
    assert "GNOME Keyring" in text and "KWallet" in text
    assert ENV_VAR in text
    assert "sk-secret" not in text


class LockedKeyring(keyring.backend.KeyringBackend):
    priority = 1

    def get_password(self, service, username):
        raise keyring.errors.KeyringLocked("locked")

    def set_password(self, service, username, password):
        raise keyring.errors.KeyringLocked(f"could not store {password}")

    def delete_password(self, service, username):
        raise keyring.errors.KeyringLocked("locked")


def test_keyring_errors_never_repeat_the_key(use_keyring):
    use_keyring(LockedKeyring())
    with pytest.raises(MemdeskError) as caught:
        set_api_key("openai", "sk-secret")
    assert "locked" in caught.value.message
    assert "sk-secret" not in str(caught.value)
    assert caught.value.__cause__ is None


def test_unknown_backend_and_empty_key_are_refused(memory_keyring):
    with pytest.raises(BadInputError):
        get_api_key("offline")
    with pytest.raises(BadInputError):
        set_api_key("openai", "   ")
    assert memory_keyring.passwords == {}
