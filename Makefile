# The two set-up commands: `make demo` and `make test`. Both bootstrap .venv from pyproject.toml.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: venv demo test test-corpus test-services bench golden templates lint clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# Services the tests start themselves (a real redis-server on loopback for the Redis token store).
# Installed with apt where we are root; elsewhere the Redis tests skip and say why.
test-services:
	@command -v redis-server >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null) \
	  || echo "note: redis-server not installed; the Redis token store tests will be skipped"; }

test: $(STAMP) test-services
	$(BIN)/python -m pytest -q -n 2 -m "not corpus" $(PYTEST_ARGS)

test-corpus: $(STAMP)
	$(BIN)/python -m pytest -q -m corpus tests/corpus tests/realapi tests/audit/test_corpus_drafts.py tests/audit/eval $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/run.py

templates: $(STAMP)  ## templates/_compiled/: the templates compiled ahead (emit/_render.py)
	$(BIN)/python -m xcompleteness.emit._render

golden: $(STAMP)
	$(BIN)/python tests/golden/refresh.py

lint: $(STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/ruff format --check generator

clean:
	rm -rf $(VENV) build dist .pytest_cache
