#!/usr/bin/env bash
# Lighthouse (mobile) on the table page of a running app: category scores and every failing
# accessibility audit with the elements it failed on. Prints figures; asserts nothing.
#
#   bash bench/lighthouse.sh            # about a minute once Lighthouse is installed
#
# * Lighthouse 12 (13.x needs a newer Node than Debian's 20) is installed with npm into
#   $LIGHTHOUSE_DIR (default /tmp/scorekeeper-lighthouse), never into the repository.
# * Chromium is Debian's: CHROME_PATH=/usr/bin/chromium (apt-get install chromium).
# * The app runs under gunicorn (one gthread worker) on a free port of 127.0.0.1 with a throwaway
#   SQLite file, through a tiny launcher that sets SSE_MAX_SECONDS (no environment variable sets it)
#   so the table's event stream ends within a second instead of holding the page load open.
# * Two pages are audited, both as the phone that opened the table (session cookie sent with
#   --extra-headers): "fresh" — a new table, nobody seated yet (seat buttons, invite QR codes open);
#   "playing" — four players, a dozen entries, this phone seated (score sheet, chart, quick buttons).
# * Lighthouse 12 has no PWA category any more (removed in 12.0); performance, accessibility and
#   best-practices are run. JSON reports are kept in $LIGHTHOUSE_OUT (default: a temp folder).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$ROOT/.venv/bin/python}
BIN=$(dirname "$PY")
LH_DIR=${LIGHTHOUSE_DIR:-/tmp/scorekeeper-lighthouse}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
WORK=$(mktemp -d /tmp/scorekeeper-lh.XXXXXX)
OUT=${LIGHTHOUSE_OUT:-$WORK/reports}
mkdir -p "$OUT"

if [ ! -x "$LH_DIR/node_modules/.bin/lighthouse" ]; then
  echo "installing lighthouse@12 into $LH_DIR" >&2
  mkdir -p "$LH_DIR"
  npm install --prefix "$LH_DIR" --no-audit --no-fund --loglevel=error lighthouse@12 >&2
fi
LIGHTHOUSE="$LH_DIR/node_modules/.bin/lighthouse"
[ -x "$CHROME_PATH" ] || { echo "no Chromium at $CHROME_PATH (apt-get install chromium)" >&2; exit 1; }

PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export DATABASE_URL="sqlite:///$WORK/lh.sqlite" PUBLIC_URL="http://127.0.0.1:$PORT" SECRET_KEY="lighthouse-$RANDOM$RANDOM"
export RATE_LIMIT_CREATE="1000 per minute" PYTHONPATH="$WORK${PYTHONPATH:+:$PYTHONPATH}"

cat > "$WORK/lighthouse_app.py" <<'EOF'
"""The app as `make serve` builds it, but with event streams that end after LH_SSE_MAX_SECONDS."""
import os

from scorekeeper import create_app

seconds = float(os.environ.get("LH_SSE_MAX_SECONDS", "30"))
app = create_app({"SSE_MAX_SECONDS": seconds, "SSE_PING_SECONDS": min(15.0, max(seconds / 2, 0.1))})
EOF

"$PY" bench/bench_platform.py --prepare-static  # hashed copies and .gz/.br siblings, as `make assets`
"$BIN/pybabel" -q compile -d scorekeeper/translations 2>/dev/null || true
"$BIN/flask" --app scorekeeper db upgrade >/dev/null 2>&1

SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"  # the reports stay only when LIGHTHOUSE_OUT points elsewhere
}
trap cleanup EXIT
"$BIN/gunicorn" --config gunicorn.conf.py -k gthread --threads 16 -w 1 --no-control-socket \
  --graceful-timeout 3 -b "127.0.0.1:$PORT" --access-logfile "$WORK/access.log" \
  lighthouse_app:app >"$WORK/gunicorn.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
  if "$PY" -c "import urllib.request,sys; urllib.request.urlopen('$PUBLIC_URL/healthz', timeout=1)" 2>/dev/null; then break; fi
  sleep 0.1
done

# Open the two tables over HTTP as a phone would, and keep each phone's session cookie.
"$PY" - "$PUBLIC_URL" "$WORK/pages.tsv" <<'EOF'
import http.cookiejar, json, re, sys, urllib.parse, urllib.request

base, out = sys.argv[1], sys.argv[2]

def phone():
    jar = http.cookiejar.CookieJar()
    return jar, urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

def api(path, payload, token=None):
    req = urllib.request.Request(base + path, json.dumps(payload).encode(), {"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    return json.load(urllib.request.urlopen(req))

def join(table):
    jar, opener = phone()
    html = opener.open(f"{base}/t/{table['id']}/k/{table['write_token']}").read().decode()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return jar, opener, html, cookie

rows = []
fresh = api("/api/v1/tables", {"game": "scorepad", "players": ["Anna", "Bertil"]})
rows.append(("fresh", f"{base}/t/{fresh['id']}", join(fresh)[3]))

playing = api("/api/v1/tables", {"game": "scorepad", "players": ["Anna", "Bertil", "Cecilia", "David"]})
for i in range(12):
    api(f"/api/v1/tables/{playing['id']}/events",
        {"type": "points", "side": i % 4, "points": (5, 2, 10, 1)[i % 4], **({"note": "last hand"} if i == 5 else {})},
        playing["write_token"])
jar, opener, html, _ = join(playing)
token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
form = urllib.parse.urlencode({"csrf_token": token, "seat": "0"}).encode()
opener.open(urllib.request.Request(f"{base}/t/{playing['id']}/seat", form, {"Referer": f"{base}/t/{playing['id']}"}))
cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
page = opener.open(f"{base}/t/{playing['id']}").read().decode()
assert "Anna" in page and 'class="rounds"' in page and "seat-buttons" not in page, "the playing phone is not seated"
rows.append(("playing", f"{base}/t/{playing['id']}", cookie))
# Every game's table page as the phone that opened it (fishing games with a deal on the table).
games = {"mulle": [{"type": "deal", "dealer": 0, "table": ["5D", "9S", "KH", "AC"]},
                   {"type": "play", "player": 1, "card": "5C", "capture": ["5D"]}],
         "kasino": [{"type": "deal", "dealer": 0, "table": ["5D", "9S", "KH", "AC"]}],
         "mulatschak": [], "mousel": [], "muggins": []}
for game, events in games.items():
    players = ["Anna", "Bertil", "Cecilia"] if game in ("mulatschak", "muggins", "mousel") else ["Anna", "Bertil"]
    table = api("/api/v1/tables", {"game": game, "players": players})
    for event in events:
        api(f"/api/v1/tables/{table['id']}/events", event, table["write_token"])
    rows.append((game, f"{base}/t/{table['id']}", join(table)[3]))
with open(out, "w") as fh:
    for row in rows:
        fh.write("\t".join(row) + "\n")
EOF

echo "Lighthouse $("$LIGHTHOUSE" --version), $("$CHROME_PATH" --version 2>/dev/null | tail -1), mobile form factor, $(date '+%Y-%m-%d %H:%M')"
while IFS=$'\t' read -r name url cookie; do
  headers=$("$PY" -c 'import json,sys; print(json.dumps({"Cookie": sys.argv[1]}))' "$cookie")
  "$LIGHTHOUSE" "$url" --quiet --form-factor=mobile --screenEmulation.mobile \
    --only-categories=performance,accessibility,best-practices \
    --extra-headers="$headers" --output=json --output-path="$OUT/$name.json" \
    --chrome-flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run" \
    2>"$WORK/lighthouse-$name.log" || { echo "lighthouse failed on $name:"; tail -20 "$WORK/lighthouse-$name.log"; exit 1; }
  "$PY" - "$name" "$OUT/$name.json" <<'EOF'
import json, sys

name, path = sys.argv[1], sys.argv[2]
report = json.load(open(path))
cats = report["categories"]
scores = "  ".join(f"{c['title']} {c['score']:.2f}" if c["score"] is not None else f"{c['title']} n/a"
                   for c in cats.values())
print(f"\n{name}: {report['finalDisplayedUrl']}\n  {scores}")
if report.get("runWarnings"):
    for w in report["runWarnings"]:
        print(f"  warning: {w}")
target = 1.0
a11y = cats["accessibility"]["score"]
print(f"  target accessibility = {target:.1f}: {a11y:.2f}  {'PASS' if a11y is not None and a11y >= target else 'MISS'}")
audits = report["audits"]
for cat_id in ("accessibility", "best-practices", "performance"):
    failing = []
    for ref in cats[cat_id]["auditRefs"]:
        audit = audits[ref["id"]]
        if audit["scoreDisplayMode"] in ("binary", "numeric", "metricSavings") and audit["score"] is not None \
                and audit["score"] < (1 if cat_id != "performance" else 0.9) and (ref["weight"] or cat_id != "performance"):
            failing.append(audit)
    if cat_id == "performance":
        metrics = {k: audits[k]["displayValue"] for k in ("first-contentful-paint", "largest-contentful-paint",
                                                         "total-blocking-time", "cumulative-layout-shift",
                                                         "speed-index") if k in audits}
        print("  metrics: " + ", ".join(f"{k} {v}" for k, v in metrics.items()))
    if not failing:
        print(f"  {cat_id}: no failing audits" if cat_id != "performance" else "  performance: every weighted metric scores >= 0.9")
        continue
    print(f"  {cat_id}: failing audits")
    for audit in failing:
        print(f"    - {audit['id']} ({audit['score']}): {audit['title']}")
        details = audit.get("details") or {}
        for item in (details.get("items") or [])[:12]:
            node = item.get("node") or {}
            loc = item.get("sourceLocation") if isinstance(item.get("sourceLocation"), dict) else {}
            where = node.get("selector") or item.get("url") or loc.get("url") or ""
            if loc.get("url"):
                where += f":{loc.get('line', 0) + 1}:{loc.get('column', 0)}"
            snippet = (node.get("snippet") or "")[:140]
            explain = (node.get("explanation") or item.get("description") or "").replace("\n", " ")[:240]
            print(f"        {where}  {snippet}\n          {explain}" if explain else f"        {where}  {snippet}")
EOF
done < "$WORK/pages.tsv"
echo
if [ -n "${LIGHTHOUSE_OUT:-}" ]; then echo "JSON reports: $OUT"; else echo "(set LIGHTHOUSE_OUT=DIR to keep the JSON reports)"; fi
