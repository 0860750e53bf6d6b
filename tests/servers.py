"""The app served as users get it: gunicorn with the project's own settings (the gevent worker,
``scorekeeper/server.py``) in a process of its own, for the tests that need a real server."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def migrate(url: str) -> None:
    code = ("from flask_migrate import upgrade; from scorekeeper import create_app; "
            "app = create_app({'TESTING_NO_LISTENER': True});\nwith app.app_context(): upgrade()")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env={**os.environ, "DATABASE_URL": url,
                                                                          "SECRET_KEY": "prod-test"})


class Server:
    """``gunicorn --config python:scorekeeper.gunicorn_conf 'scorekeeper:create_app()'`` on a free
    port; ``env`` overrides the environment (``WEB_CONCURRENCY``, ``SSE_MAX_STREAMS`` …)."""

    def __init__(self, url: str, workers: int = 1, port: int | None = None, logs: Path | None = None,
                 **env: str) -> None:
        self.url = url
        self.logs = logs  # a folder: the server's stdout (access log) and stderr (error log) land there
        self.workers = workers
        self.env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "prod-test",
                    "RATE_LIMIT_EVENTS": "100000 per minute", "RATE_LIMIT_CREATE": "10000 per minute",
                    "WEB_CONCURRENCY": str(workers), "ACCESS_LOG": ""}
        self._at(port or free_port(), env)
        if "SSE_MAX_STREAMS" not in env:  # sized by the server itself, as in production
            self.env.pop("SSE_MAX_STREAMS", None)
        for attempt in range(3):
            try:
                self.start()
                return
            except RuntimeError as exc:
                # The free port was taken before gunicorn bound it (another process's outgoing
                # connection drew it from the same ephemeral range; seen in CI): another port.
                if port is not None or attempt == 2 or "in use" not in str(exc):
                    raise
                self._at(free_port(), env)

    def _at(self, port: int, env: dict[str, str]) -> None:
        self.port = port
        self.env.update({"PUBLIC_URL": f"http://127.0.0.1:{port}", "PORT": str(port), "BIND": f"127.0.0.1:{port}"})
        self.env.update(env)  # what the test set wins

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90) -> None:
        out: Any = subprocess.DEVNULL
        err: Any = subprocess.PIPE
        if self.logs is not None:
            out, err = (open(self.logs / name, "ab") for name in ("stdout.log", "stderr.log"))  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "python:scorekeeper.gunicorn_conf",
             "scorekeeper:create_app()"],
            cwd=ROOT, env=self.env, stdout=out, stderr=err, start_new_session=True)
        if self.logs is not None:
            out.close()
            err.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        err = self.proc.stderr.read(4000).decode() if self.proc.stderr and self.proc.poll() is not None else ""
        self.stop()
        raise RuntimeError("server did not start: " + err)

    def request(self, method: str, path: str, body: dict | None = None, token: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        kind = response.getheader("Content-Type", "")
        return response.status, (json.loads(data) if data and kind.startswith("application/json") else {})

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self) -> None:
        """SIGTERM, as a deploy sends it; ``stop()`` then waits for the exit."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
