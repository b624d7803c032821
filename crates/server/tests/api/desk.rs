//! The trading desk's routes: the desk's read of a match's markets, stake limits changed live,
//! the result preview (checked against the settlement it previews), and the audit row every
//! market action writes. Each route as an agent, a client and a stranger: refused, nothing
//! changed.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, Answer, TestApp};

/// The demo's first cricket match (in play).
async fn a_match(app: &TestApp, token: &str) -> i64 {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    answer.data()[0]["match_id"].as_i64().unwrap()
}

/// An open bookmaker (Home 45/50, Away 80/90) and an open fancy (NO 50 / YES 50 at 100),
/// stakes 1 to 1,000: (bookmaker, its runners, fancy).
async fn desk_markets(app: &TestApp, admin: &str, match_id: i64) -> (i64, Vec<i64>, i64) {
    let (bm, runners) = app.open_market(admin, match_id, json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"], "min_stake": 1, "max_stake": 1000 })).await;
    app.post("admin/market/rates", Some(admin), json!({ "market_id": bm, "runners": [
        { "selection_id": runners[0], "back": 45, "lay": 50 }, { "selection_id": runners[1], "back": 80, "lay": 90 }
    ] })).await.expect(200);
    let (fancy, _) = app
        .open_market(
            admin,
            match_id,
            json!({ "type": "fancy", "name": "10 over runs", "min_stake": 1, "max_stake": 1000 }),
        )
        .await;
    app.post("admin/market/rates", Some(admin), json!({ "market_id": fancy, "line_no": 50, "rate_no": 100, "line_yes": 50, "rate_yes": 100 })).await.expect(200);
    (bm, runners, fancy)
}

async fn bet(app: &TestApp, token: &str, body: Value) -> Answer {
    app.post("bet/placeBet", Some(token), body).await
}

/// The newest audit rows, newest first.
async fn audit_rows(app: &TestApp, admin: &str, limit: i64) -> Vec<Value> {
    let answer = app.post("admin/audit", Some(admin), json!({ "limit": limit })).await;
    answer.expect(200);
    answer.data()["rows"].as_array().unwrap().clone()
}

async fn audit_total(app: &TestApp, admin: &str) -> i64 {
    let answer = app.post("admin/audit", Some(admin), json!({ "limit": 1 })).await;
    answer.data()["total"].as_i64().unwrap()
}

fn market_of(desk: &Answer, market_id: i64) -> &Value {
    desk.data()["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["market_id"] == market_id)
        .unwrap_or_else(|| panic!("market {market_id} not on the desk: {}", desk.body))
}

async fn every_market_action_is_audited_with_before_and_after(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, fancy) = desk_markets(&app, &admin, match_id).await;
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": fancy, "status": "ball_running" }),
    )
    .await
    .expect(200);
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 51, "rate_no": 100, "line_yes": 52, "rate_yes": 90 })).await.expect(200);
    app.post(
        "admin/market/limits",
        Some(&admin),
        json!({ "market_id": fancy, "min_stake": 10, "max_stake": 500 }),
    )
    .await
    .expect(200);
    app.post("admin/market/result", Some(&admin), json!({ "market_id": fancy, "result": 55 }))
        .await
        .expect(200);
    app.post("admin/market/void", Some(&admin), json!({ "market_id": bm })).await.expect(200);

    let rows = audit_rows(&app, &admin, 20).await;
    let of = |action: &str, market: i64| -> Vec<&Value> {
        rows.iter()
            .filter(|r| r["action"] == action && r["target"] == format!("market:{market}"))
            .collect()
    };
    for row in rows.iter().filter(|r| r["action"].as_str().unwrap().starts_with("market.")) {
        assert_eq!(row["actor_user_id"], admin_id, "{row}");
        assert!(row["client_ip"].as_str().is_some_and(|ip| !ip.is_empty()), "no address: {row}");
    }
    // Created, with what it was created as.
    let created = of("market.create", bm);
    assert_eq!(created.len(), 1);
    assert_eq!(created[0]["detail"]["type"], "bookmaker");
    assert_eq!(created[0]["detail"]["runners"], json!(["Home", "Away"]));
    assert_eq!(minor(&created[0]["detail"]["max_stake"]), 1000_00);
    // Newest first: open (from suspended), then ball running.
    let statuses = of("market.status", fancy);
    assert_eq!(statuses.len(), 2);
    assert_eq!(statuses[0]["detail"], json!({ "before": "open", "after": "ball_running" }));
    assert_eq!(statuses[1]["detail"], json!({ "before": "suspended", "after": "open" }));
    let rates = of("market.rates", fancy);
    assert_eq!(rates.len(), 2);
    assert_eq!(
        rates[0]["detail"],
        json!({ "before": { "line_no": 50, "rate_no": 100, "line_yes": 50, "rate_yes": 100 },
                "after": { "line_no": 51, "rate_no": 100, "line_yes": 52, "rate_yes": 90 } })
    );
    assert_eq!(rates[1]["detail"]["before"]["line_no"], Value::Null);
    let bm_rates = of("market.rates", bm);
    assert_eq!(
        bm_rates[0]["detail"]["before"][0],
        json!({ "selection_id": runners[0], "back": null, "lay": null })
    );
    assert_eq!(
        bm_rates[0]["detail"]["after"][1],
        json!({ "selection_id": runners[1], "back": 80, "lay": 90 })
    );
    let limits = of("market.limits", fancy);
    assert_eq!(limits.len(), 1);
    assert_eq!(minor(&limits[0]["detail"]["before"]["min_stake"]), 1_00);
    assert_eq!(minor(&limits[0]["detail"]["before"]["max_stake"]), 1000_00);
    assert_eq!(minor(&limits[0]["detail"]["after"]["min_stake"]), 10_00);
    assert_eq!(minor(&limits[0]["detail"]["after"]["max_stake"]), 500_00);
    let result = of("market.result", fancy);
    assert_eq!(result.len(), 1);
    assert_eq!(result[0]["detail"]["before"], "ball_running");
    assert_eq!(result[0]["detail"]["after"], "closed");
    assert_eq!(result[0]["detail"]["result"], 55);
    let void = of("market.void", bm);
    assert_eq!(void.len(), 1);
    assert_eq!(void[0]["detail"]["before"], "open");
    assert_eq!(void[0]["detail"]["after"], "void");

    // A refused change writes no row.
    let total = audit_total(&app, &admin).await;
    app.post("admin/market/status", Some(&admin), json!({ "market_id": fancy, "status": "open" }))
        .await
        .expect(409);
    app.post(
        "admin/market/limits",
        Some(&admin),
        json!({ "market_id": fancy, "min_stake": 5, "max_stake": 50 }),
    )
    .await
    .expect(409);
    assert_eq!(audit_total(&app, &admin).await, total);
}
both_databases!(every_market_action_is_audited_with_before_and_after);

async fn limits_change_what_a_bet_may_stake_at_once(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, _) = desk_markets(&app, &admin, match_id).await;
    let home = |stake: i64| json!({ "market_id": bm, "selection_id": runners[0], "side": "back", "price": 45, "stake": stake });
    bet(&app, &demo, home(5)).await.expect(200);

    let answer = app
        .post(
            "admin/market/limits",
            Some(&admin),
            json!({ "market_id": bm, "min_stake": "10", "max_stake": 500.5 }),
        )
        .await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["min_stake"]), 10_00);
    assert_eq!(minor(&answer.data()["max_stake"]), 500_50);
    let refused = bet(&app, &demo, home(5)).await;
    refused.expect(422);
    assert!(refused.message().contains("minimum stake"), "{}", refused.body);
    bet(&app, &demo, home(501)).await.expect(422);
    bet(&app, &demo, home(500)).await.expect(200);

    // The client's page and the desk show the new limits; the stored market has them.
    let detail = app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await;
    let page = market_of(&detail, bm);
    assert_eq!((minor(&page["min_stake"]), minor(&page["max_stake"])), (10_00, 500_50));
    let store = app.store().await;
    let stored = store.market(bm).await.unwrap();
    assert_eq!((stored.setup.min_stake_minor, stored.setup.max_stake_minor), (10_00, 500_50));
}
both_databases!(limits_change_what_a_bet_may_stake_at_once);

async fn limits_refuse_bad_input_naming_the_field(app: TestApp) {
    let admin = app.admin().await;
    let match_id = a_match(&app, &admin).await;
    let (bm, _, fancy) = desk_markets(&app, &admin, match_id).await;
    let limits = |body: Value| app.post("admin/market/limits", Some(&admin), body);

    let answer = limits(json!({ "market_id": bm, "min_stake": 0.5, "max_stake": 100 })).await;
    answer.expect(400);
    assert!(answer.field_error("min_stake").contains("at least 1.00"), "{}", answer.body);
    let answer = limits(json!({ "market_id": bm, "min_stake": 100, "max_stake": 99.99 })).await;
    answer.expect(400);
    assert!(answer.field_error("max_stake").contains("min_stake"), "{}", answer.body);
    let answer = limits(json!({ "market_id": bm, "min_stake": "ten", "max_stake": 100 })).await;
    answer.expect(400);
    assert!(!answer.field_error("min_stake").is_empty(), "{}", answer.body);
    let answer = limits(json!({ "market_id": bm, "min_stake": 1.001, "max_stake": 100 })).await;
    answer.expect(400);
    assert!(!answer.field_error("min_stake").is_empty(), "{}", answer.body);
    let answer = limits(json!({ "min_stake": 1, "max_stake": 100 })).await;
    answer.expect(400);
    assert!(!answer.field_error("market_id").is_empty(), "{}", answer.body);
    limits(json!({ "market_id": 987_654, "min_stake": 1, "max_stake": 100 })).await.expect(404);

    // Creation checks its limits the same way.
    let answer = app
        .post(
            "admin/market/create",
            Some(&admin),
            json!({ "match_id": match_id, "type": "fancy", "name": "Cheap", "min_stake": 0.5 }),
        )
        .await;
    answer.expect(400);
    assert!(answer.field_error("min_stake").contains("at least 1.00"), "{}", answer.body);

    // Nothing changed; a settled market's limits are closed.
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    let market = market_of(&desk, bm);
    assert_eq!((minor(&market["min_stake"]), minor(&market["max_stake"])), (1_00, 1000_00));
    app.post("admin/market/result", Some(&admin), json!({ "market_id": fancy, "result": 40 }))
        .await
        .expect(200);
    limits(json!({ "market_id": fancy, "min_stake": 1, "max_stake": 100 })).await.expect(409);
}
both_databases!(limits_refuse_bad_input_naming_the_field);

/// Balance of each token's user, in minor units.
async fn balances(app: &TestApp, tokens: &[&str]) -> Vec<i64> {
    let mut out = Vec::new();
    for token in tokens {
        out.push(app.balance_minor(token).await);
    }
    out
}

async fn house_minor(app: &TestApp) -> i64 {
    let store = app.store().await;
    store.system_balance(backlay_store::ledger::SystemAccount::House).await.unwrap()
}

async fn preview_shows_what_the_settlement_then_moves(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, fancy) = desk_markets(&app, &admin, match_id).await;
    // Fancy at line 50, both rates 100: demo YES 100, demo2 NO 200 and NO 40.
    bet(
        &app,
        &demo,
        json!({ "market_id": fancy, "side": "yes", "price": 100, "line": 50, "stake": 100 }),
    )
    .await
    .expect(200);
    bet(
        &app,
        &demo2,
        json!({ "market_id": fancy, "side": "no", "price": 100, "line": 50, "stake": 200 }),
    )
    .await
    .expect(200);
    bet(
        &app,
        &demo2,
        json!({ "market_id": fancy, "side": "no", "price": 100, "line": 50, "stake": 40 }),
    )
    .await
    .expect(200);
    let preview = |body: Value| app.post("admin/market/resultPreview", Some(&admin), body);

    // 52 runs: YES wins 100.00, the NOs lose 240.00, the house keeps 140.00.
    let answer = preview(json!({ "market_id": fancy, "result": 52 })).await;
    answer.expect(200);
    let figures = answer.data().clone();
    assert_eq!(figures["bets"], 3);
    assert_eq!(
        (figures["clients"].clone(), figures["winners"].clone(), figures["losers"].clone()),
        (json!(2), json!(1), json!(1))
    );
    assert_eq!(minor(&figures["clients_win"]), 100_00);
    assert_eq!(minor(&figures["clients_lose"]), 240_00);
    assert_eq!(minor(&figures["house_pnl"]), 140_00);
    assert_eq!(minor(&figures["commission"]), 0);
    // 49 runs: the NOs win 240.00, YES loses 100.00, the house pays 140.00; a void moves
    // nothing.
    let low = preview(json!({ "market_id": fancy, "result": "49" })).await;
    low.expect(200);
    assert_eq!(minor(&low.data()["clients_win"]), 240_00);
    assert_eq!(minor(&low.data()["clients_lose"]), 100_00);
    assert_eq!(minor(&low.data()["house_pnl"]), -140_00);
    let void = preview(json!({ "market_id": fancy, "void": 1 })).await;
    void.expect(200);
    assert_eq!(void.data()["bets"], 3);
    for field in ["clients_win", "clients_lose", "house_pnl", "commission"] {
        assert_eq!(minor(&void.data()[field]), 0, "{field}");
    }

    // Previewing settled nothing: the market still takes bets and nobody's balance moved.
    let before = balances(&app, &[&demo, &demo2]).await;
    let house_before = house_minor(&app).await;
    bet(
        &app,
        &demo,
        json!({ "market_id": fancy, "side": "yes", "price": 100, "line": 50, "stake": 1 }),
    )
    .await
    .expect(200);
    let figures = preview(json!({ "market_id": fancy, "result": 52 })).await.data().clone();
    assert_eq!(figures["bets"], 4);
    app.post("admin/market/result", Some(&admin), json!({ "market_id": fancy, "result": 52 }))
        .await
        .expect(200);
    let after = balances(&app, &[&demo, &demo2]).await;
    let moves: Vec<i64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    assert_eq!(moves.iter().filter(|m| **m > 0).sum::<i64>(), minor(&figures["clients_win"]));
    assert_eq!(-moves.iter().filter(|m| **m < 0).sum::<i64>(), minor(&figures["clients_lose"]));
    assert_eq!(house_minor(&app).await - house_before, minor(&figures["house_pnl"]));
    assert_eq!(moves, [101_00, -240_00]);

    // Bookmaker: demo backs Away 200 at 80, demo2 backs Home 100 at 45; Away wins.
    bet(&app, &demo, json!({ "market_id": bm, "selection_id": runners[1], "side": "back", "price": 80, "stake": 200 })).await.expect(200);
    bet(&app, &demo2, json!({ "market_id": bm, "selection_id": runners[0], "side": "back", "price": 45, "stake": 100 })).await.expect(200);
    let figures = preview(json!({ "market_id": bm, "winner_selection_id": runners[1] })).await;
    figures.expect(200);
    let figures = figures.data().clone();
    assert_eq!(minor(&figures["clients_win"]), 160_00);
    assert_eq!(minor(&figures["clients_lose"]), 100_00);
    assert_eq!(minor(&figures["house_pnl"]), -60_00);
    let (before, house_before) = (balances(&app, &[&demo, &demo2]).await, house_minor(&app).await);
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": bm, "winner_selection_id": runners[1] }),
    )
    .await
    .expect(200);
    let after = balances(&app, &[&demo, &demo2]).await;
    assert_eq!([after[0] - before[0], after[1] - before[1]], [160_00, -100_00]);
    assert_eq!(house_minor(&app).await - house_before, -60_00);

    // A settled market has nothing left to preview.
    preview(json!({ "market_id": bm, "winner_selection_id": runners[1] })).await.expect(409);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(preview_shows_what_the_settlement_then_moves);

async fn preview_refuses_bad_input_naming_the_field(app: TestApp) {
    let admin = app.admin().await;
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, fancy) = desk_markets(&app, &admin, match_id).await;
    let preview = |body: Value| app.post("admin/market/resultPreview", Some(&admin), body);

    let answer = preview(json!({ "market_id": fancy, "result": -1 })).await;
    answer.expect(400);
    assert!(!answer.field_error("result").is_empty(), "{}", answer.body);
    let answer = preview(json!({ "market_id": fancy, "result": 10, "void": 1 })).await;
    answer.expect(400);
    assert!(!answer.field_error("void").is_empty(), "{}", answer.body);
    let answer = preview(json!({ "market_id": fancy, "result": "many" })).await;
    answer.expect(400);
    assert!(!answer.field_error("result").is_empty(), "{}", answer.body);
    let answer = preview(json!({ "result": 10 })).await;
    answer.expect(400);
    assert!(!answer.field_error("market_id").is_empty(), "{}", answer.body);
    // Nothing named, or a result that does not fit the market.
    preview(json!({ "market_id": bm })).await.expect(400);
    preview(json!({ "market_id": bm, "result": 10 })).await.expect(400);
    preview(json!({ "market_id": bm, "winner_selection_id": 987_654 })).await.expect(400);
    preview(json!({ "market_id": 987_654, "void": 1 })).await.expect(404);
    // Still open and unsettled.
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    assert_eq!(market_of(&desk, bm)["status"], "open");
    preview(json!({ "market_id": bm, "winner_selection_id": runners[0] })).await.expect(200);
}
both_databases!(preview_refuses_bad_input_naming_the_field);

async fn the_preview_reads_its_result_as_the_result_does(app: TestApp) {
    let admin = app.admin().await;
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, _) = desk_markets(&app, &admin, match_id).await;
    // The same answer from both routes, naming the field.
    for (body, field, error) in [
        (
            json!({ "market_id": "abc", "winner_selection_id": "x" }),
            "market_id",
            "\"abc\" is not a whole number.",
        ),
        (
            json!({ "market_id": bm, "winner_selection_id": "x" }),
            "winner_selection_id",
            "\"x\" is not a whole number.",
        ),
        (
            json!({ "market_id": bm, "placed_selection_ids": [runners[0], "x"] }),
            "placed_selection_ids[1]",
            "\"x\" is not a whole number.",
        ),
        (json!({ "market_id": bm, "result": 1.5 }), "result", "Expected a whole number, not 1.5."),
        (json!({ "winner_selection_id": runners[0] }), "market_id", "market_id is required."),
    ] {
        let preview = app.post("admin/market/resultPreview", Some(&admin), body.clone()).await;
        let result = app.post("admin/market/result", Some(&admin), body.clone()).await;
        preview.expect(400);
        assert_eq!(preview.body, result.body, "{body}");
        assert_eq!(preview.field_error(field), error, "{body}: {}", preview.body);
    }
    // Ids as text or with a point, and void as 1, "1", true or 0, read through both parts.
    for body in [
        json!({ "market_id": bm.to_string(), "winner_selection_id": runners[0].to_string() }),
        json!({ "market_id": format!("{bm}.0"), "void": "1" }),
        json!({ "market_id": bm as f64, "void": true }),
        json!({ "market_id": bm, "void": 1 }),
        json!({ "market_id": bm, "void": 0, "winner_selection_id": runners[1] as f64 }),
    ] {
        let answer = app.post("admin/market/resultPreview", Some(&admin), body.clone()).await;
        answer.expect(200);
        assert_eq!(answer.data()["market_id"], bm, "{body}: {}", answer.body);
    }
    let answer = app
        .post("admin/market/resultPreview", Some(&admin), json!({ "market_id": bm, "void": "x" }))
        .await;
    answer.expect(400);
    assert_eq!(answer.field_error("void"), "Expected 1 or 0 (or true/false), not x.");
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    assert_eq!(market_of(&desk, bm)["status"], "open");
}
both_databases!(the_preview_reads_its_result_as_the_result_does);

async fn the_desk_reads_a_match_with_everything_it_runs(app: TestApp) {
    let admin = app.admin().await;
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, fancy) = desk_markets(&app, &admin, match_id).await;
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": fancy, "status": "ball_running" }),
    )
    .await
    .expect(200);

    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    desk.expect(200);
    assert_eq!(desk.data()["match"]["match_id"], match_id);
    assert_eq!(desk.data()["match"]["in_play"], true);
    let book = market_of(&desk, bm);
    assert_eq!(book["type"], "bookmaker");
    assert_eq!(book["status"], "open");
    assert_eq!(book["in_play"], true);
    assert_eq!(book["bet_delay_s"], 0);
    assert_eq!(book["commission_bp"], 0);
    assert_eq!(book["runners"][0]["selection_id"], runners[0]);
    assert_eq!(book["runners"][0]["back"][0]["price"], 45.0);
    assert_eq!(book["runners"][1]["lay"][0]["price"], 90.0);
    assert_eq!(book["result_selection_id"], Value::Null);
    assert_eq!(
        (book["winners"].clone(), book["result_selection_ids"].clone()),
        (json!(1), json!([]))
    );
    let line = market_of(&desk, fancy);
    assert_eq!(line["status"], "ball_running");
    assert_eq!((line["line_no"].clone(), line["line_yes"].clone()), (json!(50), json!(50)));

    // A resulted fancy stays on the desk (the client's page drops it) with its result.
    app.post("admin/market/result", Some(&admin), json!({ "market_id": fancy, "result": 61 }))
        .await
        .expect(200);
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    let line = market_of(&desk, fancy);
    assert_eq!(line["status"], "closed");
    assert_eq!(line["result_value"], 61);
    assert_eq!(line["result_selection_ids"], json!([]));

    let answer = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": "x" })).await;
    answer.expect(400);
    assert!(!answer.field_error("match_id").is_empty(), "{}", answer.body);
    app.post("admin/desk/markets", Some(&admin), json!({ "match_id": 987_654 })).await.expect(404);
}
both_databases!(the_desk_reads_a_match_with_everything_it_runs);

async fn a_place_market_is_previewed_and_resulted_with_every_placed_runner(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &admin).await;
    let (place, runners) = app.open_market(&admin, match_id, json!({ "type": "place", "name": "To be placed", "runners": ["Arrow", "Blaze", "Comet", "Dancer"], "winners": 2, "min_stake": 1, "bet_delay_s": 0 })).await;
    // demo backs Arrow to place: 100 at 3.0, matched by demo2's lay.
    bet(&app, &demo2, json!({ "market_id": place, "selection_id": runners[0], "side": "lay", "price": 3, "stake": 100 })).await.expect(200);
    let back = bet(&app, &demo, json!({ "market_id": place, "selection_id": runners[0], "side": "back", "price": 3, "stake": 100 })).await;
    back.expect(200);
    assert_eq!(back.data()["status"], "matched");
    let preview = |body: Value| app.post("admin/market/resultPreview", Some(&admin), body);

    // Arrow placed second: the backer wins 200.00 from the layer.
    let placed =
        preview(json!({ "market_id": place, "placed_selection_ids": [runners[2], runners[0]] }))
            .await;
    placed.expect(200);
    assert_eq!(minor(&placed.data()["clients_win"]), 200_00);
    assert_eq!(minor(&placed.data()["clients_lose"]), 200_00);
    // Arrow out of the places: the layer wins the stake.
    let unplaced =
        preview(json!({ "market_id": place, "placed_selection_ids": [runners[1], runners[2]] }))
            .await;
    unplaced.expect(200);
    assert_eq!(minor(&unplaced.data()["clients_win"]), 100_00);
    // More placed than the market pays, a runner twice, none, or one from elsewhere: refused
    // with what is wrong.
    let three = preview(
        json!({ "market_id": place, "placed_selection_ids": [runners[0], runners[1], runners[2]] }),
    )
    .await;
    three.expect(400);
    assert!(three.message().contains("at most 2"), "{}", three.body);
    let twice =
        preview(json!({ "market_id": place, "placed_selection_ids": [runners[0], runners[0]] }))
            .await;
    twice.expect(400);
    assert!(twice.message().contains("named twice"), "{}", twice.body);
    preview(json!({ "market_id": place, "placed_selection_ids": [] })).await.expect(400);
    preview(json!({ "market_id": place, "placed_selection_ids": [987_654] })).await.expect(400);
    preview(json!({ "market_id": place, "winner_selection_id": runners[0] })).await.expect(400);

    let before = balances(&app, &[&demo, &demo2]).await;
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": place, "placed_selection_ids": [runners[2], runners[0]] }),
    )
    .await
    .expect(200);
    let after = balances(&app, &[&demo, &demo2]).await;
    assert_eq!([after[0] - before[0], after[1] - before[1]], [200_00, -200_00]);
    // The desk shows how many places the market paid and every placed runner, first first.
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    let market = market_of(&desk, place);
    assert_eq!(market["status"], "closed");
    assert_eq!(market["winners"], 2);
    assert_eq!(market["result_selection_id"], runners[2]);
    assert_eq!(market["result_selection_ids"], json!([runners[2], runners[0]]));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_place_market_is_previewed_and_resulted_with_every_placed_runner);

async fn only_an_admin_runs_the_desk(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, fancy) = desk_markets(&app, &admin, match_id).await;
    let calls = [
        ("admin/desk/markets", json!({ "match_id": match_id })),
        ("admin/market/limits", json!({ "market_id": bm, "min_stake": 50, "max_stake": 60 })),
        (
            "admin/market/resultPreview",
            json!({ "market_id": bm, "winner_selection_id": runners[0] }),
        ),
        ("admin/market/status", json!({ "market_id": fancy, "status": "suspended" })),
        (
            "admin/market/rates",
            json!({ "market_id": fancy, "line_no": 70, "rate_no": 100, "line_yes": 70, "rate_yes": 100 }),
        ),
        ("admin/market/result", json!({ "market_id": fancy, "result": 10 })),
        ("admin/market/void", json!({ "market_id": bm })),
        ("admin/market/spread", json!({ "market_id": bm, "spread": 9 })),
    ];
    let total = audit_total(&app, &admin).await;
    for (path, body) in &calls {
        for (who, token, status) in
            [("agent", Some(&agent), 403), ("client", Some(&demo), 403), ("stranger", None, 401)]
        {
            let answer = app.post(path, token.map(String::as_str), body.clone()).await;
            assert_eq!(answer.status.as_u16(), status, "{path} as {who}: {}", answer.body);
            assert!(
                answer.data().get("markets").is_none(),
                "{path} as {who} leaked: {}",
                answer.body
            );
        }
    }
    // Nothing changed and nothing was recorded.
    assert_eq!(audit_total(&app, &admin).await, total);
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    let book = market_of(&desk, bm);
    assert_eq!(
        (book["status"].clone(), minor(&book["min_stake"]), minor(&book["max_stake"])),
        (json!("open"), 1_00, 1000_00)
    );
    assert_eq!(book["spread"], 5, "the bookmaker's spread is still the default");
    let line = market_of(&desk, fancy);
    assert_eq!((line["status"].clone(), line["line_no"].clone()), (json!("open"), json!(50)));
}
both_databases!(only_an_admin_runs_the_desk);

/// Each market keeps its own spread: the type's default (bookmaker 5 rate points, fancy 0 runs)
/// until the desk sets one, audited with before and after; bad values, exchange markets and
/// settled markets are refused naming why, and change nothing.
async fn the_desk_sets_a_spread_per_market(app: TestApp) {
    let admin = app.admin().await;
    let match_id = a_match(&app, &admin).await;
    let (bm, runners, fancy) = desk_markets(&app, &admin, match_id).await;
    let spreads = |desk: &Answer| {
        (market_of(desk, bm)["spread"].clone(), market_of(desk, fancy)["spread"].clone())
    };
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    assert_eq!(spreads(&desk), (json!(5), json!(0)), "the defaults: {}", desk.body);

    let set = app
        .post("admin/market/spread", Some(&admin), json!({ "market_id": bm, "spread": 3 }))
        .await;
    set.expect(200);
    assert_eq!(set.data()["spread"], 3);
    app.post("admin/market/spread", Some(&admin), json!({ "market_id": fancy, "spread": 2 }))
        .await
        .expect(200);
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    assert_eq!(spreads(&desk), (json!(3), json!(2)), "each market its own: {}", desk.body);
    let audited = audit_rows(&app, &admin, 2).await;
    assert_eq!(audited[1]["action"], "market.spread", "{audited:?}");
    assert_eq!(audited[1]["target"], format!("market:{bm}"));
    assert_eq!(
        (audited[1]["detail"]["before"].clone(), audited[1]["detail"]["after"].clone()),
        (json!(5), json!(3))
    );

    let (odds, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "match_odds", "name": "Odds", "runners": ["A", "B"] }),
        )
        .await;
    let total = audit_total(&app, &admin).await;
    for (body, status, field) in [
        (json!({ "market_id": bm, "spread": -1 }), 400, Some("spread")),
        (json!({ "market_id": bm, "spread": 1001 }), 400, Some("spread")),
        (json!({ "market_id": 987_654, "spread": 2 }), 404, None),
    ] {
        let answer = app.post("admin/market/spread", Some(&admin), body.clone()).await;
        assert_eq!(answer.status.as_u16(), status, "{body}: {}", answer.body);
        if let Some(field) = field {
            assert!(!answer.field_error(field).is_empty(), "{body}: {}", answer.body);
        }
    }
    let answer = app
        .post("admin/market/spread", Some(&admin), json!({ "market_id": odds, "spread": 2 }))
        .await;
    assert_eq!(answer.status.as_u16(), 400, "{}", answer.body);
    assert!(answer.field_error("market_id").contains("exchange market"), "{}", answer.body);
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": bm, "winner_selection_id": runners[0] }),
    )
    .await
    .expect(200);
    let answer = app
        .post("admin/market/spread", Some(&admin), json!({ "market_id": bm, "spread": 2 }))
        .await;
    assert_eq!(answer.status.as_u16(), 409, "{}", answer.body);
    assert!(answer.message().contains("settled"), "{}", answer.body);
    // The settlement was audited; the refusals were not.
    assert_eq!(audit_total(&app, &admin).await, total + 1);
    let desk = app.post("admin/desk/markets", Some(&admin), json!({ "match_id": match_id })).await;
    assert_eq!(spreads(&desk), (json!(3), json!(2)));
}
both_databases!(the_desk_sets_a_spread_per_market);
