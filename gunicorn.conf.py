"""gunicorn settings for the Procfile and `make serve`: the ones `make run` uses too, kept in
`scorekeeper/server.py` (which explains the worker and thread sizing for open event streams)."""

from scorekeeper.server import settings

globals().update(settings())
