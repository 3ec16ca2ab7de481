"""Schema 7: ``held_writes``, assistants' writes waiting for review, and ``assistant_trust``."""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("held_writes"):  # safe to run twice
        op.create_table(
            "held_writes",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("actor", sa.String(40), nullable=False),
            sa.Column("created_at", sa.DateTime, nullable=False),
            sa.Column("operation", sa.String(30), nullable=False),
            sa.Column("target", sa.String(300), nullable=False),
            sa.Column("content", sa.Text, nullable=False),
            sa.Column("arguments", sa.Text, nullable=False),
            sa.Column("reasons", sa.Text, nullable=False),
            sa.Column("state", sa.String(12), nullable=False),
            sa.Column("decided_at", sa.DateTime),
            sa.Column("deleted_at", sa.DateTime),
        )
        op.create_index("ix_held_writes_state", "held_writes", ["state", "deleted_at", "id"])
    if not inspector.has_table("assistant_trust"):
        op.create_table(
            "assistant_trust",
            sa.Column("actor", sa.String(40), primary_key=True),
            sa.Column("level", sa.String(20), nullable=False),
            sa.Column("updated_at", sa.DateTime, nullable=False),
        )
