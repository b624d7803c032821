"""The live mirror's lag, for bench/feed_live.sh (standard library only).

  feed_live.py prepare UPSTREAM                  # prints the market id made upstream
  feed_live.py measure UPSTREAM MIRROR MARKET N  # N price moves, timed to the mirror's page
"""

import json
import random
import statistics
import sys
import time
import urllib.request


def call(base, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/api/{path}", data=data, method="POST" if data else "GET")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        envelope = json.load(answer)
    if not envelope["status"]:
        raise SystemExit(f"{path}: {envelope['message']}")
    return envelope["data"]


def login(base, user, password):
    return call(base, "user/login", {"user_name": user, "password": password})["token"]


def prepare(upstream):
    admin = login(upstream, "admin", "Admin@1234")
    demo = login(upstream, "demo", "Demo@1234")
    match_id = call(upstream, "match/getMatches", {"sport_id": 4}, demo)[0]["match_id"]
    market = call(upstream, "admin/market/create", {"match_id": match_id, "type": "match_odds", "name": "Bench Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0}, admin)
    call(upstream, "admin/market/status", {"market_id": market["market_id"], "status": "open"}, admin)
    call(upstream, "admin/user/create", {"user_name": "mirror", "password": "First@123", "role": "client"}, admin)
    first = login(upstream, "mirror", "First@123")
    call(upstream, "user/changePassword", {"master_password": "First@123", "new_password": "Mirror@1234", "confirm_password": "Mirror@1234"}, first)
    print(market["market_id"])


def level_size(mirror, token, match_id, market_id):
    """The size the mirror's page shows at 3.5 in Home's lay column (its house's backs)."""
    detail = call(mirror, "match/matchDetail", {"match_id": match_id}, token)
    market = next(m for m in detail["markets"] if m["market_id"] == market_id)
    return next((level["size"] for level in market["runners"][0]["lay"] if level["price"] == 3.5), 0.0)


def measure(upstream, mirror, upstream_market, moves):
    demo = login(upstream, "demo", "Demo@1234")
    admin = login(mirror, "admin", "Admin@1234")
    watcher = login(mirror, "demo", "Demo@1234")
    deadline = time.monotonic() + 60
    while True:
        feeds = call(mirror, "admin/feed/status", token=admin)["feeds"]
        markets = feeds[0]["markets"] if feeds else []
        if markets and feeds[0]["state"] == "running":
            market_id, match_id = markets[0]["market_id"], markets[0]["match_id"]
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"the mirror never subscribed: {feeds}")
        time.sleep(0.1)
    selection = upstream_selection(upstream, demo, upstream_market)
    lags = []
    random.seed(30)
    for move in range(1, moves + 1):
        time.sleep(random.uniform(0, 0.3))
        call(upstream, "bet/placeBet", {"market_id": upstream_market, "selection_id": selection, "side": "back", "price": "3.5", "stake": 1}, demo)
        sent = time.monotonic()
        while level_size(mirror, watcher, match_id, market_id) != float(move):
            if time.monotonic() - sent > 30:
                raise SystemExit(f"move {move} never reached the mirror")
            time.sleep(0.002)
        lags.append((time.monotonic() - sent) * 1000)
    lags.sort()
    pick = lambda q: lags[min(len(lags) - 1, int(q * len(lags)))]
    print(f"live mirror lag over {moves} price moves (upstream's answer to the mirror's page): "
          f"p50 {statistics.median(lags):.0f} ms, p90 {pick(0.90):.0f} ms, p99 {pick(0.99):.0f} ms, max {lags[-1]:.0f} ms")


def upstream_selection(upstream, token, market_id):
    """Home's selection id in the upstream's market."""
    for match in call(upstream, "match/getMatches", {"sport_id": 4}, token):
        detail = call(upstream, "match/matchDetail", {"match_id": match["match_id"]}, token)
        for market in detail["markets"]:
            if market["market_id"] == market_id:
                return market["runners"][0]["selection_id"]
    raise SystemExit(f"market {market_id} is not on the upstream's pages")


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        measure(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
