# Backlay: the two commands a new machine needs.
#   make run    build the web app and the server, start Backlay on SQLite with demo data
#   make test   the lint gate, then every test: Rust (unit, property, API on SQLite and
#               PostgreSQL), web, browser, the API fuzzed from its OpenAPI document, and the
#               bot API driven by betfairlightweight
#
# Everything else here serves those two. Each step installs what it needs and is a no-op when
# its output is up to date.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM ?= npm
# The server binary `make run` starts, and the one every test runs: `cargo test` builds it for
# the CLI and crash tests, and the browser tests and the fuzzer use that same build, so a fresh
# clone compiles the workspace once (unoptimised but for the password hash: Cargo.toml's
# profiles). `make release` builds the optimised binary a deployment runs.
BACKLAY_BIN := target/debug/backlay
# The PostgreSQL the API tests use (a fresh database per test is created inside it).
export BACKLAY_TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
# The fuzzer (schemathesis, pinned in tests/fuzz/requirements.txt) lives in its own virtualenv.
FUZZ_VENV := target/fuzz-venv
# betfairlightweight (pinned in tests/betfair/requirements.txt), for the bot API's tests.
BOT_VENV := target/betfair-venv

.PHONY: help run test web-checks test-tools build-tests lint lint-fmt lint-web deps-rust deps-node deps-python web server test-rust test-crash-safety test-paced test-rust-then-e2e test-web test-e2e test-fuzz test-bots chromium pg-client release clean

help:
	@echo "make run    build everything and start Backlay (SQLite, demo data) on http://127.0.0.1:8080"
	@echo "make test   the lint gate, then every test (Rust on SQLite + PostgreSQL, web unit tests, browser tests, API fuzzing)"
	@echo "make lint   the lint gate alone (rustfmt, clippy, ESLint and tsc for web/ and e2e/)"
	@echo "make release  build an optimised server binary at target/release/backlay"

run: web server
	$(BACKLAY_BIN) serve

# Three stages, the jobs of a stage at once, each printing its output as it ends:
#   1. compile: the workspace's tests (clippy linting them as they compile, both cores most of
#      the time), beside the web app's lint and build and the installs of the browser and the
#      fuzzer's tools (mostly waiting on the network);
#   2. the Rust tests (the API tests keep both cores busy: their servers, PostgreSQL, password
#      hashes) and then the browser tests (test-rust-then-e2e), beside the crash-safety tests
#      (mostly waiting on kills and restarts), the web unit tests, the fuzzer and the bot API's
#      tests. The browser tests wait for the Rust tests, not for the fuzzer: they mostly wait on
#      rounds and polls, and fill the core the fuzzer's last minutes leave (each test file starts
#      its own server and browser; e2e/package.json says how many run at once);
#   3. the demo feed's API test on its own (test-paced below).
test: lint-fmt
	$(MAKE) --no-print-directory -j3 --output-sync=target build-tests web-checks test-tools
	$(MAKE) --no-print-directory -j5 --output-sync=target test-rust-then-e2e test-crash-safety test-web test-fuzz test-bots
	$(MAKE) --no-print-directory test-paced
	@echo "make test: all suites passed"

# A fresh clone's build gains nothing from incremental compilation's caches, which cost it 13%
# (214 s against 246 s wall for build-tests, bench/RESULTS.md); a working copy's rebuilds keep them.
ifeq ($(CI),true)
export CARGO_INCREMENTAL := 0
endif

test-rust-then-e2e:
	$(MAKE) --no-print-directory test-rust
	$(MAKE) --no-print-directory test-e2e

# One after the other: they share the two cores with the Rust build.
web-checks:
	$(MAKE) --no-print-directory lint-web
	$(MAKE) --no-print-directory web

test-tools: chromium pg-client $(FUZZ_VENV)/.installed $(BOT_VENV)/.installed

# The lint gate: any finding fails `make test` (and so CI). Allowed lints are in Cargo.toml's
# [workspace.lints], each with its reason. `make test` runs clippy inside its one build of the
# tests (build-tests below); `make lint` runs it on its own, as `cargo clippy` (a check, no code).
lint: lint-fmt lint-web
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	$(CARGO) clippy --workspace --test crash_safety --locked -- -D warnings

lint-fmt: deps-rust
	$(CARGO) fmt --all --check

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
	  apt-get update -qq && apt-get -o DPkg::Lock::Timeout=300 install -y -qq nodejs npm; }

deps-python:
	@python3 -c 'import venv, ensurepip' 2>/dev/null || { \
	  echo "Python 3 with venv is missing: installing it with apt-get"; \
	  apt-get update -qq && apt-get -o DPkg::Lock::Timeout=300 install -y -qq python3 python3-venv; }

# npm ci only when the lockfile changed since the last install.
web/node_modules/.installed: web/package-lock.json | deps-node
	cd web && $(NPM) ci --no-audit --no-fund
	touch $@

e2e/node_modules/.installed: e2e/package-lock.json | deps-node
	cd e2e && $(NPM) ci --no-audit --no-fund
	touch $@

# The built client, remade when a source of it changed.
web: web/dist/index.html

web/dist/index.html: $(shell find web/src web/public web/scripts -type f 2>/dev/null) web/index.html web/package.json $(wildcard web/*.config.* web/tsconfig*.json) web/node_modules/.installed
	cd web && $(NPM) run build

server: deps-rust
	$(CARGO) build -p backlay

# The binary the browser tests and the fuzzer start, built only when it is missing or older
# than a source: under `make test`, build-tests has just built it.
$(BACKLAY_BIN): $(shell find crates -type f) Cargo.toml Cargo.lock | deps-rust
	$(CARGO) build -p backlay

release: web deps-rust
	$(CARGO) build --release -p backlay

# Clippy lints the workspace's crates while they compile for the tests: cargo clippy is rustc
# with clippy's lints (clippy-driver) as the wrapper of the workspace's own crates, and run the
# same way under `cargo test` it lints every target and compiles it too, instead of a second
# pass (`cargo check`) over every dependency. CLIPPY_ARGS is how cargo clippy hands the driver
# its `-- -D warnings`. build-tests names its targets as --all-targets does, with `--test '*'`
# for every test target, the crash-safety tests too (which --all-targets leaves out). The doc
# tests are not a target, so they run after, with the same wrapper so that they reuse the build.
# Most API tests wait (bet delays, database commits, a server's start) more than they compute,
# so more of them run at once than there are cores (RUST_TEST_THREADS, read by every test
# binary; the criterion bench, run once as a test, takes no --test-threads). MAKEFLAGS is cleared
# so cargo keeps its own jobserver under make -j.
RUST_TEST_THREADS ?= 8
CARGO_LINTED = MAKEFLAGS= RUSTC_WORKSPACE_WRAPPER="$$(rustup which clippy-driver)" CLIPPY_ARGS=-Dwarnings $(CARGO)

build-tests: deps-rust
	@test -x "$$(rustup which clippy-driver)" || { echo "clippy-driver is missing: rustup component add clippy"; exit 1; }
	$(CARGO_LINTED) test --workspace --lib --bins --examples --benches --test '*' --locked --no-run

test-rust: build-tests
	RUST_TEST_THREADS=$(RUST_TEST_THREADS) $(CARGO_LINTED) test --workspace --all-targets --locked --no-fail-fast
	$(CARGO_LINTED) test --workspace --doc --locked

# The crash-safety tests, beside test-rust (whose API tests are its longest part): a plain
# `cargo test` leaves them out (crates/backlay/Cargo.toml). Their PostgreSQL tests run one at a
# time, for the connections (README, "Tests").
test-crash-safety: build-tests
	$(CARGO_LINTED) test --workspace --test crash_safety --locked --no-fail-fast

# The demo feed's API test follows the feed's clock (60 times real time): beside the other suites
# on two cores its scheduler fell minutes behind (fresh-clone runs), so it is #[ignore]d in
# test-rust and run here on its own, on SQLite and then PostgreSQL: side by side the two feeds'
# servers filled both cores and the SQLite one polled past a wicket's suspension (10 s of the
# feed's, 167 ms here) for two minutes, where one at a time each passes in about a minute.
# --workspace, as in test-rust, so that the build's features are the same and nothing is
# compiled again.
test-paced: build-tests
	$(CARGO_LINTED) test --workspace --test api --locked -- --ignored --test-threads=1 demo_feed::

test-web: web/node_modules/.installed
	cd web && $(NPM) test

chromium:
	@command -v chromium >/dev/null || { \
	  echo "Chromium is missing: installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >/dev/null; }

# PostgreSQL's client tools: the backup test dumps and restores with pg_dump and pg_restore.
pg-client:
	@command -v pg_dump >/dev/null && command -v pg_restore >/dev/null || { \
	  echo "pg_dump is missing: installing Debian's postgresql-client"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq postgresql-client >/dev/null; }

# After test-rust, which built the server (make test-e2e alone builds it first).
test-e2e: web/dist/index.html $(BACKLAY_BIN) chromium e2e/node_modules/.installed
	cd e2e && BACKLAY_BIN=$(abspath $(BACKLAY_BIN)) $(NPM) test

# A fresh virtualenv whenever the pinned list changes.
$(FUZZ_VENV)/.installed: tests/fuzz/requirements.txt | deps-python
	rm -rf $(FUZZ_VENV)
	python3 -m venv $(FUZZ_VENV)
	$(FUZZ_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/fuzz/requirements.txt
	touch $@

$(BOT_VENV)/.installed: tests/betfair/requirements.txt | deps-python
	rm -rf $(BOT_VENV)
	python3 -m venv $(BOT_VENV)
	$(BOT_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/betfair/requirements.txt
	touch $@

# betfairlightweight, unmodified but for its URLs, against a fresh server: log-in, catalogue,
# books, orders, account and the stream (tests/betfair/run.sh).
test-bots: $(BACKLAY_BIN) $(BOT_VENV)/.installed
	BACKLAY_BIN=$(abspath $(BACKLAY_BIN)) BOT_PYTHON=$(abspath $(BOT_VENV))/bin/python tests/betfair/run.sh

# schemathesis against /api/openapi.json as a client and as an admin: no 5xx, no answer the
# document does not describe (tests/fuzz/run.sh says what is checked and what is left out).
test-fuzz: $(BACKLAY_BIN) $(FUZZ_VENV)/.installed
	BACKLAY_BIN=$(abspath $(BACKLAY_BIN)) SCHEMATHESIS=$(abspath $(FUZZ_VENV))/bin/schemathesis tests/fuzz/run.sh

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules e2e/node_modules
