# The two set-up commands: `make demo` and `make test`. Both bootstrap .venv from pyproject.toml.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: venv demo test test-corpus bench golden lint clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -m "not corpus" $(PYTEST_ARGS)

test-corpus: $(STAMP)
	$(BIN)/python -m pytest -q -m corpus tests/corpus tests/realapi $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/run.py

golden: $(STAMP)
	$(BIN)/python tests/golden/refresh.py

lint: $(STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/ruff format --check generator

clean:
	rm -rf $(VENV) build dist .pytest_cache
