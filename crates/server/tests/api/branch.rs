//! An agent's branch: accounts created where the operator says (inside a drilled-in sub-agent)
//! (issue 28, defect 1).
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
