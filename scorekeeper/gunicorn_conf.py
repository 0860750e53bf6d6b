"""gunicorn's configuration as a module (``--config python:scorekeeper.gunicorn_conf``), so an
installed wheel serves with the same settings as the repository's ``gunicorn.conf.py``."""

from scorekeeper.server import settings

globals().update(settings())
