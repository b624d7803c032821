//! Safer gambling over HTTP (issue 33): limits a bettor sets (lower now, higher only after the
//! cooling-off and a confirmation, on the injected clock), the loss and stake limits refusing
//! bets of every kind and holding under 50 bets at once, the deposit limit, time-outs and
//! self-exclusions that nobody can lift, the log-in history and sessions, and the console's
//! read-only view and the operator's defaults.

use backlay_casino_runtime::open_round;
use backlay_casino_store::{CasinoReads, ProviderReads};
use backlay_kit::clock::now_ms;
use backlay_store::Store;
use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The demo's first cricket match, and a fresh open match-odds market on it without delay.
async fn market(app: &TestApp, admin: &str, token: &str) -> (i64, Vec<i64>) {
    let matches = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    app.open_market(admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 })).await
}

async fn set_limit(app: &TestApp, token: &str, body: Value) -> crate::common::Answer {
    app.post("user/limits", Some(token), body).await
}

fn limit_of<'a>(
    data: &'a Value,
    list: &str,
    kind: &str,
    period: Option<&str>,
) -> Option<&'a Value> {
    data[list]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == kind && l["period"] == period.map_or(Value::Null, |p| json!(p)))
}

fn refusal(answer: &crate::common::Answer) -> &Value {
    &answer.body["data"]["refusal"]
}

async fn limits_change_now_when_lower_and_after_a_confirmed_cooling_off_when_higher(app: TestApp) {
    let demo = app.demo().await;
    let empty = app.get("user/limits", Some(&demo)).await;
    empty.expect(200);
    assert_eq!(
        empty.data(),
        &json!({ "limits": [], "pending": [], "left": [], "operator_max_stake": null })
    );
    app.get("user/limits", None).await.expect(401);

    // New: at once.
    let set =
        set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": 2000 })).await;
    set.expect(200);
    assert!(set.message().contains("applies now"), "{}", set.body);
    assert_eq!(limit_of(set.data(), "limits", "loss", Some("day")).unwrap()["value"], 2000.0);
    assert_eq!(set.data()["left"], json!([{ "kind": "loss", "period": "day", "value": 2000.0 }]));
    // Lower: at once.
    let lower =
        set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": "1500.50" }))
            .await;
    lower.expect(200);
    assert_eq!(limit_of(lower.data(), "limits", "loss", Some("day")).unwrap()["value"], 1500.5);
    // Higher: waits, the old one holds.
    let higher =
        set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": 5000 })).await;
    higher.expect(200);
    assert!(higher.message().contains("You can confirm the change from"), "{}", higher.body);
    assert_eq!(limit_of(higher.data(), "limits", "loss", Some("day")).unwrap()["value"], 1500.5);
    let waiting = limit_of(higher.data(), "pending", "loss", Some("day")).unwrap();
    assert_eq!(waiting["value"], 5000.0);
    assert_eq!(waiting["confirmable"], false);
    let early = app
        .post(
            "user/confirmLimit",
            Some(&demo),
            json!({ "kind": "loss", "period": "day", "accept": true }),
        )
        .await;
    early.expect(422);
    assert!(early.message().starts_with("You can confirm this from"), "{}", early.body);

    // 24 hours on (the injected clock): confirmable, and applied only once confirmed.
    app.config().clock.advance(DAY_MS + 1);
    let later = app.get("user/limits", Some(&demo)).await;
    assert_eq!(
        limit_of(later.data(), "pending", "loss", Some("day")).unwrap()["confirmable"],
        true
    );
    assert_eq!(limit_of(later.data(), "limits", "loss", Some("day")).unwrap()["value"], 1500.5);
    let confirmed = app
        .post(
            "user/confirmLimit",
            Some(&demo),
            json!({ "kind": "loss", "period": "day", "accept": true }),
        )
        .await;
    confirmed.expect(200);
    assert_eq!(limit_of(confirmed.data(), "limits", "loss", Some("day")).unwrap()["value"], 5000.0);
    assert_eq!(confirmed.data()["pending"], json!([]));
    app.post(
        "user/confirmLimit",
        Some(&demo),
        json!({ "kind": "loss", "period": "day", "accept": true }),
    )
    .await
    .expect(404);

    // A removal waits too; dropped, the limit stays.
    let remove =
        set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": null })).await;
    remove.expect(200);
    assert!(limit_of(remove.data(), "pending", "loss", Some("day")).unwrap()["value"].is_null());
    let dropped = app
        .post(
            "user/confirmLimit",
            Some(&demo),
            json!({ "kind": "loss", "period": "day", "accept": false }),
        )
        .await;
    dropped.expect(200);
    assert_eq!(dropped.data()["pending"], json!([]));
    assert_eq!(limit_of(dropped.data(), "limits", "loss", Some("day")).unwrap()["value"], 5000.0);
    // A lower limit while a higher one waits replaces the waiting one.
    set_limit(&app, &demo, json!({ "kind": "stake", "value": 500 })).await.expect(200);
    set_limit(&app, &demo, json!({ "kind": "stake", "value": 900 })).await.expect(200);
    let replaced = set_limit(&app, &demo, json!({ "kind": "stake", "value": 300 })).await;
    assert_eq!(limit_of(replaced.data(), "limits", "stake", None).unwrap()["value"], 300.0);
    assert_eq!(replaced.data()["pending"], json!([]));

    // Bad input names its field.
    for (body, field) in [
        (json!({ "kind": "wins", "period": "day", "value": 1 }), "kind"),
        (json!({ "kind": "loss", "value": 1 }), "period"),
        (json!({ "kind": "loss", "period": "year", "value": 1 }), "period"),
        (json!({ "kind": "stake", "period": "day", "value": 1 }), "period"),
        (json!({ "kind": "deposit", "period": "week", "value": 0 }), "value"),
        (json!({ "kind": "deposit", "period": "week", "value": -5 }), "value"),
        (json!({ "kind": "deposit", "period": "week", "value": 1.234 }), "value"),
        (json!({ "kind": "deposit", "period": "week", "value": 2_000_000_000 }), "value"),
        (json!({ "kind": "deposit", "period": "week", "value": "lots" }), "value"),
        (json!({ "kind": "session", "value": 3 }), "value"),
        (json!({ "kind": "session", "value": 30.5 }), "value"),
        (json!({ "kind": "stake", "value": 300 }), "value"),
        (json!({ "kind": "deposit", "period": "day", "value": null }), "value"),
    ] {
        let answer = set_limit(&app, &demo, body.clone()).await;
        answer.expect(400);
        assert!(!answer.field_error(field).is_empty(), "{body}: {}", answer.body);
    }
    // Another bettor's limits are their own.
    let demo2 = app.login("demo2", "Demo@1234").await;
    assert_eq!(app.get("user/limits", Some(&demo2)).await.data()["limits"], json!([]));
}
both_databases!(limits_change_now_when_lower_and_after_a_confirmed_cooling_off_when_higher);

async fn loss_and_stake_limits_refuse_bets_and_say_what_is_left(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let (market, runners) = market(&app, &admin, &demo).await;
    set_limit(&app, &demo, json!({ "kind": "loss", "period": "week", "value": 1000 }))
        .await
        .expect(200);
    set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": 1200 }))
        .await
        .expect(200);
    // A back of 600 risks 600: 400 left this week (the week binds).
    app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3, "stake": 600 })).await.expect(200);
    let left = app.get("user/limits", Some(&demo)).await;
    assert_eq!(left.data()["left"], json!([{ "kind": "loss", "period": "week", "value": 400.0 }]));
    let refused = app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3, "stake": 500 })).await;
    refused.expect(422);
    assert_eq!(
        refusal(&refused),
        &json!({ "refusal": "loss_limit", "left_minor": 400_00, "period": "week", "limit_minor": 1000_00 })
    );
    assert!(refused.message().contains("you can lose ₹400.00 more this week"), "{}", refused.body);
    // 400 fits exactly; then nothing is left.
    app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3, "stake": 400 })).await.expect(200);
    let none_left = app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3, "stake": 1 })).await;
    none_left.expect(422);
    assert_eq!(refusal(&none_left)["left_minor"], 0);

    // The stake limit, the bettor's own.
    set_limit(&app, &demo, json!({ "kind": "stake", "value": 50 })).await.expect(200);
    let big = app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": 3, "stake": 60 })).await;
    big.expect(422);
    assert_eq!(refusal(&big), &json!({ "refusal": "own_stake_limit", "limit_minor": 50_00 }));

    // The operator's tree-wide maximum stake binds everyone, below the bettor's own.
    let demo2 = app.login("demo2", "Demo@1234").await;
    let defaults = app
        .post(
            "admin/saferDefaults",
            Some(&admin),
            json!({ "default_loss_limit_day": null, "max_stake": 20 }),
        )
        .await;
    defaults.expect(200);
    let over = app.post("bet/placeBet", Some(&demo2), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 3, "stake": 25 })).await;
    over.expect(422);
    assert_eq!(refusal(&over), &json!({ "refusal": "own_stake_limit", "limit_minor": 20_00 }));
    app.post(
        "admin/saferDefaults",
        Some(&demo2),
        json!({ "max_stake": null, "default_loss_limit_day": null }),
    )
    .await
    .expect(403);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(loss_and_stake_limits_refuse_bets_and_say_what_is_left);

async fn fifty_bets_at_once_never_lose_more_than_the_limit(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let (market, runners) = market(&app, &admin, &demo).await;
    set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": 1000 }))
        .await
        .expect(200);
    let bets = (0..50).map(|i| {
        let app_base = (app.client.clone(), app.base.clone(), demo.clone());
        let runner = runners[i % 2];
        tokio::spawn(async move {
            let (client, base, token) = app_base;
            client
                .post(format!("{base}/bet/placeBet"))
                .bearer_auth(token)
                .json(&json!({ "market_id": market, "selection_id": runner, "side": "back", "price": 1.5 + (i % 5) as f64 / 10.0, "stake": 100 }))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        })
    });
    let statuses: Vec<u16> =
        futures::future::join_all(bets).await.into_iter().map(Result::unwrap).collect();
    assert!(statuses.iter().all(|s| *s == 200 || *s == 422), "{statuses:?}");
    // Backs on both runners: the worst case is the stakes on the runner that loses most, at most
    // the limit; 10 backs of 100 fit on each runner's side of the book only while the total
    // worst case stays within 1,000.
    let balance = app.get("user/getUserBalance", Some(&demo)).await;
    let exposure = -minor(&balance.data()["liability"]);
    assert!(exposure <= 1000_00, "exposure {exposure} past the limit; statuses {statuses:?}");
    assert!(statuses.iter().filter(|s| **s == 200).count() >= 10, "{statuses:?}");
    let left = app.get("user/limits", Some(&demo)).await;
    assert_eq!(minor(&left.data()["left"][0]["value"]), 1000_00 - exposure);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(fifty_bets_at_once_never_lose_more_than_the_limit);

async fn a_casino_stake_counts_against_the_loss_limit(app: TestApp) {
    let store = Store::connect(app.database_url()).await.unwrap();
    let demo = app.demo().await;
    let game = store.casino_game_by_code("teen20").await.unwrap();
    let round = open_round(&store, &game, now_ms(), 60_000).await.unwrap();
    let table = app.post("casino/roundState", Some(&demo), json!({ "match_id": game.id })).await;
    let odds = table.data()["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["code"] == "player-a")
        .map(|m| m["odds"].clone())
        .unwrap();
    set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": 150 }))
        .await
        .expect(200);
    let place = |stake: i64| {
        app.post("casino/placeBet", Some(&demo), json!({ "round_id": round.round_id, "market": "player-a", "odds": odds, "stake": stake }))
    };
    place(100).await.expect(200);
    // The stake is lost until a win comes back: 50 left.
    let refused = place(100).await;
    refused.expect(422);
    assert_eq!(refusal(&refused)["refusal"], "loss_limit");
    assert_eq!(refusal(&refused)["left_minor"], 50_00);
    place(50).await.expect(200);
    set_limit(&app, &demo, json!({ "kind": "stake", "value": 10 })).await.expect(200);
    assert_eq!(refusal(place(20).await.expect(422))["refusal"], "own_stake_limit");
}
both_databases!(
    a_casino_stake_counts_against_the_loss_limit,
    |c: &mut backlay_kit::config::Config| c.casino = false
);

async fn a_deposit_past_the_limit_is_refused(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    // A new client: the demo bettors were given their chips today, which counts.
    let (demo_id, demo) = app.new_user(&agent, "depositor", "client").await;
    set_limit(&app, &demo, json!({ "kind": "deposit", "period": "day", "value": 1000 }))
        .await
        .expect(200);
    let transfer = |amount: i64| {
        app.post(
            "admin/user/transfer",
            Some(&agent),
            json!({ "user_id": demo_id, "amount": amount, "direction": "deposit" }),
        )
    };
    transfer(700).await.expect(200);
    let refused = transfer(400).await;
    refused.expect(422);
    assert_eq!(
        refusal(&refused),
        &json!({ "refusal": "deposit_limit", "left_minor": 300_00, "period": "day", "limit_minor": 1000_00 })
    );
    transfer(300).await.expect(200);
    let left = app.get("user/limits", Some(&demo)).await;
    assert_eq!(left.data()["left"], json!([{ "kind": "deposit", "period": "day", "value": 0.0 }]));
    // Withdrawals are never limited.
    app.post(
        "admin/user/transfer",
        Some(&agent),
        json!({ "user_id": demo_id, "amount": 500, "direction": "withdraw" }),
    )
    .await
    .expect(200);
    // A request to the agent counts too.
    app.post("admin/settings", Some(&admin), json!({ "payment_gateway": 1 })).await.expect(200);
    let request = app
        .post("payment/deposit", Some(&demo), json!({ "amount": 100, "reference": "UTR123456789" }))
        .await;
    request.expect(422);
    assert_eq!(refusal(&request)["refusal"], "deposit_limit");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_deposit_past_the_limit_is_refused);

async fn a_time_out_ends_every_session_and_nobody_can_lift_it(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let demo = app.demo().await;
    let other_session = app.login("demo", "Demo@1234").await;
    let demo_id = app.user_id(&admin, "demo").await;
    let (market, runners) = market(&app, &admin, &demo).await;
    let resting = app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 900, "stake": 10 })).await;
    resting.expect(200);
    assert_eq!(resting.data()["status"], "unmatched");

    let wrong = app
        .post("user/timeOut", Some(&demo), json!({ "period": "24h", "password": "Wrong@1234" }))
        .await;
    wrong.expect(400);
    assert!(!wrong.field_error("password").is_empty());
    let bad = app
        .post("user/timeOut", Some(&demo), json!({ "period": "2h", "password": "Demo@1234" }))
        .await;
    bad.expect(400);
    assert!(bad.field_error("period").contains("24h, 48h, 7d or 30d"), "{}", bad.body);
    let taken = app
        .post("user/timeOut", Some(&demo), json!({ "period": "48h", "password": "Demo@1234" }))
        .await;
    taken.expect(200);
    assert_eq!(taken.data()["cancelled_bets"], 1);
    // Every session ended, this one too.
    app.get("user/limits", Some(&demo)).await.expect(401);
    app.get("user/limits", Some(&other_session)).await.expect(401);
    app.post("bet/placeBet", Some(&other_session), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2, "stake": 10 })).await.expect(401);
    // Log-in refused with until when; the admin unlocking or resetting changes nothing.
    let login = app.login_answer("demo", "Demo@1234").await;
    login.expect(422);
    assert_eq!(refusal(&login)["refusal"], "timed_out");
    assert!(login.message().starts_with("You are taking a time-out until"), "{}", login.body);
    app.post("admin/user/lock", Some(&admin), json!({ "user_id": demo_id, "locked": 0 }))
        .await
        .expect(200);
    app.login_answer("demo", "Demo@1234").await.expect(422);
    // No chips in while it lasts; out, yes.
    let deposit = app
        .post(
            "admin/user/transfer",
            Some(&agent),
            json!({ "user_id": demo_id, "amount": 10, "direction": "deposit" }),
        )
        .await;
    deposit.expect(422);
    assert_eq!(refusal(&deposit)["refusal"], "timed_out");
    app.post(
        "admin/user/transfer",
        Some(&agent),
        json!({ "user_id": demo_id, "amount": 10, "direction": "withdraw" }),
    )
    .await
    .expect(200);
    // The console shows it.
    let shown =
        app.post("console/account/safer", Some(&agent), json!({ "user_id": demo_id })).await;
    shown.expect(200);
    assert_eq!(shown.data()["active_break"]["kind"], "time_out");
    assert_eq!(shown.data()["active_break"]["period"], "48h");
    // The history has the refused log-ins.
    // Over: log-in works again.
    app.config().clock.advance(2 * DAY_MS + 1);
    let back = app.login("demo", "Demo@1234").await;
    let history = app.get("user/loginHistory", Some(&back)).await;
    history.expect(200);
    let results: Vec<&str> = history.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["result"].as_str().unwrap())
        .collect();
    assert_eq!(results[0], "ok");
    assert!(results.contains(&"timed_out"), "{results:?}");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_time_out_ends_every_session_and_nobody_can_lift_it);

async fn a_self_excluded_mobile_opens_no_new_account(app: TestApp) {
    let signup_with = |name: &str, mobile: &str| {
        app.post("user/signup", None, json!({ "user_name": name, "password": "Demo@1234", "confirm_password": "Demo@1234", "dial_code": "+91", "mobile": mobile }))
    };
    let signup = |name: &str| signup_with(name, "9876543210");
    let first = signup("excluded1").await;
    first.expect(200);
    let token = first.data()["token"].as_str().unwrap().to_string();
    let excluded = app
        .post("user/selfExclude", Some(&token), json!({ "period": "6m", "password": "Demo@1234" }))
        .await;
    excluded.expect(200);
    let login = app.login_answer("excluded1", "Demo@1234").await;
    login.expect(422);
    assert_eq!(refusal(&login)["refusal"], "self_excluded");
    let again = signup("excluded2").await;
    again.expect(400);
    assert!(again.field_error("mobile").contains("self-excluded"), "{}", again.body);
    // A bad period names its field.
    let other = signup_with("another1", "9123456780").await;
    let other_token = other.data()["token"].as_str().unwrap().to_string();
    app.post(
        "user/selfExclude",
        Some(&other_token),
        json!({ "period": "1d", "password": "Demo@1234" }),
    )
    .await
    .expect(400);
    // Still excluded after a year? No: six months; a day before its end it holds.
    app.config().clock.advance(180 * DAY_MS);
    app.login_answer("excluded1", "Demo@1234").await.expect(422);
}
both_databases!(a_self_excluded_mobile_opens_no_new_account);

async fn log_ins_are_listed_and_other_sessions_can_be_ended(app: TestApp) {
    let ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    let first = app
        .client
        .post(format!("{}/user/login", app.base))
        .header("user-agent", ua)
        .json(&json!({ "user_name": "demo", "password": "Demo@1234" }))
        .send()
        .await
        .unwrap();
    assert_eq!(first.status(), 200);
    app.login_answer("demo", "Wrong@1234").await.expect(400);
    let current = app.demo().await;
    let history = app.get("user/loginHistory?limit=2", Some(&current)).await;
    history.expect(200);
    assert_eq!(history.data()["total"], 3);
    assert_eq!(history.data()["rows"].as_array().unwrap().len(), 2);
    assert_eq!(history.data()["rows"][1]["result"], "wrong_password");
    let page2 = app.get("user/loginHistory?page=2&limit=2", Some(&current)).await;
    assert_eq!(page2.data()["rows"][0]["device"], "Chrome 131 on Windows 10");
    app.get("user/loginHistory?limit=0", Some(&current)).await.expect(400);

    let sessions = app.get("user/sessions", Some(&current)).await;
    sessions.expect(200);
    let list = sessions.data()["sessions"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list.iter().filter(|s| s["current"] == true).count(), 1);
    let ended = app.post("user/logoutOthers", Some(&current), json!({})).await;
    ended.expect(200);
    assert_eq!(ended.data()["ended"], 1);
    assert_eq!(
        app.get("user/sessions", Some(&current)).await.data()["sessions"].as_array().unwrap().len(),
        1
    );
    // Another bettor sees only their own.
    let demo2 = app.login("demo2", "Demo@1234").await;
    assert_eq!(app.get("user/loginHistory", Some(&demo2)).await.data()["total"], 1);
}
both_databases!(log_ins_are_listed_and_other_sessions_can_be_ended);

/// Logs `user` in with `password` from the browser (or bot) whose User-Agent is `agent`.
async fn login_from(app: &TestApp, user: &str, password: &str, agent: &str) -> reqwest::Response {
    app.client
        .post(format!("{}/user/login", app.base))
        .header("user-agent", agent)
        .json(&json!({ "user_name": user, "password": password }))
        .send()
        .await
        .unwrap()
}

/// The kind and text of each of a bettor's notices, newest first.
async fn notices_of(app: &TestApp, token: &str) -> Vec<Value> {
    let page = app.get("user/notices", Some(token)).await;
    page.expect(200);
    page.data()["rows"].as_array().unwrap().clone()
}

async fn a_log_in_from_a_new_device_is_a_notice(app: TestApp) {
    let chrome = |version: &str| {
        format!("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{version} Safari/537.36")
    };
    // The first log-in of all is not news, nor is the same browser after its update.
    assert_eq!(login_from(&app, "demo", "Demo@1234", &chrome("131.0.0.0")).await.status(), 200);
    assert_eq!(login_from(&app, "demo", "Demo@1234", &chrome("132.0.6834.83")).await.status(), 200);
    // A wrong password from somewhere new is in the history, not a notice.
    let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
    assert_eq!(login_from(&app, "demo", "Wrong@1234", firefox).await.status(), 400);
    let answer = login_from(&app, "demo", "Demo@1234", &chrome("132.0.6834.83")).await;
    let token =
        answer.json::<Value>().await.unwrap()["data"]["token"].as_str().unwrap().to_string();
    assert!(notices_of(&app, &token).await.iter().all(|n| n["kind"] != "new_device"));

    // Firefox on Linux logs in: the bettor is told, with the device and the address.
    assert_eq!(login_from(&app, "demo", "Demo@1234", firefox).await.status(), 200);
    let notices = notices_of(&app, &token).await;
    let new: Vec<&Value> = notices.iter().filter(|n| n["kind"] == "new_device").collect();
    assert_eq!(new.len(), 1, "{notices:?}");
    let history = app.get("user/loginHistory?limit=1", Some(&token)).await;
    let ip = history.data()["rows"][0]["ip"].clone();
    assert_eq!(new[0]["login"], json!({ "device": "Firefox 133 on Linux", "ip": ip }));
    assert_eq!(
        new[0]["text"],
        match ip.as_str() {
            Some(ip) => format!("New log-in from Firefox 133 on Linux at {ip}."),
            None => "New log-in from Firefox 133 on Linux.".to_string(),
        }
    );
    assert_eq!((&new[0]["market_id"], &new[0]["bet"]), (&Value::Null, &Value::Null));
    let unread = app.get("user/notices", Some(&token)).await.data()["unread"].as_i64().unwrap();
    assert!(unread >= 1);
    // Firefox again is no longer new; a bot's client is.
    assert_eq!(login_from(&app, "demo", "Demo@1234", firefox).await.status(), 200);
    assert_eq!(login_from(&app, "demo", "Demo@1234", "python-requests/2.32.3").await.status(), 200);
    let devices: Vec<Value> = notices_of(&app, &token)
        .await
        .into_iter()
        .filter(|n| n["kind"] == "new_device")
        .map(|n| n["login"]["device"].clone())
        .collect();
    assert_eq!(devices, [json!("python-requests/2.32.3"), json!("Firefox 133 on Linux")]);
    // Only the bettor is told.
    let demo2 = app.login("demo2", "Demo@1234").await;
    assert!(notices_of(&app, &demo2).await.iter().all(|n| n["kind"] != "new_device"));
}
both_databases!(a_log_in_from_a_new_device_is_a_notice);

async fn a_session_limit_ends_the_session_and_the_summary_says_when(app: TestApp) {
    let demo = app.demo().await;
    let summary = app.get("user/sessionSummary", Some(&demo)).await;
    summary.expect(200);
    assert_eq!(summary.data()["reality_check_minutes"], 60);
    assert!(summary.data()["ends_at"].is_null());
    assert_eq!(summary.data()["net"], 0.0);
    set_limit(&app, &demo, json!({ "kind": "session", "value": 30 })).await.expect(200);
    let limited = app.get("user/sessionSummary", Some(&demo)).await;
    let started =
        backlay_kit::clock::parse_iso(limited.data()["started_at"].as_str().unwrap()).unwrap();
    let ends = backlay_kit::clock::parse_iso(limited.data()["ends_at"].as_str().unwrap()).unwrap();
    assert_eq!(ends - started, 30 * 60_000);
    app.post("user/preferences", Some(&demo), json!({ "reality_check_minutes": 15 }))
        .await
        .expect(200);
    app.post("user/preferences", Some(&demo), json!({ "reality_check_minutes": 20 }))
        .await
        .expect(400);
    assert_eq!(
        app.get("user/sessionSummary", Some(&demo)).await.data()["reality_check_minutes"],
        15
    );
}
both_databases!(a_session_limit_ends_the_session_and_the_summary_says_when);

async fn the_operators_default_loss_limit_starts_new_accounts(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let read = app.get("admin/saferDefaults", Some(&admin)).await;
    assert_eq!(read.data(), &json!({ "default_loss_limit_day": null, "max_stake": null }));
    app.post(
        "admin/saferDefaults",
        Some(&admin),
        json!({ "default_loss_limit_day": 0, "max_stake": null }),
    )
    .await
    .expect(400);
    app.post(
        "admin/saferDefaults",
        Some(&admin),
        json!({ "default_loss_limit_day": 2500, "max_stake": null }),
    )
    .await
    .expect(200);
    let (client_id, client) = app.new_user(&agent, "fresh1", "client").await;
    let limits = app.get("user/limits", Some(&client)).await;
    assert_eq!(
        limits.data()["limits"],
        json!([{ "kind": "loss", "period": "day", "value": 2500.0 }])
    );
    // The agent sees it, read-only; another branch's agent does not.
    let shown =
        app.post("console/account/safer", Some(&agent), json!({ "user_id": client_id })).await;
    shown.expect(200);
    assert_eq!(shown.data()["limits"][0]["value"], 2500.0);
    assert!(shown.data()["active_break"].is_null());
    let (_, other_agent) = app.new_user(&admin, "otheragent", "agent").await;
    app.post("console/account/safer", Some(&other_agent), json!({ "user_id": client_id }))
        .await
        .expect(404);
    let dashboard = app.post("console/dashboard", Some(&admin), json!({})).await;
    dashboard.expect(200);
    assert_eq!(dashboard.data()["safer"]["with_limits"], 1);
}
both_databases!(the_operators_default_loss_limit_starts_new_accounts);

async fn a_bots_orders_and_log_in_obey_the_limits_and_the_break(app: TestApp) {
    let (_, _, market_id, runners) = crate::betfair::exchange_market(&app, "Bots limited").await;
    let market = format!("1.{market_id}");
    let demo = app.demo().await;
    let bot = crate::betfair::bot_login(&app, "demo", "Demo@1234").await;
    set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": 100 }))
        .await
        .expect(200);
    let order = |size: i64| {
        json!({
            "jsonrpc": "2.0", "method": "SportsAPING/v1.0/placeOrders", "id": 1,
            "params": { "marketId": market, "instructions": [{
                "orderType": "LIMIT", "selectionId": runners[0], "side": "BACK", "handicap": 0,
                "limitOrder": { "size": size, "price": 2.5, "persistenceType": "LAPSE" } }] },
        })
    };
    let placed = crate::betfair::rpc(&app, Some(&bot), "betting", order(60)).await;
    assert_eq!(placed["result"]["status"], "SUCCESS", "{placed}");
    let refused = crate::betfair::rpc(&app, Some(&bot), "betting", order(60)).await;
    assert_eq!(refused["result"]["status"], "FAILURE", "{refused}");
    assert_eq!(
        refused["result"]["instructionReports"][0]["errorCode"], "LOSS_LIMIT_EXCEEDED",
        "{refused}"
    );
    // Beside Betfair's codes, the engine's words: what is left of the limit.
    assert_eq!(refused["result"]["errorCode"], "LOSS_LIMIT_EXCEEDED", "{refused}");
    assert_eq!(
        refused["result"]["errorDetails"],
        "This would take you past your loss limit of ₹100.00 a day: you can lose ₹40.00 more today.",
        "{refused}"
    );
    // A stake past the bettor's own stake limit: INVALID_BET_SIZE, and why.
    set_limit(&app, &demo, json!({ "kind": "stake", "value": 5 })).await.expect(200);
    let too_big = crate::betfair::rpc(&app, Some(&bot), "betting", order(10)).await;
    assert_eq!(too_big["result"]["instructionReports"][0]["errorCode"], "INVALID_BET_SIZE");
    assert_eq!(too_big["result"]["errorDetails"], "Your stake limit is ₹5.00 a bet.", "{too_big}");

    // A time-out ends the bot's session too, and its log-in is refused.
    app.post("user/timeOut", Some(&demo), json!({ "period": "24h", "password": "Demo@1234" }))
        .await
        .expect(200);
    let after = crate::betfair::rpc(&app, Some(&bot), "betting", order(10)).await;
    assert!(after.get("error").is_some(), "a dead session places nothing: {after}");
    let login = crate::betfair::identity(
        &app,
        "login",
        &[("username", "demo"), ("password", "Demo@1234")],
        None,
    )
    .await;
    assert_eq!(login["status"], "FAIL", "{login}");
    assert_eq!(login["error"], "ACCOUNT_ALREADY_LOCKED", "{login}");
}
both_databases!(a_bots_orders_and_log_in_obey_the_limits_and_the_break);

async fn a_providers_debit_past_the_loss_limit_is_insufficient_funds(app: TestApp) {
    let store = app.store().await;
    let builtin = store.builtin_casino_provider().await.unwrap().unwrap();
    let provider =
        crate::wallet::Provider { code: builtin.code.clone(), secret: builtin.hmac_secret.clone() };
    let demo = app.demo().await;
    let token = crate::wallet::player_token(&app, &demo).await;
    set_limit(&app, &demo, json!({ "kind": "loss", "period": "day", "value": 100 }))
        .await
        .expect(200);
    let debit = |tx: &str, amount: &str| {
        crate::wallet::wallet(
            &app,
            &provider,
            "debit",
            json!({ "token": token, "tx_id": tx, "round": "r-limit", "amount": amount }),
        )
    };
    debit("d-1", "70").await.expect(200);
    let refused = debit("d-2", "40").await;
    refused.expect(422);
    assert_eq!(refused.data()["code"], "insufficient_funds", "{}", refused.body);
    assert!(refused.message().contains("loss limit"), "{}", refused.message());
    debit("d-3", "30").await.expect(200);
    set_limit(&app, &demo, json!({ "kind": "stake", "value": 5 })).await.expect(200);
    let big = debit("d-4", "6").await;
    big.expect(422);
    assert_eq!(big.data()["code"], "bet_not_allowed", "{}", big.body);
}
both_databases!(a_providers_debit_past_the_loss_limit_is_insufficient_funds);
