#!/usr/bin/env bash
# Where the server's time goes under placeBet load: a sampled profile with call stacks.
#
#   bench/profile.sh [SQLITE_OR_POSTGRES_URL]
#
# 1. builds the server with frame pointers and line tables into target/profile-build (its own
#    folder, so the release build bench/run.sh measures is left as it is);
# 2. starts it with demo data (demo feed off) on a free loopback port, on a fresh SQLite file
#    unless a database URL is given (a PostgreSQL database there must be empty or Backlay's);
# 3. runs place_load against it and, once the load has started, `perf record -g` on the server
#    for PROFILE_S seconds;
# 4. prints the load's figures, the share of each thread kind, the top frames by their own
#    time and by time under them, and where a batch of bets spends its time (the server's
#    /metrics: commit seconds, bets per commit).
#
# Knobs (environment): LOAD_DURATION_S (25), LOAD_CONCURRENCY (128), LOAD_USERS (64),
# PROFILE_S (8), PERF_FREQUENCY (999), PLACE_LOAD_ARGS (more place_load arguments, such as
# "--markets 1000 --resting 100000" for bets spread over many markets). Needs `perf` (Debian: linux-perf) and a
# kernel.perf_event_paranoid of 2 or lower (a user may profile their own processes).
set -euo pipefail

cd "$(dirname "$0")/.."
LOAD_DURATION_S=${LOAD_DURATION_S:-25}
LOAD_CONCURRENCY=${LOAD_CONCURRENCY:-128}
LOAD_USERS=${LOAD_USERS:-64}
PROFILE_S=${PROFILE_S:-8}
PERF_FREQUENCY=${PERF_FREQUENCY:-999}
TARGET=target/profile-build
METRICS_TOKEN=profile-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')

command -v perf >/dev/null || { echo "bench/profile.sh: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
WORK=$(mktemp -d -t backlay-profile.XXXXXX)
DATABASE_URL=${1:-sqlite://$WORK/profile.db}
SERVER_PID=""
cleanup() {
  if [[ -n $SERVER_PID ]]; then
    kill -INT "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  echo "bench/profile.sh: the profile stays in $WORK/perf.data (perf report -i $WORK/perf.data)" >&2
}
trap cleanup EXIT

echo "bench/profile.sh: building with frame pointers into $TARGET" >&2
CARGO_TARGET_DIR=$TARGET CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
  RUSTFLAGS="-C force-frame-pointers=yes" cargo build --release -p backlay >&2
cargo build --release -p backlay-bench --bin place_load >&2

(
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  exec "$TARGET/release/backlay" serve --addr 127.0.0.1:0 --database-url "$DATABASE_URL" --demo \
    --no-demo-feed --web-dir "$WORK/no-web" --secret-key-file "$WORK/secret.key" \
    --create-secret-key --metrics-token "$METRICS_TOKEN"
) >"$WORK/server.out" 2>"$WORK/server.log" &
SERVER_PID=$!
URL=""
for _ in $(seq 1 600); do
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -5 "$WORK/server.log" >&2; exit 1; }
  URL=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.out" | head -1 || true)
  [[ -n $URL ]] && curl -fsS -o /dev/null "$URL/api/health" && break
  sleep 0.2
done
[[ -n $URL ]] || { echo "bench/profile.sh: the server did not start" >&2; exit 1; }

target/release/place_load --base-url "$URL" --duration-s "$LOAD_DURATION_S" \
  --concurrency "$LOAD_CONCURRENCY" --users "$LOAD_USERS" --label profile ${PLACE_LOAD_ARGS:-} \
  >"$WORK/load.md" 2>"$WORK/load.err" &
LOAD_PID=$!
# place_load says when its clients are ready, then waits for the engine to stand still (6 s).
for _ in $(seq 1 600); do
  grep -q 'clients ready' "$WORK/load.err" 2>/dev/null && break
  kill -0 "$LOAD_PID" 2>/dev/null || break
  sleep 0.2
done
sleep 8
perf record -F "$PERF_FREQUENCY" -g -p "$SERVER_PID" -o "$WORK/perf.data" -- sleep "$PROFILE_S" 2>"$WORK/perf.err"
wait "$LOAD_PID" || { tail -5 "$WORK/load.err" >&2; exit 1; }
curl -fsS -H "Authorization: Bearer $METRICS_TOKEN" "$URL/metrics" >"$WORK/metrics"

# The reports are cut short with head: a reader that stops early is not a failure.
set +o pipefail
report() { perf report -i "$WORK/perf.data" --stdio -g none "$@" 2>/dev/null | grep -v '^#' | grep -v '^$' | cut -c1-150; }
cat "$WORK/load.md"
echo
echo "Threads (share of samples):"
report --no-children --sort comm | head -4
echo
echo "Top frames by their own time:"
report --no-children --sort symbol | head -15
echo
echo "Top frames of ours, the database's and the HTTP stack's by the time under them:"
report --children --sort symbol | grep -E 'backlay_|sqlite3_step|sqlite3_exec|sqlite3RunParser|sqlite3_bind|hyper::proto::h1::dispatch::Dispatcher<D,Bs,I,T>::poll_catch|ConnectionWorker::ping' | head -20
echo
echo "Batches (from /metrics):"
grep -E '^backlay_(commit_seconds|group_commit_bets)_(sum|count)' "$WORK/metrics"
