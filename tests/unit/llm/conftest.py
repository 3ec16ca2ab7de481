from collections.abc import Iterator

import pytest
from tests.support.llm_servers import FakeLLMServer


@pytest.fixture
def llm_server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server
