# The two commands of the README: `make run` and `make test`. Everything is installed into .venv,
# at the versions pinned in requirements.lock (`make lock` refreshes it from pyproject.toml).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test
export FLASK_APP := scorekeeper

LOCK := requirements.lock

.PHONY: run test check serve migrate lint bench translations i18n assets clean lock offline offline-files phone-app

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -c $(LOCK) --upgrade pip

# --no-compile: Python compiles a module when it is first imported and keeps it (.pyc), so pip's
# compiling of every installed file (mypy's and Babel's included, which nothing imports) was 11 s
# of the 25 s install, on one core.
PIP_INSTALL := $(BIN)/pip install --quiet --no-compile -c $(LOCK) --build-constraint $(LOCK)

$(STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(PIP_INSTALL) -e '.[postgres]'
	touch $@

$(TESTSTAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(PIP_INSTALL) -e '.[test]'
	touch $@ $(STAMP)

# Pin every dependency, the test tools, what builds the package ([build-system] requires) and pip
# itself, for CI and new machines alike. build-requirements.in is written from pyproject.toml.
lock: | $(BIN)/python
	$(BIN)/pip install --quiet uv
	$(BIN)/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], "pip", sep="\n")' > build-requirements.in
	$(BIN)/uv pip compile pyproject.toml build-requirements.in --extra test --universal --python-version 3.11 -q -o $(LOCK)
	rm build-requirements.in

translations: $(STAMP)
	$(BIN)/pybabel -q compile -d scorekeeper/translations

# After changing a user-facing string: refresh the catalogs, then translate what is new in
# scorekeeper/translations/{sv,de} (tests/web/test_translations.py fails until every string is).
i18n: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k lazy_gettext -k M -k tr -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel -q update -i scorekeeper/translations/messages.pot -d scorekeeper/translations

# The QR decoder a guest phone scans with where the browser has no BarcodeDetector (static/hut_scan.js):
# jsQR from the npm registry, pinned by its checksum as Pyodide is, unpacked into static/vendor/
# (not committed) before the static files are hashed, so the pages and the service worker name it.
JSQR_VERSION := 1.4.0
JSQR_SHA256 := b5299b37917a1fe7a8cab9dd5cc6b8accf82663add80abe5bf7761a921cc6602
JSQR_TGZ := build/jsqr-$(JSQR_VERSION).tgz
JSQR := static/vendor/jsQR.js

$(JSQR_TGZ):
	mkdir -p build
	cd build && npm pack --silent jsqr@$(JSQR_VERSION) >/dev/null
	echo "$(JSQR_SHA256)  $@" | sha256sum --check --quiet - || { rm -f $@; echo "jsqr $(JSQR_VERSION): checksum mismatch" >&2; exit 1; }

$(JSQR): $(JSQR_TGZ)
	mkdir -p static/vendor
	tar -xzOf $< package/dist/jsQR.js > $@.part && mv $@.part $@
	tar -xzOf $< package/LICENSE > static/vendor/jsQR.LICENSE

assets: $(STAMP) $(JSQR)
	$(BIN)/python -m scorekeeper.assets
	$(BIN)/python -m whitenoise.compress -q static

# A table kept on the phone alone (docs/architecture.md): Pyodide from the npm registry, pinned by
# its checksum, and the app's Python zipped and compiled for it; the app serves them under /offline/.
PYODIDE_VERSION := 314.0.7
PYODIDE_SHA256 := 66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0
PYODIDE_TGZ := build/pyodide-$(PYODIDE_VERSION).tgz
OFFLINE := build/offline
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
APP_SOURCES := $(shell find scorekeeper templates -name '*.py' -o -name '*.html' -o -name '*.md' -o -name '*.po' 2>/dev/null)
# The pack carries the hashed-asset manifest: a changed static file (app.js) renames its hashed
# copy, and a pack made before it would have the phone's pages ask for the old name.
ASSET_SOURCES := $(shell find static -path static/dist -prune -o -type f ! -name '*.gz' ! -name '*.br' -print 2>/dev/null)

$(PYODIDE_TGZ):
	mkdir -p build
	cd build && npm pack --silent pyodide@$(PYODIDE_VERSION) >/dev/null
	echo "$(PYODIDE_SHA256)  $@" | sha256sum --check --quiet - || { rm -f $@; echo "pyodide $(PYODIDE_VERSION): checksum mismatch" >&2; exit 1; }

$(OFFLINE)/pyodide.asm.wasm: $(PYODIDE_TGZ) $(STAMP) scorekeeper/offline/build.py
	rm -rf build/pyodide && mkdir -p build/pyodide $(OFFLINE)
	tar -xzf $< -C build/pyodide
	cd build/pyodide/package && cp $(PYODIDE_FILES) $(CURDIR)/$(OFFLINE)/
	$(BIN)/python -m scorekeeper.offline.build pyodide
	touch $@

# The pure-Python packages the app imports, from .venv (the lock's versions), as Pyodide's bytecode
# in a pack the service worker lays out itself (scorekeeper/offline/precompile.mjs).
$(OFFLINE)/site.pack: $(STAMP) $(OFFLINE)/pyodide.asm.wasm $(wildcard scorekeeper/offline/site/*.py) scorekeeper/offline/build.py scorekeeper/offline/precompile.mjs
	$(BIN)/python -m scorekeeper.offline.build site
	node scorekeeper/offline/precompile.mjs $(OFFLINE) build/phone-sources/site.zip /lib/site/ $@

$(OFFLINE)/app.pack: $(STAMP) $(OFFLINE)/pyodide.asm.wasm $(APP_SOURCES) $(ASSET_SOURCES) $(JSQR) scorekeeper/offline/precompile.mjs | translations assets
	$(BIN)/python -m scorekeeper.offline.build app
	node scorekeeper/offline/precompile.mjs $(OFFLINE) build/phone-sources/app.zip /lib/app/ $@

offline: offline-files
	$(BIN)/python -m scorekeeper.offline.build compress

# The files without their .br and .gz (which only a phone's download needs, not the tests: Chromium
# asks for brotli over https only, and a server sends the file itself where no .gz is beside it).
offline-files: $(OFFLINE)/site.pack $(OFFLINE)/app.pack
	rm -f $(OFFLINE)/site.zip $(OFFLINE)/app.zip $(OFFLINE)/site.zip.gz $(OFFLINE)/app.zip.gz
	$(BIN)/python -m scorekeeper.offline.build version

# A deploy's build step (bin/post_compile; README, "Production"): `offline` with the Python the
# platform installed the app into, not a .venv of its own. Needs node, npm and the network.
phone-app:
	$(MAKE) offline VENV="$$($(PYTHON) -c 'import sys; print(sys.prefix)')" STAMP=

# Migrates, prints the address and QR code for the phones, serves under gunicorn (scorekeeper/server.py).
run: $(STAMP) translations assets offline
	$(BIN)/python -m scorekeeper

# The phone's app too (`offline`), so the server offers tables kept on a phone alone.
serve: $(STAMP) translations assets offline
	$(BIN)/flask db upgrade
	$(BIN)/gunicorn --config gunicorn.conf.py 'scorekeeper:create_app()'

migrate: $(STAMP)
	$(BIN)/flask db upgrade

lint: $(TESTSTAMP)
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/mypy --strict scorekeeper/engine scorekeeper/cards.py scorekeeper/schemas scorekeeper/paths.py
	$(BIN)/lint-imports

# Both cores, every test in one run, the longest first (tests/conftest.py): a browser test fills
# the time a test without one waits (a server starting, a fuzzer's answers), and no run ends on one
# core while the other idles. Three workers were faster (`make test WORKERS=3`: the same tests 884
# -> 795 s; a clean clone 900 s), but in one run of four a hostile-names test waited 30 s in vain
# for the sheet its stream announces: not kept until that is understood (bench/README). (Two runs, without a browser and then with, once seemed needed: a worker's PostgreSQL
# stopped beside Chromium. The cause was another pytest session making
# /tmp/pytest-of-<user> 0700 under it, fixed since.) Each browser worker starts its own server
# and Chromium; `xdist_group` keeps what must share a worker together. The few tests that assert
# how fast something happens are marked `quiet` and run alone at the end, so a busy CPU cannot
# fail them. The 15 slowest tests are listed at the end of each run.
PYTEST := $(BIN)/python -m pytest --durations=15
WORKERS := 2
# Python may keep what it compiled: an environment that says not to (PYTHONDONTWRITEBYTECODE, set
# on this machine) made each test worker rewrite and compile all 460 test modules anew, 15 s of a
# core each, every run, and every server a test starts compile the app again.
unexport PYTHONDONTWRITEBYTECODE
# Lint runs beside the phone's build (`offline-files`), on the core its single-threaded steps leave
# idle. The build's compression for the download (brotli's best: 90 s of CPU on a clean build) is
# not run: no test needs a compressed copy (a server sends the file itself when there is none, and
# `offline-files` drops a changed file's old copies), three workers leave no idle core to do it in
# (beside the tests at nice 19 it still cost them 60 s), and `make run`, `make serve` and a deploy's
# build step do it (`offline`). tests/test_offline_build.py checks `compress` on small files.
# After lint, a collection alone writes the bytecode of every test module and what it imports:
# three workers that start at once each compiled it all otherwise (from a clean clone a worker's
# collection takes 18 s, 5 s once compiled). Only that: an error in it is the run's to report.
test: $(TESTSTAMP)
	$(MAKE) --no-print-directory offline-files & built=$$!; \
	$(MAKE) --no-print-directory lint && { $(BIN)/python -m pytest --collect-only -q >/dev/null || true; }; linted=$$?; \
	wait $$built && [ $$linted -eq 0 ]
	$(PYTEST) -n $(WORKERS) --dist loadgroup -m 'not quiet'
	$(PYTEST) -m quiet tests/browser

# The loop while you work: lint, types and every test that needs no browser, but for the
# `packaging` ones (the wheel built and installed into a fresh venv, the real server started, the
# OpenAPI fuzzer: the slowest tests of the suite), and with 15 examples a property instead of 60
# (the `check` profile, tests/conftest.py). `make test` runs everything as CI does.
check: $(TESTSTAMP) translations assets lint
	HYPOTHESIS_PROFILE=check $(PYTEST) -n 2 --dist loadgroup --ignore=tests/browser -m 'not packaging'

bench: $(TESTSTAMP)
	for f in bench/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build static/vendor
