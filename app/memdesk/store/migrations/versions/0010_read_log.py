"""Schema 10: ``assistant_reads`` and ``assistant_read_items``, the log of what assistants read."""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("assistant_reads"):  # safe to run twice
        return
    op.create_table(
        "assistant_reads",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("tool", sa.String(40), nullable=False),
    )
    op.create_index("ix_assistant_reads_actor", "assistant_reads", ["actor", "at", "tool"])
    op.create_index("ix_assistant_reads_at", "assistant_reads", ["at"])
    op.create_table(
        "assistant_read_items",
        sa.Column(
            "read_id",
            sa.Integer,
            sa.ForeignKey("assistant_reads.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("ref", sa.String(320), nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_assistant_read_items_ref", "assistant_read_items", ["ref", "kind", "read_id"])
