"""Extensions created unbound; ``create_app`` binds them (the flaskr/microblog pattern)."""

from flask_babel import Babel
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase

from scorekeeper import limits_storage  # noqa: F401  (registers the swept-memory:// storage)


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
babel = Babel()
compress = Compress()
csrf = CSRFProtect()
# Memory storage by default (swept-memory://: limits' memory:// without its timer thread per
# request); RATELIMIT_STORAGE_URI (e.g. redis://…) shares limits across workers.
limiter = Limiter(key_func=get_remote_address, default_limits=[])
