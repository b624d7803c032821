"""The bot API's log-in and catalogue through betfairlightweight, unmodified but for its URLs:
log-in (interactive and with a certificate file), keep-alive, log-out, the lists of event
types, competitions, events and markets, and the books. lightweight=False (the default), so
the library's own parsing checks every shape."""

import os
import tempfile
import unittest

import requests
from betfairlightweight import filters
from betfairlightweight.exceptions import APIError, LoginError

from backlay import APP_KEY, BASE, CLIENT, ADMIN, bot, new_market, web, web_token


def error_code(err):
    return err.response["error"]["data"]["APINGException"]["errorCode"]


class LogIn(unittest.TestCase):
    def test_a_session_lives_on_with_keep_alive_and_ends_with_log_out(self):
        client = bot()
        token = client.session_token
        self.assertTrue(token)
        self.assertEqual(client.keep_alive().status, "SUCCESS")
        self.assertEqual(client.session_token, token, "keepAlive echoes the token")
        self.assertTrue(client.betting.list_event_types())
        client.logout()
        client.session_token = token
        with self.assertRaises(APIError) as refused:
            client.betting.list_event_types()
        self.assertEqual(error_code(refused.exception), "INVALID_SESSION_INFORMATION")

    def test_the_certificate_log_in_answers_in_its_own_shape(self):
        with tempfile.TemporaryDirectory() as certs:
            for name in ("bot.crt", "bot.key"):
                open(os.path.join(certs, name), "w").close()
            client = bot(login=False)
            client.certs = certs
            client.identity_cert_uri = client.identity_uri
            answer = client.login()
        self.assertEqual(answer.login_status, "SUCCESS")
        self.assertTrue(client.session_token)
        self.assertTrue(client.betting.list_event_types())

    def test_a_wrong_password_and_an_operator_account_are_refused_with_betfairs_codes(self):
        wrong = bot(login=False)
        wrong.password = "Wrong@1234"
        with self.assertRaises(LoginError) as refused:
            wrong.login_interactive()
        self.assertIn("INVALID_USERNAME_OR_PASSWORD", str(refused.exception))
        with self.assertRaises(LoginError) as refused:
            bot(ADMIN)
        self.assertIn("AGENT_CLIENT_MASTER", str(refused.exception))


class Catalogue(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = bot()
        cls.market_id, cls.selections = new_market("catalogue")

    def test_the_lists_narrow_from_event_type_to_market(self):
        client = self.client
        event_types = {e.event_type.id: e for e in client.betting.list_event_types()}
        self.assertEqual(event_types["4"].event_type.name, "Cricket")
        self.assertGreater(event_types["4"].market_count, 0)
        cricket = filters.market_filter(event_type_ids=["4"])
        self.assertTrue(client.betting.list_competitions(filter=cricket))
        ours = filters.market_filter(market_ids=[self.market_id])
        [event] = client.betting.list_events(filter=ours)
        self.assertEqual(event.market_count, 1)
        self.assertIsNotNone(event.event.open_date, "the date parses in Betfair's form")
        [entry] = client.betting.list_market_catalogue(
            filter=filters.market_filter(event_ids=[event.event.id], text_query="Bots catalogue"),
            market_projection=["RUNNER_DESCRIPTION", "EVENT", "EVENT_TYPE", "COMPETITION",
                               "MARKET_START_TIME", "MARKET_DESCRIPTION", "RUNNER_METADATA"],
            max_results=10,
        )
        self.assertEqual(entry.market_id, self.market_id)
        self.assertEqual(entry.market_name, "Bots catalogue")
        self.assertEqual([r.runner_name for r in entry.runners], ["Home", "Away"])
        self.assertEqual([r.selection_id for r in entry.runners], self.selections)
        self.assertEqual(entry.event.id, event.event.id)
        self.assertEqual(entry.event_type.id, "4")
        self.assertEqual(entry.description.market_type, "MATCH_ODDS")
        self.assertIsNotNone(entry.market_start_time)
        # The library asks for one market unless told otherwise.
        self.assertEqual(len(client.betting.list_market_catalogue(filter=cricket)), 1)

    def test_the_book_shows_what_the_web_app_placed(self):
        token = web_token(CLIENT)
        for side, price in (("back", "2.5"), ("lay", "2.2")):
            status, answer = web(
                "bet/placeBet",
                {"market_id": int(self.market_id.split(".")[1]), "selection_id": self.selections[0],
                 "side": side, "price": price, "stake": 10, "persistence": "persist"},
                token,
            )
            self.assertEqual(status, 200, answer)
        [book] = self.client.betting.list_market_book(
            market_ids=[self.market_id],
            price_projection=filters.price_projection(price_data=["EX_BEST_OFFERS", "EX_TRADED"]),
        )
        self.assertEqual(book.status, "OPEN")
        self.assertFalse(book.inplay)
        self.assertEqual(book.bet_delay, 0)
        home = book.runners[0]
        self.assertEqual(home.selection_id, self.selections[0])
        # A resting back at 2.5 is there to lay; a resting lay at 2.2 is there to back.
        self.assertEqual([(p.price, p.size) for p in home.ex.available_to_lay], [(2.5, 10.0)])
        self.assertEqual([(p.price, p.size) for p in home.ex.available_to_back], [(2.2, 10.0)])
        self.assertEqual(home.ex.traded_volume, [])


class Errors(unittest.TestCase):
    def test_refusals_come_back_as_apingexceptions(self):
        client = bot()
        with self.assertRaises(APIError) as refused:
            client.betting.list_market_book(market_ids=["not a market"])
        self.assertEqual(error_code(refused.exception), "INVALID_INPUT_DATA")
        with self.assertRaises(APIError) as refused:
            client.betting.list_market_catalogue(filter={"eventTypeIds": "4"}, max_results=1)
        self.assertEqual(error_code(refused.exception), "INVALID_INPUT_DATA")
        self.assertIn("eventTypeIds", refused.exception.response["error"]["data"]["APINGException"]["errorDetails"])

    def test_the_rest_form_answers_the_result_alone_or_a_fault(self):
        client = bot()
        url = BASE + "/betfair/exchange/betting/rest/v1.0/listEventTypes/"
        headers = {"X-Application": APP_KEY, "X-Authentication": client.session_token}
        answer = requests.post(url, json={"filter": {}}, headers=headers, timeout=15)
        self.assertEqual(answer.status_code, 200)
        self.assertIn("4", [e["eventType"]["id"] for e in answer.json()])
        refused = requests.post(url, json={"filter": {}}, headers={"X-Application": APP_KEY}, timeout=15)
        self.assertEqual(refused.status_code, 400)
        self.assertEqual(refused.json()["detail"]["APINGException"]["errorCode"], "NO_SESSION")
        self.assertEqual(refused.json()["faultstring"], "ANGX-0005")


if __name__ == "__main__":
    unittest.main()
