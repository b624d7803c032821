#!/usr/bin/env bash
# The long runs of the fault tests that `make test` runs briefly; appends a dated section to
# bench/RESULTS.md.
#
#   bench/faults.sh
#
# Crash safety: crates/backlay/tests/crash_safety/ against the release binary, with
# CRASH_KILLS kills (default 200; `make test` uses 10) on SQLite and on PostgreSQL: bettors
# place and cancel bets, the server is killed with SIGKILL at random moments and restarted on
# the same database, lost answers are sent again with their client_ref, and every
# acknowledged bet, every exposure, the engine's book and the ledger are checked at the end.
#
# Knobs (environment): CRASH_KILLS (200), BACKLAY_TEST_POSTGRES_URL
# (postgres://postgres@127.0.0.1:5432/test).
set -euo pipefail

cd "$(dirname "$0")/.."
CRASH_KILLS=${CRASH_KILLS:-200}
RESULTS=bench/RESULTS.md
started=$(date +%s)

# The server is the optimised binary; the test harness that drives it needs no optimising.
make release >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "crash safety: $CRASH_KILLS kills on SQLite and on PostgreSQL (release binary)…"
CI=true CRASH_KILLS=$CRASH_KILLS BACKLAY_CRASH_TEST_BIN="$PWD/target/release/backlay" \
  cargo test -p backlay --test crash_safety -- --nocapture --test-threads=1 2>&1 | tee "$log" | grep -E "crash safety on|test result|panicked"
outcome=$(grep -E "^test result" "$log" | tail -1)

{
  echo
  echo "## $(date -u +%Y-%m-%d) faults — commit $(git rev-parse --short HEAD), $(nproc) cores"
  echo
  echo "### Crash safety (release binary, SIGKILL at random moments, restart on the same database)"
  echo
  grep -oE "crash safety on .*" "$log" | sed "s/^/- /"
  echo "- $outcome"
  echo
  echo "bench/faults.sh took $(( $(date +%s) - started )) s."
} >> "$RESULTS"
echo "appended to $RESULTS"
grep -q "test result: ok" <<<"$outcome"
