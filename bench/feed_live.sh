#!/usr/bin/env bash
# The lag of a live mirror (issue 30): one Backlay (the upstream, serving its Exchange Stream) and
# a second mirroring one market of it with `--feed betfair-stream:localhost:PORT`, logged in as a
# client of the first and trusting its self-signed certificate. bench/feed_live.py then moves the
# upstream's price LIVE_MOVES times (a back of 1 rupee more at 3.5 each time, 0–300 ms apart) and
# times each from the upstream's answer to the mirror's match page showing the new size.
#
#   bench/feed_live.sh       # BACKLAY_BIN (target/release/backlay if built, else target/debug)
#
# Prints the figures (p50, p90, p99, max); appends nothing (copy them into RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${BACKLAY_BIN:-} ]]; then
  BACKLAY_BIN=target/release/backlay
  [[ -x $BACKLAY_BIN ]] || BACKLAY_BIN=target/debug/backlay
fi
WORK=$(mktemp -d -t backlay-feed-live.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
echo "binary: $BACKLAY_BIN"

# Starts a server; prints its URL once it answers.
start() {
  local name=$1; shift
  BACKLAY_LOG=warn "$BACKLAY_BIN" serve --addr 127.0.0.1:0 --database-url "sqlite://$WORK/$name.db" --demo \
    --no-demo-feed --no-casino --web-dir "$WORK/no-web" "$@" > "$WORK/$name.out" 2> "$WORK/$name.log" &
  PIDS+=($!)
  local url=""
  for _ in $(seq 1 600); do
    url=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$WORK/$name.out" | head -1 || true)
    [[ -n $url ]] && break
    sleep 0.05
  done
  [[ -n $url ]] || { echo "$name did not start: $(cat "$WORK/$name.log")" >&2; exit 1; }
  echo "$url"
}

UPSTREAM=$(start upstream --betfair-stream-addr 127.0.0.1:0)
STREAM_PORT=$(grep -so 'Betfair stream (TLS) at 127\.0\.0\.1:[0-9]*' "$WORK/upstream.out" | grep -o '[0-9]*$')
# The market to mirror, and the client the mirror logs in as.
MARKET=$(python3 bench/feed_live.py prepare "$UPSTREAM")
MIRROR=$(start mirror --betfair-stream-addr off --feed "betfair-stream:localhost:$STREAM_PORT" \
  --feed-app-key bench --feed-user mirror --feed-password 'Mirror@1234' \
  --feed-identity-url "$UPSTREAM/betfair/identity/" --feed-ca "$WORK/upstream.stream.crt" \
  --feed-markets "1.$MARKET")
python3 bench/feed_live.py measure "$UPSTREAM" "$MIRROR" "$MARKET" "${LIVE_MOVES:-200}"
