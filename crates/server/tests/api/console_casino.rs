//! The console's Casino screen over HTTP (`/api/admin/casino/…`): each action shows in the
//! screen's list and, where players would see it, in the client's lobby calls
//! (`casino/getCasinoList`, `casino/getCasinoSport`, `casino/getStaticGames`); a provider's
//! secret is answered once and signs wallet calls until it is rotated; agents and clients are
//! refused with nothing changed; bad input is refused at its field. One test runs the real
//! round runner: a table switched off mid-round settles that round's bets and opens no more.

use std::time::{Duration, Instant};

use backlay_casino::fair::verify;
use backlay_casino::games::GameKind;
use backlay_casino::market::{payout, Market, Odds};
use backlay_kit::config::Config;
use serde_json::{json, Value};

use crate::both_databases;
use crate::common::TestApp;
use crate::wallet::{launch_url, query_param, wallet, Provider};
use backlay_casino_store::{CasinoReads, ProviderReads};

async fn casino_list(app: &TestApp, admin: &str) -> Value {
    let answer = app.get("admin/casino/list", Some(admin)).await;
    answer.expect(200);
    answer.data().clone()
}

fn find<'a>(list: &'a Value, key: &str, value: &str) -> Option<&'a Value> {
    list.as_array().unwrap().iter().find(|row| row[key] == value)
}

fn codes(list: &Value, key: &str) -> Vec<String> {
    list.as_array().unwrap().iter().map(|row| row[key].as_str().unwrap().to_string()).collect()
}

/// The game codes the client's lobby lists.
async fn lobby_tables(app: &TestApp, client: &str) -> Vec<String> {
    let answer = app.post("casino/getCasinoList", Some(client), json!({})).await;
    answer.expect(200);
    codes(answer.data(), "game_code")
}

/// The category ids the client's casino page shows, in order.
async fn lobby_categories(app: &TestApp, client: &str) -> Vec<String> {
    let answer = app.get("casino/getCasinoSport", Some(client)).await;
    answer.expect(200);
    codes(answer.data(), "sport_id")
}

async fn newest_audit(app: &TestApp, admin: &str) -> Value {
    let audit = app.post("admin/audit", Some(admin), json!({ "limit": 1 })).await;
    audit.expect(200);
    audit.data()["rows"][0].clone()
}

async fn the_operator_runs_tables_and_categories_from_the_console(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let list = casino_list(&app, &admin).await;
    assert_eq!(list["tables"].as_array().unwrap().len(), 16, "{list}");
    let dt6 = find(&list["tables"], "game_code", "dt6").unwrap();
    assert_eq!((dt6["kind"].as_str(), dt6["is_active"].as_bool()), (Some("dt1day"), Some(true)));
    assert_eq!(dt6["image"], "/casino/art/dt1day.svg");
    let cards = find(&list["categories"], "sport_id", dt6["category"].as_str().unwrap()).unwrap();
    assert!(cards["tables"].as_i64().unwrap() > 0, "{cards}");
    assert!(lobby_tables(&app, &demo).await.contains(&"dt6".to_string()));

    // A table switched off leaves the lobby; on again, it is back.
    let off = app
        .post("admin/casino/table/active", Some(&admin), json!({ "game_code": "dt6", "active": 0 }))
        .await;
    off.expect(200);
    assert_eq!(off.data()["is_active"], false);
    let listed = casino_list(&app, &admin).await;
    assert_eq!(find(&listed["tables"], "game_code", "dt6").unwrap()["is_active"], false);
    assert!(!lobby_tables(&app, &demo).await.contains(&"dt6".to_string()));
    // Nor does it open by its address: its table, its stream, a bet (issue 28).
    for code in ["dt6", "dt1day"] {
        let answer = app.post("casino/roundState", Some(&demo), json!({ "game_code": code })).await;
        answer.expect(404);
        assert_eq!(
            answer.message(),
            format!(
                "{} is switched off: choose another table in the casino.",
                dt6["title"].as_str().unwrap()
            )
        );
    }
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await;
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let stream = app.get(&format!("stream?casino=dt6&ticket={ticket}"), None).await;
    stream.expect(404);
    assert!(stream.message().contains("switched off"), "{}", stream.body);
    let audit = newest_audit(&app, &admin).await;
    assert_eq!(
        (audit["action"].as_str(), audit["target"].as_str()),
        (Some("casino_game.active"), Some("casino_game:dt6"))
    );
    assert_eq!(
        audit["detail"],
        json!({ "before": { "active": true }, "after": { "active": false } })
    );
    app.post(
        "admin/casino/table/active",
        Some(&admin),
        json!({ "game_code": "dt1day", "active": true }),
    )
    .await
    .expect(200);
    assert!(lobby_tables(&app, &demo).await.contains(&"dt6".to_string()));

    // The only table of a category off: the category leaves the casino page too.
    app.post(
        "admin/casino/table/active",
        Some(&admin),
        json!({ "game_code": "worli", "active": 0 }),
    )
    .await
    .expect(200);
    assert!(!lobby_categories(&app, &demo).await.contains(&"matka".to_string()));
    app.post(
        "admin/casino/table/active",
        Some(&admin),
        json!({ "game_code": "worli", "active": 1 }),
    )
    .await
    .expect(200);
    assert!(lobby_categories(&app, &demo).await.contains(&"matka".to_string()));

    // A category added is listed for the operator, not for players until it has games.
    let added = app
        .post(
            "admin/casino/category/add",
            Some(&admin),
            json!({ "sport_id": "crash", "name": "Crash Games", "order": 1000 }),
        )
        .await;
    added.expect(200);
    assert_eq!(added.data(), &json!({ "sport_id": "crash", "name": "Crash Games", "order": 1000 }));
    let list = casino_list(&app, &admin).await;
    assert_eq!(codes(&list["categories"], "sport_id").last().map(String::as_str), Some("crash"));
    assert!(!lobby_categories(&app, &demo).await.contains(&"crash".to_string()));
    app.post(
        "admin/casino/category/add",
        Some(&admin),
        json!({ "sport_id": "crash", "name": "Again" }),
    )
    .await
    .expect(409);

    // Renamed, audited with the name before and after.
    app.post(
        "admin/casino/category/rename",
        Some(&admin),
        json!({ "sport_id": "crash", "name": "Crash" }),
    )
    .await
    .expect(200);
    let list = casino_list(&app, &admin).await;
    assert_eq!(find(&list["categories"], "sport_id", "crash").unwrap()["name"], "Crash");
    let audit = newest_audit(&app, &admin).await;
    assert_eq!(
        audit["detail"],
        json!({ "before": { "name": "Crash Games" }, "after": { "name": "Crash" } })
    );

    // Moved up one place: it swaps with the one before it, in the operator's list and the
    // players' (matka, which has a table, moves below it).
    let before = codes(&list["categories"], "sport_id");
    let moved = app
        .post(
            "admin/casino/category/move",
            Some(&admin),
            json!({ "sport_id": "crash", "direction": "up" }),
        )
        .await;
    moved.expect(200);
    let mut expected = before.clone();
    let n = expected.len();
    expected.swap(n - 1, n - 2);
    assert_eq!(codes(moved.data(), "sport_id"), expected);
    let orders: Vec<i64> =
        moved.data().as_array().unwrap().iter().map(|c| c["order"].as_i64().unwrap()).collect();
    assert_eq!(orders, (1..=n as i64).map(|i| i * 10).collect::<Vec<_>>());
    assert_eq!(codes(&casino_list(&app, &admin).await["categories"], "sport_id"), expected);
    let first = expected[0].clone();
    let refused = app
        .post(
            "admin/casino/category/move",
            Some(&admin),
            json!({ "sport_id": first, "direction": "up" }),
        )
        .await;
    refused.expect(409);
    assert!(refused.message().contains("already first"), "{}", refused.body);
    // An explicit order, as the command sets it: matka first for players.
    app.post(
        "admin/casino/category/order",
        Some(&admin),
        json!({ "sport_id": "matka", "order": -5 }),
    )
    .await
    .expect(200);
    assert_eq!(lobby_categories(&app, &demo).await.first().map(String::as_str), Some("matka"));

    // A category tables belong to is not removed, and says why; an empty one is.
    let category = dt6["category"].as_str().unwrap();
    let kept = app
        .post("admin/casino/category/remove", Some(&admin), json!({ "sport_id": category }))
        .await;
    kept.expect(409);
    assert!(kept.message().contains("casino games belong to"), "{}", kept.body);
    assert!(find(&casino_list(&app, &admin).await["categories"], "sport_id", category).is_some());
    app.post("admin/casino/category/remove", Some(&admin), json!({ "sport_id": "crash" }))
        .await
        .expect(200);
    assert!(find(&casino_list(&app, &admin).await["categories"], "sport_id", "crash").is_none());
    let audit = newest_audit(&app, &admin).await;
    assert_eq!(audit["action"], "casino_category.remove");
    assert_eq!(audit["detail"]["before"]["name"], "Crash");
    app.post("admin/casino/category/remove", Some(&admin), json!({ "sport_id": "crash" }))
        .await
        .expect(404);
}
both_databases!(the_operator_runs_tables_and_categories_from_the_console);

async fn a_provider_added_from_the_console_shows_its_secret_once_and_lists_its_games(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let store = app.store().await;
    let builtin = store.builtin_casino_provider().await.unwrap().unwrap();

    let added = app
        .post(
            "admin/casino/provider/add",
            Some(&admin),
            json!({ "code": "evo", "name": "Evolution", "launch_url": "https://games.example.com/launch" }),
        )
        .await;
    added.expect(200);
    let secret = added.data()["secret"].as_str().unwrap().to_string();
    assert_eq!(secret.len(), 64);
    assert!(secret.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(added.message().contains("shown only now"), "{}", added.body);

    // The list shows the providers and never a secret.
    let list = casino_list(&app, &admin).await;
    let text = list.to_string();
    assert!(!text.contains(&secret) && !text.contains(&builtin.hmac_secret), "a secret in {text}");
    assert_eq!(codes(&list["providers"], "code"), ["backlay", "evo"]);
    let evo = find(&list["providers"], "code", "evo").unwrap();
    assert_eq!(
        (evo["name"].as_str(), evo["launch_url"].as_str(), evo["is_builtin"].as_bool()),
        (Some("Evolution"), Some("https://games.example.com/launch"), Some(false))
    );
    assert_eq!(find(&list["providers"], "code", "backlay").unwrap()["is_builtin"], true);
    app.post(
        "admin/casino/provider/add",
        Some(&admin),
        json!({ "code": "evo", "name": "Twice", "launch_url": "https://games.example.com/launch" }),
    )
    .await
    .expect(409);

    // Its game, added from the console, is in the players' catalogue and launches.
    let game = app
        .post(
            "admin/casino/catalogue/add",
            Some(&admin),
            json!({ "provider": "evo", "game_code": "lightning", "game_name": "Lightning Roulette", "category": "Live" }),
        )
        .await;
    game.expect(200);
    assert_eq!(game.data()["game_id"], "evo-lightning");
    let list = casino_list(&app, &admin).await;
    let listed = find(&list["catalogue"], "game_id", "evo-lightning").unwrap();
    assert_eq!(
        (listed["provider"].as_str(), listed["is_playable"].as_bool()),
        (Some("evo"), Some(true))
    );
    let status = |games: &Value| find(games, "game_id", "evo-lightning").unwrap()["status"].clone();
    let games = app.get("casino/getStaticGames", Some(&demo)).await;
    assert_eq!(status(games.data()), "ACTIVE");

    // The secret the console showed signs the provider's wallet calls, until it is rotated.
    let url = launch_url(&app, &demo, "evo-lightning").await;
    let token = query_param(&url, "token");
    let evo = Provider { code: "evo".into(), secret: secret.clone() };
    wallet(&app, &evo, "balance", json!({ "token": token })).await.expect(200);
    let rotated = app
        .post("admin/casino/provider/rotateSecret", Some(&admin), json!({ "code": "evo" }))
        .await;
    rotated.expect(200);
    let new_secret = rotated.data()["secret"].as_str().unwrap().to_string();
    assert_ne!(new_secret, secret);
    let audit = newest_audit(&app, &admin).await;
    assert_eq!(audit["action"], "provider.rotate_secret");
    assert!(!audit.to_string().contains(&new_secret), "the secret in the audit log: {audit}");
    wallet(&app, &evo, "balance", json!({ "token": token })).await.expect(401);
    let evo = Provider { code: "evo".into(), secret: new_secret.clone() };
    wallet(&app, &evo, "balance", json!({ "token": token })).await.expect(200);
    assert!(!casino_list(&app, &admin).await.to_string().contains(&new_secret));
    // The built-in provider's secret is the running server's: not rotated here.
    app.post("admin/casino/provider/rotateSecret", Some(&admin), json!({ "code": "backlay" }))
        .await
        .expect(404);

    // Off: listed without status in the players' catalogue; on again: playable.
    app.post(
        "admin/casino/catalogue/active",
        Some(&admin),
        json!({ "game_id": "evo-lightning", "active": 0 }),
    )
    .await
    .expect(200);
    assert_eq!(status(app.get("casino/getStaticGames", Some(&demo)).await.data()), "");
    let list = casino_list(&app, &admin).await;
    assert_eq!(find(&list["catalogue"], "game_id", "evo-lightning").unwrap()["is_active"], false);
    let audit = newest_audit(&app, &admin).await;
    assert_eq!(
        audit["detail"],
        json!({ "before": { "active": true }, "after": { "active": false } })
    );
    app.post(
        "admin/casino/catalogue/active",
        Some(&admin),
        json!({ "game_id": "evo-lightning", "active": 1 }),
    )
    .await
    .expect(200);
    assert_eq!(status(app.get("casino/getStaticGames", Some(&demo)).await.data()), "ACTIVE");
    app.post(
        "admin/casino/catalogue/active",
        Some(&admin),
        json!({ "game_id": "evo-nothing", "active": 1 }),
    )
    .await
    .expect(404);
}
both_databases!(a_provider_added_from_the_console_shows_its_secret_once_and_lists_its_games);

/// Categories are tabs and providers hold secrets: each list stops at its limit, with a reason.
async fn categories_and_providers_stop_at_their_limits(app: TestApp) {
    let admin = app.admin().await;
    let list = casino_list(&app, &admin).await;
    let categories = list["categories"].as_array().unwrap().len();
    for i in categories..50 {
        let body = json!({ "sport_id": format!("c{i}"), "name": format!("Category {i}") });
        app.post("admin/casino/category/add", Some(&admin), body).await.expect(200);
    }
    let full = app
        .post(
            "admin/casino/category/add",
            Some(&admin),
            json!({ "sport_id": "one_more", "name": "One more" }),
        )
        .await;
    full.expect(409);
    assert!(full.message().contains("50 casino categories"), "{}", full.body);
    let providers = list["providers"].as_array().unwrap().len();
    for i in providers..100 {
        let body = json!({ "code": format!("p{i}"), "name": format!("Provider {i}"), "launch_url": "https://games.example.com" });
        app.post("admin/casino/provider/add", Some(&admin), body).await.expect(200);
    }
    let full = app
        .post("admin/casino/provider/add", Some(&admin), json!({ "code": "one-more", "name": "One more", "launch_url": "https://games.example.com" }))
        .await;
    full.expect(409);
    assert!(full.message().contains("100 game providers"), "{}", full.body);
    let list = casino_list(&app, &admin).await;
    assert_eq!(
        (list["categories"].as_array().unwrap().len(), list["providers"].as_array().unwrap().len()),
        (50, 100)
    );
}
both_databases!(categories_and_providers_stop_at_their_limits);

/// Every casino action with a body that would work for an admin.
fn actions() -> Vec<(&'static str, Value)> {
    vec![
        ("admin/casino/table/active", json!({ "game_code": "dt6", "active": 0 })),
        ("admin/casino/category/add", json!({ "sport_id": "crash", "name": "Crash" })),
        ("admin/casino/category/rename", json!({ "sport_id": "matka", "name": "Worli" })),
        ("admin/casino/category/order", json!({ "sport_id": "matka", "order": 0 })),
        ("admin/casino/category/move", json!({ "sport_id": "matka", "direction": "up" })),
        ("admin/casino/category/remove", json!({ "sport_id": "worldcasino" })),
        (
            "admin/casino/provider/add",
            json!({ "code": "evo", "name": "Evo", "launch_url": "https://games.example.com" }),
        ),
        ("admin/casino/provider/rotateSecret", json!({ "code": "backlay" })),
        (
            "admin/casino/catalogue/add",
            json!({ "provider": "backlay", "game_code": "x", "game_name": "X", "category": "Live" }),
        ),
        ("admin/casino/catalogue/active", json!({ "game_id": "backlay-dt1day", "active": 0 })),
        ("admin/casino/gameImage", json!({ "game_code": "dt6", "image": "" })),
    ]
}

async fn audit_total(app: &TestApp, admin: &str) -> Value {
    let audit = app.post("admin/audit", Some(admin), json!({ "limit": 1 })).await;
    audit.data()["total"].clone()
}

async fn agents_and_clients_are_refused_and_nothing_changes(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let client = app.demo().await;
    let before = casino_list(&app, &admin).await;
    let audit_before = audit_total(&app, &admin).await;
    for token in [&agent, &client] {
        let read = app.get("admin/casino/list", Some(token)).await;
        read.expect(403);
        assert!(!read.body.to_string().contains("dt6"), "{}", read.body);
        for (route, body) in actions() {
            app.post(route, Some(token), body).await.expect(403);
        }
    }
    for (route, body) in actions() {
        assert_eq!(app.post(route, None, body).await.status.as_u16(), 401, "{route}");
    }
    assert_eq!(casino_list(&app, &admin).await, before);
    assert_eq!(audit_total(&app, &admin).await, audit_before);
    assert!(lobby_tables(&app, &client).await.contains(&"dt6".to_string()));
}
both_databases!(agents_and_clients_are_refused_and_nothing_changes);

async fn bad_input_is_refused_at_its_field(app: TestApp) {
    let admin = app.admin().await;
    let before = casino_list(&app, &admin).await;
    let cases: Vec<(&str, Value, &[&str])> = vec![
        ("admin/casino/table/active", json!({ "game_code": "", "active": 0 }), &["game_code"]),
        (
            "admin/casino/table/active",
            json!({ "game_code": "dt6", "active": "maybe" }),
            &["active"],
        ),
        ("admin/casino/table/active", json!({ "game_code": "dt6" }), &["active"]),
        (
            "admin/casino/category/add",
            json!({ "sport_id": "Crash Games!", "name": "Crash" }),
            &["sport_id"],
        ),
        ("admin/casino/category/add", json!({ "sport_id": "crash", "name": " " }), &["name"]),
        (
            "admin/casino/category/add",
            json!({ "sport_id": "crash", "name": "x".repeat(41) }),
            &["name"],
        ),
        (
            "admin/casino/category/add",
            json!({ "sport_id": "crash", "name": "Crash", "order": 1.5 }),
            &["order"],
        ),
        (
            "admin/casino/category/rename",
            json!({ "sport_id": "cardgames", "name": "Live Cards" }),
            &["name"],
        ),
        (
            "admin/casino/category/order",
            json!({ "sport_id": "matka", "order": "first" }),
            &["order"],
        ),
        (
            "admin/casino/category/move",
            json!({ "sport_id": "matka", "direction": "sideways" }),
            &["direction"],
        ),
        ("admin/casino/category/remove", json!({}), &["sport_id"]),
        (
            "admin/casino/provider/add",
            json!({ "code": "Evo Gaming", "name": "", "launch_url": "ftp://games.example.com?x=1" }),
            &["code", "name", "launch_url"],
        ),
        (
            "admin/casino/catalogue/add",
            json!({ "provider": "backlay", "game_code": "has space", "game_name": "", "category": "Slots", "url_thumb": "http://x/y.png" }),
            &["game_code", "game_name", "category", "url_thumb"],
        ),
        (
            "admin/casino/catalogue/add",
            json!({ "provider": "nobody", "game_code": "x", "game_name": "X", "category": "Live" }),
            &["provider"],
        ),
    ];
    for (route, body, fields) in cases {
        let answer = app.post(route, Some(&admin), body.clone()).await;
        answer.expect(400);
        for field in fields {
            assert!(
                !answer.field_error(field).is_empty(),
                "{route} {body}: no message at {field}: {}",
                answer.body
            );
        }
    }
    // Unknown things are 404s that name them.
    let unknown = app
        .post(
            "admin/casino/table/active",
            Some(&admin),
            json!({ "game_code": "nogame", "active": 1 }),
        )
        .await;
    unknown.expect(404);
    assert!(unknown.message().contains("nogame"), "{}", unknown.body);
    for (route, body) in [
        ("admin/casino/category/rename", json!({ "sport_id": "nothing", "name": "X" })),
        ("admin/casino/category/order", json!({ "sport_id": "nothing", "order": 1 })),
        ("admin/casino/category/move", json!({ "sport_id": "nothing", "direction": "down" })),
        ("admin/casino/provider/rotateSecret", json!({ "code": "nothing" })),
    ] {
        app.post(route, Some(&admin), body).await.expect(404);
    }
    assert_eq!(casino_list(&app, &admin).await, before, "a refused call changed something");
}
both_databases!(bad_input_is_refused_at_its_field);

fn runner_on(config: &mut Config) {
    config.casino = true;
    config.casino_betting_window_ms = 1_500;
    config.casino_result_pause_ms = 300;
    config.casino_deal_pace = backlay_casino::dealing::Pace { step_ms: 200, max_ms: 900 };
    config.casino_games = vec!["dt6".into()];
}

async fn round_state(app: &TestApp, token: &str) -> Value {
    let answer = app.post("casino/roundState", Some(token), json!({ "game_code": "dt6" })).await;
    answer.expect(200);
    answer.data().clone()
}

/// A table switched off while a round takes bets: that round closes, deals and pays its bets
/// by the rules, further bets are refused, no new round opens; switched on, rounds run again.
async fn a_table_switched_off_settles_its_open_round_and_opens_no_more(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let table = loop {
        let table = round_state(&app, &demo).await;
        if table["status"] == "betting" && table["close_in_ms"].as_i64().unwrap() > 800 {
            break table;
        }
        assert!(Instant::now() < deadline, "no round opened for betting: {table}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let round_id = table["round_id"].as_str().unwrap().to_string();
    let market =
        table["markets"].as_array().unwrap().iter().find(|m| m["code"] == "dragon").unwrap();
    let bet =
        json!({ "round_id": round_id, "market": "dragon", "odds": market["odds"], "stake": 50 });
    let before = app.balance_minor(&demo).await;
    app.post("casino/placeBet", Some(&demo), bet.clone()).await.expect(200);

    app.post("admin/casino/table/active", Some(&admin), json!({ "game_code": "dt6", "active": 0 }))
        .await
        .expect(200);
    let refused = app.post("casino/placeBet", Some(&demo), bet).await;
    refused.expect(409);
    assert!(refused.message().contains("closed"), "{}", refused.body);

    // The round settles as it would have: the bet is paid what the revealed deal gives it.
    let detail = loop {
        let detail = app.post("casino/round", Some(&demo), json!({ "round_id": round_id })).await;
        detail.expect(200);
        if detail.data()["phase"] == "settled" {
            break detail.data().clone();
        }
        assert!(Instant::now() < deadline, "round {round_id} did not settle: {}", detail.body);
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(detail["verified"], true);
    let odds = market["odds"].as_str().unwrap();
    let verified = verify(
        detail["seed"].as_str().unwrap(),
        table["commitment"].as_str().unwrap(),
        &round_id,
        GameKind::DragonTiger,
    )
    .expect("the round verifies");
    let hundredths = (odds.parse::<f64>().unwrap() * 100.0).round() as u32;
    let dragon = Market::new("dragon", "dragon", "", Odds::from_hundredths(hundredths));
    let paid_minor = payout(&dragon, 50_00, &verified.outcome);
    assert_eq!(app.balance_minor(&demo).await, before - 50_00 + paid_minor);

    // No new round while off (the result pause is 300 ms: wait well past it).
    // The table does not open for a player while off (issue 28); the store has no newer round.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    app.post("casino/roundState", Some(&demo), json!({ "game_code": "dt6" })).await.expect(404);
    let store = app.store().await;
    let game = store.casino_game_by_code("dt6").await.unwrap();
    let latest = store.latest_casino_round(game.id).await.unwrap().expect("the settled round");
    assert_eq!(latest.round_id, round_id, "a round opened while off");

    // On again: a new round opens within the runner's poll.
    app.post("admin/casino/table/active", Some(&admin), json!({ "game_code": "dt6", "active": 1 }))
        .await
        .expect(200);
    loop {
        let table = round_state(&app, &demo).await;
        if table["round_id"] != round_id.as_str() && table["status"] == "betting" {
            break;
        }
        assert!(Instant::now() < deadline, "no round after switching on: {table}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    app.assert_ledger_sound(&admin).await;
}

mod a_table_switched_off_settles_its_open_round_and_opens_no_more {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        let db = crate::common::Db::Sqlite;
        if let Some(app) = crate::common::spawn_app_with(db, super::runner_on).await {
            super::a_table_switched_off_settles_its_open_round_and_opens_no_more(app).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        let db = crate::common::Db::Postgres;
        if let Some(app) = crate::common::spawn_app_with(db, super::runner_on).await {
            super::a_table_switched_off_settles_its_open_round_and_opens_no_more(app).await;
        }
    }
}
