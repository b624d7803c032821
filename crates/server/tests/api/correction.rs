//! Correcting a result (`admin/market/unsettle`): a wrong result taken back by new, opposite
//! ledger entries, and the right one declared, leaving every account, share and report where
//! the right result alone would have.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, read_until, TestApp};

async fn create(app: &TestApp, operator: &str, name: &str, role: &str, extra: Value) -> i64 {
    let mut body = json!({ "user_name": name, "password": "First@123", "role": role });
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    let answer = app.post("admin/user/create", Some(operator), body).await;
    answer.expect(200);
    answer.data()["user_id"].as_i64().unwrap()
}

async fn first_login(app: &TestApp, name: &str) -> String {
    let token = app.login(name, "First@123").await;
    app.post("user/changePassword", Some(&token), json!({ "master_password": "First@123", "new_password": "Second@123", "confirm_password": "Second@123" }))
        .await
        .expect(200);
    token
}

async fn transfer(app: &TestApp, operator: &str, user_id: i64, amount: i64, direction: &str) {
    app.post(
        "admin/user/transfer",
        Some(operator),
        json!({ "user_id": user_id, "amount": amount, "direction": direction }),
    )
    .await
    .expect(200);
}

/// admin → master (70%) → agent (40%) → two clients with 2,000 each.
struct Tree {
    admin: String,
    master_id: i64,
    agent_id: i64,
    agent: String,
    winner_id: i64,
    winner: String,
    loser_id: i64,
    loser: String,
}

async fn tree(app: &TestApp) -> Tree {
    let admin = app.admin().await;
    let master_id = create(app, &admin, "cmaster", "agent", json!({ "partnership": 70 })).await;
    let master = first_login(app, "cmaster").await;
    let agent_id = create(app, &master, "cagent", "agent", json!({ "partnership": 40 })).await;
    let agent = first_login(app, "cagent").await;
    let winner_id = create(app, &agent, "cwinner", "client", json!({})).await;
    let winner = first_login(app, "cwinner").await;
    let loser_id = create(app, &agent, "closer", "client", json!({})).await;
    let loser = first_login(app, "closer").await;
    transfer(app, &admin, master_id, 10_000, "deposit").await;
    transfer(app, &master, agent_id, 5_000, "deposit").await;
    transfer(app, &agent, winner_id, 2_000, "deposit").await;
    transfer(app, &agent, loser_id, 2_000, "deposit").await;
    Tree { admin, master_id, agent_id, agent, winner_id, winner, loser_id, loser }
}

/// An open fancy at 56/57 even money on the demo cricket match.
async fn fancy(app: &TestApp, admin: &str, client: &str, name: &str) -> i64 {
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

async fn bet(app: &TestApp, client: &str, market: i64, side: &str, line: i64, stake: i64) {
    app.post(
        "bet/placeBet",
        Some(client),
        json!({ "market_id": market, "side": side, "price": 100, "line": line, "stake": stake }),
    )
    .await
    .expect(200);
}

fn line_of<'a>(answer: &'a Value, account: &str, user_id: Option<i64>) -> &'a Value {
    answer["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["account"] == account && l["user_id"] == json!(user_id))
        .unwrap_or_else(|| panic!("no {account} line for {user_id:?} in {answer}"))
}

async fn exposure_minor(app: &TestApp, token: &str) -> i64 {
    let answer = app.get("user/getUserBalance", Some(token)).await;
    answer.expect(200);
    -minor(&answer.data()["liability"])
}

async fn a_wrong_result_is_corrected_and_the_right_one_declared(app: TestApp) {
    let t = tree(&app).await;
    let store = app.store().await;
    let house = || async {
        store.system_balance(backlay_store::ledger::SystemAccount::House).await.unwrap()
    };
    let house_before = house().await;
    let market = fancy(&app, &t.admin, &t.winner, "12 over runs").await;
    // YES 57 for 1,000 and NO 56 for 500, against the house.
    bet(&app, &t.winner, market, "yes", 57, 1000).await;
    bet(&app, &t.loser, market, "no", 56, 500).await;

    // Nothing to correct before a result; no such market.
    let early = app
        .post(
            "admin/market/unsettle",
            Some(&t.admin),
            json!({ "market_id": market, "reason": "x" }),
        )
        .await;
    early.expect(409);
    assert!(early.message().contains("no result to correct"), "{}", early.body);
    app.post("admin/market/unsettlePreview", Some(&t.admin), json!({ "market_id": 987_654 }))
        .await
        .expect(404);

    // The wrong result: 80 runs. YES wins 1,000, NO loses 500.
    app.post("admin/market/result", Some(&t.admin), json!({ "market_id": market, "result": 80 }))
        .await
        .expect(200);
    assert_eq!(app.balance_minor(&t.winner).await, 3_000_00);
    assert_eq!(app.balance_minor(&t.loser).await, 1_500_00);
    // The winner's agent takes 2,900 of it back before anyone notices.
    transfer(&app, &t.agent, t.winner_id, 2_900, "withdraw").await;
    assert_eq!(app.balance_minor(&t.winner).await, 100_00);

    // The preview: what moves per client and per share, writing nothing.
    let entries_before =
        app.get("admin/ledger/check", Some(&t.admin)).await.data()["entries"].clone();
    let preview = app
        .post("admin/market/unsettlePreview", Some(&t.admin), json!({ "market_id": market }))
        .await;
    preview.expect(200);
    let p = preview.data();
    assert_eq!((p["applied"].clone(), p["was"].clone()), (json!(false), json!("closed")), "{p}");
    let winner = line_of(p, "client", Some(t.winner_id));
    assert_eq!(minor(&winner["amount"]), -1_000_00);
    assert_eq!(minor(&winner["balance_before"]), 100_00);
    assert_eq!(minor(&winner["balance_after"]), -900_00);
    assert_eq!(minor(&winner["exposure"]), 1_000_00);
    assert_eq!(minor(&winner["available_after"]), -1_900_00);
    let loser = line_of(p, "client", Some(t.loser_id));
    assert_eq!((minor(&loser["amount"]), minor(&loser["exposure"])), (500_00, 500_00));
    // The house lost 500 net: the agent's 40% and the master's 70% − 40% come back.
    assert_eq!(minor(&line_of(p, "share", Some(t.agent_id))["amount"]), 200_00);
    assert_eq!(minor(&line_of(p, "share", Some(t.master_id))["amount"]), 150_00);
    assert_eq!(minor(&line_of(p, "house", None)["amount"]), 150_00);
    assert_eq!(p["clients_negative"], 1);
    assert_eq!(
        app.get("admin/ledger/check", Some(&t.admin)).await.data()["entries"],
        entries_before,
        "a preview writes nothing"
    );
    assert_eq!(app.balance_minor(&t.winner).await, 100_00);

    // A reason is required; an agent may not correct results.
    let no_reason = app
        .post(
            "admin/market/unsettle",
            Some(&t.admin),
            json!({ "market_id": market, "reason": "  " }),
        )
        .await;
    no_reason.expect(400);
    assert!(!no_reason.field_error("reason").is_empty(), "{}", no_reason.body);
    app.post(
        "admin/market/unsettle",
        Some(&t.agent),
        json!({ "market_id": market, "reason": "x" }),
    )
    .await
    .expect(403);

    let corrected = app
        .post(
            "admin/market/unsettle",
            Some(&t.admin),
            json!({ "market_id": market, "reason": "Scorer's error: 48 runs, not 80" }),
        )
        .await;
    corrected.expect(200);
    assert_eq!(corrected.data()["applied"], true);
    assert_eq!(corrected.data()["lines"], p["lines"], "the preview said what moved");
    // The winner owes it now (collection is for that); the exposure is reserved again.
    assert_eq!(app.balance_minor(&t.winner).await, -900_00);
    assert_eq!(exposure_minor(&app, &t.winner).await, 1_000_00);
    assert_eq!(app.balance_minor(&t.loser).await, 2_000_00);
    assert_eq!(exposure_minor(&app, &t.loser).await, 500_00);
    assert_eq!(store.share_balance(t.agent_id).await.unwrap(), 0);
    assert_eq!(store.share_balance(t.master_id).await.unwrap(), 0);
    assert_eq!(house().await, house_before);
    // Every account still equals its entries, every share its splits, every exposure the bets.
    app.assert_ledger_sound(&t.admin).await;
    // The console shows the negative balance.
    let downline =
        app.post("console/downline/list", Some(&t.agent), json!({ "search": "cwinner" })).await;
    downline.expect(200);
    assert_eq!(minor(&downline.data()["rows"][0]["balance"]), -900_00, "{}", downline.body);
    // The statement says what happened, line by line.
    let statement = app.post("report/accountStatement", Some(&t.winner), json!({})).await;
    statement.expect(200);
    let first = &statement.data()["rows"][0];
    assert_eq!(first["kind"], "result_corrected", "{first}");
    assert!(
        first["description"].as_str().unwrap().starts_with("Result corrected: ")
            && first["description"].as_str().unwrap().ends_with("12 over runs: won"),
        "{first}"
    );
    assert_eq!(minor(&first["debit"]), 1_000_00);
    assert_eq!(first["market_id"], market);
    let sports =
        app.post("report/accountStatement", Some(&t.loser), json!({ "type": "sports" })).await;
    assert_eq!(sports.data()["rows"][0]["kind"], "result_corrected");
    // The bets are live again.
    let current = app.post("report/currentBets", Some(&t.winner), json!({})).await;
    assert_eq!(current.data()["total"], 1, "{}", current.body);
    // Audited with the reason.
    let audit =
        app.post("admin/audit", Some(&t.admin), json!({ "action": "market.unsettle" })).await;
    audit.expect(200);
    let entry = &audit.data()["rows"][0];
    assert_eq!(entry["detail"]["reason"], "Scorer's error: 48 runs, not 80", "{entry}");
    assert_eq!(entry["target"], format!("market:{market}"));

    // Twice is refused: the market has no result any more.
    let again = app
        .post(
            "admin/market/unsettle",
            Some(&t.admin),
            json!({ "market_id": market, "reason": "again" }),
        )
        .await;
    again.expect(409);
    assert!(again.message().contains("no result to correct"), "{}", again.body);

    // The market is live (suspended): no bets until reopened; the right result is declared.
    app.post("admin/market/result", Some(&t.admin), json!({ "market_id": market, "result": 48 }))
        .await
        .expect(200);
    // As if 48 had been declared alone: the YES bet lost 1,000, the NO bet won 500.
    assert_eq!(app.balance_minor(&t.winner).await, 2_000_00 - 1_000_00 - 2_900_00);
    assert_eq!(app.balance_minor(&t.loser).await, 2_500_00);
    assert_eq!(exposure_minor(&app, &t.winner).await, 0);
    // The house won 500 net: agent 200, master 150, operator 150.
    assert_eq!(store.share_balance(t.agent_id).await.unwrap(), 200_00);
    assert_eq!(store.share_balance(t.master_id).await.unwrap(), 150_00);
    assert_eq!(house().await - house_before, 150_00);
    app.assert_ledger_sound(&t.admin).await;
    let report = app
        .post("console/report/partnership", Some(&t.agent), json!({ "market_id": market }))
        .await;
    report.expect(200);
    assert_eq!(minor(&report.data()["own_share"]), 200_00, "{}", report.body);
    assert_eq!(minor(&report.data()["pay_upline"]), 300_00, "{}", report.body);
    // And it can be corrected again (the second result, once).
    app.post(
        "admin/market/unsettle",
        Some(&t.admin),
        json!({ "market_id": market, "reason": "second look" }),
    )
    .await
    .expect(200);
    assert_eq!(app.balance_minor(&t.winner).await, -900_00);
    assert_eq!(store.share_balance(t.agent_id).await.unwrap(), 0);
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(a_wrong_result_is_corrected_and_the_right_one_declared);

async fn a_void_is_corrected_and_the_market_reopens_for_bets(app: TestApp) {
    let t = tree(&app).await;
    // The match the fancy goes on (the first listed; once its markets are settled it may not be).
    let match_id =
        app.post("match/getMatches", Some(&t.loser), json!({ "sport_id": 4 })).await.data()[0]
            ["match_id"]
            .as_i64()
            .unwrap();
    let market = fancy(&app, &t.admin, &t.winner, "15 over runs").await;
    bet(&app, &t.loser, market, "yes", 57, 300).await;
    app.post("admin/market/void", Some(&t.admin), json!({ "market_id": market })).await.expect(200);
    assert_eq!(exposure_minor(&app, &t.loser).await, 0);
    // The bettor's live stream, open on the match.
    let ticket = app.post("stream/ticket", Some(&t.loser), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut stream = app
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    let mut buffer = String::new();
    read_until(&mut stream, &mut buffer, |event, _| event == "snapshot").await;
    let corrected = app
        .post(
            "admin/market/unsettle",
            Some(&t.admin),
            json!({ "market_id": market, "reason": "voided by mistake" }),
        )
        .await;
    corrected.expect(200);
    assert_eq!(corrected.data()["was"], "void");
    // A void moved no money: nothing is posted, the exposure comes back.
    let line = line_of(corrected.data(), "client", Some(t.loser_id));
    assert_eq!(line["user_name"], "closer");
    assert_eq!((minor(&line["amount"]), minor(&line["balance_after"])), (0, 2_000_00));
    assert_eq!(minor(&line["available_after"]), 1_700_00);
    assert_eq!(corrected.data()["clients_negative"], 0);
    // The stream tells the bettor the market is live again, and to fetch its own figures.
    read_until(&mut stream, &mut buffer, |event, value| {
        event == "market" && value["market_id"] == market && value["status"] == "suspended"
    })
    .await;
    read_until(&mut stream, &mut buffer, |event, value| {
        event == "mine" && value["market_id"] == market
    })
    .await;
    assert_eq!(exposure_minor(&app, &t.loser).await, 300_00);
    assert_eq!(app.balance_minor(&t.loser).await, 2_000_00);
    app.assert_ledger_sound(&t.admin).await;
    // Its task runs again: it opens and takes bets.
    app.post(
        "admin/market/status",
        Some(&t.admin),
        json!({ "market_id": market, "status": "open" }),
    )
    .await
    .expect(200);
    bet(&app, &t.winner, market, "no", 56, 200).await;
    app.post("admin/market/result", Some(&t.admin), json!({ "market_id": market, "result": 60 }))
        .await
        .expect(200);
    assert_eq!(app.balance_minor(&t.loser).await, 2_300_00);
    assert_eq!(app.balance_minor(&t.winner).await, 1_800_00);
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(a_void_is_corrected_and_the_market_reopens_for_bets);

async fn a_settlement_older_than_its_market_link_is_not_guessed_at(app: TestApp) {
    let t = tree(&app).await;
    let market = fancy(&app, &t.admin, &t.winner, "18 over runs").await;
    bet(&app, &t.winner, market, "yes", 57, 100).await;
    app.post("admin/market/result", Some(&t.admin), json!({ "market_id": market, "result": 70 }))
        .await
        .expect(200);
    // As a version before migration 0009 stored it: the market named only in the remark.
    let store = app.store().await;
    sqlx::query("UPDATE ledger_transactions SET market_id = NULL WHERE market_id = $1")
        .bind(market)
        .execute(store.pool())
        .await
        .unwrap();
    let refused = app
        .post(
            "admin/market/unsettle",
            Some(&t.admin),
            json!({ "market_id": market, "reason": "old" }),
        )
        .await;
    refused.expect(409);
    assert!(refused.message().contains("before settlements were linked"), "{}", refused.body);
    // Nothing of it happened: still settled, the winnings where they were.
    assert_eq!(app.balance_minor(&t.winner).await, 2_100_00);
    let again = app
        .post("admin/market/result", Some(&t.admin), json!({ "market_id": market, "result": 10 }))
        .await;
    again.expect(409);
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(a_settlement_older_than_its_market_link_is_not_guessed_at);
