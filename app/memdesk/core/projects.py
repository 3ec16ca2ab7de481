"""The app a project's memories go to, from the project's folder. Pure: no I/O."""

from __future__ import annotations

import re
from pathlib import Path

_APP_CHARS = re.compile(r"[^A-Za-z0-9_.:@-]+")


def app_id_for_folder(folder: str | None) -> str | None:
    """The app a project's memories go to: the folder's last component, made a valid app id.

    ``/home/ada/src/memdesk`` → ``memdesk``; ``~/My Notes`` → ``My-Notes``. Two projects in
    folders of the same name share an app.
    """
    if not folder:
        return None
    name = Path(folder.rstrip("/\\")).name or folder.strip("/\\")
    cleaned = _APP_CHARS.sub("-", name).strip("-_.:@")[:200]
    return cleaned or None
