"""The address other phones can reach: ``PUBLIC_URL`` if set, else this machine's LAN address.

Never ``localhost``: a QR code that points a phone at itself is useless.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

# A UDP "connect" sends no packet; it only asks the kernel which interface would route there.
_PROBE_TARGETS = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def _route_address(target: str, make_socket: Callable[..., socket.socket] = socket.socket) -> str | None:
    sock = make_socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect((target, 1))
        return str(sock.getsockname()[0])
    except OSError:
        return None
    finally:
        sock.close()


def is_reachable_address(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def lan_address(make_socket: Callable[..., socket.socket] = socket.socket,
                hostname_lookup: Callable[[], list[str]] | None = None) -> str | None:
    """The first private, non-loopback IPv4 address of this machine, or None when there is none."""
    for target in _PROBE_TARGETS:
        address = _route_address(target, make_socket)
        if address and is_reachable_address(address):
            return address
    lookup = hostname_lookup or (lambda: socket.gethostbyname_ex(socket.gethostname())[2])
    try:
        candidates = lookup()
    except OSError:
        candidates = []
    for address in candidates:
        if is_reachable_address(address):
            return address
    return None


def public_base(public_url: str, port: int, scheme: str = "http", fallback: str | None = None,
                finder: Callable[[], str | None] = lan_address) -> str:
    """Base URL for QR codes and join links."""
    if public_url:
        return public_url.rstrip("/")
    address = finder()
    if address:
        host = f"[{address}]" if ":" in address else address
        default = 443 if scheme == "https" else 80
        return f"{scheme}://{host}" + ("" if port == default else f":{port}")
    return (fallback or f"{scheme}://127.0.0.1:{port}").rstrip("/")
