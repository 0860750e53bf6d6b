"""tables.origin: a table carried from a phone is put on the server once

A phone's export carries its table's identity (``origin``, a secret of the phone that opened it).
Every phone at a hut holds a copy of the log (issue 39); whichever puts it on the server first
makes the table, and the others' imports find it by this column instead of making a second one.

Revision ID: a7b8c9d0e1f2
Revises: f6a7b8c9d0e1
Create Date: 2026-11-28 07:00:00

"""
import sqlalchemy as sa
from alembic import op


revision = 'a7b8c9d0e1f2'
down_revision = 'f6a7b8c9d0e1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables') as batch_op:
        batch_op.add_column(sa.Column('origin', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint('uq_tables_origin', ['origin'])


def downgrade():
    with op.batch_alter_table('tables') as batch_op:
        batch_op.drop_constraint('uq_tables_origin', type_='unique')
        batch_op.drop_column('origin')
