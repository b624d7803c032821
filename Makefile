# Backlay: the two commands a new machine needs.
#   make run    build the web app and the server, start Backlay on SQLite with demo data
#   make test   the lint gate, then every test: Rust (unit, property, API on SQLite and
#               PostgreSQL), web, browser, and the API fuzzed from its OpenAPI document
#
# Everything else here serves those two. Each step installs what it needs and is a no-op when
# its output is up to date.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM ?= npm
BACKLAY_BIN := target/debug/backlay
# The browser tests run against the optimised binary, as a real deployment would.
BACKLAY_RELEASE_BIN := target/release/backlay
# The PostgreSQL the API tests use (a fresh database per test is created inside it).
export BACKLAY_TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
# The fuzzer (schemathesis, pinned in tests/fuzz/requirements.txt) lives in its own virtualenv.
FUZZ_VENV := target/fuzz-venv

.PHONY: help run test lint lint-rust lint-web deps-rust deps-node deps-python web server test-rust test-web test-e2e test-fuzz chromium release clean

help:
	@echo "make run    build everything and start Backlay (SQLite, demo data) on http://127.0.0.1:8080"
	@echo "make test   the lint gate, then every test (Rust on SQLite + PostgreSQL, web unit tests, browser tests, API fuzzing)"
	@echo "make lint   the lint gate alone (rustfmt, clippy, ESLint and tsc for web/ and e2e/)"
	@echo "make release  build an optimised server binary at target/release/backlay"

run: web server
	$(BACKLAY_BIN) serve

test: lint web test-rust test-web test-e2e test-fuzz
	@echo "make test: all suites passed"

# The lint gate: any finding fails `make test` (and so CI). Allowed lints are in Cargo.toml's
# [workspace.lints], each with its reason.
lint: lint-rust lint-web

lint-rust: deps-rust
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

# ESLint (typescript-eslint with types, React hooks) and tsc over the web app and the browser
# tests; a rule left off is in that directory's eslint.config.js, with the reason.
lint-web: web/node_modules/.installed e2e/node_modules/.installed
	cd web && $(NPM) run lint
	cd e2e && $(NPM) run lint

deps-rust:
	@command -v $(CARGO) >/dev/null || { echo "Rust is missing: install it from https://rustup.rs and run make again"; exit 1; }
	@$(CARGO) fmt --version >/dev/null 2>&1 && $(CARGO) clippy --version >/dev/null 2>&1 || rustup component add rustfmt clippy

deps-node:
	@command -v node >/dev/null && command -v $(NPM) >/dev/null || { \
	  echo "Node.js is missing: installing it with apt-get"; \
	  apt-get update -qq && apt-get install -y -qq nodejs npm; }

deps-python:
	@python3 -c 'import venv, ensurepip' 2>/dev/null || { \
	  echo "Python 3 with venv is missing: installing it with apt-get"; \
	  apt-get update -qq && apt-get install -y -qq python3 python3-venv; }

# npm ci only when the lockfile changed since the last install.
web/node_modules/.installed: web/package-lock.json | deps-node
	cd web && $(NPM) ci --no-audit --no-fund
	touch $@

e2e/node_modules/.installed: e2e/package-lock.json | deps-node
	cd e2e && $(NPM) ci --no-audit --no-fund
	touch $@

web: web/node_modules/.installed
	cd web && $(NPM) run build

server: deps-rust
	$(CARGO) build -p backlay

release: web deps-rust
	$(CARGO) build --release -p backlay

# The crash-safety test (crates/backlay/tests/crash_safety.rs) kills the optimised server,
# as a real deployment would run it.
test-rust: deps-rust release
	BACKLAY_CRASH_TEST_BIN=$(abspath $(BACKLAY_RELEASE_BIN)) $(CARGO) test --workspace

test-web: web/node_modules/.installed
	cd web && $(NPM) test

chromium:
	@command -v chromium >/dev/null || { \
	  echo "Chromium is missing: installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

test-e2e: release chromium e2e/node_modules/.installed
	cd e2e && BACKLAY_BIN=$(abspath $(BACKLAY_RELEASE_BIN)) $(NPM) test

# A fresh virtualenv whenever the pinned list changes.
$(FUZZ_VENV)/.installed: tests/fuzz/requirements.txt | deps-python
	rm -rf $(FUZZ_VENV)
	python3 -m venv $(FUZZ_VENV)
	$(FUZZ_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/fuzz/requirements.txt
	touch $@

# schemathesis against /api/openapi.json as a client and as an admin: no 5xx, no answer the
# document does not describe (tests/fuzz/run.sh says what is checked and what is left out).
test-fuzz: release $(FUZZ_VENV)/.installed
	BACKLAY_BIN=$(abspath $(BACKLAY_RELEASE_BIN)) SCHEMATHESIS=$(abspath $(FUZZ_VENV))/bin/schemathesis tests/fuzz/run.sh

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules e2e/node_modules
