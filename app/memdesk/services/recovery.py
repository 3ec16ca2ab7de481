"""Putting a damaged store file right: the newest backup in its place, the damaged file kept."""

from __future__ import annotations

from pathlib import Path

from memdesk.errors import DamagedStoreError


def restore_newest_backup(damage: DamagedStoreError) -> list[Path]:
    """Put the backup the damage report names in place of the damaged file; where the damaged
    file (and its journal files) were moved to, never deleted."""
    from memdesk.store.backups import restore_backup

    if damage.backup is None:
        raise DamagedStoreError(f"{damage.file} is damaged and has no backup", None, damage.file, None)
    return restore_backup(damage.backup, damage.file)
