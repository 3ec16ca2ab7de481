"""Schema 12: one assistant's reads are listed from the newest end of an index.

Schema 10's index on (actor, at, tool) put reads of the same time in tool order, not in the
listing's (time, then id): an assistant's whole log was sorted before the newest came out.
The new index holds the id before the tool, so reading it backwards is the listing itself.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    names = {index["name"] for index in sa.inspect(op.get_bind()).get_indexes("assistant_reads")}
    if "ix_assistant_reads_newest" not in names:  # safe to run twice
        op.create_index("ix_assistant_reads_newest", "assistant_reads", ["actor", "at", "id", "tool"])
    if "ix_assistant_reads_actor" in names:
        op.drop_index("ix_assistant_reads_actor", table_name="assistant_reads")
