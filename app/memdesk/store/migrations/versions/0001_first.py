"""Schema 1: the first store (documents, apps, app memories, entries, sessions, messages,
history and FTS5 indexes). Stores that old are stamped here; nothing to run."""

revision = "0001"
down_revision = None


def upgrade() -> None:
    """Nothing: this is where upgrades start."""
