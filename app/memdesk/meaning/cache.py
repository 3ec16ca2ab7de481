"""The vectors of stored texts, kept in a file beside the store so that a prompt computes
only its question's. Keyed by a hash of the text: an edited text is a new key, and an old one
is simply never asked for again. Disposable: deleting the file costs one slower prompt."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

KEEP = 200_000  # rows kept; past that, the older half goes
ROW_BYTES = 1_100  # a row on disk: a 512-number half-precision vector and its key
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL, used INTEGER NOT NULL)"
)


def _key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class VectorCache:
    def __init__(self, path: Path | None, model: str) -> None:
        # One file per model: vectors of two models are not comparable.
        self.path = None if path is None else path.with_name(f"{path.stem}-{model}{path.suffix}")
        self.memory: dict[bytes, np.ndarray] = {}

    def vectors(self, texts: Sequence[str], compute: Callable[[Sequence[str]], np.ndarray]) -> np.ndarray:
        """The vectors of ``texts``, computing (and keeping) those not kept yet."""
        keys = [_key(text) for text in texts]
        missing = [key for key in dict.fromkeys(keys) if key not in self.memory]
        if missing:
            self._read(missing)
        new = [i for i, key in enumerate(keys) if key not in self.memory]
        if new:
            computed = compute([texts[i] for i in new])
            # Kept at half precision, and so used at it from the start: a ranking must not
            # change because a vector came from the file rather than from the model.
            fresh = {
                keys[i]: row.astype(np.float16).astype(np.float32)
                for i, row in zip(new, computed, strict=True)
            }
            if len(self.memory) > KEEP:
                self.memory.clear()
            self.memory.update(fresh)
            self._write(fresh)
        return np.stack([self.memory[key] for key in keys]) if keys else np.zeros((0, 0), np.float32)

    def kept_and_first(self, texts: Sequence[str], new: int) -> list[str]:
        """``texts`` whose vectors are kept, and the first ``new`` of the others, in order: what
        can be measured while computing at most ``new`` vectors."""
        keys = [_key(text) for text in texts]
        missing = [key for key in dict.fromkeys(keys) if key not in self.memory]
        if missing:
            self._read(missing)
        chosen, computed = [], 0
        for text, key in zip(texts, keys, strict=True):
            if key in self.memory:
                chosen.append(text)
            elif computed < new:
                chosen.append(text)
                computed += 1
        return chosen

    def _connect(self, retry: bool = True) -> sqlite3.Connection | None:
        if self.path is None:
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=2)
            connection.execute(_SCHEMA)
            return connection
        except sqlite3.DatabaseError:
            if not retry:
                return None
            self.path.unlink(missing_ok=True)  # not a database: it held nothing worth keeping
            return self._connect(retry=False)
        except (OSError, sqlite3.Error):
            return None  # an unwritable cache only makes prompts slower

    def _read(self, keys: list[bytes]) -> None:
        connection = self._connect()
        if connection is None:
            return
        try:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob in connection.execute(
                    f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk
                ):
                    self.memory[key] = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
        except sqlite3.Error:
            pass
        finally:
            connection.close()

    def _write(self, fresh: dict[bytes, np.ndarray]) -> None:
        connection = self._connect()
        if connection is None:
            return
        try:
            with connection:
                connection.executemany(
                    "INSERT OR REPLACE INTO vectors VALUES (?, ?, strftime('%s', 'now'))",
                    [(key, row.astype(np.float16).tobytes()) for key, row in fresh.items()],
                )
                if self.path is not None and self.path.stat().st_size > KEEP * ROW_BYTES:
                    connection.execute(
                        "DELETE FROM vectors WHERE key IN "
                        "(SELECT key FROM vectors ORDER BY used DESC LIMIT -1 OFFSET ?)",
                        (KEEP // 2,),
                    )
        except sqlite3.Error:
            pass
        finally:
            connection.close()
