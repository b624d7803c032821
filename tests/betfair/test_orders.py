"""The bot API's orders and account through betfairlightweight, unmodified but for its URLs:
a back and a lay from two bots that match at the right price, cancel, replace and update of an
unmatched order, current and cleared orders, market P&L, funds and statement, a repeated
placeOrders with the same customerRef that places no second bet, and the refusals a bot must
be able to read (bad odds, insufficient funds, a suspended market). lightweight=False (the
default), so the library's own strict parsing checks every shape."""

import unittest
import uuid

from betfairlightweight import filters
from betfairlightweight.exceptions import APIError

from backlay import CLIENT, OTHER_CLIENT, admin, bot, new_market, set_status


def limit(selection_id, side, price, size, persistence="LAPSE", order_ref=None):
    return filters.place_instruction(
        order_type="LIMIT",
        selection_id=selection_id,
        side=side,
        handicap=0,
        limit_order=filters.limit_order(price=price, persistence_type=persistence, size=size),
        customer_order_ref=order_ref,
    )


def market_number(market_id):
    return int(market_id.split(".", 1)[1])


class Matching(unittest.TestCase):
    def test_a_back_and_a_lay_from_two_bots_match_at_the_resting_price(self):
        market_id, (home, away) = new_market("py match")
        backer, layer = bot(CLIENT), bot(OTHER_CLIENT)
        backed = backer.betting.place_orders(
            market_id, [limit(home, "BACK", 2.5, 10, order_ref="py-back")],
            customer_ref=uuid.uuid4().hex)
        self.assertEqual(backed.status, "SUCCESS")
        back = backed.place_instruction_reports[0]
        self.assertEqual(back.order_status, "EXECUTABLE")
        self.assertEqual(back.instruction.customer_order_ref, "py-back")
        self.assertIsNotNone(back.placed_date, "placedDate parses as Betfair's date")

        laid = layer.betting.place_orders(market_id, [limit(home, "LAY", 2.6, 10)])
        lay = laid.place_instruction_reports[0]
        self.assertEqual(lay.order_status, "EXECUTION_COMPLETE")
        self.assertEqual(lay.size_matched, 10.0)
        self.assertEqual(lay.average_price_matched, 2.5, "matched at the backer's resting price")

        orders = backer.betting.list_current_orders(market_ids=[market_id]).orders
        self.assertEqual([o.bet_id for o in orders], [back.bet_id])
        self.assertEqual(orders[0].status, "EXECUTION_COMPLETE")
        self.assertEqual(orders[0].average_price_matched, 2.5)
        self.assertEqual(orders[0].customer_order_ref, "py-back")
        self.assertEqual(orders[0].price_size.price, 2.5)
        theirs = layer.betting.list_current_orders(market_ids=[market_id]).orders
        self.assertEqual([(o.side, o.size_matched) for o in theirs], [("LAY", 10.0)])

        book = backer.betting.list_market_book(
            [market_id], order_projection="ALL", match_projection="NO_ROLLUP")[0]
        runner = next(r for r in book.runners if r.selection_id == home)
        self.assertEqual([o.bet_id for o in runner.orders], [back.bet_id])
        self.assertEqual(runner.orders[0].avg_price_matched, 2.5)
        self.assertEqual([(m.side, m.price, m.size) for m in runner.matches], [("BACK", 2.5, 10.0)])

        pnl = backer.betting.list_market_profit_and_loss([market_id])[0]
        self.assertEqual({p.selection_id: p.if_win for p in pnl.profit_and_losses},
                         {home: 15.0, away: -10.0})

        funds = backer.account.get_account_funds()
        self.assertLessEqual(funds.exposure, -10.0)
        self.assertLess(funds.exposure_limit, 0)

        admin("admin/market/result", {"market_id": market_number(market_id), "winner_selection_id": home})
        cleared = backer.betting.list_cleared_orders(
            bet_status="SETTLED", market_ids=[market_id], include_item_description=True).orders
        self.assertEqual([(c.bet_id, c.bet_outcome, c.profit) for c in cleared],
                         [(back.bet_id, "WON", 15.0)])
        self.assertEqual(cleared[0].customer_order_ref, "py-back")
        self.assertEqual(cleared[0].item_description.market_desc, "Bots py match")
        grouped = layer.betting.list_cleared_orders(
            bet_status="SETTLED", market_ids=[market_id], group_by="MARKET").orders
        self.assertEqual([(g.market_id, g.profit) for g in grouped], [(market_id, -15.0)])

        statement = backer.account.get_account_statement(record_count=5)
        self.assertEqual(statement.account_statement[0].amount, 15.0)
        self.assertEqual(statement.account_statement[0].legacy_data.win_lose, "RESULT_WON")
        details = backer.account.get_account_details()
        self.assertEqual(details.currency_code, "INR")


class Editing(unittest.TestCase):
    def test_cancel_replace_and_update_an_unmatched_order(self):
        market_id, (home, away) = new_market("py edits")
        client = bot(CLIENT)
        placed = client.betting.place_orders(
            market_id, [limit(home, "BACK", 3.0, 10, order_ref="py-edit")],
            customer_strategy_ref="py-strat")
        bet_id = placed.place_instruction_reports[0].bet_id

        updated = client.betting.update_orders(
            market_id, [filters.update_instruction(bet_id, "PERSIST")])
        self.assertEqual(updated.status, "SUCCESS")
        self.assertEqual(updated.update_instruction_reports[0].instruction.bet_id, bet_id)
        same = client.betting.update_orders(
            market_id, [filters.update_instruction(bet_id, "PERSIST")])
        self.assertEqual(same.update_instruction_reports[0].error_code, "NO_ACTION_REQUIRED")

        cancelled = client.betting.cancel_orders(
            market_id, [filters.cancel_instruction(bet_id, size_reduction=4.0)])
        self.assertEqual(cancelled.status, "SUCCESS")
        report = cancelled.cancel_instruction_reports[0]
        self.assertEqual((report.instruction.bet_id, report.size_cancelled), (bet_id, 4.0))
        self.assertIsNotNone(report.cancelled_date)

        replaced = client.betting.replace_orders(
            market_id, [filters.replace_instruction(bet_id, 3.5)])
        self.assertEqual(replaced.status, "SUCCESS")
        replace = replaced.replace_instruction_reports[0]
        self.assertEqual(replace.cancel_instruction_reports.size_cancelled, 6.0)
        placed_again = replace.place_instruction_reports
        self.assertEqual((placed_again.instruction.limit_order.price,
                          placed_again.instruction.limit_order.size), (3.5, 6.0))
        new_id = placed_again.bet_id
        self.assertNotEqual(new_id, bet_id)

        live = client.betting.list_current_orders(
            customer_order_refs=["py-edit"], order_projection="EXECUTABLE").orders
        self.assertEqual([(o.bet_id, o.persistence_type, o.customer_strategy_ref) for o in live],
                         [(new_id, "PERSIST", "py-strat")])

        everything = client.betting.cancel_orders(market_id)
        self.assertEqual([r.instruction.bet_id for r in everything.cancel_instruction_reports], [new_id])
        again = client.betting.cancel_orders(market_id, [filters.cancel_instruction(new_id)])
        self.assertEqual(again.cancel_instruction_reports[0].error_code, "BET_TAKEN_OR_LAPSED")
        gone = client.betting.list_cleared_orders(
            bet_status="CANCELLED", customer_order_refs=["py-edit"]).orders
        self.assertEqual(sorted(c.bet_id for c in gone), sorted([bet_id, new_id]))
        self.assertEqual(client.betting.list_current_orders(market_ids=[market_id]).orders, [])


class Idempotency(unittest.TestCase):
    def test_a_repeated_customer_ref_places_no_second_bet(self):
        market_id, (home, _) = new_market("py repeat")
        client = bot(CLIENT)
        key = uuid.uuid4().hex
        first = client.betting.place_orders(market_id, [limit(home, "BACK", 4.0, 5)], customer_ref=key)
        self.assertEqual(first.status, "SUCCESS")
        again = client.betting.place_orders(market_id, [limit(home, "BACK", 4.0, 5)], customer_ref=key)
        self.assertEqual((again.status, again.error_code), ("FAILURE", "DUPLICATE_TRANSACTION"))
        self.assertEqual(again.place_instruction_reports, [])
        orders = client.betting.list_current_orders(market_ids=[market_id]).orders
        self.assertEqual(len(orders), 1)


class Refusals(unittest.TestCase):
    def test_bad_odds_funds_and_a_suspended_market_are_failure_reports(self):
        market_id, (home, _) = new_market("py refusals")
        client = bot(CLIENT)

        def refused(answer, top, instruction):
            self.assertEqual(answer.status, "FAILURE")
            self.assertEqual(answer.error_code, top)
            self.assertEqual(answer.place_instruction_reports[0].status, "FAILURE")
            self.assertEqual(answer.place_instruction_reports[0].error_code, instruction)

        refused(client.betting.place_orders(market_id, [limit(home, "BACK", 2.51, 5)]),
                "BET_ACTION_ERROR", "INVALID_ODDS")
        available = client.account.get_account_funds().available_to_bet_balance
        size = int(available / 999) + 1
        refused(client.betting.place_orders(market_id, [limit(home, "LAY", 1000, size)]),
                "INSUFFICIENT_FUNDS", "INSUFFICIENT_FUNDS")
        set_status(market_id, "suspended")
        refused(client.betting.place_orders(market_id, [limit(home, "BACK", 2.5, 5)]),
                "MARKET_SUSPENDED", "ERROR_IN_ORDER")
        self.assertEqual(client.betting.list_current_orders(market_ids=[market_id]).orders, [])
        with self.assertRaises(APIError) as bad:
            client.betting.place_orders(market_id, [limit(home, "BACK", 2.5, 5)], customer_ref="x" * 33)
        self.assertEqual(
            bad.exception.response["error"]["data"]["APINGException"]["errorCode"], "INVALID_INPUT_DATA")


if __name__ == "__main__":
    unittest.main()
