"""Schema upgrades, one self-contained module per step; ``STEPS[n]`` takes version n to n + 1.

A step spells out the tables as they were when it was written, so later changes to the
models never change what an old step does, and it is safe to run twice.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection

from memdesk.store.migrations.to_v2_api_tokens import add_api_tokens
from memdesk.store.migrations.to_v3_agent_clients import add_agent_clients
from memdesk.store.migrations.to_v4_fts_stemming import migrate as stem_full_text

STEPS: dict[int, Callable[[Connection], None]] = {
    1: add_api_tokens,
    2: add_agent_clients,
    3: stem_full_text,
}
SCHEMA_VERSION = max(STEPS) + 1
