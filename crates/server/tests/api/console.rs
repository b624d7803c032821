//! The console's view of the agent tree: an agent acts on and reads its whole downline (any
//! depth) and nothing else; an admin everyone; a client no console data; a stranger nothing.
//!
//! The tree every test here builds on the demo's (admin → agent → demo, demo2, maker):
//!
//! ```text
//! admin ─┬─ agent ─── demo, demo2, maker
//!        └─ master ── sub_agent ── deep_client
//! ```

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, Answer, TestApp};

/// The logged-in accounts and ids of the tree above.
struct Tree {
    admin: String,
    agent: String,
    master: String,
    sub_agent: String,
    deep_client: String,
    master_id: i64,
    sub_agent_id: i64,
    deep_client_id: i64,
    demo_id: i64,
    agent_id: i64,
}

/// Builds the tree: the master creates its own sub-agent, as the console does.
async fn tree(app: &TestApp) -> Tree {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let (master_id, master) = app.new_user(&admin, "master", "agent").await;
    let (sub_agent_id, sub_agent) = app.new_user(&master, "sub_agent", "agent").await;
    let (deep_client_id, deep_client) = app.new_user(&sub_agent, "deep_client", "client").await;
    let demo_id = app.user_id(&admin, "demo").await;
    let agent_id = app.user_id(&admin, "agent").await;
    Tree {
        admin,
        agent,
        master,
        sub_agent,
        deep_client,
        master_id,
        sub_agent_id,
        deep_client_id,
        demo_id,
        agent_id,
    }
}

async fn lock(app: &TestApp, token: &str, user_id: i64, locked: i64) -> Answer {
    app.post("admin/user/lock", Some(token), json!({ "user_id": user_id, "locked": locked })).await
}

fn is_locked(answer: &Answer) -> Value {
    answer.data()["is_locked"].clone()
}

// ---------------------------------------------------------------------------------------------
// Operator actions over the downline (operator/mod.rs require_manages)

async fn a_master_manages_its_whole_downline_and_nothing_beside_or_above(app: TestApp) {
    let t = tree(&app).await;
    // Two levels down: the master may lock and unlock its agent's client.
    let answer = lock(&app, &t.master, t.deep_client_id, 1).await;
    answer.expect(200);
    assert_eq!(is_locked(&answer), 1);
    app.login_answer("deep_client", "Second@123").await.expect(422);
    lock(&app, &t.master, t.deep_client_id, 0).await.expect(200);
    app.login("deep_client", "Second@123").await;
    let limit = app
        .post(
            "admin/user/exposureLimit",
            Some(&t.master),
            json!({ "user_id": t.deep_client_id, "max_exposure": 500 }),
        )
        .await;
    limit.expect(200);

    // Not itself; not its parent, another agent or that agent's clients, which it is told do
    // not exist in its downline.
    let answer = lock(&app, &t.master, t.master_id, 1).await;
    answer.expect(403);
    assert!(answer.message().contains("your own account"), "{}", answer.message());
    let admin_id = app.user_id(&t.admin, "admin").await;
    for user_id in [admin_id, t.agent_id, t.demo_id] {
        let answer = lock(&app, &t.master, user_id, 1).await;
        answer.expect(404);
        assert_eq!(answer.message(), "No such account in your downline.");
    }
    // The agent below cannot reach up or sideways either.
    lock(&app, &t.sub_agent, t.master_id, 1).await.expect(404);
    lock(&app, &t.agent, t.deep_client_id, 1).await.expect(404);
    app.login("demo", "Demo@1234").await;
    app.login("master", "Second@123").await;
    app.login("agent", "Agent@1234").await;
    app.login("deep_client", "Second@123").await;
}
both_databases!(a_master_manages_its_whole_downline_and_nothing_beside_or_above);

async fn chips_move_only_between_an_account_and_its_own_parent(app: TestApp) {
    let t = tree(&app).await;
    let transfer = |token: String, user_id: i64, direction: &'static str| {
        let app = &app;
        async move {
            app.post(
                "admin/user/transfer",
                Some(&token),
                json!({ "user_id": user_id, "amount": 1, "direction": direction }),
            )
            .await
        }
    };
    let before = app.balance_minor(&t.sub_agent).await;
    // The master manages the deep client, but the chips would be its sub-agent's.
    for direction in ["deposit", "withdraw"] {
        let answer = transfer(t.master.clone(), t.deep_client_id, direction).await;
        answer.expect(403);
        assert!(
            answer
                .message()
                .contains(&format!("Account {} is not one of your clients", t.deep_client_id)),
            "{}",
            answer.message()
        );
    }
    assert_eq!(app.balance_minor(&t.sub_agent).await, before);
    assert_eq!(app.balance_minor(&t.deep_client).await, 0);
    // The admin deposits into the master (its child); the master into its sub-agent.
    transfer(t.admin.clone(), t.master_id, "deposit").await.expect(200);
    transfer(t.master.clone(), t.sub_agent_id, "deposit").await.expect(200);
    assert_eq!(app.balance_minor(&t.sub_agent).await, before + 1_00);
    assert_eq!(app.balance_minor(&t.master).await, 0);
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(chips_move_only_between_an_account_and_its_own_parent);

// ---------------------------------------------------------------------------------------------
// /api/console/… reads

/// The demo's first cricket match.
async fn a_match(app: &TestApp, token: &str) -> i64 {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    answer.data()[0]["match_id"].as_i64().unwrap()
}

async fn bet(app: &TestApp, token: &str, body: Value) {
    app.post("bet/placeBet", Some(token), body).await.expect(200);
}

async fn deposit(app: &TestApp, token: &str, user_id: i64, amount: i64) {
    app.post(
        "admin/user/transfer",
        Some(token),
        json!({ "user_id": user_id, "amount": amount, "direction": "deposit" }),
    )
    .await
    .expect(200);
}

/// The tree with chips down to the deep client, a bookmaker and a fancy on one match, and
/// bets from both sides of the tree:
///
/// ```text
/// bookmaker  demo         back Home 100.00 at 251   Home +251.00, Away −100.00
///            deep_client  lay  Home  50.00 at 254   Home −127.00, Away  +50.00
/// fancy      demo         NO  line 48, 20.00 at 100   runs < 48 +20.00, else −20.00
///            deep_client  YES line 49, 50.00 at 100   runs ≥ 49 +50.00, else −50.00
/// ```
struct Book {
    t: Tree,
    match_id: i64,
    bookmaker: i64,
    fancy: i64,
    home: i64,
}

async fn book(app: &TestApp) -> Book {
    let t = tree(app).await;
    deposit(app, &t.admin, t.master_id, 1_000).await;
    deposit(app, &t.master, t.sub_agent_id, 1_000).await;
    deposit(app, &t.sub_agent, t.deep_client_id, 500).await;
    let demo = app.demo().await;
    let match_id = a_match(app, &demo).await;
    let (bookmaker, runners) = app
        .open_market(&t.admin, match_id, json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"], "min_stake": 1 }))
        .await;
    app.post("admin/market/rates", Some(&t.admin), json!({ "market_id": bookmaker, "runners": [
        { "selection_id": runners[0], "back": 251, "lay": 254 }, { "selection_id": runners[1], "back": 40, "lay": 42 }
    ] })).await.expect(200);
    let (fancy, _) = app
        .open_market(
            &t.admin,
            match_id,
            json!({ "type": "fancy", "name": "6 over runs Home", "min_stake": 1 }),
        )
        .await;
    app.post("admin/market/rates", Some(&t.admin), json!({ "market_id": fancy, "line_no": 48, "rate_no": 100, "line_yes": 49, "rate_yes": 100 })).await.expect(200);
    bet(app, &demo, json!({ "market_id": bookmaker, "selection_id": runners[0], "side": "back", "price": 251, "stake": 100 })).await;
    bet(app, &t.deep_client, json!({ "market_id": bookmaker, "selection_id": runners[0], "side": "lay", "price": 254, "stake": 50 })).await;
    bet(
        app,
        &demo,
        json!({ "market_id": fancy, "side": "no", "price": 100, "line": 48, "stake": 20 }),
    )
    .await;
    bet(
        app,
        &t.deep_client,
        json!({ "market_id": fancy, "side": "yes", "price": 100, "line": 49, "stake": 50 }),
    )
    .await;
    Book { t, match_id, bookmaker, fancy, home: runners[0] }
}

/// (runner name, house P&L in minor units) of the market named `name` in an analysis.
fn runners_of(analysis: &Value, name: &str) -> Vec<(String, i64)> {
    let market = market_of(analysis, name);
    market["runners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap().to_string(), minor(&r["house_pnl"])))
        .collect()
}

fn market_of<'a>(analysis: &'a Value, name: &str) -> &'a Value {
    analysis["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no market {name} in {analysis}"))
}

/// (from, to, house P&L in minor units) of the fancy's run ranges.
fn fancy_of(analysis: &Value) -> Vec<(i64, Option<i64>, i64)> {
    market_of(analysis, "6 over runs Home")["fancy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["from"].as_i64().unwrap(), r["to"].as_i64(), minor(&r["pnl"])))
        .collect()
}

fn names(answer: &Answer) -> Vec<String> {
    answer.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["user_name"].as_str().unwrap().to_string())
        .collect()
}

fn s(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

async fn the_analysis_is_the_houses_position_against_the_callers_downline(app: TestApp) {
    let b = book(&app).await;
    let t = &b.t;
    let analysis = |token: String| {
        let app = &app;
        async move {
            let answer = app
                .post("console/market/analysis", Some(&token), json!({ "match_id": b.match_id }))
                .await;
            answer.expect(200);
            answer.data().clone()
        }
    };
    let home_away =
        |home: i64, away: i64| vec![("Home".to_string(), home), ("Away".to_string(), away)];

    let admin = analysis(t.admin.clone()).await;
    assert_eq!(runners_of(&admin, "Bookmaker"), home_away(-124_00, 50_00));
    assert_eq!(
        fancy_of(&admin),
        vec![(0, Some(47), 30_00), (48, Some(48), 70_00), (49, None, -30_00)]
    );
    assert_eq!(market_of(&admin, "Bookmaker")["bets"], 2);
    let fancy = market_of(&admin, "6 over runs Home");
    assert_eq!((&fancy["line_no"], &fancy["line_yes"]), (&json!(48), &json!(49)));

    // The master and its agent see the deep client only; the demo's agent the demo only.
    for token in [t.master.clone(), t.sub_agent.clone()] {
        let mine = analysis(token).await;
        assert_eq!(runners_of(&mine, "Bookmaker"), home_away(127_00, -50_00));
        assert_eq!(fancy_of(&mine), vec![(0, Some(48), 50_00), (49, None, -50_00)]);
    }
    let agent = analysis(t.agent.clone()).await;
    assert_eq!(runners_of(&agent, "Bookmaker"), home_away(-251_00, 100_00));
    assert_eq!(fancy_of(&agent), vec![(0, Some(47), -20_00), (48, None, 20_00)]);
    assert_eq!(market_of(&agent, "Bookmaker")["bets"], 1);

    // A client has no console; a stranger is asked to log in; an unknown match is 404.
    let body = json!({ "match_id": b.match_id });
    app.post("console/market/analysis", Some(&t.deep_client), body.clone()).await.expect(403);
    app.post("console/market/analysis", None, body).await.expect(401);
    app.post("console/market/analysis", Some(&t.admin), json!({ "match_id": 987_654 }))
        .await
        .expect(404);
    let bad = app.post("console/market/analysis", Some(&t.admin), json!({ "match_id": "x" })).await;
    bad.expect(400);

    // The risk screen lists the match with both markets.
    let live = app.get("console/market/live", Some(&t.agent)).await;
    live.expect(200);
    let the_match = live
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["match_id"] == b.match_id)
        .unwrap()
        .clone();
    let markets: Vec<i64> = the_match["markets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["market_id"].as_i64().unwrap())
        .collect();
    assert!(markets.contains(&b.bookmaker) && markets.contains(&b.fancy), "{the_match}");
    app.get("console/market/live", Some(&t.deep_client)).await.expect(403);
    app.get("console/market/live", None).await.expect(401);
}
both_databases!(the_analysis_is_the_houses_position_against_the_callers_downline);

async fn a_markets_bet_list_is_the_callers_downline_filtered_and_paged(app: TestApp) {
    let b = book(&app).await;
    let t = &b.t;
    let bets = |token: String, body: Value| {
        let app = &app;
        async move { app.post("console/market/bets", Some(&token), body).await }
    };
    let all = bets(t.admin.clone(), json!({ "market_id": b.fancy })).await;
    all.expect(200);
    assert_eq!(names(&all), s(&["deep_client", "demo"]));
    let row = &all.data()["rows"][0];
    assert_eq!(
        (&row["side"], &row["line"], &row["price"]),
        (&json!("yes"), &json!(49), &json!(100.0))
    );
    assert_eq!((minor(&row["stake"]), minor(&row["matched"])), (50_00, 50_00));
    assert_eq!(row["selection_name"], Value::Null);

    let master = bets(t.master.clone(), json!({ "market_id": b.fancy })).await;
    assert_eq!((names(&master), master.data()["total"].clone()), (s(&["deep_client"]), json!(1)));
    let agent = bets(t.agent.clone(), json!({ "market_id": b.bookmaker })).await;
    assert_eq!(names(&agent), s(&["demo"]));
    assert_eq!(agent.data()["rows"][0]["selection_name"], "Home");
    assert_eq!(agent.data()["rows"][0]["price"], 251.0);

    // Filters: by part of the name (any case), by side; paging.
    let filtered = bets(t.admin.clone(), json!({ "market_id": b.fancy, "user": "DEEP" })).await;
    assert_eq!(names(&filtered), s(&["deep_client"]));
    let no = bets(t.admin.clone(), json!({ "market_id": b.fancy, "side": "no" })).await;
    assert_eq!(names(&no), s(&["demo"]));
    let paged = bets(t.admin.clone(), json!({ "market_id": b.fancy, "limit": 1, "page": 2 })).await;
    assert_eq!((names(&paged), paged.data()["total"].clone()), (s(&["demo"]), json!(2)));
    let none = bets(t.agent.clone(), json!({ "market_id": b.fancy, "user": "deep" })).await;
    assert_eq!((names(&none), none.data()["total"].clone()), (Vec::<String>::new(), json!(0)));

    let bad = bets(t.admin.clone(), json!({ "market_id": b.fancy, "side": "sideways" })).await;
    bad.expect(400);
    assert!(bad.field_error("side").contains("sideways is not a side"), "{}", bad.body);
    bets(t.admin.clone(), json!({ "market_id": b.fancy, "limit": 500 })).await.expect(400);
    bets(t.admin.clone(), json!({ "market_id": 987_654 })).await.expect(404);
    bets(t.deep_client.clone(), json!({ "market_id": b.fancy })).await.expect(403);
    app.post("console/market/bets", None, json!({ "market_id": b.fancy })).await.expect(401);
}
both_databases!(a_markets_bet_list_is_the_callers_downline_filtered_and_paged);

async fn the_downline_list_is_searched_sorted_paged_and_never_leaks(app: TestApp) {
    let b = book(&app).await;
    let t = &b.t;
    let list = |token: String, body: Value| {
        let app = &app;
        async move { app.post("console/downline/list", Some(&token), body).await }
    };
    let agent = list(t.agent.clone(), json!({})).await;
    agent.expect(200);
    assert_eq!(names(&agent), s(&["demo", "demo2", "maker"]));
    let demo = &agent.data()["rows"][0];
    assert_eq!(
        (&demo["role"], &demo["status"], &demo["children"]),
        (&json!("client"), &json!("active"), &json!(0))
    );
    // The demo holds 100.00 on the bookmaker and 20.00 on the fancy.
    assert_eq!(minor(&demo["exposure"]), 120_00);
    assert_eq!(minor(&demo["available"]), minor(&demo["balance"]) - 120_00);

    // The demo has logged in (to bet), demo2 and the maker never have.
    assert!(demo["last_login"].as_str().is_some_and(|at| at.starts_with("20")), "{demo}");
    assert_eq!(agent.data()["rows"][1]["last_login"], Value::Null);
    let by_login =
        list(t.agent.clone(), json!({ "sort": "last_login", "order": "desc", "limit": 1 })).await;
    assert_eq!(names(&by_login), s(&["demo"]));

    // The parent's terms show: credit reference, and bet-locked as its own status.
    let demo2_id = app.user_id(&t.admin, "demo2").await;
    app.post(
        "admin/user/terms",
        Some(&t.agent),
        json!({ "user_id": demo2_id, "terms": { "credit_reference": 250.5, "bet_locked": 1, "max_stake": 500, "max_exposure": 2000 } }),
    )
    .await
    .expect(200);
    let after = list(t.agent.clone(), json!({ "search": "demo2" })).await;
    let demo2 = &after.data()["rows"][0];
    assert_eq!(
        (minor(&demo2["credit_reference"]), &demo2["status"]),
        (250_50, &json!("bet_locked"))
    );
    // The caps show too, so the console's terms dialog starts from them.
    assert_eq!((minor(&demo2["max_stake"]), minor(&demo2["max_exposure"])), (500_00, 2000_00));
    assert_eq!(minor(&demo["credit_reference"]), 0);
    assert_eq!((&demo["max_stake"], &demo["max_exposure"]), (&Value::Null, &Value::Null));

    let by_balance = list(t.agent.clone(), json!({ "sort": "balance", "order": "desc" })).await;
    assert_eq!(names(&by_balance), s(&["maker", "demo", "demo2"]));
    let by_exposure =
        list(t.agent.clone(), json!({ "sort": "exposure", "order": "desc", "limit": 1 })).await;
    assert_eq!(
        (names(&by_exposure), by_exposure.data()["total"].clone()),
        (s(&["demo"]), json!(3))
    );
    let page_two = list(t.agent.clone(), json!({ "limit": 2, "page": 2 })).await;
    assert_eq!(names(&page_two), s(&["maker"]));
    let searched = list(t.agent.clone(), json!({ "search": "EMO" })).await;
    assert_eq!(
        (names(&searched), searched.data()["total"].clone()),
        (s(&["demo", "demo2"]), json!(2))
    );

    // The master walks down its tree; the agent beside it cannot, nor can a client.
    let master = list(t.master.clone(), json!({})).await;
    assert_eq!(names(&master), s(&["sub_agent"]));
    assert_eq!(
        (&master.data()["rows"][0]["children"], &master.data()["rows"][0]["role"]),
        (&json!(1), &json!("agent"))
    );
    let below = list(t.master.clone(), json!({ "parent_id": t.sub_agent_id })).await;
    assert_eq!(names(&below), s(&["deep_client"]));
    assert_eq!(minor(&below.data()["rows"][0]["balance"]), 500_00);
    let admin = list(t.admin.clone(), json!({ "parent_id": t.sub_agent_id })).await;
    assert_eq!(names(&admin), s(&["deep_client"]));
    for (token, parent_id) in [
        (t.agent.clone(), t.sub_agent_id),
        (t.master.clone(), t.agent_id),
        (t.sub_agent.clone(), t.master_id),
        (t.master.clone(), 987_654),
    ] {
        let answer = list(token, json!({ "parent_id": parent_id })).await;
        answer.expect(404);
        assert_eq!(answer.message(), "No such account in your downline.");
    }
    list(t.deep_client.clone(), json!({})).await.expect(403);
    app.post("console/downline/list", None, json!({})).await.expect(401);

    for (body, field) in [
        (json!({ "sort": "height" }), "sort"),
        (json!({ "order": "up" }), "order"),
        (json!({ "search": "x".repeat(51) }), "search"),
        (json!({ "parent_id": "first" }), "parent_id"),
        (json!({ "limit": 0 }), "limit"),
    ] {
        let answer = list(t.admin.clone(), body).await;
        answer.expect(400);
        assert!(!answer.field_error(field).is_empty(), "{}", answer.body);
    }
}
both_databases!(the_downline_list_is_searched_sorted_paged_and_never_leaks);

async fn an_accounts_records_are_its_own_and_only_its_uplines_to_read(app: TestApp) {
    let b = book(&app).await;
    let t = &b.t;
    app.post(
        "admin/market/result",
        Some(&t.admin),
        json!({ "market_id": b.bookmaker, "winner_selection_id": b.home }),
    )
    .await
    .expect(200);

    let balances_before =
        (app.balance_minor(&t.deep_client).await, app.balance_minor(&t.sub_agent).await);
    // What the console shows of an account is what the account sees of itself.
    let own = app.post("report/accountStatement", Some(&t.deep_client), json!({})).await;
    let own_bets = app.post("report/currentBets", Some(&t.deep_client), json!({})).await;
    let own_settled = app
        .post("report/settledBets", Some(&t.deep_client), json!({ "market_id": b.bookmaker }))
        .await;
    for token in [t.admin.clone(), t.master.clone(), t.sub_agent.clone()] {
        let statement = app
            .post("console/account/statement", Some(&token), json!({ "user_id": t.deep_client_id }))
            .await;
        statement.expect(200);
        assert_eq!(statement.data(), own.data());
        let bets = app
            .post("console/account/bets", Some(&token), json!({ "user_id": t.deep_client_id }))
            .await;
        bets.expect(200);
        assert_eq!(bets.data(), own_bets.data());
        let settled = app
            .post(
                "console/account/settledBets",
                Some(&token),
                json!({ "user_id": t.deep_client_id, "market_id": b.bookmaker }),
            )
            .await;
        settled.expect(200);
        assert_eq!(settled.data(), own_settled.data());
    }
    let rows = own.data()["rows"].as_array().unwrap();
    assert_eq!((&rows[0]["kind"], minor(&rows[0]["debit"])), (&json!("settlement"), 127_00));
    assert_eq!(own_bets.data()["total"], 1, "the fancy bet is still live");
    // Its filters and paging are the report's.
    let deposits = app
        .post(
            "console/account/statement",
            Some(&t.master),
            json!({ "user_id": t.deep_client_id, "type": "deposit_withdraw", "limit": 1 }),
        )
        .await;
    assert_eq!(
        (deposits.data()["total"].clone(), deposits.data()["rows"][0]["kind"].clone()),
        (json!(1), json!("deposit"))
    );

    // P&L: the deep client lost 127.00 on the bookmaker; its agent and master carry the sum.
    let pnl = |token: String, user_id: i64| {
        let app = &app;
        async move { app.post("console/account/pnl", Some(&token), json!({ "user_id": user_id })).await }
    };
    for user_id in [t.deep_client_id, t.sub_agent_id, t.master_id] {
        let answer = pnl(t.master.clone(), user_id).await;
        answer.expect(200);
        assert_eq!(minor(&answer.data()["total"]), -127_00, "{}", answer.body);
        let row = &answer.data()["rows"][0];
        assert_eq!(
            (&row["kind"], &row["market_id"], &row["market_name"]),
            (&json!("settlement"), &json!(b.bookmaker), &json!("Bookmaker"))
        );
    }
    let demo = pnl(t.agent.clone(), t.demo_id).await;
    assert_eq!(minor(&demo.data()["total"]), 251_00);
    let agent_pnl = pnl(t.agent.clone(), t.agent_id).await;
    assert_eq!(minor(&agent_pnl.data()["total"]), 251_00);
    // The same figures in the downline list, per child's subtree.
    let admin_list =
        app.post("console/downline/list", Some(&t.admin), json!({ "sort": "pnl" })).await;
    let pnls: Vec<(String, i64)> = admin_list.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["user_name"].as_str().unwrap().to_string(), minor(&row["pnl"])))
        .collect();
    assert_eq!(pnls, vec![("master".to_string(), -127_00), ("agent".to_string(), 251_00)]);
    let bad = app
        .post(
            "console/account/pnl",
            Some(&t.admin),
            json!({ "user_id": t.demo_id, "from_date": "yesterday" }),
        )
        .await;
    bad.expect(400);
    assert!(!bad.field_error("from_date").is_empty());

    // Outside the caller's downline, existing or not: the same 404. A client: 403. None: 401.
    let routes = [
        ("console/account/statement", json!({})),
        ("console/account/bets", json!({})),
        ("console/account/pnl", json!({})),
        ("console/account/settledBets", json!({ "market_id": b.bookmaker })),
    ];
    for (route, extra) in &routes {
        let body = |user_id: i64| {
            let mut body = extra.clone();
            body["user_id"] = json!(user_id);
            body
        };
        for (token, user_id) in [
            (&t.agent, t.deep_client_id),
            (&t.sub_agent, t.master_id),
            (&t.sub_agent, t.demo_id),
            (&t.master, t.agent_id),
            (&t.master, 987_654),
        ] {
            let answer = app.post(route, Some(token), body(user_id)).await;
            answer.expect(404);
            assert_eq!(answer.message(), "No such account in your downline.", "{route}");
        }
        app.post(route, Some(&t.deep_client), body(t.deep_client_id)).await.expect(403);
        app.post(route, None, body(t.deep_client_id)).await.expect(401);
        app.post(route, Some(&t.admin), body(t.demo_id)).await.expect(200);
        app.post(route, Some(&t.agent), body(t.demo_id)).await.expect(200);
    }
    // Reading changed nothing.
    let balances_after =
        (app.balance_minor(&t.deep_client).await, app.balance_minor(&t.sub_agent).await);
    assert_eq!(balances_after, balances_before);
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(an_accounts_records_are_its_own_and_only_its_uplines_to_read);
