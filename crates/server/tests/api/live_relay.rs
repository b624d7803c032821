//! Live data across nodes (PostgreSQL only: a SQLite server is one node). Two nodes on one
//! database: a stream opened on B hears what happens through A — a bet's book change and the
//! bettor's `mine`, a match turned in play, a casino round's steps, and a book too big for one
//! NOTIFY — and neither node hears its own events twice.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{minor, read_until, spawn_app, Db, TestApp};

/// A stream ticket of `token` from `app`, and the match stream opened with it on `app`.
async fn open_match_stream(
    app: &TestApp,
    token: &str,
    match_id: i64,
) -> (reqwest::Response, String, Value) {
    let ticket = app.post("stream/ticket", Some(token), json!({})).await;
    ticket.expect(200);
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let mut response = app
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut buffer = String::new();
    let (_, snapshot) =
        read_until(&mut response, &mut buffer, |event, _| event == "snapshot").await;
    (response, buffer, snapshot)
}

async fn first_cricket_match(app: &TestApp, token: &str) -> i64 {
    let matches = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    matches.data()[0]["match_id"].as_i64().unwrap()
}

/// Creates an open match-odds market through `app` with these runners; answers its id and the
/// first runner's.
async fn open_market(app: &TestApp, admin: &str, match_id: i64, runners: &[String]) -> (i64, i64) {
    let created = app
        .post("admin/market/create", Some(admin), json!({ "match_id": match_id, "type": "match_odds", "name": "Relayed", "runners": runners, "bet_delay_s": 0 }))
        .await;
    created.expect(200);
    let market = created.data()["market_id"].as_i64().unwrap();
    let runner = created.data()["selection_ids"][0].as_i64().unwrap();
    app.post("admin/market/status", Some(admin), json!({ "market_id": market, "status": "open" }))
        .await
        .expect(200);
    (market, runner)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_on_one_node_hears_bets_and_scores_made_through_another() {
    let Some(a) = spawn_app(Db::Postgres).await else { return };
    let admin = a.admin().await;
    let match_id = first_cricket_match(&a, &admin).await;
    let (market, runner) = open_market(&a, &admin, match_id, &["A".into(), "B".into()]).await;
    // Not in play to begin with (the demo's first match may be), so the streams open on that.
    a.post("admin/match/inPlay", Some(&admin), json!({ "match_id": match_id, "in_play": 0 }))
        .await
        .expect(200);
    let b = a.second_node().await;

    // demo watches on B, a bystander on A (the node where the bets are matched).
    let demo_on_b = b.demo().await;
    let (mut on_b, mut b_buffer, _) = open_match_stream(&b, &demo_on_b, match_id).await;
    let (mut on_a, mut a_buffer, _) = open_match_stream(&a, &admin, match_id).await;

    // demo's lay, placed through A: B's stream shows the offer and tells demo it is theirs.
    let demo_on_a = a.demo().await;
    a.post("bet/placeBet", Some(&demo_on_a), json!({ "market_id": market, "selection_id": runner, "side": "lay", "price": 2.5, "stake": 400 })).await.expect(200);
    let (_, book) = read_until(&mut on_b, &mut b_buffer, |event, value| {
        event == "market"
            && value["market_id"] == market
            && !value["runners"][0]["back"].as_array().unwrap().is_empty()
    })
    .await;
    assert_eq!(book["runners"][0]["back"][0]["price"], 2.5);
    assert_eq!(minor(&book["runners"][0]["back"][0]["size"]), 400_00);
    let (event, mine) = read_until(&mut on_b, &mut b_buffer, |_, _| true).await;
    assert_eq!((event.as_str(), mine), ("mine", json!({ "market_id": market })));

    // demo2 takes it through A: matched on A, the emptied book reaches B.
    let demo2 = a.login("demo2", "Demo@1234").await;
    a.post("bet/placeBet", Some(&demo2), json!({ "market_id": market, "selection_id": runner, "side": "back", "price": 2.5, "stake": 400 })).await.expect(200);
    read_until(&mut on_b, &mut b_buffer, |event, value| {
        event == "market"
            && value["market_id"] == market
            && value["runners"][0]["back"].as_array().unwrap().is_empty()
    })
    .await;

    // The match turned in play through A: B's stream gets the score event.
    a.post("admin/match/inPlay", Some(&admin), json!({ "match_id": match_id, "in_play": 1 }))
        .await
        .expect(200);
    let (_, score) = read_until(&mut on_b, &mut b_buffer, |event, value| {
        event == "score" && value["in_play"] == true
    })
    .await;
    assert_eq!(score["match_id"], match_id);

    // A's own stream heard each of its events once: its relay skipped its own notices.
    let seen = std::sync::Mutex::new(Vec::new());
    read_until(&mut on_a, &mut a_buffer, |event, value| {
        seen.lock().unwrap().push((event.to_string(), value.clone()));
        event == "score" && value["in_play"] == true
    })
    .await;
    let seen = seen.into_inner().unwrap();
    let offered = seen
        .iter()
        .filter(|(event, value)| {
            event == "market"
                && value["runners"][0]["back"].as_array().is_some_and(|back| !back.is_empty())
        })
        .count();
    assert_eq!(offered, 1, "A heard its own book more than once: {seen:?}");
    // The score comes last: nothing echoed after it within a moment.
    tokio::time::sleep(Duration::from_millis(500)).await;
    a.post("admin/match/inPlay", Some(&admin), json!({ "match_id": match_id, "in_play": 0 }))
        .await
        .expect(200);
    let (_, next) = read_until(&mut on_a, &mut a_buffer, |event, _| event == "score").await;
    assert_eq!(next["in_play"], false, "an echo of the first score came back to A");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_book_too_big_for_one_notify_still_crosses() {
    let Some(a) = spawn_app(Db::Postgres).await else { return };
    let admin = a.admin().await;
    let match_id = first_cricket_match(&a, &admin).await;
    // 64 runners of 100-character names: the book is over 8000 bytes of JSON.
    let runners: Vec<String> = (0..64).map(|i| format!("{i:02}{}", "r".repeat(98))).collect();
    let (market, runner) = open_market(&a, &admin, match_id, &runners).await;
    let b = a.second_node().await;
    let demo = b.demo().await;
    let (mut on_b, mut buffer, _) = open_match_stream(&b, &demo, match_id).await;

    a.post("bet/placeBet", Some(&a.demo().await), json!({ "market_id": market, "selection_id": runner, "side": "lay", "price": 3.0, "stake": 250 })).await.expect(200);
    let (_, book) = read_until(&mut on_b, &mut buffer, |event, value| {
        event == "market"
            && value["market_id"] == market
            && !value["runners"][0]["back"].as_array().unwrap().is_empty()
    })
    .await;
    assert!(book.to_string().len() > 8_000, "the book is only {} bytes", book.to_string().len());
    assert_eq!(book["runners"].as_array().unwrap().len(), 64);
    assert_eq!(minor(&book["runners"][0]["back"][0]["size"]), 250_00);
    // It went by the table, not in the NOTIFY.
    let store = a.store().await;
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM live_relay_payloads")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert!(stored >= 1, "no book was stored for the relay");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_stream_on_one_node_follows_the_runner_of_another() {
    let Some(a) = spawn_app_with_runner().await else { return };
    // B runs no casino runner (a second node is its app state, no server around it): every
    // round event on its stream comes from A's runner.
    let b = a.second_node().await;
    let demo = b.demo().await;
    let ticket = b.post("stream/ticket", Some(&demo), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut stream =
        b.client.get(format!("{}/stream?casino=dt6&ticket={ticket}", b.base)).send().await.unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    let mut buffer = String::new();
    // Whatever the stream starts with, a round opening and its close follow, from A.
    let (_, opened) = read_until(&mut stream, &mut buffer, |event, value| {
        event == "round" && value["phase"] == "betting"
    })
    .await;
    let round_id = opened["round_id"].clone();
    let (_, closed) = read_until(&mut stream, &mut buffer, |event, value| {
        event == "round" && value["round_id"] == round_id && value["phase"] != "betting"
    })
    .await;
    assert_eq!(closed["game_code"], "dt6");
    assert_eq!(closed["phase"], "closed");
}

async fn spawn_app_with_runner() -> Option<TestApp> {
    crate::common::spawn_app_with(Db::Postgres, |config| {
        config.casino = true;
        config.casino_betting_window_ms = 1_500;
        config.casino_result_pause_ms = 300;
        config.casino_deal_pace = backlay_casino::dealing::Pace { step_ms: 200, max_ms: 900 };
        config.casino_games = vec!["dt6".into()];
    })
    .await
}

/// Not a check but a measurement (run with `--ignored --nocapture`): how long after a bet is
/// accepted on A its book reaches a stream on B, and on A itself for comparison, over
/// `BETS` bets spaced beyond the coalescing window. Asserts only that every change arrived.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: cargo test -p backlay-server --test api live_relay::stream_latency -- --ignored --nocapture"]
async fn stream_latency_across_nodes() {
    const BETS: usize = 200;
    let Some(a) = spawn_app(Db::Postgres).await else { return };
    let admin = a.admin().await;
    let match_id = first_cricket_match(&a, &admin).await;
    let (market, runner) = open_market(&a, &admin, match_id, &["A".into(), "B".into()]).await;
    let b = a.second_node().await;
    let demo = a.demo().await;
    let (mut on_b, mut b_buffer, _) = open_match_stream(&b, &demo, match_id).await;
    let (mut on_a, mut a_buffer, _) = open_match_stream(&a, &admin, match_id).await;
    // From the bet's answer on A to its book read on each stream; and the answer's own time.
    let (mut across_ms, mut local_ms, mut placing_ms) = (Vec::new(), Vec::new(), Vec::new());
    for bet in 1..=BETS {
        // Beyond the 200 ms window, so the first change goes at once, as after a quiet spell.
        tokio::time::sleep(Duration::from_millis(250)).await;
        let sent = Instant::now();
        a.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runner, "side": "lay", "price": 2.5, "stake": 100 })).await.expect(200);
        let accepted = Instant::now();
        placing_ms.push((accepted - sent).as_secs_f64() * 1000.0);
        let offered =
            |value: &Value| minor(&value["runners"][0]["back"][0]["size"]) == bet as i64 * 100_00;
        // Both streams read at once, each timed when its own event is read.
        let (local, across) = tokio::join!(
            async {
                read_until(&mut on_a, &mut a_buffer, |event, value| {
                    event == "market" && offered(value)
                })
                .await;
                accepted.elapsed()
            },
            async {
                read_until(&mut on_b, &mut b_buffer, |event, value| {
                    event == "market" && offered(value)
                })
                .await;
                accepted.elapsed()
            }
        );
        local_ms.push(local.as_secs_f64() * 1000.0);
        across_ms.push(across.as_secs_f64() * 1000.0);
    }
    assert_eq!(across_ms.len(), BETS);
    for (name, figures) in [
        ("placeBet answered on A (request sent → answer)", &mut placing_ms),
        ("answer on A → book on a stream on A", &mut local_ms),
        ("answer on A → book on a stream on B", &mut across_ms),
    ] {
        figures.sort_by(f64::total_cmp);
        let at = |q: f64| {
            figures[((figures.len() as f64 * q).ceil() as usize).clamp(1, figures.len()) - 1]
        };
        println!(
            "{name}: {BETS} bets, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            at(0.5),
            at(0.99),
            figures[figures.len() - 1]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_listener_dropped_reconnects_and_its_streams_resync() {
    let Some(a) = spawn_app(Db::Postgres).await else { return };
    let admin = a.admin().await;
    let match_id = first_cricket_match(&a, &admin).await;
    let (market, runner) = open_market(&a, &admin, match_id, &["A".into(), "B".into()]).await;
    let b = a.second_node().await;
    let demo = b.demo().await;
    let (mut on_b, mut buffer, _) = open_match_stream(&b, &demo, match_id).await;

    // Cut every listening connection of the database (A's and B's), as a network cut would.
    let store = a.store().await;
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    assert_eq!(cut, vec![true, true], "one listener per node");

    // B listens again and tells its stream to take a fresh snapshot (changes may be missed)...
    read_until(&mut on_b, &mut buffer, |event, _| event == "snapshot").await;
    // ...and hears A's next change.
    a.post("bet/placeBet", Some(&a.demo().await), json!({ "market_id": market, "selection_id": runner, "side": "lay", "price": 2.0, "stake": 300 })).await.expect(200);
    let (_, book) = read_until(&mut on_b, &mut buffer, |event, value| {
        event == "market"
            && value["market_id"] == market
            && !value["runners"][0]["back"].as_array().unwrap().is_empty()
    })
    .await;
    assert_eq!(minor(&book["runners"][0]["back"][0]["size"]), 300_00);
}
