"""drop ix_event_table: uq_event_seq (table_id, seq) already leads with table_id

Every event written kept two B-trees over the same table_id; every query that reads a table's
events (by table, by table and seq, ordered by seq) is served by the unique index alone.

Revision ID: c3d4e5f6a7b8
Revises: b7c1d2e3f4a5
Create Date: 2026-11-26 12:20:00

"""
from alembic import op


revision = 'c3d4e5f6a7b8'
down_revision = 'b7c1d2e3f4a5'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.drop_index('ix_event_table')


def downgrade():
    with op.batch_alter_table('events') as batch_op:
        batch_op.create_index('ix_event_table', ['table_id'], unique=False)
