"""Web fixtures: a fresh app and database per test, on SQLite and on a real throwaway PostgreSQL."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.service import cache, facts_cache

HERE = Path(__file__).resolve().parent.parent
PG_CTL = str(HERE / "pg_ctl_as_postgres.sh")
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def postgres_available() -> bool:
    return bool(list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))) or shutil.which("pg_ctl") is not None


def socket_dir() -> str:
    """Where the throwaway PostgreSQL puts its socket: a folder of its own that the server's user
    may write (tests/pg_ctl_as_postgres.sh runs it as `postgres` when the tests run as root), not
    the temp dir itself, which a TMPDIR of root's own (755) is not: both workers' servers then
    failed to start, and 247 tests errored."""
    import tempfile

    path = Path(tempfile.gettempdir()) / "scorekeeper-pg-sockets"
    path.mkdir(exist_ok=True)
    path.chmod(0o1777)  # sticky, like /tmp: each server its own socket and lock files, by port
    return str(path)


try:
    from pytest_postgresql import factories

    postgresql_proc = factories.postgresql_proc(executable=PG_CTL, port=None, unixsocketdir=socket_dir())
    postgresql = factories.postgresql("postgresql_proc")
except ImportError:  # pragma: no cover - the test extra installs it
    factories = None


def need_postgres() -> None:
    if factories is None or not postgres_available():
        if IN_CI:
            pytest.fail("PostgreSQL is required in CI (.ci/run installs it); it is missing")
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql); its tests are skipped")


def wait_until_listening(dsn: str, application_name: str, seconds: float = 30.0) -> None:
    """Until the listener that connected as ``application_name`` has run its LISTEN: a NOTIFY
    before that reaches nobody. A fixed sleep stood for this, and a loaded machine outslept it."""
    import psycopg

    deadline = time.monotonic() + seconds
    with psycopg.connect(dsn, autocommit=True) as conn:
        while not conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                               "AND state = 'idle' AND query LIKE 'LISTEN %%'", (application_name,)).fetchone()[0]:
            assert time.monotonic() < deadline, f"the listener {application_name} is not listening after {seconds} s"
            time.sleep(0.02)


def make_app(url: str, **extra: Any) -> Flask:
    cache.clear()
    facts_cache.clear()
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "PUBLIC_URL": "http://192.0.2.10:5000",
                      "SECRET_KEY": "test", "TESTING_NO_LISTENER": True,
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, **extra})
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture(scope="session")
def shared_postgresql(request: pytest.FixtureRequest) -> str:
    """One database of this worker's throwaway server for every ``app`` on PostgreSQL, emptied
    before each test (``empty``). A database made from the template and dropped again for each
    of 250 tests was a third of a second each (those tests on two cores: 80.6 s, now 48.3 s). A test that
    needs a database of its own (several servers, migrations) takes ``postgresql`` itself."""
    need_postgres()
    import psycopg

    proc = request.getfixturevalue("postgresql_proc")
    with psycopg.connect(host=proc.host, port=proc.port, user=proc.user, dbname="postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE app_tests")
    return f"postgresql+psycopg://{proc.user}@{proc.host}:{proc.port}/app_tests"


def empty(app: Flask) -> None:
    """Every table of the shared database emptied, as a fresh database is. Whatever the last test
    left connected (a listener thread) is cut off first, as dropping its database did."""
    from sqlalchemy import text

    with app.app_context():
        db.session.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
        names = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
        db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        db.session.commit()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    if request.param == "sqlite":
        application = make_app(f"sqlite:///{tmp_path / 'test.sqlite'}")
    else:
        application = make_app(request.getfixturevalue("shared_postgresql"))
        empty(application)
    yield application
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    application = make_app(f"sqlite:///{tmp_path / 'test.sqlite'}")
    yield application
    with application.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Api:
    """A thin client for the JSON API, so tests read like the contract."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def create(self, game: str = "scorepad", players: list[str] | None = None, **body: Any) -> Any:
        return self.client.post("/api/v1/tables", json={"game": game, "players": players or ["Anna", "Bo"], **body})

    def table(self, **body: Any) -> dict[str, Any]:
        response = self.create(**body)
        assert response.status_code == 201, response.json
        data: dict[str, Any] = response.json
        return data

    def post(self, table: dict[str, Any], event: dict[str, Any], token: str | None = None) -> Any:
        return self.client.post(f"/api/v1/tables/{table['id']}/events", json=event,
                                headers={"Authorization": f"Bearer {token or table['write_token']}"})

    def get(self, table: dict[str, Any], token: str | None = None) -> Any:
        return self.client.get(f"/api/v1/tables/{table['id']}",
                               headers={"Authorization": f"Bearer {token or table['read_token']}"})

    def undo(self, table: dict[str, Any], token: str | None = None) -> Any:
        return self.client.post(f"/api/v1/tables/{table['id']}/undo",
                                headers={"Authorization": f"Bearer {token or table['write_token']}"})

    def events(self, table: dict[str, Any]) -> Any:
        return self.client.get(f"/api/v1/tables/{table['id']}/events",
                               headers={"Authorization": f"Bearer {table['read_token']}"})


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)
