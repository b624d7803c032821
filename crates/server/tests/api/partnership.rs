//! The agent tree: partnerships fixed at creation within the parent's, the depth the operator
//! allows, the house's result split up the tree at settlement through the ledger, and the terms
//! a parent keeps on an account (bet-lock, stake cap, credit reference, password reset).

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};

/// Creates a user as `operator` with extra fields; returns the answer.
async fn create(
    app: &TestApp,
    operator: &str,
    name: &str,
    role: &str,
    extra: Value,
) -> crate::common::Answer {
    let mut body = json!({ "user_name": name, "password": "First@123", "role": role });
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    app.post("admin/user/create", Some(operator), body).await
}

/// Logs a freshly created user in and sets their own password; returns the token.
async fn first_login(app: &TestApp, name: &str) -> String {
    let token = app.login(name, "First@123").await;
    app.post("user/changePassword", Some(&token), json!({ "master_password": "First@123", "new_password": "Second@123", "confirm_password": "Second@123" }))
        .await
        .expect(200);
    token
}

pub(crate) async fn deposit(app: &TestApp, operator: &str, user_id: i64, amount: i64) {
    app.post(
        "admin/user/transfer",
        Some(operator),
        json!({ "user_id": user_id, "amount": amount, "direction": "deposit" }),
    )
    .await
    .expect(200);
}

/// admin → master (70%) → agent (40%) → client, with chips down the tree. Returns
/// (master id, agent id, client id, master token, agent token, client token).
pub(crate) async fn tree(app: &TestApp, admin: &str) -> (i64, i64, i64, String, String, String) {
    let master = create(app, admin, "master1", "agent", json!({ "partnership": 70 })).await;
    master.expect(200);
    assert_eq!(master.data()["partnership"], 70.0);
    let master_id = master.data()["user_id"].as_i64().unwrap();
    let master_token = first_login(app, "master1").await;
    let agent = create(app, &master_token, "agent1", "agent", json!({ "partnership": "40" })).await;
    agent.expect(200);
    let agent_id = agent.data()["user_id"].as_i64().unwrap();
    assert_eq!(agent.data()["parent_id"], master_id);
    let agent_token = first_login(app, "agent1").await;
    let client = create(
        app,
        &agent_token,
        "punter1",
        "client",
        json!({ "terms": { "credit_reference": 2000 } }),
    )
    .await;
    client.expect(200);
    assert_eq!(minor(&client.data()["credit_reference"]), 2000_00);
    let client_id = client.data()["user_id"].as_i64().unwrap();
    let client_token = first_login(app, "punter1").await;
    deposit(app, admin, master_id, 10_000).await;
    deposit(app, &master_token, agent_id, 5_000).await;
    deposit(app, &agent_token, client_id, 2_000).await;
    (master_id, agent_id, client_id, master_token, agent_token, client_token)
}

/// A fancy market on the demo match, open at 56/57 even money, without a bet delay.
pub(crate) async fn fancy(app: &TestApp, admin: &str, client: &str, name: &str) -> i64 {
    let matches = app.post("match/getMatches", Some(client), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, _) = app
        .open_market(
            admin,
            match_id,
            json!({ "type": "fancy", "name": name, "min_stake": 1, "bet_delay_s": 0 }),
        )
        .await;
    app.post("admin/market/rates", Some(admin), json!({ "market_id": market, "line_no": 56, "rate_no": 100, "line_yes": 57, "rate_yes": 100 }))
        .await
        .expect(200);
    market
}

/// The partnership report as `token` reads it.
pub(crate) async fn report(app: &TestApp, token: &str, body: Value) -> Value {
    let answer = app.post("console/report/partnership", Some(token), body).await;
    answer.expect(200);
    answer.data().clone()
}

async fn house_result_is_split_up_the_tree_by_partnership(app: TestApp) {
    let admin = app.admin().await;
    let (master_id, agent_id, client_id, master, agent, client) = tree(&app, &admin).await;
    let store = app.store().await;
    let house_before =
        store.system_balance(backlay_store::ledger::SystemAccount::House).await.unwrap();

    // The worked example: the client loses 1,000 on a fancy → agent +400, master +300,
    // operator +300.
    let lost = fancy(&app, &admin, &client, "6 over runs").await;
    app.post(
        "bet/placeBet",
        Some(&client),
        json!({ "market_id": lost, "side": "yes", "price": 100, "line": 57, "stake": 1000 }),
    )
    .await
    .expect(200);
    app.post("admin/market/result", Some(&admin), json!({ "market_id": lost, "result": 50 }))
        .await
        .expect(200);
    assert_eq!(app.balance_minor(&client).await, 1_000_00);
    assert_eq!(store.share_balance(agent_id).await.unwrap(), 400_00);
    assert_eq!(store.share_balance(master_id).await.unwrap(), 300_00);
    let house = store.system_balance(backlay_store::ledger::SystemAccount::House).await.unwrap();
    assert_eq!(house - house_before, 300_00);

    // The client wins 333.33 back: the shares go the other way, rounded to the paisa and
    // adding up exactly (agent 40% = 133.33, master 70% − 40% = 233.33 − 133.33 = 100.00).
    let won = fancy(&app, &admin, &client, "10 over runs").await;
    app.post(
        "bet/placeBet",
        Some(&client),
        json!({ "market_id": won, "side": "yes", "price": 100, "line": 57, "stake": 333.33 }),
    )
    .await
    .expect(200);
    app.post("admin/market/result", Some(&admin), json!({ "market_id": won, "result": 80 }))
        .await
        .expect(200);
    assert_eq!(app.balance_minor(&client).await, 1_333_33);
    assert_eq!(store.share_balance(agent_id).await.unwrap(), 400_00 - 133_33);
    assert_eq!(store.share_balance(master_id).await.unwrap(), 300_00 - 100_00);
    let house = store.system_balance(backlay_store::ledger::SystemAccount::House).await.unwrap();
    assert_eq!(house - house_before, 300_00 - 100_00);
    // Every share account equals the sum of its recorded splits, every transaction sums to 0.
    app.assert_ledger_sound(&admin).await;

    // The reports, from each level: the client is down 666.67 to the house in all.
    let agent_view = report(&app, &agent, json!({})).await;
    assert_eq!(agent_view["rows"][0]["user_id"], client_id);
    assert_eq!(minor(&agent_view["rows"][0]["house_result"]), 666_67);
    assert_eq!(minor(&agent_view["rows"][0]["collect"]), 666_67, "the agent collects it all");
    assert_eq!(minor(&agent_view["own_share"]), 266_67);
    assert_eq!(minor(&agent_view["pay_upline"]), 400_00);
    let master_view = report(&app, &master, json!({})).await;
    assert_eq!(master_view["rows"][0]["user_id"], agent_id);
    assert_eq!(minor(&master_view["rows"][0]["collect"]), 400_00, "what the agent pays up");
    assert_eq!(minor(&master_view["own_share"]), 200_00);
    assert_eq!(minor(&master_view["pay_upline"]), 200_00);
    let operator_view = report(&app, &admin, json!({})).await;
    let master_row = operator_view["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["user_id"] == master_id)
        .unwrap();
    assert_eq!(minor(&master_row["collect"]), 200_00);
    for view in [&agent_view, &master_view, &operator_view] {
        assert_eq!(minor(&view["balance"]), 0, "{view}");
    }
    // By market: the first fancy alone, and the master's view of its agent's report.
    let one = report(&app, &agent, json!({ "market_id": lost })).await;
    assert_eq!(minor(&one["own_share"]), 400_00);
    assert!(one["markets"][0]["name"].as_str().unwrap().ends_with("6 over runs"), "{one}");
    // By match: the markets of the first fancy's match, and nothing of any other match.
    let match_id = one["markets"][0]["match_id"].as_i64().expect("a market's match");
    let of_match: Vec<&Value> = agent_view["markets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["match_id"] == match_id)
        .collect();
    let by_match = report(&app, &agent, json!({ "match_id": match_id })).await;
    assert_eq!(by_match["markets"], json!(of_match));
    let own: i64 = of_match.iter().map(|m| minor(&m["own_share"])).sum();
    assert_eq!(minor(&by_match["own_share"]), own);
    let nowhere = report(&app, &agent, json!({ "match_id": 987_654 })).await;
    assert_eq!((nowhere["rows"].clone(), nowhere["markets"].clone()), (json!([]), json!([])));
    let drilled = report(&app, &master, json!({ "user_id": agent_id })).await;
    assert_eq!(drilled, agent_view);
    // Nobody reads a report outside their downline.
    let (_, other) = app.new_user(&admin, "other_agent", "agent").await;
    app.post("console/report/partnership", Some(&other), json!({ "user_id": master_id }))
        .await
        .expect(404);
    app.post("console/report/partnership", Some(&agent), json!({ "user_id": master_id }))
        .await
        .expect(404);
    app.post("console/report/partnership", Some(&client), json!({})).await.expect(403);
    app.post("console/report/partnership", None, json!({})).await.expect(401);
    app.post("console/report/partnership", Some(&agent), json!({ "to_date": "yesterday" }))
        .await
        .expect(400);
}
both_databases!(house_result_is_split_up_the_tree_by_partnership);

async fn partnership_and_depth_are_kept_within_the_parents(app: TestApp) {
    let admin = app.admin().await;
    let (_, _, _, master, agent, _) = tree(&app, &admin).await;
    // More than the parent's own 40%.
    let above = create(&app, &agent, "greedy", "agent", json!({ "partnership": 45 })).await;
    above.expect(400);
    assert!(above.field_error("partnership").contains("40%"), "{}", above.body);
    // A client carries no partnership; a partnership is 0–100 with 2 decimals.
    create(&app, &agent, "punter2", "client", json!({ "partnership": 10 })).await.expect(400);
    create(&app, &admin, "toomuch", "agent", json!({ "partnership": 100.5 })).await.expect(400);
    create(&app, &admin, "toofine", "agent", json!({ "partnership": 12.345 })).await.expect(400);
    // Three agent levels by default: the agent (level 2) may make one more, not two.
    create(&app, &agent, "sub1", "agent", json!({ "partnership": 40 })).await.expect(200);
    let sub = first_login(&app, "sub1").await;
    let deep = create(&app, &sub, "sub2", "agent", json!({})).await;
    deep.expect(400);
    assert!(deep.field_error("role").contains("clients only"), "{}", deep.body);
    create(&app, &sub, "punter3", "client", json!({})).await.expect(200);
    // The operator allows two levels: the master's new agents are now the deepest.
    app.post("admin/settings", Some(&admin), json!({ "agent_levels": 2 })).await.expect(200);
    create(&app, &master, "agent2", "agent", json!({ "partnership": 10 })).await.expect(200);
    create(&app, &agent, "sub3", "agent", json!({})).await.expect(400);
    app.post("admin/settings", Some(&admin), json!({ "agent_levels": 0 })).await.expect(400);
    // Nothing half-made: no refused account exists.
    let users = app.post("admin/user/list", Some(&admin), json!({ "limit": 100 })).await;
    let names: Vec<&str> = users.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["user_name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"sub1") && names.contains(&"punter3"), "{names:?}");
    for name in ["greedy", "punter2", "toomuch", "toofine", "sub2", "sub3"] {
        assert!(!names.contains(&name), "{name} in {names:?}");
    }
}
both_databases!(partnership_and_depth_are_kept_within_the_parents);

async fn a_parent_keeps_terms_on_its_accounts(app: TestApp) {
    let admin = app.admin().await;
    let (_, _, client_id, master, agent, client) = tree(&app, &admin).await;
    let market = fancy(&app, &admin, &client, "15 over runs").await;
    let bet = |stake: f64| {
        app.post(
            "bet/placeBet",
            Some(&client),
            json!({ "market_id": market, "side": "yes", "price": 100, "line": 57, "stake": stake }),
        )
    };
    // A stake cap: a larger stake is refused, a smaller one taken.
    let capped = app
        .post(
            "admin/user/terms",
            Some(&agent),
            json!({ "user_id": client_id, "terms": { "max_stake": 500, "credit_reference": 2500 } }),
        )
        .await;
    capped.expect(200);
    assert_eq!(minor(&capped.data()["max_stake"]), 500_00);
    assert_eq!(minor(&capped.data()["credit_reference"]), 2500_00);
    let over = bet(500.01).await;
    over.expect(422);
    assert!(over.message().contains("stake limit is ₹500"), "{}", over.body);
    bet(500.0).await.expect(200);
    // Bet-locked: can log in and read, cannot bet.
    app.post(
        "admin/user/terms",
        Some(&agent),
        json!({ "user_id": client_id, "terms": { "bet_locked": 1 } }),
    )
    .await
    .expect(200);
    let locked = bet(10.0).await;
    locked.expect(422);
    assert!(locked.message().contains("Betting is locked"), "{}", locked.body);
    app.get("user/getUserBalance", Some(&client)).await.expect(200);
    // null removes the cap; leaving a field out keeps it.
    let cleared = app
        .post(
            "admin/user/terms",
            Some(&agent),
            json!({ "user_id": client_id, "terms": { "bet_locked": 0, "max_stake": null } }),
        )
        .await;
    cleared.expect(200);
    assert_eq!(cleared.data()["max_stake"], Value::Null);
    assert_eq!(minor(&cleared.data()["credit_reference"]), 2500_00);
    bet(600.0).await.expect(200);
    // Bad terms are named and nothing is written.
    let bad = app
        .post(
            "admin/user/terms",
            Some(&agent),
            json!({ "user_id": client_id, "terms": { "max_stake": 0, "credit_reference": -1 } }),
        )
        .await;
    bad.expect(400);
    assert!(
        !bad.field_error("max_stake").is_empty() && !bad.field_error("credit_reference").is_empty(),
        "{}",
        bad.body
    );
    // Another agent's account is out of reach.
    let (_, other) = app.new_user(&admin, "stranger_agent", "agent").await;
    app.post(
        "admin/user/terms",
        Some(&other),
        json!({ "user_id": client_id, "terms": { "bet_locked": 1 } }),
    )
    .await
    .expect(404);
    app.post(
        "admin/user/resetPassword",
        Some(&other),
        json!({ "user_id": client_id, "password": "Third@123" }),
    )
    .await
    .expect(404);
    let _ = master;
    // A password reset ends the client's sessions and makes it choose a new one.
    app.post(
        "admin/user/resetPassword",
        Some(&agent),
        json!({ "user_id": client_id, "password": "weak" }),
    )
    .await
    .expect(400);
    app.post(
        "admin/user/resetPassword",
        Some(&agent),
        json!({ "user_id": client_id, "password": "Third@123" }),
    )
    .await
    .expect(200);
    assert_eq!(app.get("user/getUserBalance", Some(&client)).await.status.as_u16(), 401);
    let again = app.login_answer("punter1", "Third@123").await;
    again.expect(200);
    assert_eq!(again.data()["is_change_password"], 1, "{}", again.body);
    // The audit log has each change with before and after.
    let audit = app.post("admin/audit", Some(&admin), json!({ "limit": 50 })).await;
    let rows = audit.data()["rows"].as_array().unwrap();
    let terms = rows.iter().find(|r| r["action"] == "user.terms").expect("a terms row");
    assert!(
        terms["detail"]["before"].is_object() && terms["detail"]["after"].is_object(),
        "{terms}"
    );
    assert!(rows.iter().any(|r| r["action"] == "user.password_reset"));
}
both_databases!(a_parent_keeps_terms_on_its_accounts);
