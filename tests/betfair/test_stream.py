"""The bot API's Exchange Stream through betfairlightweight's streaming client, unmodified but
for its host and port (set by attribute, as docs/bot-api.md shows; the stream speaks TLS with a
self-signed certificate, which the library does not verify): a market's initial image, the
delta of a bet placed from the web app, and the bot's own order changes."""

import os
import threading
import time
import unittest

from betfairlightweight import StreamListener, filters

from backlay import CLIENT, bot, new_market, web, web_token

STREAM_HOST = os.environ.get("BACKLAY_STREAM_HOST", "127.0.0.1")
STREAM_PORT = int(os.environ.get("BACKLAY_STREAM_PORT", "8443"))
# flumine's default fields (SP_* are accepted and send nothing: Backlay has no starting price).
FIELDS = ["EX_ALL_OFFERS", "EX_TRADED", "EX_TRADED_VOL", "EX_LTP", "EX_MARKET_DEF", "SP_TRADED", "SP_PROJECTED"]
PATIENCE_S = 10


def open_stream(client, listener):
    """A stream of `client` pointed at Backlay (create_stream takes no host or port)."""
    stream = client.streaming.create_stream(listener=listener)
    stream.host = STREAM_HOST
    stream._BetfairStream__port = STREAM_PORT
    return stream


def run(stream):
    thread = threading.Thread(target=stream.start, daemon=True)
    thread.start()
    return thread


def wait_for(check, what):
    """`check()`'s first truthy answer within PATIENCE_S."""
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("waited %d s for %s" % (PATIENCE_S, what))


def place_from_web(market_id, selection_id, side, price, stake):
    status, answer = web(
        "bet/placeBet",
        {"market_id": int(market_id.split(".")[1]), "selection_id": selection_id, "side": side,
         "price": price, "stake": stake},
        web_token(CLIENT),
    )
    assert status == 200, answer
    return str(answer["data"]["bet_id"])


class MarketStream(unittest.TestCase):
    def test_the_image_then_the_delta_of_a_bet_placed_from_the_web_app(self):
        market_id, selections = new_market("stream prices")
        client = bot()
        listener = StreamListener(max_latency=None)
        stream = open_stream(client, listener)
        stream.subscribe_to_markets(
            market_filter=filters.streaming_market_filter(market_ids=[market_id]),
            market_data_filter=filters.streaming_market_data_filter(fields=FIELDS, ladder_levels=3),
        )
        thread = run(stream)
        try:
            book = wait_for(lambda: listener.snap([market_id]), "the image")[0]
            self.assertEqual(book.market_id, market_id)
            self.assertEqual(book.status, "OPEN")
            self.assertIsNotNone(book.market_definition.market_time, "marketTime parses")
            self.assertEqual(book.market_definition.market_type, "MATCH_ODDS")
            self.assertEqual([r.selection_id for r in book.runners], selections)
            self.assertEqual(book.runners[0].ex.available_to_back, [])
            self.assertTrue(listener.initial_clk and listener.clk)

            # A back of 100 at 2.5 waits in the book: layers can take it.
            place_from_web(market_id, selections[0], "back", 2.5, 100)

            def offered():
                runner = listener.snap([market_id])[0].runners[0]
                ladder = runner.ex.available_to_back + runner.ex.available_to_lay
                return [(p.price, p.size) for p in ladder if p.price == 2.5]

            self.assertEqual(wait_for(offered, "the delta"), [(2.5, 100.0)])
        finally:
            stream.stop()
            thread.join(5)


class OrderStream(unittest.TestCase):
    def test_the_bots_own_orders_including_one_placed_from_the_web_app(self):
        market_id, selections = new_market("stream orders")
        client = bot()
        listener = StreamListener(max_latency=None)
        stream = open_stream(client, listener)
        stream.subscribe_to_orders(
            order_filter=filters.streaming_order_filter(include_overall_position=False, partition_matched_by_strategy_ref=True),
        )
        thread = run(stream)
        try:
            wait_for(lambda: listener.stream is not None and listener.clk, "the order image")
            bet_id = place_from_web(market_id, selections[1], "lay", 3.0, 50)

            def order():
                for current in listener.snap():
                    for o in current.orders:
                        if o.bet_id == bet_id:
                            return o
                return None

            found = wait_for(order, "the order's change")
            self.assertEqual(found.market_id, market_id)
            self.assertEqual(found.selection_id, selections[1])
            self.assertEqual(found.side, "LAY")
            self.assertEqual(found.status, "EXECUTABLE")
            self.assertEqual(found.price_size.price, 3.0)
            self.assertEqual(found.size_remaining, 50.0)
            self.assertIsNotNone(found.placed_date)

            # Cancelled from the web app: the order comes again, complete.
            status, answer = web("bet/cancelBet", {"bet_id": int(bet_id)}, web_token(CLIENT))
            self.assertEqual(status, 200, answer)
            done = wait_for(lambda: order() if order().status == "EXECUTION_COMPLETE" else None, "the cancellation")
            self.assertEqual(done.size_cancelled, 50.0)
            self.assertEqual(done.size_remaining, 0.0)

            # The bot's own order carries its references (flumine follows its orders by them).
            placed = client.betting.place_orders(
                market_id=market_id,
                instructions=[filters.place_instruction(
                    order_type="LIMIT", selection_id=selections[0], side="BACK", handicap=0,
                    limit_order=filters.limit_order(size=20, price=4.0, persistence_type="LAPSE"),
                    customer_order_ref="strategy-1")],
                customer_strategy_ref="strat",
            )
            own_id = placed.place_instruction_reports[0].bet_id
            bot_order = wait_for(lambda: next((o for c in listener.snap() for o in c.orders if o.bet_id == own_id), None), "the bot's order")
            self.assertEqual(bot_order.customer_order_ref, "strategy-1")
            self.assertEqual(bot_order.customer_strategy_ref, "strat")
            self.assertEqual(bot_order.side, "BACK")
        finally:
            stream.stop()
            thread.join(5)


if __name__ == "__main__":
    unittest.main()
