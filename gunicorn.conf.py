"""gunicorn settings for the Procfile and `make serve`: the ones `make run` uses too, kept in
`scorekeeper/server.py` (which explains the gevent worker and the stream cap)."""

from scorekeeper.server import settings

globals().update(settings())
