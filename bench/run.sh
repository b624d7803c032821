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
#    place_load against it, stops it;
# 5. many markets: placeBet spread over MANY_MARKETS markets holding RESTING_ORDERS resting
#    orders, on SQLite and PostgreSQL, then the server restarted on that book (start-up time);
# 6. balance polling (poll_load) and stream fan-out (stream_fanout), each against its own fresh
#    SQLite server with demo data, its open-files limit raised to the hard limit.
#
# BENCH_SECTIONS picks what runs (default all: "matching disk load markets poll fanout").
#
# Knobs (environment): LOAD_DURATION_S (20), LOAD_CONCURRENCY (128), LOAD_USERS (64),
# MATCHING_OPS (5000000), CRITERION_MEASUREMENT_S (4), POLL_DURATION_S (10, per endpoint),
# MANY_MARKETS (1000), RESTING_ORDERS (100000), POLL_CONCURRENCY (32), POLL_USERS (200), FANOUT_SUBSCRIBERS (10000), FANOUT_DURATION_S (30),
# FANOUT_DEMO_FEED (1: the demo feed runs during the fan-out, as issue 5 words the target; 0:
# quiet, when the server has --no-demo-feed),
# BACKLAY_BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test: a server where this
# user may create databases; skipped with a note when unreachable).
set -euo pipefail

cd "$(dirname "$0")/.."
LOAD_DURATION_S=${LOAD_DURATION_S:-20}
LOAD_CONCURRENCY=${LOAD_CONCURRENCY:-128}
LOAD_USERS=${LOAD_USERS:-64}
MATCHING_OPS=${MATCHING_OPS:-5000000}
CRITERION_MEASUREMENT_S=${CRITERION_MEASUREMENT_S:-4}
POLL_DURATION_S=${POLL_DURATION_S:-10}
MANY_MARKETS=${MANY_MARKETS:-1000}
RESTING_ORDERS=${RESTING_ORDERS:-100000}
BENCH_SECTIONS=${BENCH_SECTIONS:-matching disk load markets poll fanout}
POLL_CONCURRENCY=${POLL_CONCURRENCY:-32}
POLL_USERS=${POLL_USERS:-200}
FANOUT_SUBSCRIBERS=${FANOUT_SUBSCRIBERS:-10000}
FANOUT_DURATION_S=${FANOUT_DURATION_S:-30}
FANOUT_DEMO_FEED=${FANOUT_DEMO_FEED:-1}
POSTGRES_URL=${BACKLAY_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
RESULTS=bench/RESULTS.md
# Bounds on waiting for a server to come up.
SERVER_START_TIMEOUT_S=120

WORK=$(mktemp -d -t backlay-bench.XXXXXX)
SECTION=$WORK/section.md
SERVER_PID=""
SERVER_URL=""
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
# wanted SECTION: whether BENCH_SECTIONS asks for it.
wanted() { [[ " $BENCH_SECTIONS " == *" $1 "* ]]; }
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

# start_server NAME DATABASE_URL [FLAG...]: starts the release server with demo data on a free
# loopback port, its open-files limit raised to the hard limit (10,000 streams need 10,000
# sockets), with the secret key file secret-NAME.key (secret-$SERVER_KEY.key when set), logs in $WORK/server-NAME.{out,log}; sets SERVER_PID and SERVER_URL once
# /api/health answers 200. On failure writes why into the section and answers 1.
start_server() {
  local name=$1 database_url=$2 stdout=$WORK/server-$1.out stderr=$WORK/server-$1.log
  shift 2
  SERVER_URL=""
  SERVER_LAUNCHED=$(date +%s.%N)
  (
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    exec target/release/backlay serve --addr 127.0.0.1:0 --database-url "$database_url" --demo \
      --web-dir "$WORK/no-web" --secret-key-file "$WORK/secret-${SERVER_KEY:-$name}.key" --create-secret-key "$@"
  ) >"$stdout" 2>"$stderr" &
  SERVER_PID=$!
  local deadline=$((SECONDS + SERVER_START_TIMEOUT_S))
  while [[ -z $SERVER_URL ]]; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null || ((SECONDS > deadline)); then
      out "- $name: the server did not start: $(tail -3 "$stderr" | tr '\n' ' ')"
      stop_server
      return 1
    fi
    SERVER_URL=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$stdout" | head -1 || true)
    [[ -n $SERVER_URL ]] || sleep 0.2
  done
  until curl -fsS -o /dev/null "$SERVER_URL/api/health"; do
    if ((SECONDS > deadline)); then out "- $name: /api/health never answered 200"; stop_server; return 1; fi
    sleep 0.05
  done
  SERVER_UP_S=$(since_launch)
}

# Seconds since the last start_server launched its server, to a tenth.
since_launch() { awk -v a="$SERVER_LAUNCHED" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'; }

# server_log NAME: the server's ERROR and WARN lines, into the section (after stop_server).
server_log() {
  local name=$1 stderr=$WORK/server-$1.log errors warnings first_error=""
  errors=$(grep -c ' ERROR ' "$stderr" || true)
  warnings=$(grep -c ' WARN ' "$stderr" || true)
  if ((errors > 0)); then first_error="; first: \`$(grep -m1 ' ERROR ' "$stderr" | cut -c1-240)\`"; fi
  out "- $name server log: $errors ERROR and $warnings WARN lines$first_error"
}

# run_load LABEL DATABASE_URL TARGET_BETS_PER_S [PLACE_LOAD FLAG...]: one server, one place_load,
# figures into the section.
run_load() {
  local label=$1 database_url=$2 target=$3
  shift 3
  log "placeBet load on $label"
  # The demo feed stays off: its own writes would be noise in bets/s and bets per commit.
  start_server "$label" "$database_url" "${NO_DEMO_FEED[@]}" || return 0
  local url=$SERVER_URL
  if ! target/release/place_load --base-url "$url" --label "$label" --duration-s "$LOAD_DURATION_S" \
    --concurrency "$LOAD_CONCURRENCY" --users "$LOAD_USERS" --target-bets-per-s "$target" \
    --server-pid "$SERVER_PID" "$@" \
    >"$WORK/load-$label.md" 2>"$WORK/load-$label.err"; then
    # Its error and causes, not the backtrace that RUST_BACKTRACE adds after them.
    out "- $label: place_load failed: $(sed '/^Stack backtrace:/,$d' "$WORK/load-$label.err" | grep -v '^$' | tail -4 | tr '\n' ' ')"
  fi
  cat "$WORK/load-$label.md" >>"$SECTION"
  stop_server
  server_log "$label"
}

# run_many_markets LABEL DATABASE_URL TARGET_BETS_PER_S: run_load over MANY_MARKETS markets with
# RESTING_ORDERS resting, then the server started again on what it left (issue 31: under 10 s).
run_many_markets() {
  local label=$1 database_url=$2 target=$3
  run_load "$label" "$database_url" "$target" --markets "$MANY_MARKETS" --resting "$RESTING_ORDERS"
  log "restarting on the $label book"
  # The same secret key: the database holds secrets sealed with it.
  if SERVER_KEY=$label start_server "$label-restart" "$database_url" "${NO_DEMO_FEED[@]}"; then
    # Running every market: on PostgreSQL a server is a cluster node, which takes its markets
    # after it answers (its ownership loop), so wait for the engine's count in /metrics.
    local token running=0 deadline=$((SECONDS + SERVER_START_TIMEOUT_S))
    token=$(curl -fsS "$SERVER_URL/api/user/login" -H 'content-type: application/json' \
      -d '{"user_name":"admin","password":"Admin@1234"}' | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
    while ((running < MANY_MARKETS && SECONDS < deadline)); do
      running=$(curl -fsS -H "authorization: Bearer $token" "$SERVER_URL/metrics" |
        awk '/^backlay_markets_running / {print int($2)}')
      running=${running:-0}
      ((running >= MANY_MARKETS)) || sleep 0.1
    done
    out "- **start-up on that book (every live market rebuilt from the database): $(since_launch) s** from launch to the engine running $running markets (\`backlay_markets_running\`; \`/api/health\` answered 200 at ${SERVER_UP_S} s); resident memory then $(($(awk '/VmRSS/ {print $2}' "/proc/$SERVER_PID/status") / 1024)) MiB"
    stop_server
  fi
}

# with_postgres FUNCTION LABEL TARGET [FLAG...]: FUNCTION LABEL URL TARGET on a fresh database,
# dropped after; a note instead when PostgreSQL is unreachable.
with_postgres() {
  local run=$1 label=$2 target=$3
  if ! psql "$POSTGRES_URL" -q -c 'SELECT 1' >/dev/null 2>&1; then
    out "- $label: skipped ($POSTGRES_URL unreachable)"
    return 0
  fi
  PG_DB=backlay_bench_$$_$(date +%s)
  psql "$POSTGRES_URL" -q -c "CREATE DATABASE $PG_DB" >/dev/null
  "$run" "$label" "${POSTGRES_URL%/*}/$PG_DB" "$target"
  psql "$POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null
  PG_DB=""
  out "- PostgreSQL: $(psql "$POSTGRES_URL" -Atc 'SHOW server_version') on the same machine, synchronous_commit=$(psql "$POSTGRES_URL" -Atc 'SHOW synchronous_commit'), fsync=$(psql "$POSTGRES_URL" -Atc 'SHOW fsync'), wal_sync_method=$(psql "$POSTGRES_URL" -Atc 'SHOW wal_sync_method')"
}

STARTED=$SECONDS
log "building (release)"
cargo build --release -p backlay -p backlay-bench
cargo bench -p backlay-bench --bench matching --no-run

# The server's flag to keep the demo's feed simulator quiet, when it has one.
NO_DEMO_FEED=()
if target/release/backlay serve --help 2>/dev/null | grep -q -- '--no-demo-feed'; then
  NO_DEMO_FEED=(--no-demo-feed)
fi

{
  echo
  echo "## $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(head_commit | cut -c1-12)"
  echo
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -sr), $(rustc --version | cut -d' ' -f1-2)."
  echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine shows up as noise)."
  echo
} >"$SECTION"

if wanted matching; then
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
fi

if wanted disk; then
log "fsync rate"
out "### Disk"
out
target/release/fsync_rate --dir "$WORK" >>"$SECTION"
out "- filesystem: $(df -hT "$WORK" | awk 'NR==2 {print $1 " (" $2 ")"}')"
out
fi

if wanted load; then
out "### placeBet over HTTP (release binary, durable commits; client and server share the machine)"
out
# Issue 31's aims: 10,000 bets/s on SQLite, 5,000 on PostgreSQL (p99 ≤ 50 ms both).
run_load SQLite "sqlite://$WORK/bench.db" 10000
out
with_postgres run_load PostgreSQL 5000
out
fi

if wanted markets; then
out "### placeBet over many markets (release binary, durable commits; client and server share the machine)"
out
# Issue 31: within 10% of the one-market figure; start-up on that book under 10 s.
run_many_markets "SQLite, $MANY_MARKETS markets" "sqlite://$WORK/markets.db" 10000
out
with_postgres run_many_markets "PostgreSQL, $MANY_MARKETS markets" 5000
out
fi

feed_note() {
  if [[ $# -gt 0 ]]; then echo "demo feed off (\`$*\`)"
  elif ((${#NO_DEMO_FEED[@]} == 0)); then echo "demo feed on (the server has no --no-demo-feed)"
  else echo "demo feed on"
  fi
}

if wanted poll; then
log "balance polling"
out "### Balance polling (release binary, SQLite, $(feed_note "${NO_DEMO_FEED[@]}"); client and server share the machine)"
out
if start_server poll "sqlite://$WORK/poll.db" "${NO_DEMO_FEED[@]}"; then
  if ! target/release/poll_load --base-url "$SERVER_URL" --label SQLite --server-pid "$SERVER_PID" \
    --duration-s "$POLL_DURATION_S" \
    --concurrency "$POLL_CONCURRENCY" --users "$POLL_USERS" >"$WORK/poll.md" 2>"$WORK/poll.err"; then
    out "- poll_load failed: $(tail -3 "$WORK/poll.err" | tr '\n' ' ')"
  fi
  cat "$WORK/poll.md" >>"$SECTION"
  stop_server
  server_log poll
fi
out
fi

if wanted fanout; then
log "stream fan-out"
FANOUT_FLAGS=()
if [[ $FANOUT_DEMO_FEED == 0 ]]; then FANOUT_FLAGS=("${NO_DEMO_FEED[@]}"); fi
out "### Stream fan-out (release binary, SQLite, $(feed_note "${FANOUT_FLAGS[@]}"); client and server share the machine)"
out
# Each subscriber holds a connection: room for all of them beside the bench's own calls.
FANOUT_FLAGS+=(--max-connections "$((FANOUT_SUBSCRIBERS + 256))")
if start_server fanout "sqlite://$WORK/fanout.db" "${FANOUT_FLAGS[@]}"; then
  out "- open-files limit: server $(awk '/Max open files/ {print $4}' "/proc/$SERVER_PID/limits"), hard limit here $(ulimit -Hn); ephemeral ports $(tr '\t' '-' </proc/sys/net/ipv4/ip_local_port_range)"
  if ! target/release/stream_fanout --base-url "$SERVER_URL" --label SQLite --server-pid "$SERVER_PID" \
    --subscribers "$FANOUT_SUBSCRIBERS" --duration-s "$FANOUT_DURATION_S" \
    >"$WORK/fanout.md" 2>"$WORK/fanout.err"; then
    out "- stream_fanout failed: $(tail -3 "$WORK/fanout.err" | tr '\n' ' ')"
  fi
  cat "$WORK/fanout.md" >>"$SECTION"
  stop_server
  server_log fanout
fi
out
fi
out "Load average at end: $(cut -d' ' -f1-3 /proc/loadavg); bench/run.sh took $((SECONDS - STARTED)) s."

if [[ ! -f $RESULTS ]]; then
  printf '# Benchmark results\n\nWritten by `bench/run.sh`, one dated section per run, newest last. What each figure means: `bench/README.md`.\n' >"$RESULTS"
fi
cat "$SECTION" >>"$RESULTS"
log "done: appended to $RESULTS"
cat "$SECTION"
