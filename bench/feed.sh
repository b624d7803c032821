#!/usr/bin/env bash
# How fast the feed replays a recording (issue 30), two ways, in messages per second:
#   1. read and mirrored alone: `backlay feed show` over the greyhound WIN and PLACE recordings
#      (tests/feeds/flumine) repeated FEED_REPEAT times into one file each (every copy starts
#      with a full image, so the ladders are rebuilt each time);
#   2. into a server: `backlay serve --feed … --feed-speed 0` on a fresh SQLite database, the two
#      recordings once each (the markets made, opened, quoted by the house at every upstream
#      change, settled), from the server's start to `admin/feed/status` saying finished, and
#      then the repeated files (the markets closed after the first copy: reading and mirroring).
#
#   bench/feed.sh            # BACKLAY_BIN (target/release/backlay if built, else target/debug)
#
# Prints the figures; appends nothing (copy them into RESULTS.md with the binary's build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${BACKLAY_BIN:-} ]]; then
  BACKLAY_BIN=target/release/backlay
  [[ -x $BACKLAY_BIN ]] || BACKLAY_BIN=target/debug/backlay
fi
FEED_REPEAT=${FEED_REPEAT:-200}
WORK=$(mktemp -d -t backlay-feed-bench.XXXXXX)
SERVER_PID=""
cleanup() {
  [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

WIN=tests/feeds/flumine/1.197931750
PLACE=tests/feeds/flumine/1.197931751
for f in "$WIN" "$PLACE"; do
  for _ in $(seq 1 "$FEED_REPEAT"); do cat "$f"; done > "$WORK/$(basename "$f")"
done
echo "binary: $BACKLAY_BIN"

now_ms() { date +%s%3N; }

# 1. Read and mirrored alone.
start=$(now_ms)
messages=$("$BACKLAY_BIN" feed show "$WORK/1.197931750" "$WORK/1.197931751" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"])')
took=$(( $(now_ms) - start ))
echo "feed show: $messages messages in $took ms: $(( messages * 1000 / (took > 0 ? took : 1) )) messages/s"

# 2. Into a server.
serve() {
  local db=$1; shift
  start=$(now_ms)
  BACKLAY_LOG=warn "$BACKLAY_BIN" serve --addr 127.0.0.1:0 --database-url "sqlite://$WORK/$db" --demo --no-demo-feed \
    --no-casino --betfair-stream-addr off --web-dir "$WORK/no-web" --feed-speed 0 \
    --feed-catalogue tests/feeds/flumine/catalogues "$@" > "$WORK/$db.out" 2> "$WORK/$db.log" &
  SERVER_PID=$!
  local url=""
  until [[ -n $url ]]; do
    url=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$WORK/$db.out" | head -1 || true)
    sleep 0.05
  done
  local token
  token=$(curl -s "$url/api/user/login" -H 'content-type: application/json' \
    -d '{"user_name":"admin","password":"Admin@1234"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["token"])')
  local status
  # A cheap poll (no interpreter started each time): the bench's own CPU stays out of the figure.
  until status=$(curl -s "$url/api/admin/feed/status" -H "authorization: Bearer $token") &&
    [[ $status == *'"state":"finished"'* ]]; do
    sleep 0.05
  done
  took=$(( $(now_ms) - start ))
  messages=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["data"]["feeds"][0]["messages"])' "$status")
  echo "serve $*: $messages messages, server start to finished $took ms: $(( messages * 1000 / (took > 0 ? took : 1) )) messages/s"
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
}
serve once.db --feed "betfair-file:$WIN,betfair-file:$PLACE"
serve repeated.db --feed "betfair-file:$WORK/1.197931750,betfair-file:$WORK/1.197931751"
