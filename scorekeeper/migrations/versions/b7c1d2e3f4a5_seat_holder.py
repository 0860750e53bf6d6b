"""seat holder: which phone sits in a seat

Revision ID: b7c1d2e3f4a5
Revises: 6093668a6421
Create Date: 2026-11-24 08:45:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b7c1d2e3f4a5'
down_revision = '6093668a6421'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats') as batch_op:
        batch_op.add_column(sa.Column('holder', sa.String(length=32), nullable=True))


def downgrade():
    with op.batch_alter_table('seats') as batch_op:
        batch_op.drop_column('holder')
