"""Schema 8: a covering index for each app's live and total memory counts.

The sidebar counts every app's memories at once; with ``expires_at`` and ``pinned`` in the
index, SQLite counts from the index alone instead of reading every memory's row.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    indexes = sa.inspect(op.get_bind()).get_indexes("app_memories")
    if any(index["name"] == "ix_app_memories_counts" for index in indexes):  # safe to run twice
        return
    with op.batch_alter_table("app_memories") as batch:
        batch.create_index("ix_app_memories_counts", ["app_id", "deleted_at", "expires_at", "pinned"])
