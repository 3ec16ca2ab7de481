"""Schema 6: ``source_files``, how far each assistant's transcript file has been read."""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("source_files"):  # safe to run twice
        return
    op.create_table(
        "source_files",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("path", sa.Text, nullable=False, unique=True),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("session_id", sa.String(300), nullable=False),
        sa.Column("read_to", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("size", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("mtime_ns", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("fingerprint", sa.String(64), nullable=False, server_default=""),
        sa.Column("pending", sa.Text, nullable=False, server_default="{}"),
        sa.Column("synced_at", sa.DateTime, nullable=False),
    )
