"""When the store file is damaged: offer to put the newest backup in its place."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from memdesk.errors import DamagedStoreError, MemdeskError
from memdesk.gui import dialogs

TITLE = "The memory store is damaged"
RESTORE = "Restore newest backup"


def offer_restore(parent: QWidget | None, damage: DamagedStoreError) -> bool:
    """Ask, then restore; True when the backup is in place and the store can be opened again."""
    if damage.backup is None:
        return False
    text = f"{dialogs.describe_error(damage)}\n\nThe damaged file is kept, never deleted."
    if dialogs.choose(parent, TITLE, text, [RESTORE]) != RESTORE:
        return False
    from memdesk.services.recovery import restore_newest_backup

    try:
        kept = restore_newest_backup(damage)
    except MemdeskError as exc:
        dialogs.show_error(parent, exc, TITLE)
        return False
    where = f" The damaged file is kept as {kept[0]}." if kept else ""
    dialogs.info(parent, TITLE, f"Restored the backup {damage.backup}.{where}")
    return True
