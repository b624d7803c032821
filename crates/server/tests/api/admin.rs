//! Operator calls under /api/admin/… over HTTP: creating and listing users, chip transfers,
//! locking, minting, site settings, catalogue creation and the audit log — with who may call
//! each one and every error path (400, 401, 403, 404, 409, 422, 428).

use crate::both_databases;
use crate::common::{minor, Answer, TestApp};
use serde_json::{json, Value};

// Demo balances in minor units (see demo.rs): the admin minted 100,000,000.00 and gave the agent
// 20,000,000.00, of which the agent gave demo 100,000.00, demo2 50,000.00 and maker 5,000,000.00.
const ADMIN_START: i64 = 80_000_000_00;
const AGENT_START: i64 = 14_850_000_00;
const DEMO_START: i64 = 100_000_00;
const ISSUED_START: i64 = 100_000_000_00;

/// Every admin route with a body that would be acceptable to an admin.
fn admin_routes() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "POST",
            "admin/user/create",
            json!({ "user_name": "someone", "password": "First@123", "role": "client" }),
        ),
        ("POST", "admin/user/list", json!({})),
        (
            "POST",
            "admin/user/transfer",
            json!({ "user_id": 3, "amount": 1, "direction": "deposit" }),
        ),
        ("POST", "admin/user/lock", json!({ "user_id": 3, "locked": 1 })),
        ("POST", "admin/chips/mint", json!({ "amount": 1 })),
        ("POST", "admin/settings", json!({ "site_title": "Hijacked" })),
        ("POST", "admin/sport/create", json!({ "sport_id": 99999, "name": "Nope" })),
        ("POST", "admin/series/create", json!({ "sport_id": 4, "name": "Nope" })),
        (
            "POST",
            "admin/match/create",
            json!({ "series_id": 1, "name": "A v B", "open_date": "2030-01-01T00:00:00Z" }),
        ),
        (
            "POST",
            "admin/match/score",
            json!({ "match_id": 1, "result": "Mumbai Indians won by 5 runs" }),
        ),
        ("GET", "admin/ledger/check", Value::Null),
        ("POST", "admin/audit", json!({})),
    ]
}

async fn call(app: &TestApp, method: &str, path: &str, token: Option<&str>, body: Value) -> Answer {
    match method {
        "GET" => app.get(path, token).await,
        _ => app.post(path, token, body).await,
    }
}

async fn create_user(app: &TestApp, token: &str, body: Value) -> Answer {
    app.post("admin/user/create", Some(token), body).await
}

async fn transfer(
    app: &TestApp,
    token: &str,
    user_id: i64,
    amount: Value,
    direction: &str,
) -> Answer {
    app.post(
        "admin/user/transfer",
        Some(token),
        json!({ "user_id": user_id, "amount": amount, "direction": direction }),
    )
    .await
}

async fn lock(app: &TestApp, token: &str, user_id: i64, locked: i64) -> Answer {
    app.post("admin/user/lock", Some(token), json!({ "user_id": user_id, "locked": locked })).await
}

/// A user's total balance in minor units, read by logging in as them.
async fn balance_of(app: &TestApp, user_name: &str, password: &str) -> i64 {
    let token = app.login(user_name, password).await;
    app.balance_minor(&token).await
}

/// All users as the admin sees them: (user_name, row).
async fn all_users(app: &TestApp, admin: &str) -> Vec<Value> {
    let answer = app.post("admin/user/list", Some(admin), json!({ "limit": 100 })).await;
    answer.expect(200);
    answer.data()["rows"].as_array().unwrap().clone()
}

fn names(rows: &Value) -> Vec<String> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|row| row["user_name"].as_str().unwrap().to_string())
        .collect()
}

async fn global_setting(app: &TestApp) -> Value {
    let answer = app.get("globalSetting/getGlobalSetting", None).await;
    answer.expect(200);
    answer.data().clone()
}

/// A second agent under the admin with one client of its own: (agent token, client id).
async fn other_agent_with_client(app: &TestApp, admin: &str) -> (String, i64) {
    let (_, agent_b) = app.new_user(admin, "agent_b", "agent").await;
    let (client_id, _) = app.new_user(&agent_b, "client_b", "client").await;
    (agent_b, client_id)
}

// ---------------------------------------------------------------------------------------------
// admin/user/create

async fn admin_creates_an_agent_and_a_client_under_it(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;

    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "agent_two", "password": "First@123", "role": "agent" }),
    )
    .await;
    answer.expect(200);
    let agent = answer.data().clone();
    assert!(agent["user_id"].as_i64().unwrap() > 0);
    assert_eq!(agent["user_name"], "agent_two");
    assert_eq!(agent["role"], "agent");
    assert_eq!(agent["parent_id"], admin_id);
    assert_eq!(agent["is_change_password"], 1);
    assert_eq!(agent["is_locked"], 0);
    assert!(answer.message().contains("agent_two"), "{}", answer.message());

    let agent_id = agent["user_id"].as_i64().unwrap();
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "client_two", "password": "First@123", "role": "client", "parent_id": agent_id }),
    )
    .await;
    answer.expect(200);
    assert_eq!(answer.data()["user_name"], "client_two");
    assert_eq!(answer.data()["role"], "client");
    assert_eq!(answer.data()["parent_id"], agent_id);
    assert_eq!(answer.data()["is_change_password"], 1);

    // Without parent_id the admin is the parent; a new user starts with no chips.
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "client_three", "password": "First@123", "role": "client" }),
    )
    .await;
    answer.expect(200);
    assert_eq!(answer.data()["parent_id"], admin_id);
    let row = all_users(&app, &admin)
        .await
        .into_iter()
        .find(|row| row["user_name"] == "client_three")
        .unwrap();
    assert_eq!(minor(&row["balance"]), 0);
}
both_databases!(admin_creates_an_agent_and_a_client_under_it);

async fn new_user_must_change_password_before_anything_else(app: TestApp) {
    let admin = app.admin().await;
    create_user(
        &app,
        &admin,
        json!({ "user_name": "fresh", "password": "First@123", "role": "client" }),
    )
    .await
    .expect(200);

    let login = app.login_answer("fresh", "First@123").await;
    login.expect(200);
    assert_eq!(login.data()["is_change_password"], 1);
    let token = login.data()["token"].as_str().unwrap().to_string();

    let answer = app.post("sport/getSports", Some(&token), json!({})).await;
    answer.expect(428);
    assert!(answer.message().contains("password"), "{}", answer.message());

    app.post(
        "user/changePassword",
        Some(&token),
        json!({ "master_password": "First@123", "new_password": "Second@123", "confirm_password": "Second@123" }),
    )
    .await
    .expect(200);

    let answer = app.post("sport/getSports", Some(&token), json!({})).await;
    answer.expect(200);
    assert!(answer.data().as_array().unwrap().iter().any(|sport| sport["name"] == "Cricket"));
    let login = app.login_answer("fresh", "Second@123").await;
    login.expect(200);
    assert_eq!(login.data()["is_change_password"], 0);
}
both_databases!(new_user_must_change_password_before_anything_else);

async fn a_taken_user_name_in_another_case_is_409(app: TestApp) {
    let admin = app.admin().await;
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "DEMO", "password": "First@123", "role": "client" }),
    )
    .await;
    answer.expect(409);
    assert!(answer.message().contains("already taken"), "{}", answer.message());
    assert_eq!(all_users(&app, &admin).await.len(), 5);
}
both_databases!(a_taken_user_name_in_another_case_is_409);

async fn a_bad_name_or_weak_password_is_400_with_field_errors(app: TestApp) {
    let admin = app.admin().await;

    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "1 bad name", "password": "short", "role": "client" }),
    )
    .await;
    answer.expect(400);
    assert!(answer.field_error("user_name").contains("User name"), "{}", answer.body);
    assert!(answer.field_error("password").contains("at least 8"), "{}", answer.body);

    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "ab", "password": "First@123", "role": "client" }),
    )
    .await;
    answer.expect(400);
    assert!(answer.field_error("user_name").contains("3 to 20"), "{}", answer.body);

    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "goodname", "password": "lettersonly", "role": "client" }),
    )
    .await;
    answer.expect(400);
    assert!(answer.field_error("password").contains("one letter and one digit"), "{}", answer.body);
    assert_eq!(answer.field_error("user_name"), "");

    let answer =
        create_user(&app, &admin, json!({ "user_name": "goodname", "password": "First@123" }))
            .await;
    answer.expect(400);
    assert!(answer.field_error("role").contains("required"), "{}", answer.body);

    assert_eq!(all_users(&app, &admin).await.len(), 5, "nothing may be created");
}
both_databases!(a_bad_name_or_weak_password_is_400_with_field_errors);

async fn an_agent_creates_sub_agents_under_itself_but_never_an_admin(app: TestApp) {
    let agent = app.agent().await;
    let admin = app.admin().await;
    let agent_id = app.user_id(&admin, "agent").await;
    let demo_id = app.user_id(&admin, "demo").await;
    // Its own client cannot be the parent of a sub-agent.
    let answer = create_user(
        &app,
        &agent,
        json!({ "user_name": "subagent", "password": "First@123", "role": "agent", "parent_id": demo_id }),
    )
    .await;
    answer.expect(400);
    assert!(answer.field_error("parent_id").contains("the client demo"), "{}", answer.body);
    let answer = create_user(
        &app,
        &agent,
        json!({ "user_name": "subagent", "password": "First@123", "role": "agent" }),
    )
    .await;
    answer.expect(200);
    assert_eq!(answer.data()["parent_id"], agent_id);
    let answer = create_user(
        &app,
        &agent,
        json!({ "user_name": "subadmin", "password": "First@123", "role": "admin" }),
    )
    .await;
    answer.expect(403);
    assert_eq!(all_users(&app, &admin).await.len(), 6);
}
both_databases!(an_agent_creates_sub_agents_under_itself_but_never_an_admin);

async fn an_agent_creates_clients_under_itself_only(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    let agent_id = app.user_id(&admin, "agent").await;
    let agent = app.agent().await;

    let answer = create_user(
        &app,
        &agent,
        json!({ "user_name": "agents_own", "password": "First@123", "role": "client" }),
    )
    .await;
    answer.expect(200);
    assert_eq!(answer.data()["parent_id"], agent_id);
    assert_eq!(answer.data()["role"], "client");

    // A parent_id outside its downline (its own parent, or nobody) is the same 404, and
    // creates nobody.
    let before = all_users(&app, &admin).await.len();
    for parent_id in [admin_id, 999_999] {
        let answer = create_user(
            &app,
            &agent,
            json!({ "user_name": "agents_other", "password": "First@123", "role": "client", "parent_id": parent_id }),
        )
        .await;
        answer.expect(404);
        assert_eq!(answer.message(), "No such account in your downline.");
    }
    assert_eq!(all_users(&app, &admin).await.len(), before);
}
both_databases!(an_agent_creates_clients_under_itself_only);

async fn a_client_token_is_403_on_every_admin_route(app: TestApp) {
    let demo = app.demo().await;
    for (method, path, body) in admin_routes() {
        let answer = call(&app, method, path, Some(&demo), body).await;
        assert_eq!(answer.status.as_u16(), 403, "{path}: {}", answer.body);
        answer.expect(403);
        assert!(answer.message().contains("operator"), "{path}: {}", answer.message());
    }
    // Nothing happened: demo is not locked and still holds its chips, the title is unchanged.
    assert_eq!(app.balance_minor(&demo).await, DEMO_START);
    assert_eq!(global_setting(&app).await["site_title"], "Backlay");
}
both_databases!(a_client_token_is_403_on_every_admin_route);

async fn no_token_is_401_on_every_admin_route(app: TestApp) {
    for (method, path, body) in admin_routes() {
        let answer = call(&app, method, path, None, body).await;
        assert_eq!(answer.status.as_u16(), 401, "{path}: {}", answer.body);
        answer.expect(401);
    }
    let answer = app.post("admin/user/list", Some("not-a-real-token"), json!({})).await;
    answer.expect(401);
}
both_databases!(no_token_is_401_on_every_admin_route);

async fn an_admin_cannot_create_an_admin(app: TestApp) {
    let admin = app.admin().await;
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "admin_two", "password": "First@123", "role": "admin" }),
    )
    .await;
    answer.expect(422);
    assert!(answer.message().contains("console"), "{}", answer.message());
    assert_eq!(all_users(&app, &admin).await.len(), 5);
}
both_databases!(an_admin_cannot_create_an_admin);

async fn an_unknown_role_is_400(app: TestApp) {
    let admin = app.admin().await;
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "bossman", "password": "First@123", "role": "boss" }),
    )
    .await;
    answer.expect(400);
    assert!(answer.field_error("role").contains("boss"), "{}", answer.body);
}
both_databases!(an_unknown_role_is_400);

async fn a_client_or_agent_cannot_be_the_wrong_parent(app: TestApp) {
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;

    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "under_client", "password": "First@123", "role": "client", "parent_id": demo_id }),
    )
    .await;
    answer.expect(400);
    assert!(
        answer.field_error("parent_id").contains("cannot be placed under the client demo"),
        "{}",
        answer.body
    );

    // An agent goes under an admin or an agent, never a client.
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "under_client_agent", "password": "First@123", "role": "agent", "parent_id": demo_id }),
    )
    .await;
    answer.expect(400);
    assert!(
        answer.field_error("parent_id").contains("An agent cannot be placed under the client demo"),
        "{}",
        answer.body
    );
    assert_eq!(all_users(&app, &admin).await.len(), 5);
}
both_databases!(a_client_or_agent_cannot_be_the_wrong_parent);

async fn an_unknown_parent_is_404(app: TestApp) {
    let admin = app.admin().await;
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "orphan", "password": "First@123", "role": "client", "parent_id": 999_999 }),
    )
    .await;
    answer.expect(404);
    assert!(answer.message().contains("999999"), "{}", answer.message());
    assert_eq!(all_users(&app, &admin).await.len(), 5);
}
both_databases!(an_unknown_parent_is_404);

// ---------------------------------------------------------------------------------------------
// admin/user/list

async fn admin_lists_every_user_and_filters_by_parent(app: TestApp) {
    let admin = app.admin().await;
    let answer = app.post("admin/user/list", Some(&admin), json!({ "limit": 100 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 5);
    assert_eq!(answer.data()["page"], 1);
    assert_eq!(answer.data()["limit"], 100);
    assert_eq!(names(&answer.data()["rows"]), ["admin", "agent", "demo", "demo2", "maker"]);
    let rows = answer.data()["rows"].as_array().unwrap();
    let balances: Vec<i64> = rows.iter().map(|row| minor(&row["balance"])).collect();
    assert_eq!(balances, [ADMIN_START, AGENT_START, DEMO_START, 50_000_00, 5_000_000_00]);
    assert_eq!(rows[0]["parent_id"], -1);
    assert_eq!(rows[0]["role"], "admin");

    let agent_id = app.user_id(&admin, "agent").await;
    let answer = app.post("admin/user/list", Some(&admin), json!({ "parent_id": agent_id })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 3);
    assert_eq!(names(&answer.data()["rows"]), ["demo", "demo2", "maker"]);
    assert!(answer.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|row| row["parent_id"] == agent_id));
}
both_databases!(admin_lists_every_user_and_filters_by_parent);

async fn an_agent_lists_only_its_own_clients(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    other_agent_with_client(&app, &admin).await;
    let agent = app.agent().await;

    for body in [
        json!({}),
        json!({ "parent_id": admin_id }),
        json!({ "parent_id": app.user_id(&admin, "agent_b").await }),
    ] {
        let answer = app.post("admin/user/list", Some(&agent), body.clone()).await;
        answer.expect(200);
        assert_eq!(answer.data()["total"], 3, "{body}: {}", answer.body);
        assert_eq!(names(&answer.data()["rows"]), ["demo", "demo2", "maker"], "{body}");
    }
}
both_databases!(an_agent_lists_only_its_own_clients);

async fn the_user_list_pages(app: TestApp) {
    let admin = app.admin().await;
    let answer = app.post("admin/user/list", Some(&admin), json!({ "limit": 2, "page": 2 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 5);
    assert_eq!(answer.data()["page"], 2);
    assert_eq!(answer.data()["limit"], 2);
    assert_eq!(names(&answer.data()["rows"]), ["demo", "demo2"]);

    let answer =
        app.post("admin/user/list", Some(&admin), json!({ "limit": "2", "page": "3" })).await;
    answer.expect(200);
    assert_eq!(names(&answer.data()["rows"]), ["maker"]);

    let answer = app.post("admin/user/list", Some(&admin), json!({ "limit": 2, "page": 4 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 5);
    assert!(answer.data()["rows"].as_array().unwrap().is_empty());
}
both_databases!(the_user_list_pages);

async fn the_user_list_refuses_a_bad_limit_or_page(app: TestApp) {
    let admin = app.admin().await;
    for limit in [0, 1000, -1] {
        let answer = app.post("admin/user/list", Some(&admin), json!({ "limit": limit })).await;
        answer.expect(400);
        assert!(
            answer.field_error("limit").contains("between 1 and 100"),
            "{limit}: {}",
            answer.body
        );
    }
    let answer = app.post("admin/user/list", Some(&admin), json!({ "page": 0 })).await;
    answer.expect(400);
    assert!(answer.field_error("page").contains("1 or more"), "{}", answer.body);
    // A wrong type is a 400 naming the field and the value.
    let answer = app.post("admin/user/list", Some(&admin), json!({ "limit": "many" })).await;
    answer.expect(400);
    assert!(
        answer.field_error("limit").contains("\"many\" is not a whole number"),
        "{}",
        answer.body
    );
    let answer = app.post("admin/audit", Some(&admin), json!({ "limit": "many" })).await;
    answer.expect(400);
    assert!(answer.field_error("limit").contains("not a whole number"), "{}", answer.body);
}
both_databases!(the_user_list_refuses_a_bad_limit_or_page);

// ---------------------------------------------------------------------------------------------
// admin/user/transfer

async fn a_deposit_moves_exactly_the_amount_from_parent_to_user(app: TestApp) {
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let agent = app.agent().await;

    let answer = transfer(&app, &agent, demo_id, json!(1234.56), "deposit").await;
    answer.expect(200);
    assert!(answer.data()["transaction_id"].as_i64().unwrap() > 0);
    assert_eq!(minor(&answer.data()["user_balance"]), DEMO_START + 1234_56);
    assert_eq!(minor(&answer.data()["parent_balance"]), AGENT_START - 1234_56);
    assert_eq!(balance_of(&app, "demo", "Demo@1234").await, DEMO_START + 1234_56);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START - 1234_56);

    // An admin may move chips between any user and their parent; a string amount is accepted.
    let answer = transfer(&app, &admin, demo_id, json!("0.44"), "deposit").await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["user_balance"]), DEMO_START + 1235_00);
    assert_eq!(minor(&answer.data()["parent_balance"]), AGENT_START - 1235_00);
    assert_eq!(balance_of(&app, "demo", "Demo@1234").await, DEMO_START + 1235_00);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START - 1235_00);
    assert_eq!(app.balance_minor(&admin).await, ADMIN_START, "the admin is not a party");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_deposit_moves_exactly_the_amount_from_parent_to_user);

async fn a_withdrawal_moves_exactly_the_amount_from_user_to_parent(app: TestApp) {
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let agent_id = app.user_id(&admin, "agent").await;
    let agent = app.agent().await;

    let answer = transfer(&app, &agent, demo_id, json!(250.25), "withdraw").await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["user_balance"]), DEMO_START - 250_25);
    assert_eq!(minor(&answer.data()["parent_balance"]), AGENT_START + 250_25);
    assert_eq!(balance_of(&app, "demo", "Demo@1234").await, DEMO_START - 250_25);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START + 250_25);

    // The admin withdraws from the agent: chips go back to the admin.
    let answer = transfer(&app, &admin, agent_id, json!(10), "withdraw").await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["user_balance"]), AGENT_START + 240_25);
    assert_eq!(minor(&answer.data()["parent_balance"]), ADMIN_START + 10_00);
    assert_eq!(app.balance_minor(&admin).await, ADMIN_START + 10_00);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_withdrawal_moves_exactly_the_amount_from_user_to_parent);

async fn an_agent_cannot_transfer_for_someone_elses_client(app: TestApp) {
    let admin = app.admin().await;
    let agent_id = app.user_id(&admin, "agent").await;
    // A client directly under the admin, and one under a second agent.
    let answer = create_user(
        &app,
        &admin,
        json!({ "user_name": "admins_client", "password": "First@123", "role": "client" }),
    )
    .await;
    answer.expect(200);
    let orphan = answer.data()["user_id"].as_i64().unwrap();
    let (_, client_b) = other_agent_with_client(&app, &admin).await;
    let agent = app.agent().await;

    // Outside its downline: as if there were no such account. Itself: not its own to fund.
    for user_id in [orphan, client_b, 999_999] {
        for direction in ["deposit", "withdraw"] {
            let answer = transfer(&app, &agent, user_id, json!(1), direction).await;
            answer.expect(404);
            assert_eq!(answer.message(), "No such account in your downline.");
        }
    }
    let answer = transfer(&app, &agent, agent_id, json!(1), "deposit").await;
    answer.expect(403);
    assert!(answer.message().contains("your own account"), "{}", answer.message());
    assert_eq!(app.balance_minor(&agent).await, AGENT_START);
    assert_eq!(app.balance_minor(&admin).await, ADMIN_START);
    let rows = all_users(&app, &admin).await;
    assert!(rows
        .iter()
        .filter(|row| row["user_name"] == "admins_client" || row["user_name"] == "client_b")
        .all(|row| minor(&row["balance"]) == 0));
}
both_databases!(an_agent_cannot_transfer_for_someone_elses_client);

async fn withdrawing_more_than_available_is_422_and_moves_nothing(app: TestApp) {
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let agent = app.agent().await;

    let answer = transfer(&app, &agent, demo_id, json!(100000.01), "withdraw").await;
    answer.expect(422);
    assert!(
        answer.message().contains("demo has only ₹1,00,000.00 available"),
        "{}",
        answer.message()
    );

    // Likewise a deposit beyond what the parent holds.
    let answer = transfer(&app, &agent, demo_id, json!(14850000.01), "deposit").await;
    answer.expect(422);
    assert!(
        answer.message().contains("agent has only ₹1,48,50,000.00 available"),
        "{}",
        answer.message()
    );

    assert_eq!(balance_of(&app, "demo", "Demo@1234").await, DEMO_START);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START);

    // Exactly everything is fine.
    let answer = transfer(&app, &agent, demo_id, json!(100000), "withdraw").await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["user_balance"]), 0);
    assert_eq!(minor(&answer.data()["parent_balance"]), AGENT_START + DEMO_START);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(withdrawing_more_than_available_is_422_and_moves_nothing);

async fn a_bad_amount_is_400(app: TestApp) {
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let agent = app.agent().await;

    for amount in [
        json!(0),
        json!(-5),
        json!(10.005),
        json!("abc"),
        json!(1e18),
        json!("1e18"),
        json!(true),
        json!(null),
    ] {
        let answer = transfer(&app, &agent, demo_id, amount.clone(), "deposit").await;
        answer.expect(400);
        assert!(!answer.field_error("amount").is_empty(), "{amount}: {}", answer.body);
    }
    let answer = transfer(&app, &agent, demo_id, json!(0), "withdraw").await;
    answer.expect(400);
    assert!(answer.field_error("amount").contains("more than 0"), "{}", answer.body);
    // The body text 1e18 is sent verbatim (serde_json would print 1e18 as 1e18).
    let answer = app
        .post_raw(
            "admin/user/transfer",
            Some(&agent),
            format!(
                r#"{{"user_id": {demo_id}, "amount": 1000000000000000000, "direction": "deposit"}}"#
            ),
        )
        .await;
    answer.expect(400);
    assert!(!answer.field_error("amount").is_empty(), "{}", answer.body);

    let answer = transfer(&app, &agent, demo_id, json!(5), "sideways").await;
    answer.expect(400);
    assert!(!answer.field_error("direction").is_empty(), "{}", answer.body);

    assert_eq!(balance_of(&app, "demo", "Demo@1234").await, DEMO_START);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START);
}
both_databases!(a_bad_amount_is_400);

async fn a_transfer_to_an_unknown_user_is_404(app: TestApp) {
    let admin = app.admin().await;
    let answer = transfer(&app, &admin, 999_999, json!(5), "deposit").await;
    answer.expect(404);
    assert!(answer.message().contains("999999"), "{}", answer.message());
    assert_eq!(app.balance_minor(&admin).await, ADMIN_START);
}
both_databases!(a_transfer_to_an_unknown_user_is_404);

async fn a_transfer_for_a_user_without_parent_is_409(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    for direction in ["deposit", "withdraw"] {
        let answer = transfer(&app, &admin, admin_id, json!(5), direction).await;
        answer.expect(409);
        assert!(answer.message().contains("no parent"), "{}", answer.message());
    }
    assert_eq!(app.balance_minor(&admin).await, ADMIN_START);
}
both_databases!(a_transfer_for_a_user_without_parent_is_409);

// ---------------------------------------------------------------------------------------------
// admin/user/lock

async fn locking_ends_the_session_and_refuses_log_in_until_unlocked(app: TestApp) {
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let agent = app.agent().await;
    let demo = app.demo().await;
    assert_eq!(app.balance_minor(&demo).await, DEMO_START);

    let answer = lock(&app, &agent, demo_id, 1).await;
    answer.expect(200);
    assert_eq!(answer.data()["is_locked"], 1);
    assert_eq!(answer.data()["user_id"], demo_id);
    assert!(answer.message().contains("locked"), "{}", answer.message());

    let answer = app.get("user/getUserBalance", Some(&demo)).await;
    answer.expect(401);
    // 422, not 403: the client app would end whatever session it holds on a 403 and swallow
    // the message (spec §8); a log-in refusal is shown on the log-in page.
    let answer = app.login_answer("demo", "Demo@1234").await;
    answer.expect(422);
    assert_eq!(answer.message(), "This account is locked. Contact your agent.");
    // A wrong password is still just a wrong password.
    app.login_answer("demo", "Wrong@1234").await.expect(400);

    let answer = lock(&app, &agent, demo_id, 0).await;
    answer.expect(200);
    assert_eq!(answer.data()["is_locked"], 0);
    assert!(answer.message().contains("unlocked"), "{}", answer.message());
    let fresh = app.demo().await;
    assert_eq!(app.balance_minor(&fresh).await, DEMO_START);
    // Unlocking does not revive the session that locking ended.
    app.get("user/getUserBalance", Some(&demo)).await.expect(401);
}
both_databases!(locking_ends_the_session_and_refuses_log_in_until_unlocked);

async fn an_agent_cannot_lock_someone_elses_client(app: TestApp) {
    let admin = app.admin().await;
    let (_, client_b) = other_agent_with_client(&app, &admin).await;
    let admin_id = app.user_id(&admin, "admin").await;
    let agent = app.agent().await;

    // Another agent's client, the agent's own parent and an id nobody has: one answer, which
    // says nothing of whether the account exists.
    for user_id in [client_b, admin_id, 999_999] {
        let answer = lock(&app, &agent, user_id, 1).await;
        answer.expect(404);
        assert_eq!(answer.message(), "No such account in your downline.");
    }
    // client_b can still log in, and so can the admin.
    app.login("client_b", "Second@123").await;
    app.admin().await;
}
both_databases!(an_agent_cannot_lock_someone_elses_client);

async fn an_admin_cannot_lock_itself(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    let answer = lock(&app, &admin, admin_id, 1).await;
    answer.expect(409);
    assert!(answer.message().contains("yourself"), "{}", answer.message());
    // Still logged in.
    app.post("admin/user/list", Some(&admin), json!({})).await.expect(200);
}
both_databases!(an_admin_cannot_lock_itself);

// ---------------------------------------------------------------------------------------------
// admin/chips/mint

async fn an_admin_mints_exactly_the_amount(app: TestApp) {
    let admin = app.admin().await;
    let answer = app.post("admin/chips/mint", Some(&admin), json!({ "amount": 12345.67 })).await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["balance"]), ADMIN_START + 12345_67);
    assert_eq!(app.balance_minor(&admin).await, ADMIN_START + 12345_67);

    let check = app.get("admin/ledger/check", Some(&admin)).await;
    check.expect(200);
    assert_eq!(minor(&check.data()["chips_issued"]), ISSUED_START + 12345_67);
    app.assert_ledger_sound(&admin).await;

    let answer = app.post("admin/chips/mint", Some(&admin), json!({ "amount": 0 })).await;
    answer.expect(400);
    assert!(answer.field_error("amount").contains("more than 0"), "{}", answer.body);
    assert_eq!(app.balance_minor(&admin).await, ADMIN_START + 12345_67);
}
both_databases!(an_admin_mints_exactly_the_amount);

async fn an_agent_cannot_mint(app: TestApp) {
    let agent = app.agent().await;
    let answer = app.post("admin/chips/mint", Some(&agent), json!({ "amount": 100 })).await;
    answer.expect(403);
    assert!(answer.message().contains("issue chips"), "{}", answer.message());
    assert_eq!(app.balance_minor(&agent).await, AGENT_START);
}
both_databases!(an_agent_cannot_mint);

// ---------------------------------------------------------------------------------------------
// admin/settings

async fn saved_settings_show_in_the_public_global_setting(app: TestApp) {
    let admin = app.admin().await;
    let before = global_setting(&app).await;
    assert_eq!(before["site_title"], "Backlay");
    assert_eq!(before["payment_gateway"], 1);

    let answer = app
        .post("admin/settings", Some(&admin), json!({ "site_title": "  Exchange Two ", "payment_gateway": 0, "bg_primary_color": "#ABCDEF" }))
        .await;
    answer.expect(200);
    assert!(answer.message().contains("saved"), "{}", answer.message());

    let after = global_setting(&app).await;
    assert_eq!(after["site_title"], "Exchange Two");
    assert_eq!(after["payment_gateway"], 0);
    assert_eq!(after["bg_primary_color"], "#abcdef");
    assert_eq!(after["site_message"], before["site_message"], "keys not sent stay");
    // The audit log keeps each changed key before and after.
    let audit = app.post("admin/audit", Some(&admin), json!({ "action": "settings.update" })).await;
    audit.expect(200);
    let detail = &audit.data()["rows"][0]["detail"];
    assert_eq!(
        detail["site_title"],
        json!({ "before": "Backlay", "after": "Exchange Two" }),
        "{detail}"
    );
    assert_eq!(detail["payment_gateway"], json!({ "before": "1", "after": "0" }), "{detail}");
}
both_databases!(saved_settings_show_in_the_public_global_setting);

async fn an_invalid_setting_is_400_and_nothing_is_saved(app: TestApp) {
    let admin = app.admin().await;
    let cases = [
        ("bg_primary_color", json!("red"), "colour"),
        ("no_such_key", json!("1"), "is not a setting"),
        ("payment_gateway", json!(2), "0 or 1"),
        ("site_message", json!({ "nested": true }), "text or a number"),
    ];
    for (key, value, expected) in cases {
        let mut body = json!({ "site_title": "Should Not Stick" });
        body[key] = value;
        let answer = app.post("admin/settings", Some(&admin), body).await;
        answer.expect(400);
        assert!(answer.field_error(key).contains(expected), "{key}: {}", answer.body);
        let now = global_setting(&app).await;
        assert_eq!(
            now["site_title"], "Backlay",
            "{key}: the valid key in the same request must not be saved"
        );
        assert_eq!(now["payment_gateway"], 1);
        assert_eq!(now["bg_primary_color"], "#0b3d2e");
    }
    let answer = app.post("admin/settings", Some(&admin), json!({ "site_title": "   " })).await;
    answer.expect(400);
    assert!(answer.field_error("site_title").contains("cannot be empty"), "{}", answer.body);
    let answer = app.post("admin/settings", Some(&admin), json!({})).await;
    answer.expect(400);
    assert!(answer.message().contains("at least one"), "{}", answer.message());
    assert_eq!(global_setting(&app).await["site_title"], "Backlay");
}
both_databases!(an_invalid_setting_is_400_and_nothing_is_saved);

async fn an_agent_cannot_change_settings(app: TestApp) {
    let agent = app.agent().await;
    let answer =
        app.post("admin/settings", Some(&agent), json!({ "site_title": "Agent Site" })).await;
    answer.expect(403);
    assert!(answer.message().contains("site settings"), "{}", answer.message());
    assert_eq!(global_setting(&app).await["site_title"], "Backlay");
}
both_databases!(an_agent_cannot_change_settings);

async fn settings_read_back(app: &TestApp, token: &str) -> Value {
    let answer = app.get("admin/settings", Some(token)).await;
    answer.expect(200);
    answer.data().clone()
}

async fn an_admin_reads_every_setting_back_and_no_one_else_does(app: TestApp) {
    let admin = app.admin().await;
    let before = settings_read_back(&app, &admin).await;
    // What the demo set, and the defaults of what it did not.
    assert_eq!(before["site_title"], "Backlay");
    assert_eq!(before["payment_gateway"], 1);
    assert_eq!(before["signup_enabled"], 1);
    assert_eq!(before["default_parent"], "agent");
    assert_eq!(before["agent_levels"], 3);
    assert_eq!(before["apk_url"], "");
    assert_eq!(
        before["casino_frame_origins"], "",
        "the operator's own list, not the server's origin"
    );
    assert_eq!(before["default_buttons_game"].as_array().unwrap().len(), 8);
    assert_eq!(
        before["default_buttons_game"][2],
        json!({ "button_name": "1k", "button_value": 1000.0 })
    );
    assert_eq!(before["default_buttons_casino"].as_array().unwrap().len(), 6);

    app.post(
        "admin/settings",
        Some(&admin),
        json!({ "signup_enabled": 0, "agent_levels": "5", "is_show_apk": true, "casino_frame_origins": "https://games.example.com" }),
    )
    .await
    .expect(200);
    let after = settings_read_back(&app, &admin).await;
    assert_eq!(after["signup_enabled"], 0);
    assert_eq!(after["agent_levels"], 5);
    assert_eq!(after["is_show_apk"], 1);
    assert_eq!(after["casino_frame_origins"], "https://games.example.com");
    assert_eq!(after["site_title"], before["site_title"]);

    let agent = app.agent().await;
    let refused = app.get("admin/settings", Some(&agent)).await;
    refused.expect(403);
    assert!(refused.message().contains("site settings"), "{}", refused.message());
    assert!(refused.body["data"].is_null(), "{}", refused.body);
    let client = app.demo().await;
    app.get("admin/settings", Some(&client)).await.expect(403);
    app.get("admin/settings", None).await.expect(401);
}
both_databases!(an_admin_reads_every_setting_back_and_no_one_else_does);

async fn the_app_link_is_an_https_address_shown_in_the_public_setting(app: TestApp) {
    let admin = app.admin().await;
    assert_eq!(global_setting(&app).await["apk_url"], "");
    for bad in [
        "http://cdn.example.com/app.apk",
        "ftp://x.com/a.apk",
        "https://cdn.example.com/my app.apk",
        "javascript:alert(1)",
    ] {
        let answer = app
            .post("admin/settings", Some(&admin), json!({ "apk_url": bad, "is_show_apk": 1 }))
            .await;
        answer.expect(400);
        assert!(
            answer.field_error("apk_url").contains("https:// address"),
            "{bad}: {}",
            answer.body
        );
    }
    assert_eq!(global_setting(&app).await["is_show_apk"], 0, "nothing saved with a bad link");
    let link = "https://cdn.example.com/backlay.apk";
    app.post(
        "admin/settings",
        Some(&admin),
        json!({ "apk_url": format!(" {link} "), "is_show_apk": 1 }),
    )
    .await
    .expect(200);
    let public = global_setting(&app).await;
    assert_eq!(public["apk_url"], link);
    assert_eq!(public["is_show_apk"], 1);
    // Emptied, the link goes.
    app.post("admin/settings", Some(&admin), json!({ "apk_url": "" })).await.expect(200);
    assert_eq!(global_setting(&app).await["apk_url"], "");
}
both_databases!(the_app_link_is_an_https_address_shown_in_the_public_setting);

async fn sign_ups_go_only_under_an_agent_or_admin(app: TestApp) {
    let admin = app.admin().await;
    let signup = |name: &str| json!({ "user_name": name, "password": "Signup@123", "confirm_password": "Signup@123", "dial_code": "+91", "mobile": "9876543210" });
    for (name, why) in
        [("demo", "a client"), ("nobody_here", "nobody"), ("not a name!", "no user name")]
    {
        let answer =
            app.post("admin/settings", Some(&admin), json!({ "default_parent": name })).await;
        answer.expect(400);
        assert!(
            answer.field_error("default_parent").contains("no agent or admin is called"),
            "{why}: {}",
            answer.body
        );
    }
    assert_eq!(settings_read_back(&app, &admin).await["default_parent"], "agent");
    let (agent2_id, _) = app.new_user(&admin, "agent_two", "agent").await;
    // Any case finds the account; its own spelling is kept.
    app.post("admin/settings", Some(&admin), json!({ "default_parent": "AGENT_Two" }))
        .await
        .expect(200);
    assert_eq!(settings_read_back(&app, &admin).await["default_parent"], "agent_two");
    let answer = app.post("user/signup", None, signup("joiner_one")).await;
    answer.expect(200);
    assert_eq!(answer.data()["parent_id"], agent2_id);

    // A client's name stored before this rule (straight in the database) takes no sign-ups.
    let store = app.store().await;
    let mut writer = store.begin_write().await.unwrap();
    writer.set_setting("default_parent", "demo", 0).await.unwrap();
    writer.commit().await.unwrap();
    let answer = app.post("user/signup", None, signup("joiner_two")).await;
    answer.expect(200);
    assert_eq!(answer.data()["parent_id"], -1, "{}", answer.body);
    // Emptied: sign-ups have no parent.
    app.post("admin/settings", Some(&admin), json!({ "default_parent": "" })).await.expect(200);
    assert_eq!(settings_read_back(&app, &admin).await["default_parent"], "");
}
both_databases!(sign_ups_go_only_under_an_agent_or_admin);

async fn the_operators_default_buttons_reach_users_who_never_set_their_own(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    // demo keeps a Game list of its own.
    let demo = app.demo().await;
    app.post(
        "user/setButtonValue",
        Some(&demo),
        json!([{ "button_name": "own", "button_value": 7, "type": "Game" }]),
    )
    .await
    .expect(200);

    let bad = app
        .post(
            "admin/settings",
            Some(&admin),
            json!({
                "default_buttons_game": [
                    { "button_name": "ok", "button_value": 10 },
                    { "button_name": "", "button_value": 10 },
                    { "button_name": "zero", "button_value": 0 },
                    { "button_name": "toolonglabel", "button_value": "1.005" },
                    { "button_name": "huge", "button_value": 100_000_001 }
                ],
                "default_buttons_casino": [],
                "site_title": "Not Saved"
            }),
        )
        .await;
    bad.expect(400);
    assert_eq!(bad.field_error("default_buttons_game[1].button_name"), "Label is required.");
    assert_eq!(
        bad.field_error("default_buttons_game[2].button_value"),
        "Value must be more than 0."
    );
    assert!(
        bad.field_error("default_buttons_game[3].button_name").contains("at most 10"),
        "{}",
        bad.body
    );
    assert!(
        bad.field_error("default_buttons_game[3].button_value").contains("2 decimal"),
        "{}",
        bad.body
    );
    assert!(
        bad.field_error("default_buttons_game[4].button_value").contains("at most 100000000.00"),
        "{}",
        bad.body
    );
    assert!(
        bad.field_error("default_buttons_casino").contains("at least one Casino button"),
        "{}",
        bad.body
    );
    let too_many: Vec<Value> =
        (0..21).map(|i| json!({ "button_name": format!("b{i}"), "button_value": 1 + i })).collect();
    let answer =
        app.post("admin/settings", Some(&admin), json!({ "default_buttons_game": too_many })).await;
    answer.expect(400);
    assert!(
        answer.field_error("default_buttons_game").contains("At most 20 Game buttons"),
        "{}",
        answer.body
    );
    assert_eq!(global_setting(&app).await["site_title"], "Backlay");

    app.post(
        "admin/settings",
        Some(&admin),
        json!({ "default_buttons_game": [{ "button_name": " 2k ", "button_value": 2000 }, { "name": "7.5k", "value": "7500.50" }] }),
    )
    .await
    .expect(200);
    let read_back = settings_read_back(&app, &admin).await;
    assert_eq!(
        read_back["default_buttons_game"],
        json!([{ "button_name": "2k", "button_value": 2000.0 }, { "button_name": "7.5k", "button_value": 7500.5 }])
    );
    assert_eq!(
        read_back["default_buttons_casino"].as_array().unwrap().len(),
        6,
        "Casino not sent, so unchanged"
    );

    let (_, newcomer) = app.new_user(&agent, "newcomer", "client").await;
    let answer = app.get("user/getButtonValue", Some(&newcomer)).await;
    answer.expect(200);
    let list: Vec<Value> = serde_json::from_str(answer.data().as_str().unwrap()).unwrap();
    let game: Vec<(String, i64)> = list
        .iter()
        .filter(|b| b["type"] == "Game")
        .map(|b| (b["button_name"].as_str().unwrap().to_string(), minor(&b["button_value"])))
        .collect();
    assert_eq!(game, vec![("2k".into(), 2_000_00), ("7.5k".into(), 7_500_50)]);
    assert_eq!(list.iter().filter(|b| b["type"] == "Casino").count(), 6);
    // A user's own list stays theirs.
    let answer = app.get("user/getButtonValue", Some(&demo)).await;
    let list: Vec<Value> = serde_json::from_str(answer.data().as_str().unwrap()).unwrap();
    let game: Vec<&Value> = list.iter().filter(|b| b["type"] == "Game").collect();
    assert_eq!(game.len(), 1);
    assert_eq!(game[0]["button_name"], "own");

    // The audit log has the list before and after.
    let audit = app.post("admin/audit", Some(&admin), json!({ "action": "settings.update" })).await;
    audit.expect(200);
    let detail = &audit.data()["rows"][0]["detail"]["default_buttons_game"];
    let before: Vec<Value> = serde_json::from_str(detail["before"].as_str().unwrap()).unwrap();
    let after: Vec<Value> = serde_json::from_str(detail["after"].as_str().unwrap()).unwrap();
    assert_eq!(before.len(), 8, "{detail}");
    assert_eq!(before[0]["button_name"], "100");
    assert_eq!(
        after,
        vec![
            json!({ "button_name": "2k", "button_value": 2000.0 }),
            json!({ "button_name": "7.5k", "button_value": 7500.5 })
        ]
    );
}
both_databases!(the_operators_default_buttons_reach_users_who_never_set_their_own);

async fn each_new_setting_is_audited_before_and_after(app: TestApp) {
    let admin = app.admin().await;
    app.post(
        "admin/settings",
        Some(&admin),
        json!({ "apk_url": "https://cdn.example.com/a.apk", "default_parent": "ADMIN", "signup_enabled": 0 }),
    )
    .await
    .expect(200);
    let audit = app.post("admin/audit", Some(&admin), json!({ "action": "settings.update" })).await;
    audit.expect(200);
    let row = &audit.data()["rows"][0];
    assert_eq!(row["actor_user_id"], app.user_id(&admin, "admin").await, "{row}");
    let detail = &row["detail"];
    assert_eq!(
        detail["apk_url"],
        json!({ "before": "", "after": "https://cdn.example.com/a.apk" }),
        "{detail}"
    );
    assert_eq!(
        detail["default_parent"],
        json!({ "before": "agent", "after": "admin" }),
        "{detail}"
    );
    assert_eq!(detail["signup_enabled"], json!({ "before": "1", "after": "0" }), "{detail}");
    assert_eq!(detail.as_object().unwrap().len(), 3, "only the keys sent: {detail}");
}
both_databases!(each_new_setting_is_audited_before_and_after);

// ---------------------------------------------------------------------------------------------
// admin/sport/create, admin/series/create, admin/match/create

async fn an_admin_creates_a_sport_a_featured_series_and_a_match(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;

    let answer = app
        .post(
            "admin/sport/create",
            Some(&admin),
            json!({ "sport_id": 99999, "name": "Kabaddi", "order": 12 }),
        )
        .await;
    answer.expect(200);
    assert_eq!(answer.data()["id"], 99999);
    let sports = app.post("sport/getSports", Some(&demo), json!({})).await;
    sports.expect(200);
    let sport = sports
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sport_id"] == 99999)
        .cloned()
        .expect("new sport listed");
    assert_eq!(sport["name"], "Kabaddi");
    assert_eq!(sport["order"], 12);
    assert_eq!(sport["is_active"], 1);

    let answer = app
        .post(
            "admin/series/create",
            Some(&admin),
            json!({ "sport_id": 99999, "name": "Pro Kabaddi Cup", "is_featured": 1 }),
        )
        .await;
    answer.expect(200);
    let series_id = answer.data()["id"].as_i64().unwrap();
    let cups = app.get("match/getCupsForMenu", Some(&demo)).await;
    cups.expect(200);
    assert!(
        cups.data().as_array().unwrap().contains(
            &json!({ "series_id": series_id, "name": "Pro Kabaddi Cup", "sport_id": 99999 })
        ),
        "{}",
        cups.body
    );

    // A series that is not featured stays out of the menu.
    let answer = app
        .post(
            "admin/series/create",
            Some(&admin),
            json!({ "sport_id": 99999, "name": "Village League" }),
        )
        .await;
    answer.expect(200);
    let plain_id = answer.data()["id"].as_i64().unwrap();
    let cups = app.get("match/getCupsForMenu", Some(&demo)).await;
    assert!(!cups.data().as_array().unwrap().iter().any(|c| c["series_id"] == plain_id));

    let answer = app
        .post("admin/match/create", Some(&admin), json!({ "series_id": series_id, "name": "Patna Pirates v Bengal Warriors", "open_date": "2030-05-06T07:08:09Z" }))
        .await;
    answer.expect(200);
    let match_id = answer.data()["id"].as_i64().unwrap();
    // The same instant written at +05:30 is stored as the same UTC time.
    let answer = app
        .post("admin/match/create", Some(&admin), json!({ "series_id": series_id, "name": "Jaipur v Puneri", "open_date": "2030-05-06T15:38:09.5+05:30" }))
        .await;
    answer.expect(200);
    let second_id = answer.data()["id"].as_i64().unwrap();

    let matches =
        app.post("match/getMatches", Some(&demo), json!({ "series_id": series_id })).await;
    matches.expect(200);
    let list = matches.data().as_array().unwrap();
    assert_eq!(list.len(), 2, "{}", matches.body);
    assert_eq!(list[0]["match_id"], match_id);
    assert_eq!(list[0]["match_name"], "Patna Pirates v Bengal Warriors");
    assert_eq!(list[0]["open_date"], "2030-05-06T07:08:09.000Z");
    assert_eq!(list[0]["match_Date"], "2030-05-06T07:08:09.000Z");
    assert_eq!(list[0]["sport_id"], 99999);
    assert_eq!(list[0]["sport_name"], "Kabaddi");
    assert_eq!(list[0]["series_name"], "Pro Kabaddi Cup");
    assert_eq!(list[0]["in_play"], false);
    assert_eq!(list[1]["match_id"], second_id);
    assert_eq!(list[1]["open_date"], "2030-05-06T10:08:09.500Z");

    let found = app
        .post("match/searchByMatchNameHeader", Some(&demo), json!({ "search": "pirates v BENGAL" }))
        .await;
    found.expect(200);
    let hits = found.data()["Kabaddi"]
        .as_array()
        .unwrap_or_else(|| panic!("no Kabaddi group: {}", found.body));
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["match_id"], match_id);
    assert_eq!(hits[0]["open_date"], "2030-05-06T07:08:09.000Z");
    assert_eq!(hits[0]["series_id"], series_id);
}
both_databases!(an_admin_creates_a_sport_a_featured_series_and_a_match);

async fn a_duplicate_sport_id_is_409(app: TestApp) {
    let admin = app.admin().await;
    let answer = app
        .post("admin/sport/create", Some(&admin), json!({ "sport_id": 4, "name": "Cricket Again" }))
        .await;
    answer.expect(409);
    assert!(answer.message().contains("already in use"), "{}", answer.message());
    app.post("admin/sport/create", Some(&admin), json!({ "sport_id": 99999, "name": "Kabaddi" }))
        .await
        .expect(200);
    let answer = app
        .post(
            "admin/sport/create",
            Some(&admin),
            json!({ "sport_id": "99999", "name": "Kabaddi Two" }),
        )
        .await;
    answer.expect(409);
    let demo = app.demo().await;
    let sports = app.post("sport/getSports", Some(&demo), json!({ "sport_id": 99999 })).await;
    sports.expect(200);
    assert_eq!(sports.data()[0]["name"], "Kabaddi");
}
both_databases!(a_duplicate_sport_id_is_409);

async fn a_series_for_an_unknown_sport_is_404(app: TestApp) {
    let admin = app.admin().await;
    let answer = app
        .post(
            "admin/series/create",
            Some(&admin),
            json!({ "sport_id": 424242, "name": "Nowhere Cup", "is_featured": 1 }),
        )
        .await;
    answer.expect(404);
    assert!(answer.message().contains("424242"), "{}", answer.message());
    let demo = app.demo().await;
    let cups = app.get("match/getCupsForMenu", Some(&demo)).await;
    assert!(!cups.data().as_array().unwrap().iter().any(|c| c["name"] == "Nowhere Cup"));
}
both_databases!(a_series_for_an_unknown_sport_is_404);

async fn a_match_for_an_unknown_series_is_404(app: TestApp) {
    let admin = app.admin().await;
    let answer = app
        .post("admin/match/create", Some(&admin), json!({ "series_id": 424242, "name": "Ghost v Phantom", "open_date": "2030-01-01T00:00:00Z" }))
        .await;
    answer.expect(404);
    assert!(answer.message().contains("424242"), "{}", answer.message());
    let demo = app.demo().await;
    let found = app
        .post("match/searchByMatchNameHeader", Some(&demo), json!({ "search": "Ghost v Phantom" }))
        .await;
    found.expect(200);
    assert_eq!(found.data(), &json!({}));
}
both_databases!(a_match_for_an_unknown_series_is_404);

async fn a_bad_open_date_is_400(app: TestApp) {
    let admin = app.admin().await;
    app.post("admin/sport/create", Some(&admin), json!({ "sport_id": 99999, "name": "Kabaddi" }))
        .await
        .expect(200);
    let series_id = app
        .post("admin/series/create", Some(&admin), json!({ "sport_id": 99999, "name": "Cup" }))
        .await
        .data()["id"]
        .as_i64()
        .unwrap();
    for open_date in
        ["tomorrow", "2030-05-06 07:08", "2030-05-06T07:08:09", "2030-13-06T07:08:09Z", ""]
    {
        let answer = app
            .post(
                "admin/match/create",
                Some(&admin),
                json!({ "series_id": series_id, "name": "A v B", "open_date": open_date }),
            )
            .await;
        answer.expect(400);
        assert!(
            answer.field_error("open_date").contains("ISO-8601"),
            "{open_date}: {}",
            answer.body
        );
    }
    let answer = app
        .post(
            "admin/match/create",
            Some(&admin),
            json!({ "series_id": series_id, "name": "A v B" }),
        )
        .await;
    answer.expect(400);
    assert!(answer.field_error("open_date").contains("required"), "{}", answer.body);
    let demo = app.demo().await;
    let matches =
        app.post("match/getMatches", Some(&demo), json!({ "series_id": series_id })).await;
    matches.expect(200);
    assert!(matches.data().as_array().unwrap().is_empty());
}
both_databases!(a_bad_open_date_is_400);

async fn an_agent_cannot_create_catalogue_entries(app: TestApp) {
    let agent = app.agent().await;
    let answer = app
        .post("admin/sport/create", Some(&agent), json!({ "sport_id": 99999, "name": "Kabaddi" }))
        .await;
    answer.expect(403);
    assert!(answer.message().contains("create sports"), "{}", answer.message());
    let answer = app
        .post(
            "admin/series/create",
            Some(&agent),
            json!({ "sport_id": 4, "name": "Agent Cup", "is_featured": 1 }),
        )
        .await;
    answer.expect(403);
    assert!(answer.message().contains("create series"), "{}", answer.message());
    let answer = app
        .post("admin/match/create", Some(&agent), json!({ "series_id": 1, "name": "Agent XI v Others", "open_date": "2030-01-01T00:00:00Z" }))
        .await;
    answer.expect(403);
    assert!(answer.message().contains("create matches"), "{}", answer.message());

    let demo = app.demo().await;
    let sports = app.post("sport/getSports", Some(&demo), json!({})).await;
    assert!(!sports.data().as_array().unwrap().iter().any(|s| s["sport_id"] == 99999));
    let cups = app.get("match/getCupsForMenu", Some(&demo)).await;
    assert!(!cups.data().as_array().unwrap().iter().any(|c| c["name"] == "Agent Cup"));
    let found = app
        .post("match/searchByMatchNameHeader", Some(&demo), json!({ "search": "Agent XI" }))
        .await;
    assert_eq!(found.data(), &json!({}));
}
both_databases!(an_agent_cannot_create_catalogue_entries);

// ---------------------------------------------------------------------------------------------
// admin/audit and admin/ledger/check

async fn a_transfer_is_in_the_audit_log_with_its_actor(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    let agent_id = app.user_id(&admin, "agent").await;
    let demo_id = app.user_id(&admin, "demo").await;
    let transaction_id = {
        let answer = transfer(&app, &admin, demo_id, json!(10), "deposit").await;
        answer.expect(200);
        answer.data()["transaction_id"].as_i64().unwrap()
    };

    let answer = app.post("admin/audit", Some(&admin), json!({ "limit": 5 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["limit"], 5);
    let rows = answer.data()["rows"].as_array().unwrap();
    assert!(rows.len() <= 5 && !rows.is_empty());
    let newest = &rows[0];
    assert_eq!(newest["action"], "chips.transfer");
    assert_eq!(newest["actor_user_id"], admin_id);
    assert_eq!(newest["target"], format!("user:{demo_id}"));
    assert_eq!(newest["detail"]["direction"], "deposit");
    assert_eq!(newest["detail"]["amount"], 10.0);
    assert_eq!(newest["detail"]["parent_id"], agent_id);
    assert_eq!(newest["detail"]["transaction_id"], transaction_id);
    assert!(
        answer.data()["total"].as_i64().unwrap() > rows.len() as i64,
        "the demo seeding is audited too"
    );

    let agent = app.agent().await;
    let answer = app.post("admin/audit", Some(&agent), json!({})).await;
    answer.expect(403);
    assert!(answer.message().contains("audit"), "{}", answer.message());
    let answer = app.post("admin/audit", Some(&admin), json!({ "limit": 0 })).await;
    answer.expect(400);
}
both_databases!(a_transfer_is_in_the_audit_log_with_its_actor);

async fn the_audit_log_is_filtered_by_who_what_and_when(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let admin_id = app.user_id(&admin, "admin").await;
    let agent_id = app.user_id(&admin, "agent").await;
    let demo_id = app.user_id(&admin, "demo").await;
    let demo2_id = app.user_id(&admin, "demo2").await;
    transfer(&app, &admin, demo_id, json!(10), "deposit").await.expect(200);
    transfer(&app, &agent, demo2_id, json!(5), "deposit").await.expect(200);
    lock(&app, &admin, demo2_id, 1).await.expect(200);
    lock(&app, &admin, demo2_id, 0).await.expect(200);
    let audit = |body: Value| {
        let app = &app;
        let admin = admin.clone();
        async move { app.post("admin/audit", Some(&admin), body).await }
    };
    let actions = |answer: &Answer| -> Vec<String> {
        answer.data()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["action"].as_str().unwrap().to_string())
            .collect()
    };

    // An area: every chips.… action and nothing else, newest first, named by its actor.
    let answer = audit(json!({ "action": "chips" })).await;
    answer.expect(200);
    assert!(actions(&answer).iter().all(|a| a.starts_with("chips.")), "{:?}", actions(&answer));
    let rows = answer.data()["rows"].as_array().unwrap();
    assert_eq!(rows[0]["action"], "chips.transfer");
    assert_eq!(rows[0]["actor_user_id"], agent_id);
    assert_eq!(rows[0]["actor_name"], "agent");
    assert_eq!(rows[1]["actor_name"], "admin");
    assert_eq!(answer.data()["total"].as_i64().unwrap(), rows.len() as i64);

    // One action exactly; an area's name alone is no action of another area.
    let answer = audit(json!({ "action": "user.lock" })).await;
    answer.expect(200);
    assert_eq!(actions(&answer), vec!["user.lock".to_string()]);
    assert_eq!(answer.data()["rows"][0]["target"], format!("user:{demo2_id}"));
    let answer = audit(json!({ "action": "chip" })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 0);

    // Who: by name, in any case; with an action as well, both must hold.
    let answer = audit(json!({ "actor": "AGENT", "action": "chips" })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 1);
    assert_eq!(answer.data()["rows"][0]["detail"]["amount"], 5.0);
    let answer = audit(json!({ "actor": "admin", "limit": 100 })).await;
    answer.expect(200);
    let rows = answer.data()["rows"].as_array().unwrap();
    assert!(rows.len() >= 3);
    assert!(rows.iter().all(|r| r["actor_user_id"] == admin_id && r["actor_name"] == "admin"));

    // When: from the lock's moment on, the lock and the unlock; up to just before it, neither.
    let locked_at = audit(json!({ "action": "user.lock" })).await.data()["rows"][0]["date"]
        .as_str()
        .unwrap()
        .to_string();
    let answer = audit(json!({ "action": "user", "from_date": locked_at })).await;
    answer.expect(200);
    assert_eq!(actions(&answer), vec!["user.unlock", "user.lock"]);
    let just_before =
        backlay_kit::clock::iso_utc(backlay_kit::clock::parse_iso(&locked_at).unwrap() - 1);
    let answer = audit(json!({ "action": "user", "to_date": just_before, "limit": 100 })).await;
    answer.expect(200);
    assert!(
        actions(&answer).iter().all(|a| a == "user.create" || a == "user.login"),
        "{:?}",
        actions(&answer)
    );
    let answer = audit(json!({ "to_date": "2001-01-01" })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 0);
    assert_eq!(answer.data()["rows"], json!([]));
    let answer = audit(json!({ "from_date": "2999-01-01", "action": "chips" })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 0);

    // Filters that can pick nothing are refused on their field.
    let answer = audit(json!({ "actor": "nobody_here" })).await;
    answer.expect(400);
    assert!(answer.field_error("actor").contains("nobody_here"), "{}", answer.message());
    let answer = audit(json!({ "action": "chips%" })).await;
    answer.expect(400);
    assert!(answer.field_error("action").contains("chips.transfer"));
    let answer = audit(json!({ "from_date": "yesterday" })).await;
    answer.expect(400);
    assert!(answer.field_error("from_date").contains("2026-11-22"));
    let answer = audit(json!({ "from_date": "2026-11-23", "to_date": "2026-11-22" })).await;
    answer.expect(400);
    answer.field_error("to_date");

    // Still the admin's alone, filters or not.
    let answer = app.post("admin/audit", Some(&agent), json!({ "actor": "agent" })).await;
    answer.expect(403);
}
both_databases!(the_audit_log_is_filtered_by_who_what_and_when);

async fn only_an_admin_checks_the_ledger(app: TestApp) {
    let admin = app.admin().await;
    let answer = app.get("admin/ledger/check", Some(&admin)).await;
    answer.expect(200);
    assert_eq!(answer.data()["sound"], true);
    assert_eq!(minor(&answer.data()["total"]), 0);
    assert_eq!(minor(&answer.data()["chips_issued"]), ISSUED_START);
    // One mint and four deposits, two entries each.
    assert_eq!(answer.data()["entries"], 10);

    let agent = app.agent().await;
    let answer = app.get("admin/ledger/check", Some(&agent)).await;
    answer.expect(403);
    assert!(answer.message().contains("ledger"), "{}", answer.message());
}
both_databases!(only_an_admin_checks_the_ledger);
