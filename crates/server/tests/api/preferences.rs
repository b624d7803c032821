//! Quick betting's server side: a bettor's preferences kept per user (`user/preferences`), and
//! a bookmaker or fancy bet placed through a moved rate when the bettor accepts the move
//! (`accept_rate_changes`: exact refuses any, better takes one in the bettor's favour, any takes
//! whatever is posted).

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};

async fn preferences_are_kept_per_bettor_and_checked(app: TestApp) {
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    app.get("user/preferences", None).await.expect(401);
    let fresh = app.get("user/preferences", Some(&demo)).await;
    fresh.expect(200);
    assert_eq!(
        fresh.data(),
        &json!({ "one_click": false, "one_click_stake": null, "accept_rate_changes": "exact", "reality_check_minutes": 60 })
    );

    let no_stake = app.post("user/preferences", Some(&demo), json!({ "one_click": true })).await;
    no_stake.expect(400);
    assert!(
        no_stake.field_error("one_click_stake").contains("Choose the stake"),
        "{}",
        no_stake.body
    );
    for stake in [json!(0), json!(-5), json!(20_000_000)] {
        let bad =
            app.post("user/preferences", Some(&demo), json!({ "one_click_stake": stake })).await;
        bad.expect(400);
        assert!(!bad.field_error("one_click_stake").is_empty(), "{stake}: {}", bad.body);
    }
    let maybe =
        app.post("user/preferences", Some(&demo), json!({ "accept_rate_changes": "maybe" })).await;
    maybe.expect(400);
    assert!(
        maybe.field_error("accept_rate_changes").contains("exact, better or any"),
        "{}",
        maybe.body
    );

    let saved = app
        .post(
            "user/preferences",
            Some(&demo),
            json!({ "one_click": true, "one_click_stake": 250, "accept_rate_changes": "better" }),
        )
        .await;
    saved.expect(200);
    let expected = json!({ "one_click": true, "one_click_stake": 250.0, "accept_rate_changes": "better", "reality_check_minutes": 60 });
    assert_eq!(saved.data(), &expected);
    assert_eq!(app.get("user/preferences", Some(&demo)).await.data(), &expected);
    // A field left out keeps its value.
    let off = app.post("user/preferences", Some(&demo), json!({ "one_click": false })).await;
    assert_eq!(off.data()["one_click_stake"], 250.0);
    assert_eq!(off.data()["accept_rate_changes"], "better");
    // Another bettor's are their own.
    assert_eq!(
        app.get("user/preferences", Some(&demo2)).await.data()["accept_rate_changes"],
        "exact"
    );
}
both_databases!(preferences_are_kept_per_bettor_and_checked);

async fn place(app: &TestApp, token: &str, body: Value) -> crate::common::Answer {
    app.post("bet/placeBet", Some(token), body).await
}

async fn a_moved_rate_is_taken_only_as_far_as_the_bettor_accepts(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (bookmaker, runners) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["A", "B"] }),
        )
        .await;
    let a = runners[0];
    app.post(
        "admin/market/rates",
        Some(&admin),
        json!({ "market_id": bookmaker, "runners": [{ "selection_id": a, "back": 40, "lay": 42 }, { "selection_id": runners[1], "back": 150, "lay": 155 }] }),
    )
    .await
    .expect(200);
    let bm = |side: &str, rate: i64, accept: &str| json!({ "market_id": bookmaker, "selection_id": a, "side": side, "price": rate, "stake": 100, "accept_rate_changes": accept });
    // The back was quoted at 45 and is posted at 40 now: worse for the backer.
    let exact = place(&app, &demo, bm("back", 45, "exact")).await;
    exact.expect(409);
    assert!(exact.message().contains("Odds changed"), "{}", exact.body);
    place(&app, &demo, bm("back", 45, "better")).await.expect(409);
    let any = place(&app, &demo, bm("back", 45, "any")).await;
    any.expect(200);
    assert_eq!(any.data()["avg_price_matched"], 40.0, "struck at the posted rate: {}", any.body);
    // Quoted at 35, posted at 40: better for the backer, taken by better.
    let better = place(&app, &demo, bm("back", 35, "better")).await;
    better.expect(200);
    assert_eq!(better.data()["avg_price_matched"], 40.0);
    // A lay quoted at 40, posted at 42, risks more: better refuses it.
    place(&app, &demo, bm("lay", 40, "better")).await.expect(409);
    place(&app, &demo, bm("lay", 45, "better")).await.expect(200);
    let unknown = place(&app, &demo, bm("back", 40, "sometimes")).await;
    unknown.expect(400);
    assert!(!unknown.field_error("accept_rate_changes").is_empty(), "{}", unknown.body);

    // A fancy: Yes 49 at 100, No 48 at 100.
    let (fancy, _) = app
        .open_market(&admin, match_id, json!({ "type": "fancy", "name": "6 over runs A" }))
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 48, "rate_no": 100, "line_yes": 49, "rate_yes": 100 }))
        .await
        .expect(200);
    let fancy_bet = |side: &str, line: i64, accept: &str| json!({ "market_id": fancy, "side": side, "line": line, "price": 100, "stake": 100, "accept_rate_changes": accept });
    // Yes quoted at 50: the line fell to 49, easier to reach.
    place(&app, &demo, fancy_bet("yes", 50, "exact")).await.expect(409);
    place(&app, &demo, fancy_bet("yes", 50, "better")).await.expect(200);
    // Yes quoted at 48: the line rose to 49, harder.
    place(&app, &demo, fancy_bet("yes", 48, "better")).await.expect(409);
    // No quoted at 47: the line rose to 48, better for No.
    place(&app, &demo, fancy_bet("no", 47, "better")).await.expect(200);
    let open = app.post("bet/openBets", Some(&demo), json!({ "match_id": match_id })).await;
    let lines: Vec<(Value, Value)> = open.data()["matched"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["market_id"] == fancy)
        .map(|b| (b["side"].clone(), b["line"].clone()))
        .collect();
    assert!(lines.contains(&(json!("yes"), json!(49))), "struck at the posted line: {lines:?}");
    assert!(lines.contains(&(json!("no"), json!(48))), "{lines:?}");
    assert_eq!(
        minor(&app.get("user/getUserBalance", Some(&demo)).await.data()["total_balance"]),
        100_000_00
    );
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_moved_rate_is_taken_only_as_far_as_the_bettor_accepts);
