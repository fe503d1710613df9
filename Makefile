# The commands of the README: `make table`, `make run` and `make test`.
# Both set up everything they need on a fresh Debian machine with Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
STAMP := $(VENV)/.installed
# The message catalogs: each language's .po is committed, its .mo is built here.
TRANSLATIONS := scorer/translations
# Click's own words ("Usage:", "Options") are a domain of their own, click.po (scorer/i18n.py).
CATALOGS := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po $(TRANSLATIONS)/*/LC_MESSAGES/click.po)
COMPILED := $(CATALOGS:.po=.mo)

.PHONY: run table links dev test stress format chromium caddy test-tools wrk setup bench soak model clean \
	screenshots catalogs icons lint-js

setup: $(STAMP) instance build $(COMPILED)

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv --help >/dev/null 2>&1 && $(PYTHON) -c 'import ensurepip' 2>/dev/null || { \
	  echo "installing python3-venv"; apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# build/ holds the static files' hashed copies (scorer/assets.py); made here so that
# deploy/scorer.service, which lets the server write only instance/ and build/, finds it.
instance build:
	mkdir -p $@

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(STAMP)
	$(BIN)/pybabel -q compile -l $* -i $< -o $@

$(TRANSLATIONS)/%/LC_MESSAGES/click.mo: $(TRANSLATIONS)/%/LC_MESSAGES/click.po | $(STAMP)
	$(BIN)/pybabel -q compile -l $* -i $< -o $@

# After changing any message in the code or the templates: re-extract them into
# messages.pot and bring every .po up to date (scorer/catalogs.py says how);
# tests/test_catalogs.py fails until this is done.
catalogs: $(STAMP)
	$(BIN)/python -m scorer.catalogs

# Debian's Chromium for the browser tests (Playwright cannot download its own here), and
# its headless shell, which runs them at half the CPU (tests/conftest.py).
chromium:
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-headless-shell; }

# Debian's Caddy for `make table` and its test. Where systemd runs, the package starts
# a caddy.service of its own on port 80, which `make table` does not use: stopped.
caddy:
	@command -v caddy >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q caddy \
	  && { systemctl disable --now caddy.service 2>/dev/null || true; }; }

# The tests' other tools: certutil (libnss3-tools) has the test browser trust Caddy's
# local authority, zbarimg (zbar-tools) reads the QR codes from screenshots, openssl
# makes the certificates the trust page's name and fingerprint are read from.
test-tools: chromium caddy
	@command -v certutil >/dev/null && command -v zbarimg >/dev/null && command -v openssl >/dev/null \
	  || { apt-get update -q \
	  && DEBIAN_FRONTEND=noninteractive apt-get install -y -q libnss3-tools zbar-tools openssl; }

# ESLint over static/*.js (eslint.config.js), from the npm registry at the versions
# package-lock.json names; Node.js and npm from Debian where the machine has none.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; }
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

lint-js: $(NODE_STAMP)
	node_modules/.bin/eslint static/

# Debian's wrk, the HTTP load of bench/serve.py.
wrk:
	@command -v wrk >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk; }

# This machine only (http://127.0.0.1:5000); `make run HOST=0.0.0.0` the table's
# network over plain HTTP. Either prints the address the phones open, with its QR code.
run: setup
	HOST=$(HOST) PORT=$(PORT) $(BIN)/gunicorn --config gunicorn.conf.py 'scorer:create_app()'

# The table's network over HTTPS: Caddy in front of gunicorn (scorer/table.py), its
# local authority trusted once per phone from http://<address>:8000/trust; with
# SCORER_DOMAIN=scorer.example, an ordinary certificate for a host with that name.
table: setup caddy
	$(BIN)/python -m scorer.table --port $(PORT)

# Each match not finished, its score link at the address the phones open now and its QR
# code: for the evening the table's address changed (a phone keeps its matches, and its
# right to score them, with the address it opened them at). BASE=https://… to say it.
links: setup
	$(BIN)/scorer links $(if $(BASE),--base $(BASE))

dev: setup
	$(BIN)/flask --app scorer run --debug --host $(HOST) --port $(PORT)

# The linters and the formatter's check first (pyproject's [tool.ruff], eslint.config.js), then every test
# on both cores (pytest-xdist, a file to a worker, longest first as tests/conftest.py's
# LONGEST orders them); repeated trials a few times each (enough to fail on the bug each
# guards).
test: setup test-tools $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	node_modules/.bin/eslint static/
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -m "not stress"

# The full counts (100 stale pages, 50 races a pair, 100 two-phone races, the table
# simulation's thousands of tables, the table model's 3,000 evenings, 120 fuzzed
# requests and 150 property examples a test, three clean starts, 300 phones waiting)
# and the largest match: minutes, not part of make test.
STRESSED := tests/test_concurrency.py tests/test_versioned_writes.py tests/test_sharing.py \
	tests/test_limits.py tests/test_table_sim.py tests/test_table_model.py tests/test_fuzz.py \
	tests/test_properties.py tests/test_clean_start.py tests/test_live_wait.py
stress: setup
	SCORER_STRESS=1 $(BIN)/python -m pytest $(STRESSED)

# Apply the formatter and ruff's safe fixes (sorted imports and the like).
format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Refresh the README's phone screenshots (docs/*.png) from the browser tests.
screenshots: setup chromium
	SCORER_SHOTS=$(CURDIR)/docs $(BIN)/python -m pytest -m browser

# Redraw static/'s PNG icons (manifest, Apple touch icon) from icon.svg and icon-maskable.svg.
icons: setup chromium
	$(BIN)/python tools/icons.py

# Not part of make test: minutes of kill -9 while a client writes (bench/soak.py).
soak: setup
	$(BIN)/python bench/soak.py

# Not part of make test: the table's model for a million phone steps (bench/table_model.py,
# minutes, both cores at a lower priority).
model: setup
	nice -n 10 $(BIN)/python bench/table_model.py --jobs 2

bench: setup chromium wrk
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/serve.py

clean:
	rm -rf $(VENV) node_modules build *.egg-info $(COMPILED)
