"""A table kept on the phone alone (issue 27): what the phone downloads, a cached start, a verdict.

    .venv/bin/python bench/bench_offline.py [--runs 3] [--throttle 4]

Needs `make offline`. Serves the app on 127.0.0.1, opens it in Chromium (Pixel 7) online once so
the service worker stores Pyodide and the app, opens a Mulle table kept on the phone, then with
the page's CPU slowed down `--throttle` times over CDP (Emulation.setCPUThrottlingRate; the
service worker that runs Pyodide is not reachable that way from Playwright, so it runs at full speed
on a machine shared with other work):

* cached start: the service worker stopped (its Python gone), the table page reloaded until
  its sheet shows — Pyodide's start, the app's import, the snapshot loaded from IndexedDB, the
  log replayed through the engine, the page rendered. Target ≤ 3 s.
* a verdict: from a tap to the page settled with the answer — the preview of a selection (✔/✘
  with the rule) and a confirmed move (stored in IndexedDB before the answer). Target ≤ 150 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from scorekeeper.offline.build import OFFLINE_FILES, OUT, version  # noqa: E402

SETTLE = """(selector) => new Promise((resolve) => {
  const t0 = performance.now();
  document.addEventListener("htmx:afterSettle", () => resolve(performance.now() - t0), { once: true });
  document.querySelector(selector).click();
})"""


def download_sizes() -> list[tuple[str, int, int]]:
    rows = []
    for name in OFFLINE_FILES:
        raw = (OUT / name).stat().st_size
        packed = OUT / (name + ".gz")
        rows.append((name, raw, min(raw, packed.stat().st_size) if packed.exists() else raw))
    return rows


def serve() -> str:
    from scorekeeper import create_app
    from scorekeeper.extensions import db

    tmp = Path(tempfile.mkdtemp())
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'b.sqlite'}", "SECRET_KEY": "bench"})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_URL"] = url
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return url


def throttle(page, rate: float) -> None:  # type: ignore[no-untyped-def]
    """Slow the page down. Playwright's CDP sessions reach pages, not the service worker that runs
    Pyodide: its figures below are unthrottled (on a machine shared with other work)."""
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=4.0)
    args = parser.parse_args()
    if version() is None:
        sys.exit(f"nothing built in {OUT}: run `make offline` first")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    rows = download_sizes()
    print("what a phone downloads once for offline play (gzip as served; zips are stored deflated):")
    for name, raw, packed in rows:
        print(f"  {name:20s} {raw / 1e6:6.2f} MB  -> {packed / 1e6:6.2f} MB")
    print(f"  {'total':20s} {sum(r[1] for r in rows) / 1e6:6.2f} MB  -> {sum(r[2] for r in rows) / 1e6:6.2f} MB")

    url = serve()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        context = browser.new_context(**p.devices["Pixel 7"], locale="en-GB", base_url=url)
        context.set_default_timeout(300_000)
        page = context.new_page()
        t0 = time.perf_counter()
        page.goto("/")
        page.wait_for_selector("html[data-offline-ready='1']")
        print(f"first visit until data-offline-ready: {time.perf_counter() - t0:.1f} s (loopback)")
        page.locator("input[name=game][value=mulle]").check()
        page.locator("#player0").fill("Anna")
        page.locator("#player1").fill("Bo")
        page.locator("input[name='where'][value='phone']").check()
        t0 = time.perf_counter()
        page.get_by_role("button", name="Open the table").click(no_wait_after=True)
        page.wait_for_url("**/phone/t/*")
        print(f"first start (wasm compiled for the first time), unthrottled: {time.perf_counter() - t0:.1f} s")
        table = page.url
        context.set_offline(True)

        throttle(page, args.throttle)
        print(f"CPU throttled {args.throttle:g}x: the page only (the service worker is not reachable over CDP here)")
        cdp = context.new_cdp_session(page)
        cdp.send("ServiceWorker.enable")
        starts, stages = [], []
        for _ in range(args.runs):
            cdp.send("ServiceWorker.stopAllWorkers")
            time.sleep(0.5)
            t0 = time.perf_counter()
            page.goto(table)
            page.wait_for_selector("#sheet")
            starts.append(time.perf_counter() - t0)
            worker = context.service_workers[0] if context.service_workers else None
            stages.append(worker.evaluate("JSON.stringify(self.phoneBoot)") if worker else "?")
        print(f"cached start to a ready table (target <= 3 s): {', '.join(f'{s:.2f}' for s in starts)} s "
              f"(median {statistics.median(starts):.2f} s)")
        print(f"  stages inside the worker (ms from its start; last run): {stages[-1]}")

        page.get_by_label("Dealer").select_option("1")
        for code in ("5D", "9C", "4H", "AS"):
            page.locator(f"form.deal [data-card='{code}']").first.click()
        page.get_by_role("button", name="Start the deal").click()
        page.wait_for_selector("#confirm-move")
        previews, moves = [], []
        for card, taken in (("5C", ()), ("AH", ("AS", "9C", "5D")), ("5C", ("5C",))):
            page.locator(f"#card-chooser [data-rank='{card[:-1]}']").click()
            previews.append(page.evaluate(SETTLE, f"#card-chooser [data-card='{card}']"))
            for code in taken:
                previews.append(page.evaluate(SETTLE, f"#table-cards [data-card='{code}']"))
            moves.append(page.evaluate(SETTLE, "#confirm-move"))
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
        print(f"a selection's verdict (preview, tap to settled; target <= 150 ms): "
              f"median {statistics.median(previews):.0f} ms, max {max(previews):.0f} ms over {len(previews)}")
        print(f"a confirmed move (stored on the phone, sheet redrawn; target <= 150 ms): "
              f"{', '.join(f'{m:.0f}' for m in moves)} ms")
        browser.close()
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
