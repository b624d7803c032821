//! Log-in, sign-up, log-out, change-password, tokens and throttling.

use futures::StreamExt as _;
use serde_json::json;

use crate::both_databases;
use crate::common::TestApp;

async fn login_answers_the_session_the_client_stores(app: TestApp) {
    let admin = app.admin().await;
    let agent_id = app.user_id(&admin, "agent").await;
    let answer = app.login_answer("demo", "Demo@1234").await;
    answer.expect(200);
    let data = answer.data();
    assert_eq!(data["user_name"], "demo");
    assert_eq!(data["is_change_password"], 0);
    assert_eq!(data["parent_id"], agent_id);
    assert_eq!(data["role"], "client");
    assert_eq!(data["token"].as_str().unwrap().len(), 43);
    let token = data["token"].as_str().unwrap();
    app.get("user/getUserBalance", Some(token)).await.expect(200);
    // The operator has no parent: -1.
    let admin_login = app.login_answer("admin", "Admin@1234").await;
    assert_eq!(admin_login.data()["parent_id"], -1);
    assert_eq!(admin_login.data()["role"], "admin");
}
both_databases!(login_answers_the_session_the_client_stores);

async fn user_names_are_matched_ignoring_case(app: TestApp) {
    let answer = app.login_answer("DeMo", "Demo@1234").await;
    answer.expect(200);
    assert_eq!(answer.data()["user_name"], "demo");
}
both_databases!(user_names_are_matched_ignoring_case);

async fn unknown_user_and_wrong_password_get_the_same_answer(app: TestApp) {
    let wrong_password = app.login_answer("demo", "Wrong@1234").await;
    let unknown_user = app.login_answer("nobody_here", "Demo@1234").await;
    wrong_password.expect(400);
    unknown_user.expect(400);
    assert_eq!(wrong_password.message(), "Incorrect user name or password.");
    assert_eq!(unknown_user.message(), wrong_password.message());
}
both_databases!(unknown_user_and_wrong_password_get_the_same_answer);

async fn login_fields_are_required(app: TestApp) {
    let answer = app.post("user/login", None, json!({ "password": "x" })).await;
    answer.expect(400);
    assert_eq!(answer.field_error("user_name"), "user_name is required.");
    let answer = app.post("user/login", None, json!({ "user_name": "  ", "password": "" })).await;
    answer.expect(400);
    assert_eq!(answer.field_error("user_name"), "User name is required.");
    assert_eq!(answer.field_error("password"), "Password is required.");
}
both_databases!(login_fields_are_required);

async fn repeated_failures_are_throttled_with_429(app: TestApp) {
    for _ in 0..5 {
        app.login_answer("demo2", "Wrong@1234").await.expect(400);
    }
    // Even the right password is refused while the name is blocked.
    let blocked = app.login_answer("DEMO2", "Demo@1234").await;
    blocked.expect(429);
    assert!(blocked.message().contains("Too many failed log-in attempts"), "{}", blocked.message());
    let retry_after: u64 = blocked.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry_after > 0 && retry_after <= 15 * 60);
    // Another user from the same address is not blocked by demo2's failures.
    app.login_answer("demo", "Demo@1234").await.expect(200);
}
both_databases!(repeated_failures_are_throttled_with_429);

async fn logout_revokes_only_that_session(app: TestApp) {
    let first = app.demo().await;
    let second = app.demo().await;
    let answer =
        app.post("user/logout", Some(&first), json!({ "user_id": 3, "token": first })).await;
    answer.expect(200);
    let after = app.get("user/getUserBalance", Some(&first)).await;
    after.expect(401);
    assert!(after.message().contains("Log in again"));
    app.get("user/getUserBalance", Some(&second)).await.expect(200);
    // Logging out twice is a 401: the session is gone.
    app.post("user/logout", Some(&first), json!({})).await.expect(401);
}
both_databases!(logout_revokes_only_that_session);

async fn missing_or_bad_tokens_get_401(app: TestApp) {
    let no_token = app.get("user/getUserBalance", None).await;
    no_token.expect(401);
    assert_eq!(no_token.message(), "Log in to continue.");
    app.get("user/getUserBalance", Some("not-a-real-token")).await.expect(401);
    app.get("user/getUserBalance", Some(&"x".repeat(5000))).await.expect(401);
    let basic = app
        .client
        .get(format!("{}/user/getUserBalance", app.base))
        .header("authorization", "Basic ZGVtbzpEZW1vQDEyMzQ=")
        .send()
        .await
        .unwrap();
    assert_eq!(basic.status().as_u16(), 401);
}
both_databases!(missing_or_bad_tokens_get_401);

fn signup_body(user_name: &str) -> serde_json::Value {
    json!({ "user_name": user_name, "password": "Signup@123", "confirm_password": "Signup@123", "dial_code": "+91", "mobile": "9876543210" })
}

async fn signup_creates_a_client_under_the_default_parent(app: TestApp) {
    let admin = app.admin().await;
    let agent_id = app.user_id(&admin, "agent").await;
    let answer = app.post("user/signup", None, signup_body("newbettor")).await;
    answer.expect(200);
    assert_eq!(answer.data()["user_name"], "newbettor");
    assert_eq!(answer.data()["role"], "client");
    assert_eq!(answer.data()["parent_id"], agent_id);
    assert_eq!(answer.data()["is_change_password"], 0);
    let token = answer.data()["token"].as_str().unwrap();
    assert_eq!(app.balance_minor(token).await, 0);
    app.login("newbettor", "Signup@123").await;
    let taken = app.post("user/signup", None, signup_body("NewBettor")).await;
    taken.expect(409);
    assert!(taken.message().contains("already taken"));
}
both_databases!(signup_creates_a_client_under_the_default_parent);

async fn signup_reports_every_bad_field(app: TestApp) {
    let answer = app
        .post(
            "user/signup",
            None,
            json!({ "user_name": "9x", "password": "short", "confirm_password": "other", "dial_code": "91", "mobile": "12ab" }),
        )
        .await;
    answer.expect(400);
    assert!(answer.field_error("user_name").contains("3 to 20"));
    assert!(answer.field_error("password").contains("at least 8"));
    assert!(answer.field_error("confirm_password").contains("match"));
    assert!(answer.field_error("dial_code").contains("+91"));
    assert!(answer.field_error("mobile").contains("6 to 15 digits"));
    let missing = app.post("user/signup", None, json!({ "user_name": "abc" })).await;
    missing.expect(400);
    assert!(!missing.body["data"]["errors"].as_object().unwrap().is_empty());
}
both_databases!(signup_reports_every_bad_field);

async fn signup_can_be_closed(app: TestApp) {
    let admin = app.admin().await;
    app.post("admin/settings", Some(&admin), json!({ "signup_enabled": 0 })).await.expect(200);
    let answer = app.post("user/signup", None, signup_body("lateuser")).await;
    answer.expect(422);
    assert!(answer.message().contains("closed"));
}
both_databases!(signup_can_be_closed);

fn change_body(master: &str, new: &str, confirm: &str) -> serde_json::Value {
    json!({ "master_password": master, "new_password": new, "confirm_password": confirm, "old_password": "" })
}

async fn change_password_checks_the_rules_of_spec_5(app: TestApp) {
    let token = app.demo().await;
    let answer = app.post("user/changePassword", Some(&token), change_body("", "", "")).await;
    answer.expect(400);
    assert_eq!(answer.field_error("master_password"), "Current password is required.");
    assert_eq!(answer.field_error("new_password"), "New password is required.");
    let answer = app
        .post("user/changePassword", Some(&token), change_body("Demo@1234", "abcdefgh", "abcdefgh"))
        .await;
    answer.expect(400);
    assert!(answer.field_error("new_password").contains("one letter and one digit"));
    let answer = app
        .post(
            "user/changePassword",
            Some(&token),
            change_body("Demo@1234", "abc 12345", "abc 12345"),
        )
        .await;
    assert!(answer.field_error("new_password").contains("@$!%*#?&"));
    let answer = app
        .post(
            "user/changePassword",
            Some(&token),
            change_body("Demo@1234", "Fresh@123", "Fresh@124"),
        )
        .await;
    answer.expect(400);
    assert_eq!(answer.field_error("confirm_password"), "Passwords must match.");
    let answer = app
        .post(
            "user/changePassword",
            Some(&token),
            change_body("Wrong@1234", "Fresh@123", "Fresh@123"),
        )
        .await;
    answer.expect(400);
    assert_eq!(answer.field_error("master_password"), "Current password is incorrect.");
    // Nothing changed: the old password still works.
    app.login("demo", "Demo@1234").await;
}
both_databases!(change_password_checks_the_rules_of_spec_5);

async fn change_password_revokes_other_sessions_and_keeps_this_one(app: TestApp) {
    let this = app.demo().await;
    let other = app.demo().await;
    let answer = app
        .post(
            "user/changePassword",
            Some(&this),
            change_body("Demo@1234", "Fresh@123", "Fresh@123"),
        )
        .await;
    answer.expect(200);
    app.get("user/getUserBalance", Some(&this)).await.expect(200);
    app.get("user/getUserBalance", Some(&other)).await.expect(401);
    app.login_answer("demo", "Demo@1234").await.expect(400);
    app.login("demo", "Fresh@123").await;
}
both_databases!(change_password_revokes_other_sessions_and_keeps_this_one);

async fn a_user_created_by_a_parent_must_change_password_first(app: TestApp) {
    let agent = app.agent().await;
    app.post(
        "admin/user/create",
        Some(&agent),
        json!({ "user_name": "fresh_client", "password": "Given@123", "role": "client" }),
    )
    .await
    .expect(200);
    let login = app.login_answer("fresh_client", "Given@123").await;
    login.expect(200);
    assert_eq!(login.data()["is_change_password"], 1);
    let token = login.data()["token"].as_str().unwrap().to_string();
    // The balance poll keeps working; everything else waits for the new password.
    app.get("user/getUserBalance", Some(&token)).await.expect(200);
    let blocked = app.get("user/getButtonValue", Some(&token)).await;
    blocked.expect(428);
    assert!(blocked.message().contains("Change your password"));
    app.post(
        "user/changePassword",
        Some(&token),
        change_body("Given@123", "Mine@1234", "Mine@1234"),
    )
    .await
    .expect(200);
    app.get("user/getButtonValue", Some(&token)).await.expect(200);
    assert_eq!(app.login_answer("fresh_client", "Mine@1234").await.data()["is_change_password"], 0);
}
both_databases!(a_user_created_by_a_parent_must_change_password_first);

// ---------------------------------------------------------------------------------------------
// Log-in storms (issue 11, finding 1): an attempt is counted before its password is hashed, so
// no number of log-ins sent at once gets more password checks than the limit.

/// How many answers had each status, e.g. `{400: 5, 429: 20}`.
fn statuses(answers: &[crate::common::Answer]) -> std::collections::BTreeMap<u16, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for answer in answers {
        *counts.entry(answer.status.as_u16()).or_default() += 1;
    }
    counts
}

async fn a_burst_of_wrong_passwords_at_once_gets_at_most_five_checks(app: TestApp) {
    let mut burst: futures::stream::FuturesUnordered<_> =
        (0..25).map(|i| app.spawn_login("demo2", &format!("Wrong@{i:04}"))).collect();
    // The first answer back comes while the rest are still being worked on; a right password
    // sent now, inside the burst, must be refused like the wrong ones past the limit.
    let mut answers = vec![burst.next().await.unwrap().unwrap()];
    let right = app.login_answer("demo2", "Demo@1234").await;
    while let Some(answer) = burst.next().await {
        answers.push(answer.unwrap());
    }
    let counts = statuses(&answers);
    let checked = counts.get(&400).copied().unwrap_or(0);
    assert!(checked <= 5, "at most 5 passwords checked for one name, got {counts:?}");
    assert_eq!(
        counts.get(&429).copied().unwrap_or(0),
        25 - checked,
        "every other answer is a 429: {counts:?}"
    );
    for refused in answers.iter().filter(|a| a.status == 429) {
        let retry_after: u64 = refused.headers["retry-after"].to_str().unwrap().parse().unwrap();
        assert!(retry_after > 0 && retry_after <= 15 * 60, "{retry_after}");
        assert!(refused.message().contains("Try again"), "{}", refused.message());
    }
    right.expect(429);
    // The burst used the name's allowance: the right password is still refused afterwards.
    app.login_answer("demo2", "Demo@1234").await.expect(429);
    app.login_answer("demo", "Demo@1234").await.expect(200);
}
both_databases!(a_burst_of_wrong_passwords_at_once_gets_at_most_five_checks);

async fn two_hundred_log_ins_at_once_from_one_address_get_at_most_its_limit_of_checks(
    app: TestApp,
) {
    // Every name different, so only the address's limit (30 failures) stands in the way.
    let burst: Vec<_> =
        (0..200).map(|i| app.spawn_login(&format!("ghost{i}"), "Wrong@1234")).collect();
    let mut answers = Vec::new();
    for request in burst {
        answers.push(request.await.unwrap());
    }
    let counts = statuses(&answers);
    let checked = counts.get(&400).copied().unwrap_or(0);
    assert!(checked <= 30, "at most the address's 30 checks, got {counts:?}");
    let refused: Vec<_> = answers.iter().filter(|a| a.status != 400).collect();
    assert_eq!(refused.len(), 200 - checked);
    for answer in refused {
        // Past the limit (429), or beyond the queue for the password hasher (503); either says
        // when to come back.
        assert!(matches!(answer.status.as_u16(), 429 | 503), "{counts:?}: {}", answer.body);
        assert!(answer.headers.contains_key("retry-after"), "{}", answer.body);
    }
    eprintln!("200 log-ins at once from one address: {counts:?}");
}
both_databases!(two_hundred_log_ins_at_once_from_one_address_get_at_most_its_limit_of_checks);

// ---------------------------------------------------------------------------------------------
// Tokens (issue 11, finding 12): a token that was never issued is "not logged in"; one that was
// issued and has ended has expired.

async fn a_token_never_issued_is_not_logged_in_and_an_ended_one_has_expired(app: TestApp) {
    for path in ["user/getUserBalance", "user/getButtonValue"] {
        let never = app.get(path, Some("never-issued-token")).await;
        never.expect(401);
        assert_eq!(never.message(), "You are not logged in.", "{path}");
    }
    let never = app.get("user/getUserBalance", Some(&"x".repeat(5000))).await;
    never.expect(401);
    assert_eq!(never.message(), "You are not logged in.");
    let token = app.demo().await;
    app.post("user/logout", Some(&token), json!({})).await.expect(200);
    for path in ["user/getUserBalance", "user/getButtonValue"] {
        let ended = app.get(path, Some(&token)).await;
        ended.expect(401);
        assert_eq!(ended.message(), "Your session has expired. Log in again.", "{path}");
    }
}
both_databases!(a_token_never_issued_is_not_logged_in_and_an_ended_one_has_expired);

// ---------------------------------------------------------------------------------------------
// The client's address behind a proxy (issue 11, finding 5): a proxy appends the address it saw
// to X-Forwarded-For, so only the right-most hops are the proxies' word; the rest is whatever
// the client sent.

/// Signs up a new client with these X-Forwarded-For header lines and answers the address the
/// audit log recorded for the sign-up.
async fn signup_address(app: &TestApp, user_name: &str, forwarded_for: &[&str]) -> Option<String> {
    let mut request =
        app.client.post(format!("{}/user/signup", app.base)).json(&signup_body(user_name));
    for line in forwarded_for {
        request = request.header("x-forwarded-for", *line);
    }
    assert_eq!(request.send().await.unwrap().status().as_u16(), 200);
    let admin = app.admin().await;
    let audit = app.post("admin/audit", Some(&admin), json!({ "limit": 20 })).await;
    audit.expect(200);
    let row = audit.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["action"] == "user.signup" && row["detail"]["user_name"] == user_name)
        .cloned()
        .expect("the sign-up is audited");
    row["client_ip"].as_str().map(str::to_string)
}

async fn the_right_most_forwarded_hop_is_the_client(db: crate::common::Db) {
    let Some(app) =
        crate::common::spawn_app_with(db, |config| config.trust_forwarded_for = true).await
    else {
        return;
    };
    // A client's own X-Forwarded-For, with the proxy's hop appended: the spoofed first hop is ignored.
    assert_eq!(
        signup_address(&app, "spoof_one", &["6.6.6.6, 203.0.113.7"]).await.as_deref(),
        Some("203.0.113.7")
    );
    // The same split over two header lines (the proxy added a line of its own).
    assert_eq!(
        signup_address(&app, "spoof_two", &["6.6.6.6", "203.0.113.8"]).await.as_deref(),
        Some("203.0.113.8")
    );
    // No header: the connecting address.
    assert_eq!(signup_address(&app, "direct", &[]).await.as_deref(), Some("127.0.0.1"));
    // A hop that is not an address is not believed either.
    assert_eq!(
        signup_address(&app, "garbage", &["6.6.6.6, not-an-address"]).await.as_deref(),
        Some("127.0.0.1")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_right_most_forwarded_hop_is_the_client_sqlite() {
    the_right_most_forwarded_hop_is_the_client(crate::common::Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_right_most_forwarded_hop_is_the_client_postgres() {
    the_right_most_forwarded_hop_is_the_client(crate::common::Db::Postgres).await;
}

async fn behind_two_proxies_the_second_hop_from_the_right_is_the_client(db: crate::common::Db) {
    let adjust = |config: &mut backlay_kit::config::Config| {
        config.trust_forwarded_for = true;
        config.trusted_proxy_hops = 2;
    };
    let Some(app) = crate::common::spawn_app_with(db, adjust).await else { return };
    // client's lie, the address the outer proxy saw, the outer proxy as the inner one saw it
    assert_eq!(
        signup_address(&app, "two_hops", &["6.6.6.6, 198.51.100.9, 10.0.0.2"]).await.as_deref(),
        Some("198.51.100.9")
    );
    // Only one entry: it did not come through both proxies.
    assert_eq!(signup_address(&app, "one_hop", &["10.0.0.2"]).await.as_deref(), Some("127.0.0.1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_two_proxies_the_second_hop_from_the_right_is_the_client_sqlite() {
    behind_two_proxies_the_second_hop_from_the_right_is_the_client(crate::common::Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_two_proxies_the_second_hop_from_the_right_is_the_client_postgres() {
    behind_two_proxies_the_second_hop_from_the_right_is_the_client(crate::common::Db::Postgres)
        .await;
}

async fn forwarded_for_is_ignored_unless_trusted(app: TestApp) {
    assert_eq!(
        signup_address(&app, "untrusted", &["6.6.6.6, 203.0.113.7"]).await.as_deref(),
        Some("127.0.0.1")
    );
}
both_databases!(forwarded_for_is_ignored_unless_trusted);

// ---------------------------------------------------------------------------------------------
// Sign-ups counted per address (issue 33): past the limit, 429 with Retry-After before any
// hashing; another address, and logging in, are not held up by it.

fn two_sign_ups_an_address(config: &mut backlay_kit::config::Config) {
    config.trust_forwarded_for = true;
    config.throttle.max_sign_ups_per_address = 2;
}

async fn sign_ups_from_one_address_are_throttled(app: TestApp) {
    let from = |user_name: &str, address: &str| {
        app.client
            .post(format!("{}/user/signup", app.base))
            .header("x-forwarded-for", address)
            .json(&signup_body(user_name))
            .send()
    };
    assert_eq!(from("burst_one", "203.0.113.20").await.unwrap().status().as_u16(), 200);
    // A name already taken still went as far as the hashing: it counts.
    assert_eq!(from("burst_one", "203.0.113.20").await.unwrap().status().as_u16(), 409);
    let refused = from("burst_three", "203.0.113.20").await.unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    let retry_after: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=15 * 60).contains(&retry_after), "{retry_after}");
    let body: serde_json::Value = refused.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("Too many sign-ups"), "{body}");
    // Nothing was made for the refused one; another address signs up, and the first one's
    // account still logs in.
    let admin = app.admin().await;
    let users = app.post("admin/user/list", Some(&admin), json!({ "search": "burst_three" })).await;
    assert!(!users.body.to_string().contains("burst_three"), "{}", users.body);
    assert_eq!(from("burst_four", "203.0.113.21").await.unwrap().status().as_u16(), 200);
    app.login("burst_one", "Signup@123").await;
}
both_databases!(sign_ups_from_one_address_are_throttled, super::two_sign_ups_an_address);
