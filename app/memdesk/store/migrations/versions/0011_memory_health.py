"""Schema 11: ``health_facts`` (the slots and word signatures of live facts, for Memory health)
and ``health_findings`` (conflicts and near-duplicates found, and what the person did)."""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("health_facts"):  # safe to run twice
        op.create_table(
            "health_facts",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("owner", sa.String(40), nullable=False),
            sa.Column("fact", sa.String(80), nullable=False),
            sa.Column("slot", sa.String(80)),
            sa.Column("value", sa.String(200), nullable=False),
            sa.Column("past", sa.Boolean, nullable=False),
            sa.Column("slots", sa.Integer, nullable=False),
            sa.Column("signature", sa.String(16), nullable=False),
        )
        op.create_index("ix_health_facts_owner", "health_facts", ["owner"])
        op.create_index("ix_health_facts_slot", "health_facts", ["slot"])
        op.create_index("ix_health_facts_signature", "health_facts", ["signature"])
    if not inspector.has_table("health_findings"):
        op.create_table(
            "health_findings",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("pair", sa.String(40), nullable=False, unique=True),
            sa.Column("kind", sa.String(12), nullable=False),
            sa.Column("slot", sa.String(80), nullable=False),
            sa.Column("first", sa.String(80), nullable=False),
            sa.Column("first_text", sa.Text, nullable=False),
            sa.Column("second", sa.String(80), nullable=False),
            sa.Column("second_text", sa.Text, nullable=False),
            sa.Column("found_at", sa.DateTime, nullable=False),
            sa.Column("state", sa.String(12), nullable=False),
        )
