//! Security auth: the TOTP algorithm against RFC 6238, and over HTTP the setup → enable →
//! log-in with a code → disable journey, replays, wrong codes and the error paths.
//!
//! The server reads the real clock, so the tests compute codes from it too. A code is accepted
//! one 30-second step either side of the server's, so a test that stays clear of a step's last
//! few seconds (`clear_of_step_edge`) can use the codes of steps s−1, s and s+1 in any order
//! the test needs, even if the step turns over once while it runs.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use backlay_kit::totp::{self, Secret};
use serde_json::json;

use crate::both_databases;
use crate::common::{Answer, TestApp};

// ---------------------------------------------------------------------------------------------
// The algorithm

/// RFC 6238 appendix B, SHA-1 rows: (Unix time, 8-digit code), secret "12345678901234567890".
const RFC_6238_SHA1: [(i64, &str); 6] = [
    (59, "94287082"),
    (1_111_111_109, "07081804"),
    (1_111_111_111, "14050471"),
    (1_234_567_890, "89005924"),
    (2_000_000_000, "69279037"),
    (20_000_000_000, "65353130"),
];

#[test]
fn totp_matches_the_rfc_6238_sha1_vectors() {
    let secret = Secret::from_bytes(*b"12345678901234567890");
    for (unix_s, expected) in RFC_6238_SHA1 {
        let step = totp::step_at(unix_s * 1000);
        assert_eq!(step, unix_s / 30);
        let code = totp::hotp(secret.as_bytes(), step as u64, 8);
        assert_eq!(format!("{code:08}"), expected, "8 digits at T = {unix_s}");
        // The product's 6-digit code is the same number truncated: its last 6 digits.
        assert_eq!(
            totp::code_at(&secret, unix_s * 1000),
            expected[2..],
            "6 digits at T = {unix_s}"
        );
    }
    // The secret as an authenticator app is given it (base32) computes the same codes.
    let from_base32 = Secret::from_base32("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").unwrap();
    assert_eq!(from_base32, secret);
    assert_eq!(totp::code_at(&from_base32, 59_999), "287082");
    // The last millisecond of step 1 and the first of step 2.
    assert_eq!(totp::step_at(59_999), 1);
    assert_eq!(totp::step_at(60_000), 2);
}

// ---------------------------------------------------------------------------------------------
// Helpers

pub(crate) fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64
}

/// Waits until at least 8 s are left of the current step, and returns the step.
pub(crate) async fn clear_of_step_edge() -> i64 {
    let step_ms = totp::STEP_S * 1000;
    let left_ms = step_ms - now_ms().rem_euclid(step_ms);
    if left_ms < 8_000 {
        tokio::time::sleep(Duration::from_millis(left_ms as u64 + 100)).await;
    }
    totp::step_at(now_ms())
}

pub(crate) fn code(secret: &Secret, step: i64) -> String {
    totp::code_for_step(secret, step)
}

/// A well-formed code that is not the code of any step near `step`.
pub(crate) fn wrong_code(secret: &Secret, step: i64) -> String {
    let near: Vec<String> = (step - 3..=step + 3).map(|s| code(secret, s)).collect();
    (0..)
        .map(|n: u32| format!("{:06}", (n * 7919 + 123_457) % 1_000_000))
        .find(|candidate| !near.contains(candidate))
        .unwrap()
}

pub(crate) async fn setup(app: &TestApp, token: &str) -> Secret {
    let answer = app.post("user/security/setup", Some(token), json!({})).await;
    answer.expect(200);
    let text = answer.data()["secret"].as_str().expect("secret").to_string();
    assert_eq!(text.len(), 32, "20 bytes in base32");
    Secret::from_base32(&text).expect("base32 secret")
}

/// Sets up and enables security auth with the code of `step`.
pub(crate) async fn enable(app: &TestApp, token: &str, step: i64) -> Secret {
    let secret = setup(app, token).await;
    app.post("user/security/enable", Some(token), json!({ "otp": code(&secret, step) }))
        .await
        .expect(200);
    secret
}

/// Logs in with the right password and returns the otp_token the answer asks to verify.
pub(crate) async fn otp_token(app: &TestApp, user_name: &str, password: &str) -> String {
    let answer = app.login_answer(user_name, password).await;
    answer.expect(200);
    assert_eq!(answer.data()["otp_required"], true, "{}", answer.body);
    assert!(answer.data().get("token").is_none(), "no session before the code: {}", answer.body);
    answer.data()["otp_token"].as_str().expect("otp_token").to_string()
}

pub(crate) async fn verify(app: &TestApp, otp_token: &str, otp: &str) -> Answer {
    app.post("user/verifyOtp", None, json!({ "otp_token": otp_token, "otp": otp })).await
}

async fn status(app: &TestApp, token: &str) -> i64 {
    let answer = app.get("user/security/status", Some(token)).await;
    answer.expect(200);
    answer.data()["enabled"].as_i64().expect("enabled 0|1")
}

// ---------------------------------------------------------------------------------------------
// The journey

async fn setup_enable_log_in_with_a_code_and_disable(app: TestApp) {
    let login = app.login_answer("demo", "Demo@1234").await;
    login.expect(200);
    assert_eq!(login.data()["security_enabled"], 0);
    let token = login.data()["token"].as_str().unwrap().to_string();
    assert_eq!(status(&app, &token).await, 0);

    // Setup shows a key and its QR URI; a second setup replaces the first key.
    let answer = app.post("user/security/setup", Some(&token), json!({})).await;
    answer.expect(200);
    let first = answer.data()["secret"].as_str().unwrap().to_string();
    assert_eq!(
        answer.data()["otpauth_uri"],
        format!("otpauth://totp/Backlay:demo?secret={first}&issuer=Backlay")
    );
    let secret = setup(&app, &token).await;
    assert_ne!(secret.to_base32(), first);
    assert_eq!(status(&app, &token).await, 0, "pending is not on");

    let s = clear_of_step_edge().await;
    let old_key = Secret::from_base32(&first).unwrap();
    let answer =
        app.post("user/security/enable", Some(&token), json!({ "otp": code(&old_key, s) })).await;
    answer.expect(400);
    assert!(answer.field_error("otp").contains("not correct"), "{}", answer.body);
    let answer = app
        .post("user/security/enable", Some(&token), json!({ "otp": code(&secret, s - 1) }))
        .await;
    answer.expect(200);
    assert!(answer.message().contains("Security auth is on"));
    assert_eq!(status(&app, &token).await, 1);
    // The session that turned it on goes on working.
    app.get("user/getUserBalance", Some(&token)).await.expect(200);

    // Log-in now asks for the code.
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    let wrong = verify(&app, &challenge, &wrong_code(&secret, s)).await;
    wrong.expect(400);
    assert!(wrong.field_error("otp").contains("not correct"), "{}", wrong.body);
    // The code that enabled it was used: refused as a replay.
    let replay = verify(&app, &challenge, &code(&secret, s - 1)).await;
    replay.expect(400);
    assert!(replay.field_error("otp").contains("already been used"), "{}", replay.body);
    let verified = verify(&app, &challenge, &code(&secret, s)).await;
    verified.expect(200);
    let data = verified.data();
    assert_eq!(data["user_name"], "demo");
    assert_eq!(data["role"], "client");
    assert_eq!(data["is_change_password"], 0);
    assert_eq!(data["security_enabled"], 1);
    let session = data["token"].as_str().unwrap().to_string();
    assert_eq!(session.len(), 43);
    app.get("user/getUserBalance", Some(&session)).await.expect(200);
    // The otp_token is used up.
    let again = verify(&app, &challenge, &code(&secret, s + 1)).await;
    again.expect(401);
    assert!(again.message().contains("Log in again"), "{}", again.message());

    // The same code in the same step, through a fresh log-in: a replay.
    let second = otp_token(&app, "demo", "Demo@1234").await;
    let replay = verify(&app, &second, &code(&secret, s)).await;
    replay.expect(400);
    assert!(replay.field_error("otp").contains("already been used"), "{}", replay.body);

    // Disable: every field is checked, then the password and a fresh code are both needed.
    let answer = app.post("user/security/disable", Some(&session), json!({})).await;
    answer.expect(400);
    let answer = app
        .post("user/security/disable", Some(&session), json!({ "otp": "", "password": "" }))
        .await;
    answer.expect(400);
    assert!(answer.field_error("otp").contains("6-digit"));
    assert_eq!(answer.field_error("password"), "Password is required.");
    let answer = app
        .post(
            "user/security/disable",
            Some(&session),
            json!({ "otp": code(&secret, s + 1), "password": "Wrong@1234" }),
        )
        .await;
    answer.expect(400);
    assert_eq!(answer.field_error("password"), "Password is incorrect.");
    let answer = app
        .post(
            "user/security/disable",
            Some(&session),
            json!({ "otp": code(&secret, s), "password": "Demo@1234" }),
        )
        .await;
    answer.expect(400);
    assert!(answer.field_error("otp").contains("already been used"), "{}", answer.body);
    let answer = app
        .post(
            "user/security/disable",
            Some(&session),
            json!({ "otp": code(&secret, s + 1), "password": "Demo@1234" }),
        )
        .await;
    answer.expect(200);
    assert!(answer.message().contains("off"));
    assert_eq!(status(&app, &session).await, 0);
    app.post(
        "user/security/disable",
        Some(&session),
        json!({ "otp": code(&secret, s + 1), "password": "Demo@1234" }),
    )
    .await
    .expect(409);

    // Log-in is one step again; the log-in left waiting for a code is gone.
    let plain = app.login_answer("demo", "Demo@1234").await;
    plain.expect(200);
    assert_eq!(plain.data()["security_enabled"], 0);
    assert!(plain.data()["token"].is_string());
    verify(&app, &second, &code(&secret, s + 1)).await.expect(401);

    // Both changes are in the audit log, with the user as actor.
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let audit = app.post("admin/audit", Some(&admin), json!({ "limit": 10 })).await;
    audit.expect(200);
    let actions: Vec<(String, i64, String)> = audit.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["action"].as_str().unwrap().to_string(),
                row["actor_user_id"].as_i64().unwrap(),
                row["target"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let target = format!("user:{demo_id}");
    assert!(
        actions.contains(&("user.security_enable".into(), demo_id, target.clone())),
        "{actions:?}"
    );
    assert!(actions.contains(&("user.security_disable".into(), demo_id, target)), "{actions:?}");
}
both_databases!(setup_enable_log_in_with_a_code_and_disable);

async fn five_wrong_codes_end_the_log_in_and_throttle_the_name(app: TestApp) {
    let token = app.demo().await;
    let s = clear_of_step_edge().await;
    let secret = enable(&app, &token, s - 1).await;
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    let wrong = wrong_code(&secret, s);
    for attempt in 1..=5 {
        let answer = verify(&app, &challenge, &wrong).await;
        answer.expect(400);
        assert_eq!(
            answer.field_error("otp").contains("log in again"),
            attempt == 5,
            "attempt {attempt}: {}",
            answer.body
        );
    }
    // Dead, even with the right code.
    let dead = verify(&app, &challenge, &code(&secret, s)).await;
    dead.expect(401);
    assert!(dead.message().contains("Log in again"));
    // Wrong codes count as failed log-ins: the name is blocked, the right password too.
    let blocked = app.login_answer("demo", "Demo@1234").await;
    blocked.expect(429);
    assert!(blocked.message().contains("Too many failed log-in attempts"), "{}", blocked.message());
    // Another user is not.
    app.login("demo2", "Demo@1234").await;
}
both_databases!(five_wrong_codes_end_the_log_in_and_throttle_the_name);

async fn a_right_password_does_not_clear_the_failures_before_the_code(app: TestApp) {
    let token = app.demo().await;
    let s = clear_of_step_edge().await;
    let secret = enable(&app, &token, s - 1).await;
    // Rounds of a right password and a few wrong codes add up: five wrong codes in all block it.
    for _ in 0..2 {
        let challenge = otp_token(&app, "demo", "Demo@1234").await;
        for _ in 0..2 {
            verify(&app, &challenge, &wrong_code(&secret, s)).await.expect(400);
        }
    }
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    verify(&app, &challenge, &wrong_code(&secret, s)).await.expect(400);
    verify(&app, &challenge, &code(&secret, s)).await.expect(429);
    app.login_answer("demo", "Demo@1234").await.expect(429);
}
both_databases!(a_right_password_does_not_clear_the_failures_before_the_code);

// ---------------------------------------------------------------------------------------------
// Error paths

async fn security_calls_need_a_session(app: TestApp) {
    for (method, path) in [
        ("POST", "user/security/setup"),
        ("POST", "user/security/enable"),
        ("POST", "user/security/disable"),
        ("GET", "user/security/status"),
    ] {
        let answer = if method == "GET" {
            app.get(path, None).await
        } else {
            app.post(path, None, json!({ "otp": "123456", "password": "x" })).await
        };
        answer.expect(401);
        let answer = if method == "GET" {
            app.get(path, Some("not-a-token")).await
        } else {
            app.post(path, Some("not-a-token"), json!({ "otp": "123456", "password": "x" })).await
        };
        answer.expect(401);
    }
    // A user who must still change the password is sent to do that first.
    let agent = app.agent().await;
    app.post(
        "admin/user/create",
        Some(&agent),
        json!({ "user_name": "fresh_client", "password": "Given@123", "role": "client" }),
    )
    .await
    .expect(200);
    let fresh = app.login("fresh_client", "Given@123").await;
    app.post("user/security/setup", Some(&fresh), json!({})).await.expect(428);
}
both_databases!(security_calls_need_a_session);

async fn enable_and_setup_refuse_the_wrong_state_and_bad_codes(app: TestApp) {
    let token = app.demo().await;
    let before_setup =
        app.post("user/security/enable", Some(&token), json!({ "otp": "123456" })).await;
    before_setup.expect(409);
    assert!(before_setup.message().contains("Set up security auth first"));
    let secret = setup(&app, &token).await;
    let missing = app.post("user/security/enable", Some(&token), json!({})).await;
    missing.expect(400);
    assert_eq!(missing.field_error("otp"), "otp is required.");
    for bad in ["", "12345", "1234567", "12ab56"] {
        let answer = app.post("user/security/enable", Some(&token), json!({ "otp": bad })).await;
        answer.expect(400);
        assert!(answer.field_error("otp").contains("6-digit"), "{bad:?}: {}", answer.body);
    }
    let s = clear_of_step_edge().await;
    // Three steps back is outside the window.
    let stale = app
        .post("user/security/enable", Some(&token), json!({ "otp": code(&secret, s - 3) }))
        .await;
    stale.expect(400);
    assert!(stale.field_error("otp").contains("not correct"));
    // Spaces inside the code are fine.
    let spaced = format!("{} {}", &code(&secret, s)[..3], &code(&secret, s)[3..]);
    app.post("user/security/enable", Some(&token), json!({ "otp": spaced })).await.expect(200);
    let again = app
        .post("user/security/enable", Some(&token), json!({ "otp": code(&secret, s + 1) }))
        .await;
    again.expect(409);
    assert!(again.message().contains("already on"));
    let setup_again = app.post("user/security/setup", Some(&token), json!({})).await;
    setup_again.expect(409);
    assert!(setup_again.message().contains("Turn it off first"));
    assert_eq!(status(&app, &token).await, 1);
}
both_databases!(enable_and_setup_refuse_the_wrong_state_and_bad_codes);

async fn verify_otp_refuses_unknown_tokens_and_bad_input(app: TestApp) {
    for otp_token in ["", "not-a-real-token", &"x".repeat(5000)] {
        let answer = verify(&app, otp_token, "123456").await;
        answer.expect(401);
        assert!(answer.message().contains("Log in again"), "{}", answer.message());
    }
    let missing = app.post("user/verifyOtp", None, json!({ "otp": "123456" })).await;
    missing.expect(400);
    assert_eq!(missing.field_error("otp_token"), "otp_token is required.");

    let token = app.demo().await;
    let s = clear_of_step_edge().await;
    let secret = enable(&app, &token, s - 1).await;
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    let malformed = verify(&app, &challenge, "12 34").await;
    malformed.expect(400);
    assert!(malformed.field_error("otp").contains("6-digit"));
    // A malformed code costs no attempt and does not use the token up.
    verify(&app, &challenge, &code(&secret, s)).await.expect(200);
    // Disable needs security auth on; a user without it gets 409.
    let demo2 = app.login("demo2", "Demo@1234").await;
    let answer = app
        .post(
            "user/security/disable",
            Some(&demo2),
            json!({ "otp": "123456", "password": "Demo@1234" }),
        )
        .await;
    answer.expect(409);
    assert!(answer.message().contains("not on"));
    assert_eq!(status(&app, &demo2).await, 0);
}
both_databases!(verify_otp_refuses_unknown_tokens_and_bad_input);

async fn a_locked_user_gets_no_session_from_a_code(app: TestApp) {
    let token = app.demo().await;
    let s = clear_of_step_edge().await;
    let secret = enable(&app, &token, s - 1).await;
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    let admin = app.admin().await;
    let demo_id = app.user_id(&admin, "demo").await;
    app.post("admin/user/lock", Some(&admin), json!({ "user_id": demo_id, "locked": 1 }))
        .await
        .expect(200);
    let answer = verify(&app, &challenge, &code(&secret, s)).await;
    answer.expect(422);
    assert_eq!(answer.message(), "This account is locked. Contact your agent.");
}
both_databases!(a_locked_user_gets_no_session_from_a_code);

async fn the_openapi_document_lists_the_security_calls(app: TestApp) {
    let openapi: serde_json::Value = app.openapi().await;
    let paths = openapi["paths"].as_object().unwrap();
    for (path, method) in [
        ("/api/user/verifyOtp", "post"),
        ("/api/user/security/setup", "post"),
        ("/api/user/security/enable", "post"),
        ("/api/user/security/disable", "post"),
        ("/api/user/security/status", "get"),
    ] {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} missing from the OpenAPI document"
        );
    }
}
both_databases!(the_openapi_document_lists_the_security_calls);

// ---------------------------------------------------------------------------------------------
// Expiry (the store, on SQLite: the API cannot wait five minutes)

#[tokio::test]
async fn expired_and_used_up_challenges_are_not_live() {
    use backlay_store::security::NewOtpChallenge;
    use backlay_store::users::{NewUser, Role};

    let dir = tempfile::tempdir().unwrap();
    let store =
        backlay_store::Store::connect(&format!("sqlite://{}", dir.path().join("otp.db").display()))
            .await
            .unwrap();
    store.migrate().await.unwrap();
    let now = now_ms();
    let mut writer = store.begin_write().await.unwrap();
    let user_id = writer
        .insert_user(
            &NewUser {
                user_name: &"otp_user".parse().unwrap(),
                password_hash: "x",
                role: Role::Client,
                parent_id: None,
                is_change_password: false,
                dial_code: None,
                mobile: None,
                partnership_bp: 0,
            },
            now,
        )
        .await
        .unwrap();
    let challenge = |hash: &'static str, expires_at_ms: i64| NewOtpChallenge {
        user_id,
        token_hash: hash,
        client_ip: None,
        expires_at_ms,
    };
    writer.insert_otp_challenge(&challenge("expired", now - 1), now - 10, 5).await.unwrap();
    let live_id =
        writer.insert_otp_challenge(&challenge("live", now + 60_000), now - 5, 5).await.unwrap();
    writer.commit().await.unwrap();

    assert_eq!(store.live_otp_challenge("expired", now, 5).await.unwrap(), None);
    let live = store.live_otp_challenge("live", now, 5).await.unwrap().expect("live challenge");
    assert_eq!((live.id, live.user_id, live.attempts), (live_id, user_id, 0));
    // Not live once its time is up.
    assert_eq!(store.live_otp_challenge("live", now + 60_000, 5).await.unwrap(), None);

    let mut writer = store.begin_write().await.unwrap();
    for expected in 1..=2 {
        assert_eq!(writer.record_wrong_otp(live_id, 2).await.unwrap(), Some(expected));
    }
    assert_eq!(writer.record_wrong_otp(live_id, 2).await.unwrap(), None, "no attempts left");
    assert!(!writer.consume_otp_challenge(live_id, now, 2).await.unwrap(), "used up");
    writer.commit().await.unwrap();
    assert_eq!(store.live_otp_challenge("live", now, 2).await.unwrap(), None);

    // A new challenge sweeps expired ones, and a user keeps only the newest few.
    let mut writer = store.begin_write().await.unwrap();
    for hash in ["a", "b", "c"] {
        writer.insert_otp_challenge(&challenge(hash, now + 60_000), now, 2).await.unwrap();
    }
    writer.commit().await.unwrap();
    let left: Vec<String> =
        sqlx::query_scalar("SELECT token_hash FROM login_otp_challenges ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap();
    assert_eq!(left, ["b", "c"]);
}
