# Two entry points on a fresh machine: `make demo` (main job) and `make test`.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test system-deps bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

system-deps:
	@bash scripts/system-deps

demo: $(STAMP)
	$(VENV)/bin/croupier house-edge blackjack --preset ru6 --rounds 200000

test: $(STAMP) system-deps
	$(PY) -m pytest -q

bench: $(STAMP)
	for b in bench/*.py; do $(PY) $$b; done
