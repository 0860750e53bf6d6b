"""The extensions only a server binds: compressed answers and ``flask db`` migrations. Kept apart
from ``extensions`` so that the app on a phone (``offline/phone.py``), which has neither, does not
import Flask-Compress, Flask-Migrate and Alembic (with Mako and Pygments): a sixth of the memory
its snapshot holds, read back at every start."""

from flask_compress import Compress
from flask_migrate import Migrate

migrate = Migrate()
compress = Compress()
