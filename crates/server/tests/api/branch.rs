//! An agent's branch: accounts created where the operator says (inside a drilled-in sub-agent),
//! and a lock or bet-lock on an agent covering everyone below it (issue 28, defects 1 and 2).
//!
//! The tree these tests build on the demo's (admin → agent → demo, demo2, maker):
//!
//! ```text
//! admin ─┬─ agent ─── demo, demo2, maker
//!        └─ master ─┬─ sub_agent ── deep_client
//!                   └─ own_client
//! ```

use serde_json::json;

use crate::both_databases;
use crate::common::{Answer, TestApp};

struct Tree {
    admin: String,
    master: String,
    sub_agent: String,
    master_id: i64,
    sub_agent_id: i64,
    deep_client_id: i64,
    own_client_id: i64,
    agent_id: i64,
}

async fn tree(app: &TestApp) -> Tree {
    let admin = app.admin().await;
    let (master_id, master) = app.new_user(&admin, "master", "agent").await;
    let (sub_agent_id, sub_agent) = app.new_user(&master, "sub_agent", "agent").await;
    let (deep_client_id, _) = app.new_user(&sub_agent, "deep_client", "client").await;
    let (own_client_id, _) = app.new_user(&master, "own_client", "client").await;
    let agent_id = app.user_id(&admin, "agent").await;
    Tree {
        admin,
        master,
        sub_agent,
        master_id,
        sub_agent_id,
        deep_client_id,
        own_client_id,
        agent_id,
    }
}

async fn create(app: &TestApp, token: &str, name: &str, role: &str, parent_id: i64) -> Answer {
    app.post(
        "admin/user/create",
        Some(token),
        json!({ "user_name": name, "password": "First@123", "role": role, "parent_id": parent_id }),
    )
    .await
}

async fn user_count(app: &TestApp, admin: &str) -> i64 {
    let answer = app.post("admin/user/list", Some(admin), json!({ "limit": 1 })).await;
    answer.expect(200);
    answer.data()["total"].as_i64().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Defect 1: an account created inside a sub-agent's branch lands there

async fn an_agent_creates_under_any_agent_of_its_downline_and_nowhere_else(app: TestApp) {
    let t = tree(&app).await;
    // The master, drilled into its sub-agent, creates a client and an agent there.
    let answer = create(&app, &t.master, "wc1", "client", t.sub_agent_id).await;
    answer.expect(200);
    assert_eq!(answer.data()["parent_id"], t.sub_agent_id);
    let answer = create(&app, &t.master, "wagent2", "agent", t.sub_agent_id).await;
    answer.expect(200);
    let third_level_id = answer.data()["user_id"].as_i64().unwrap();
    assert_eq!(answer.data()["parent_id"], t.sub_agent_id);
    // The audit log says where it went.
    let audit = app.post("admin/audit", Some(&t.admin), json!({ "action": "user.create" })).await;
    let newest = &audit.data()["rows"][1];
    assert_eq!(newest["detail"]["parent_id"], t.sub_agent_id, "{newest}");

    let before = user_count(&app, &t.admin).await;
    // Below the third agent level there are no agents (agent_levels 3).
    let answer = create(&app, &t.master, "too_deep", "agent", third_level_id).await;
    answer.expect(400);
    assert!(answer.field_error("role").contains("deepest agent level"), "{}", answer.body);
    // A client of the downline is no parent.
    let answer = create(&app, &t.master, "under_client", "client", t.deep_client_id).await;
    answer.expect(400);
    assert!(answer.field_error("parent_id").contains("the client deep_client"), "{}", answer.body);
    // Another branch, the agent's own parent, or an id nobody has: the same 404.
    for (token, parent_id) in [
        (&t.master, t.agent_id),
        (&t.master, 999_999),
        (&t.sub_agent, t.master_id),
        (&t.sub_agent, t.own_client_id),
    ] {
        let answer = create(&app, token, "elsewhere", "client", parent_id).await;
        answer.expect(404);
        assert_eq!(answer.message(), "No such account in your downline.", "{parent_id}");
    }
    assert_eq!(user_count(&app, &t.admin).await, before, "nothing was created");
}
both_databases!(an_agent_creates_under_any_agent_of_its_downline_and_nowhere_else);

// ---------------------------------------------------------------------------------------------
// Defect 2: a lock or bet-lock on an agent covers its whole branch

async fn lock(app: &TestApp, token: &str, user_id: i64, locked: i64) {
    app.post("admin/user/lock", Some(token), json!({ "user_id": user_id, "locked": locked }))
        .await
        .expect(200);
}

async fn bet_lock(app: &TestApp, token: &str, user_id: i64, locked: i64) {
    app.post(
        "admin/user/terms",
        Some(token),
        json!({ "user_id": user_id, "terms": { "bet_locked": locked } }),
    )
    .await
    .expect(200);
}

async fn a_masters_lock_keeps_its_whole_branch_out_until_it_is_lifted(app: TestApp) {
    let t = tree(&app).await;
    let deep_client = app.login("deep_client", "Second@123").await;
    app.get("user/getUserBalance", Some(&deep_client)).await.expect(200);
    // The deep client is also locked on its own, by its agent.
    let (_, lone) = app.new_user(&t.sub_agent, "lone_client", "client").await;
    let lone_id = app.user_id(&t.admin, "lone_client").await;
    lock(&app, &t.sub_agent, lone_id, 1).await;
    app.get("user/getUserBalance", Some(&lone)).await.expect(401);

    // The deep client follows the match lists live.
    let ticket = app.post("stream/ticket", Some(&deep_client), json!({})).await;
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let mut stream = app
        .client
        .get(format!("{}/stream?list=all&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);

    lock(&app, &t.admin, t.master_id, 1).await;
    // Its stream ends within a few seconds (it checks every LOCK_CHECK_MS).
    let ended = tokio::time::timeout(std::time::Duration::from_secs(8), async {
        while stream.chunk().await.is_ok_and(|chunk| chunk.is_some()) {}
    })
    .await;
    assert!(ended.is_ok(), "the locked client's stream ended");
    // Sessions below end at once: an agent's and a client's, two levels down.
    for token in [&t.sub_agent, &deep_client] {
        let answer = app.get("user/getUserBalance", Some(token)).await;
        answer.expect(401);
        assert_eq!(answer.message(), "Your session has expired. Log in again.");
    }
    // Log-ins are refused, saying why.
    let answer = app.login_answer("sub_agent", "Second@123").await;
    answer.expect(422);
    assert_eq!(answer.message(), "Your account is locked: your agent master is locked.");
    let answer = app.login_answer("deep_client", "Second@123").await;
    answer.expect(422);
    assert_eq!(
        answer.message(),
        "Your account is locked: master, an agent above yours, is locked."
    );
    let answer = app.login_answer("own_client", "Second@123").await;
    answer.expect(422);
    assert!(answer.message().contains("master is locked"), "{}", answer.body);
    let answer = app.login_answer("lone_client", "Second@123").await;
    assert_eq!(answer.message(), "This account is locked. Contact your agent.");
    // The bot API's log-in is the same check.
    let form = [("username", "deep_client"), ("password", "Second@123")];
    let bot = crate::betfair::identity(&app, "certlogin", &form, None).await;
    assert_eq!(bot["loginStatus"], "ACCOUNT_ALREADY_LOCKED", "{bot}");
    // Outside the branch nothing changed.
    app.login("demo", "Demo@1234").await;
    // The console says whose lock holds each account, beside its own state.
    let listed = app
        .post("console/downline/list", Some(&t.admin), json!({ "search": "_client", "limit": 100 }))
        .await;
    listed.expect(200);
    let held: Vec<(String, String, Option<String>)> = listed.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["user_name"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                r["locked_by"].as_str().map(String::from),
            )
        })
        .collect();
    for (name, status, by) in [
        ("deep_client", "active", "master"),
        ("own_client", "active", "master"),
        ("lone_client", "locked", "master"),
    ] {
        assert!(
            held.contains(&(name.to_string(), status.to_string(), Some(by.to_string()))),
            "{name}: {held:?}"
        );
    }

    // Lifted: each account is back to its own state; the one locked on its own stays locked.
    lock(&app, &t.admin, t.master_id, 0).await;
    app.login("sub_agent", "Second@123").await;
    app.login("deep_client", "Second@123").await;
    app.login("own_client", "Second@123").await;
    let answer = app.login_answer("lone_client", "Second@123").await;
    answer.expect(422);
    assert_eq!(answer.message(), "This account is locked. Contact your agent.");
    // The old sessions stay ended.
    app.get("user/getUserBalance", Some(&deep_client)).await.expect(401);
    let listed =
        app.post("console/downline/list", Some(&t.admin), json!({ "search": "deep_client" })).await;
    assert_eq!(listed.data()["rows"][0]["locked_by"], serde_json::Value::Null, "{}", listed.body);

    // A lock under a locked agent: lifting the upper one leaves the lower one's.
    lock(&app, &t.admin, t.master_id, 1).await;
    lock(&app, &t.admin, t.sub_agent_id, 1).await;
    lock(&app, &t.admin, t.master_id, 0).await;
    let answer = app.login_answer("deep_client", "Second@123").await;
    assert_eq!(answer.message(), "Your account is locked: your agent sub_agent is locked.");
    app.login("own_client", "Second@123").await;
    lock(&app, &t.admin, t.sub_agent_id, 0).await;
    app.login("deep_client", "Second@123").await;
    // A client created under a locked agent starts locked.
    lock(&app, &t.admin, t.sub_agent_id, 1).await;
    // (The master's own lock ended its session: it logs in again.)
    let master = app.login("master", "Second@123").await;
    let answer = create(&app, &master, "late_client", "client", t.sub_agent_id).await;
    answer.expect(200);
    let answer = app.login_answer("late_client", "First@123").await;
    assert_eq!(answer.message(), "Your account is locked: your agent sub_agent is locked.");
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(a_masters_lock_keeps_its_whole_branch_out_until_it_is_lifted);

/// The demo's agent bet-locked (or locked) by the admin: its client demo may log in and read
/// but not bet, on the exchange or at a casino table; lifted, demo bets again.
async fn an_agents_bet_lock_stops_every_bet_of_its_branch(app: TestApp) {
    let admin = app.admin().await;
    let agent_id = app.user_id(&admin, "agent").await;
    let demo = app.demo().await;
    let answer = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = answer.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let bet = || {
        app.post(
            "bet/placeBet",
            Some(&demo),
            json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2.5, "stake": 10 }),
        )
    };
    // A bet the casino refuses for its round, unless the account may not bet at all.
    let casino_bet = || {
        app.post(
            "casino/placeBet",
            Some(&demo),
            json!({ "round_id": "dt6-1", "market": "dragon", "odds": "1.98", "stake": 10 }),
        )
    };
    bet().await.expect(200);
    casino_bet().await.expect(404);

    bet_lock(&app, &admin, agent_id, 1).await;
    app.get("user/getUserBalance", Some(&demo)).await.expect(200);
    for answer in [bet().await, casino_bet().await] {
        answer.expect(422);
        assert_eq!(answer.message(), "Betting is locked on this account: ask your agent.");
    }
    bet_lock(&app, &admin, agent_id, 0).await;
    bet().await.expect(200);
    casino_bet().await.expect(404);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(an_agents_bet_lock_stops_every_bet_of_its_branch);
