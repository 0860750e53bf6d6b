"""circles, circle_members, table_outcomes and tables.circle_id: the same players over many evenings

A circle keeps its tables (they expire with the circle, not after TABLE_EXPIRY_DAYS) and counts
standings from each finished table's outcome, stored once when the table finishes and worked out
again when the rules version changes, so a view never replays hundreds of tables (issue 38).

Revision ID: f6a7b8c9d0e1
Revises: e5f6a7b8c9d0
Create Date: 2026-11-28 09:00:00

"""
import sqlalchemy as sa
from alembic import op


revision = 'f6a7b8c9d0e1'
down_revision = 'e5f6a7b8c9d0'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'circles',
        sa.Column('id', sa.String(length=16), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('write_token', sa.String(length=64), nullable=False),
        sa.Column('read_token', sa.String(length=64), nullable=False),
        sa.Column('owner_token', sa.String(length=64), nullable=False),
        sa.Column('codes', sa.Integer(), server_default='0', nullable=False),
        sa.Column('last_setup', sa.JSON(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('owner_token'),
        sa.UniqueConstraint('read_token'),
        sa.UniqueConstraint('write_token'),
    )
    op.create_index('ix_circles_updated_at', 'circles', ['updated_at'], unique=False)
    op.create_table(
        'circle_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('circle_id', sa.String(length=16), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('aliases', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['circle_id'], ['circles.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('circle_id', 'name'),
    )
    op.create_table(
        'table_outcomes',
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('rules_version', sa.Integer(), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.Column('finished_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id'),
    )
    with op.batch_alter_table('tables') as batch_op:
        batch_op.add_column(sa.Column('circle_id', sa.String(length=16), nullable=True))
        batch_op.create_index('ix_tables_circle_id', ['circle_id'], unique=False)
        batch_op.create_foreign_key('fk_tables_circle_id', 'circles', ['circle_id'], ['id'])


def downgrade():
    with op.batch_alter_table('tables') as batch_op:
        batch_op.drop_constraint('fk_tables_circle_id', type_='foreignkey')
        batch_op.drop_index('ix_tables_circle_id')
        batch_op.drop_column('circle_id')
    op.drop_table('table_outcomes')
    op.drop_table('circle_members')
    op.drop_index('ix_circles_updated_at', table_name='circles')
    op.drop_table('circles')
