//! Cash settled with the downline (`console/collection/settle`): a double entry between the
//! parent's and the child's cash accounts that moves no chips, shown in both statements and in
//! the collection report ("settled, remaining"), audited, never more than is owed, and only
//! between a parent and its direct child.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};
use crate::partnership::{fancy, report, tree};

async fn settle(app: &TestApp, token: &str, body: Value) -> crate::common::Answer {
    app.post("console/collection/settle", Some(token), body).await
}

fn row_of(report: &Value, user_id: i64) -> Value {
    report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["user_id"] == user_id)
        .unwrap_or_else(|| panic!("no row of {user_id} in {report}"))
        .clone()
}

/// The statement lines of `kind` as `token` reads its own statement.
async fn cash_lines(app: &TestApp, token: &str) -> Vec<Value> {
    let answer = app.post("report/accountStatement", Some(token), json!({ "type": "cash" })).await;
    answer.expect(200);
    answer.data()["rows"].as_array().unwrap().clone()
}

async fn cash_received_from_a_client_clears_what_it_owes(app: TestApp) {
    let admin = app.admin().await;
    let (master_id, agent_id, client_id, master, agent, client) = tree(&app, &admin).await;
    // The client loses 1,000 on a fancy: it owes its agent 1,000, the agent its master 600.
    let market = fancy(&app, &admin, &client, "6 over runs").await;
    app.post(
        "bet/placeBet",
        Some(&client),
        json!({ "market_id": market, "side": "yes", "price": 100, "line": 57, "stake": 1000 }),
    )
    .await
    .expect(200);
    app.post("admin/market/result", Some(&admin), json!({ "market_id": market, "result": 50 }))
        .await
        .expect(200);
    let client_chips = app.balance_minor(&client).await;
    let agent_chips = app.balance_minor(&agent).await;
    assert_eq!(
        minor(&row_of(&report(&app, &agent, json!({})).await, client_id)["collect"]),
        1_000_00
    );

    // Refusals, each naming the field, nothing written.
    let refusals = [
        (json!({ "user_id": client_id, "amount": 0, "direction": "received" }), "amount"),
        (json!({ "user_id": client_id, "amount": 1.234, "direction": "received" }), "amount"),
        (json!({ "user_id": client_id, "amount": 1000.01, "direction": "received" }), "amount"),
        (json!({ "user_id": client_id, "amount": 10, "direction": "paid" }), "amount"),
        (json!({ "user_id": client_id, "amount": 10, "direction": "sideways" }), "direction"),
        (
            json!({ "user_id": client_id, "amount": 10, "direction": "received", "remark": "x".repeat(201) }),
            "remark",
        ),
    ];
    for (body, field) in refusals {
        let answer = settle(&app, &agent, body.clone()).await;
        answer.expect(400);
        assert!(!answer.field_error(field).is_empty(), "{body}: {}", answer.message());
    }
    let too_much = settle(
        &app,
        &agent,
        json!({ "user_id": client_id, "amount": 1000.01, "direction": "received" }),
    )
    .await;
    assert!(
        too_much.field_error("amount").contains("Settle at most ₹1,000.00"),
        "{}",
        too_much.message()
    );
    // Only the parent settles with its child: the master names who does.
    let grandchild = settle(
        &app,
        &master,
        json!({ "user_id": client_id, "amount": 10, "direction": "received" }),
    )
    .await;
    grandchild.expect(400);
    assert!(grandchild.field_error("user_id").contains("agent1"), "{}", grandchild.message());
    let (_, outsider) = app.new_user(&admin, "outsider1", "agent").await;
    settle(&app, &outsider, json!({ "user_id": client_id, "amount": 10, "direction": "received" }))
        .await
        .expect(404);
    settle(&app, &outsider, json!({ "user_id": 987_654, "amount": 10, "direction": "received" }))
        .await
        .expect(404);
    settle(&app, &client, json!({ "user_id": client_id, "amount": 10, "direction": "received" }))
        .await
        .expect(403);
    assert!(cash_lines(&app, &client).await.is_empty());

    // The agent receives 700 in cash.
    let done = settle(&app, &agent, json!({ "user_id": client_id, "amount": "700", "direction": "received", "remark": "cash at the shop" })).await;
    done.expect(200);
    assert_eq!(
        (minor(&done.data()["owed_before"]), minor(&done.data()["owed_after"])),
        (1_000_00, 300_00)
    );
    // No chips moved.
    assert_eq!(app.balance_minor(&client).await, client_chips);
    assert_eq!(app.balance_minor(&agent).await, agent_chips);
    // The report: collect 1,000, settled 700, remaining 300.
    let view = report(&app, &agent, json!({})).await;
    let row = row_of(&view, client_id);
    assert_eq!(
        (minor(&row["collect"]), minor(&row["settled"]), minor(&row["remaining"])),
        (1_000_00, 700_00, 300_00)
    );
    assert!(row["last_settled_at"].as_str().is_some(), "{row}");
    assert_eq!((minor(&view["settled_total"]), minor(&view["remaining_total"])), (700_00, 300_00));
    assert_eq!(minor(&view["balance"]), 0, "settling cash does not unbalance the shares");
    // Settlements belong to no market.
    let one_market = report(&app, &agent, json!({ "market_id": market })).await;
    assert_eq!(minor(&row_of(&one_market, client_id)["settled"]), 0);
    // Both statements, in the cash book.
    let client_line = &cash_lines(&app, &client).await[0];
    assert_eq!(
        (client_line["book"].as_str(), minor(&client_line["debit"])),
        (Some("cash"), 700_00)
    );
    assert_eq!(client_line["description"], "Cash paid to agent1: cash at the shop");
    let agent_line = &cash_lines(&app, &agent).await[0];
    assert_eq!((minor(&agent_line["credit"]), minor(&agent_line["balance"])), (700_00, 700_00));
    assert_eq!(agent_line["description"], "Cash received from punter1: cash at the shop");
    // The agent's console statement of the client shows it too.
    let console =
        app.post("console/account/statement", Some(&agent), json!({ "user_id": client_id })).await;
    console.expect(200);
    assert!(console.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["kind"] == "cash_settlement"));

    // A mistake is corrected by the opposite entry: 100 was not received after all.
    settle(
        &app,
        &agent,
        json!({ "user_id": client_id, "amount": 100, "direction": "paid", "remark": "miscounted" }),
    )
    .await
    .expect(200);
    let row = row_of(&report(&app, &agent, json!({})).await, client_id);
    assert_eq!((minor(&row["settled"]), minor(&row["remaining"])), (600_00, 400_00));
    assert_eq!(cash_lines(&app, &client).await.len(), 2, "nothing deleted");
    // A correction goes no further than what was settled (600 net).
    let beyond = settle(
        &app,
        &agent,
        json!({ "user_id": client_id, "amount": 600.01, "direction": "paid" }),
    )
    .await;
    beyond.expect(400);
    assert!(beyond.field_error("amount").contains("at most ₹600.00"), "{}", beyond.message());
    // Two settlements at once cannot both take the 400 still owed: the second waits for the
    // first's lock on the pair's cash accounts, then finds only 100 left.
    let body = json!({ "user_id": client_id, "amount": 300, "direction": "received" });
    let (first, second) =
        tokio::join!(settle(&app, &agent, body.clone()), settle(&app, &agent, body));
    let mut statuses = [first.status.as_u16(), second.status.as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 400], "{} / {}", first.message(), second.message());
    let row = row_of(&report(&app, &agent, json!({})).await, client_id);
    assert_eq!((minor(&row["settled"]), minor(&row["remaining"])), (900_00, 100_00));

    // The agent pays its master the 600 it owes up: both sides of that pair settle to 0.
    settle(&app, &master, json!({ "user_id": agent_id, "amount": 600, "direction": "received" }))
        .await
        .expect(200);
    let master_row = row_of(&report(&app, &master, json!({})).await, agent_id);
    assert_eq!((minor(&master_row["collect"]), minor(&master_row["remaining"])), (600_00, 0));
    let agent_view = report(&app, &agent, json!({})).await;
    assert_eq!(
        (minor(&agent_view["upline_settled"]), minor(&agent_view["upline_remaining"])),
        (600_00, 0)
    );
    settle(&app, &master, json!({ "user_id": agent_id, "amount": 0.01, "direction": "received" }))
        .await
        .expect(400);
    // The admin settles with its own child only.
    settle(&app, &admin, json!({ "user_id": agent_id, "amount": 1, "direction": "received" }))
        .await
        .expect(400);
    let master_owes = minor(&row_of(&report(&app, &admin, json!({})).await, master_id)["collect"]);
    assert_eq!(master_owes, 300_00);

    // Audited: who, whom, how much before → after.
    let audit = app.post("admin/audit", Some(&admin), json!({ "action": "cash.settle" })).await;
    audit.expect(200);
    let entries = audit.data()["rows"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 4, "{entries:?}");
    let first = entries.last().unwrap();
    assert_eq!(first["actor_name"], "agent1");
    assert_eq!(first["target"], format!("user:{client_id} (punter1)"));
    assert_eq!(first["detail"]["amount"], "₹700.00");
    assert_eq!(
        (first["detail"]["owed_before"].as_str(), first["detail"]["owed_after"].as_str()),
        (Some("₹1,000.00"), Some("₹300.00"))
    );
    // Every cash account is the sum of its settlements; every transaction sums to zero.
    app.assert_ledger_sound(&admin).await;
}
both_databases!(cash_received_from_a_client_clears_what_it_owes);
