#!/usr/bin/env bash
# Backlay's cluster benchmarks (issue 16: several servers on one PostgreSQL) in one command;
# appends a dated section to bench/RESULTS.md.
#
#   bench/cluster.sh
#
# 1. builds the release server and the bench tools;
# 2. failover: runs the process test that kills the owner of a busy market among three release
#    servers (crates/backlay/tests/crash_safety/kills.rs) CLUSTER_KILLS times with the default lease,
#    and copies its "cluster failover: ..." line (kill -9 → first bet on that market sent after
#    the kill and placed through another node, p50/p99);
# 3. placeBet over one node, then over three nodes, each on a fresh PostgreSQL database
#    (dropped after): release servers with demo data on free loopback ports sharing one secret
#    key, place_load against the one node, then against all three: on one market, then on
#    CLUSTER_MARKETS markets (spread over the nodes before the load starts);
#    and forwarding: one worker's bets on one market sent to each node in turn (the owner
#    answers fastest; the others' extra is the forward's cost);
# 4. stream delivery across two nodes: the relay's measurement test (a debug build).
#
# Knobs (environment): LOAD_DURATION_S (20), LOAD_CONCURRENCY (128), LOAD_USERS (64),
# CLUSTER_MARKETS (100), FORWARD_BETS (2000), CLUSTER_SECTIONS (what runs; default all:
# "failover load markets forwarding stream"),
# CLUSTER_KILLS (20), CLUSTER_LEASE_MS (3000, the server's default lease),
# BACKLAY_BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test: a server where this user
# may create databases; everything here needs it, so the script stops when it is unreachable).
set -euo pipefail

cd "$(dirname "$0")/.."
LOAD_DURATION_S=${LOAD_DURATION_S:-20}
LOAD_CONCURRENCY=${LOAD_CONCURRENCY:-128}
LOAD_USERS=${LOAD_USERS:-64}
CLUSTER_MARKETS=${CLUSTER_MARKETS:-100}
FORWARD_BETS=${FORWARD_BETS:-2000}
CLUSTER_SECTIONS=${CLUSTER_SECTIONS:-failover load markets forwarding stream}
CLUSTER_KILLS=${CLUSTER_KILLS:-20}
CLUSTER_LEASE_MS=${CLUSTER_LEASE_MS:-3000}
POSTGRES_URL=${BACKLAY_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
RESULTS=bench/RESULTS.md
# Bounds on waiting: for a server to come up, and for each measurement run as a whole.
SERVER_START_TIMEOUT_S=120
FAILOVER_TIMEOUT_S=$((300 + CLUSTER_KILLS * 30))
STREAM_TIMEOUT_S=600
NODES=3

WORK=$(mktemp -d -t backlay-cluster.XXXXXX)
SECTION=$WORK/section.md
SERVER_PIDS=()
SERVER_URLS=()
PG_DB=""

cleanup() {
  stop_servers
  drop_database
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "bench/cluster.sh: $*" >&2; }
out() { echo "$@" >>"$SECTION"; }
# wanted SECTION: whether CLUSTER_SECTIONS asks for it.
wanted() { [[ " $CLUSTER_SECTIONS " == *" $1 "* ]]; }

# The commit checked out, read from .git without running git (a worktree's .git is a file
# naming its own git directory, whose branches live in the common one).
head_commit() {
  local gitdir=.git common head ref
  if [[ -f .git ]]; then gitdir=$(sed -n 's/^gitdir: //p' .git); fi
  common=$gitdir
  if [[ -f $gitdir/commondir ]]; then common=$(cd "$gitdir" && cd "$(cat commondir)" && pwd); fi
  head=$(cat "$gitdir/HEAD" 2>/dev/null) || { echo unknown; return; }
  if [[ $head != ref:* ]]; then echo "$head"; return; fi
  ref=${head#ref: }
  if [[ -f $gitdir/$ref ]]; then cat "$gitdir/$ref"
  elif [[ -f $common/$ref ]]; then cat "$common/$ref"
  else grep -h " $ref\$" "$common/packed-refs" 2>/dev/null | head -1 | cut -d' ' -f1 || echo unknown
  fi
}

# Stops every server this script started, by pid: SIGINT, then SIGKILL after 10 s.
stop_servers() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${SERVER_PIDS[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  SERVER_PIDS=()
  SERVER_URLS=()
}

# create_database SUFFIX: a fresh database, named in PG_DB (dropped by drop_database and on exit).
create_database() {
  PG_DB=backlay_cluster_$$_$(date +%s)_$1
  psql "$POSTGRES_URL" -q -c "CREATE DATABASE $PG_DB" >/dev/null
}

drop_database() {
  if [[ -n $PG_DB ]]; then
    psql "$POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true
    PG_DB=""
  fi
}

# A free loopback port, picked here so that the node's URL is known before it starts (a test
# harness lets the server pick its own, crates/backlay/tests/support/printed_address.rs).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_node NAME DATABASE_URL [FLAG...]: starts a release server on a free loopback port with
# the run's one secret key (every node of a database shares it), the demo feed and casino off;
# appends its pid and URL to SERVER_PIDS and SERVER_URLS once /api/health answers 200. On
# failure writes why into the section and answers 1.
start_node() {
  local name=$1 database_url=$2 stderr=$WORK/server-$1.log port url pid
  shift 2
  port=$(free_port)
  url=http://127.0.0.1:$port
  target/release/backlay serve --addr "127.0.0.1:$port" --database-url "$database_url" \
    --no-demo-feed --no-casino --web-dir "$WORK/no-web" \
    --secret-key-file "$WORK/secret.key" --create-secret-key "$@" >/dev/null 2>"$stderr" &
  pid=$!
  SERVER_PIDS+=("$pid")
  local deadline=$((SECONDS + SERVER_START_TIMEOUT_S))
  until curl -fsS -o /dev/null "$url/api/health" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null || ((SECONDS > deadline)); then
      out "- $name: the server did not start: $(tail -3 "$stderr" | tr '\n' ' ')"
      return 1
    fi
    sleep 0.2
  done
  SERVER_URLS+=("$url")
}

# server_log NAME: the server's ERROR and WARN lines, into the section (after stop_servers).
server_log() {
  local name=$1 stderr=$WORK/server-$1.log errors warnings first_error=""
  errors=$(grep -c ' ERROR ' "$stderr" || true)
  warnings=$(grep -c ' WARN ' "$stderr" || true)
  if ((errors > 0)); then first_error="; first: \`$(grep -m1 ' ERROR ' "$stderr" | cut -c1-240)\`"; fi
  out "- $name server log: $errors ERROR and $warnings WARN lines$first_error"
}

# The figure after "accepted bets/s: " in a place_load report.
bets_per_s() { sed -n 's/.*accepted bets\/s: \([0-9,.]*\).*/\1/p' "$1" | head -1 | tr -d ,; }

# run_cluster_load LABEL NODES [PLACE_LOAD FLAG...]: a fresh database, NODES servers on it (the
# first with the demo data), place_load over all of them; figures into the section and into
# $WORK/load-LABEL.md.
run_cluster_load() {
  local label=$1 count=$2 database_url i
  shift 2
  log "placeBet load on $label"
  create_database "$count"
  database_url=${POSTGRES_URL%/*}/$PG_DB
  local started=0
  if start_node "$label-1" "$database_url" --demo; then
    started=1
    for ((i = 2; i <= count; i++)); do
      start_node "$label-$i" "$database_url" --no-demo || break
      started=$i
    done
  fi
  if ((started == count)); then
    local urls=() pid
    for url in "${SERVER_URLS[@]}"; do urls+=(--base-url "$url"); done
    # Every node's CPU, summed: bets per server core-second, one node against three.
    for pid in "${SERVER_PIDS[@]}"; do urls+=(--server-pid "$pid"); done
    if ! timeout $((LOAD_DURATION_S + 300)) target/release/place_load "${urls[@]}" --label "$label" \
      --duration-s "$LOAD_DURATION_S" --concurrency "$LOAD_CONCURRENCY" --users "$LOAD_USERS" "$@" \
      >"$WORK/load-$label.md" 2>"$WORK/load-$label.err"; then
      out "- $label: place_load failed: $(tail -3 "$WORK/load-$label.err" | tr '\n' ' ')"
    fi
    cat "$WORK/load-$label.md" >>"$SECTION"
  fi
  stop_servers
  for ((i = 1; i <= started; i++)); do server_log "$label-$i"; done
  drop_database
}

STARTED=$SECONDS
if ! psql "$POSTGRES_URL" -q -c 'SELECT 1' >/dev/null 2>&1; then
  log "PostgreSQL at $POSTGRES_URL is unreachable: the cluster benchmarks need it"
  exit 1
fi
log "building (release)"
cargo build --release -p backlay -p backlay-bench
# The two measurement tests are debug builds; built here so that their time bounds cover the run.
if wanted failover; then cargo test -p backlay --test crash_safety --no-run; fi
if wanted stream; then cargo test -p backlay-server --test api --no-run; fi

{
  echo
  echo "## Cluster, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(head_commit | cut -c1-12)"
  echo
  echo "Written by \`bench/cluster.sh\`. Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -sr), $(rustc --version | cut -d' ' -f1-2); PostgreSQL $(psql "$POSTGRES_URL" -Atc 'SHOW server_version') on the same machine, synchronous_commit=$(psql "$POSTGRES_URL" -Atc 'SHOW synchronous_commit')."
  echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine shows up as noise)."
  echo
  echo "Every node, PostgreSQL and the load tool share the machine's $(nproc) cores: three nodes add no CPU, they divide it. What these figures show is what a node costs beside the others and what forwarding and failover cost, not how the cluster scales on separate machines."
  echo
} >"$SECTION"

if wanted failover; then
log "failover ($CLUSTER_KILLS kills, lease $CLUSTER_LEASE_MS ms)"
out "### Failover (three release nodes, kill -9 of the busy market's owner, lease $CLUSTER_LEASE_MS ms)"
out
out "\`CLUSTER_KILLS=$CLUSTER_KILLS CLUSTER_LEASE_MS=$CLUSTER_LEASE_MS BACKLAY_CRASH_TEST_BIN=target/release/backlay cargo test -p backlay --test crash_safety three_nodes_keep_every_acknowledged_bet_when_a_markets_owner_is_killed -- --nocapture\` (the test binary is a debug build; the servers it starts are the release binary). Failover time is from the kill to the first bet on that market acknowledged through another node, while two bettors on the surviving nodes keep sending; the test then checks every acknowledged bet, exposure, the engine and the ledger."
out
if CLUSTER_KILLS=$CLUSTER_KILLS CLUSTER_LEASE_MS=$CLUSTER_LEASE_MS \
  BACKLAY_CRASH_TEST_BIN=$PWD/target/release/backlay BACKLAY_TEST_POSTGRES_URL=$POSTGRES_URL \
  timeout "$FAILOVER_TIMEOUT_S" cargo test -p backlay --test crash_safety \
  three_nodes_keep_every_acknowledged_bet_when_a_markets_owner_is_killed -- --nocapture \
  >"$WORK/failover.txt" 2>&1; then
  verdict=passed
else
  verdict="FAILED (exit $?): $(grep -m1 -E 'panicked|error' "$WORK/failover.txt" | cut -c1-300)"
fi
failover=$(grep -m1 '^cluster failover:' "$WORK/failover.txt" || true)
out "- ${failover:-no failover line printed}"
out "- the test: $verdict"
p99=$(sed -n 's/.* p99 \([0-9]*\) ms.*/\1/p' <<<"$failover")
if [[ -n $p99 ]]; then
  out "- target p99 ≤ 5 s: **$(if ((p99 <= 5000)); then echo met; else echo missed; fi)** (the lease is the floor: a dead owner's markets move once its lease has passed, then the taker loads the book)"
fi
out

fi

if wanted load; then
out "### placeBet over one node and over three nodes (release binary, PostgreSQL, fresh database each)"
out
out "\`place_load --duration-s $LOAD_DURATION_S --concurrency $LOAD_CONCURRENCY --users $LOAD_USERS\` with one \`--base-url\`, then with three (worker w on node w mod 3); the engine counters are summed over the nodes. Servers: \`--demo\` on the first, \`--no-demo\` on the others, all \`--no-demo-feed --no-casino\`, one secret key file."
out
out "One node:"
out
run_cluster_load one-node 1
out
out "Three nodes:"
out
run_cluster_load three-nodes "$NODES"
out
one=$(bets_per_s "$WORK/load-one-node.md" 2>/dev/null || true)
three=$(bets_per_s "$WORK/load-three-nodes.md" 2>/dev/null || true)
if [[ -n $one && -n $three ]]; then
  out "- **3 nodes / 1 node: $(awk -v a="$three" -v b="$one" 'BEGIN { printf "%.2f", a / b }')** ($three vs $one accepted bets/s)"
fi
out "- What bounds the ratio: the market place_load creates is owned by one node, whose one engine task serialises its bets and commits them, so the other two nodes only forward (an extra HTTP hop on loopback and a second JSON round for two thirds of the bets); and the three nodes, PostgreSQL and the load tool share $(nproc) cores, so the forwarding nodes' CPU comes out of the owner's and the database's. More markets spread over the nodes, or nodes on their own machines, are where a cluster adds throughput."
out

fi

if wanted markets; then
out "### placeBet over $CLUSTER_MARKETS markets, one node and three nodes (release binary, PostgreSQL, fresh database each)"
out
out "As above with \`--markets $CLUSTER_MARKETS\` (each bet on one at random); on three nodes the load starts once every node runs a share of the markets (the creating node gives one up a tick while it holds more than its share)."
out
out "One node:"
out
run_cluster_load one-node-markets 1 --markets "$CLUSTER_MARKETS"
out
out "Three nodes:"
out
run_cluster_load three-nodes-markets "$NODES" --markets "$CLUSTER_MARKETS"
out
one=$(bets_per_s "$WORK/load-one-node-markets.md" 2>/dev/null || true)
three=$(bets_per_s "$WORK/load-three-nodes-markets.md" 2>/dev/null || true)
if [[ -n $one && -n $three ]]; then
  ratio=$(awk -v a="$three" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
  out "- **3 nodes / 1 node over $CLUSTER_MARKETS markets: $ratio** ($three vs $one accepted bets/s); target ≥ 0.90: **$(awk -v r="$ratio" 'BEGIN { print (r >= 0.9 ? "met" : "missed") }')**"
fi
out

fi

if wanted forwarding; then
out "### Forwarding a bet to its market's owner (three release nodes, PostgreSQL)"
out
out "\`place_load --concurrency 1 --count $FORWARD_BETS --rotate-nodes\` over three nodes: one worker, one market, each bet sent to the next node in turn, one at a time, so a third reach the owner and two thirds are forwarded."
out
(LOAD_CONCURRENCY=1 run_cluster_load forwarding "$NODES" --count "$FORWARD_BETS" --rotate-nodes)
out

fi

if wanted stream; then
log "stream delivery across nodes"
out "### Stream delivery across nodes (two nodes, PostgreSQL NOTIFY relay, debug build)"
out
out "\`cargo test -p backlay-server --test api live_relay::stream_latency -- --ignored --nocapture\`: two nodes in one test process (a debug build, so slower than the release binary), bets placed on A one every 250 ms (beyond the 200 ms coalescing window), each book read on a stream on A and on a stream on B."
out
if BACKLAY_TEST_POSTGRES_URL=$POSTGRES_URL timeout "$STREAM_TIMEOUT_S" \
  cargo test -p backlay-server --test api live_relay::stream_latency -- --ignored --nocapture \
  >"$WORK/stream.txt" 2>&1; then
  grep -E '^(placeBet answered|answer on A)' "$WORK/stream.txt" | sed 's/^/- /' >>"$SECTION" || true
  grep -qE '^answer on A' "$WORK/stream.txt" || out "- no figures printed (is PostgreSQL reachable from the test?)"
else
  out "- the measurement failed (exit $?): $(grep -m1 -E 'panicked|error' "$WORK/stream.txt" | cut -c1-300)"
fi
out
fi
out "Load average at end: $(cut -d' ' -f1-3 /proc/loadavg); bench/cluster.sh took $((SECONDS - STARTED)) s."

if [[ ! -f $RESULTS ]]; then
  printf '# Benchmark results\n\nWritten by `bench/run.sh`, one dated section per run, newest last. What each figure means: `bench/README.md`.\n' >"$RESULTS"
fi
cat "$SECTION" >>"$RESULTS"
log "done: appended to $RESULTS"
cat "$SECTION"
