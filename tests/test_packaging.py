"""What a deploy gets: ``make run`` serves under gunicorn, and ``pip install .`` (not editable) into
a clean virtualenv serves a whole table — pages, static files, translations, migrations, rule books
and, built by ``make offline`` before the wheel, the phone's app for a table kept on the phone alone.

The wheel is built from a copy of the sources without anything ``make`` generates (no ``.mo``,
no hashed or compressed static files), as a fresh clone would be.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.packaging, pytest.mark.xdist_group("packaging")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(port: int, method: str, path: str, body: dict | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    text = response.read().decode("utf-8", "replace")
    conn.close()
    return response.status, text


class Running:
    """``<python> -m scorekeeper`` — what ``make run`` starts — on a free port, in its own folder."""

    def __init__(self, python: Path, workdir: Path, **env: str) -> None:
        self.port = free_port()
        clean = {k: v for k, v in os.environ.items() if k not in {"PUBLIC_URL", "DATABASE_URL", "PYTHONPATH"}}
        self.log = workdir / f"serve-{self.port}.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [str(python), "-m", "scorekeeper", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=workdir, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                env={**clean, "SECRET_KEY": "packaging",
                     "DATABASE_URL": f"sqlite:///{workdir / 'serve.sqlite'}", **env})

    def wait_until_up(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.output()}")
            try:
                if request(self.port, "GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"the server did not answer: {self.output()}")

    def output(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[list[Running]]:
    started: list[Running] = []
    yield started
    for server in started:
        server.stop()


def plays_a_table(port: int) -> None:
    """Pages, static files, the API, a move, a translated page, a rule book."""
    status, created = request(port, "POST", "/api/v1/tables", {"game": "mulle", "players": ["Anna", "Bo"]})
    assert status == 201, created
    table = json.loads(created)
    auth = {"Authorization": f"Bearer {table['write_token']}"}
    status, body = request(port, "POST", f"/api/v1/tables/{table['id']}/events",
                           {"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]}, auth)
    assert status == 201, body
    status, page = request(port, "GET", "/")
    assert status == 200 and "<html" in page

    css = re.search(r'href="/static/(dist/app\.[0-9a-f]{12}\.css)"', page)  # hashed at build time
    assert css, page[:500]
    css = css.group(1)
    assert request(port, "GET", "/static/" + css)[0] == 200
    german = request(port, "GET", "/", headers={"Accept-Language": "de"})[1]
    assert 'lang="de"' in german and german != page
    status, sheet = request(port, "GET", urlsplit(table["join_url"]).path)
    assert status in (200, 302), sheet[:300]
    status, book = request(port, "GET", "/rules/mulle")
    assert status == 200 and "MULLE-CAP-4" in book
    status, swedish = request(port, "GET", "/rules/mulle?lang=sv")
    assert status == 200 and "MULLE-CAP-4" in swedish and swedish != book


def test_make_run_serves_under_gunicorn_with_the_banner(tmp_path: Path, serving: list[Running]) -> None:
    server = Running(Path(sys.executable), tmp_path, PUBLIC_URL="http://192.0.2.10:5000")
    serving.append(server)
    server.wait_until_up()
    plays_a_table(server.port)
    text = server.output()
    assert "scorekeeper is running. On a phone on the same Wi-Fi, open:" in text
    assert "http://192.0.2.10:5000/" in text and "█" in text  # the address and its QR code
    assert "Starting gunicorn" in text and "Using worker: scorekeeper.worker.StreamWorker" in text  # gevent
    assert "development server" not in text and "Do not use it in a production" not in text


def _copy_sources(target: Path) -> Path:
    """The repository as a fresh clone has it: nothing that ``make`` or a build generates."""
    generated = shutil.ignore_patterns(".venv", ".git", "build", "instance", "*.egg-info", "__pycache__",
                                       ".*_cache", ".hypothesis", "test-results", "node_modules",
                                       "*.mo", "*.gz", "*.br", "dist")
    shutil.copytree(ROOT, target, ignore=generated)
    return target


def _build_wheel(source: Path, out: Path, *extra: str, env: dict[str, str] | None = None,
                 check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", *extra, "-w", str(out),
                           str(source)], check=check, cwd=out.parent, capture_output=not check, text=True,
                          env={**os.environ, **(env or {})})


PACK = ROOT / "build" / "offline"
PINNED = ("--build-constraint", str(ROOT / "requirements.lock"))  # the build backend at the lock's versions


def _with_phone_pack(source: Path) -> None:
    """What `make offline` leaves in a checkout: the wheel carries it (setup.py)."""
    if not (PACK / "version.json").exists():
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(f"{PACK} is not built: `make test` runs `make offline` first")
        pytest.skip(f"{PACK} is not built here: `make offline` fetches Pyodide and builds it")
    shutil.copytree(PACK, source / "build" / "offline")


def plays_a_phone_table_with_the_server_stopped(server: Running) -> None:
    """The installed wheel's server hands the phone its app; then it is stopped, and a table kept
    on the phone alone is opened and played from the service worker's cache (tests/browser)."""
    from playwright.sync_api import expect, sync_playwright

    from tests.browser.conftest import CHROMIUM
    from tests.browser.test_offline_table import START, open_on_phone, tap_card

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        context = browser.new_context(**p.devices["Pixel 7"], locale="en-GB",
                                      base_url=f"http://127.0.0.1:{server.port}")
        context.set_default_timeout(60_000)
        page = context.new_page()
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("data-offline-ready", "1", timeout=START)
        server.kill()  # no server from here on: the pages and the app come from the phone's cache
        page.reload()
        open_on_phone(page, "mulle")
        page.get_by_label("Dealer").select_option("1")
        for code in ("5D", "9C", "4H", "AS"):
            page.locator(f"form.deal [data-rank='{code[:-1]}']").first.click()
            page.locator(f"form.deal [data-card='{code}']").first.click()
        page.get_by_role("button", name="Start the deal").click()
        expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
        tap_card(page, "KH")
        page.locator("#table-cards [data-card='4H']").click()
        expect(page.locator("form.move .preview a.rule")).to_have_text("MULLE-CAP-4")  # the engine's refusal
        page.locator("#table-cards [data-card='4H']").click()
        tap_card(page, "5C")
        page.locator("#confirm-move").click()
        expect(page.get_by_text("Bo to play")).to_be_visible()
        context.close()
        browser.close()


def test_the_wheel_installs_into_a_clean_venv_and_serves_a_table(tmp_path: Path, serving: list[Running]) -> None:
    source = _copy_sources(tmp_path / "src")
    assert not list(source.rglob("*.mo")) and not (source / "static" / "dist").exists()
    _with_phone_pack(source)
    wheels = tmp_path / "wheels"
    _build_wheel(source, wheels, *PINNED)
    (wheel,) = wheels.glob("scorekeeper-*.whl")

    env_dir = tmp_path / "venv"
    # No pip of its own (ensurepip was 5 s): this project's pip installs into it (`--python`), and
    # compiles nothing, as `make` installs (Python compiles what it imports).
    venv.create(env_dir, with_pip=False, symlinks=True)
    python = env_dir / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-compile",
                    "-c", str(ROOT / "requirements.lock"), str(wheel)], check=True, cwd=tmp_path)

    run = tmp_path / "run"  # away from the checkout, so only the installed package can be imported
    run.mkdir()
    where = subprocess.run([str(python), "-c", "import scorekeeper, importlib.util as u; print(scorekeeper.__file__); "
                            "print(u.find_spec('psycopg') is None)"],
                           cwd=run, check=True, capture_output=True, text=True).stdout.split()
    assert where[0].startswith(str(env_dir)) and where[1] == "True"  # installed; no PostgreSQL driver

    server = Running(python, run, PUBLIC_URL="http://192.0.2.10:5000")
    serving.append(server)
    server.wait_until_up()
    plays_a_table(server.port)
    assert "Starting gunicorn" in server.output()
    # The wheel carries the phone's app (`make offline` built it before the wheel): the create
    # form offers a table kept on the phone, and the phone stores its app from this server.
    home = request(server.port, "GET", "/")[1]
    assert 'value="phone"' in home and 'id="no-phone"' not in home

    # PostgreSQL without its extra: a clear message, not an ImportError deep inside SQLAlchemy.
    refused = subprocess.run([str(python), "-m", "scorekeeper", "--no-migrate"], cwd=run, capture_output=True,
                             text=True, timeout=60,
                             env={**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"})
    assert refused.returncode != 0
    assert "pip install 'scorekeeper[postgres]'" in refused.stderr

    plays_a_phone_table_with_the_server_stopped(server)


def test_a_wheel_is_not_built_with_a_phone_pack_of_other_sources(tmp_path: Path) -> None:
    """A pack made before a change to the pages would have the phone ask for hashed static files
    the wheel's server does not have: the build stops and says what to run; with no pack at all it
    builds a server-only wheel, or stops when a deploy requires the phone's app."""
    source = _copy_sources(tmp_path / "src")
    _with_phone_pack(source)
    page = source / "templates" / "offline.html"
    page.write_text(page.read_text() + "\n<!-- changed after make offline -->\n")
    stale = _build_wheel(source, tmp_path / "stale", *PINNED, check=False)
    assert stale.returncode != 0
    assert "was built from other sources than these (templates/offline.html)" in stale.stderr
    assert "run `make offline` again" in stale.stderr

    shutil.rmtree(source / "build")
    required = _build_wheel(source, tmp_path / "none", *PINNED, check=False,
                            env={"SCOREKEEPER_PHONE_PACK": "required"})
    assert required.returncode != 0 and "is not built (`make offline`)" in required.stderr


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if match := re.match(r"([A-Za-z0-9_.-]+)==([^ ;]+)", line):
            pins[match[1].lower().replace("_", "-")] = match[2]
    return pins


def test_the_lock_pins_what_builds_the_package_and_what_runs_it() -> None:
    """A fresh machine builds with the same setuptools/babel/whitenoise as CI, not the newest ones."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = _pins()
    wanted = [*project["build-system"]["requires"], *project["project"]["dependencies"],
              *project["project"]["optional-dependencies"]["postgres"], "pip"]
    names = {re.match(r"[A-Za-z0-9_.-]+", spec)[0].lower().replace("_", "-") for spec in wanted}  # type: ignore[index]
    assert not {name for name in names if name not in pins}, "make lock after changing pyproject.toml"
    makefile = (ROOT / "Makefile").read_text()
    # Both installs (the app's, the tests') build with the pinned backend.
    install = re.search(r"^PIP_INSTALL := (.*)$", makefile, re.MULTILINE)
    assert install and "--build-constraint $(LOCK)" in install[1] and "-c $(LOCK)" in install[1]
    assert makefile.count("\t$(PIP_INSTALL) -e '.[") == 2
