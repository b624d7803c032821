//! The console's dashboard (`console/dashboard`): every figure equals the sum of the rows of
//! the report it summarises, computed here from those reports' own calls; an agent sees its
//! branch only; periods are bounded.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};
use crate::partnership::{fancy, report, tree};

async fn dashboard(app: &TestApp, token: &str, body: Value) -> Value {
    let answer = app.post("console/dashboard", Some(token), body).await;
    answer.expect(200);
    answer.data().clone()
}

/// The matched stakes, bet count and bettors of `markets`' bets as `token` lists them.
async fn listed_bets(app: &TestApp, token: &str, markets: &[i64]) -> (i64, i64, usize) {
    let mut users = std::collections::BTreeSet::new();
    let (mut matched, mut count) = (0, 0);
    for market in markets {
        let answer = app
            .post("console/market/bets", Some(token), json!({ "market_id": market, "limit": 100 }))
            .await;
        answer.expect(200);
        for row in answer.data()["rows"].as_array().unwrap() {
            matched += minor(&row["matched"]);
            count += 1;
            users.insert(row["user_id"].as_i64().unwrap());
        }
    }
    (matched, count, users.len())
}

/// The exposure of every account under `token`'s account, walking the downline list.
async fn listed_exposure(app: &TestApp, token: &str) -> i64 {
    let mut parents = vec![None];
    let mut total = 0;
    while let Some(parent) = parents.pop() {
        let body = match parent {
            None => json!({ "limit": 100 }),
            Some(id) => json!({ "parent_id": id, "limit": 100 }),
        };
        let answer = app.post("console/downline/list", Some(token), body).await;
        answer.expect(200);
        for row in answer.data()["rows"].as_array().unwrap() {
            if row["role"] == "agent" {
                parents.push(Some(row["user_id"].as_i64().unwrap()));
            } else {
                total += minor(&row["exposure"]);
            }
        }
    }
    total
}

async fn the_dashboard_adds_up_the_reports_of_the_branch(app: TestApp) {
    let admin = app.admin().await;
    let (_, _, _, master, agent, client) = tree(&app, &admin).await;
    // The client loses 1,000 on one fancy and has 200 riding on another, still open.
    let lost = fancy(&app, &admin, &client, "6 over runs").await;
    let place = |market: i64, stake: i64, token: String| {
        let app = &app;
        async move {
            app.post("bet/placeBet", Some(&token), json!({ "market_id": market, "side": "yes", "price": 100, "line": 57, "stake": stake }))
                .await
                .expect(200);
        }
    };
    place(lost, 1000, client.clone()).await;
    app.post("admin/market/result", Some(&admin), json!({ "market_id": lost, "result": 50 }))
        .await
        .expect(200);
    let open = fancy(&app, &admin, &client, "10 over runs").await;
    place(open, 200, client.clone()).await;
    // Someone of another branch bets too: not the agent's business.
    let (other_agent_id, other_agent) = app.new_user(&admin, "other_agent1", "agent").await;
    app.post(
        "admin/user/transfer",
        Some(&admin),
        json!({ "user_id": other_agent_id, "amount": 1000, "direction": "deposit" }),
    )
    .await
    .expect(200);
    let (stranger_id, stranger) = app.new_user(&other_agent, "stranger1", "client").await;
    app.post(
        "admin/user/transfer",
        Some(&other_agent),
        json!({ "user_id": stranger_id, "amount": 500, "direction": "deposit" }),
    )
    .await
    .expect(200);
    place(open, 50, stranger.clone()).await;
    // A deposit request waiting for the agent.
    app.post("payment/deposit", Some(&client), json!({ "amount": 100, "reference": "UTR777" }))
        .await
        .expect(200);

    for (token, whose) in [(&agent, "agent"), (&master, "master"), (&admin, "admin")] {
        let figures = dashboard(&app, token, json!({})).await;
        // The house's result: the partnership report's markets, today.
        let today = figures["from_date"].as_str().unwrap().to_owned();
        assert_eq!(figures["to_date"], today.as_str());
        let partnership =
            report(&app, token, json!({ "from_date": today, "to_date": today })).await;
        let reported: i64 = partnership["markets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| minor(&m["house_result"]))
            .sum();
        assert_eq!(minor(&figures["house_result"]), reported, "{whose}: {figures}");
        let fancy_rows: i64 = partnership["markets"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["market_id"] == lost)
            .map(|m| minor(&m["house_result"]))
            .sum();
        assert_eq!(minor(&figures["by_product"]["fancy"]), fancy_rows, "{whose}");
        let products: i64 = ["exchange_commission", "bookmaker", "fancy", "casino"]
            .iter()
            .map(|p| minor(&figures["by_product"][p]))
            .sum();
        assert_eq!(products, reported);
        assert_eq!(figures["days"].as_array().unwrap().len(), 1);
        assert_eq!(figures["days"][0]["date"], today.as_str());
        assert_eq!(minor(&figures["days"][0]["house_result"]), reported);
        // Bets: the market bet lists (only today's bets exist in this database).
        let (matched, count, bettors) = listed_bets(&app, token, &[lost, open]).await;
        assert_eq!(minor(&figures["turnover"]), matched, "{whose}");
        assert_eq!(figures["bets"].as_i64().unwrap(), count);
        assert_eq!(figures["active_bettors"].as_u64().unwrap() as usize, bettors);
        // Exposure: the downline list's accounts.
        assert_eq!(minor(&figures["open_exposure"]), listed_exposure(&app, token).await, "{whose}");
        // Payments: the list of pending requests.
        let pending =
            app.post("admin/payment/list", Some(token), json!({ "status": "pending" })).await;
        assert_eq!(figures["pending_payments"], pending.data()["total"], "{whose}");
        // The top market: the market analysis' worst case for the house.
        let top = &figures["top_markets"][0];
        assert_eq!(top["market_id"], open, "{whose}: {figures}");
        let analysis = app
            .post("console/market/analysis", Some(token), json!({ "match_id": top["match_id"] }))
            .await;
        analysis.expect(200);
        let market = analysis.data()["markets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["market_id"] == open)
            .unwrap()
            .clone();
        let worst =
            market["fancy"].as_array().unwrap().iter().map(|r| minor(&r["pnl"])).min().unwrap();
        assert_eq!(minor(&top["exposure"]), -worst, "{whose}");
        assert_eq!(top["bets"], market["bets"]);
        // Live matches: the live list.
        let live = app.get("console/market/live", Some(token)).await;
        let live_ids: Vec<&Value> =
            live.data().as_array().unwrap().iter().map(|m| &m["match_id"]).collect();
        let dash_ids: Vec<&Value> =
            figures["live_matches"].as_array().unwrap().iter().map(|m| &m["match_id"]).collect();
        assert_eq!(dash_ids, live_ids);
    }
    // The branch: the agent sees its client's bets only; the admin everyone's.
    let agent_view = dashboard(&app, &agent, json!({})).await;
    assert_eq!(
        (
            minor(&agent_view["turnover"]),
            agent_view["bets"].as_i64(),
            agent_view["active_bettors"].as_i64()
        ),
        (1_200_00, Some(2), Some(1))
    );
    assert_eq!(minor(&agent_view["house_result"]), 1_000_00);
    assert_eq!(minor(&agent_view["open_exposure"]), 200_00);
    assert_eq!(agent_view["pending_payments"], 1);
    let admin_view = dashboard(&app, &admin, json!({})).await;
    assert!(minor(&admin_view["turnover"]) >= 1_250_00);
    let other_view = dashboard(&app, &other_agent, json!({})).await;
    assert_eq!((minor(&other_view["turnover"]), minor(&other_view["house_result"])), (50_00, 0));

    // A past period holds nothing of today; every day of it is listed.
    let past =
        dashboard(&app, &agent, json!({ "from_date": "2025-01-01", "to_date": "2025-01-07" }))
            .await;
    assert_eq!((minor(&past["house_result"]), past["bets"].as_i64()), (0, Some(0)));
    assert_eq!(past["days"].as_array().unwrap().len(), 7);
    // Refusals.
    for body in [
        json!({ "from_date": "2025-01-02", "to_date": "2025-01-01" }),
        json!({ "from_date": "2024-01-01", "to_date": "2025-01-31" }),
        json!({ "from_date": "yesterday" }),
    ] {
        let answer = app.post("console/dashboard", Some(&agent), body.clone()).await;
        answer.expect(400);
    }
    app.post("console/dashboard", Some(&client), json!({})).await.expect(403);
    app.post("console/dashboard", None, json!({})).await.expect(401);
}
both_databases!(the_dashboard_adds_up_the_reports_of_the_branch);
