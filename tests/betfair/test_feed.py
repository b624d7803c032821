"""The feed's mirror of a recording against betfairlightweight's own reader of it.

At moments through the greyhound WIN and PLACE recordings (tests/feeds/flumine, from flumine's
test data), `backlay feed show FILE --until-pt PT` must show every runner with the state, last
traded price and best three levels to back and to lay that betfairlightweight's historical
generator stream (with `StreamListener(max_latency=None)`, as tests/feeds/README.md says) shows
at the same moment: the same prices, the same sizes to the penny.

Then a server of its own replays the WIN recording at speed 0 to a moment before the off
(`--feed … --feed-until-pt`), its house offering the upstream's sizes at 50 %: Backlay's
listMarketBook over its own bot API, read by betfairlightweight, must show for every runner the
upstream's best three prices to back and to lay at that moment, with half the sizes.
"""

import json
import os
import re
import subprocess
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

from betfairlightweight import filters

import betfairlightweight
from betfairlightweight import StreamListener

ROOT = Path(__file__).resolve().parents[2]
BACKLAY_BIN = os.environ.get("BACKLAY_BIN", str(ROOT / "target/debug/backlay"))
RECORDINGS = [ROOT / "tests/feeds/flumine/1.197931750", ROOT / "tests/feeds/flumine/1.197931751"]
LEVELS = 3
# Every this many lines, and the last line.
EVERY_LINES = 15


def reference_books(path):
    """betfairlightweight's market books after each line: (pt, {market_id: MarketBook})."""
    trading = betfairlightweight.APIClient("username", "password", app_key="appkey")
    stream = trading.streaming.create_historical_generator_stream(
        file_path=str(path), listener=StreamListener(max_latency=None)
    )
    for books in stream.get_generator()():
        pt = max(book.publish_time_epoch for book in books)
        yield pt, {book.market_id: book for book in books}


def backlay_show(path, until_pt):
    answer = subprocess.run(
        [BACKLAY_BIN, "feed", "show", str(path), "--until-pt", str(until_pt), "--levels", str(LEVELS)],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return json.loads(answer.stdout)


def pennies(size):
    """A size as whole pennies: betfairlightweight's float, or Backlay's decimal text."""
    return round(float(size) * 100)


def reference_levels(levels):
    return [(level.price, pennies(level.size)) for level in levels[:LEVELS]]


def backlay_levels(levels):
    return [(level["price"], pennies(level["size"])) for level in levels]


class MirrorAgainstBetfairlightweight(unittest.TestCase):
    def test_every_runners_best_levels_match_the_reference_reader_through_the_recording(self):
        for path in RECORDINGS:
            moments = list(reference_books(path))
            self.assertGreater(len(moments), 100, path)
            chosen = moments[::EVERY_LINES] + [moments[-1]]
            for pt, books in chosen:
                shown = backlay_show(path, pt)
                self.assertEqual(shown["refused"], 0, shown["first_refusal"])
                self.assertEqual(shown["pt"], pt)
                markets = {market["market_id"]: market for market in shown["markets"]}
                self.assertEqual(sorted(markets), sorted(books))
                for market_id, book in books.items():
                    market = markets[market_id]
                    where = f"{path.name} at pt {pt}, market {market_id}"
                    self.assertEqual(market["status"], book.status, where)
                    self.assertEqual(market["in_play"], book.inplay, where)
                    runners = {runner["selection_id"]: runner for runner in market["runners"]}
                    self.assertEqual(sorted(runners), sorted(r.selection_id for r in book.runners), where)
                    for reference in book.runners:
                        runner = runners[reference.selection_id]
                        at = f"{where}, selection {reference.selection_id}"
                        self.assertEqual(runner["status"], reference.status, at)
                        self.assertEqual(runner["last_traded"], reference.last_price_traded, at)
                        self.assertEqual(
                            backlay_levels(runner["back"]), reference_levels(reference.ex.available_to_back), at
                        )
                        self.assertEqual(
                            backlay_levels(runner["lay"]), reference_levels(reference.ex.available_to_lay), at
                        )

    def test_the_end_of_the_win_recording_is_the_recorded_result(self):
        shown = backlay_show(RECORDINGS[0], 2**62)
        market = shown["markets"][0]
        self.assertEqual(market["status"], "CLOSED")
        winners = [runner["name"] for runner in market["runners"] if runner["status"] == "WINNER"]
        self.assertEqual(winners, ["2. Sandwood Jet"])


BEFORE_THE_OFF_PT = 1650392800000
SIZE_PERCENT = 50
SERVER_START_S = 60


def call(base, path, body=None, token=None, method="POST"):
    data = None if method == "GET" else json.dumps(body or {}).encode()
    request = urllib.request.Request(base + "/api/" + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=15) as answer:
        return json.load(answer)["data"]


class HouseOverTheBotApi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        work = Path(cls.work.name)
        cls.log = open(work / "server.log", "w")
        cls.server = subprocess.Popen(
            [BACKLAY_BIN, "serve", "--addr", "127.0.0.1:0", "--database-url", f"sqlite://{work}/feed.db",
             "--demo", "--no-demo-feed", "--no-casino", "--betfair-stream-addr", "off",
             "--web-dir", str(work / "no-web"),
             "--feed", f"betfair-file:{RECORDINGS[0]}",
             "--feed-catalogue", str(ROOT / "tests/feeds/flumine/catalogues"),
             "--feed-speed", "0", "--feed-until-pt", str(BEFORE_THE_OFF_PT),
             "--feed-size-percent", str(SIZE_PERCENT)],
            stdout=subprocess.PIPE, stderr=cls.log, text=True,
            env={**os.environ, "BACKLAY_LOG": "warn"},
        )
        deadline = time.monotonic() + SERVER_START_S
        cls.base = None
        while cls.base is None and time.monotonic() < deadline:
            line = cls.server.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:[0-9]+", line or "")
            if found:
                cls.base = found.group(0)
        if cls.base is None:
            cls.server.kill()
            raise RuntimeError("the feed's server did not start: " + (work / "server.log").read_text()[-2000:])
        admin = call(cls.base, "user/login", {"user_name": "admin", "password": "Admin@1234"})["token"]
        while True:
            feeds = call(cls.base, "admin/feed/status", token=admin, method="GET")["feeds"]
            if feeds and feeds[0]["state"] == "finished":
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the feed never finished: {feeds}")
            time.sleep(0.05)
        cls.feed = feeds[0]

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        try:
            cls.server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            cls.server.kill()
        cls.server.stdout.close()
        cls.log.close()
        cls.work.cleanup()

    def test_list_market_book_shows_the_upstream_best_three_at_the_scaled_sizes(self):
        [market] = self.feed["markets"]
        upstream_of = {r["selection_id"]: r["upstream_selection_id"] for r in market["runners"]}
        pt, books = [m for m in reference_books(RECORDINGS[0]) if m[0] <= BEFORE_THE_OFF_PT][-1]
        self.assertEqual(self.feed["last_pt"], pt)
        reference = {r.selection_id: r for r in books[market["upstream_market_id"]].runners}

        client = betfairlightweight.APIClient("demo", "Demo@1234", app_key="backlay-tests")
        client.identity_uri = self.base + "/betfair/identity/"
        client.api_uri = self.base + "/betfair/exchange/"
        client.login_interactive()
        [book] = client.betting.list_market_book(
            market_ids=["1.%d" % market["market_id"]],
            price_projection=filters.price_projection(price_data=["EX_BEST_OFFERS"]),
        )
        self.assertEqual(book.status, "OPEN")
        self.assertEqual(len(book.runners), len(reference))
        scaled = lambda levels: [(l.price, pennies(l.size) * SIZE_PERCENT // 100) for l in levels[:LEVELS]]
        for runner in book.runners:
            upstream = reference[upstream_of[runner.selection_id]]
            at = f"selection {upstream.selection_id}"
            self.assertEqual(
                [(l.price, pennies(l.size)) for l in runner.ex.available_to_back],
                scaled(upstream.ex.available_to_back), at,
            )
            self.assertEqual(
                [(l.price, pennies(l.size)) for l in runner.ex.available_to_lay],
                scaled(upstream.ex.available_to_lay), at,
            )
        client.logout()


if __name__ == "__main__":
    unittest.main()
