"""Tokens only where they must be (issue 40): the logs, whoever reads or ships them, open no table.

A real gunicorn with the app's own settings is asked what phones and clients ask (a join link, a
watch link, an event stream with ``?token=``, API reads), then its access and error logs are read.
The same redaction holds for an operator's own ``access_log_format``, gunicorn's error log, the
app's (Flask's) error log and the werkzeug development server's request log."""

from __future__ import annotations

import http.client
import json
import logging
import secrets
import threading
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from scorekeeper.redact import redact
from tests.servers import Server, migrate


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    body = response.read()  # an event stream ends by itself (SSE_MAX_SECONDS)
    conn.close()
    return response.status, dict(response.getheaders()), body


def test_the_servers_logs_and_metrics_hold_no_token(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'logs.sqlite'}"
    migrate(url)
    metrics_token = secrets.token_urlsafe(24)
    server = Server(url, logs=tmp_path, ACCESS_LOG="-", SSE_MAX_SECONDS="1", METRICS_TOKEN=metrics_token)
    try:
        status, table = server.request("POST", "/api/v1/tables", {"game": "scorepad", "players": ["A", "B"]})
        assert status == 201
        tid, write, read = table["id"], table["write_token"], table["read_token"]
        bearer = {"Authorization": f"Bearer {read}"}
        joined = _get(server.port, f"/t/{tid}/k/{write}")
        # Nor does the address leave in a Referer: from the link's answer on, the browser sends none.
        assert joined[1]["Referrer-Policy"] == "no-referrer" and joined[1]["Location"] == f"/t/{tid}"
        answers = {
            "join": joined[0],
            "watch": _get(server.port, f"/t/{tid}/k/{read}")[0],
            "wrong link": _get(server.port, f"/t/{tid}/k/{secrets.token_urlsafe(24)}")[0],
            "stream": _get(server.port, f"/api/v1/tables/{tid}/stream?token={read}")[0],
            "read": _get(server.port, f"/api/v1/tables/{tid}", bearer)[0],
            "read by query": _get(server.port, f"/api/v1/tables/{tid}?token={read}")[0],
            "export by query": _get(server.port, f"/api/v1/tables/{tid}/events?token={write}")[0],
        }
        scrape = _get(server.port, "/metrics", {"Authorization": f"Bearer {metrics_token}"})
    finally:
        server.stop()
    access = (tmp_path / "stdout.log").read_text()
    errors = (tmp_path / "stderr.log").read_text()
    secrets_sent = (write, read, metrics_token)
    assert not [s for s in secrets_sent if s in access or s in errors]
    assert f"GET /t/{tid}/k/… " in access and f"/api/v1/tables/{tid}/stream?token=… " in access
    assert f"/api/v1/tables/{tid}?token=… " in access
    assert "Booting worker" in errors  # the error log was read, not an empty file
    exposition = scrape[2].decode()
    assert scrape[0] == 200 and "scorekeeper_streams_open" in exposition
    assert not [s for s in (write, read, tid, "/t/", "/api/") if s in exposition]
    assert answers == {"join": 302, "watch": 302, "wrong link": 403, "stream": 200, "read": 200,
                       "read by query": 401, "export by query": 401}


@pytest.mark.parametrize(("raw", "shown"), [
    ("GET /t/abc123/k/" + "x" * 32 + " HTTP/1.1", "GET /t/abc123/k/… HTTP/1.1"),
    ("/t/abc123/k/short?lang=sv", "/t/abc123/k/…?lang=sv"),                # a wrong token is still one
    ("/t/abc123/o/" + "Y-_z" * 8, "/t/abc123/o/…"),                         # an owner link
    ("/t/abc123/owner/" + "Q" * 43 + "/x", "/t/abc123/owner/…/x"),          # any token-looking segment
    ("/api/v1/tables/abc123/stream?token=" + "t" * 32, "/api/v1/tables/abc123/stream?token=…"),
    ("/x?lang=de&owner_token=abc&Token=def#f", "/x?lang=de&owner_token=…&Token=…#f"),
    ("Authorization: Bearer " + "b" * 32, "Authorization: Bearer …"),
    ("/static/dist/app.3f2a9c1b4d5e.js /t/abc123 /rules/mulle", "/static/dist/app.3f2a9c1b4d5e.js /t/abc123 /rules/mulle"),
])
def test_redact(raw: str, shown: str) -> None:
    assert redact(raw) == shown


def _gunicorn_logger(tmp_path: Path, access_format: str | None = None) -> Any:
    from gunicorn.config import Config

    from scorekeeper.server import settings

    cfg = Config()
    for name, value in settings({"ACCESS_LOG": str(tmp_path / "access.log")}).items():
        if name in cfg.settings:
            cfg.set(name, value)
    cfg.set("errorlog", str(tmp_path / "error.log"))
    if access_format:
        cfg.set("access_log_format", access_format)
    return cfg.logger_class(cfg)


def _request(path: str, query: str, token: str) -> tuple[Any, Any, dict[str, str]]:
    uri = f"{path}?{query}" if query else path
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": uri, "PATH_INFO": path, "QUERY_STRING": query,
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.7", "HTTP_REFERER": f"http://h{uri}"}
    headers = [("Referer", f"http://h{uri}"), ("Authorization", f"Bearer {token}")]
    return SimpleNamespace(status="200 OK", sent=12, headers=[]), SimpleNamespace(headers=headers), environ


def test_an_operators_own_access_log_format_shows_no_token_either(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(24)
    custom = ('%(h)s "%(r)s" %(U)s %(q)s "%(f)s" %({referer}i)s %({authorization}i)s %({raw_uri}e)s '
              '%({query_string}e)s')
    records: list[logging.LogRecord] = []
    for access_format in (None, custom):
        logger = _gunicorn_logger(tmp_path, access_format)
        kept = logging.Handler()
        kept.emit = records.append  # type: ignore[method-assign]
        logger.access_log.addHandler(kept)  # as a structured (JSON) formatter would read the atoms
        for path, query in ((f"/t/abc123/k/{token}", ""), ("/api/v1/tables/abc123/stream", f"token={token}")):
            logger.access(*_request(path, query, token), timedelta(milliseconds=3))
        logger.exception("Error handling request %s", f"/t/abc123/k/{token}")  # as gunicorn's worker says it
        logger.access_log.removeHandler(kept)
        for log in (logger.access_log, logger.error_log):  # gunicorn's file handlers, on global loggers
            for handler in list(log.handlers):
                handler.close()
                log.removeHandler(handler)
    access, errors = (tmp_path / "access.log").read_text(), (tmp_path / "error.log").read_text()
    assert token not in access and token not in errors
    # the default format's request line and referer; the custom one's five and six places
    assert access.count("/t/abc123/k/…") == 2 + 5 and access.count("token=…") == 2 + 6
    assert "Error handling request /t/abc123/k/…" in errors
    assert records and not [r for r in records if token in json.dumps(dict(r.args), default=str)]


def test_the_apps_error_log_and_traceback_show_no_token(sqlite_app: Flask, monkeypatch, caplog) -> None:
    token = secrets.token_urlsafe(24)

    def broken(*_args: Any) -> None:
        raise RuntimeError(f"could not check /t/abc123/k/{token}")

    monkeypatch.setattr(sqlite_app.logger, "disabled", False)  # an earlier migration's fileConfig disables it
    sqlite_app.testing = False  # a real server's error: logged, answered 500
    sqlite_app.config["PROPAGATE_EXCEPTIONS"] = False
    table = sqlite_app.test_client().post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    monkeypatch.setattr("scorekeeper.service.capability", broken)
    with caplog.at_level(logging.ERROR):
        assert sqlite_app.test_client().get(f"/t/{table['id']}/k/{token}").status_code == 500
    shown = caplog.text
    assert f"Exception on /t/{table['id']}/k/… [GET]" in shown and "could not check /t/abc123/k/…" in shown
    assert token not in shown


def test_the_development_servers_request_log_shows_no_token(sqlite_app: Flask, monkeypatch, caplog) -> None:
    from werkzeug.serving import make_server

    monkeypatch.setattr(logging.getLogger("werkzeug"), "disabled", False)  # as above

    table = sqlite_app.test_client().post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    server = make_server("127.0.0.1", 0, sqlite_app)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            assert _get(server.port, f"/t/{table['id']}/k/{table['write_token']}")[0] == 302
    finally:
        server.shutdown()
        serving.join(5)
    assert f"GET /t/{table['id']}/k/… HTTP/1.1" in caplog.text and table["write_token"] not in caplog.text
