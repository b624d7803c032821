//! Cash out (`bet/cashOutQuote`, `bet/cashOut`): a position closed at the prices shown is the
//! same whatever wins, to the paisa or within the ladder's rounding as the answer says, and
//! settles as quoted with the ledger sound; a part keeps the rest open in proportion; what
//! cannot be cashed out is refused with the reason and nothing placed; the in-play delay and a
//! suspension during it are honoured; a repeated client_ref places nothing new.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};
use crate::partnership::deposit;

/// A match-odds market on the demo's in-play cricket match: (market, match, runners).
async fn market(
    app: &TestApp,
    admin: &str,
    runners: &[&str],
    delay_s: i64,
) -> (i64, i64, Vec<i64>) {
    let matches = app.post("match/getMatches", Some(admin), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, selections) = app
        .open_market(
            admin,
            match_id,
            json!({ "type": "match_odds", "name": "Cash out", "runners": runners, "min_stake": 1, "bet_delay_s": delay_s }),
        )
        .await;
    (market, match_id, selections)
}

async fn bet(
    app: &TestApp,
    token: &str,
    market: i64,
    runner: i64,
    side: &str,
    price: f64,
    stake: f64,
) {
    let body = json!({ "market_id": market, "selection_id": runner, "side": side, "price": price, "stake": stake });
    let placed = app.post("bet/placeBet", Some(token), body).await;
    placed.expect(200);
}

/// The caller's position on each runner of `market`, as the match page shows it.
async fn positions(app: &TestApp, token: &str, match_id: i64, market: i64) -> Vec<i64> {
    let book = app.match_market(token, match_id, market).await;
    book["runners"].as_array().unwrap().iter().map(|r| minor(&r["position"])).collect()
}

async fn quote(app: &TestApp, token: &str, market: i64, percent: i64) -> Value {
    let answer = app
        .post("bet/cashOutQuote", Some(token), json!({ "market_id": market, "percent": percent }))
        .await;
    answer.expect(200);
    answer.data().clone()
}

async fn bet_count(app: &TestApp, token: &str) -> usize {
    let open = app.post("bet/openBets", Some(token), json!({})).await;
    open.data()["matched"].as_array().unwrap().len()
        + open.data()["unmatched"].as_array().unwrap().len()
}

/// A fresh client with `amount` rupees: its token.
async fn client(app: &TestApp, admin: &str, name: &str, amount: i64) -> String {
    let (id, token) = app.new_user(admin, name, "client").await;
    deposit(app, admin, id, amount).await;
    token
}

async fn a_back_cashed_out_is_the_same_whatever_wins_and_settles_as_quoted(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let maker = client(&app, &admin, "cash_maker", 100_000).await;
    let (market, match_id, r) = market(&app, &admin, &["A", "B"], 0).await;
    // demo backs A for 100.00 at 3.00: +200.00 if A wins, −100.00 if B.
    bet(&app, &maker, market, r[0], "lay", 3.0, 100.0).await;
    bet(&app, &demo, market, r[0], "back", 3.0, 100.0).await;
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![200_00, -100_00]);
    // The book now: A to lay at 2.00 (the maker's back), B to back at 1.98 (its lay).
    bet(&app, &maker, market, r[0], "back", 2.0, 1_000.0).await;
    bet(&app, &maker, market, r[1], "lay", 1.98, 1_000.0).await;

    let quoted = quote(&app, &demo, market, 100).await;
    assert_eq!(quoted["available"], true, "{quoted}");
    // Lay A for (200 − (−100)) ÷ 2.00 = 150.00: 50.00 whichever wins (the module docs' example).
    assert_eq!(minor(&quoted["value"]), 50_00);
    assert_eq!(quoted["equal"], "exact");
    let a = &quoted["per_runner"][0];
    assert_eq!((minor(&a["position"]), minor(&a["after"])), (200_00, 50_00));
    assert_eq!((a["bet"]["side"].as_str(), a["bet"]["price"].as_f64()), (Some("lay"), Some(2.0)));
    assert_eq!(minor(&a["bet"]["stake"]), 150_00);
    assert_eq!(quoted["per_runner"][1]["bet"], Value::Null);

    let done = app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await;
    done.expect(200);
    assert_eq!(minor(&done.data()["value"]), 50_00, "{}", done.body);
    assert_eq!(done.data()["equal"], "exact");
    assert_eq!(done.data()["bets"].as_array().unwrap().len(), 1);
    assert_eq!(done.data()["bets"][0]["status"], "matched");
    assert!(
        done.message().contains("₹50.00") || done.message().contains("50.00"),
        "{}",
        done.message()
    );
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![50_00, 50_00]);
    // Nothing left to cash out.
    let flat = quote(&app, &demo, market, 100).await;
    assert_eq!(flat["available"], false);
    assert!(flat["reason_if_not"].as_str().unwrap().contains("already the same"), "{flat}");

    let before = app.balance_minor(&demo).await;
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": r[1] }),
    )
    .await
    .expect(200);
    // B won: the cashed-out 50.00, less commission on the market's winnings.
    let won = app.balance_minor(&demo).await - before;
    assert!((45_00..=50_00).contains(&won), "won {won}");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_back_cashed_out_is_the_same_whatever_wins_and_settles_as_quoted);

async fn half_a_cash_out_keeps_half_the_position_open(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let maker = client(&app, &admin, "half_maker", 100_000).await;
    let (market, match_id, r) = market(&app, &admin, &["A", "B"], 0).await;
    bet(&app, &maker, market, r[0], "lay", 3.0, 100.0).await;
    bet(&app, &demo, market, r[0], "back", 3.0, 100.0).await;
    bet(&app, &maker, market, r[0], "back", 2.0, 1_000.0).await;
    let quoted = quote(&app, &demo, market, 50).await;
    assert_eq!(minor(&quoted["per_runner"][0]["bet"]["stake"]), 75_00, "{quoted}");
    // Half of the whole cash out's 50.00 is sure; the other half of the position stays open.
    assert_eq!(minor(&quoted["value"]), 25_00);
    let done =
        app.post("bet/cashOut", Some(&demo), json!({ "market_id": market, "percent": 50 })).await;
    done.expect(200);
    assert_eq!(minor(&done.data()["value"]), 25_00, "{}", done.body);
    assert_eq!(done.data()["equal"], "exact");
    // (1 − ½)·P + ½·50: 125.00 and −25.00.
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![125_00, -25_00]);
    // The rest cashes out as the whole would have: 50.00 each.
    app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await.expect(200);
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![50_00, 50_00]);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(half_a_cash_out_keeps_half_the_position_open);

async fn what_cannot_be_cashed_out_is_refused_with_its_reason_and_nothing_placed(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let maker = client(&app, &admin, "refusing_maker", 100_000).await;
    let (market, match_id, r) = market(&app, &admin, &["A", "B"], 0).await;

    // No bets: nothing to cash out.
    let none = quote(&app, &demo, market, 100).await;
    assert_eq!((none["available"].clone(), none["value"].clone()), (json!(false), Value::Null));
    assert!(none["reason_if_not"].as_str().unwrap().contains("no matched bets"), "{none}");
    app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await.expect(409);

    bet(&app, &maker, market, r[0], "lay", 3.0, 100.0).await;
    bet(&app, &demo, market, r[0], "back", 3.0, 100.0).await;
    // No price to lay A at, nor to back B at.
    let priceless = app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await;
    priceless.expect(422);
    assert!(priceless.message().contains("Nobody offers"), "{}", priceless.body);

    // Too little offered for the whole hedge (150.00 needed at 2.00): refused whole; a part fits.
    bet(&app, &maker, market, r[0], "back", 2.0, 100.0).await;
    let thin = app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await;
    thin.expect(422);
    assert!(thin.message().contains("Not enough is offered"), "{}", thin.body);
    assert_eq!(bet_count(&app, &demo).await, 1, "nothing placed");
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![200_00, -100_00]);
    assert_eq!(quote(&app, &demo, market, 50).await["available"], true);

    // Bad input: a percent or tolerance out of range, a client_ref too long.
    for body in [
        json!({ "market_id": market, "percent": 0 }),
        json!({ "market_id": market, "percent": 101 }),
        json!({ "market_id": market, "tolerance_ticks": 11 }),
        json!({ "market_id": market, "client_ref": "x".repeat(41) }),
    ] {
        app.post("bet/cashOut", Some(&demo), body).await.expect(400);
    }
    // A suspended market: refused, and the quote says so.
    app.set_market_status(&admin, market, "suspended").await;
    let suspended = quote(&app, &demo, market, 100).await;
    assert_eq!(suspended["available"], false);
    assert!(suspended["reason_if_not"].as_str().unwrap().contains("suspended"), "{suspended}");
    app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await.expect(409);
    // A fancy has no cash out.
    let (fancy, _) =
        app.open_market(&admin, match_id, json!({ "type": "fancy", "name": "6 over runs" })).await;
    let answer = quote(&app, &demo, fancy, 100).await;
    assert!(answer["reason_if_not"].as_str().unwrap().contains("not on a fancy"), "{answer}");
    // Another user's market id tells nothing of demo's position.
    let stranger = client(&app, &admin, "cash_stranger", 100).await;
    assert_eq!(quote(&app, &stranger, market, 100).await["per_runner"], json!([]));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(what_cannot_be_cashed_out_is_refused_with_its_reason_and_nothing_placed);

async fn a_tolerance_takes_a_worse_price_and_an_own_bet_in_the_way_is_refused(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let maker = client(&app, &admin, "own_maker", 100_000).await;
    let (market, _, r) = market(&app, &admin, &["A", "B"], 0).await;
    bet(&app, &maker, market, r[0], "lay", 3.0, 100.0).await;
    bet(&app, &demo, market, r[0], "back", 3.0, 100.0).await;
    // A tick of tolerance: the 2.00 the page showed is gone, 2.02 is one tick worse.
    let dear = json!({ "market_id": market, "selection_id": r[0], "side": "back", "price": 2.02, "stake": 1_000 });
    app.post("bet/placeBet", Some(&maker), dear).await.expect(200);
    let shown = json!([{ "selection_id": r[0], "side": "lay", "price": 2.0 }]);
    let moved =
        app.post("bet/cashOut", Some(&demo), json!({ "market_id": market, "shown": shown })).await;
    moved.expect(409);
    assert!(moved.message().contains("prices moved"), "{}", moved.body);
    let half = json!({ "market_id": market, "shown": shown, "tolerance_ticks": 1, "percent": 50 });
    let taken = app.post("bet/cashOut", Some(&demo), half).await;
    taken.expect(200);
    assert_eq!(taken.data()["bets"][0]["price"], 2.02, "{}", taken.body);
    // demo's own back on A at 2.00 waits first in the queue, the maker's behind it.
    bet(&app, &demo, market, r[0], "back", 2.0, 10.0).await;
    bet(&app, &maker, market, r[0], "back", 2.0, 1_000.0).await;
    let refused = app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await;
    refused.expect(422);
    assert!(refused.message().contains("Your own unmatched bet"), "{}", refused.body);
    app.post("bet/cancelAllBets", Some(&demo), json!({ "market_id": market })).await.expect(200);
    app.post("bet/cashOut", Some(&demo), json!({ "market_id": market })).await.expect(200);
}
both_databases!(a_tolerance_takes_a_worse_price_and_an_own_bet_in_the_way_is_refused);

async fn a_bookmaker_position_is_cashed_out_with_one_bet_at_the_posted_rate(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (bm, r) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"] }),
        )
        .await;
    let rates = |home_back: i64, home_lay: i64| {
        json!({ "market_id": bm, "runners": [
            { "selection_id": r[0], "back": home_back, "lay": home_lay }, { "selection_id": r[1], "back": 118, "lay": 122 }
        ] })
    };
    app.post("admin/market/rates", Some(&admin), rates(80, 82)).await.expect(200);
    let body = json!({ "market_id": bm, "selection_id": r[0], "side": "back", "price": 80, "stake": 1000 });
    app.post("bet/placeBet", Some(&demo), body).await.expect(200);
    assert_eq!(positions(&app, &demo, match_id, bm).await, vec![800_00, -1_000_00]);

    let quoted = quote(&app, &demo, bm, 100).await;
    // Lay Home at 82 (odds 1.82): 1,800 ÷ 1.82 = 989.01; −1,000 + 989.01 = −10.99 either way.
    assert_eq!(minor(&quoted["value"]), -10_99, "{quoted}");
    assert_eq!(quoted["per_runner"][0]["bet"]["price"], 82.0);
    assert_eq!(minor(&quoted["per_runner"][0]["bet"]["stake"]), 989_01);
    // The rate moves against the bettor after the page showed it: refused at tolerance 0 with
    // nothing placed, taken within 2 rate points.
    let shown = json!([{ "selection_id": r[0], "side": "lay", "price": 82 }]);
    app.post("admin/market/rates", Some(&admin), rates(80, 83)).await.expect(200);
    let moved =
        app.post("bet/cashOut", Some(&demo), json!({ "market_id": bm, "shown": shown })).await;
    moved.expect(409);
    assert!(moved.message().contains("prices moved"), "{}", moved.body);
    assert_eq!(positions(&app, &demo, match_id, bm).await, vec![800_00, -1_000_00]);
    let done = app
        .post(
            "bet/cashOut",
            Some(&demo),
            json!({ "market_id": bm, "shown": shown, "tolerance_ticks": 2 }),
        )
        .await;
    done.expect(200);
    assert_eq!(done.data()["bets"].as_array().unwrap().len(), 1, "one bet against the house");
    assert_eq!(done.data()["bets"][0]["price"], 83.0);
    let after = positions(&app, &demo, match_id, bm).await;
    assert!((after[0] - after[1]).abs() <= 1, "{after:?}");
    assert_eq!(minor(&done.data()["value"]), *after.iter().min().unwrap());
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": bm, "winner_selection_id": r[0] }),
    )
    .await
    .expect(200);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_bookmaker_position_is_cashed_out_with_one_bet_at_the_posted_rate);

async fn the_bet_delay_is_waited_a_suspension_in_it_places_nothing_and_a_repeat_is_known(
    app: TestApp,
) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let maker = client(&app, &admin, "delay_maker", 100_000).await;
    let (market, match_id, r) = market(&app, &admin, &["A", "B"], 1).await;
    // Bets on an in-play market with a 1 s delay each wait it out.
    bet(&app, &maker, market, r[0], "lay", 3.0, 100.0).await;
    bet(&app, &demo, market, r[0], "back", 3.0, 100.0).await;
    // The maker's offer to lay A at 2.00 persists through a suspension.
    let persisting = json!({ "market_id": market, "selection_id": r[0], "side": "back", "price": 2.0, "stake": 1_000, "persistence": "persist" });
    app.post("bet/placeBet", Some(&maker), persisting).await.expect(200);
    let quoted = quote(&app, &demo, market, 100).await;
    assert_eq!(quoted["bet_delay_seconds"], 1.0);

    // The cash out waits the delay too; a suspension while it waits places nothing (no
    // past-posting), even once the market has reopened.
    let started = std::time::Instant::now();
    let cashing =
        app.post("bet/cashOut", Some(&demo), json!({ "market_id": market, "client_ref": "co-1" }));
    let suspend_and_reopen = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        for status in ["suspended", "open"] {
            app.set_market_status(&admin, market, status).await;
        }
    };
    let (refused, ()) = tokio::join!(cashing, suspend_and_reopen);
    refused.expect(409);
    assert!(started.elapsed() >= std::time::Duration::from_millis(900), "waited the delay");
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![200_00, -100_00]);

    // Left alone it goes through after the delay, once: the same client_ref again is answered
    // with the first cash out's bets.
    let done = app
        .post("bet/cashOut", Some(&demo), json!({ "market_id": market, "client_ref": "co-2" }))
        .await;
    done.expect(200);
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![50_00, 50_00]);
    let again = app
        .post("bet/cashOut", Some(&demo), json!({ "market_id": market, "client_ref": "co-2" }))
        .await;
    again.expect(200);
    assert_eq!(again.data()["repeated"], true);
    assert_eq!(again.data()["bets"][0]["bet_id"], done.data()["bets"][0]["bet_id"]);
    assert_eq!(positions(&app, &demo, match_id, market).await, vec![50_00, 50_00]);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(the_bet_delay_is_waited_a_suspension_in_it_places_nothing_and_a_repeat_is_known);

/// A tiny deterministic generator (xorshift), so a failing case can be replayed.
struct Rng(u64);
impl Rng {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// Prices on the ladder from 1.5 to 5.0, lowest first.
const PRICES: [f64; 14] = [1.5, 1.62, 1.8, 1.98, 2.0, 2.2, 2.5, 2.76, 3.0, 3.3, 3.5, 4.0, 4.4, 5.0];

async fn random_positions_cash_out_to_the_independent_hedge_with_the_ledger_sound(app: TestApp) {
    let admin = app.admin().await;
    let mut rng = Rng(0x5eed_cafe_f00d);
    for case in 0..4 {
        let runners: Vec<&str> = ["A", "B", "C"][..2 + (case % 2)].to_vec();
        let (market, match_id, r) = market(&app, &admin, &runners, 0).await;
        let bettor = client(&app, &admin, &format!("random_bettor_{case}"), 100_000).await;
        let maker = client(&app, &admin, &format!("random_maker_{case}"), 1_000_000).await;
        // The bettor's position: a few random backs and lays, each matched by the maker.
        for _ in 0..1 + rng.next(4) {
            let runner = r[rng.next(r.len() as u64) as usize];
            let price = PRICES[rng.next(PRICES.len() as u64) as usize];
            let stake = 10.0 + rng.next(500) as f64;
            let (bettor_side, maker_side) =
                if rng.next(2) == 0 { ("back", "lay") } else { ("lay", "back") };
            bet(&app, &maker, market, runner, maker_side, price, stake).await;
            bet(&app, &bettor, market, runner, bettor_side, price, stake).await;
        }
        let before = positions(&app, &bettor, match_id, market).await;
        // Then a deep book: on each runner a price to back at and a dearer one to lay at.
        let mut prices = Vec::new();
        for runner in &r {
            let at = rng.next(PRICES.len() as u64 - 1) as usize;
            let (back_at, lay_at) = (PRICES[at], PRICES[at + 1]);
            bet(&app, &maker, market, *runner, "lay", back_at, 20_000.0).await;
            bet(&app, &maker, market, *runner, "back", lay_at, 20_000.0).await;
            prices.push((back_at, lay_at));
        }
        let done = app.post("bet/cashOut", Some(&bettor), json!({ "market_id": market })).await;
        if before.iter().all(|p| *p == before[0]) {
            done.expect(409);
            continue;
        }
        done.expect(200);
        // The independent hedge: for each runner left unhedged at level K = P_j, the others
        // take (K − P_r) ÷ price (back below K, lay above); the best K is the cash out.
        let best = (0..before.len())
            .map(|j| {
                let level = before[j] as f64;
                level
                    - before
                        .iter()
                        .zip(&prices)
                        .map(|(p, (back, lay))| {
                            let difference = level - *p as f64;
                            difference / if difference > 0.0 { *back } else { *lay }
                        })
                        .sum::<f64>()
            })
            .fold(f64::MIN, f64::max);
        let after = positions(&app, &bettor, match_id, market).await;
        let spread = after.iter().max().unwrap() - after.iter().min().unwrap();
        // Rounding: half a paisa of stake at each leg's odds, a paisa for each fill's floor.
        let bound = prices.iter().map(|(_, lay)| lay / 2.0 + 2.0).sum::<f64>();
        assert!((spread as f64) <= bound, "case {case}: spread {spread} of {after:?}");
        assert_eq!(minor(&done.data()["spread"]), spread, "case {case}: {}", done.body);
        assert_eq!(done.data()["equal"], if spread == 0 { "exact" } else { "within_rounding" });
        let value = minor(&done.data()["value"]) as f64;
        assert!(
            (value - best).abs() <= bound,
            "case {case}: value {value}, independent {best}, {before:?} {prices:?}"
        );
        app.post(
            "admin/market/result",
            Some(&admin),
            json!({ "market_id": market, "winner_selection_id": r[0] }),
        )
        .await
        .expect(200);
    }
    app.assert_ledger_sound(&admin).await;
}
both_databases!(random_positions_cash_out_to_the_independent_hedge_with_the_ledger_sound);

async fn a_place_position_is_cashed_out_runner_by_runner(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let maker = client(&app, &admin, "place_maker", 100_000).await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (place, r) = app.open_market(&admin, match_id, json!({ "type": "place", "name": "To be placed", "runners": ["Arrow", "Blaze", "Comet"], "winners": 2, "min_stake": 1, "bet_delay_s": 0 })).await;
    // demo backs Arrow to place for 100.00 at 3.00 (+200.00 placed, −100.00 not) and lays
    // Blaze for 50.00 at 2.00 (−50.00 placed, +50.00 not).
    bet(&app, &maker, place, r[0], "lay", 3.0, 100.0).await;
    bet(&app, &demo, place, r[0], "back", 3.0, 100.0).await;
    bet(&app, &maker, place, r[1], "back", 2.0, 50.0).await;
    bet(&app, &demo, place, r[1], "lay", 2.0, 50.0).await;
    // Arrow to lay at 2.00, Blaze to back at 2.5.
    bet(&app, &maker, place, r[0], "back", 2.0, 1_000.0).await;
    bet(&app, &maker, place, r[1], "lay", 2.5, 1_000.0).await;

    let quoted = quote(&app, &demo, place, 100).await;
    // Arrow: lay 300 ÷ 2.00 = 150.00, 50.00 placed or not; Blaze: back 100 ÷ 2.5 = 40.00,
    // +10.00 placed or not. Comet: nothing. Sure: 60.00.
    assert_eq!(minor(&quoted["value"]), 60_00, "{quoted}");
    assert_eq!(minor(&quoted["per_runner"][0]["bet"]["stake"]), 150_00);
    assert_eq!(quoted["per_runner"][1]["bet"]["side"], "back");
    assert_eq!(minor(&quoted["per_runner"][1]["bet"]["stake"]), 40_00);
    assert_eq!(quoted["per_runner"][2]["bet"], Value::Null);
    let done = app.post("bet/cashOut", Some(&demo), json!({ "market_id": place })).await;
    done.expect(200);
    assert_eq!(
        (minor(&done.data()["value"]), done.data()["equal"].clone()),
        (60_00, json!("exact"))
    );
    // Each runner's position if placed is now what it is if not.
    assert_eq!(positions(&app, &demo, match_id, place).await, vec![50_00, 10_00, 0]);

    let before = app.balance_minor(&demo).await;
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": place, "placed_selection_ids": [r[1], r[2]] }),
    )
    .await
    .expect(200);
    let won = app.balance_minor(&demo).await - before;
    assert!((55_00..=60_00).contains(&won), "won {won} (60.00 less commission)");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_place_position_is_cashed_out_runner_by_runner);
