"""Join and watch links, and their QR codes (SVG, no Pillow; cached per link)."""

from __future__ import annotations

from functools import lru_cache

from flask import current_app, request, url_for

from scorekeeper.models import Table
from scorekeeper.web.lan import lan_address, public_base


@lru_cache(maxsize=1)
def _lan() -> str | None:
    return lan_address()


def base_url() -> str:
    host = request.host
    port_text = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else ""
    port = int(port_text) if port_text.isascii() and port_text.isdigit() and len(port_text) <= 5 else (443 if request.scheme == "https" else 80)
    return public_base(current_app.config.get("PUBLIC_URL", ""), port, request.scheme,
                       fallback=request.host_url, finder=_lan)


def join_url(table: Table) -> str:
    return base_url() + url_for("tables.enter", table_id=table.id, token=table.write_token)


def watch_url(table: Table) -> str:
    return base_url() + url_for("tables.enter", table_id=table.id, token=table.read_token)


@lru_cache(maxsize=1024)
def qr_svg(url: str) -> str:
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg: str = image.to_string(encoding="unicode")
    return svg
