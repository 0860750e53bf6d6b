"""Browser tests: Debian's Chromium driven by Playwright, Pixel-sized phones, the app served on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # No xdist group: under `pytest -n 2` browser tests spread over both workers like the rest, each
    # worker with its own server (a free port, a SQLite file under its own temp folder) and its own
    # Chromium. A test that needs a quiet CPU is marked `quiet` and runs alone afterwards (Makefile).
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session", autouse=True)
def _need_chromium() -> None:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        if IN_CI:
            pytest.fail("Chromium is required in CI (.ci/run installs it); /usr/bin/chromium is missing")
        pytest.skip("Chromium is not installed here (apt-get install chromium); browser tests are skipped")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]}


# A phone for a table's pages online, with no service worker. Online the worker hands a table's
# page and its requests through unchanged (templates/sw.js), but each phone installs it and
# downloads the phone's app (9 MB) into it, and every request goes through it: on this 2-core
# machine that was a fifth of the first-screen deals' time and a third of each page-fit sweep's.
# What it changes on a page is the home page's note that the phone's files are stored. The tests of
# the phone's app and the hut, test_table_platform, test_reconnect, the home-page sweep and
# test_at_the_table's move tapped offline keep the worker, so a table's page is still played through it.
NO_WORKER = {"service_workers": "block"}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict, playwright) -> dict:
    return {**browser_context_args, **playwright.devices["Pixel 7"]}


@pytest.fixture
def live_server(live_app: tuple[str, object]) -> str:
    return live_app[0]


# The server phones get: gunicorn with the project's settings (the gevent worker), one per test
# session on a SQLite file of its own; each test's tables are its own (ids are random). Streams
# rotate and phones reconnect faster than in production so the tests need not wait.
SERVER_ENV = {"SECRET_KEY": "browser", "SSE_PING_SECONDS": "2", "SSE_MAX_SECONDS": "60",
              "SSE_RETRY_JITTER_MS": "200"}


@pytest.fixture(scope="session")
def browser_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    from tests.servers import Server, migrate

    db_file = tmp_path_factory.mktemp("browser") / "b.sqlite"
    url = f"sqlite:///{db_file}"
    migrate(url)
    server = Server(url, **SERVER_ENV)
    yield server.base, db_file
    # Killed, not stopped: the session's pages are still open (Chromium closes after this), so their
    # streams come back as fast as the server ends them and a graceful stop waited its whole 5 s, at
    # the end of each run. Nothing of this throwaway database is read afterwards.
    server.kill()


def local_app(db_file: Path, base: str) -> object:
    """An app on the server's database, for a test that sets a table up without the browser."""
    from scorekeeper import create_app
    from scorekeeper.service import cache

    cache.clear()
    return create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_file}", "SECRET_KEY": "browser",
                       "PUBLIC_URL": base, "TESTING_NO_LISTENER": True, "RATELIMIT_ENABLED": False})


@pytest.fixture
def live_app(browser_server: tuple[str, Path]) -> tuple[str, object]:
    """The server's address, and an app on its database for setting tables up directly."""
    base, db_file = browser_server
    return base, local_app(db_file, base)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[object]:
    """A server of this test's own with ``env`` overriding the settings: ``serve(SSE_MAX_SECONDS="1")``."""
    from tests.servers import Server, migrate

    started: list[Server] = []

    def start(**env: str) -> str:
        url = f"sqlite:///{tmp_path / f's{len(started)}.sqlite'}"
        migrate(url)
        started.append(Server(url, **{**SERVER_ENV, **env}))
        return started[-1].base

    yield start
    for server in started:  # killed as browser_server's is: the test's pages may still be open
        server.kill()


@pytest.fixture
def phone_app(live_app: tuple[str, object]) -> Iterator[Any]:
    """The phone's own app in this process, on a fresh copy (tests/browser/phone_app.py)."""
    from scorekeeper.service import cache, facts_cache
    from tests.browser.phone_app import PhoneApp

    cache.clear()
    facts_cache.clear()
    yield PhoneApp(live_app[0])
    cache.clear()
    facts_cache.clear()
