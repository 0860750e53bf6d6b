"""The hut (issue 39) paired by camera: a guest scans the host's invite and the host scans the
guest's answer, with Chromium's fake camera showing each QR code (``--use-fake-device-for-media-stream``
with ``--use-file-for-fake-video-capture``). Each phone is a Chromium of its own, launched with the
file its camera shows. The host's offer is only known once it runs, so its code is drawn (the
``qrcode`` package's matrix, written as a YUV4MPEG2 video in plain Python) before the guest's
Chromium starts. The host's camera file is rewritten with the guest's answer once that exists:
Chromium opens the file each time a page starts the camera, not at launch.

As in test_hut.py, the app is stored for offline play and then the server is stopped: nothing
but the two phones takes part in the pairing. Debian's Chromium has no ``BarcodeDetector``, so
this is the vendored jsQR decoder reading the camera's frames."""

from __future__ import annotations

from pathlib import Path

import pytest
import qrcode
from playwright.sync_api import Browser, Locator, Page, Playwright, expect

from scorekeeper.offline.build import OUT, version
from scorekeeper.paths import STATIC
from tests.browser.conftest import CHROMIUM, IN_CI, SERVER_ENV
from tests.browser.test_hut import START, code_of, deal_mulle, phone, seq, tap_card

pytestmark = pytest.mark.skipif(
    not (STATIC / "vendor" / "jsQR.js").is_file() and not IN_CI,
    reason="the QR decoder is not vendored here (static/vendor/jsQR.js): `make assets` fetches it")
needs_phone_app = pytest.mark.skipif(
    version() is None and not IN_CI,
    reason=f"Pyodide and the app's zips are not built here ({OUT}): `make offline` fetches and builds them")

WIDTH, HEIGHT = 640, 480


def camera_file(text: str, path: Path, frames: int = 5) -> None:
    """A YUV4MPEG2 video (4:2:0, a few identical frames) of ``text`` as a QR code, black on white
    with its quiet zone, as big as the frame allows: what the fake camera shows the page."""
    code = qrcode.QRCode(border=4, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(text)
    code.make(fit=True)
    matrix = code.get_matrix()
    scale = min(WIDTH, HEIGHT) // len(matrix)
    assert scale >= 3, f"{len(matrix)} modules are too many for one {WIDTH}×{HEIGHT} frame"
    left, top = (WIDTH - len(matrix) * scale) // 2, (HEIGHT - len(matrix) * scale) // 2
    luma = bytearray(b"\xeb" * (WIDTH * HEIGHT))  # video white (235); black is 16
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = (top + r * scale + dy) * WIDTH + left + c * scale
                    luma[start:start + scale] = b"\x10" * scale
    chroma = b"\x80" * (2 * (WIDTH // 2) * (HEIGHT // 2))  # no colour
    frame = b"FRAME\n" + bytes(luma) + chroma
    path.write_bytes(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * frames)


def with_camera(playwright: Playwright, launch_args: dict, video: Path) -> Browser:
    args = [*launch_args.get("args", []), "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]
    return playwright.chromium.launch(**{**launch_args, "executable_path": CHROMIUM, "args": args})


def scan(box: Locator) -> None:
    """Tap Scan; the camera stops as soon as a code is read (or the scan fails)."""
    box.locator("#peer-scan").click()  # hidden while the scan lasts, Stop shown instead
    expect(box.locator("[data-peer-scan-stop]")).to_be_hidden(timeout=30_000)
    expect(box.locator("#peer-scan")).to_be_visible()
    expect(box.locator("#peer-video")).to_be_hidden()
    assert box.locator("#peer-video").evaluate("(v) => v.srcObject === null"), "the camera was left on"


def open_phone_table(host: Page) -> str:
    host.locator("input[name=game][value=mulle]").check()
    host.locator("#player0").fill("Anna")
    host.locator("#player1").fill("Bo")
    host.locator("input[name='where'][value='phone']").check()
    host.get_by_role("button", name="Open the table").click(no_wait_after=True)
    host.wait_for_url("**/phone/t/*", timeout=START)
    return host.url.rsplit("/", 1)[1]


@needs_phone_app
def test_a_guest_and_the_host_pair_by_scanning_each_others_codes(
        playwright: Playwright, browser_type_launch_args: dict, tmp_path: Path) -> None:
    from tests.servers import Server, migrate

    url = f"sqlite:///{tmp_path / 'hut.sqlite'}"
    migrate(url)
    server = Server(url, **SERVER_ENV)
    host_camera, guest_camera = tmp_path / "host.y4m", tmp_path / "guest.y4m"
    # What the host's camera shows first: a QR code that is no pairing code.
    camera_file("https://example.org/not-a-pairing-code", host_camera)
    browsers: list[Browser] = []
    try:
        browsers.append(with_camera(playwright, browser_type_launch_args, host_camera))
        _, host = phone(browsers[0], playwright, server.base)
        table = open_phone_table(host)
        invite = host.locator("#peer-invite")
        invite.locator("summary").click()
        offer = code_of(invite)
        camera_file(offer, guest_camera)
        browsers.append(with_camera(playwright, browser_type_launch_args, guest_camera))
        _, guest = phone(browsers[1], playwright, server.base)
    finally:
        server.kill()  # no server and no internet from here on (killed: a graceful stop waits 5 s on the phones)

    # The guest scans the host's invite: the code lands where a paste would, and is answered.
    guest.goto("/")  # from the service worker's cache
    join = guest.locator("#peer-join")
    join.locator("summary").first.click()
    expect(join.locator("#peer-scan")).to_be_enabled()
    scan(join)
    expect(join.locator("textarea#peer-code")).to_have_value(offer)
    answer = code_of(join)
    assert answer.startswith("1~A~"), answer

    # The host's camera first sees a QR code that is not an answer: the paste path's message.
    scan(invite)
    expect(invite.locator("[data-peer-status]")).to_have_text(
        "That is not an answer to this code. Paste the code the other phone shows after it read this one.")
    expect(invite.locator("[data-peer-guests]")).to_have_text("0")

    # Then it scans the guest's answer, and they are paired.
    camera_file(answer, host_camera)
    scan(invite)
    expect(invite.locator("[data-peer-guests]")).to_have_text("1", timeout=30_000)
    on_guest = guest.frame_locator("#hut-frame")
    mine = host.frame_locator("#hut-frame")
    expect(on_guest.locator("#sheet")).to_be_attached(timeout=30_000)
    assert on_guest.locator("a[href*='/history']").first.get_attribute("href") == f"/phone/t/{table}/history"

    # One sheet: the guest deals and trails, and the host's sheet follows.
    deal_mulle(on_guest)
    tap_card(on_guest, "5C")
    dealt = seq(on_guest)
    on_guest.locator("#confirm-move").click()
    expect(mine.locator("#sheet")).to_have_attribute("data-seq", str(dealt + 1), timeout=10_000)
    expect(mine.locator("#last-move")).to_contain_text("5♣")
    reads = [page.evaluate("() => window.scorekeeperScan.read") for page in (guest, host)]
    print(f"\nscan: guest {reads[0]}, host {reads[1]} (ms from the tap on Scan to the code read)")
    assert len(reads[0]) == 1 and len(reads[1]) == 2, reads
    if not guest.evaluate("() => 'BarcodeDetector' in window"):  # Debian's Chromium: the vendored decoder, from the cache
        assert {r["by"] for r in reads[0] + reads[1]} == {"jsQR"}, reads
    for browser in browsers:
        browser.close()


def test_a_phone_that_may_not_use_its_camera_is_told_so_and_can_still_paste(
        playwright: Playwright, browser_type_launch_args: dict, live_server: str, tmp_path: Path) -> None:
    camera = tmp_path / "camera.y4m"
    camera_file("1~O~x", camera)
    browser = with_camera(playwright, browser_type_launch_args, camera)
    try:
        context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", base_url=live_server)
        context.grant_permissions([], origin=live_server)  # no camera
        page = context.new_page()
        page.goto("/")
        join = page.locator("#peer-join")
        join.locator("summary").first.click()
        scan_button = join.locator("#peer-scan")
        box = scan_button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
        scan_button.click()
        expect(join.locator("[data-peer-scan-note]")).to_contain_text("may not use the camera")
        expect(join.locator("#peer-video")).to_be_hidden()
        for width in (390, 320):  # the box, its buttons and the message fit a small phone
            page.set_viewport_size({"width": width, "height": 740})
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            for hook in ("#peer-scan", "[data-peer-scan-note]", "[data-peer-connect]"):
                box = join.locator(hook).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (width, hook, box)
        # A build without the decoder, in a browser without BarcodeDetector: it says so, camera or not.
        if not page.evaluate("() => 'BarcodeDetector' in window"):
            join.locator("[data-peer-scanner]").evaluate("(s) => { s.dataset.decoder = ''; delete window.jsQR; }")
            scan_button.click()
            expect(join.locator("[data-peer-scan-note]")).to_contain_text("cannot read QR codes")
            expect(scan_button).to_be_visible()
        join.locator("textarea#peer-code").fill("not a code")
        join.get_by_role("button", name="Join").click()
        expect(join.locator("[data-peer-status]")).to_contain_text("That is not a table’s invite")
    finally:
        browser.close()
