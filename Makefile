# Two entry points on a fresh machine: `make demo` (main job) and `make test`.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast system-deps demo-deps bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,demo]'
	touch $(STAMP)

system-deps:
	@bash scripts/system-deps

# Debian's postgresql for the demo's back office (the demo runs without it if it cannot be had).
demo-deps:
	@bash scripts/demo-deps

# A small simulated floor (embedded MQTT broker; blackjack, roulette and baccarat tables with
# simulated devices, players and dealer; a console per table, the pit dashboard and a back office
# on a throwaway PostgreSQL), printing each page's URL, the database's and the demo accounts,
# until stopped with Ctrl-C.
demo: $(STAMP) demo-deps
	$(VENV)/bin/croupier demo

# Lint (ruff), types (mypy, strict on controller/ and drivers/), then the suite.
test: $(STAMP) system-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(PY) -m pytest -q

# The inner loop (a few minutes): engines, codecs, parsers, the table core and the layering, with
# no broker, browser or database; `make test` stays the whole suite (and CI).
test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not slow" tests/unit tests/fuzz tests/test_layering.py tests/test_structure.py

# Every benchmark, one Markdown table and the machine line (bench/report.py; README "Figures");
# `make test` runs each once with tiny parameters (tests/bench).
# The full run generates a 1M-entry journal once (about 150 s); `make bench BENCH_ARGS=--quick`
# stops at 100k entries and takes a few minutes.
bench: $(STAMP)
	$(PY) bench/report.py $(BENCH_ARGS)
