"""Bot API vs web app, one bet at a time: 200 sequential single-bet placements through the
bot API (betfairlightweight placeOrders) and through the web API (POST /api/bet/placeBet),
alternating, on one market of its own: medians and p90 in ms.

Run against a server with the demo data (the demo's admin, demo and a not-in-play cricket match):
    BACKLAY_URL=http://127.0.0.1:8080 target/betfair-venv/bin/python bench/bot_latency.py
(`make test` builds target/betfair-venv with betfairlightweight.)"""
import json, os, statistics, time, urllib.request
import betfairlightweight
from betfairlightweight import filters
BASE = os.environ.get("BACKLAY_URL", "http://127.0.0.1:8080")
def web(path, body, token=None):
    req = urllib.request.Request(BASE + "/api/" + path, data=json.dumps(body).encode(), method="POST")
    req.add_header("content-type", "application/json")
    if token: req.add_header("authorization", "Bearer " + token)
    return json.load(urllib.request.urlopen(req))["data"]
c = betfairlightweight.APIClient("demo", "Demo@1234", app_key="lat")
c.identity_uri = BASE + "/betfair/identity/"; c.api_uri = BASE + "/betfair/exchange/"; c.login_interactive()
token = web("user/login", {"user_name": "demo", "password": "Demo@1234"})["token"]
admin = web("user/login", {"user_name": "admin", "password": "Admin@1234"})["token"]
match = next(m for m in web("match/getMatches", {"sport_id": 4}, admin) if not m["in_play"])
created = web("admin/market/create", {"match_id": match["match_id"], "type": "match_odds", "name": "Latency", "runners": ["A", "B"], "min_stake": 1, "bet_delay_s": 0}, admin)
web("admin/market/status", {"market_id": created["market_id"], "status": "open"}, admin)
mid, sel = created["market_id"], created["selection_ids"][0]
bot, webt = [], []
for i in range(200):
    t = time.perf_counter()
    r = c.betting.place_orders(market_id="1.%d" % mid, instructions=[filters.place_instruction(order_type="LIMIT", selection_id=sel, side="BACK", handicap=0, limit_order=filters.limit_order(size=1, price=20, persistence_type="LAPSE"))])
    bot.append((time.perf_counter() - t) * 1000); assert r.status == "SUCCESS", r.error_code
    t = time.perf_counter()
    web("bet/placeBet", {"market_id": mid, "selection_id": sel, "side": "back", "price": "20", "stake": 1}, token)
    webt.append((time.perf_counter() - t) * 1000)
q = lambda xs, p: sorted(xs)[int(len(xs) * p) - 1]
print("bot placeOrders: median %.2f ms, p90 %.2f ms" % (statistics.median(bot), q(bot, 0.9)))
print("web placeBet:    median %.2f ms, p90 %.2f ms" % (statistics.median(webt), q(webt, 0.9)))
print("ratio of medians (bot / web): %.2f" % (statistics.median(bot) / statistics.median(webt)))
