# Every target works on a fresh machine: the first one that needs Python builds .venv.
PY ?= python3
# Python's bytecode caches are written as usual, even where the environment turns them off: without them every
# `loveletter` command, test server and worker compiles the whole package again (0.4 s of CPU a start).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test system lint docs docs-check docs-serve screenshots bench bench-api bench-hosts bench-startup bench-overload bench-lobby soak fuzz-api property-long mutation clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## make run: the HTTP referee on its embedded SQLite store at http://127.0.0.1:8000
run: $(STAMP)
	$(BIN)/loveletter serve

## make test: the system packages the tests need (chromium, PostgreSQL, curl: .ci/system-packages), lint, type-check,
## build the docs strictly, then every test (quick Hypothesis profile). None is skipped unless asked by name:
## LOVELETTER_SKIP=browser,postgres,curl,root make test
test: system $(STAMP) lint docs-check
	$(BIN)/python -m pytest -n 3 --dist worksteal -p no:cacheprovider --durations=20

## make system: install (as root) the Debian packages the tests need, or print the command that does
system:
	@bash .ci/system-packages

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict -p loveletter.core -p loveletter.events -p loveletter.replays -p loveletter.client -p loveletter.env -p loveletter.play -p loveletter.referee

docs: $(STAMP)
	$(BIN)/python docs/generate.py
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

## docs-check: the committed generated pages are current, and the site builds strictly
docs-check: $(STAMP)
	$(BIN)/python docs/generate.py --check
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

docs-serve: $(STAMP)
	$(BIN)/python docs/generate.py
	$(BIN)/mkdocs serve

## make screenshots: the web pages at 1280 wide and phone size, English and French, into docs/screenshots/
screenshots: $(STAMP)
	LOVELETTER_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -p no:cacheprovider tests/browser/test_web_screenshots.py tests/browser/test_viewer_screenshots.py
	LOVELETTER_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -p no:cacheprovider tests/browser/test_ladder_pages.py -k screenshots

## make bench: the benchmarks of bench/, each prints its figures (see docs/performance.md)
bench: $(STAMP)
	$(BIN)/python bench/fold.py
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/games.py
	$(BIN)/python bench/determinism.py
	$(BIN)/python bench/referee_inprocess.py
	$(BIN)/python bench/sqlite_commit.py
	$(BIN)/python bench/tournament.py

## make bench-api: the HTTP load test on SQLite (durable) and on PostgreSQL with two workers
bench-api: $(STAMP)
	$(BIN)/python bench/api_load.py --store sqlite --games 400 --concurrency 32
	$(BIN)/python bench/api_load.py --store postgres --workers 2 --games 400 --concurrency 32

## make bench-hosts: moves/s through HAProxy in front of two referees on one PostgreSQL, and straight to them
bench-hosts: $(STAMP)
	$(BIN)/python bench/balanced.py --games 300 --concurrency 32

## make bench-startup: start to first /healthz (median of 10 starts) and the app's own import time
bench-startup: $(STAMP)
	$(BIN)/python bench/startup.py --starts 10

## make bench-overload: 256 clients against the referee's default limits, then idle and slowloris connections
bench-overload: $(STAMP)
	$(BIN)/python bench/overload.py --clients 256 --duration 20

## make bench-lobby: issue 13's benchmarks: the lobby list with 100,000 games (SQLite, PostgreSQL), one game watched
## by 1,000 event streams, 1,000 running games with turn clocks (see docs/performance.md)
bench-lobby: $(STAMP)
	$(BIN)/python bench/lobby.py --store sqlite --games 100000
	$(BIN)/python bench/lobby.py --store postgres --games 100000
	$(BIN)/python bench/streams.py --streams 1000 --moves 40
	$(BIN)/python bench/clocks.py --sizes 10,100,1000 --turn 5 --turns 2

## make soak: mixed load with faults (SQLite SIGKILLs, PostgreSQL restarts, dropped clients), then checks that
## every acknowledged move is in the log and every log replays clean. SOAK_SECONDS=600 for longer.
SOAK_SECONDS ?= 180
soak: $(STAMP)
	$(BIN)/python bench/soak.py --duration $(SOAK_SECONDS)

## make fuzz-api: schemathesis against the referee's own OpenAPI document, every phase: no request may get a 5xx,
## every answer must conform to the document (make test runs a shorter run aimed at real games)
fuzz-api: $(STAMP)
	$(BIN)/python bench/fuzz_api.py

## make property-long: the Hypothesis state machines with >= 10,000 examples each
property-long: $(STAMP)
	HYPOTHESIS_PROFILE=long $(BIN)/python -m pytest -p no:cacheprovider property_tests

## make mutation: mutmut plants one bug at a time in all of core/ (4,858 mutants) and runs the tests that reach it,
## the state machines included (their derandomized `mutation` profile); docs/testing.md has the score and every
## survivor. About 35 minutes with two children on the 2-core machine. Prints when it starts and ends.
MUTATION_CHILDREN ?= 2
mutation: $(STAMP)
	$(BIN)/pip install --quiet 'mutmut>=3.8,<4'
	rm -rf mutants
	@date -u +"mutation run started at %H:%M:%S UTC"
	HYPOTHESIS_PROFILE=mutation $(BIN)/mutmut run --max-children $(MUTATION_CHILDREN)
	@date -u +"mutation run ended at %H:%M:%S UTC"
	$(BIN)/mutmut results

clean:
	rm -rf $(VENV) site .mypy_cache .ruff_cache .hypothesis mutants
