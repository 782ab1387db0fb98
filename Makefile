# Every target works on a fresh machine: the first one that needs Python builds .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint docs docs-serve bench property-long clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## make run: play and print a demonstration game between bots (the HTTP referee replaces it later)
run: $(STAMP)
	$(BIN)/loveletter demo

## make test: lint, type-check, build the docs strictly, then every test (quick Hypothesis profile)
test: $(STAMP) lint docs
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict core events replays

docs: $(STAMP)
	$(BIN)/python docs/generate.py
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

docs-serve: $(STAMP)
	$(BIN)/python docs/generate.py
	$(BIN)/mkdocs serve

## make bench: the benchmarks of bench/, each prints its figures (see docs/performance.md)
bench: $(STAMP)
	$(BIN)/python bench/fold.py
	$(BIN)/python bench/games.py
	$(BIN)/python bench/determinism.py

## make property-long: the Hypothesis state machines with >= 10,000 examples each
property-long: $(STAMP)
	HYPOTHESIS_PROFILE=long $(BIN)/python -m pytest -p no:cacheprovider property_tests

clean:
	rm -rf $(VENV) site .mypy_cache .ruff_cache .hypothesis
