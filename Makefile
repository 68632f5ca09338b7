# Two commands a user needs: `make pack` (install + build the example pack)
# and `make test` (install test tools + run the suite). Both are idempotent:
# the virtual environment is rebuilt only when pyproject.toml changes.
VENV   ?= .venv
PY     := $(VENV)/bin/python
SIXES  := $(VENV)/bin/sixes
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

.PHONY: pack test test-fast docs system-deps clean bench-print bench-floor bench-simulate bench-lint bench-tables bench-pack

pack: system-deps $(STAMP)
	$(SIXES) build --data data

# The linter and the type checker first (seconds; a type error fails the run
# before the suite's minutes), then the tests, which also need Chromium
# (headless, for the site) besides the PDF libraries. They run in
# TEST_WORKERS processes (pytest-xdist; one per core, at most 4), a test file
# to a process, so a file's shared fixtures are built once; the heaviest
# files first (tests/durations.json, refreshed by `pytest --store-durations`).
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -gt 4 ] && n=4; echo $$n)
test: $(TSTAMP)
	VENV=$(VENV) sh scripts/typecheck
	@sh scripts/install-system-deps --browser
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The inner loop's lane (tests/fast_lane.py lists its files): the rules,
# models, loading, fit and unit tests, where rendering a PDF, starting a
# browser or installing anything raises. Under 2 minutes on 2 cores; the
# whole suite is still `make test`.
test-fast: $(TSTAMP)
	$(PY) -m pytest --fast-lane -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# Print production timings on a synthetic 60- and 300-character game (see docs/pages/contributing/performance.md).
bench-print: $(STAMP)
	$(PY) benchmarks/bench_print.py

# The least any pipeline could spend on a one-character rebuild (see docs/pages/contributing/performance.md).
bench-floor: $(STAMP)
	$(PY) benchmarks/one_character_floor.py

# The GM report's faction brawls on the same synthetic games (see docs/pages/contributing/performance.md).
bench-simulate: $(STAMP)
	$(PY) benchmarks/bench_simulate.py

# What the print lint costs per document against rendering it (see docs/pages/contributing/performance.md).
bench-lint: $(STAMP)
	$(PY) benchmarks/bench_lint.py

# Tables of a name column and long rules, fixed against automatic layout (see docs/pages/contributing/performance.md).
bench-tables: $(STAMP)
	$(PY) benchmarks/bench_tables.py

# A pack's assembly with each rendered part parsed once per paper, against once per file (see docs/pages/contributing/performance.md).
bench-pack: $(STAMP)
	$(PY) benchmarks/bench_pack.py

# The project's documentation (docs/pages/, docs/mkdocs.yml) as a site in
# docs/_build/, strictly: a broken link fails it, as tests/test_docs_site.py does.
docs: $(STAMP)
	$(PY) -m mkdocs build --strict -f docs/mkdocs.yml

system-deps:
	@sh scripts/install-system-deps

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(TSTAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@

clean:
	rm -rf output docs/_build .pytest_cache .mypy_cache .ruff_cache
