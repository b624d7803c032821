//! What the audit log records (issue 28, defect 7): every entry says who, what, whom (name and
//! id), from where, before → after, money in rupees; log-ins, refused log-ins and clients'
//! payment requests are recorded; unknown user names are counted, not stored one by one.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::TestApp;

/// The newest entries of `action`, newest first.
async fn entries(app: &TestApp, admin: &str, action: &str) -> Vec<Value> {
    let answer =
        app.post("admin/audit", Some(admin), json!({ "action": action, "limit": 50 })).await;
    answer.expect(200);
    answer.data()["rows"].as_array().unwrap().clone()
}

async fn log_ins_are_recorded_whether_they_succeed_or_not(app: TestApp) {
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let demo2_id = app.user_id(&admin, "demo2").await;

    app.login("demo", "Demo@1234").await;
    let ok = &entries(&app, &admin, "user.login").await[0];
    assert_eq!(ok["actor_user_id"], demo_id);
    assert_eq!(ok["target"], format!("user:{demo_id}"));
    assert_eq!(ok["target_name"], "demo");
    assert_eq!(ok["detail"]["user_name"], "demo");
    assert!(ok["client_ip"].as_str().is_some_and(|ip| !ip.is_empty()), "{ok}");

    app.login_answer("demo", "Wrong@1234").await.expect(400);
    app.post("admin/user/lock", Some(&admin), json!({ "user_id": demo2_id, "locked": 1 }))
        .await
        .expect(200);
    app.login_answer("demo2", "Demo@1234").await.expect(422);
    let failed = entries(&app, &admin, "user.login_failed").await;
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert_eq!(failed[0]["target_name"], "demo2");
    assert_eq!(failed[0]["detail"]["reason"], "This account is locked. Contact your agent.");
    assert_eq!(failed[1]["target_name"], "demo");
    assert_eq!(failed[1]["detail"]["reason"], "Incorrect password.");
    assert!(failed.iter().all(|e| e["client_ip"].is_string()), "{failed:?}");
    // The lock itself names whom it locked.
    let lock = &entries(&app, &admin, "user.lock").await[0];
    assert_eq!(lock["target_name"], "demo2");
    assert_eq!(lock["detail"]["user_name"], "demo2");
    assert_eq!(lock["detail"]["after"]["is_locked"], true);

    // Names nobody has: one entry counts them all.
    for name in ["ghost_1", "ghost_2", "ghost_1"] {
        app.login_answer(name, "Wrong@1234").await.expect(400);
    }
    // (A test running across the turn of an hour sees that hour's entry and the next one's.)
    let attempts = |unknown: &[Value]| -> i64 {
        assert!(unknown.len() <= 2, "one entry an hour: {unknown:?}");
        unknown.iter().map(|entry| entry["detail"]["attempts"].as_i64().unwrap()).sum()
    };
    let unknown = entries(&app, &admin, "user.login_unknown").await;
    assert_eq!(attempts(&unknown), 3);
    if unknown.len() == 1 {
        assert_eq!(unknown[0]["detail"]["user_names"], json!(["ghost_1", "ghost_2"]));
    }
    // Sent at once, each one checked is counted (those the throttle turns away were not tried).
    let burst: Vec<_> =
        (0..8).map(|i| app.spawn_login(&format!("burst_{i}"), "Wrong@1234")).collect();
    let mut checked = 0;
    for answer in burst {
        let answer = answer.await.unwrap();
        if answer.status.as_u16() == 400 {
            checked += 1;
        }
    }
    assert_eq!(attempts(&entries(&app, &admin, "user.login_unknown").await), 3 + checked);
}
both_databases!(log_ins_are_recorded_whether_they_succeed_or_not);

async fn a_transfer_and_a_payment_request_are_recorded_in_rupees_with_balances(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let demo = app.demo().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let agent_id = app.user_id(&admin, "agent").await;
    let agent_before = app.balance_minor(&agent).await;
    let demo_before = app.balance_minor(&demo).await;
    app.post(
        "admin/user/transfer",
        Some(&agent),
        json!({ "user_id": demo_id, "amount": "10.50", "direction": "deposit", "remark": "cash at the shop" }),
    )
    .await
    .expect(200);
    let entry = &entries(&app, &admin, "chips.transfer").await[0];
    assert_eq!(entry["actor_name"], "agent");
    assert_eq!(entry["target_name"], "demo");
    let rupees = |minor: i64| json!(minor as f64 / 100.0);
    assert_eq!(
        entry["detail"],
        json!({
            "direction": "deposit",
            "amount": 10.5,
            "user_name": "demo",
            "parent_id": agent_id,
            "parent_name": "agent",
            "remark": "cash at the shop",
            "user_balance": { "before": rupees(demo_before), "after": rupees(demo_before + 10_50) },
            "parent_balance": { "before": rupees(agent_before), "after": rupees(agent_before - 10_50) },
            "transaction_id": entry["detail"]["transaction_id"],
        })
    );
    assert!(entry["client_ip"].is_string());

    let answer = app
        .post(
            "payment/deposit",
            Some(&demo),
            json!({ "amount": "250.75", "reference": "UTR-AUDIT-1" }),
        )
        .await;
    answer.expect(200);
    let request_id = answer.data()["request_id"].as_i64().unwrap();
    let entry = &entries(&app, &admin, "payment.request").await[0];
    assert_eq!(entry["actor_user_id"], demo_id);
    assert_eq!(entry["target"], format!("payment_request:{request_id}"));
    assert_eq!(entry["target_name"], "demo");
    assert_eq!(entry["detail"]["user_name"], "demo");
    assert_eq!(entry["detail"]["type"], "deposit");
    assert_eq!(entry["detail"]["amount"], 250.75);
    assert_eq!(entry["detail"]["reference"], "UTR-AUDIT-1");
    assert!(entry["client_ip"].is_string());

    // Terms: before → after in rupees.
    app.post(
        "admin/user/terms",
        Some(&agent),
        json!({ "user_id": demo_id, "terms": { "credit_reference": 1500.5 } }),
    )
    .await
    .expect(200);
    let entry = &entries(&app, &admin, "user.terms").await[0];
    assert_eq!(entry["target_name"], "demo");
    assert_eq!(entry["detail"]["before"]["credit_reference"], 0.0);
    assert_eq!(entry["detail"]["after"]["credit_reference"], 1500.5);

    // A market's entries name the market.
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, _) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Audited Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let entry = &entries(&app, &admin, "market").await[0];
    assert_eq!(entry["target"], format!("market:{market_id}"));
    assert_eq!(entry["target_name"], "Audited Odds");
}
both_databases!(a_transfer_and_a_payment_request_are_recorded_in_rupees_with_balances);
