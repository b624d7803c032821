"""The feed's mirror of a recording against betfairlightweight's own reader of it.

At moments through the greyhound WIN and PLACE recordings (tests/feeds/flumine, from flumine's
test data), `backlay feed show FILE --until-pt PT` must show every runner with the state, last
traded price and best three levels to back and to lay that betfairlightweight's historical
generator stream (with `StreamListener(max_latency=None)`, as tests/feeds/README.md says) shows
at the same moment: the same prices, the same sizes to the penny.
"""

import json
import os
import subprocess
import unittest
from pathlib import Path

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


if __name__ == "__main__":
    unittest.main()
