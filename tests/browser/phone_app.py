"""The phone's own app answering a page in Chromium, for the tests of the phone's pages (the
``phone_app`` fixture in conftest.py)."""

from __future__ import annotations

import re
import sqlite3
from typing import Any
from urllib.parse import urlsplit

from scorekeeper.offline import phone


class PhoneApp:
    """The phone's own app (scorekeeper/offline/phone.py) run in this process, as the service
    worker runs it under Pyodide, answering a page's ``/phone/`` requests: the phone's pages in
    Chromium with no Pyodide. Tables are opened on it with ``opened``, put on the server with
    ``moved`` and made unreadable (kept from an older copy) with ``kept``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.host = urlsplit(url).netloc
        phone.open_phone(None, None, self.host)

    def opened(self, game: str, players: list[str]) -> str:
        form = f"game={game}&where=phone&" + "&".join(f"players={p}" for p in players)
        location = dict(phone.handle("POST", "/tables", "", {"Content-Type": "application/x-www-form-urlencoded"},
                                     form.encode())[1])["Location"]
        return str(location).rsplit("/", 1)[1]

    def moved(self, table_id: str) -> None:
        phone.moved(table_id, f"{self.url}/t/{table_id}/k/{'x' * 32}")

    def kept(self, table_id: str) -> None:
        """Started again on an older build's copy in which this table is of a game this build does
        not know: it is kept (listed on the home page), not opened."""
        older = sqlite3.connect(":memory:")
        older.deserialize(phone.snapshot()[0])
        older.execute("UPDATE tables SET game = 'tresette' WHERE id = ?", (table_id,))
        older.commit()
        older.execute("PRAGMA user_version = 0")
        phone.open_phone(older.serialize(), phone.snapshot()[1], self.host)

    def answer(self, route: Any) -> None:
        parts = urlsplit(route.request.url)
        path = parts.path.removeprefix("/phone") or "/"
        if path.startswith("/static/"):
            route.continue_(url=f"{self.url}{path}")
            return
        status, headers, body, _ = phone.handle(route.request.method, path, parts.query, dict(route.request.headers),
                                                route.request.post_data_buffer)
        if status in (301, 302, 303):  # followed here: Chromium does not route a fulfilled redirect's target
            target = urlsplit(dict(headers)["Location"])
            status, headers, body, _ = phone.handle("GET", target.path.removeprefix("/phone") or "/", target.query,
                                                    dict(route.request.headers), None)
        route.fulfill(status=status, headers=dict(headers), body=body)

    def serve(self, page: Any) -> None:
        """The page's requests under /phone/ answered by the phone's app."""
        page.route(re.compile(re.escape(self.url) + r"/phone/.*"), self.answer)
