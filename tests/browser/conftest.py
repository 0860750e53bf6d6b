"""Browser tests: Debian's Chromium driven by Playwright, Pixel-sized phones, the app served on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = "/usr/bin/chromium"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group("browser"))


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


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict, playwright) -> dict:
    return {**browser_context_args, **playwright.devices["Pixel 7"]}


@pytest.fixture
def live_server(live_app: tuple[str, object]) -> str:
    return live_app[0]


@pytest.fixture
def live_app(tmp_path: Path) -> Iterator[tuple[str, object]]:
    """The app on a free loopback port; PUBLIC_URL points QR codes at it, so no traffic leaves 127.0.0.1."""
    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.service import cache

    cache.clear()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'b.sqlite'}", "SECRET_KEY": "browser",
                      "SSE_PING_SECONDS": 2.0, "SSE_MAX_SECONDS": 60.0})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_URL"] = url
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield url, app
    server.shutdown()
