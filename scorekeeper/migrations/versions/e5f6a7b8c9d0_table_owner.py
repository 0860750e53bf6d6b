"""tables.owner_token and tables.codes: only the opener erases a table or makes new codes

The owner capability is a third random token, held by the phone (or API client) that opened the
table; only it deletes the table or makes new join and watch codes. ``codes`` counts the times the
codes were made anew, so a phone that opened an old link (and is not seated) loses its access.
Tables opened before this revision have no owner (NULL): their write capability still deletes
them, as before, until they expire.

Revision ID: e5f6a7b8c9d0
Revises: d4e5f6a7b8c9
Create Date: 2026-11-28 03:20:00

"""
import sqlalchemy as sa
from alembic import op


revision = 'e5f6a7b8c9d0'
down_revision = 'd4e5f6a7b8c9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables') as batch_op:
        batch_op.add_column(sa.Column('owner_token', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('codes', sa.Integer(), nullable=False, server_default='0'))
        batch_op.create_unique_constraint('uq_tables_owner_token', ['owner_token'])


def downgrade():
    with op.batch_alter_table('tables') as batch_op:
        batch_op.drop_constraint('uq_tables_owner_token', type_='unique')
        batch_op.drop_column('codes')
        batch_op.drop_column('owner_token')
