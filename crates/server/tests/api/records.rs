//! True bet records: the average matched price beside the one asked in every list of bets, and
//! a settlement line of the account statement opening the caller's bets it settled.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};

/// The demo's first cricket match (in play).
async fn a_match(app: &TestApp, token: &str) -> i64 {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    answer.data()[0]["match_id"].as_i64().unwrap()
}

async fn bet(app: &TestApp, token: &str, body: Value) -> Value {
    let answer = app.post("bet/placeBet", Some(token), body).await;
    answer.expect(200);
    answer.data().clone()
}

fn by_id<'a>(list: &'a Value, bet_id: &Value) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|b| &b["bet_id"] == bet_id)
        .unwrap_or_else(|| panic!("bet {bet_id} is not in {list}"))
}

async fn every_list_shows_the_average_matched_price_beside_the_asked_one(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let lay_at_4 = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 4, "stake": 10 })).await;
    let lay_at_3_8 = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 3.8, "stake": 30 })).await;
    // A back at 3.75 takes 10.00 at 4.00 and 10.00 at 3.80: on average 3.90, better than asked.
    let back = bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3.75, "stake": 20 })).await;
    assert_eq!(back["avg_price_matched"], 3.9);

    let open = app.post("bet/openBets", Some(&demo2), json!({ "match_id": match_id })).await;
    open.expect(200);
    let mine = by_id(&open.data()["matched"], &back["bet_id"]);
    assert_eq!((&mine["price"], &mine["avg_price_matched"]), (&json!(3.75), &json!(3.9)));
    let current =
        app.post("report/currentBets", Some(&demo2), json!({ "status": "matched" })).await;
    current.expect(200);
    let row = by_id(&current.data()["rows"], &back["bet_id"]);
    assert_eq!((&row["price"], &row["avg_price_matched"]), (&json!(3.75), &json!(3.9)));
    assert_eq!(
        (&row["selection_name"], &row["market_type"]),
        (&json!("Home"), &json!("match_odds"))
    );

    // The layer's 3.80 is half matched: its average is its own price, and its unmatched part
    // lists the same average; a bet with nothing matched has none.
    let layer = app.post("bet/openBets", Some(&demo), json!({ "match_id": match_id })).await;
    assert_eq!(by_id(&layer.data()["matched"], &lay_at_4["bet_id"])["avg_price_matched"], 4.0);
    assert_eq!(by_id(&layer.data()["matched"], &lay_at_3_8["bet_id"])["avg_price_matched"], 3.8);
    assert_eq!(
        minor(&by_id(&layer.data()["unmatched"], &lay_at_3_8["bet_id"])["remaining"]),
        20_00
    );
    let waiting = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": 50, "stake": 5 })).await;
    let layer = app.post("bet/openBets", Some(&demo), json!({ "match_id": match_id })).await;
    assert_eq!(
        by_id(&layer.data()["unmatched"], &waiting["bet_id"])["avg_price_matched"],
        Value::Null
    );

    // House markets: the rate is the average; a fancy bet keeps its line.
    let (bm, bm_runners) = app
        .open_market(&admin, match_id, json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"], "min_stake": 1 }))
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": bm, "runners": [
        { "selection_id": bm_runners[0], "back": 251, "lay": 254 }, { "selection_id": bm_runners[1], "back": 40, "lay": 42 }
    ] })).await.expect(200);
    let bm_bet = bet(&app, &demo2, json!({ "market_id": bm, "selection_id": bm_runners[0], "side": "back", "price": 251, "stake": 100 })).await;
    let (fancy, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "fancy", "name": "6 over runs Home", "min_stake": 1 }),
        )
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 48, "rate_no": 100, "line_yes": 49, "rate_yes": 100 })).await.expect(200);
    let yes = bet(
        &app,
        &demo2,
        json!({ "market_id": fancy, "side": "yes", "price": 100, "line": 49, "stake": 50 }),
    )
    .await;
    let open = app.post("bet/openBets", Some(&demo2), json!({ "match_id": match_id })).await;
    let bm_item = by_id(&open.data()["matched"], &bm_bet["bet_id"]);
    assert_eq!((&bm_item["price"], &bm_item["avg_price_matched"]), (&json!(251.0), &json!(251.0)));
    let yes_item = by_id(&open.data()["matched"], &yes["bet_id"]);
    assert_eq!(
        (&yes_item["side"], &yes_item["line"], &yes_item["avg_price_matched"]),
        (&json!("yes"), &json!(49), &json!(100.0))
    );
}
both_databases!(every_list_shows_the_average_matched_price_beside_the_asked_one);

async fn a_settlement_line_opens_the_callers_bets_it_settled(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let lay = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 3.8, "stake": 50 })).await;
    let back = bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3.75, "stake": 20 })).await;
    // Nothing is settled yet: the market's settled bets are none.
    let before = app.post("report/settledBets", Some(&demo2), json!({ "market_id": market })).await;
    before.expect(200);
    assert_eq!(before.data(), &json!([]));
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": runners[0] }),
    )
    .await
    .expect(200);

    // demo2's statement: the settlement line names its market; the deposit line none.
    let statement =
        app.post("report/accountStatement", Some(&demo2), json!({ "type": "all" })).await;
    statement.expect(200);
    let rows = statement.data()["rows"].as_array().unwrap();
    assert_eq!((&rows[0]["kind"], &rows[0]["market_id"]), (&json!("settlement"), &json!(market)));
    assert_eq!(minor(&rows[0]["credit"]), 56_00, "20.00 backed at 3.80 wins 56.00");
    let deposit = rows.iter().find(|r| r["kind"] == "deposit").unwrap();
    assert_eq!(deposit["market_id"], Value::Null);

    let settled =
        app.post("report/settledBets", Some(&demo2), json!({ "market_id": market })).await;
    settled.expect(200);
    let list = settled.data().as_array().unwrap();
    assert_eq!(list.len(), 1, "only demo2's own bet: {list:?}");
    let row = &list[0];
    assert_eq!(row["bet_id"], back["bet_id"]);
    assert_eq!((&row["price"], &row["avg_price_matched"]), (&json!(3.75), &json!(3.8)));
    assert_eq!(
        (&row["status"], &row["selection_name"], &row["market_name"]),
        (&json!("settled"), &json!("Home"), &json!("Match Odds"))
    );
    assert_eq!(row["match_id"], match_id);
    assert_eq!(minor(&row["pnl"]), 56_00);
    // The layer sees their own bet only: matched 20.00 lost 56.00, the unmatched 30.00 cancelled.
    let layer = app.post("report/settledBets", Some(&demo), json!({ "market_id": market })).await;
    let layer_rows = layer.data().as_array().unwrap();
    assert_eq!(layer_rows.len(), 1);
    assert_eq!(layer_rows[0]["bet_id"], lay["bet_id"]);
    assert_eq!(minor(&layer_rows[0]["pnl"]), -56_00);
    assert_eq!(minor(&layer_rows[0]["matched"]), 20_00);
    assert_eq!(minor(&layer_rows[0]["remaining"]), 0);

    // Someone with no bet there sees nothing of it; bad input is a 400 that names the field.
    let (_, stranger) = app.new_user(&admin, "records_stranger", "client").await;
    let none =
        app.post("report/settledBets", Some(&stranger), json!({ "market_id": market })).await;
    none.expect(200);
    assert_eq!(none.data(), &json!([]));
    app.post("report/settledBets", Some(&demo2), json!({ "market_id": 987_654 })).await.expect(200);
    let bad = app.post("report/settledBets", Some(&demo2), json!({ "market_id": "first" })).await;
    bad.expect(400);
    app.post("report/settledBets", Some(&demo2), json!({})).await.expect(400);
    app.post("report/settledBets", None, json!({ "market_id": market })).await.expect(401);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_settlement_line_opens_the_callers_bets_it_settled);
