"""tables.rules_version: the rules version a table began under

A later version may judge a stored move otherwise (CHANGELOG.md lists every verdict change by
rule id and version). Tables opened before versions were recorded hold NULL: they began under
version 2 or earlier.

Revision ID: d4e5f6a7b8c9
Revises: c3d4e5f6a7b8
Create Date: 2026-11-26 16:20:00

"""
import sqlalchemy as sa
from alembic import op


revision = 'd4e5f6a7b8c9'
down_revision = 'c3d4e5f6a7b8'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables') as batch_op:
        batch_op.add_column(sa.Column('rules_version', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('tables') as batch_op:
        batch_op.drop_column('rules_version')
