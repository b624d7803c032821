//! Editing an unmatched bet (`bet/updateBet`): a lower stake keeps its place in the queue, a
//! new price or a higher stake is a new order at the back; persistence changes in place; what
//! cannot be done is refused before anything moves, and a replacement the funds cannot carry
//! says its cancel happened.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};
use crate::partnership::deposit;

/// An open match-odds market (A and B) on the first cricket match: (market id, A's id).
async fn open_market(app: &TestApp, admin: &str) -> (i64, i64) {
    let matches = app.post("match/getMatches", Some(admin), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = app
        .open_market(
            admin,
            match_id,
            json!({ "type": "match_odds", "name": "Edited", "runners": ["A", "B"], "bet_delay_s": 0 }),
        )
        .await;
    (market, runners[0])
}

async fn place(
    app: &TestApp,
    token: &str,
    market: i64,
    a: i64,
    side: &str,
    price: f64,
    stake: i64,
) -> i64 {
    let body = json!({ "market_id": market, "selection_id": a, "side": side, "price": price, "stake": stake });
    let placed = app.post("bet/placeBet", Some(token), body).await;
    placed.expect(200);
    placed.data()["bet_id"].as_i64().unwrap()
}

/// The caller's bet `bet_id` among their open bets (matched or unmatched list).
async fn open_bet(app: &TestApp, token: &str, bet_id: i64, list: &str) -> Option<Value> {
    let open = app.post("bet/openBets", Some(token), json!({})).await;
    open.data()[list].as_array().unwrap().iter().find(|b| b["bet_id"] == bet_id).cloned()
}

/// A fresh client with `amount` rupees: (id, token).
async fn funded_client(app: &TestApp, admin: &str, name: &str, amount: i64) -> (i64, String) {
    let (id, token) = app.new_user(admin, name, "client").await;
    deposit(app, admin, id, amount).await;
    (id, token)
}

async fn a_lower_stake_keeps_the_queue_place_and_a_new_price_goes_to_the_back(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let (_, third) = funded_client(&app, &admin, "third_backer", 10_000).await;
    let (market, a) = open_market(&app, &admin).await;

    // demo's lay first, demo2's behind it at the same price.
    let first = place(&app, &demo, market, a, "lay", 2.5, 400).await;
    let behind = place(&app, &demo2, market, a, "lay", 2.5, 200).await;
    let lower =
        app.post("bet/updateBet", Some(&demo), json!({ "bet_id": first, "stake": 300 })).await;
    lower.expect(200);
    assert_eq!(lower.data()["bet_id"], first, "{}", lower.body);
    assert_eq!(lower.data()["replaced_bet_id"], Value::Null);
    assert_eq!(lower.data()["kept_queue_place"], true);
    assert_eq!(minor(&lower.data()["remaining"]), 300_00);
    // A back of 300 takes demo's lay whole: it kept its place ahead of demo2's.
    place(&app, &third, market, a, "back", 2.5, 300).await;
    assert!(open_bet(&app, &demo, first, "unmatched").await.is_none());
    let matched = open_bet(&app, &demo, first, "matched").await.expect("demo's lay matched");
    assert_eq!(minor(&matched["matched"]), 300_00);
    assert_eq!(
        minor(&open_bet(&app, &demo2, behind, "unmatched").await.unwrap()["remaining"]),
        200_00
    );

    // A new price is a new order at the back: demo's lay at 2.6 first, then demo2's at 2.5
    // moved to 2.6 is behind it.
    let ahead = place(&app, &demo, market, a, "lay", 2.6, 100).await;
    let moved =
        app.post("bet/updateBet", Some(&demo2), json!({ "bet_id": behind, "price": 2.6 })).await;
    moved.expect(200);
    let moved_id = moved.data()["bet_id"].as_i64().unwrap();
    assert_ne!(moved_id, behind);
    assert_eq!(moved.data()["replaced_bet_id"], behind);
    assert_eq!(moved.data()["kept_queue_place"], false);
    assert_eq!(moved.data()["status"], "unmatched");
    assert_eq!(minor(&moved.data()["remaining"]), 200_00);
    let old = app.post("bet/openBets", Some(&demo2), json!({})).await;
    assert!(old.data()["unmatched"].as_array().unwrap().iter().all(|b| b["bet_id"] != behind));
    place(&app, &third, market, a, "back", 2.6, 100).await;
    assert!(
        open_bet(&app, &demo, ahead, "unmatched").await.is_none(),
        "demo's earlier lay matched"
    );
    let waiting = open_bet(&app, &demo2, moved_id, "unmatched").await.expect("demo2's waits");
    assert_eq!(minor(&waiting["remaining"]), 200_00);
    assert_eq!(waiting["price"], 2.6);

    // A higher stake is a new order too, for the new unmatched size.
    let more =
        app.post("bet/updateBet", Some(&demo2), json!({ "bet_id": moved_id, "stake": 350 })).await;
    more.expect(200);
    assert_eq!(more.data()["kept_queue_place"], false);
    assert_eq!(minor(&more.data()["remaining"]), 350_00);
    let open = app.post("bet/openBets", Some(&demo2), json!({})).await;
    let unmatched = open.data()["unmatched"].as_array().unwrap();
    assert_eq!(unmatched.len(), 1, "{}", open.body);
    assert_eq!(minor(&unmatched[0]["remaining"]), 350_00);
    // Exposure follows: demo2's only position is that lay, 350 × 1.6 = 560.00.
    let balance = app.get("user/getUserBalance", Some(&demo2)).await;
    assert_eq!(minor(&balance.data()["liability"]), -560_00, "{}", balance.body);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_lower_stake_keeps_the_queue_place_and_a_new_price_goes_to_the_back);

async fn persistence_changes_in_place_and_keeps_the_bet_through_a_suspension(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let (market, a) = open_market(&app, &admin).await;
    let bet_id = place(&app, &demo, market, a, "back", 3.0, 200).await;
    let kept = app
        .post("bet/updateBet", Some(&demo), json!({ "bet_id": bet_id, "persistence": "persist" }))
        .await;
    kept.expect(200);
    assert_eq!(kept.data()["bet_id"], bet_id);
    assert_eq!(kept.data()["kept_queue_place"], true);
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": market, "status": "suspended" }),
    )
    .await
    .expect(200);
    let still =
        open_bet(&app, &demo, bet_id, "unmatched").await.expect("kept through the suspension");
    assert_eq!(still["persistence"], "persist");
    assert_eq!(minor(&still["remaining"]), 200_00);
}
both_databases!(persistence_changes_in_place_and_keeps_the_bet_through_a_suspension);

async fn edits_that_cannot_be_made_are_refused_before_anything_moves(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let (market, a) = open_market(&app, &admin).await;
    let bet_id = place(&app, &demo, market, a, "lay", 2.0, 400).await;
    place(&app, &demo2, market, a, "back", 2.0, 150).await;
    let update = |token: &str, body: Value| {
        let token = token.to_string();
        let app = &app;
        async move { app.post("bet/updateBet", Some(&token), body).await }
    };

    let nothing = update(&demo, json!({ "bet_id": bet_id })).await;
    nothing.expect(400);
    assert!(nothing.message().contains("new price, stake or persistence"), "{}", nothing.body);
    let off = update(&demo, json!({ "bet_id": bet_id, "price": 2.01 })).await;
    off.expect(400);
    assert!(
        off.field_error("price").contains("nearest valid prices are 2.00 and 2.02"),
        "{}",
        off.body
    );
    let matched_part = update(&demo, json!({ "bet_id": bet_id, "stake": 150 })).await;
    matched_part.expect(400);
    assert!(
        matched_part.field_error("stake").contains("₹150.00 already matched"),
        "{}",
        matched_part.body
    );
    update(&demo, json!({ "bet_id": bet_id, "persistence": "forever" })).await.expect(400);
    update(&demo, json!({ "bet_id": bet_id, "stake": -5 })).await.expect(400);
    // Someone else's bet, and one with nothing unmatched, are not the caller's to edit.
    update(&demo2, json!({ "bet_id": bet_id, "stake": 300 })).await.expect(404);
    update(&demo, json!({ "bet_id": 987_654_321, "stake": 300 })).await.expect(404);
    // A replacement below the market's minimum stake (100): refused, the bet untouched.
    let small = update(&demo, json!({ "bet_id": bet_id, "price": 2.2, "stake": 200 })).await;
    small.expect(422);
    assert!(
        small.message().contains("below this market's minimum stake of ₹100.00"),
        "{}",
        small.body
    );
    let untouched = open_bet(&app, &demo, bet_id, "unmatched").await.expect("still there");
    assert_eq!(minor(&untouched["remaining"]), 250_00);
    assert_eq!(untouched["price"], 2.0);

    // A replacement the funds cannot carry: the cancel happened, and the answer says so.
    let (_, poor) = funded_client(&app, &admin, "poor_layer", 1_000).await;
    let lay = place(&app, &poor, market, a, "lay", 2.0, 300).await;
    let dear = update(&poor, json!({ "bet_id": lay, "price": 10.0 })).await;
    dear.expect(422);
    assert!(
        dear.message()
            .contains("Your unmatched ₹300.00 was cancelled, but the new bet was not placed"),
        "{}",
        dear.body
    );
    let open = app.post("bet/openBets", Some(&poor), json!({})).await;
    assert!(open.data()["unmatched"].as_array().unwrap().is_empty(), "{}", open.body);
    assert_eq!(minor(&app.get("user/getUserBalance", Some(&poor)).await.data()["liability"]), 0);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(edits_that_cannot_be_made_are_refused_before_anything_moves);
