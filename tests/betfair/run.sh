#!/usr/bin/env bash
# The bot API's tests: betfairlightweight from PyPI, unmodified but for its URLs, against a
# fresh Backlay server (SQLite, the demo's users and matches, no demo feed or casino, so that
# nothing moves the markets but the tests).
#
#   tests/betfair/run.sh         # what `make test-bots` runs (after `cargo build -p backlay`)
#
# Starts the server on a free loopback port (its Betfair stream on another), exports BACKLAY_URL,
# BACKLAY_STREAM_HOST and BACKLAY_STREAM_PORT for the tests (backlay.py),
# runs every tests/betfair/test_*.py with unittest (test_feed.py runs `backlay feed show` on the
# recordings in tests/feeds beside betfairlightweight's reader of them), and fails on a failed
# test or on any ERROR line in the server's log. The server is stopped by its process id whatever happens.
#
# Environment: BACKLAY_BIN (target/debug/backlay), BOT_PYTHON (target/betfair-venv/bin/python,
# which `make test-bots` installs from tests/betfair/requirements.txt), BOT_REPORT_DIR (where the
# server's log is kept; a temporary folder otherwise).
set -euo pipefail

cd "$(dirname "$0")/../.."
BACKLAY_BIN=${BACKLAY_BIN:-target/debug/backlay}
export BACKLAY_BIN
BOT_PYTHON=${BOT_PYTHON:-target/betfair-venv/bin/python}
SERVER_START_TIMEOUT_S=60
# The whole run's bound: the tests take seconds; a hang must not hold make test for long.
TESTS_TIMEOUT_S=300

log() { echo "bots: $*" >&2; }

for tool in "$BACKLAY_BIN" "$BOT_PYTHON"; do
  [[ -x $tool ]] || { log "$tool is missing (cargo build -p backlay; make target/betfair-venv/.installed)"; exit 2; }
done

WORK=$(mktemp -d -t backlay-bots.XXXXXX)
REPORT_DIR=${BOT_REPORT_DIR:-$WORK}
mkdir -p "$REPORT_DIR"
SERVER_LOG=$REPORT_DIR/server-bots.log
SERVER_PID=""
stop_server() {
  if [[ -n $SERVER_PID ]]; then
    kill -INT "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}
cleanup() {
  stop_server
  [[ -n ${BOT_REPORT_DIR:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT

BACKLAY_LOG=info NO_COLOR=1 "$BACKLAY_BIN" serve --addr 127.0.0.1:0 --database-url "sqlite://$WORK/bots.db" \
  --demo --no-demo-feed --no-casino --web-dir "$WORK/no-web" >"$WORK/server.out" 2>"$SERVER_LOG" &
SERVER_PID=$!
BACKLAY_URL=""
deadline=$((SECONDS + SERVER_START_TIMEOUT_S))
until [[ -n $BACKLAY_URL ]]; do
  if ! kill -0 "$SERVER_PID" 2>/dev/null || ((SECONDS > deadline)); then
    log "the server did not start:"; tail -5 "$SERVER_LOG" >&2; exit 1
  fi
  BACKLAY_URL=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.out" | head -1 || true)
  [[ -n $BACKLAY_URL ]] || sleep 0.2
done
# The server prints "Betfair stream (TLS) at <host>:<port>" right after its URL line.
stream=$(grep -so 'Betfair stream (TLS) at [0-9.]*:[0-9]*' "$WORK/server.out" | head -1 || true)
[[ -n $stream ]] || { log "the server did not say where its Betfair stream listens:"; cat "$WORK/server.out" >&2; exit 1; }
stream=${stream##* at }
export BACKLAY_URL BACKLAY_STREAM_HOST=${stream%:*} BACKLAY_STREAM_PORT=${stream##*:}
log "server at $BACKLAY_URL, stream at $BACKLAY_STREAM_HOST:$BACKLAY_STREAM_PORT"

status=0
timeout "$TESTS_TIMEOUT_S" "$BOT_PYTHON" -m unittest discover -s tests/betfair -t tests/betfair -p 'test_*.py' -v || status=$?
stop_server
errors=$(grep -c ' ERROR ' "$SERVER_LOG" || true)
if ((errors > 0)); then
  log "the server logged $errors ERROR lines:"; grep ' ERROR ' "$SERVER_LOG" | head -20 >&2
  status=1
fi
if ((status != 0)); then
  log "FAILED (exit status $status)"
  exit "$status"
fi
log "passed"
