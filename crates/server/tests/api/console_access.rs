//! Every operator route (`/api/admin/…` and `/api/console/…`, read from the served OpenAPI
//! document, so a new route is covered the day it is added) tried by a stranger (401), a client
//! (403) and an agent from another branch of the tree naming an account, a market and a match of
//! someone else's downline: never the other downline's data in an answer, not even whether the
//! account exists (the same answer as for an id nobody has), and nothing changed — not a ledger
//! entry, not an audit row, not the victim's account.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::TestApp;

/// A name that appears nowhere but in the victim's own data.
const VICTIM: &str = "victim_zq";

/// What an outsider must not have changed: the ledger's entries, the audit log's rows and the
/// victim's row in the downline list (balance, exposure, terms, status).
async fn snapshot(app: &TestApp, admin: &str) -> (Value, Value, Value) {
    let ledger = app.get("admin/ledger/check", Some(admin)).await;
    let audit = app.post("admin/audit", Some(admin), json!({ "limit": 1 })).await;
    let victim = app
        .post("console/downline/list", Some(admin), json!({ "search": VICTIM, "limit": 5 }))
        .await;
    (ledger.data()["entries"].clone(), audit.data()["total"].clone(), victim.data()["rows"].clone())
}

async fn no_operator_route_leaks_or_changes_anything_for_an_outsider(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    // The victim: a client of the demo agent, with chips and a bet on a fancy.
    let (victim_id, victim) = app.new_user(&agent, VICTIM, "client").await;
    app.post(
        "admin/user/transfer",
        Some(&agent),
        json!({ "user_id": victim_id, "amount": 500, "direction": "deposit" }),
    )
    .await
    .expect(200);
    let matches = app.post("match/getMatches", Some(&victim), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "fancy", "name": "20 over runs", "min_stake": 1, "bet_delay_s": 0 }),
        )
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": market_id, "line_no": 56, "rate_no": 100, "line_yes": 57, "rate_yes": 100 }))
        .await
        .expect(200);
    app.post(
        "bet/placeBet",
        Some(&victim),
        json!({ "market_id": market_id, "side": "yes", "price": 100, "line": 57, "stake": 100 }),
    )
    .await
    .expect(200);
    let agent_id = app.user_id(&admin, "agent").await;
    // The outsider: an agent in another branch, with a client of its own; and a client.
    let (_, outsider) = app.new_user(&admin, "outsider_zq", "agent").await;
    app.new_user(&outsider, "outsiders_client", "client").await;
    let client = app.login("demo2", "Demo@1234").await;

    // Everything an operator route might take, aimed at the victim's side of the tree.
    let body = json!({
        "user_id": victim_id, "parent_id": agent_id, "market_id": market_id, "match_id": match_id,
        "amount": 100, "direction": "withdraw", "locked": 1, "password": "Taken@123",
        "terms": { "bet_locked": 1, "credit_reference": 1 }, "max_exposure": 1,
        "status": "suspended", "winner_selection_id": 1, "result": 1, "void": 1, "min_stake": 1, "max_stake": 2,
        "request_id": 1, "remark": "x", "user": VICTIM, "search": VICTIM,
        "user_ids": [victim_id], "action": "lock",
    });
    let before = snapshot(&app, &admin).await;
    let document = app.openapi().await;
    let mut tried = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        let Some(route) = path.strip_prefix("/api/") else { continue };
        if !(route.starts_with("admin/") || route.starts_with("console/")) {
            continue;
        }
        for method in item.as_object().unwrap().keys() {
            let call_with = |token: Option<String>, body: Value| {
                let route = route.to_owned();
                let method = method.clone();
                let app = &app;
                async move {
                    if method == "get" {
                        app.get(&route, token.as_deref()).await
                    } else {
                        app.post(&route, token.as_deref(), body).await
                    }
                }
            };
            let call = |token: Option<String>| call_with(token, body.clone());
            tried += 1;
            assert_eq!(call(None).await.status.as_u16(), 401, "{method} {route} as a stranger");
            assert_eq!(
                call(Some(client.clone())).await.status.as_u16(),
                403,
                "{method} {route} as a client"
            );
            let answer = call(Some(outsider.clone())).await;
            let text = answer.body.to_string();
            // Markets and matches are public; the victim's name, bets and figures are not.
            assert!(
                !text.contains(VICTIM),
                "{method} {route} showed the outsider another downline: {}",
                answer.body
            );
            assert_ne!(answer.status.as_u16() / 100, 5, "{method} {route}: {}", answer.body);
            // The victim's id is answered as an id that does not exist: the answer does not
            // even say the account is there.
            let mut ghost_body = body.clone();
            ghost_body["user_id"] = json!(987_654_321);
            ghost_body["user_ids"] = json!([987_654_321]);
            let ghost = call_with(Some(outsider.clone()), ghost_body).await;
            assert_eq!(
                (answer.status, answer.message()),
                (ghost.status, ghost.message()),
                "{method} {route} tells the victim's id from a missing one"
            );
        }
    }
    assert!(tried >= 40, "only {tried} operator routes in the document");
    // The figures carry no names: the outsider's analysis and bet list of the victim's market
    // hold nothing of the victim's bet, while the victim's agent sees it.
    for (token, bets) in [(&outsider, 0), (&agent, 1)] {
        let analysis =
            app.post("console/market/analysis", Some(token), json!({ "match_id": match_id })).await;
        let market = analysis.data()["markets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["market_id"] == market_id)
            .cloned();
        assert_eq!(market.unwrap()["bets"], bets, "{}", analysis.body);
        let list =
            app.post("console/market/bets", Some(token), json!({ "market_id": market_id })).await;
        assert_eq!(
            list.data()["rows"].as_array().map_or(0, Vec::len),
            bets as usize,
            "{}",
            list.body
        );
    }
    assert_eq!(snapshot(&app, &admin).await, before, "an outsider changed something");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(no_operator_route_leaks_or_changes_anything_for_an_outsider);
