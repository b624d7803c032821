//! The world casino and the seamless wallet over HTTP: the catalogue (casino/getStaticGames),
//! the launch (gap/gaplogin), the provider-signed wallet calls (balance, debit, credit,
//! rollback) with their refusals, money conserved and the ledger sound through all of it, the
//! Live Casino Bets report, and the built-in provider playing through the same wallet.
//!
//! The tests sign wallet calls as the built-in provider (its secret read from the database),
//! exactly as an outside provider would sign its own.

use std::collections::{BTreeSet, HashMap};

use backlay_casino::fair::verify;
use backlay_casino::games::GameKind;
use backlay_casino::market::{payout, Market, Odds};
use backlay_casino_runtime::wallet::signature;
use backlay_core::money::Money;
use backlay_kit::clock::now_ms;
use backlay_kit::throttle::ThrottlePolicy;
use backlay_store::ledger::SystemAccount;
use backlay_store::Store;
use futures::future::join_all;
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, Answer, TestApp};
use backlay_casino_store::{ProviderReads, ProviderWrites, WalletReads};
use backlay_office_store::AuditLog;

/// A provider as a test signs for it.
pub(crate) struct Provider {
    pub(crate) code: String,
    pub(crate) secret: String,
}

/// What the wallet tests need: the app's database and the built-in provider's credentials.
struct Ctx {
    store: Store,
    provider: Provider,
}

async fn ctx(app: &TestApp) -> Ctx {
    let store = app.store().await;
    let builtin = store
        .builtin_casino_provider()
        .await
        .unwrap()
        .expect("the server creates the built-in provider");
    assert_eq!(builtin.code, "backlay");
    assert_eq!(builtin.hmac_secret.len(), 64, "a 32-byte secret in hex");
    Ctx { store, provider: Provider { code: builtin.code, secret: builtin.hmac_secret } }
}

/// The server's origin (`http://127.0.0.1:<port>`).
fn origin(app: &TestApp) -> String {
    app.base.trim_end_matches("/api").to_string()
}

pub(crate) async fn read(response: reqwest::Response) -> Answer {
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
    Answer { status, body, headers }
}

/// Posts raw bytes to `wallet/<call>` with exactly these headers.
pub(crate) async fn wallet_raw(
    app: &TestApp,
    call: &str,
    headers: &[(&str, String)],
    body: &[u8],
) -> Answer {
    let mut request = app
        .client
        .post(format!("{}/wallet/{call}", app.base))
        .header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    read(request.body(body.to_vec()).send().await.unwrap()).await
}

/// The signature headers for `body` signed by `provider` at `timestamp_ms`.
pub(crate) fn signed_headers(
    provider: &Provider,
    timestamp_ms: i64,
    body: &[u8],
) -> Vec<(&'static str, String)> {
    vec![
        ("x-backlay-provider", provider.code.clone()),
        ("x-backlay-timestamp", timestamp_ms.to_string()),
        ("x-backlay-signature", signature(&provider.secret, &timestamp_ms.to_string(), body)),
    ]
}

/// A wallet call signed now.
pub(crate) async fn wallet(app: &TestApp, provider: &Provider, call: &str, body: Value) -> Answer {
    let bytes = serde_json::to_vec(&body).unwrap();
    wallet_raw(app, call, &signed_headers(provider, now_ms(), &bytes), &bytes).await
}

/// Asserts a refusal's status and code.
#[track_caller]
fn refused(answer: &Answer, status: u16, code: &str) {
    answer.expect(status);
    assert_eq!(answer.data()["code"], code, "{}", answer.body);
    assert!(answer.message().len() > 10, "a refusal says why: {}", answer.body);
}

/// Launches `game_id` for the token's user and returns the launch URL.
pub(crate) async fn launch_url(app: &TestApp, user_token: &str, game_id: &str) -> String {
    let answer = app
        .post(
            "gap/gaplogin",
            Some(user_token),
            json!({ "providerName": "mac88", "gameId": game_id, "platformId": "desktop", "lobby": false, "redirectUrl": "http://x/#/casino/mac88" }),
        )
        .await;
    answer.expect(200);
    answer.data()["url"].as_str().expect("data.url").to_string()
}

pub(crate) fn query_param(url: &str, name: &str) -> String {
    let query = url.split_once('?').expect("a query").1;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name} in {url}"))
        .to_string()
}

/// Launches Teen Patti T20 for the user and returns the provider's token.
pub(crate) async fn player_token(app: &TestApp, user_token: &str) -> String {
    query_param(&launch_url(app, user_token, "backlay-teen20").await, "token")
}

/// The player's money and the providers' account, and the ledger's entry count.
async fn money(app: &TestApp, ctx: &Ctx, user_token: &str) -> (i64, i64, i64) {
    let user = app.balance_minor(user_token).await;
    let provider = ctx.store.system_balance(SystemAccount::ProviderGames).await.unwrap();
    let entries = ctx.store.ledger_check().await.unwrap().entries;
    (user, provider, entries)
}

async fn assert_sound(ctx: &Ctx) {
    let check = ctx.store.ledger_check().await.unwrap();
    assert!(check.is_sound(), "ledger not sound: {check:?}");
}

/// The newest audit entry and how many there are.
async fn last_audit(ctx: &Ctx) -> (i64, Option<(String, String, Value)>) {
    let (entries, total) = ctx.store.audit_entries(&Default::default(), 0, 1).await.unwrap();
    let newest = entries
        .into_iter()
        .next()
        .map(|e| (e.entry.action, e.entry.target, serde_json::from_str(&e.entry.detail).unwrap()));
    (total, newest)
}

/// Asserts that exactly one audit entry was added since `before`, a wallet refusal with `code`.
#[track_caller]
fn audited(before: i64, after: &(i64, Option<(String, String, Value)>), call: &str, code: &str) {
    assert_eq!(after.0, before + 1, "one audit entry per refusal");
    let (action, target, detail) = after.1.clone().expect("an entry");
    assert_eq!(action, "wallet.refused");
    assert_eq!(target, format!("wallet/{call}"));
    assert_eq!(detail["code"], code, "{detail}");
}

// ---------------------------------------------------------------------------------------------
// Idempotency

async fn the_same_tx_id_ten_times_at_once_debits_once(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let (user_before, provider_before, entries_before) = money(&app, &ctx, &demo).await;

    // The very same signed request, ten times at once (as a provider retrying on timeouts).
    let body = serde_json::to_vec(&json!({ "token": token, "tx_id": "d-10x", "round": "r-10x", "amount": 123.45, "game": "teen20" })).unwrap();
    let headers = signed_headers(&ctx.provider, now_ms(), &body);
    let answers = join_all((0..10).map(|_| wallet_raw(&app, "debit", &headers, &body))).await;
    for answer in &answers {
        answer.expect(200);
        assert_eq!(answer.data(), answers[0].data(), "every copy gets the first answer");
    }
    assert_eq!(minor(&answers[0].data()["amount"]), 123_45);
    assert_eq!(minor(&answers[0].data()["balance"]), user_before - 123_45);

    let (user_after, provider_after, entries_after) = money(&app, &ctx, &demo).await;
    assert_eq!(user_after, user_before - 123_45, "debited once");
    assert_eq!(provider_after, provider_before + 123_45);
    assert_eq!(entries_after, entries_before + 2, "one ledger transaction of two entries");
    let round = ctx
        .store
        .provider_round(ctx.store.builtin_casino_provider().await.unwrap().unwrap().id, "r-10x")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(round.debited_minor, 123_45);
    assert_sound(&ctx).await;

    // The same id later, with another body: refused, nothing moves.
    let answer = wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-10x", "round": "r-10x", "amount": 5 }),
    )
    .await;
    refused(&answer, 409, "tx_id_reused");
    assert_eq!(money(&app, &ctx, &demo).await.0, user_after);
}
both_databases!(the_same_tx_id_ten_times_at_once_debits_once);

// ---------------------------------------------------------------------------------------------
// Signatures and replays

async fn bad_and_missing_signatures_are_refused_and_audited(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let before = money(&app, &ctx, &demo).await;
    let body = serde_json::to_vec(
        &json!({ "token": token, "tx_id": "d-sig", "round": "r-sig", "amount": 10 }),
    )
    .unwrap();
    let now = now_ms();
    let good = signed_headers(&ctx.provider, now, &body);

    // No signature headers at all.
    let audit_before = last_audit(&ctx).await.0;
    let answer = wallet_raw(&app, "debit", &[], &body).await;
    refused(&answer, 401, "missing_signature");
    audited(audit_before, &last_audit(&ctx).await, "debit", "missing_signature");

    // Provider and timestamp but no signature.
    let audit_before = last_audit(&ctx).await.0;
    let answer = wallet_raw(&app, "debit", &good[..2], &body).await;
    refused(&answer, 401, "missing_signature");
    audited(audit_before, &last_audit(&ctx).await, "debit", "missing_signature");

    // Signed with the wrong secret.
    let audit_before = last_audit(&ctx).await.0;
    let wrong = Provider { code: ctx.provider.code.clone(), secret: "0".repeat(64) };
    let answer = wallet_raw(&app, "debit", &signed_headers(&wrong, now, &body), &body).await;
    refused(&answer, 401, "bad_signature");
    audited(audit_before, &last_audit(&ctx).await, "debit", "bad_signature");

    // A good signature over a different body (the amount changed on the way).
    let audit_before = last_audit(&ctx).await.0;
    let tampered = serde_json::to_vec(
        &json!({ "token": token, "tx_id": "d-sig", "round": "r-sig", "amount": 10000 }),
    )
    .unwrap();
    let answer = wallet_raw(&app, "debit", &good, &tampered).await;
    refused(&answer, 401, "bad_signature");
    audited(audit_before, &last_audit(&ctx).await, "debit", "bad_signature");

    // The same JSON re-serialised with other spacing is other bytes: the signature covers bytes.
    let respaced = String::from_utf8(body.clone()).unwrap().replace(',', ", ").into_bytes();
    let answer = wallet_raw(&app, "debit", &good, &respaced).await;
    refused(&answer, 401, "bad_signature");

    // Not hex, and a provider nobody knows.
    let mut not_hex = good.clone();
    not_hex[2].1 = "zz".repeat(32);
    refused(&wallet_raw(&app, "debit", &not_hex, &body).await, 401, "bad_signature");
    let mut unknown = good.clone();
    unknown[0].1 = "nobody".into();
    let audit_before = last_audit(&ctx).await.0;
    refused(&wallet_raw(&app, "debit", &unknown, &body).await, 401, "unknown_provider");
    audited(audit_before, &last_audit(&ctx).await, "debit", "unknown_provider");

    // Nothing moved, and no wallet transaction was stored.
    assert_eq!(money(&app, &ctx, &demo).await, before);
    let provider_id = ctx.store.builtin_casino_provider().await.unwrap().unwrap().id;
    assert!(ctx.store.wallet_tx_by_ref(provider_id, "d-sig").await.unwrap().is_none());

    // The good request goes through, once.
    let answer = wallet_raw(&app, "debit", &good, &body).await;
    answer.expect(200);
    assert_eq!(money(&app, &ctx, &demo).await.0, before.0 - 10_00);
    assert_sound(&ctx).await;
}
both_databases!(bad_and_missing_signatures_are_refused_and_audited);

async fn unsigned_junk_from_one_address_is_audited_only_up_to_its_allowance(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let body = serde_json::to_vec(&json!({ "token": token })).unwrap();
    let allowance = i64::from(ThrottlePolicy::default().max_failures_per_address);

    // Every unsigned call is refused; only the address's allowance of them is written down.
    let audit_before = last_audit(&ctx).await.0;
    for _ in 0..allowance + 5 {
        refused(&wallet_raw(&app, "balance", &[], &body).await, 401, "missing_signature");
    }
    assert_eq!(
        last_audit(&ctx).await.0 - audit_before,
        allowance,
        "audited up to the allowance, then no more"
    );

    // A correctly signed call from the same address is neither refused nor delayed…
    wallet(&app, &ctx.provider, "balance", json!({ "token": token })).await.expect(200);
    // …and a signed call's refusal is still written.
    let audit_before = last_audit(&ctx).await.0;
    let answer = wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-big", "round": "r-big", "amount": 1_000_000_000 }),
    )
    .await;
    refused(&answer, 422, "insufficient_funds");
    audited(audit_before, &last_audit(&ctx).await, "debit", "insufficient_funds");
}
both_databases!(unsigned_junk_from_one_address_is_audited_only_up_to_its_allowance);

async fn an_old_or_future_timestamp_is_refused_as_a_replay(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let before = money(&app, &ctx, &demo).await;
    let body = serde_json::to_vec(
        &json!({ "token": token, "tx_id": "d-old", "round": "r-old", "amount": 10 }),
    )
    .unwrap();

    // Correctly signed, 31 s ago: a captured request played back later.
    let audit_before = last_audit(&ctx).await.0;
    let answer =
        wallet_raw(&app, "debit", &signed_headers(&ctx.provider, now_ms() - 31_000, &body), &body)
            .await;
    refused(&answer, 401, "stale_timestamp");
    assert!(answer.message().contains("replay"), "{}", answer.message());
    audited(audit_before, &last_audit(&ctx).await, "debit", "stale_timestamp");

    // 31 s in the future.
    let answer =
        wallet_raw(&app, "debit", &signed_headers(&ctx.provider, now_ms() + 31_000, &body), &body)
            .await;
    refused(&answer, 401, "stale_timestamp");

    // A timestamp that is not a number, correctly signed.
    let mut headers = signed_headers(&ctx.provider, 0, &body);
    headers[1].1 = "yesterday".into();
    headers[2].1 = signature(&ctx.provider.secret, "yesterday", &body);
    refused(&wallet_raw(&app, "debit", &headers, &body).await, 401, "bad_timestamp");

    assert_eq!(money(&app, &ctx, &demo).await, before, "nothing moved");

    // 25 s ago is within the window.
    wallet_raw(&app, "debit", &signed_headers(&ctx.provider, now_ms() - 25_000, &body), &body)
        .await
        .expect(200);
    assert_eq!(money(&app, &ctx, &demo).await.0, before.0 - 10_00);
}
both_databases!(an_old_or_future_timestamp_is_refused_as_a_replay);

// ---------------------------------------------------------------------------------------------
// Funds, credits and rollbacks

async fn a_debit_beyond_the_available_balance_is_refused(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let balance = wallet(&app, &ctx.provider, "balance", json!({ "token": token })).await;
    balance.expect(200);
    let available = minor(&balance.data()["balance"]);
    assert_eq!(available, app.balance_minor(&demo).await);
    assert!(available > 0);
    let before = money(&app, &ctx, &demo).await;

    let audit_before = last_audit(&ctx).await.0;
    let too_much = format!("{}.{:02}", (available + 1) / 100, (available + 1) % 100);
    let answer = wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-big", "round": "r-big", "amount": too_much }),
    )
    .await;
    refused(&answer, 422, "insufficient_funds");
    assert!(answer.message().contains("available"), "{}", answer.message());
    audited(audit_before, &last_audit(&ctx).await, "debit", "insufficient_funds");
    assert_eq!(money(&app, &ctx, &demo).await, before, "nothing moved");
    let provider_id = ctx.store.builtin_casino_provider().await.unwrap().unwrap().id;
    assert!(
        ctx.store.provider_round(provider_id, "r-big").await.unwrap().is_none(),
        "no round was left behind"
    );

    // Everything that is available may be staked.
    let all = format!("{}.{:02}", available / 100, available % 100);
    let answer = wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-all", "round": "r-big", "amount": all }),
    )
    .await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["balance"]), 0);
    refused(
        &wallet(
            &app,
            &ctx.provider,
            "debit",
            json!({ "token": token, "tx_id": "d-one-more", "round": "r-big", "amount": "0.01" }),
        )
        .await,
        422,
        "insufficient_funds",
    );

    // Bad amounts are 400s naming the field.
    for amount in [json!(0), json!(-5), json!("1.005"), json!("ten")] {
        let answer = wallet(
            &app,
            &ctx.provider,
            "debit",
            json!({ "token": token, "tx_id": "d-bad", "round": "r-bad", "amount": amount }),
        )
        .await;
        refused(&answer, 400, "bad_request");
        assert!(!answer.field_error("amount").is_empty(), "{}", answer.body);
    }
    let answer = wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "round": "r-bad", "amount": 1 }),
    )
    .await;
    refused(&answer, 400, "bad_request");
    assert_eq!(answer.field_error("tx_id"), "tx_id is required.");
    // An unknown token.
    refused(
        &wallet(
            &app,
            &ctx.provider,
            "debit",
            json!({ "token": "nope", "tx_id": "d-x", "round": "r-x", "amount": 1 }),
        )
        .await,
        401,
        "invalid_token",
    );
    assert_sound(&ctx).await;
}
both_databases!(a_debit_beyond_the_available_balance_is_refused);

async fn a_bet_lock_or_stake_cap_set_while_the_game_is_open_stops_the_next_debit(app: TestApp) {
    let ctx = ctx(&app).await;
    let admin = app.admin().await;
    let agent = app.agent().await;
    let demo = app.demo().await;
    let demo_id = app.user_id(&admin, "demo").await;
    let token = player_token(&app, &demo).await;
    let debit = |tx: &'static str, amount: &'static str| {
        wallet(
            &app,
            &ctx.provider,
            "debit",
            json!({ "token": token, "tx_id": tx, "round": tx, "amount": amount }),
        )
    };
    debit("cap-0", "50").await.expect(200);
    let terms = |terms: Value| {
        app.post("admin/user/terms", Some(&agent), json!({ "user_id": demo_id, "terms": terms }))
    };
    terms(json!({ "max_stake": 20 })).await.expect(200);
    let before = money(&app, &ctx, &demo).await;
    let capped = debit("cap-1", "20.01").await;
    refused(&capped, 422, "bet_not_allowed");
    assert!(capped.message().contains("stake limit"), "{}", capped.body);
    debit("cap-2", "20").await.expect(200);
    terms(json!({ "bet_locked": 1 })).await.expect(200);
    let after_cap = money(&app, &ctx, &demo).await;
    assert_ne!(after_cap, before);
    let locked = debit("cap-3", "1").await;
    refused(&locked, 422, "bet_not_allowed");
    assert!(locked.message().contains("Betting is locked"), "{}", locked.body);
    assert_eq!(money(&app, &ctx, &demo).await, after_cap, "nothing moved");
    assert_sound(&ctx).await;
}
both_databases!(a_bet_lock_or_stake_cap_set_while_the_game_is_open_stops_the_next_debit);

/// A lock or bet-lock on the player's agent stops the provider's next debit as the player's
/// own does (issue 28: a lock on an agent covers its branch); lifted, the player plays on.
async fn a_lock_on_the_players_agent_stops_the_next_debit(app: TestApp) {
    let ctx = ctx(&app).await;
    let admin = app.admin().await;
    let agent_id = app.user_id(&admin, "agent").await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let debit = |tx: &'static str| {
        wallet(
            &app,
            &ctx.provider,
            "debit",
            json!({ "token": token, "tx_id": tx, "round": tx, "amount": "1" }),
        )
    };
    let set = |path: &'static str, body: Value| app.post(path, Some(&admin), body);
    debit("agent-0").await.expect(200);
    let before = money(&app, &ctx, &demo).await;
    set("admin/user/terms", json!({ "user_id": agent_id, "terms": { "bet_locked": 1 } }))
        .await
        .expect(200);
    refused(&debit("agent-1").await, 422, "bet_not_allowed");
    set("admin/user/terms", json!({ "user_id": agent_id, "terms": { "bet_locked": 0 } }))
        .await
        .expect(200);
    set("admin/user/lock", json!({ "user_id": agent_id, "locked": 1 })).await.expect(200);
    refused(&debit("agent-2").await, 403, "player_locked");
    set("admin/user/lock", json!({ "user_id": agent_id, "locked": 0 })).await.expect(200);
    let demo = app.demo().await;
    assert_eq!(money(&app, &ctx, &demo).await, before, "nothing moved while locked");
    debit("agent-3").await.expect(200);
    assert_sound(&ctx).await;
}
both_databases!(a_lock_on_the_players_agent_stops_the_next_debit);

async fn a_credit_for_an_unknown_debit_is_refused(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let demo2 = app.login("demo2", "Demo@1234").await;
    let token = player_token(&app, &demo).await;
    let other = player_token(&app, &demo2).await;
    let before = money(&app, &ctx, &demo).await;

    let audit_before = last_audit(&ctx).await.0;
    let answer = wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "c-ghost", "round": "r-ghost", "amount": 500 }),
    )
    .await;
    refused(&answer, 404, "unknown_debit");
    audited(audit_before, &last_audit(&ctx).await, "credit", "unknown_debit");
    assert_eq!(money(&app, &ctx, &demo).await, before);

    // Another player's round is no debit of this player's.
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": other, "tx_id": "d-2", "round": "r-2", "amount": 10 }),
    )
    .await
    .expect(200);
    let answer = wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "c-2", "round": "r-2", "amount": 20 }),
    )
    .await;
    refused(&answer, 404, "unknown_debit");
    assert_eq!(money(&app, &ctx, &demo).await.0, before.0);

    // With a debit, the credit settles the round once.
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-3", "round": "r-3", "amount": 10 }),
    )
    .await
    .expect(200);
    let answer = wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "c-3", "round": "r-3", "amount": 25.5 }),
    )
    .await;
    answer.expect(200);
    assert_eq!(app.balance_minor(&demo).await, before.0 - 10_00 + 25_50);
    let again = wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "c-3", "round": "r-3", "amount": 25.5 }),
    )
    .await;
    again.expect(200);
    assert_eq!(again.data(), answer.data());
    refused(
        &wallet(
            &app,
            &ctx.provider,
            "credit",
            json!({ "token": token, "tx_id": "c-3b", "round": "r-3", "amount": 1 }),
        )
        .await,
        409,
        "round_settled",
    );
    refused(
        &wallet(
            &app,
            &ctx.provider,
            "debit",
            json!({ "token": token, "tx_id": "d-3b", "round": "r-3", "amount": 1 }),
        )
        .await,
        409,
        "round_closed",
    );
    assert_eq!(app.balance_minor(&demo).await, before.0 - 10_00 + 25_50);
    assert_sound(&ctx).await;
}
both_databases!(a_credit_for_an_unknown_debit_is_refused);

/// A provider cannot credit a round more than the bound multiple of its stakes (1,000 times by
/// default): past it the credit is refused and audited and nothing moves; at it, it is paid.
async fn a_credit_past_the_rounds_bound_multiple_of_its_stakes_is_refused(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let before = money(&app, &ctx, &demo).await;
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-big", "round": "r-big", "amount": 1 }),
    )
    .await
    .expect(200);
    let audit_before = last_audit(&ctx).await.0;
    let minted = wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "c-big", "round": "r-big", "amount": 1000.01 }),
    )
    .await;
    refused(&minted, 409, "credit_over_limit");
    audited(audit_before, &last_audit(&ctx).await, "credit", "credit_over_limit");
    assert_eq!(app.balance_minor(&demo).await, before.0 - 1_00, "nothing credited");
    let paid = wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "c-big-2", "round": "r-big", "amount": 1000 }),
    )
    .await;
    paid.expect(200);
    assert_eq!(app.balance_minor(&demo).await, before.0 - 1_00 + 1_000_00);
    assert_sound(&ctx).await;
}
both_databases!(a_credit_past_the_rounds_bound_multiple_of_its_stakes_is_refused);

async fn a_rollback_undoes_a_debit_exactly_once(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let before = money(&app, &ctx, &demo).await;
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-rb", "round": "r-rb", "amount": 50 }),
    )
    .await
    .expect(200);
    assert_eq!(app.balance_minor(&demo).await, before.0 - 50_00);

    let first = wallet(
        &app,
        &ctx.provider,
        "rollback",
        json!({ "token": token, "tx_id": "rb-1", "debit_tx_id": "d-rb" }),
    )
    .await;
    first.expect(200);
    assert_eq!(first.data()["debit_tx_id"], "d-rb");
    assert_eq!(minor(&first.data()["amount"]), 50_00);
    assert_eq!(money(&app, &ctx, &demo).await.0, before.0);
    assert_eq!(money(&app, &ctx, &demo).await.1, before.1);

    // The same rollback again: the first answer, nothing moves.
    let entries = money(&app, &ctx, &demo).await.2;
    let again = wallet(
        &app,
        &ctx.provider,
        "rollback",
        json!({ "token": token, "tx_id": "rb-1", "debit_tx_id": "d-rb" }),
    )
    .await;
    again.expect(200);
    assert_eq!(again.data(), first.data());
    assert_eq!(money(&app, &ctx, &demo).await, (before.0, before.1, entries));

    // Another rollback of the same debit: refused.
    let audit_before = last_audit(&ctx).await.0;
    let answer = wallet(
        &app,
        &ctx.provider,
        "rollback",
        json!({ "token": token, "tx_id": "rb-2", "debit_tx_id": "d-rb" }),
    )
    .await;
    refused(&answer, 409, "already_rolled_back");
    assert!(answer.message().contains("rb-1"), "{}", answer.message());
    audited(audit_before, &last_audit(&ctx).await, "rollback", "already_rolled_back");

    // Two different rollbacks of a fresh debit at once: exactly one wins.
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-race", "round": "r-race", "amount": 70 }),
    )
    .await
    .expect(200);
    let answers = join_all((0..6).map(|i| {
        let body =
            json!({ "token": token, "tx_id": format!("rb-race-{i}"), "debit_tx_id": "d-race" });
        let provider = &ctx.provider;
        let app = &app;
        async move { wallet(app, provider, "rollback", body).await }
    }))
    .await;
    let won = answers.iter().filter(|a| a.status == StatusCode::OK).count();
    assert_eq!(won, 1, "{:?}", answers.iter().map(|a| a.body.clone()).collect::<Vec<_>>());
    for answer in answers.iter().filter(|a| a.status != StatusCode::OK) {
        refused(answer, 409, "already_rolled_back");
    }
    assert_eq!(money(&app, &ctx, &demo).await.0, before.0);

    // A rolled-back round has nothing to credit; an unknown debit cannot be rolled back.
    refused(
        &wallet(
            &app,
            &ctx.provider,
            "credit",
            json!({ "token": token, "tx_id": "c-rb", "round": "r-rb", "amount": 100 }),
        )
        .await,
        409,
        "round_rolled_back",
    );
    refused(
        &wallet(
            &app,
            &ctx.provider,
            "rollback",
            json!({ "token": token, "tx_id": "rb-3", "debit_tx_id": "d-nothing" }),
        )
        .await,
        404,
        "unknown_debit",
    );
    assert_eq!(money(&app, &ctx, &demo).await.0, before.0);
    assert_sound(&ctx).await;
}
both_databases!(a_rollback_undoes_a_debit_exactly_once);

async fn a_rollback_of_a_settled_round_is_refused(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let before = money(&app, &ctx, &demo).await;
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "d-set", "round": "r-set", "amount": 40 }),
    )
    .await
    .expect(200);
    // A lost round: credit 0 settles it and moves nothing.
    let entries = money(&app, &ctx, &demo).await.2;
    let credit = wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "c-set", "round": "r-set", "amount": 0 }),
    )
    .await;
    credit.expect(200);
    assert_eq!(money(&app, &ctx, &demo).await.2, entries, "a credit of 0 writes no ledger entry");
    let after_settle = money(&app, &ctx, &demo).await;
    assert_eq!(after_settle.0, before.0 - 40_00);

    let audit_before = last_audit(&ctx).await.0;
    let answer = wallet(
        &app,
        &ctx.provider,
        "rollback",
        json!({ "token": token, "tx_id": "rb-set", "debit_tx_id": "d-set" }),
    )
    .await;
    refused(&answer, 409, "round_settled");
    audited(audit_before, &last_audit(&ctx).await, "rollback", "round_settled");
    assert_eq!(money(&app, &ctx, &demo).await, after_settle, "nothing moved");
    assert_sound(&ctx).await;
}
both_databases!(a_rollback_of_a_settled_round_is_refused);

/// The test's own account of one round.
#[derive(Clone)]
struct RoundModel {
    name: String,
    /// (tx id, amount in minor units, rolled back)
    debits: Vec<(String, i64, bool)>,
    settled: bool,
}

impl RoundModel {
    fn rolled_back(&self) -> bool {
        !self.debits.is_empty() && self.debits.iter().all(|d| d.2)
    }
}

fn amount_text(minor: i64) -> String {
    format!("{}.{:02}", minor / 100, minor % 100)
}

/// Random debits, credits, rollbacks and repeats (seeded), each checked against the test's own
/// model of what the wallet must accept; after every call the player's balance is what the
/// model says and the player plus the providers' account hold what they held at the start.
async fn a_random_mix_of_calls_keeps_money_conserved(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let token = player_token(&app, &demo).await;
    let (user_start, provider_start, _) = money(&app, &ctx, &demo).await;
    let total = user_start + provider_start;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed_0006);
    let mut rounds: Vec<RoundModel> = Vec::new();
    let mut expected_user = user_start;
    // Every accepted call: (call, body, answer), for repeats.
    let mut sent: Vec<(&str, Value, Value)> = Vec::new();
    let mut accepted = 0;
    let mut refusals: HashMap<String, usize> = HashMap::new();

    for step in 0..120 {
        let tx_id = format!("mix-{step}");
        let choice = rng.gen_range(0..100);
        let (call, body, expected): (&str, Value, Result<(), &str>) = if choice < 40
            || rounds.is_empty()
        {
            // A debit in a new round or an existing one, sometimes more than is left.
            let index = if rounds.is_empty() || rng.gen_bool(0.5) {
                rounds.push(RoundModel {
                    name: format!("mix-r{step}"),
                    debits: Vec::new(),
                    settled: false,
                });
                rounds.len() - 1
            } else {
                rng.gen_range(0..rounds.len())
            };
            let amount = if rng.gen_bool(0.1) {
                expected_user + rng.gen_range(1..1000)
            } else {
                rng.gen_range(1..20_000_00)
            };
            let round = rounds[index].clone();
            let expected = if round.settled || round.rolled_back() {
                Err("round_closed")
            } else if amount > expected_user {
                Err("insufficient_funds")
            } else {
                Ok(())
            };
            if expected.is_ok() {
                rounds[index].debits.push((tx_id.clone(), amount, false));
                expected_user -= amount;
            } else if round.debits.is_empty() {
                // A refused first debit leaves no round behind.
                rounds.remove(index);
            }
            (
                "debit",
                json!({ "token": token, "tx_id": tx_id, "round": round.name, "amount": amount_text(amount) }),
                expected,
            )
        } else if choice < 65 {
            // A credit of a round, or of one that never was.
            let index = rng.gen_range(0..rounds.len() + 1);
            let amount = rng.gen_range(0..40_000_00);
            let (name, expected) = match rounds.get(index) {
                None => (format!("mix-ghost-{step}"), Err("unknown_debit")),
                Some(r) if r.settled => (r.name.clone(), Err("round_settled")),
                Some(r) if r.rolled_back() => (r.name.clone(), Err("round_rolled_back")),
                Some(r) => (r.name.clone(), Ok(())),
            };
            if expected.is_ok() {
                rounds[index].settled = true;
                expected_user += amount;
            }
            (
                "credit",
                json!({ "token": token, "tx_id": tx_id, "round": name, "amount": amount_text(amount) }),
                expected,
            )
        } else if choice < 85 {
            // A rollback of a debit, or of one that never was.
            let debits: Vec<(usize, usize)> = rounds
                .iter()
                .enumerate()
                .flat_map(|(r, m)| (0..m.debits.len()).map(move |d| (r, d)))
                .collect();
            let (debit_tx, expected) = match debits.get(rng.gen_range(0..debits.len() + 1)) {
                None => (format!("mix-none-{step}"), Err("unknown_debit")),
                Some(&(r, d)) => {
                    let (debit_tx, amount, done) = rounds[r].debits[d].clone();
                    let expected = if done {
                        Err("already_rolled_back")
                    } else if rounds[r].settled {
                        Err("round_settled")
                    } else {
                        rounds[r].debits[d].2 = true;
                        expected_user += amount;
                        Ok(())
                    };
                    (debit_tx, expected)
                }
            };
            (
                "rollback",
                json!({ "token": token, "tx_id": tx_id, "debit_tx_id": debit_tx }),
                expected,
            )
        } else if !sent.is_empty() {
            // A repeat of an accepted call: the first answer, nothing moves.
            let (call, body, answer) = sent[rng.gen_range(0..sent.len())].clone();
            let repeat = wallet(&app, &ctx.provider, call, body).await;
            repeat.expect(200);
            assert_eq!(repeat.data(), &answer, "step {step}: a repeat gets the first answer");
            let (user, provider, _) = money(&app, &ctx, &demo).await;
            assert_eq!(user, expected_user, "step {step}");
            assert_eq!(user + provider, total, "step {step}: money conserved");
            continue;
        } else {
            continue;
        };
        let answer = wallet(&app, &ctx.provider, call, body.clone()).await;
        match expected {
            Ok(()) => {
                answer.expect(200);
                accepted += 1;
                sent.push((call, body.clone(), answer.data().clone()));
            }
            Err(code) => {
                assert_eq!(
                    answer.data()["code"],
                    code,
                    "step {step}: {call} {body} → {}",
                    answer.body
                );
                assert!(answer.status.is_client_error(), "step {step}: {}", answer.body);
                *refusals.entry(code.to_string()).or_default() += 1;
            }
        }
        let (user, provider, _) = money(&app, &ctx, &demo).await;
        assert_eq!(user, expected_user, "step {step}: {call} {body} → {}", answer.body);
        assert_eq!(user + provider, total, "step {step}: money conserved");
    }
    assert!(accepted >= 30, "the mix exercised the wallet ({accepted} accepted)");
    assert!(refusals.len() >= 3, "the mix hit several refusals: {refusals:?}");
    assert_sound(&ctx).await;
}
both_databases!(a_random_mix_of_calls_keeps_money_conserved);

// ---------------------------------------------------------------------------------------------
// Catalogue, launch, frame origins, report

async fn get_static_games_lists_the_in_house_games(app: TestApp) {
    let demo = app.demo().await;
    app.get("casino/getStaticGames", None).await.expect(401);
    let answer = app.get("casino/getStaticGames", Some(&demo)).await;
    answer.expect(200);
    let games = answer.data().as_array().unwrap().clone();
    let categories = ["Crash Games", "Live Game Shows", "Live", "Poker", "Virtual", "Live Dealer"];
    let mut ids = BTreeSet::new();
    for game in &games {
        for field in [
            "game_id",
            "game_name",
            "category",
            "provider_name",
            "sub_provider_name",
            "status",
            "url_thumb",
            "game_code",
        ] {
            assert!(game[field].is_string(), "{field} of {game}");
        }
        assert!(game.get("sub_type").is_some(), "{game}");
        assert!(categories.contains(&game["category"].as_str().unwrap()), "{game}");
        assert!(["ACTIVE", ""].contains(&game["status"].as_str().unwrap()), "{game}");
        assert!(ids.insert(game["game_id"].as_str().unwrap().to_string()), "game ids are unique");
    }
    // Every in-house game is there under the built-in provider, and launches: computer-dealt
    // on demand, so listed as what it is (Virtual, instant), never beside the live tables.
    assert_builtin_games_are_instant(&games);
    let name_of = |id: &str| {
        games.iter().find(|g| g["game_id"] == id).unwrap()["game_name"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(name_of("backlay-dt1day"), "Dragon Tiger Instant");
    assert_eq!(name_of("backlay-teen20"), "Teen Patti T20 Instant");

    // A game switched off shows an empty status.
    let store = Store::connect(app.database_url()).await.unwrap();
    let mut w = store.begin_write().await.unwrap();
    w.set_world_casino_game_active("backlay-queen", false).await.unwrap();
    w.commit().await.unwrap();
    let answer = app.get("casino/getStaticGames", Some(&demo)).await;
    let queen = answer
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game_id"] == "backlay-queen")
        .unwrap()
        .clone();
    assert_eq!(queen["status"], "");
}
both_databases!(get_static_games_lists_the_in_house_games);

/// Each of the sixteen in-house games is listed once under the built-in provider as a
/// computer-dealt game: category Virtual, sub_type instant, a name that says "Instant".
fn assert_builtin_games_are_instant(games: &[Value]) {
    for kind in GameKind::ALL {
        let game = games
            .iter()
            .find(|g| g["game_id"] == format!("backlay-{}", kind.code()))
            .unwrap_or_else(|| panic!("{kind:?} is missing"));
        assert_eq!(game["game_code"], kind.code());
        assert_eq!(game["provider_name"], "Backlay Games");
        assert_eq!(game["status"], "ACTIVE", "{game}");
        assert_eq!(game["category"], "Virtual", "{game}");
        assert_eq!(game["sub_type"], "instant", "{game}");
        assert!(game["game_name"].as_str().unwrap().contains("Instant"), "{game}");
    }
    let builtin: Vec<&Value> =
        games.iter().filter(|g| g["provider_name"] == "Backlay Games").collect();
    assert_eq!(builtin.len(), GameKind::ALL.len(), "each in-house game is listed once");
    for game in builtin {
        let category = game["category"].as_str().unwrap();
        assert!(!category.starts_with("Live") && category != "Poker", "{game}");
    }
}

/// Adds the outside provider "evo" (Evolution) the way the operator does; answers its secret.
async fn add_evolution(console: &backlay_operator::OperatorContext<'_>) -> String {
    let provider = backlay_operator::AddProvider {
        code: "evo".into(),
        name: "Evolution".into(),
        launch_url: "https://games.example.com/launch".into(),
    };
    backlay_operator::add_casino_provider(console, provider).await.unwrap().1
}

async fn a_catalogue_listed_by_an_older_server_is_corrected_at_start(mut app: TestApp) {
    let store = app.store().await;
    // A database as an earlier server left it: the in-house games under the live categories
    // with their table names, one switched off by the operator, one with an operator's image;
    // and an outside provider's live table beside them.
    for sql in [
        "UPDATE world_casino_games SET category = 'Live Dealer', sub_type = NULL, game_name = 'Dragon Tiger 1 Day' WHERE game_id = 'backlay-dt1day'",
        "UPDATE world_casino_games SET category = 'Live Game Shows' WHERE game_id = 'backlay-bollywood'",
        "UPDATE world_casino_games SET category = 'Poker', game_name = 'Teen Patti T20' WHERE game_id = 'backlay-teen20'",
        "UPDATE world_casino_games SET category = 'Live', is_active = 0 WHERE game_id = 'backlay-roulette'",
        "UPDATE world_casino_games SET url_thumb = '/uploads/baccarat.png' WHERE game_id = 'backlay-baccarat'",
    ] {
        sqlx::query(sql).execute(store.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    use backlay_operator::{self as operator, Actor, AddWorldCasinoGame, OperatorContext};
    let console = OperatorContext { store: &store, actor: Actor::Console, client_ip: None };
    add_evolution(&console).await;
    let studio_table = AddWorldCasinoGame {
        provider_code: "evo".into(),
        game_code: "dt1day".into(),
        game_name: "Dragon Tiger".into(),
        category: "Live Dealer".into(),
        sub_provider_name: String::new(),
        url_thumb: String::new(),
    };
    operator::add_world_casino_game(&console, studio_table).await.unwrap();
    store.close().await;

    app.restart().await;
    let demo = app.demo().await;
    let answer = app.get("casino/getStaticGames", Some(&demo)).await;
    answer.expect(200);
    let mut games = answer.data().as_array().unwrap().clone();
    let game = |id: &str| games.iter().find(|g| g["game_id"] == id).cloned().unwrap();
    assert_eq!(game("backlay-dt1day")["game_name"], "Dragon Tiger Instant");
    assert_eq!(game("backlay-teen20")["category"], "Virtual");
    // The operator's choices stay: the game switched off, the image.
    let roulette = game("backlay-roulette");
    assert_eq!(
        (roulette["category"].as_str(), roulette["status"].as_str()),
        (Some("Virtual"), Some(""))
    );
    let store = app.store().await;
    let baccarat = store.world_casino_game("backlay-baccarat").await.unwrap().unwrap();
    assert_eq!(
        (baccarat.url_thumb.as_str(), baccarat.category.as_str()),
        ("/uploads/baccarat.png", "Virtual")
    );
    // The outside provider's studio table of the same code is not the built-in one's to correct.
    let studio = game("evo-dt1day");
    assert_eq!(
        (studio["category"].as_str(), studio["game_name"].as_str()),
        (Some("Live Dealer"), Some("Dragon Tiger"))
    );
    assert_eq!(studio["sub_type"], Value::Null);

    // Roulette switched on again, every in-house game reads as computer-dealt.
    let mut w = store.begin_write().await.unwrap();
    w.set_world_casino_game_active("backlay-roulette", true).await.unwrap();
    w.commit().await.unwrap();
    games = app.get("casino/getStaticGames", Some(&demo)).await.data().as_array().unwrap().clone();
    assert_builtin_games_are_instant(&games);
}
both_databases!(a_catalogue_listed_by_an_older_server_is_corrected_at_start);

async fn an_outside_provider_added_by_the_operator_launches_and_signs_with_its_secret(
    app: TestApp,
) {
    use backlay_operator::{self as operator, Actor, AddWorldCasinoGame, OperatorContext};
    let ctx = ctx(&app).await;
    let console = OperatorContext { store: &ctx.store, actor: Actor::Console, client_ip: None };
    let secret = add_evolution(&console).await;
    let game = AddWorldCasinoGame {
        provider_code: "evo".into(),
        game_code: "lightning".into(),
        game_name: "Lightning Roulette".into(),
        category: "Live".into(),
        sub_provider_name: "Evolution Live".into(),
        url_thumb: String::new(),
    };
    assert_eq!(operator::add_world_casino_game(&console, game).await.unwrap(), "evo-lightning");

    // The lobby lists it; launching it answers the provider's address with a token.
    let demo = app.demo().await;
    let games = app.get("casino/getStaticGames", Some(&demo)).await;
    games.expect(200);
    let listed = games
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game_id"] == "evo-lightning")
        .cloned()
        .expect("listed");
    assert_eq!(
        (listed["provider_name"].as_str(), listed["status"].as_str()),
        (Some("Evolution"), Some("ACTIVE"))
    );
    let url = launch_url(&app, &demo, "evo-lightning").await;
    assert!(url.starts_with("https://games.example.com/launch?token="), "{url}");
    assert_eq!(query_param(&url, "game"), "lightning");

    // The provider signs with the secret it was given; the built-in provider's does not do.
    let evo = Provider { code: "evo".into(), secret };
    let token = query_param(&url, "token");
    wallet(&app, &evo, "balance", json!({ "token": token })).await.expect(200);
    let impostor = Provider { code: "evo".into(), secret: ctx.provider.secret.clone() };
    refused(
        &wallet(&app, &impostor, "balance", json!({ "token": token })).await,
        401,
        "bad_signature",
    );

    // Switched off, it shows without status and cannot launch.
    operator::set_world_casino_game_active(&console, "evo-lightning", false).await.unwrap();
    let games = app.get("casino/getStaticGames", Some(&demo)).await;
    assert_eq!(
        games.data().as_array().unwrap().iter().find(|g| g["game_id"] == "evo-lightning").unwrap()
            ["status"],
        ""
    );
    let answer = app
        .post(
            "gap/gaplogin",
            Some(&demo),
            json!({ "providerName": "mac88", "gameId": "evo-lightning", "platformId": "desktop", "lobby": false, "redirectUrl": "http://x/" }),
        )
        .await;
    answer.expect(409);
}
both_databases!(an_outside_provider_added_by_the_operator_launches_and_signs_with_its_secret);

async fn gaplogin_answers_a_launch_url_the_wallet_accepts(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let url = launch_url(&app, &demo, "backlay-dt1day").await;
    assert!(
        url.starts_with(&format!("{}/provider/play?", origin(&app))),
        "{url} is on the public origin"
    );
    assert_eq!(query_param(&url, "game"), "dt1day");
    let token = query_param(&url, "token");
    assert!(token.len() >= 40);

    let answer = wallet(&app, &ctx.provider, "balance", json!({ "token": token })).await;
    answer.expect(200);
    assert_eq!(answer.data()["user_name"], "demo");
    assert_eq!(answer.data()["game"], "dt1day");
    assert_eq!(minor(&answer.data()["balance"]), app.balance_minor(&demo).await);
    // The token is only stored hashed.
    let count = |text: String| {
        let pool = ctx.store.pool().clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT COUNT(*) FROM provider_sessions WHERE token_hash = $1",
            )
            .bind(text)
            .fetch_one(&pool)
            .await
            .unwrap()
        }
    };
    assert_eq!(count(token.clone()).await, 0);
    assert_eq!(count(backlay_operator::session::token_hash(&token)).await, 1);

    // Another provider cannot use it.
    let mut w = ctx.store.begin_write().await.unwrap();
    w.insert_casino_provider(
        &backlay_casino_store::providers::NewCasinoProvider {
            code: "evo",
            name: "Evo Live",
            hmac_secret: &"e".repeat(64),
            launch_url: Some("https://games.example.com/launch"),
            is_active: true,
        },
        now_ms(),
    )
    .await
    .unwrap();
    w.commit().await.unwrap();
    let evo = Provider { code: "evo".into(), secret: "e".repeat(64) };
    refused(&wallet(&app, &evo, "balance", json!({ "token": token })).await, 401, "invalid_token");

    // Unknown, switched off, missing.
    let answer = app
        .post(
            "gap/gaplogin",
            Some(&demo),
            json!({ "providerName": "mac88", "gameId": "no-such-game" }),
        )
        .await;
    answer.expect(404);
    assert!(answer.message().contains("no-such-game"), "{}", answer.message());
    let mut w = ctx.store.begin_write().await.unwrap();
    w.set_world_casino_game_active("backlay-trio", false).await.unwrap();
    w.commit().await.unwrap();
    let answer = app
        .post(
            "gap/gaplogin",
            Some(&demo),
            json!({ "providerName": "mac88", "gameId": "backlay-trio" }),
        )
        .await;
    answer.expect(409);
    assert!(answer.message().contains("Trio"), "{}", answer.message());
    let answer = app.post("gap/gaplogin", Some(&demo), json!({ "providerName": "mac88" })).await;
    answer.expect(400);
    assert_eq!(answer.field_error("gameId"), "gameId is required.");
    let answer = app
        .post(
            "gap/gaplogin",
            Some(&demo),
            json!({ "gameId": "backlay-dt1day", "platformId": "tv" }),
        )
        .await;
    answer.expect(400);
    app.post("gap/gaplogin", None, json!({ "gameId": "backlay-dt1day" })).await.expect(401);
}
both_databases!(gaplogin_answers_a_launch_url_the_wallet_accepts);

async fn the_global_setting_frames_the_public_origin(app: TestApp) {
    let answer = app.get("globalSetting/getGlobalSetting", None).await;
    answer.expect(200);
    let origins: Vec<String> = answer.data()["casino_frame_origins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap().to_string())
        .collect();
    assert_eq!(origins, vec![origin(&app)]);

    let admin = app.admin().await;
    app.post(
        "admin/settings",
        Some(&admin),
        json!({ "casino_frame_origins": "https://games.example.com" }),
    )
    .await
    .expect(200);
    let answer = app.get("globalSetting/getGlobalSetting", None).await;
    let origins: Vec<String> = answer.data()["casino_frame_origins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap().to_string())
        .collect();
    assert_eq!(origins, vec!["https://games.example.com".to_string(), origin(&app)]);

    // The new calls are described in the OpenAPI document.
    let openapi: Value = app.openapi().await;
    for path in [
        "/api/wallet/balance",
        "/api/wallet/debit",
        "/api/wallet/credit",
        "/api/wallet/rollback",
        "/api/casino/getStaticGames",
        "/api/gap/gaplogin",
        "/api/report/liveCasinoBets",
    ] {
        assert!(openapi["paths"].get(path).is_some(), "{path} missing from the OpenAPI document");
    }
}
both_databases!(the_global_setting_frames_the_public_origin);

async fn live_casino_bets_shows_only_the_callers_rows(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let demo2 = app.login("demo2", "Demo@1234").await;
    let token = player_token(&app, &demo).await;
    let token2 = player_token(&app, &demo2).await;
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "lc-d1", "round": "lc-r1", "amount": 100 }),
    )
    .await
    .expect(200);
    wallet(
        &app,
        &ctx.provider,
        "credit",
        json!({ "token": token, "tx_id": "lc-c1", "round": "lc-r1", "amount": 190 }),
    )
    .await
    .expect(200);
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token, "tx_id": "lc-d2", "round": "lc-r2", "amount": 30 }),
    )
    .await
    .expect(200);
    wallet(
        &app,
        &ctx.provider,
        "rollback",
        json!({ "token": token, "tx_id": "lc-x2", "debit_tx_id": "lc-d2" }),
    )
    .await
    .expect(200);
    wallet(
        &app,
        &ctx.provider,
        "debit",
        json!({ "token": token2, "tx_id": "lc-other", "round": "lc-r9", "amount": 7 }),
    )
    .await
    .expect(200);

    let answer =
        app.post("report/liveCasinoBets", Some(&demo), json!({ "page": 1, "limit": 20 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 4);
    assert_eq!(answer.data()["page"], 1);
    assert_eq!(answer.data()["limit"], 20);
    let rows = answer.data()["rows"].as_array().unwrap();
    let txs: Vec<&str> = rows.iter().map(|r| r["transaction_id"].as_str().unwrap()).collect();
    assert_eq!(txs, ["lc-x2", "lc-d2", "lc-c1", "lc-d1"], "newest first, only the caller's");
    let row = |tx: &str| rows.iter().find(|r| r["transaction_id"] == tx).unwrap().clone();
    let d1 = row("lc-d1");
    assert_eq!(d1["kind"], "debit");
    assert_eq!(minor(&d1["debit"]), 100_00);
    assert_eq!(minor(&d1["credit"]), 0);
    assert_eq!(d1["status"], "settled");
    assert_eq!(d1["round_id"], "lc-r1");
    assert_eq!(d1["game_name"], "Teen Patti T20 Instant");
    assert!(d1["date"].as_str().unwrap().ends_with('Z'));
    assert!(d1["id"].is_i64());
    assert_eq!(minor(&row("lc-c1")["credit"]), 190_00);
    assert_eq!(row("lc-c1")["status"], "won");
    assert_eq!(row("lc-d2")["status"], "rolled back");
    assert_eq!(row("lc-x2")["status"], "refund");

    // Paging and dates.
    let answer =
        app.post("report/liveCasinoBets", Some(&demo), json!({ "page": 2, "limit": 3 })).await;
    answer.expect(200);
    assert_eq!(answer.data()["rows"].as_array().unwrap().len(), 1);
    assert_eq!(answer.data()["total"], 4);
    let answer = app
        .post(
            "report/liveCasinoBets",
            Some(&demo),
            json!({ "from_date": "2999-01-01", "to_date": "2999-01-02" }),
        )
        .await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 0);
    let answer =
        app.post("report/liveCasinoBets", Some(&demo), json!({ "from_date": "yesterday" })).await;
    answer.expect(400);
    assert!(!answer.field_error("from_date").is_empty());

    let answer = app.post("report/liveCasinoBets", Some(&demo2), json!({})).await;
    answer.expect(200);
    let rows = answer.data()["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["transaction_id"], "lc-other");
    app.post("report/liveCasinoBets", None, json!({})).await.expect(401);

    // The statement's casino filter shows the wallet's postings.
    let answer = app
        .post("report/accountStatement", Some(&demo), json!({ "type": "casino", "limit": 100 }))
        .await;
    answer.expect(200);
    assert_eq!(answer.data()["total"], 4, "{}", answer.body);
}
both_databases!(live_casino_bets_shows_only_the_callers_rows);

// ---------------------------------------------------------------------------------------------
// The built-in provider

async fn provider_post(app: &TestApp, path: &str, body: Value) -> Answer {
    read(
        app.client
            .post(format!("{}/provider/api/{path}", origin(app)))
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await
}

async fn the_built_in_provider_plays_through_the_wallet(app: TestApp) {
    let ctx = ctx(&app).await;
    let demo = app.demo().await;
    let url = launch_url(&app, &demo, "backlay-teen20").await;
    let token = query_param(&url, "token");

    // The page: served on the public origin, framed only by Backlay.
    let page = app.client.get(&url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains(&format!("frame-ancestors 'self' {}", origin(&app))), "{csp}");
    assert_eq!(page.headers()["x-frame-options"], "SAMEORIGIN");
    assert_eq!(page.headers()["referrer-policy"], "no-referrer");
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = page.text().await.unwrap();
    let nonce = csp.split("'nonce-").nth(1).unwrap().split('\'').next().unwrap();
    assert!(
        html.contains(&format!("<script nonce=\"{nonce}\">")),
        "the inline script carries this answer's nonce"
    );
    assert!(html.contains("api/deal"));

    // A table: the commitment, the markets with their odds, the balance.
    let before = app.balance_minor(&demo).await;
    let (user0, provider0, _) = money(&app, &ctx, &demo).await;
    let table = provider_post(&app, "table", json!({ "token": token, "game": "teen20" })).await;
    table.expect(200);
    let table = table.data().clone();
    assert_eq!(minor(&table["balance"]), before);
    assert_eq!(table["commitment"].as_str().unwrap().len(), 64);
    assert!(table.get("seed").is_none(), "the seed stays secret until the deal");
    let posted: Vec<String> = GameKind::TeenPattiT20
        .markets(&[])
        .iter()
        .map(|m| format!("{}@{}", m.code, m.odds))
        .collect();
    let shown: Vec<String> = table["markets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{}@{}", m["code"].as_str().unwrap(), m["odds"].as_str().unwrap()))
        .collect();
    assert_eq!(shown, posted);

    // Refusals that leave the table playable: an unknown market, a stake beyond the balance.
    let answer = provider_post(
        &app,
        "deal",
        json!({ "token": token, "table_id": table["table_id"], "market": "nope", "stake": 100 }),
    )
    .await;
    answer.expect(400);
    let answer =
        provider_post(&app, "deal", json!({ "token": token, "table_id": table["table_id"], "market": "player-a", "stake": 100_001 })).await;
    answer.expect(400);
    let answer = provider_post(&app, "deal", json!({ "token": "someone-else", "table_id": table["table_id"], "market": "player-a", "stake": 100 })).await;
    answer.expect(409);
    assert_eq!(app.balance_minor(&demo).await, before);

    // The deal: debit, result, credit, all through the wallet.
    let answer = provider_post(&app, "deal", json!({ "token": token, "table_id": table["table_id"], "market": "player-a", "stake": 100 })).await;
    answer.expect(200);
    let result = answer.data().clone();
    let round = result["round"].as_str().unwrap();
    assert_eq!(round, table["round"].as_str().unwrap());
    assert_eq!(result["commitment"], table["commitment"]);
    let verified = verify(
        result["seed"].as_str().unwrap(),
        table["commitment"].as_str().unwrap(),
        round,
        GameKind::TeenPattiT20,
    )
    .expect("the revealed seed matches the commitment");
    let odds = Money::parse_decimal(result["market"]["odds"].as_str().unwrap()).unwrap().minor();
    let odds = u32::try_from(odds).unwrap();
    let market = Market::new("player-a", "Player A", "player", Odds::from_hundredths(odds));
    let expected_payout = payout(&market, 100_00, &verified.outcome);
    assert_eq!(minor(&result["payout"]), expected_payout);
    assert_eq!(result["winner"], verified.outcome.winner.as_str());
    assert_eq!(result["cards"].as_array().unwrap().len(), 6);
    let after = app.balance_minor(&demo).await;
    assert_eq!(after, before - 100_00 + expected_payout, "the balance moved by payout − stake");
    assert_eq!(minor(&result["balance"]), after);
    let (user1, provider1, _) = money(&app, &ctx, &demo).await;
    assert_eq!(user1 + provider1, user0 + provider0, "money conserved");

    // The round went through the wallet: a debit and a credit, and the round settled.
    let provider_id = ctx.store.builtin_casino_provider().await.unwrap().unwrap().id;
    let stored =
        ctx.store.provider_round(provider_id, round).await.unwrap().expect("a provider round");
    assert_eq!(stored.debited_minor, 100_00);
    assert_eq!(stored.credited_minor, expected_payout);
    assert_eq!(stored.state, backlay_casino_store::wallet::ProviderRoundState::Settled);
    let report = app.post("report/liveCasinoBets", Some(&demo), json!({})).await;
    report.expect(200);
    let kinds: Vec<&str> = report.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["round_id"] == round)
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["credit", "debit"]);

    // The table was used once.
    let answer = provider_post(&app, "deal", json!({ "token": token, "table_id": table["table_id"], "market": "player-a", "stake": 100 })).await;
    answer.expect(409);
    assert_eq!(app.balance_minor(&demo).await, after);

    // A stake beyond the balance is the wallet's refusal; the table stays. (Another round of
    // the provider's takes all but 50.00 first.)
    let rest = after - 50_00;
    wallet(&app, &ctx.provider, "debit", json!({ "token": token, "tx_id": "take-most", "round": "take-most", "amount": format!("{}.{:02}", rest / 100, rest % 100) }))
        .await
        .expect(200);
    assert_eq!(app.balance_minor(&demo).await, 50_00);
    let table = provider_post(&app, "table", json!({ "token": token, "game": "teen20" }))
        .await
        .data()
        .clone();
    assert_eq!(minor(&table["balance"]), 50_00);
    let answer = provider_post(&app, "deal", json!({ "token": token, "table_id": table["table_id"], "market": "player-b", "stake": 100 })).await;
    refused(&answer, 422, "insufficient_funds");
    assert_eq!(app.balance_minor(&demo).await, 50_00);
    let answer = provider_post(
        &app,
        "deal",
        json!({ "token": token, "table_id": table["table_id"], "market": "player-b", "stake": 1 }),
    )
    .await;
    answer.expect(200);
    assert_eq!(app.balance_minor(&demo).await, 50_00 - 1_00 + minor(&answer.data()["payout"]));

    // Hi-Low shows its base card before the stake; another game's session is refused.
    let hilow = query_param(&launch_url(&app, &demo, "backlay-hilow").await, "token");
    let table = provider_post(&app, "table", json!({ "token": hilow, "game": "hilow" })).await;
    table.expect(200);
    assert_eq!(table.data()["open_cards"].as_array().unwrap().len(), 1);
    // … as the hand the result names it by, so the page shows it under that name.
    assert_eq!(
        table.data()["open_hands"],
        json!([{ "name": "Base card", "cards": table.data()["open_cards"], "description": "" }])
    );
    provider_post(&app, "table", json!({ "token": hilow, "game": "teen20" })).await.expect(400);
    refused(
        &provider_post(&app, "table", json!({ "token": "unknown", "game": "teen20" })).await,
        401,
        "invalid_token",
    );
    assert_sound(&ctx).await;
}
both_databases!(the_built_in_provider_plays_through_the_wallet);

/// The framed game shows the balance the header shows (ledger balance, exposure apart), not
/// the wallet's stakeable figure, so a bettor with sports exposure sees one figure everywhere.
async fn the_built_in_game_shows_the_headers_balance(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    // A lay of 100 at 3.00 waits unmatched, reserving 200.00 of exposure.
    app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 3, "stake": 100 }))
        .await
        .expect(200);
    let header = app.get("user/getUserBalance", Some(&demo)).await;
    let (total, available) =
        (minor(&header.data()["total_balance"]), minor(&header.data()["available"]));
    assert_eq!(total - available, 200_00);

    let token = query_param(&launch_url(&app, &demo, "backlay-teen20").await, "token");
    let table = provider_post(&app, "table", json!({ "token": token, "game": "teen20" })).await;
    table.expect(200);
    assert_eq!(
        minor(&table.data()["balance"]),
        total,
        "the header's figure, not the stakeable one"
    );
    let dealt = provider_post(&app, "deal", json!({ "token": token, "table_id": table.data()["table_id"], "market": "player-a", "stake": 100 })).await;
    dealt.expect(200);
    let header = app.get("user/getUserBalance", Some(&demo)).await;
    assert_eq!(minor(&dealt.data()["balance"]), minor(&header.data()["total_balance"]));
    assert_eq!(
        minor(&header.data()["total_balance"]),
        total - 100_00 + minor(&dealt.data()["payout"])
    );
}
both_databases!(the_built_in_game_shows_the_headers_balance);
