//! Deposit and withdraw requests over HTTP: a client asks (payment/deposit, payment/withdraw),
//! their agent or an admin decides (admin/payment/list|approve|reject), the client follows them
//! in report/paymentStatement — with the balances each decision moves, who may decide, a
//! decision made once even when two arrive together, and every refusal (400 … 422).

use crate::both_databases;
use crate::common::{minor, Answer, TestApp};
use futures::future::join_all;
use serde_json::{json, Value};

// Demo balances in minor units (see demo.rs and tests/api/admin.rs); demo and demo2 are clients
// of `agent`, and the demo turns payment_gateway on.
const AGENT_START: i64 = 14_850_000_00;
const DEMO_START: i64 = 100_000_00;

const IFSC: &str = "HDFC0001234";

async fn deposit(app: &TestApp, token: &str, amount: Value, reference: &str) -> Answer {
    app.post("payment/deposit", Some(token), json!({ "amount": amount, "reference": reference }))
        .await
}

async fn withdraw(app: &TestApp, token: &str, amount: Value) -> Answer {
    app.post(
        "payment/withdraw",
        Some(token),
        json!({ "amount": amount, "account_holder": "Ravi Kumar", "bank_name": "HDFC Bank", "account_number": "50100012345678", "ifsc": IFSC }),
    )
    .await
}

async fn approve(app: &TestApp, token: &str, request_id: i64) -> Answer {
    app.post(
        "admin/payment/approve",
        Some(token),
        json!({ "request_id": request_id, "remark": "Received" }),
    )
    .await
}

async fn reject(app: &TestApp, token: &str, request_id: i64, remark: &str) -> Answer {
    app.post(
        "admin/payment/reject",
        Some(token),
        json!({ "request_id": request_id, "remark": remark }),
    )
    .await
}

/// Sends a request that must be accepted and returns its id.
#[track_caller]
fn created(answer: &Answer) -> i64 {
    answer.expect(200);
    assert_eq!(answer.data()["status"], "pending", "{}", answer.body);
    answer.data()["request_id"].as_i64().expect("request_id")
}

/// The caller's payment statement rows (first page of 100).
async fn statement(app: &TestApp, token: &str) -> Vec<Value> {
    let answer =
        app.post("report/paymentStatement", Some(token), json!({ "page": 1, "limit": 100 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["page"], 1);
    answer.data()["rows"].as_array().unwrap().clone()
}

async fn statement_row(app: &TestApp, token: &str, request_id: i64) -> Value {
    statement(app, token)
        .await
        .into_iter()
        .find(|row| row["request_id"] == request_id)
        .expect("the request is in the statement")
}

/// The operator's list, optionally of one status.
async fn operator_list(app: &TestApp, token: &str, status: Option<&str>) -> Vec<Value> {
    let body = match status {
        Some(status) => json!({ "status": status, "limit": 100 }),
        None => json!({ "limit": 100 }),
    };
    let answer = app.post("admin/payment/list", Some(token), body).await;
    answer.expect(200);
    answer.data()["rows"].as_array().unwrap().clone()
}

async fn request_status(app: &TestApp, operator: &str, request_id: i64) -> String {
    let row = operator_list(app, operator, None)
        .await
        .into_iter()
        .find(|row| row["request_id"] == request_id)
        .expect("listed");
    row["status"].as_str().unwrap().to_string()
}

/// The audit log's actions, newest first.
async fn audit_actions(app: &TestApp, admin: &str) -> Vec<Value> {
    let answer = app.post("admin/audit", Some(admin), json!({ "limit": 100 })).await;
    answer.expect(200);
    answer.data()["rows"].as_array().unwrap().clone()
}

/// A second agent under the admin with a client of its own: (agent token, client token).
async fn other_agent_with_client(app: &TestApp, admin: &str) -> (String, String) {
    let (_, agent_b) = app.new_user(admin, "agent_b", "agent").await;
    let (_, client_b) = app.new_user(&agent_b, "client_b", "client").await;
    (agent_b, client_b)
}

// ---------------------------------------------------------------------------------------------

async fn a_deposit_approved_by_the_agent_moves_chips_from_agent_to_client(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);

    let answer = deposit(&app, &demo, json!(500.25), "  UTR123456789012  ").await;
    let request_id = created(&answer);
    assert!(answer.message().contains("500.25"), "{}", answer.message());

    let row = statement_row(&app, &demo, request_id).await;
    assert_eq!(row["type"], "deposit");
    assert_eq!(row["status"], "pending");
    assert_eq!(minor(&row["amount"]), 500_25);
    assert_eq!(row["reference"], "UTR123456789012", "the reference is stored trimmed");
    assert_eq!(row["decided_at"], Value::Null);
    assert!(row["date"].as_str().unwrap().ends_with('Z'));

    // The agent sees it among its pending requests, with the reference to look for.
    let pending = operator_list(&app, &agent, Some("pending")).await;
    let listed =
        pending.iter().find(|row| row["request_id"] == request_id).expect("listed for the agent");
    assert_eq!(listed["user_name"], "demo");
    assert_eq!(listed["reference"], "UTR123456789012");
    assert_eq!(listed["account_number"], Value::Null);

    let answer = approve(&app, &agent, request_id).await;
    answer.expect(200);
    assert_eq!(answer.data()["request_id"], request_id);
    assert_eq!(answer.data()["status"], "approved");
    assert_eq!(minor(&answer.data()["user_balance"]), DEMO_START + 500_25);
    assert_eq!(minor(&answer.data()["parent_balance"]), AGENT_START - 500_25);
    assert!(answer.message().contains("demo"), "{}", answer.message());

    assert_eq!(app.balance_minor(&demo).await, DEMO_START + 500_25);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START - 500_25);

    let row = statement_row(&app, &demo, request_id).await;
    assert_eq!(row["status"], "approved");
    assert_eq!(row["remark"], "Received");
    assert!(row["decided_at"].as_str().is_some_and(|d| d.ends_with('Z')), "{row}");

    // The account statement's line names the request; the operator's row names the transaction.
    let answer = app
        .post("report/accountStatement", Some(&demo), json!({ "type": "deposit_withdraw" }))
        .await;
    answer.expect(200);
    let line = &answer.data()["rows"][0];
    assert_eq!(minor(&line["credit"]), 500_25);
    assert!(
        line["description"].as_str().unwrap().contains(&format!("payment request #{request_id}")),
        "{line}"
    );
    let listed = operator_list(&app, &agent, Some("approved")).await;
    assert!(listed[0]["transaction_id"].as_i64().is_some(), "{}", listed[0]);

    let actions = audit_actions(&app, &admin).await;
    let approval = actions.iter().find(|row| row["action"] == "payment.approve").expect("audited");
    assert_eq!(approval["target"], format!("payment_request:{request_id}"));
    assert_eq!(approval["detail"]["amount"], 500.25);
    assert!(actions.iter().any(|row| row["action"] == "chips.transfer"));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_deposit_approved_by_the_agent_moves_chips_from_agent_to_client);

async fn a_withdrawal_approved_moves_chips_back_to_the_agent(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);

    let answer = withdraw(&app, &demo, json!("1000.50")).await;
    let request_id = created(&answer);
    // Asking moves nothing yet.
    assert_eq!(app.balance_minor(&demo).await, DEMO_START);

    let listed = operator_list(&app, &agent, Some("pending")).await;
    let row = listed.iter().find(|row| row["request_id"] == request_id).unwrap();
    assert_eq!(row["type"], "withdraw");
    assert_eq!(row["account_holder"], "Ravi Kumar");
    assert_eq!(row["bank_name"], "HDFC Bank");
    assert_eq!(row["account_number"], "50100012345678");
    assert_eq!(row["ifsc"], IFSC);

    let answer = approve(&app, &agent, request_id).await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["user_balance"]), DEMO_START - 1000_50);
    assert_eq!(minor(&answer.data()["parent_balance"]), AGENT_START + 1000_50);
    assert_eq!(app.balance_minor(&demo).await, DEMO_START - 1000_50);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START + 1000_50);

    let row = statement_row(&app, &demo, request_id).await;
    assert_eq!(row["type"], "withdraw");
    assert_eq!(row["status"], "approved");
    let reference = row["reference"].as_str().unwrap();
    assert!(
        reference.contains("HDFC Bank") && reference.contains("5678") && reference.contains(IFSC),
        "{reference}"
    );
    assert!(
        !reference.contains("50100012345678"),
        "the statement shortens the account number: {reference}"
    );
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_withdrawal_approved_moves_chips_back_to_the_agent);

async fn a_withdrawal_over_the_available_balance_is_422(app: TestApp) {
    let (agent, demo) = (app.agent().await, app.demo().await);

    let answer = withdraw(&app, &demo, json!("100000.01")).await;
    answer.expect(422);
    assert!(
        answer.message().contains("at most ₹1,00,000.00"),
        "names the available amount: {}",
        answer.message()
    );

    // Withdrawals already asked for count against what may still be asked.
    created(&withdraw(&app, &demo, json!(60_000)).await);
    let answer = withdraw(&app, &demo, json!(40_000.01)).await;
    answer.expect(422);
    assert!(
        answer.message().contains("at most ₹40,000.00")
            && answer.message().contains("₹60,000.00 in withdrawals"),
        "{}",
        answer.message()
    );
    created(&withdraw(&app, &demo, json!(40_000)).await);

    assert_eq!(statement(&app, &demo).await.len(), 2, "refused requests are not stored");
    assert_eq!(app.balance_minor(&demo).await, DEMO_START);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START);
}
both_databases!(a_withdrawal_over_the_available_balance_is_422);

async fn approval_checks_the_funds_again_and_leaves_a_refused_request_pending(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    let demo_id = app.user_id(&admin, "demo").await;

    // The client asks for all of it, then the agent takes most of it back by hand.
    let request_id = created(&withdraw(&app, &demo, json!(100_000)).await);
    app.post(
        "admin/user/transfer",
        Some(&agent),
        json!({ "user_id": demo_id, "amount": 99_000, "direction": "withdraw" }),
    )
    .await
    .expect(200);
    let answer = approve(&app, &agent, request_id).await;
    answer.expect(422);
    assert!(answer.message().contains("demo has only ₹1,000.00"), "{}", answer.message());
    assert_eq!(request_status(&app, &agent, request_id).await, "pending");
    assert_eq!(app.balance_minor(&demo).await, 1_000_00);

    // A deposit the parent cannot cover: a fresh agent holding 100.00 and its client.
    let (pool_id, pool) = app.new_user(&admin, "pool", "agent").await;
    app.post(
        "admin/user/transfer",
        Some(&admin),
        json!({ "user_id": pool_id, "amount": 100, "direction": "deposit" }),
    )
    .await
    .expect(200);
    let (_, client) = app.new_user(&pool, "pool_client", "client").await;
    let request_id = created(&deposit(&app, &client, json!(500), "UTR-POOL-1").await);
    let answer = approve(&app, &pool, request_id).await;
    answer.expect(422);
    assert!(answer.message().contains("pool has only ₹100.00"), "{}", answer.message());
    assert_eq!(request_status(&app, &pool, request_id).await, "pending");
    assert_eq!(app.balance_minor(&client).await, 0);
    assert_eq!(app.balance_minor(&pool).await, 100_00);

    // Once the agent has the chips, the same request goes through.
    app.post(
        "admin/user/transfer",
        Some(&admin),
        json!({ "user_id": pool_id, "amount": 400, "direction": "deposit" }),
    )
    .await
    .expect(200);
    approve(&app, &pool, request_id).await.expect(200);
    assert_eq!(app.balance_minor(&client).await, 500_00);
    assert_eq!(app.balance_minor(&pool).await, 0);
    assert!(audit_actions(&app, &admin)
        .await
        .iter()
        .any(|row| row["action"] == "payment.approve_failed"));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(approval_checks_the_funds_again_and_leaves_a_refused_request_pending);

async fn a_rejection_moves_nothing_and_is_final(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    let deposit_id = created(&deposit(&app, &demo, json!(250), "UTR000111222").await);
    let withdraw_id = created(&withdraw(&app, &demo, json!(250)).await);

    let answer = reject(&app, &agent, deposit_id, "").await;
    answer.expect(400);
    assert!(answer.field_error("remark").contains("reason"), "{}", answer.body);

    let answer = reject(&app, &agent, deposit_id, "No such transfer in our bank statement").await;
    answer.expect(200);
    assert_eq!(answer.data()["request_id"], deposit_id);
    assert_eq!(answer.data()["status"], "rejected");
    reject(&app, &agent, withdraw_id, "Account name does not match").await.expect(200);

    assert_eq!(app.balance_minor(&demo).await, DEMO_START);
    assert_eq!(app.balance_minor(&agent).await, AGENT_START);
    let row = statement_row(&app, &demo, deposit_id).await;
    assert_eq!(row["status"], "rejected");
    assert_eq!(row["remark"], "No such transfer in our bank statement");
    assert!(row["decided_at"].is_string());

    // Decided once: neither approving nor rejecting again changes anything.
    let answer = approve(&app, &agent, deposit_id).await;
    answer.expect(409);
    assert!(answer.message().contains("already been rejected"), "{}", answer.message());
    reject(&app, &agent, withdraw_id, "again").await.expect(409);
    assert_eq!(app.balance_minor(&demo).await, DEMO_START);
    assert!(audit_actions(&app, &admin).await.iter().any(|row| row["action"] == "payment.reject"));

    // A rejected deposit's reference may be sent again.
    created(&deposit(&app, &demo, json!(250), "UTR000111222").await);
}
both_databases!(a_rejection_moves_nothing_and_is_final);

async fn a_request_is_approved_once(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);

    let request_id = created(&deposit(&app, &demo, json!(100), "UTR-ONCE-1").await);
    approve(&app, &agent, request_id).await.expect(200);
    let answer = approve(&app, &admin, request_id).await;
    answer.expect(409);
    assert!(answer.message().contains("already been approved"), "{}", answer.message());
    reject(&app, &agent, request_id, "too late").await.expect(409);
    assert_eq!(app.balance_minor(&demo).await, DEMO_START + 100_00);

    // Many decisions at once, from the agent and the admin: exactly one approval pays.
    for (i, kind) in ["deposit", "withdraw"].into_iter().enumerate() {
        let before = app.balance_minor(&demo).await;
        let request_id = match kind {
            "deposit" => created(&deposit(&app, &demo, json!(300), &format!("UTR-RACE-{i}")).await),
            _ => created(&withdraw(&app, &demo, json!(300)).await),
        };
        let answers = join_all((0..6).map(|n| {
            let token = if n % 2 == 0 { agent.clone() } else { admin.clone() };
            let app = &app;
            async move { approve(app, &token, request_id).await }
        }))
        .await;
        let approved = answers.iter().filter(|a| a.status.as_u16() == 200).count();
        for answer in answers.iter().filter(|a| a.status.as_u16() != 200) {
            answer.expect(409);
        }
        assert_eq!(approved, 1, "exactly one concurrent approval wins: {answers:?}");
        let expected = if kind == "deposit" { before + 300_00 } else { before - 300_00 };
        assert_eq!(app.balance_minor(&demo).await, expected, "{kind} paid once");
        assert_eq!(request_status(&app, &agent, request_id).await, "approved");
    }

    // An approval and a rejection at once: one of them decides.
    let request_id = created(&deposit(&app, &demo, json!(50), "UTR-RACE-MIX").await);
    let before = app.balance_minor(&demo).await;
    let (approved, rejected) = tokio::join!(
        approve(&app, &agent, request_id),
        reject(&app, &admin, request_id, "duplicate")
    );
    let statuses = [approved.status.as_u16(), rejected.status.as_u16()];
    assert!(statuses == [200, 409] || statuses == [409, 200], "{statuses:?}");
    let status = request_status(&app, &agent, request_id).await;
    let expected = if statuses[0] == 200 { before + 50_00 } else { before };
    assert_eq!(status, if statuses[0] == 200 { "approved" } else { "rejected" });
    assert_eq!(app.balance_minor(&demo).await, expected);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_request_is_approved_once);

async fn only_the_parent_or_an_admin_decides(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    let (agent_b, client_b) = other_agent_with_client(&app, &admin).await;
    let request_id = created(&deposit(&app, &demo, json!(100), "UTR-PERM-1").await);

    // A client is no operator, not even over their own request.
    let answer = approve(&app, &demo, request_id).await;
    answer.expect(403);
    reject(&app, &demo, request_id, "no").await.expect(403);
    app.post("admin/payment/list", Some(&demo), json!({})).await.expect(403);

    // Another agent neither sees nor decides it, and cannot tell it from an id nobody has:
    // the same 404 for both, as for accounts.
    let unknown = approve(&app, &agent_b, 999_999).await;
    unknown.expect(404);
    for answer in
        [approve(&app, &agent_b, request_id).await, reject(&app, &agent_b, request_id, "no").await]
    {
        answer.expect(404);
        assert_eq!(answer.message(), unknown.message());
        assert_eq!(answer.message(), "No such payment request from your clients.");
    }
    assert!(operator_list(&app, &agent_b, None).await.is_empty());
    assert_eq!(request_status(&app, &agent, request_id).await, "pending");

    // The agent sees only its own clients' requests; the admin sees all and may decide any.
    let other_id = created(&deposit(&app, &client_b, json!(10), "UTR-PERM-2").await);
    let ids = |rows: Vec<Value>| {
        rows.iter().map(|row| row["request_id"].as_i64().unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(ids(operator_list(&app, &agent, None).await), vec![request_id]);
    assert_eq!(ids(operator_list(&app, &agent_b, None).await), vec![other_id]);
    assert_eq!(ids(operator_list(&app, &admin, None).await), vec![other_id, request_id]);
    reject(&app, &admin, other_id, "Not received").await.expect(200);

    approve(&app, &agent, 999_999).await.expect(404);
    let answer = approve(&app, &admin, 999_999).await;
    answer.expect(404);
    assert!(answer.message().contains("999999"), "{}", answer.message());
    assert_eq!(app.balance_minor(&demo).await, DEMO_START);
}
both_databases!(only_the_parent_or_an_admin_decides);

/// Refusals the user reads and stays logged in for: 422 with the message, never the 403 that
/// ends the client app's session (spec §8).
async fn requests_need_the_payment_gateway_and_a_parent(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);

    // The admin has no parent to ask.
    let answer = deposit(&app, &admin, json!(100), "UTR-ADMIN").await;
    answer.expect(422);
    assert_eq!(
        answer.message(),
        "Deposits and withdrawals go through your agent, and this account has none."
    );

    app.post("admin/settings", Some(&admin), json!({ "payment_gateway": 0 })).await.expect(200);
    let answer = deposit(&app, &demo, json!(100), "UTR-OFF-1").await;
    answer.expect(422);
    assert_eq!(answer.message(), "Deposits and withdrawals are turned off on this site.");
    let answer = withdraw(&app, &demo, json!(100)).await;
    answer.expect(422);
    assert_eq!(answer.message(), "Deposits and withdrawals are turned off on this site.");
    // The session was refused nothing: it goes on.
    app.get("user/getUserBalance", Some(&demo)).await.expect(200);
    // The statement stays readable.
    assert!(statement(&app, &demo).await.is_empty());

    app.post("admin/settings", Some(&admin), json!({ "payment_gateway": 1 })).await.expect(200);
    created(&deposit(&app, &demo, json!(100), "UTR-ON-1").await);
}
both_databases!(requests_need_the_payment_gateway_and_a_parent);

async fn invalid_fields_are_400_and_store_nothing(app: TestApp) {
    let demo = app.demo().await;

    for (amount, problem) in [
        (json!(0), "more than 0"),
        (json!(-5), "more than 0"),
        (json!("-250.50"), "more than 0"),
        (json!(10.005), "2 decimal"),
    ] {
        let answer = deposit(&app, &demo, amount.clone(), "UTR-FIELDS").await;
        answer.expect(400);
        assert!(answer.field_error("amount").contains(problem), "{amount}: {}", answer.body);
        let answer = withdraw(&app, &demo, amount.clone()).await;
        answer.expect(400);
        assert!(answer.field_error("amount").contains(problem), "{amount}: {}", answer.body);
    }

    let answer = deposit(&app, &demo, json!(100), "   ").await;
    answer.expect(400);
    assert!(answer.field_error("reference").contains("required"), "{}", answer.body);
    let answer = deposit(&app, &demo, json!(100), &"U".repeat(65)).await;
    answer.expect(400);
    assert!(answer.field_error("reference").contains("64"), "{}", answer.body);
    let answer = app.post("payment/deposit", Some(&demo), json!({ "reference": "UTR1" })).await;
    answer.expect(400);
    assert!(answer.field_error("amount").contains("required"), "{}", answer.body);

    let bank = |ifsc: &str, account_number: &str| json!({ "amount": 100, "account_holder": "Ravi Kumar", "bank_name": "HDFC Bank", "account_number": account_number, "ifsc": ifsc });
    for ifsc in ["HDFC1001234", "HDF00001234", "HDFC000123", "HDFC00012345", "", "HDFC0-01234"] {
        let answer = app.post("payment/withdraw", Some(&demo), bank(ifsc, "50100012345678")).await;
        answer.expect(400);
        assert!(answer.field_error("ifsc").contains("IFSC"), "{ifsc:?}: {}", answer.body);
    }
    for account_number in ["12345", "123456789012345678901", "12345X789", ""] {
        let answer = app.post("payment/withdraw", Some(&demo), bank(IFSC, account_number)).await;
        answer.expect(400);
        assert!(
            answer.field_error("account_number").contains("6 to 20 digits"),
            "{account_number:?}: {}",
            answer.body
        );
    }
    // Every field's problem is named at once.
    let answer = app.post("payment/withdraw", Some(&demo), json!({ "amount": 0 })).await;
    answer.expect(400);
    for field in ["amount", "account_holder", "bank_name", "account_number", "ifsc"] {
        assert!(!answer.field_error(field).is_empty(), "{field}: {}", answer.body);
    }

    assert!(statement(&app, &demo).await.is_empty(), "nothing may be stored");
    // A lower-case IFSC is read as the code it is.
    let answer =
        app.post("payment/withdraw", Some(&demo), bank("hdfc0001234", "50100012345678")).await;
    let request_id = created(&answer);
    let agent = app.agent().await;
    let row = operator_list(&app, &agent, None)
        .await
        .into_iter()
        .find(|row| row["request_id"] == request_id)
        .unwrap();
    assert_eq!(row["ifsc"], IFSC);

    // Operator bodies: a bad status filter, a missing request id, a long remark.
    app.post("admin/payment/list", Some(&agent), json!({ "status": "paid" })).await.expect(400);
    app.post("admin/payment/approve", Some(&agent), json!({})).await.expect(400);
    let answer = app
        .post(
            "admin/payment/approve",
            Some(&agent),
            json!({ "request_id": request_id, "remark": "x".repeat(201) }),
        )
        .await;
    answer.expect(400);
    assert!(answer.field_error("remark").contains("200"), "{}", answer.body);
    app.post("report/paymentStatement", Some(&demo), json!({ "limit": 101 })).await.expect(400);
}
both_databases!(invalid_fields_are_400_and_store_nothing);

async fn limits_on_open_requests_and_repeated_references(app: TestApp) {
    let (agent, demo) = (app.agent().await, app.demo().await);

    let first = created(&deposit(&app, &demo, json!(10), "UTR-DUP-1").await);
    let answer = deposit(&app, &demo, json!(10), "UTR-DUP-1").await;
    answer.expect(409);
    assert!(answer.message().contains("reference"), "{}", answer.message());

    for i in 2..=5 {
        created(&deposit(&app, &demo, json!(10), &format!("UTR-DUP-{i}")).await);
    }
    let answer = deposit(&app, &demo, json!(10), "UTR-DUP-6").await;
    answer.expect(409);
    assert!(answer.message().contains('5'), "{}", answer.message());
    withdraw(&app, &demo, json!(10)).await.expect(409);

    // Another client has their own allowance; a decision frees a place.
    let demo2 = app.login("demo2", "Demo@1234").await;
    created(&deposit(&app, &demo2, json!(10), "UTR-DEMO2-1").await);
    reject(&app, &agent, first, "duplicate").await.expect(200);
    created(&withdraw(&app, &demo, json!(10)).await);

    // An approved deposit's reference stays taken.
    let answer = app.post("admin/payment/list", Some(&agent), json!({ "status": "pending" })).await;
    let second = answer.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["reference"] == "UTR-DUP-2")
        .unwrap()["request_id"]
        .as_i64()
        .unwrap();
    approve(&app, &agent, second).await.expect(200);
    deposit(&app, &demo2, json!(10), "UTR-DUP-2").await.expect(409);
}
both_databases!(limits_on_open_requests_and_repeated_references);

async fn every_payment_call_needs_a_token(app: TestApp) {
    for path in [
        "payment/deposit",
        "payment/withdraw",
        "report/paymentStatement",
        "admin/payment/list",
        "admin/payment/approve",
        "admin/payment/reject",
    ] {
        let answer = app.post(path, None, json!({})).await;
        answer.expect(401);
        let answer = app.post(path, Some("not-a-token"), json!({})).await;
        answer.expect(401);
    }
}
both_databases!(every_payment_call_needs_a_token);

async fn a_user_sees_only_their_own_requests(app: TestApp) {
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let mine: Vec<i64> = vec![
        created(&deposit(&app, &demo, json!(10), "UTR-MINE-1").await),
        created(&withdraw(&app, &demo, json!(20)).await),
        created(&deposit(&app, &demo, json!(30), "UTR-MINE-3").await),
    ];
    let theirs = created(&deposit(&app, &demo2, json!(40), "UTR-THEIRS-1").await);

    let rows = statement(&app, &demo).await;
    let ids: Vec<i64> = rows.iter().map(|row| row["request_id"].as_i64().unwrap()).collect();
    assert_eq!(
        ids,
        mine.iter().rev().copied().collect::<Vec<_>>(),
        "own requests only, newest first"
    );
    let rows = statement(&app, &demo2).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["request_id"], theirs);

    // Paging: {rows, total, page, limit}.
    let answer =
        app.post("report/paymentStatement", Some(&demo), json!({ "page": 2, "limit": 2 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 3);
    assert_eq!(answer.data()["limit"], 2);
    assert_eq!(answer.data()["rows"].as_array().unwrap().len(), 1);
    assert_eq!(answer.data()["rows"][0]["request_id"], mine[0]);
}
both_databases!(a_user_sees_only_their_own_requests);

async fn payment_calls_are_in_the_openapi_document(app: TestApp) {
    let openapi: Value = app.openapi().await;
    let paths = openapi["paths"].as_object().unwrap();
    for path in [
        "/api/payment/deposit",
        "/api/payment/withdraw",
        "/api/report/paymentStatement",
        "/api/admin/payment/list",
        "/api/admin/payment/approve",
        "/api/admin/payment/reject",
    ] {
        assert!(paths[path]["post"].is_object(), "{path} missing from the OpenAPI document");
    }
}
both_databases!(payment_calls_are_in_the_openapi_document);
