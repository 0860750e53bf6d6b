"""Extensions created unbound; ``create_app`` binds them (the flaskr/microblog pattern).

Compression and migrations are the server's alone (``server_extensions``): the app on a phone
never imports them, nor Alembic, Mako and Pygments behind them.
"""

from flask_babel import Babel
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase

from scorekeeper.ratelimit import RateLimits


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
babel = Babel()
csrf = CSRFProtect()
# Per client address, memory storage by default (swept-memory://: limits' memory:// without its
# timer thread per request); RATELIMIT_STORAGE_URI (e.g. redis://…) shares limits across workers.
limiter = RateLimits()
