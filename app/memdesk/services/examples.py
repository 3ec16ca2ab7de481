"""The example store that ships with Memdesk: a small made-up person, her apps and
conversations, to look around in. The welcome page and ``memdesk examples load`` load it."""

from __future__ import annotations

import json
import tempfile
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdesk.resources import resource_path
from memdesk.services.transfer import SECTIONS

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk
    from memdesk.services.transfer import ImportReport

EXAMPLE_FILE = ("example", "example-store.json")


def _shift(value: Any, by: Any) -> Any:
    return (datetime.fromisoformat(value) + by).isoformat() if isinstance(value, str) else value


def load_example(app: Memdesk) -> ImportReport:
    """Import the example store, its dates moved so that it was written just now; items the
    store already holds under the same name are kept as they are.

    The file was exported at a fixed moment; shifting every time by (now - that moment)
    keeps working memory live and expiry dates meaningful whenever it is loaded.
    """
    data = json.loads(resource_path(*EXAMPLE_FILE).read_text(encoding="utf-8"))
    shift = app.now() - datetime.fromisoformat(data["exported_at"].removesuffix("Z"))
    for section, _model in SECTIONS:
        for row in data.get(section, []):
            for key in row:
                if key.endswith("_at"):
                    row[key] = _shift(row[key], shift)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "example-memories.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return app.transfer.import_file(path)
