# The two commands of the README: `make run` and `make test`. Everything is installed into .venv,
# at the versions pinned in requirements.lock (`make lock` refreshes it from pyproject.toml).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test
export FLASK_APP := scorekeeper

LOCK := requirements.lock

.PHONY: run test serve migrate lint bench translations i18n assets clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -c $(LOCK) --upgrade pip

$(STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/pip install --quiet -c $(LOCK) --build-constraint $(LOCK) -e '.[postgres]'
	touch $@

$(TESTSTAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/pip install --quiet -c $(LOCK) --build-constraint $(LOCK) -e '.[test]'
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

assets: $(STAMP)
	$(BIN)/python -m scorekeeper.assets
	$(BIN)/python -m whitenoise.compress -q static

# Migrates, prints the address and QR code for the phones, serves under gunicorn (scorekeeper/server.py).
run: $(STAMP) translations assets
	$(BIN)/python -m scorekeeper

serve: $(STAMP) translations assets
	$(BIN)/flask db upgrade
	$(BIN)/gunicorn --config gunicorn.conf.py 'scorekeeper:create_app()'

migrate: $(STAMP)
	$(BIN)/flask db upgrade

lint: $(TESTSTAMP)
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/mypy --strict scorekeeper/engine scorekeeper/cards.py scorekeeper/schemas scorekeeper/paths.py
	$(BIN)/lint-imports

# Browser tests run on their own after the rest, so a busy CPU cannot blur their timings.
test: $(TESTSTAMP) translations assets lint
	$(BIN)/python -m pytest -n 2 --dist loadgroup --ignore=tests/browser
	$(BIN)/python -m pytest tests/browser

bench: $(TESTSTAMP)
	for f in bench/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
