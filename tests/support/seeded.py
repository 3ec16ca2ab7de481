"""Stores seeded once with the real ``memdesk`` command and copied for every test that starts
from the same seed: the seed's commands run once per module and engine, not once per test."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from tests.support.cli import MemdeskCommand
from tests.support.postgres import PostgresServer

from memdesk.paths import DB_FILE_NAME

Seed = Callable[[MemdeskCommand], None]


class SeededStores:
    """``start(memdesk, seed)`` leaves in ``memdesk``'s fresh store what ``seed`` writes.

    The first test of a seed runs it on its own store, which then becomes the copy for the
    others: the SQLite file, or a PostgreSQL database (the store is the one in ``MEMDESK_DB``,
    as the command uses it). Only the store is copied, never the data folder's settings, so a
    test's own settings stay its own.
    """

    def __init__(self, folder: Path, postgres: Callable[[], PostgresServer]) -> None:
        self.folder = folder
        self._postgres = postgres
        self._copies: dict[tuple[Seed, tuple[str, ...], bool], str] = {}

    def start(self, memdesk: MemdeskCommand, seed: Seed) -> None:
        url = os.environ.get("MEMDESK_DB")
        key = (seed, memdesk.prefix, url is not None)
        copy = self._copies.get(key)
        if copy is None:
            seed(memdesk)
            self._copies[key] = self._keep(memdesk, url)
        elif url:
            self._postgres().copy_database(copy, _database_of(url))
        else:
            memdesk.data_dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(copy, memdesk.data_dir / DB_FILE_NAME)

    def _keep(self, memdesk: MemdeskCommand, url: str | None) -> str:
        """A copy of the store the seed just wrote; its database name or file path."""
        if url:
            return self._postgres().copy_database(_database_of(url))
        kept = self.folder / f"seed_{len(self._copies)}.sqlite3"
        shutil.copyfile(memdesk.data_dir / DB_FILE_NAME, kept)
        return str(kept)


def _database_of(url: str) -> str:
    return url.rsplit("/", 1)[1]
