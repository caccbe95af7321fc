# Quick start:  make play   (set up, then play Blackout against bots in the terminal)
#               make test   (set up, then run lint, types and the whole test suite)
#               make serve  (set up, then serve a Blackout table with bots; it prints the join command)
#               make web    (set up, then serve the browser client: open the address it prints)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
GAME ?= blackout
PORT ?= 8000

.PHONY: setup play serve web test lint jscheck bench bench-search clean

# setup.py builds the compiled search kernel (C++ in src/tricktaker/kernel/).
$(BIN)/tricktaker: pyproject.toml setup.py $(wildcard src/tricktaker/kernel/*.cpp src/tricktaker/kernel/*.hpp)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip==26.3
	$(BIN)/pip install --quiet -e '.[dev,server]'
	@touch $@

setup: $(BIN)/tricktaker

play: setup
	$(BIN)/tricktaker play $(GAME)

serve: setup
	$(BIN)/tricktaker serve --table $(GAME) --port $(PORT)

# serve prints the address to open once it listens (and says so if PORT is in use).
web: setup
	$(BIN)/tricktaker serve --port $(PORT)

# mypy checks the tests and benchmarks too, so it needs every extra they import.
lint: $(VENV)/.bench-installed
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

# The tests also run OpenSpiel (the bench extra), the baseline of the differential tests,
# the research environments (the envs extra: PettingZoo, Gymnasium; openspiel: the
# OpenSpiel game), Ray (the ray extra: a local two-CPU instance) and Parquet datasets.
$(VENV)/.bench-installed: $(BIN)/tricktaker
	$(BIN)/pip install --quiet -e '.[dev,server,bench,envs,openspiel,ray,datasets]'
	@touch $@

# The browser client's checks (src/tricktaker/web/static: plain ES modules, no build step,
# users need no Node): every file starts with `// @ts-check`, ESLint (eslint.config.js),
# and tsc --noEmit over the JSDoc types (tsconfig.json). package.json pins the tools;
# node_modules is made by npm ci from package-lock.json, again whenever either changes.
# It also holds axe-core, which the accessibility tests inject into the pages.
JS_FILES := $(wildcard src/tricktaker/web/static/*.js)
NODE_STAMP := node_modules/.tricktaker-npm-ci

$(NODE_STAMP): package.json package-lock.json
	@command -v node >/dev/null && command -v npm >/dev/null || { \
		echo "make jscheck needs Node 18.18+ and npm (Debian: apt-get install nodejs npm)" >&2; exit 1; }
	@node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 18 || (a === 18 && b >= 18) ? 0 : 1)' || { \
		echo "make jscheck needs Node 18.18 or newer, not $$(node --version)" >&2; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

jscheck: $(NODE_STAMP)
	@status=0; \
	missing="$$(for f in $(JS_FILES); do head -n 1 "$$f" | grep -qxF '// @ts-check' || echo "  $$f"; done)"; \
	if [ -n "$$missing" ]; then echo "jscheck: these files do not start with // @ts-check:"; echo "$$missing"; status=1; fi; \
	echo "eslint src/tricktaker/web/static"; \
	node_modules/.bin/eslint --max-warnings 0 src/tricktaker/web/static eslint.config.js || status=1; \
	echo "tsc -p tsconfig.json"; \
	node_modules/.bin/tsc -p tsconfig.json || status=1; \
	exit $$status

# jscheck first: it also installs axe-core (npm ci), which the accessibility tests inject.
# kernel-asan has run tests/kernel on the sanitizer build, the malformed-input test with
# them; the whole suite leaves that test out rather than build and run it a second time.
test: lint jscheck kernel-asan
	$(BIN)/pytest -n 2 --durations=30 \
		--deselect tests/kernel/test_malformed_inputs.py

# The compiled kernel built with AddressSanitizer and UndefinedBehaviorSanitizer, and its
# tests (tests/kernel) run on it. A Python extension needs the sanitizer runtimes loaded
# first (LD_PRELOAD); leak checks are off (CPython keeps memory until exit on purpose).
# Two workers: the malformed-input sweep, the longest, runs beside the others.
KERNEL_SOURCES := $(wildcard src/tricktaker/kernel/*.cpp)
KERNEL_ASAN := build/kernel-asan/_core.so
$(KERNEL_ASAN): $(KERNEL_SOURCES) $(wildcard src/tricktaker/kernel/*.hpp) $(BIN)/tricktaker
	mkdir -p $(dir $@)
	g++ -std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
		-fno-sanitize-recover=undefined -fPIC -shared \
		-I"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
		$(KERNEL_SOURCES) -o $@

kernel-asan: $(KERNEL_ASAN)
	LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
		TRICKTAKER_KERNEL_LIBRARY=$(KERNEL_ASAN) CI=true \
		$(BIN)/pytest -n 2 -q -p no:cacheprovider tests/kernel

bench: setup
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/throughput.py

bench-search: setup
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/search_speed.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	rm -f src/tricktaker/kernel/_core*.so
