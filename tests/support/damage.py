"""Damaging a real store file the way a failing disk or a bad copy would."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def damage_table(file: Path, table: str) -> None:
    """Overwrite the page holding ``table``'s rows with junk, in the middle of the file."""
    conn = sqlite3.connect(file)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    assert 1 < root < pages and not Path(f"{file}-wal").exists()
    with open(file, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xab" * page_size)
