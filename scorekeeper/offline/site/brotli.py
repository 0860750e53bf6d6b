"""The phone's ``brotli``: Flask-Compress imports it, but the phone's app never compresses.

The service worker hands the app no ``Accept-Encoding`` (its answers go straight to the page in
memory), so Flask-Compress never picks an algorithm and never calls this. Brotli itself is
compiled and Pyodide has no build of it.
"""

from __future__ import annotations

MODE_GENERIC = 0
MODE_TEXT = 1
MODE_FONT = 2


def compress(data: bytes, **_options: object) -> bytes:
    raise NotImplementedError("the phone's app answers uncompressed (no Accept-Encoding from the service worker)")


def decompress(data: bytes) -> bytes:
    raise NotImplementedError("the phone's app never reads brotli")
