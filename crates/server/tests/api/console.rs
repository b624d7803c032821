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
use crate::common::{Answer, TestApp};

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

/// Builds the tree. Only an admin creates agents today, so the sub-agent is created under the
/// admin and moved under the master in the database, as a master's own creation would place it.
async fn tree(app: &TestApp) -> Tree {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let (master_id, master) = app.new_user(&admin, "master", "agent").await;
    let (sub_agent_id, sub_agent) = app.new_user(&admin, "sub_agent", "agent").await;
    sqlx::query("UPDATE users SET parent_id = $1 WHERE id = $2")
        .bind(master_id)
        .bind(sub_agent_id)
        .execute(app.store().await.pool())
        .await
        .unwrap();
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

    // Not itself, not its parent, not another agent or that agent's clients.
    let admin_id = app.user_id(&t.admin, "admin").await;
    for (user_id, name) in
        [(t.master_id, "master"), (admin_id, "admin"), (t.agent_id, "agent"), (t.demo_id, "demo")]
    {
        let answer = lock(&app, &t.master, user_id, 1).await;
        answer.expect(403);
        assert!(
            answer.message().contains(&format!("{name} is not in your downline")),
            "{}",
            answer.message()
        );
    }
    // The agent below cannot reach up or sideways either.
    lock(&app, &t.sub_agent, t.master_id, 1).await.expect(403);
    lock(&app, &t.agent, t.deep_client_id, 1).await.expect(403);
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
            answer.message().contains("deep_client is not one of your clients"),
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
