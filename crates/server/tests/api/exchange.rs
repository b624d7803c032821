//! The exchange over HTTP: markets created and run by the operator, bets matched between
//! clients and against the house, exposure, cancellation, settlement through the ledger.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};
use crate::partnership::deposit;

/// The demo's first cricket match (in play): (match_id).
async fn a_match(app: &TestApp, token: &str) -> i64 {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    answer.data()[0]["match_id"].as_i64().unwrap()
}

/// A match-odds market with no bet delay (the demo match is in play).
async fn match_odds(app: &TestApp, admin: &str, match_id: i64) -> (i64, Vec<i64>) {
    app.open_market(admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 })).await
}

async fn bet(app: &TestApp, token: &str, body: Value) -> crate::common::Answer {
    app.post("bet/placeBet", Some(token), body).await
}

async fn funds(app: &TestApp, token: &str) -> (i64, i64) {
    let answer = app.get("user/getUserBalance", Some(token)).await;
    (minor(&answer.data()["total_balance"]), -minor(&answer.data()["liability"]))
}

async fn back_meets_lay_and_settlement_moves_money_as_computed_by_hand(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    let lay = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2.5, "stake": 100 })).await;
    lay.expect(200);
    assert_eq!(lay.data()["status"], "unmatched");
    // The layer risks 100 × 1.5 = 150.00.
    assert_eq!(funds(&app, &demo).await, (100_000_00, 150_00));
    let back = bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": "2.50", "stake": "100" })).await;
    back.expect(200);
    assert_eq!(back.data()["status"], "matched");
    assert_eq!(minor(&back.data()["size_matched"]), 100_00);
    assert_eq!(back.data()["avg_price_matched"], 2.5);
    assert_eq!(funds(&app, &demo2).await, (50_000_00, 100_00));
    // The page shows the positions: the backer +150 if Home wins, -100 if Away.
    let book = app.match_market(&demo2, match_id, market).await;
    assert_eq!(minor(&book["runners"][0]["position"]), 150_00);
    assert_eq!(minor(&book["runners"][1]["position"]), -100_00);
    let positions = app.post("bet/positions", Some(&demo2), json!({ "match_id": match_id })).await;
    positions.expect(200);
    let mine = positions
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["market_id"] == market)
        .unwrap()
        .clone();
    assert_eq!(minor(&mine["runners"][0]["pnl"]), 150_00);
    assert_eq!(minor(&mine["runners"][1]["pnl"]), -100_00);
    app.post("bet/positions", Some(&demo2), json!({ "match_id": 987654 })).await.expect(404);
    let exposure = app.get("bet/getExposureDetail", Some(&demo)).await;
    assert_eq!(minor(&exposure.data()["data"][0]["market_details"][0]["exposure"]), 150_00);

    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": runners[0] }),
    )
    .await
    .expect(200);
    assert_eq!(funds(&app, &demo2).await, (50_150_00, 0));
    assert_eq!(funds(&app, &demo).await, (99_850_00, 0));
    // Declaring twice changes nothing.
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": runners[1] }),
    )
    .await
    .expect(409);
    assert_eq!(funds(&app, &demo).await, (99_850_00, 0));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(back_meets_lay_and_settlement_moves_money_as_computed_by_hand);

async fn each_market_says_its_commission_rate(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let match_id = a_match(&app, &demo).await;
    let (charged, _) = app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Charged", "runners": ["Home", "Away"], "commission_bp": 250 })).await;
    let (free, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "bookmaker", "name": "Free", "runners": ["Home", "Away"] }),
        )
        .await;
    let detail = app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await;
    detail.expect(200);
    let rate = |market_id: i64| {
        let markets = detail.data()["markets"].as_array().unwrap();
        markets.iter().find(|m| m["market_id"] == market_id).unwrap()["commission_bp"].clone()
    };
    // 250 basis points: 2.5% of net winnings, as the rules and the slip show it.
    assert_eq!(rate(charged), 250);
    assert_eq!(rate(free), 0);
}
both_databases!(each_market_says_its_commission_rate);

async fn price_improvement_goes_to_the_newcomer(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let (market, runners) = match_odds(&app, &admin, a_match(&app, &demo).await).await;
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[1], "side": "lay", "price": 3, "stake": 10 })).await.expect(200);
    let back = bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": 2.5, "stake": 10 })).await;
    back.expect(200);
    assert_eq!(back.data()["avg_price_matched"], 3.0, "filled at the resting 3.00, not 2.50");
    // Backer: +20.00 if the runner wins, so exposure is only the 10.00 stake.
    assert_eq!(funds(&app, &demo2).await.1, 10_00);
}
both_databases!(price_improvement_goes_to_the_newcomer);

async fn partial_match_then_cancel_the_rest(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let (market, runners) = match_odds(&app, &admin, a_match(&app, &demo).await).await;
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2, "stake": 50 })).await.expect(200);
    let back = bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 100 })).await;
    back.expect(200);
    assert_eq!(back.data()["status"], "partially_matched");
    assert_eq!(minor(&back.data()["size_matched"]), 50_00);
    // Matched 50 (lose 50) + unmatched 50 (lose 50 more if matched): exposure 100.
    assert_eq!(funds(&app, &demo2).await.1, 100_00);
    let open = app.post("bet/openBets", Some(&demo2), json!({})).await;
    assert_eq!(open.data()["unmatched"].as_array().unwrap().len(), 1);
    let bet_id = back.data()["bet_id"].as_i64().unwrap();
    // Someone else cannot cancel it.
    app.post("bet/cancelBet", Some(&demo), json!({ "bet_id": bet_id })).await.expect(404);
    let part =
        app.post("bet/cancelBet", Some(&demo2), json!({ "bet_id": bet_id, "size": 20 })).await;
    part.expect(200);
    assert_eq!(minor(&part.data()["remaining"]), 30_00);
    assert_eq!(funds(&app, &demo2).await.1, 80_00);
    let rest = app.post("bet/cancelBet", Some(&demo2), json!({ "bet_id": bet_id })).await;
    rest.expect(200);
    assert_eq!(minor(&rest.data()["cancelled"]), 30_00);
    assert_eq!(funds(&app, &demo2).await.1, 50_00);
    app.post("bet/cancelBet", Some(&demo2), json!({ "bet_id": bet_id })).await.expect(404);
}
both_databases!(partial_match_then_cancel_the_rest);

async fn suspending_lapses_lapse_orders_and_releases_their_exposure(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let (market, runners) = match_odds(&app, &admin, a_match(&app, &demo).await).await;
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 4, "stake": 10 })).await.expect(200);
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 4, "stake": 20, "persistence": "persist" })).await.expect(200);
    // Both back the same runner: if it loses, both stakes are lost.
    assert_eq!(funds(&app, &demo).await.1, 30_00);
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": market, "status": "suspended" }),
    )
    .await
    .expect(200);
    assert_eq!(funds(&app, &demo).await.1, 20_00, "the LAPSE order lapsed, the PERSIST one stays");
    let refused = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 4, "stake": 10 })).await;
    refused.expect(409);
    assert!(refused.message().contains("suspended"));
}
both_databases!(suspending_lapses_lapse_orders_and_releases_their_exposure);

async fn bad_bets_are_refused_with_no_change(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let match_id = a_match(&app, &demo).await;
    let (market, runners) =
        app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": "MO", "runners": ["A", "B"], "min_stake": 10, "max_stake": 5000, "bet_delay_s": 0 })).await;
    let (other_market, other_runners) = match_odds(&app, &admin, match_id).await;
    let base = |extra: Value| {
        let mut body = json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 100 });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let off = bet(&app, &demo, base(json!({ "price": 2.01 }))).await;
    off.expect(400);
    assert!(off.message().contains("2.00") && off.message().contains("2.02"), "{}", off.message());
    bet(&app, &demo, base(json!({ "price": 1000000 }))).await.expect(400);
    bet(&app, &demo, base(json!({ "price": "abc" }))).await.expect(400);
    let low = bet(&app, &demo, base(json!({ "stake": 5 }))).await;
    low.expect(422);
    assert!(low.message().contains("minimum stake"));
    bet(&app, &demo, base(json!({ "stake": 6000 }))).await.expect(422);
    bet(&app, &demo, base(json!({ "stake": 0 }))).await.expect(400);
    bet(&app, &demo, base(json!({ "stake": -10 }))).await.expect(400);
    bet(&app, &demo, base(json!({ "stake": 10.001 }))).await.expect(400);
    bet(&app, &demo, base(json!({ "stake": 1e18 }))).await.expect(400);
    bet(&app, &demo, base(json!({ "side": "sideways" }))).await.expect(400);
    bet(&app, &demo, base(json!({ "market_id": 999999 }))).await.expect(404);
    bet(&app, &demo, base(json!({ "selection_id": other_runners[0] }))).await.expect(404);
    let _ = other_market;
    // Insufficient funds names what is available.
    let demo2 = app.login("demo2", "Demo@1234").await;
    let (big, big_runners) =
        app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Big", "runners": ["A", "B"], "max_stake": 10000000, "bet_delay_s": 0 })).await;
    let broke = bet(&app, &demo2, json!({ "market_id": big, "selection_id": big_runners[0], "side": "lay", "price": 10, "stake": 10000 })).await;
    broke.expect(422);
    assert!(broke.message().contains("₹50,000.00 available"), "{}", broke.message());
    assert_eq!(funds(&app, &demo).await, (100_000_00, 0));
    assert_eq!(funds(&app, &demo2).await, (50_000_00, 0));
    let open = app.post("bet/openBets", Some(&demo), json!({})).await;
    assert_eq!(
        open.data()["unmatched"].as_array().unwrap().len()
            + open.data()["matched"].as_array().unwrap().len(),
        0
    );
    // A settled market takes no bets.
    app.post("admin/market/void", Some(&admin), json!({ "market_id": market })).await.expect(200);
    let closed = bet(&app, &demo, base(json!({}))).await;
    closed.expect(409);
    assert_eq!(closed.message(), "This market is closed.");
}
both_databases!(bad_bets_are_refused_with_no_change);

async fn one_client_ref_makes_one_bet(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let (market, runners) = match_odds(&app, &admin, a_match(&app, &demo).await).await;
    let body = json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3, "stake": 25, "client_ref": "slip-42" });
    let answers = futures::future::join_all((0..10).map(|_| bet(&app, &demo, body.clone()))).await;
    let ids: std::collections::BTreeSet<i64> = answers
        .iter()
        .map(|a| {
            a.expect(200);
            a.data()["bet_id"].as_i64().unwrap()
        })
        .collect();
    assert_eq!(ids.len(), 1, "one bet for one client_ref");
    assert_eq!(funds(&app, &demo).await.1, 25_00);
    let mut other = body.clone();
    other["stake"] = json!(30);
    let reused = bet(&app, &demo, other).await;
    reused.expect(409);
    assert!(reused.message().contains("client_ref"));
}
both_databases!(one_client_ref_makes_one_bet);

/// 50 lays of 20.00 at 3.0 (liability 40.00 each: 2,000.00 in all) sent at once by a client
/// holding 1,000.00, spread over `markets` in turn: exactly 25 are taken, the rest refused for
/// funds, and the client's whole balance is exposed.
async fn fifty_lays_take_exactly_what_1000_covers(
    app: &TestApp,
    client: &str,
    markets: &[(i64, Vec<i64>)],
    trial: usize,
) {
    let answers = futures::future::join_all((0..50).map(|i| {
        let (market, runners) = &markets[i % markets.len()];
        bet(app, client, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 3, "stake": 20 }))
    }))
    .await;
    assert!(
        answers.iter().all(|a| matches!(a.status.as_u16(), 200 | 422)),
        "only accepted or insufficient funds"
    );
    let accepted = answers.iter().filter(|a| a.status.as_u16() == 200).count();
    assert_eq!(accepted, 25, "exactly what 1,000.00 covers (trial {trial})");
    assert_eq!(funds(app, client).await, (1000_00, 1000_00));
}

async fn fifty_concurrent_bets_never_overdraw(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let match_id = a_match(&app, &agent).await;
    // Several trials, each a fresh account holding 1,000.00 and a fresh market.
    for trial in 0..4 {
        let (client_id, client) = app.new_user(&agent, &format!("racer{trial}"), "client").await;
        deposit(&app, &agent, client_id, 1000).await;
        let market = match_odds(&app, &admin, match_id).await;
        fifty_lays_take_exactly_what_1000_covers(&app, &client, &[market], trial).await;
    }
    app.assert_ledger_sound(&admin).await;
}
both_databases!(fifty_concurrent_bets_never_overdraw);

/// The same race spread over ten markets, whose batches commit together on SQLite (store's
/// `group_commit`, each batch's rows written at the group's end): each market's funds check
/// counts what the other markets' batches of its group reserved, and one `client_ref` makes
/// one bet whichever market its copies go to.
async fn concurrent_bets_over_many_markets_never_overdraw(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let match_id = a_match(&app, &agent).await;
    let mut markets = Vec::new();
    for _ in 0..10 {
        markets.push(match_odds(&app, &admin, match_id).await);
    }
    for trial in 0..3 {
        let (client_id, client) = app.new_user(&agent, &format!("spread{trial}"), "client").await;
        deposit(&app, &agent, client_id, 1000).await;
        fifty_lays_take_exactly_what_1000_covers(&app, &client, &markets, trial).await;

        // One client_ref sent to every market at once: one bet, the others refused as a reuse.
        // A BACK on the other runner adds its whole stake to the market's worst case.
        let client_ref = format!("everywhere-{trial}");
        deposit(&app, &agent, client_id, 100).await;
        let answers = futures::future::join_all(markets.iter().map(|(market, runners)| {
            bet(&app, &client, json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": 3, "stake": 10, "client_ref": client_ref }))
        }))
        .await;
        let placed = answers.iter().filter(|a| a.status.as_u16() == 200).count();
        let reused = answers
            .iter()
            .filter(|a| a.status.as_u16() == 409 && a.message().contains("client_ref"))
            .count();
        assert_eq!((placed, reused), (1, markets.len() - 1), "one bet for one client_ref");
        assert_eq!(funds(&app, &client).await, (1100_00, 1010_00));
    }
    app.assert_ledger_sound(&admin).await;
}
both_databases!(concurrent_bets_over_many_markets_never_overdraw);

async fn bookmaker_and_fancy_bets_are_taken_by_the_house_at_the_posted_rate(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let match_id = a_match(&app, &demo).await;
    let (bm, bm_runners) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"] }),
        )
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": bm, "runners": [
        { "selection_id": bm_runners[0], "back": 45, "lay": 50 }, { "selection_id": bm_runners[1], "back": 180, "lay": 190 }
    ] })).await.expect(200);
    let stale = bet(&app, &demo, json!({ "market_id": bm, "selection_id": bm_runners[0], "side": "back", "price": 44, "stake": 1000 })).await;
    stale.expect(409);
    assert!(stale.message().contains("Odds changed"));
    let taken = bet(&app, &demo, json!({ "market_id": bm, "selection_id": bm_runners[0], "side": "back", "price": 45, "stake": 1000 })).await;
    taken.expect(200);
    assert_eq!(taken.data()["status"], "matched");
    assert_eq!(funds(&app, &demo).await.1, 1000_00);

    let (fancy, _) =
        app.open_market(&admin, match_id, json!({ "type": "fancy", "name": "10 over runs" })).await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 56, "rate_no": 100, "line_yes": 57, "rate_yes": 100 })).await.expect(200);
    bet(
        &app,
        &demo,
        json!({ "market_id": fancy, "side": "yes", "price": 100, "line": 57, "stake": 200 }),
    )
    .await
    .expect(200);
    bet(
        &app,
        &demo,
        json!({ "market_id": fancy, "side": "no", "price": 100, "line": 55, "stake": 200 }),
    )
    .await
    .expect(409);
    let detail = app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await;
    assert_eq!(
        (&detail.data()["match"]["has_bookmaker"], &detail.data()["match"]["has_fancy"]),
        (&json!(true), &json!(true))
    );
    let fancy_book = detail.data()["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["market_id"] == fancy)
        .unwrap()["book"]
        .clone();
    assert_eq!(minor(&fancy_book[0]["pnl"]), -200_00, "below 57 the YES loses: {fancy_book}");
    assert_eq!(minor(&fancy_book.as_array().unwrap().last().unwrap()["pnl"]), 200_00);

    // Home wins the bookmaker: +450.00; the fancy ends at 60: YES wins +200.00.
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": bm, "winner_selection_id": bm_runners[0] }),
    )
    .await
    .expect(200);
    app.post("admin/market/result", Some(&admin), json!({ "market_id": fancy, "result": 60 }))
        .await
        .expect(200);
    assert_eq!(funds(&app, &demo).await, (100_000_00 + 450_00 + 200_00, 0));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(bookmaker_and_fancy_bets_are_taken_by_the_house_at_the_posted_rate);

/// Rates are whole numbers, and a whole number may be written `52.0`: the way the server
/// itself sends a rate (matchDetail's `price` is a float) is taken back as it came.
async fn a_rate_written_as_a_whole_float_is_taken_and_a_fraction_is_refused(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let match_id = a_match(&app, &demo).await;
    let (bm, runners) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"] }),
        )
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": bm, "runners": [
        { "selection_id": runners[0], "back": 52, "lay": 55 }, { "selection_id": runners[1], "back": 107, "lay": 112 }
    ] })).await.expect(200);
    let detail = app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await;
    let book = detail.data()["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["market_id"] == bm)
        .unwrap()
        .clone();
    let shown = book["runners"][1]["back"][0]["price"].clone();
    assert_eq!(shown.to_string(), "107.0", "the server shows a rate as a float");

    let sent_back = bet(&app, &demo, json!({ "market_id": bm, "selection_id": runners[1], "side": "back", "price": shown, "stake": 100 })).await;
    sent_back.expect(200);
    for price in [json!(52.0), json!("52.00")] {
        let answer = app
            .post_raw("bet/placeBet", Some(&demo), format!(r#"{{"market_id": {bm}, "selection_id": {}, "side": "back", "price": {price}, "stake": 100}}"#, runners[0]))
            .await;
        answer.expect(200);
        assert_eq!(answer.data()["status"], "matched", "{price}: {}", answer.body);
    }
    let exponent = app
        .post_raw("bet/placeBet", Some(&demo), format!(r#"{{"market_id": {bm}, "selection_id": {}, "side": "back", "price": 5.2e1, "stake": 100}}"#, runners[0]))
        .await;
    exponent.expect(200);

    let fraction = bet(&app, &demo, json!({ "market_id": bm, "selection_id": runners[0], "side": "back", "price": 52.5, "stake": 100 })).await;
    fraction.expect(400);
    assert_eq!(
        fraction.field_error("price"),
        "The rate is a whole number such as 45.",
        "{}",
        fraction.body
    );
    // Three backs of 100 on Home at 52 and one on Away at 107; the fraction placed nothing. If
    // Away wins, Home's backs lose 300 and Away's wins 107: the exposure is 193.
    assert_eq!(funds(&app, &demo).await.1, 193_00);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_rate_written_as_a_whole_float_is_taken_and_a_fraction_is_refused);

/// An account the engine holds no funds for cannot bet: the bet is refused with a 422 and the
/// message, not a 403, which would log the client app out (spec §8).
async fn an_account_that_cannot_bet_gets_422_and_keeps_its_session(app: TestApp) {
    let admin = app.admin().await;
    let (user_id, token) = app.new_user(&admin, "nobank", "client").await;
    // No API call makes such an account (every user gets a ledger account when created), so
    // take the new user's empty one away underneath the server.
    let store = backlay_store::Store::connect(app.database_url()).await.unwrap();
    sqlx::query("DELETE FROM ledger_accounts WHERE user_id = $1")
        .bind(user_id)
        .execute(store.pool())
        .await
        .unwrap();
    let match_id = a_match(&app, &token).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    let answer = bet(&app, &token, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 10 })).await;
    answer.expect(422);
    assert_eq!(answer.message(), "This account cannot bet.");
    app.post("bet/openBets", Some(&token), json!({})).await.expect(200);
}
both_databases!(an_account_that_cannot_bet_gets_422_and_keeps_its_session);

async fn only_an_admin_manages_markets(app: TestApp) {
    let agent = app.agent().await;
    let demo = app.demo().await;
    let match_id = a_match(&app, &demo).await;
    app.post(
        "admin/market/create",
        Some(&agent),
        json!({ "match_id": match_id, "type": "match_odds", "name": "X", "runners": ["A", "B"] }),
    )
    .await
    .expect(403);
    app.post(
        "admin/market/create",
        Some(&demo),
        json!({ "match_id": match_id, "type": "match_odds", "name": "X", "runners": ["A", "B"] }),
    )
    .await
    .expect(403);
    let admin = app.admin().await;
    let bad = app
        .post(
            "admin/market/create",
            Some(&admin),
            json!({ "match_id": match_id, "type": "dice", "name": "X", "runners": ["A"] }),
        )
        .await;
    bad.expect(400);
    assert!(!bad.field_error("type").is_empty() && !bad.field_error("runners").is_empty());
    app.post(
        "admin/market/create",
        Some(&admin),
        json!({ "match_id": 424242, "type": "match_odds", "name": "X", "runners": ["A", "B"] }),
    )
    .await
    .expect(404);
}
both_databases!(only_an_admin_manages_markets);

/// The bet's delay waits inside the market's task, where nothing shows it (not the book, the
/// open bets, the stream or the log), so there is no event to wait for: the suspension goes in
/// half-way through the delay this test sets, leaving the bet half the delay to reach the
/// market and the suspension half the delay to land. That the bet was caught inside its delay
/// is in the answer ("suspended during the bet delay" is said only to a bet that was waiting);
/// that it was refused at once, in the time: sooner than the delay, which it would have waited
/// out had the suspension only been checked when it was due.
async fn a_suspension_during_the_bet_delay_rejects_the_bet(app: TestApp) {
    const DELAY: std::time::Duration = std::time::Duration::from_secs(1);
    let admin = app.admin().await;
    let demo = app.demo().await;
    let match_id = a_match(&app, &demo).await;
    let (market, runners) =
        app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Delayed", "runners": ["A", "B"], "bet_delay_s": DELAY.as_secs() })).await;
    let started = std::time::Instant::now();
    let body = json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 100 });
    let (answer, ()) = tokio::join!(bet(&app, &demo, body.clone()), async {
        tokio::time::sleep(DELAY / 2).await;
        app.post(
            "admin/market/status",
            Some(&admin),
            json!({ "market_id": market, "status": "suspended" }),
        )
        .await
        .expect(200);
        app.post(
            "admin/market/status",
            Some(&admin),
            json!({ "market_id": market, "status": "open" }),
        )
        .await
        .expect(200);
    });
    answer.expect(409);
    assert!(answer.message().contains("suspended during the bet delay"), "{}", answer.message());
    // Refused as the suspension reached the market, not left waiting out the rest of its delay.
    assert!(started.elapsed() >= DELAY / 2, "answered after the suspension");
    assert!(started.elapsed() < DELAY, "answered before the delay was up");
    assert_eq!(funds(&app, &demo).await.1, 0);
    // Without a suspension the same bet goes through after the delay.
    let placed = bet(&app, &demo, body).await;
    placed.expect(200);
    assert_eq!(funds(&app, &demo).await.1, 100_00);
}
both_databases!(a_suspension_during_the_bet_delay_rejects_the_bet);

async fn an_operator_exposure_limit_caps_bets(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let demo = app.demo().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let limited = app
        .post(
            "admin/user/exposureLimit",
            Some(&agent),
            json!({ "user_id": demo_id, "max_exposure": 150 }),
        )
        .await;
    limited.expect(200);
    let (market, runners) = match_odds(&app, &admin, a_match(&app, &demo).await).await;
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 100 })).await.expect(200);
    let over = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 100 })).await;
    over.expect(422);
    assert!(over.message().contains("limit of ₹150.00"), "{}", over.message());
    app.post(
        "admin/user/exposureLimit",
        Some(&agent),
        json!({ "user_id": demo_id, "max_exposure": null }),
    )
    .await
    .expect(200);
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 100 })).await.expect(200);
    // An agent cannot limit someone else's client: to it, there is no such account.
    let (_, other) = app.new_user(&admin, "agent_two", "agent").await;
    let refused = app
        .post(
            "admin/user/exposureLimit",
            Some(&other),
            json!({ "user_id": demo_id, "max_exposure": 1 }),
        )
        .await;
    refused.expect(404);
    assert_eq!(refused.message(), "No such account in your downline.");
}
both_databases!(an_operator_exposure_limit_caps_bets);

async fn concurrent_bets_share_commits(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let (market, runners) = match_odds(&app, &admin, a_match(&app, &demo).await).await;
    let before = app.get("admin/engine/stats", Some(&admin)).await;
    before.expect(200);
    let answers = futures::future::join_all((0..40).map(|i| {
        bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[i % 2], "side": "back", "price": 10, "stake": 1 }))
    }))
    .await;
    assert!(answers.iter().all(|a| a.status.as_u16() == 200));
    let after = app.get("admin/engine/stats", Some(&admin)).await;
    let bets = after.data()["bets"].as_u64().unwrap() - before.data()["bets"].as_u64().unwrap();
    let commits =
        after.data()["commits"].as_u64().unwrap() - before.data()["commits"].as_u64().unwrap();
    assert_eq!(bets, 40);
    assert!((1..=40).contains(&commits), "{commits} commits");
    assert!(commits < 40, "40 bets at once share commits ({commits} commits)");
    app.get("admin/engine/stats", Some(&demo)).await.expect(403);
}
both_databases!(concurrent_bets_share_commits);

async fn the_book_is_the_same_after_a_restart(mut app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    // Two lays at 2.0 from different users: time priority says demo's fills first.
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2, "stake": 30 })).await.expect(200);
    bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2, "stake": 40 })).await.expect(200);
    bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": 3, "stake": 15, "persistence": "persist" })).await.expect(200);
    let books = |detail: &crate::common::Answer| {
        detail.data()["markets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["market_id"] == market)
            .unwrap()["runners"]
            .clone()
    };
    let before =
        books(&app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await);
    let exposure_before = (funds(&app, &demo).await, funds(&app, &demo2).await);
    app.restart().await;
    let demo = app.demo().await;
    let demo2 = app.login("demo2", "Demo@1234").await;
    let after =
        books(&app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await);
    assert_eq!(before, after);
    assert_eq!((funds(&app, &demo).await, funds(&app, &demo2).await), exposure_before);
    // Time priority survived: a back of 30 at 2.0 takes demo's lay, not demo2's.
    let maker = app.login("maker", "Maker@1234").await;
    bet(&app, &maker, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 30 })).await.expect(200);
    let open = app.post("bet/openBets", Some(&demo), json!({})).await;
    assert_eq!(
        open.data()["unmatched"].as_array().unwrap().len(),
        0,
        "demo's lay was first and is now matched"
    );
    let open2 = app.post("bet/openBets", Some(&demo2), json!({})).await;
    assert_eq!(open2.data()["unmatched"].as_array().unwrap().len(), 2);
}
both_databases!(the_book_is_the_same_after_a_restart);

async fn statements_show_settlements_with_a_running_balance(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 3, "stake": 50 })).await.expect(200);
    bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3, "stake": 20 })).await.expect(200);
    // Current bets: demo has 20 matched and 30 unmatched of the same lay.
    let matched = app
        .post("report/currentBets", Some(&demo), json!({ "type": "sports", "status": "matched" }))
        .await;
    matched.expect(200);
    assert_eq!(matched.data()["total"], 1);
    assert_eq!(minor(&matched.data()["rows"][0]["matched"]), 20_00);
    assert_eq!(matched.data()["rows"][0]["selection_name"], "Home");
    assert_eq!(matched.data()["rows"][0]["price"], 3.0);
    let unmatched =
        app.post("report/currentBets", Some(&demo), json!({ "status": "unmatched" })).await;
    assert_eq!(minor(&unmatched.data()["rows"][0]["remaining"]), 30_00);
    app.post("report/currentBets", Some(&demo), json!({ "status": "void" })).await.expect(400);

    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": runners[0] }),
    )
    .await
    .expect(200);
    // The layer lost 20 × 2 = 40.00; the first line is the settlement, with the balance after it.
    let statement = app
        .post(
            "report/accountStatement",
            Some(&demo),
            json!({ "type": "all", "page": 1, "limit": 10 }),
        )
        .await;
    statement.expect(200);
    let rows = statement.data()["rows"].as_array().unwrap();
    assert_eq!(rows[0]["kind"], "settlement");
    assert_eq!(minor(&rows[0]["debit"]), 40_00);
    assert_eq!(minor(&rows[0]["credit"]), 0);
    assert_eq!(minor(&rows[0]["balance"]), 99_960_00);
    assert!(rows[0]["description"].as_str().unwrap().contains("Match Odds"));
    assert_eq!(rows[1]["kind"], "deposit");
    assert_eq!(minor(&rows[1]["balance"]), 100_000_00);
    let winner =
        app.post("report/accountStatement", Some(&demo2), json!({ "type": "sports" })).await;
    assert_eq!(winner.data()["total"], 1);
    assert_eq!(minor(&winner.data()["rows"][0]["credit"]), 40_00);
    let deposits = app
        .post("report/accountStatement", Some(&demo), json!({ "type": "deposit_withdraw" }))
        .await;
    assert_eq!(deposits.data()["total"], 1);
    // Dates are days at UTC+5:30; a range in the past holds nothing.
    let old = app
        .post(
            "report/accountStatement",
            Some(&demo),
            json!({ "from_date": "2020-01-01", "to_date": "2020-01-31" }),
        )
        .await;
    assert_eq!(old.data()["total"], 0);
    app.post("report/accountStatement", Some(&demo), json!({ "from_date": "yesterday" }))
        .await
        .expect(400);
    app.post("report/accountStatement", Some(&demo), json!({ "type": "everything" }))
        .await
        .expect(400);
    app.post("report/accountStatement", None, json!({})).await.expect(401);
    // No open bets remain after settlement.
    let after = app.post("report/currentBets", Some(&demo), json!({ "status": "unmatched" })).await;
    assert_eq!(after.data()["total"], 0);
}
both_databases!(statements_show_settlements_with_a_running_balance);

async fn the_demo_has_markets_with_the_market_makers_liquidity(app: TestApp) {
    let demo = app.demo().await;
    let match_id = a_match(&app, &demo).await;
    // The maker's orders wait out the in-play bet delay (5 s) before they rest in the book.
    let mut markets = Vec::new();
    for _ in 0..60 {
        let detail =
            app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await;
        markets = detail.data()["markets"].as_array().unwrap().clone();
        let match_odds = markets.iter().find(|m| m["type"] == "match_odds");
        if match_odds.is_some_and(|m| m["runners"][0]["back"].as_array().unwrap().len() == 3) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    let types: Vec<&str> = markets.iter().map(|m| m["type"].as_str().unwrap()).collect();
    // Match odds, the bookmaker, then the house lines: eighteen fancies and two odd/even
    // markets (bookmaker-style, runners Odd and Even).
    assert_eq!(types[..3], ["match_odds", "bookmaker", "fancy"]);
    assert_eq!(types.iter().filter(|t| **t == "fancy").count(), 18, "{types:?}");
    assert_eq!(types.iter().filter(|t| **t == "bookmaker").count(), 3, "{types:?}");
    let match_odds = &markets[0];
    assert_eq!(match_odds["status"], "open");
    assert_eq!(match_odds["in_play"], true);
    assert_eq!(match_odds["bet_delay_s"], 5);
    let runner = &match_odds["runners"][0];
    let backs: Vec<f64> =
        runner["back"].as_array().unwrap().iter().map(|l| l["price"].as_f64().unwrap()).collect();
    let lays: Vec<f64> =
        runner["lay"].as_array().unwrap().iter().map(|l| l["price"].as_f64().unwrap()).collect();
    assert_eq!(backs.len(), 3, "three prices to back: {runner}");
    assert!(backs.windows(2).all(|w| w[0] > w[1]) && lays.windows(2).all(|w| w[0] < w[1]));
    assert!(backs[0] < lays[0], "the book is not crossed: {backs:?} {lays:?}");
    assert!(
        markets[1]["runners"][0]["back"][0]["price"].as_f64().unwrap() > 0.0,
        "bookmaker rates posted"
    );
    // The match list carries the best prices and the badges.
    let list = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let listed =
        list.data().as_array().unwrap().iter().find(|m| m["match_id"] == match_id).unwrap();
    assert_eq!(listed["has_bookmaker"], true);
    assert_eq!(listed["has_fancy"], true);
    assert_eq!(listed["odds"]["runners"][0]["back"].as_f64().unwrap(), backs[0]);
    assert_eq!(listed["odds"]["runners"][0]["lay"].as_f64().unwrap(), lays[0]);
    assert!(markets[2]["line_yes"].as_i64().unwrap() > markets[2]["line_no"].as_i64().unwrap());
}

mod demo_markets {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        let demo = backlay_demo::Demo { markets: true, ..crate::common::test_demo() };
        let app = crate::common::spawn_app_with_demo(crate::common::Db::Sqlite, demo, |_| {})
            .await
            .unwrap();
        super::the_demo_has_markets_with_the_market_makers_liquidity(app).await;
    }
}

async fn at_the_off_lapse_orders_lapse_and_the_bet_delay_starts(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let upcoming = matches
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["in_play"] == json!(false))
        .expect("a match not in play")["match_id"]
        .as_i64()
        .unwrap();
    let (market, runners) =
        app.open_market(&admin, upcoming, json!({ "type": "match_odds", "name": "At the off", "runners": ["A", "B"], "min_stake": 1, "bet_delay_s": 1 })).await;
    let started = std::time::Instant::now();
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 4, "stake": 10 })).await.expect(200);
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 4, "stake": 20, "persistence": "persist" }))
        .await
        .expect(200);
    assert!(
        started.elapsed() < std::time::Duration::from_millis(900),
        "no bet delay before the off"
    );
    assert_eq!(funds(&app, &demo).await.1, 30_00);

    let agent = app.agent().await;
    app.post("admin/match/inPlay", Some(&agent), json!({ "match_id": upcoming, "in_play": 1 }))
        .await
        .expect(403);
    app.post("admin/match/inPlay", Some(&admin), json!({ "match_id": 999_999, "in_play": 1 }))
        .await
        .expect(404);
    app.post("admin/match/inPlay", Some(&admin), json!({ "match_id": upcoming, "in_play": 1 }))
        .await
        .expect(200);
    assert_eq!(
        funds(&app, &demo).await.1,
        20_00,
        "the LAPSE order lapsed at the off, the PERSIST one stays"
    );
    let detail = app.post("match/matchDetail", Some(&demo), json!({ "match_id": upcoming })).await;
    assert_eq!(detail.data()["match"]["in_play"], json!(true));

    let started = std::time::Instant::now();
    bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 4, "stake": 5 })).await.expect(200);
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(900),
        "in play, the bet waited out its delay"
    );
}
both_databases!(at_the_off_lapse_orders_lapse_and_the_bet_delay_starts);

/// Finding 15 of issue 11: each bet stores its own profit or loss when its market settles
/// (before commission, which is on the user's net result in the market), by hand.
async fn each_settled_bet_stores_its_profit_or_loss(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let bet_id =
        |answer: &crate::common::Answer| answer.expect(200).data()["bet_id"].as_i64().unwrap();

    // Exchange: demo2 lays Home 60.00 at 2.5 and 40.00 at 3.0; demo backs Home 100.00 at 2.5
    // and takes both (the better price first, then 2.5), and backs Away 10.00 at 4.0 unmatched.
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    let lay_25 = bet_id(&bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2.5, "stake": 60 })).await);
    let lay_30 = bet_id(&bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 3.0, "stake": 40 })).await);
    let back = bet_id(&bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2.5, "stake": 100 })).await);
    let unmatched = bet_id(&bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": 4.0, "stake": 10 })).await);
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": runners[0] }),
    )
    .await
    .expect(200);
    // Home won: the back wins 40 × 2.0 + 60 × 1.5 = 170.00; the lays lose 90.00 and 80.00.
    let expected = [(back, 170_00), (lay_25, -90_00), (lay_30, -80_00), (unmatched, 0)];

    // Bookmaker, Away wins: demo's back on Away, 200.00 at rate 80, wins 160.00; the back on
    // Home, 100.00 at 45, loses 100.00.
    let (bm, bm_runners) = app.open_market(&admin, match_id, json!({ "type": "bookmaker", "name": "BM", "runners": ["Home", "Away"], "min_stake": 1 })).await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": bm, "runners": [
        { "selection_id": bm_runners[0], "back": 45, "lay": 50 }, { "selection_id": bm_runners[1], "back": 80, "lay": 90 }
    ] })).await.expect(200);
    let bm_away = bet_id(&bet(&app, &demo, json!({ "market_id": bm, "selection_id": bm_runners[1], "side": "back", "price": 80, "stake": 200 })).await);
    let bm_home = bet_id(&bet(&app, &demo, json!({ "market_id": bm, "selection_id": bm_runners[0], "side": "back", "price": 45, "stake": 100 })).await);
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": bm, "winner_selection_id": bm_runners[1] }),
    )
    .await
    .expect(200);

    // Fancy at 60: NO at line 57 rate 90 loses 50 × 0.9 = 45.00; YES at 57 rate 100 wins 30.00.
    let (fancy, _) = app
        .open_market(&admin, match_id, json!({ "type": "fancy", "name": "Runs", "min_stake": 1 }))
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 57, "rate_no": 90, "line_yes": 57, "rate_yes": 100 })).await.expect(200);
    let no = bet_id(
        &bet(
            &app,
            &demo2,
            json!({ "market_id": fancy, "side": "no", "price": 90, "line": 57, "stake": 50 }),
        )
        .await,
    );
    let yes = bet_id(
        &bet(
            &app,
            &demo,
            json!({ "market_id": fancy, "side": "yes", "price": 100, "line": 57, "stake": 30 }),
        )
        .await,
    );
    app.post("admin/market/result", Some(&admin), json!({ "market_id": fancy, "result": 60 }))
        .await
        .expect(200);

    // Void: every bet is off.
    let (void, void_runners) = match_odds(&app, &admin, match_id).await;
    let void_lay = bet_id(&bet(&app, &demo2, json!({ "market_id": void, "selection_id": void_runners[0], "side": "lay", "price": 2.0, "stake": 10 })).await);
    let void_back = bet_id(&bet(&app, &demo, json!({ "market_id": void, "selection_id": void_runners[0], "side": "back", "price": 2.0, "stake": 10 })).await);
    app.post("admin/market/void", Some(&admin), json!({ "market_id": void })).await.expect(200);

    let store = backlay_store::Store::connect(app.database_url()).await.unwrap();
    let expected = expected.into_iter().chain([
        (bm_away, 160_00),
        (bm_home, -100_00),
        (no, -45_00),
        (yes, 30_00),
        (void_lay, 0),
        (void_back, 0),
    ]);
    let mut stored = std::collections::HashMap::new();
    for market in [market, bm, fancy, void] {
        stored.extend(
            store
                .bets_of_market(market)
                .await
                .unwrap()
                .into_iter()
                .map(|b| (b.bet_id, b.pnl_minor)),
        );
    }
    for (bet_id, pnl_minor) in expected {
        assert_eq!(stored[&bet_id], Some(pnl_minor), "bet {bet_id}");
    }
    app.assert_ledger_sound(&admin).await;
}
both_databases!(each_settled_bet_stores_its_profit_or_loss);
