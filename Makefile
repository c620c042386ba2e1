# Two commands matter: `make demo` and `make test`. Both create .venv from the pinned lock first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: demo test lint typecheck bench fuzz golden reports corpus serve clean

$(STAMP): pyproject.toml requirements.lock
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -c requirements.lock -e '.[dev]'
	@touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install -q -c requirements.lock -e '.[dev,bench]'
	@touch $(BENCH_STAMP)

demo: $(STAMP)
	$(VENV)/bin/publish site/articles/kv-cache-ttft.yaml
	@echo "The site is in site/public/. To look at it: $(VENV)/bin/publish serve --root site, then open http://127.0.0.1:8000/"

test: $(STAMP)
	bash tools/system-deps.sh
	$(PY) -m pytest -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Regenerate golden files (figures per PDF, rendered HTML) after an intended change; review the diff.
golden: $(STAMP)
	$(PY) -m pytest --update-golden -q tests

# Regenerate the bundled example reports from their data files (deterministic bytes).
reports: $(STAMP)
	$(PY) tools/make_reports.py

# Regenerate the office-made test reports (LibreOffice and Chromium) and their expected figures; tests need neither.
corpus: $(STAMP)
	$(PY) tools/make_office_reports.py

bench: $(BENCH_STAMP)
	$(PY) tools/bench.py
	$(PY) tools/qc_accuracy.py
	$(PY) tools/bench_extract.py
	$(PY) tools/bench_drafts.py

fuzz: $(STAMP)
	PROOFPRESS_FUZZ_EXAMPLES=2000 $(PY) -m pytest -q tests -k fuzz

serve: $(STAMP)
	$(VENV)/bin/publish serve --root site

clean:
	rm -rf site/public site/.publish .pytest_cache .mypy_cache .ruff_cache
