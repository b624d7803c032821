"""What the bot API's tests share: the server run.sh started, betfairlightweight clients
pointed at it by their URLs alone (as a trader would point a bot), and calls of Backlay's own
web API for what a bot cannot do (an operator suspending a market, a bettor betting from the
web app).

run.sh exports BACKLAY_URL (http://127.0.0.1:<port>) and, once the stream listens,
BACKLAY_STREAM_HOST and BACKLAY_STREAM_PORT.
"""

import json
import os
import urllib.error
import urllib.request

import betfairlightweight

BASE = os.environ.get("BACKLAY_URL", "http://127.0.0.1:8080")
APP_KEY = "backlay-tests"

# The demo's log-ins (crates/demo): two clients under one agent, and the admin.
CLIENT = ("demo", "Demo@1234")
OTHER_CLIENT = ("demo2", "Demo@1234")
ADMIN = ("admin", "Admin@1234")


def bot(user=CLIENT, login=True):
    """A betfairlightweight client for `user`, unchanged but for its two URLs."""
    client = betfairlightweight.APIClient(user[0], user[1], app_key=APP_KEY)
    client.identity_uri = BASE + "/betfair/identity/"
    client.api_uri = BASE + "/betfair/exchange/"
    if login:
        client.login_interactive()
    return client


def web(path, body=None, token=None):
    """One call of Backlay's web API (`/api/<path>`): (HTTP status, JSON answer)."""
    data = json.dumps(body if body is not None else {}).encode()
    request = urllib.request.Request(BASE + "/api/" + path, data=data, method="POST")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


def web_token(user):
    status, answer = web("user/login", {"user_name": user[0], "password": user[1]})
    assert status == 200, answer
    return answer["data"]["token"]


def admin(path, body):
    """An admin's call of the web API; its `data`."""
    status, answer = web(path, body, web_token(ADMIN))
    assert status == 200, (path, status, answer)
    return answer["data"]


def new_market(label, in_play=False):
    """A fresh match-odds market of its own for one test ("Bots <label>", runners Home and
    Away, no bet delay), open: (Betfair's market id "1.<id>", the two selection ids). On a
    cricket match in play or not, as asked."""
    matches = admin("match/getMatches", {"sport_id": 4})
    match = next(m for m in matches if m["in_play"] == in_play)
    created = admin(
        "admin/market/create",
        {"match_id": match["match_id"], "type": "match_odds", "name": "Bots " + label,
         "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0},
    )
    set_status(created["market_id"], "open")
    return "1.%d" % created["market_id"], created["selection_ids"]


def set_status(market_id, status):
    """Opens or suspends a market as the operator does ("open", "suspended", "ball_running")."""
    if isinstance(market_id, str):
        market_id = int(market_id.split(".", 1)[1])
    admin("admin/market/status", {"market_id": market_id, "status": status})
