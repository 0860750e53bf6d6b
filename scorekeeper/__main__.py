"""``python -m scorekeeper``: migrate, print where phones can reach the app (address and a text QR
code), and serve on all interfaces under gunicorn (``scorekeeper/server.py``: one worker on
SQLite, as ``make serve``). This is what ``make run`` does at the card table."""

from __future__ import annotations

import argparse
import os
import sys


def banner(url: str) -> str:
    import io

    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return f"\n  scorekeeper is running. On a phone on the same Wi-Fi, open:\n\n    {url}\n\n{out.getvalue()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scorekeeper")
    parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "5000")))
    parser.add_argument("--no-migrate", action="store_true")
    args = parser.parse_args(argv)

    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.web.lan import lan_address, public_base

    # This app only migrates and finds the address; the workers build their own.
    app = create_app({"TESTING_NO_LISTENER": True})
    if not args.no_migrate:
        with app.app_context():
            upgrade()
    url = public_base(app.config["PUBLIC_URL"], args.port, finder=lan_address,
                      fallback=f"http://127.0.0.1:{args.port}")
    print(banner(url + "/"), file=sys.stderr, flush=True)
    from scorekeeper.server import serve

    serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
