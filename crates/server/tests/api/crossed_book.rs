//! A stored book that is crossed (a resting back at or below a resting lay, as an older version
//! could write after a failed write, issue 27) loads suspended instead of never loading, keeps
//! every bettor's exposure, refuses to reopen, and is resolved by the operator: the younger
//! order of the crossing pair is cancelled, its exposure returned, the action audited.

use serde_json::json;

use crate::both_databases;
use crate::common::{minor, TestApp};

async fn market_status(app: &TestApp, token: &str, match_id: i64, market: i64) -> String {
    let detail = app.post("match/matchDetail", Some(token), json!({ "match_id": match_id })).await;
    detail.expect(200);
    let markets = detail.data()["markets"].as_array().unwrap().clone();
    let found = markets.iter().find(|m| m["market_id"] == market).expect("the market is listed");
    found["status"].as_str().unwrap().to_string()
}

async fn exposure_minor(app: &TestApp, token: &str) -> i64 {
    -minor(&app.get("user/getUserBalance", Some(token)).await.data()["liability"])
}

async fn a_crossed_stored_book_loads_suspended_until_the_operator_resolves_it(mut app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Crossed", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    // demo backs at 2.00 and demo2 lays at 1.90: apart, both rest.
    let back = app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 10 })).await;
    assert_eq!(back.data()["status"], "unmatched", "{}", back.body);
    let lay = app.post("bet/placeBet", Some(&demo2), json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 1.9, "stake": 10, "persistence": "persist" })).await;
    assert_eq!(lay.data()["status"], "unmatched", "{}", lay.body);
    let lay_id = lay.data()["bet_id"].as_i64().unwrap();
    let demo2_id = app.user_id(&admin, "demo2").await;

    // What an older version could leave behind: demo2's lay stored at 2.00, at the back's
    // price, with the exposure that lay reserves (10.00 × (2.00 − 1) = 10.00, 1.00 more).
    app.stop().await;
    let store = app.store().await;
    for sql in [
        format!("UPDATE bets SET price = 200 WHERE id = {lay_id}"),
        format!("UPDATE market_exposures SET exposure_minor = 1000 WHERE user_id = {demo2_id} AND market_id = {market}"),
        format!("UPDATE ledger_accounts SET exposure_minor = exposure_minor + 100 WHERE user_id = {demo2_id}"),
    ] {
        sqlx::query(&sql).execute(store.pool()).await.unwrap();
    }
    store.close().await;
    app.restart().await;

    // It loads (a market that cannot load takes no bets and cannot be settled), suspended,
    // with every bet and exposure as stored.
    let demo = app.demo().await;
    let demo2 = app.login("demo2", "Demo@1234").await;
    let admin = app.admin().await;
    assert_eq!(market_status(&app, &demo, match_id, market).await, "suspended");
    assert_eq!(exposure_minor(&app, &demo).await, 10_00);
    assert_eq!(exposure_minor(&app, &demo2).await, 10_00);
    let open = app.post("bet/openBets", Some(&demo2), json!({})).await;
    assert_eq!(open.data()["unmatched"].as_array().unwrap().len(), 1, "{}", open.body);
    let refused = app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2, "stake": 5 })).await;
    refused.expect(409);
    let reopen = app
        .post("admin/market/status", Some(&admin), json!({ "market_id": market, "status": "open" }))
        .await;
    reopen.expect(409);
    assert!(reopen.message().contains("crossed"), "{}", reopen.body);

    // Only an admin resolves it.
    app.post("admin/market/resolveCrossed", Some(&demo), json!({ "market_id": market }))
        .await
        .expect(403);
    let resolved =
        app.post("admin/market/resolveCrossed", Some(&admin), json!({ "market_id": market })).await;
    resolved.expect(200);
    let rows = resolved.data().as_array().unwrap().clone();
    assert_eq!(rows.len(), 1, "{}", resolved.body);
    assert_eq!(rows[0]["bet_id"], lay_id, "the younger order of the pair is cancelled");
    assert_eq!(rows[0]["user_id"], demo2_id);
    assert_eq!(rows[0]["side"], "lay");
    assert_eq!(rows[0]["price"], 2.0);
    assert_eq!(minor(&rows[0]["cancelled"]), 10_00);
    assert_eq!(exposure_minor(&app, &demo2).await, 0, "the cancelled lay's exposure returned");
    assert_eq!(exposure_minor(&app, &demo).await, 10_00, "the older back still rests");
    assert_eq!(market_status(&app, &demo, match_id, market).await, "suspended");
    app.post("admin/market/resolveCrossed", Some(&admin), json!({ "market_id": market }))
        .await
        .expect(409);
    let audit =
        app.post("admin/audit", Some(&admin), json!({ "action": "market.resolve_crossed" })).await;
    audit.expect(200);
    let detail = &audit.data()["rows"][0]["detail"];
    assert_eq!(detail["cancelled"][0]["bet_id"], lay_id, "{}", audit.body);

    // Reopened by the operator, the book matches as usual: a lay at 2.00 takes demo's back.
    app.post("admin/market/status", Some(&admin), json!({ "market_id": market, "status": "open" }))
        .await
        .expect(200);
    let taken = app.post("bet/placeBet", Some(&demo2), json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2, "stake": 10 })).await;
    assert_eq!(taken.data()["status"], "matched", "{}", taken.body);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_crossed_stored_book_loads_suspended_until_the_operator_resolves_it);
