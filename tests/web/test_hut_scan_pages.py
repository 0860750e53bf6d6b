"""The hut's scanning (issue 39) on the server's side: the home page's join box offers the camera
and names the vendored QR decoder, which the service worker stores for a guest with no internet;
a build without the decoder says so on the page (static/hut_scan.js shows why it cannot scan) and
the worker lists nothing that would fail its install."""

from __future__ import annotations

import re

from scorekeeper import phone_pack
from scorekeeper.web import pwa


def _decoder_of(page: str) -> str:
    found = re.search(r'data-peer-scanner data-decoder="([^"]*)"', page)
    assert found, "no scanner in the join box"
    return found.group(1)


def test_the_join_box_offers_the_camera_and_the_worker_stores_its_decoder(client, monkeypatch) -> None:
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: "abc123")
    monkeypatch.setattr(pwa, "QR_DECODER", "muggins.wav")  # a static file the shell lacks stands in for jsQR
    page = client.get("/").text
    assert 'id="peer-scan"' in page and 'id="peer-video"' in page and "textarea id=\"peer-code\"" in page
    decoder = _decoder_of(page)
    assert decoder.startswith("/static/") and "muggins" in decoder
    assert client.get(decoder).status_code == 200
    worker = client.get("/sw.js").text
    assert worker.count(f'"{decoder}"') == 1  # in the shell list, stored with the app
    assert "hut_scan." in worker


def test_without_the_decoder_the_page_says_so_and_the_worker_lists_none(client, monkeypatch) -> None:
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: "abc123")
    monkeypatch.setattr(pwa, "QR_DECODER", "vendor/not-built.js")
    page = client.get("/").text
    assert _decoder_of(page) == "" and 'id="peer-scan"' in page
    assert "data-no-decoder=" in page
    assert "not-built" not in client.get("/sw.js").text
