# Two entry points on a fresh machine: `make demo` (main job) and `make test`.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test system-deps bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,demo]'
	touch $(STAMP)

system-deps:
	@bash scripts/system-deps

# A whole simulated table (shoe on a pseudo-terminal, embedded MQTT broker, simulated players
# and dealer) printing prompts, alerts and settled rounds until stopped with Ctrl-C.
demo: $(STAMP)
	$(VENV)/bin/croupier run --config config/blackjack-ru6.toml --rounds 1000000 --pace 0.3

test: $(STAMP) system-deps
	$(PY) -m pytest -q

# bench/devices.py runs the three devices_*.py measurements itself
bench: $(STAMP)
	for b in bench/*.py; do case $$b in bench/devices_*) ;; *) $(PY) $$b || exit 1;; esac; done
