//! The console's downline views: a search that reaches every level and names the path, branch
//! totals on agent rows (summed in one query, checked here against sums by hand), an account's
//! header with its trail, bulk actions that report per account, and payment details an admin
//! sets for an agent.
//!
//! The tree (the demo's admin → agent → demo, demo2, maker beside it):
//!
//! ```text
//! admin ── boss (70%) ── sub (40%) ─┬─ deep_one   250.00, lost 50.00 on a settled fancy
//!    1000.00 → boss   600.00 → sub  └─ deep_two   100.00, 20.00 held on an open fancy
//! ```

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, Answer, TestApp};

struct Tree {
    admin: String,
    agent: String,
    boss: String,
    sub: String,
    deep_one: String,
    boss_id: i64,
    sub_id: i64,
    deep_one_id: i64,
    deep_two_id: i64,
}

/// An account created by `parent` with its password changed; (id, token).
async fn account(
    app: &TestApp,
    parent: &str,
    name: &str,
    role: &str,
    share: Option<f64>,
) -> (i64, String) {
    let mut body = json!({ "user_name": name, "password": "First@123", "role": role });
    if let Some(share) = share {
        body["partnership"] = json!(share);
    }
    let created = app.post("admin/user/create", Some(parent), body).await;
    created.expect(200);
    let token = app.login(name, "First@123").await;
    app.post(
        "user/changePassword",
        Some(&token),
        json!({ "master_password": "First@123", "new_password": "Second@123", "confirm_password": "Second@123" }),
    )
    .await
    .expect(200);
    (created.data()["user_id"].as_i64().unwrap(), token)
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

async fn fancy(app: &TestApp, admin: &str, match_id: i64, name: &str) -> i64 {
    let (market_id, _) = app
        .open_market(admin, match_id, json!({ "type": "fancy", "name": name, "min_stake": 1 }))
        .await;
    app.post("admin/market/rates", Some(admin), json!({ "market_id": market_id, "line_no": 48, "rate_no": 100, "line_yes": 49, "rate_yes": 100 }))
        .await
        .expect(200);
    market_id
}

async fn tree(app: &TestApp) -> Tree {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let (boss_id, boss) = account(app, &admin, "boss", "agent", Some(70.0)).await;
    let (sub_id, sub) = account(app, &boss, "sub", "agent", Some(40.0)).await;
    let (deep_one_id, deep_one) = account(app, &sub, "deep_one", "client", None).await;
    let (deep_two_id, deep_two) = account(app, &sub, "deep_two", "client", None).await;
    deposit(app, &admin, boss_id, 1_000).await;
    deposit(app, &boss, sub_id, 600).await;
    deposit(app, &sub, deep_one_id, 250).await;
    deposit(app, &sub, deep_two_id, 100).await;
    let matches = app.post("match/getMatches", Some(&deep_one), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let settled = fancy(app, &admin, match_id, "6 over runs").await;
    let open = fancy(app, &admin, match_id, "10 over runs").await;
    app.post(
        "bet/placeBet",
        Some(&deep_one),
        json!({ "market_id": settled, "side": "yes", "price": 100, "line": 49, "stake": 50 }),
    )
    .await
    .expect(200);
    app.post(
        "bet/placeBet",
        Some(&deep_two),
        json!({ "market_id": open, "side": "no", "price": 100, "line": 48, "stake": 20 }),
    )
    .await
    .expect(200);
    // 30 runs: the YES at 49 loses its 50.00.
    app.post("admin/market/result", Some(&admin), json!({ "market_id": settled, "result": 30 }))
        .await
        .expect(200);
    Tree { admin, agent, boss, sub, deep_one, boss_id, sub_id, deep_one_id, deep_two_id }
}

async fn list(app: &TestApp, token: &str, body: Value) -> Answer {
    let answer = app.post("console/downline/list", Some(token), body).await;
    answer.expect(200);
    answer
}

fn row<'a>(answer: &'a Answer, name: &str) -> &'a Value {
    answer.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["user_name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {}", answer.body))
}

fn path(row: &Value) -> Vec<String> {
    row["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["user_name"].as_str().unwrap().to_string())
        .collect()
}

async fn a_search_covers_the_whole_downline_and_names_each_hits_path(app: TestApp) {
    let t = tree(&app).await;
    // From the top: two levels down under boss › sub.
    let found = list(&app, &t.admin, json!({ "search": "DEEP" })).await;
    assert_eq!(found.data()["total"], 2, "{}", found.body);
    assert_eq!(path(row(&found, "deep_one")), ["boss", "sub", "deep_one"]);
    assert_eq!(path(row(&found, "deep_two")), ["boss", "sub", "deep_two"]);
    // The list without a search is still the direct children, each its own path.
    let top = list(&app, &t.admin, json!({})).await;
    assert!(top.data()["rows"].as_array().unwrap().iter().all(|r| r["user_name"] != "deep_one"));
    assert_eq!(path(row(&top, "boss")), ["boss"]);
    // Under a drilled-in account, the path starts below it.
    let under = list(&app, &t.boss, json!({ "search": "one", "parent_id": t.sub_id })).await;
    assert_eq!(path(row(&under, "deep_one")), ["deep_one"]);
    let from_boss = list(&app, &t.boss, json!({ "search": "deep_one" })).await;
    assert_eq!(path(row(&from_boss, "deep_one")), ["sub", "deep_one"]);
    // Another branch finds nothing of it, and cannot search under it.
    let outsider = list(&app, &t.agent, json!({ "search": "deep" })).await;
    assert_eq!(outsider.data()["total"], 0, "{}", outsider.body);
    let refused = app
        .post(
            "console/downline/list",
            Some(&t.agent),
            json!({ "search": "deep", "parent_id": t.sub_id }),
        )
        .await;
    refused.expect(404);

    // An account's header: its trail from the caller, and its own figures.
    let summary = |token: String, user_id: i64| {
        let app = &app;
        async move {
            app.post("console/account/summary", Some(&token), json!({ "user_id": user_id })).await
        }
    };
    let deep = summary(t.admin.clone(), t.deep_one_id).await;
    deep.expect(200);
    let trail: Vec<&str> = deep.data()["trail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["user_name"].as_str().unwrap())
        .collect();
    assert_eq!(trail, ["admin", "boss", "sub", "deep_one"]);
    assert_eq!(minor(&deep.data()["account"]["balance"]), 200_00);
    let from_sub = summary(t.sub.clone(), t.deep_one_id).await;
    let trail: Vec<&str> = from_sub.data()["trail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["user_name"].as_str().unwrap())
        .collect();
    assert_eq!(trail, ["sub", "deep_one"], "nothing above the caller");
    let ghost = summary(t.agent.clone(), 987_654).await;
    let hidden = summary(t.agent.clone(), t.deep_one_id).await;
    assert_eq!((ghost.status, ghost.message()), (hidden.status, hidden.message()));
    hidden.expect(404);
}
both_databases!(a_search_covers_the_whole_downline_and_names_each_hits_path);

async fn agent_rows_show_their_branchs_totals_and_partnership(app: TestApp) {
    let t = tree(&app).await;
    // By hand: boss keeps 400.00; sub 600 − 250 − 100 = 250.00; deep_one 250 − 50 = 200.00;
    // deep_two 100.00 with 20.00 held.
    let top = list(&app, &t.admin, json!({})).await;
    let boss = row(&top, "boss");
    assert_eq!(
        (minor(&boss["balance"]), minor(&boss["exposure"]), minor(&boss["available"])),
        (400_00, 0, 400_00),
        "its own chips"
    );
    assert_eq!(
        (
            minor(&boss["branch_balance"]),
            minor(&boss["branch_exposure"]),
            minor(&boss["branch_available"]),
            minor(&boss["pnl"])
        ),
        (950_00, 20_00, 930_00, -50_00),
        "{boss}"
    );
    assert_eq!(boss["partnership"], 70.0);
    let below = list(&app, &t.boss, json!({})).await;
    let sub = row(&below, "sub");
    assert_eq!(
        (
            minor(&sub["balance"]),
            minor(&sub["branch_balance"]),
            minor(&sub["branch_exposure"]),
            minor(&sub["branch_available"]),
            minor(&sub["pnl"])
        ),
        (250_00, 550_00, 20_00, 530_00, -50_00)
    );
    assert_eq!(sub["partnership"], 40.0);
    // A client's branch is itself.
    let clients = list(&app, &t.sub, json!({ "sort": "exposure", "order": "desc" })).await;
    let two = &clients.data()["rows"][0];
    assert_eq!(two["user_name"], "deep_two");
    assert_eq!(
        (
            minor(&two["branch_balance"]),
            minor(&two["branch_exposure"]),
            minor(&two["branch_available"])
        ),
        (100_00, 20_00, 80_00)
    );
    assert_eq!(two["partnership"], 0.0);
    // Sorted by what the rows show: the branch's balance puts boss (950.00) above the demo's
    // agent only when its branch is larger; either way the order is the branch figure's.
    let by_balance = list(&app, &t.admin, json!({ "sort": "balance", "order": "desc" })).await;
    let figures: Vec<i64> = by_balance.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| minor(&r["branch_balance"]))
        .collect();
    assert!(figures.windows(2).all(|w| w[0] >= w[1]), "{figures:?}");
    let summary =
        app.post("console/account/summary", Some(&t.admin), json!({ "user_id": t.boss_id })).await;
    assert_eq!(minor(&summary.data()["account"]["branch_balance"]), 950_00);

    // The account page's history: the settled YES lost 50.00; the open NO is not closed yet.
    let history = |token: String, body: Value| {
        let app = &app;
        async move { app.post("console/account/betHistory", Some(&token), body).await }
    };
    let all = history(t.boss.clone(), json!({ "user_id": t.deep_one_id })).await;
    all.expect(200);
    assert_eq!(all.data()["total"], 1, "{}", all.body);
    let bet = &all.data()["rows"][0];
    assert_eq!(
        (&bet["status"], minor(&bet["pnl"]), &bet["market_name"]),
        (&json!("settled"), -50_00, &json!("6 over runs"))
    );
    for (outcome, total) in [("lost", 1), ("won", 0), ("void", 0)] {
        let some =
            history(t.boss.clone(), json!({ "user_id": t.deep_one_id, "outcome": outcome })).await;
        assert_eq!(some.data()["total"], total, "{outcome}: {}", some.body);
    }
    let later =
        history(t.boss.clone(), json!({ "user_id": t.deep_one_id, "from_date": "2999-01-01" }))
            .await;
    assert_eq!(later.data()["total"], 0);
    let none = history(t.boss.clone(), json!({ "user_id": t.deep_two_id })).await;
    assert_eq!(none.data()["total"], 0, "an open bet is not history");
    history(t.boss.clone(), json!({ "user_id": t.deep_one_id, "outcome": "maybe" }))
        .await
        .expect(400);
    history(t.agent.clone(), json!({ "user_id": t.deep_one_id })).await.expect(404);
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(agent_rows_show_their_branchs_totals_and_partnership);

fn results(answer: &Answer) -> Vec<(i64, bool, String)> {
    answer.data()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["user_id"].as_i64().unwrap(),
                r["ok"].as_bool().unwrap(),
                r["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

async fn a_bulk_action_acts_per_account_and_says_which_failed(app: TestApp) {
    let t = tree(&app).await;
    let bulk = |token: String, body: Value| {
        let app = &app;
        async move { app.post("console/downline/bulk", Some(&token), body).await }
    };
    let demo_id = app.user_id(&t.admin, "demo").await;
    // The boss locks two of its downline and names one outside it: that one alone fails.
    let locked = bulk(
        t.boss.clone(),
        json!({ "action": "lock", "user_ids": [t.sub_id, demo_id, t.deep_one_id] }),
    )
    .await;
    locked.expect(200);
    assert_eq!(
        (locked.data()["done"].clone(), locked.data()["failed"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(
        results(&locked),
        vec![
            (t.sub_id, true, "sub is locked.".to_string()),
            (demo_id, false, "No such account in your downline.".to_string()),
            (t.deep_one_id, true, "deep_one is locked.".to_string()),
        ]
    );
    app.login_answer("deep_one", "Second@123").await.expect(422);
    app.login("demo", "Demo@1234").await;
    let unlocked =
        bulk(t.boss.clone(), json!({ "action": "unlock", "user_ids": [t.sub_id, t.deep_one_id] }))
            .await;
    assert_eq!(unlocked.data()["done"], 2, "{}", unlocked.body);
    // Locking ended their sessions: they log in again.
    let t = Tree {
        sub: app.login("sub", "Second@123").await,
        deep_one: app.login("deep_one", "Second@123").await,
        ..t
    };

    // Bet-lock: the account may log in but not bet.
    let bet_locked = bulk(
        t.sub.clone(),
        json!({ "action": "bet_lock", "user_ids": [t.deep_one_id, t.deep_two_id] }),
    )
    .await;
    assert_eq!(bet_locked.data()["done"], 2, "{}", bet_locked.body);
    let clients = list(&app, &t.sub, json!({})).await;
    assert_eq!(row(&clients, "deep_one")["status"], "bet_locked");
    assert_eq!(row(&clients, "deep_two")["status"], "bet_locked");
    bulk(t.sub.clone(), json!({ "action": "bet_unlock", "user_ids": [t.deep_one_id] }))
        .await
        .expect(200);
    let clients = list(&app, &t.sub, json!({})).await;
    assert_eq!(row(&clients, "deep_one")["status"], "active");

    // Chips: sub (250.00) gives 100.00 to each of its clients; a third would need 300.00.
    let given = bulk(
        t.sub.clone(),
        json!({ "action": "give_chips", "amount": "100", "remark": "weekly", "user_ids": [t.deep_one_id, t.deep_two_id] }),
    )
    .await;
    assert_eq!(given.data()["done"], 2, "{}", given.body);
    assert_eq!(app.balance_minor(&t.sub).await, 50_00);
    assert_eq!(app.balance_minor(&t.deep_one).await, 300_00);
    let short = bulk(
        t.sub.clone(),
        json!({ "action": "give_chips", "amount": 40, "user_ids": [t.deep_one_id, t.deep_two_id] }),
    )
    .await;
    let short_results = results(&short);
    assert_eq!((short_results[0].1, short_results[1].1), (true, false), "{}", short.body);
    assert_eq!(short_results[1].2, "sub has only ₹10.00 available.");
    assert_eq!(app.balance_minor(&t.sub).await, 10_00, "the first transfer stands");
    // The boss is not deep_one's parent: chips move between an account and its own parent.
    let not_parent = bulk(
        t.boss.clone(),
        json!({ "action": "give_chips", "amount": 1, "user_ids": [t.deep_one_id] }),
    )
    .await;
    assert!(!results(&not_parent)[0].1, "{}", not_parent.body);
    assert_eq!(app.balance_minor(&t.deep_one).await, 340_00);

    for (body, field) in [
        (json!({ "user_ids": [t.sub_id] }), "action"),
        (json!({ "action": "explode", "user_ids": [t.sub_id] }), "action"),
        (json!({ "action": "lock", "user_ids": [] }), "user_ids"),
        (json!({ "action": "lock", "user_ids": [t.sub_id, t.sub_id] }), "user_ids"),
        (json!({ "action": "lock", "user_ids": (0..101).collect::<Vec<i64>>() }), "user_ids"),
        (json!({ "action": "give_chips", "user_ids": [t.sub_id] }), "amount"),
        (json!({ "action": "give_chips", "amount": 0, "user_ids": [t.sub_id] }), "amount"),
    ] {
        let answer = bulk(t.boss.clone(), body).await;
        answer.expect(400);
        assert!(!answer.field_error(field).is_empty(), "{}", answer.body);
    }
    app.assert_ledger_sound(&t.admin).await;
}
both_databases!(a_bulk_action_acts_per_account_and_says_which_failed);

async fn an_admin_sets_an_agents_payment_details_and_its_clients_see_them(app: TestApp) {
    let t = tree(&app).await;
    let upi = json!({ "user_id": t.sub_id, "upi_id": "sub.agent@okaxis", "upi_name": "Sub Agent" });
    let saved = app.post("admin/payment/details", Some(&t.admin), upi.clone()).await;
    saved.expect(200);
    assert_eq!(
        saved.message(),
        "Payment details of sub saved: their clients see them on their deposit page."
    );
    let seen = app.get("payment/details", Some(&t.deep_one)).await;
    assert_eq!(
        (&seen.data()["payee"], &seen.data()["upi_id"]),
        (&json!("sub"), &json!("sub.agent@okaxis"))
    );
    // The console reads them back for the form.
    let read = app
        .post("console/account/paymentDetails", Some(&t.admin), json!({ "user_id": t.sub_id }))
        .await;
    assert_eq!(read.data()["upi_name"], "Sub Agent");
    // The admin's own are untouched.
    assert_eq!(app.get("admin/payment/details", Some(&t.admin)).await.data(), &Value::Null);
    // An agent sets only its own: its sub-agent's is refused with why, another branch's as
    // an unknown id.
    let master = app.post("admin/payment/details", Some(&t.boss), upi.clone()).await;
    master.expect(422);
    let outsider = app.post("admin/payment/details", Some(&t.agent), upi.clone()).await;
    let mut ghost_body = upi.clone();
    ghost_body["user_id"] = json!(987_654);
    let ghost = app.post("admin/payment/details", Some(&t.agent), ghost_body).await;
    outsider.expect(404);
    assert_eq!((outsider.status, outsider.message()), (ghost.status, ghost.message()));
    // A client publishes nothing.
    let client = app
        .post(
            "admin/payment/details",
            Some(&t.admin),
            json!({ "user_id": t.deep_one_id, "upi_id": "deep@okaxis" }),
        )
        .await;
    client.expect(400);
    assert!(!client.field_error("user_id").is_empty());
    // A bad field is named, and nothing changes.
    let bad = app
        .post(
            "admin/payment/details",
            Some(&t.admin),
            json!({ "user_id": t.sub_id, "upi_id": "no-at-sign" }),
        )
        .await;
    bad.expect(400);
    assert!(!bad.field_error("upi_id").is_empty());
    let seen = app.get("payment/details", Some(&t.deep_one)).await;
    assert_eq!(seen.data()["upi_id"], "sub.agent@okaxis");
    // Removed by the admin: the client sees the next ones up (none here).
    let cleared = app
        .post(
            "admin/payment/details",
            Some(&t.admin),
            json!({ "user_id": t.sub_id, "clear": true }),
        )
        .await;
    cleared.expect(200);
    assert_eq!(app.get("payment/details", Some(&t.deep_one)).await.data(), &Value::Null);
    let audit = app.post("admin/audit", Some(&t.admin), json!({ "limit": 5 })).await;
    let actions: Vec<&str> = audit.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["action"].as_str())
        .collect();
    assert!(
        actions.contains(&"payment_details.set") && actions.contains(&"payment_details.clear"),
        "{actions:?}"
    );
    let _ = t.boss_id;
}
both_databases!(an_admin_sets_an_agents_payment_details_and_its_clients_see_them);
