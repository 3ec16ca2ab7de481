"""Schema 5: an index on ``history_steps(actor, id)``, for one assistant's changes.

Through ``batch_alter_table``, as every change to an existing table is written: on SQLite
Alembic rebuilds a table when an alteration needs it; an index needs no rebuild.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    indexes = sa.inspect(op.get_bind()).get_indexes("history_steps")
    if any(index["name"] == "ix_history_steps_actor" for index in indexes):  # safe to run twice
        return
    with op.batch_alter_table("history_steps") as batch:
        batch.create_index("ix_history_steps_actor", ["actor", "id"])
