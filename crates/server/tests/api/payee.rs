//! Where a bettor pays and is paid, over HTTP: the operator and agents set their UPI id and
//! bank details (admin/payment/details), a client reads the nearest ones above it
//! (payment/details, with the upi:// link for the QR code), and the bank account a withdrawal
//! used is saved and offered again (payment/bankAccount) — with bad input and who may do what.

use crate::both_databases;
use crate::common::TestApp;
use serde_json::{json, Value};

async fn set_details(app: &TestApp, token: &str, body: Value) -> crate::common::Answer {
    app.post("admin/payment/details", Some(token), body).await
}

async fn payee(app: &TestApp, token: &str) -> Value {
    let answer = app.get("payment/details", Some(token)).await;
    answer.expect(200);
    answer.data().clone()
}

async fn the_client_pays_the_nearest_payee_above_it(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    assert_eq!(payee(&app, &demo).await, Value::Null, "nobody has set details yet");

    // The operator's details reach a client whose agent set none.
    set_details(&app, &admin, json!({ "upi_id": "backlay.ops@okaxis", "upi_name": "Backlay Ops" }))
        .await
        .expect(200);
    let details = payee(&app, &demo).await;
    assert_eq!(details["payee"], "admin");
    assert_eq!(details["upi_id"], "backlay.ops@okaxis");
    assert_eq!(details["upi_uri"], "upi://pay?pa=backlay.ops@okaxis&pn=Backlay%20Ops&cu=INR");
    assert_eq!(details["bank"], Value::Null);

    // Once the agent sets its own, its clients see the agent's.
    let answer = set_details(
        &app,
        &agent,
        json!({ "upi_id": "agent.one@ybl", "account_name": "Agent One", "account_number": "50100012345678",
                "ifsc": "hdfc0001234", "bank_name": "HDFC Bank" }),
    )
    .await;
    answer.expect(200);
    assert_eq!(answer.data()["bank"]["ifsc"], "HDFC0001234", "the IFSC is kept in capitals");
    let details = payee(&app, &demo).await;
    assert_eq!(details["payee"], "agent");
    assert_eq!(details["upi_name"], "agent", "without a name, the payee's user name");
    assert_eq!(details["upi_uri"], "upi://pay?pa=agent.one@ybl&pn=agent&cu=INR");
    assert_eq!(details["bank"]["account_number"], "50100012345678");
    assert_eq!(details["bank"]["bank_name"], "HDFC Bank");

    // Each operator reads back its own.
    assert_eq!(
        app.get("admin/payment/details", Some(&agent)).await.data()["upi_id"],
        "agent.one@ybl"
    );
    assert_eq!(
        app.get("admin/payment/details", Some(&admin)).await.data()["upi_id"],
        "backlay.ops@okaxis"
    );

    // Bank details alone replace the UPI id; clearing falls back to the operator's.
    set_details(
        &app,
        &agent,
        json!({ "account_name": "Agent One", "account_number": "123456", "ifsc": "SBIN0000001", "bank_name": "SBI" }),
    )
    .await
    .expect(200);
    let details = payee(&app, &demo).await;
    assert_eq!(details["upi_id"], Value::Null);
    assert_eq!(details["upi_uri"], Value::Null);
    assert_eq!(details["bank"]["bank_name"], "SBI");
    set_details(&app, &agent, json!({ "clear": true })).await.expect(200);
    assert_eq!(payee(&app, &demo).await["payee"], "admin");
    assert_eq!(app.get("admin/payment/details", Some(&agent)).await.data(), &Value::Null);
}
both_databases!(the_client_pays_the_nearest_payee_above_it);

async fn bad_payment_details_are_refused_by_field(app: TestApp) {
    let agent = app.agent().await;
    let answer = set_details(&app, &agent, json!({})).await;
    answer.expect(400);
    assert!(answer.field_error("upi_id").contains("Give a UPI id"), "{}", answer.body);

    for bad in ["agent", "agent@", "@okaxis", "a b@okaxis", "agent@ok.axis"] {
        let answer = set_details(&app, &agent, json!({ "upi_id": bad })).await;
        answer.expect(400);
        assert!(answer.field_error("upi_id").contains("Enter a UPI id"), "{bad}: {}", answer.body);
    }

    // A bank account is all four fields or none, each checked.
    let answer = set_details(
        &app,
        &agent,
        json!({ "account_name": "Agent", "account_number": "12ab", "ifsc": "HDFC1234567" }),
    )
    .await;
    answer.expect(400);
    assert!(answer.field_error("account_number").contains("6 to 20 digits"));
    assert!(answer.field_error("ifsc").contains("valid IFSC"));
    assert!(answer.field_error("bank_name").contains("required"));

    let answer = set_details(&app, &agent, json!({ "upi_name": "Agent" })).await;
    answer.expect(400);
    assert!(answer.field_error("upi_id").contains("UPI id the name belongs to"));
    // Nothing was stored by the refusals.
    assert_eq!(app.get("admin/payment/details", Some(&agent)).await.data(), &Value::Null);
}
both_databases!(bad_payment_details_are_refused_by_field);

async fn only_operators_set_payment_details(app: TestApp) {
    let demo = app.demo().await;
    set_details(&app, &demo, json!({ "upi_id": "demo.user@okaxis" })).await.expect(403);
    app.get("admin/payment/details", Some(&demo)).await.expect(403);
    app.get("payment/details", None).await.expect(401);
    app.get("payment/bankAccount", None).await.expect(401);
    app.post("admin/payment/details", None, json!({ "upi_id": "x.y@okaxis" })).await.expect(401);
}
both_databases!(only_operators_set_payment_details);

async fn a_withdrawal_saves_the_bank_account_for_next_time(app: TestApp) {
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let answer = app.get("payment/bankAccount", Some(&demo)).await;
    answer.expect(200);
    assert_eq!(answer.data(), &Value::Null);

    app.post(
        "payment/withdraw",
        Some(&demo),
        json!({ "amount": 150, "account_holder": "Ravi Kumar", "bank_name": "HDFC Bank",
                "account_number": "50100012345678", "ifsc": "hdfc0001234" }),
    )
    .await
    .expect(200);
    let saved = app.get("payment/bankAccount", Some(&demo)).await;
    saved.expect(200);
    assert_eq!(
        saved.data(),
        &json!({ "account_holder": "Ravi Kumar", "bank_name": "HDFC Bank",
                 "account_number": "50100012345678", "ifsc": "HDFC0001234" })
    );
    // Another user sees only their own (none).
    assert_eq!(app.get("payment/bankAccount", Some(&demo2)).await.data(), &Value::Null);

    // Saved on its own, replacing the one before; a refused withdrawal saves nothing.
    app.post(
        "payment/bankAccount",
        Some(&demo),
        json!({ "account_holder": "Ravi K", "bank_name": "SBI", "account_number": "123456789", "ifsc": "SBIN0000001" }),
    )
    .await
    .expect(200);
    app.post(
        "payment/withdraw",
        Some(&demo),
        json!({ "amount": 1_000_000_000, "account_holder": "Someone Else", "bank_name": "Axis",
                "account_number": "999999999", "ifsc": "UTIB0000001" }),
    )
    .await
    .expect(422);
    assert_eq!(app.get("payment/bankAccount", Some(&demo)).await.data()["bank_name"], "SBI");

    let answer = app
        .post(
            "payment/bankAccount",
            Some(&demo),
            json!({ "account_holder": "", "bank_name": "SBI", "account_number": "12", "ifsc": "SBIN000000" }),
        )
        .await;
    answer.expect(400);
    assert!(answer.field_error("account_holder").contains("required"));
    assert!(answer.field_error("account_number").contains("6 to 20 digits"));
    assert!(answer.field_error("ifsc").contains("valid IFSC"));
}
both_databases!(a_withdrawal_saves_the_bank_account_for_next_time);
