#!/usr/bin/env bash
# Backlay's benchmarks in one command; appends a dated section to bench/RESULTS.md.
#
#   bench/run.sh
#
# 1. builds the release server and the bench tools;
# 2. the matching core: criterion (mean/median per operation) and matching_latency
#    (operations/s, p50/p99/p99.9 per operation), pinned to one core when taskset exists;
# 3. the disk's fsync rate, in the folder that holds the SQLite database;
# 4. placeBet over HTTP: for SQLite (a fresh file) and PostgreSQL (a fresh database, dropped
#    after), starts target/release/backlay with demo data on a free loopback port, runs
#    place_load against it, stops it.
#
# Knobs (environment): LOAD_DURATION_S (20), LOAD_CONCURRENCY (32), LOAD_USERS (16),
# MATCHING_OPS (5000000), CRITERION_MEASUREMENT_S (4),
# BACKLAY_BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test: a server where this
# user may create databases; skipped with a note when unreachable).
set -euo pipefail

cd "$(dirname "$0")/.."
LOAD_DURATION_S=${LOAD_DURATION_S:-20}
LOAD_CONCURRENCY=${LOAD_CONCURRENCY:-32}
LOAD_USERS=${LOAD_USERS:-16}
MATCHING_OPS=${MATCHING_OPS:-5000000}
CRITERION_MEASUREMENT_S=${CRITERION_MEASUREMENT_S:-4}
POSTGRES_URL=${BACKLAY_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
RESULTS=bench/RESULTS.md
# Bounds on waiting for a server to come up.
SERVER_START_TIMEOUT_S=120

WORK=$(mktemp -d -t backlay-bench.XXXXXX)
SECTION=$WORK/section.md
SERVER_PID=""
PG_DB=""

cleanup() {
  stop_server
  if [[ -n $PG_DB ]]; then
    psql "$POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

log() { echo "bench/run.sh: $*" >&2; }
out() { echo "$@" >>"$SECTION"; }

# Pin single-threaded measurements to one core (the last), away from core 0's interrupts.
PIN=()
if command -v taskset >/dev/null && [[ $(nproc) -gt 1 ]]; then
  PIN=(taskset -c "$(($(nproc) - 1))")
fi

# The commit checked out, read from .git without running git (a worktree's .git is a file).
head_commit() {
  local gitdir=.git head ref
  if [[ -f .git ]]; then gitdir=$(sed -n 's/^gitdir: //p' .git); fi
  head=$(cat "$gitdir/HEAD" 2>/dev/null) || { echo unknown; return; }
  if [[ $head == ref:* ]]; then
    ref=${head#ref: }
    if [[ -f $gitdir/$ref ]]; then cat "$gitdir/$ref"
    else grep " $ref\$" "$gitdir/packed-refs" 2>/dev/null | cut -d' ' -f1 || echo unknown
    fi
  else
    echo "$head"
  fi
}

stop_server() {
  if [[ -n $SERVER_PID ]]; then
    kill -INT "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}

# run_load LABEL DATABASE_URL TARGET_BETS_PER_S: one server, one place_load, figures into the section.
run_load() {
  local label=$1 database_url=$2 target=$3 stdout=$WORK/server-$1.out stderr=$WORK/server-$1.log url=""
  log "placeBet load on $label"
  target/release/backlay serve --addr 127.0.0.1:0 --database-url "$database_url" --demo \
    --web-dir "$WORK/no-web" >"$stdout" 2>"$stderr" &
  SERVER_PID=$!
  local deadline=$((SECONDS + SERVER_START_TIMEOUT_S))
  while [[ -z $url ]]; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null || ((SECONDS > deadline)); then
      out "- $label: the server did not start: $(tail -3 "$stderr" | tr '\n' ' ')"
      stop_server
      return 0
    fi
    url=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$stdout" | head -1 || true)
    [[ -n $url ]] || sleep 0.2
  done
  until curl -fsS -o /dev/null "$url/api/health"; do
    if ((SECONDS > deadline)); then out "- $label: /api/health never answered 200"; stop_server; return 0; fi
    sleep 0.2
  done
  if ! target/release/place_load --base-url "$url" --label "$label" --duration-s "$LOAD_DURATION_S" \
    --concurrency "$LOAD_CONCURRENCY" --users "$LOAD_USERS" --target-bets-per-s "$target" \
    >"$WORK/load-$label.md" 2>"$WORK/load-$label.err"; then
    out "- $label: place_load failed: $(tail -3 "$WORK/load-$label.err" | tr '\n' ' ')"
  fi
  cat "$WORK/load-$label.md" >>"$SECTION"
  stop_server
  local errors warnings
  errors=$(grep -c ' ERROR ' "$stderr" || true)
  warnings=$(grep -c ' WARN ' "$stderr" || true)
  local first_error=""
  if ((errors > 0)); then first_error="; first: \`$(grep -m1 ' ERROR ' "$stderr" | cut -c1-240)\`"; fi
  out "- $label server log: $errors ERROR and $warnings WARN lines$first_error"
}

STARTED=$SECONDS
log "building (release)"
cargo build --release -p backlay -p backlay-bench
cargo bench -p backlay-bench --bench matching --no-run

{
  echo
  echo "## $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(head_commit | cut -c1-12)"
  echo
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -sr), $(rustc --version | cut -d' ' -f1-2)."
  echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine shows up as noise)."
  echo
} >"$SECTION"

log "matching core: criterion"
out "### Matching core (one core${PIN:+, \`${PIN[*]}\`})"
out
out "criterion, one iteration = one operation of the mix:"
out
out '```text'
"${PIN[@]}" cargo bench -p backlay-bench --bench matching -- --noplot \
  --measurement-time "$CRITERION_MEASUREMENT_S" 2>&1 | tee "$WORK/criterion.txt" >&2
# This run's estimates only, not criterion's comparison with the previous run ("change:").
awk '/^matching\// {keep = 1} /change:/ {keep = 0} (keep && /^matching\/|time:|thrpt:/) || /^matching: ran/' \
  "$WORK/criterion.txt" | sed 's/^ *//' >>"$SECTION"
out '```'
out
log "matching core: latency histogram"
out "matching_latency:"
out
"${PIN[@]}" target/release/matching_latency --ops "$MATCHING_OPS" >>"$SECTION"
out

log "fsync rate"
out "### Disk"
out
target/release/fsync_rate --dir "$WORK" >>"$SECTION"
out "- filesystem: $(df -hT "$WORK" | awk 'NR==2 {print $1 " (" $2 ")"}')"
out

out "### placeBet over HTTP (release binary, durable commits; client and server share the machine)"
out
run_load SQLite "sqlite://$WORK/bench.db" 2000
out
if psql "$POSTGRES_URL" -q -c 'SELECT 1' >/dev/null 2>&1; then
  PG_DB=backlay_bench_$$_$(date +%s)
  psql "$POSTGRES_URL" -q -c "CREATE DATABASE $PG_DB" >/dev/null
  run_load PostgreSQL "${POSTGRES_URL%/*}/$PG_DB" 1000
  psql "$POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null
  PG_DB=""
  out "- PostgreSQL: $(psql "$POSTGRES_URL" -Atc 'SHOW server_version') on the same machine, synchronous_commit=$(psql "$POSTGRES_URL" -Atc 'SHOW synchronous_commit'), fsync=$(psql "$POSTGRES_URL" -Atc 'SHOW fsync'), wal_sync_method=$(psql "$POSTGRES_URL" -Atc 'SHOW wal_sync_method')"
else
  out "- PostgreSQL: skipped ($POSTGRES_URL unreachable)"
fi
out
out "Load average at end: $(cut -d' ' -f1-3 /proc/loadavg); bench/run.sh took $((SECONDS - STARTED)) s."

if [[ ! -f $RESULTS ]]; then
  printf '# Benchmark results\n\nWritten by `bench/run.sh`, one dated section per run, newest last. What each figure means: `bench/README.md`.\n' >"$RESULTS"
fi
cat "$SECTION" >>"$RESULTS"
log "done: appended to $RESULTS"
cat "$SECTION"
