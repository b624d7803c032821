//! The in-house casino over HTTP: the table, bets within and after the window, settlement
//! exactly once with the payout the rules give, the revealed seed against the commitment,
//! the reports, and bad input.
//!
//! Most tests drive a round's steps themselves (`backlay_casino_runtime::{open_round, …}`, with
//! the runner off) so that nothing races the test; two run the real runner with a short
//! window and watch rounds go by, one of them through the live stream (`stream?casino=`).

use std::time::Duration;

use backlay_casino::dealing::Pace;
use backlay_casino::fair::verify;
use backlay_casino::games::GameKind;
use backlay_casino::market::{payout, Market, Odds};
use backlay_casino_runtime::{close_round, open_round, reveal_round, settle_round};
use backlay_kit::clock::now_ms;
use backlay_kit::config::Config;
use backlay_store::Store;
use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, read_until, TestApp};
use backlay_casino_store::CasinoReads;

fn runner_off(config: &mut Config) {
    config.casino = false;
}

fn runner_on(config: &mut Config) {
    config.casino = true;
    config.casino_betting_window_ms = 1_500;
    config.casino_result_pause_ms = 300;
    config.casino_deal_pace = RUNNER_PACE;
    config.casino_games = vec!["dt6".into()];
}

/// The runner's dealing in these tests: Dragon Tiger's two cards 200 ms apart, the result 600 ms
/// after the deal began.
const RUNNER_PACE: Pace = Pace { step_ms: 200, max_ms: 900 };

/// The expected payout of a bet from the revealed round, by the rules crate.
fn expected_payout(
    seed: &str,
    commitment: &str,
    round_id: &str,
    game: GameKind,
    market: &str,
    odds: &str,
    stake_minor: i64,
) -> i64 {
    let verified = verify(seed, commitment, round_id, game).expect("the round verifies");
    let hundredths: u32 = (odds.parse::<f64>().unwrap() * 100.0).round() as u32;
    let market = Market::new(market, market, "", Odds::from_hundredths(hundredths));
    payout(&market, stake_minor, &verified.outcome)
}

async fn state_of(app: &TestApp, token: &str, game_code: &str) -> Value {
    let answer =
        app.post("casino/roundState", Some(token), json!({ "game_code": game_code })).await;
    answer.expect(200);
    answer.data().clone()
}

fn odds_of(state: &Value, market: &str) -> String {
    state["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["code"] == market)
        .unwrap_or_else(|| panic!("no market {market} in {state}"))["odds"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Sleeps until the wall clock, which the server reads too (`now_ms`), shows `at_ms`: a round
/// closes at its `close_at_ms` (a bet is taken while `close_at_ms > now`, the close made once
/// `close_at_ms <= now`).
async fn until_clock_reaches(at_ms: i64) {
    loop {
        let left_ms = at_ms - now_ms();
        if left_ms <= 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(left_ms.unsigned_abs())).await;
    }
}

async fn ledger_entries(app: &TestApp, admin: &str) -> i64 {
    let answer = app.get("admin/ledger/check", Some(admin)).await;
    answer.expect(200);
    answer.data()["entries"].as_i64().unwrap()
}

async fn bet_in_window_settles_once_and_pays_the_payout(app: TestApp) {
    let store = Store::connect(app.database_url()).await.unwrap();
    let admin = app.admin().await;
    let demo = app.demo().await;
    let game = store.casino_game_by_code("teen20").await.unwrap();
    let round = open_round(&store, &game, now_ms(), 2_500).await.unwrap();

    // The table while betting: the commitment, the markets, and never the seed.
    let answer = app.post("casino/roundState", Some(&demo), json!({ "match_id": game.id })).await;
    answer.expect(200);
    let table = answer.data().clone();
    assert_eq!(table["round_id"], round.round_id.as_str());
    assert_eq!(table["game"], "teen20");
    assert_eq!(table["status"], "betting");
    assert_eq!(table["commitment"], round.commitment.as_str());
    assert!(table["seed"].is_null());
    assert!(
        !answer.body.to_string().contains(&round.secret_seed_hex),
        "the seed leaked before the deal"
    );
    let detail = app.post("casino/round", Some(&demo), json!({ "round_id": round.round_id })).await;
    detail.expect(200);
    assert!(detail.data()["seed"].is_null() && detail.data()["verified"] == false);
    assert!(!detail.body.to_string().contains(&round.secret_seed_hex));

    // Two bets within the window: the balance drops by the stakes.
    let before = app.balance_minor(&demo).await;
    let odds_a = odds_of(&table, "player-a");
    let odds_b = odds_of(&table, "player-b");
    for (market, odds) in [("player-a", &odds_a), ("player-b", &odds_b)] {
        let answer = app
            .post(
                "casino/placeBet",
                Some(&demo),
                json!({ "round_id": round.round_id, "market": market, "odds": odds, "stake": 100 }),
            )
            .await;
        answer.expect(200);
        assert_eq!(answer.data()["bet"]["status"], "open");
    }
    assert_eq!(app.balance_minor(&demo).await, before - 200_00);
    let table = state_of(&app, &demo, "teen20").await;
    assert_eq!(table["my_bets"].as_array().unwrap().len(), 2);
    let current = app.post("report/currentBets", Some(&demo), json!({ "type": "casino" })).await;
    current.expect(200);
    assert_eq!(current.data()["total"], 2);
    assert_eq!(current.data()["rows"][0]["round_id"], round.round_id.as_str());
    assert_eq!(current.data()["rows"][0]["game_name"], "Teen Patti T20");

    // After the close, by the server's clock: refused, and the ledger does not move.
    until_clock_reaches(round.close_at_ms).await;
    let entries = ledger_entries(&app, &admin).await;
    let late = app
        .post("casino/placeBet", Some(&demo), json!({ "round_id": round.round_id, "market": "player-a", "odds": odds_a, "stake": 100 }))
        .await;
    late.expect(409);
    assert!(late.message().contains("closed"), "{}", late.message());
    assert_eq!(app.balance_minor(&demo).await, before - 200_00);
    assert_eq!(ledger_entries(&app, &admin).await, entries);
    assert_eq!(state_of(&app, &demo, "teen20").await["status"], "closed");
    assert!(state_of(&app, &demo, "teen20").await["markets"][0]["suspended"] == true);

    // Deal, then settle four times at once: once pays, the others change nothing.
    assert!(close_round(&store, &round, now_ms()).await.unwrap());
    let round = store.casino_round(&round.round_id).await.unwrap();
    assert!(reveal_round(&store, &round, now_ms()).await.unwrap());

    // Dealt, not yet settled: the table deals the six cards one by one, A, B, A, B, A, B, and
    // keeps the result and the seed back until the last is shown.
    let dealing = state_of(&app, &demo, "teen20").await;
    assert_eq!(dealing["status"], "dealing");
    assert!(
        dealing["result"].is_null() && dealing["winner"].is_null() && dealing["seed"].is_null()
    );
    assert_eq!(dealing["dealing"]["seats"], json!(["Player A", "Player B"]));
    let steps = dealing["dealing"]["steps"].as_array().unwrap();
    let seats: Vec<i64> = steps.iter().map(|s| s["seat"].as_i64().unwrap()).collect();
    assert_eq!(seats, [0, 1, 0, 1, 0, 1]);
    let times: Vec<i64> = steps.iter().map(|s| s["at_ms"].as_i64().unwrap()).collect();
    assert_eq!(times, [1_200, 2_400, 3_600, 4_800, 6_000, 7_200], "Pace::DEFAULT");
    assert!(steps.iter().all(|s| s["card"].as_str().is_some_and(|c| c.len() == 2)));
    let ends_in_ms = dealing["dealing"]["ends_in_ms"].as_i64().unwrap();
    assert!((8_000..=8_400).contains(&ends_in_ms), "{ends_in_ms}");
    // Nor does the round's page give the result away before the table shows it.
    let early = app.post("casino/round", Some(&demo), json!({ "round_id": round.round_id })).await;
    early.expect(200);
    assert_eq!(early.data()["phase"], "dealt");
    assert!(
        early.data()["seed"].is_null()
            && early.data()["deal"].is_null()
            && early.data()["winner"].is_null()
    );
    let (a, b, c, d) = tokio::join!(
        settle_round(&store, &round.round_id, now_ms()),
        settle_round(&store, &round.round_id, now_ms()),
        settle_round(&store, &round.round_id, now_ms()),
        settle_round(&store, &round.round_id, now_ms()),
    );
    let settled: Vec<_> = [a, b, c, d].into_iter().filter_map(Result::unwrap).collect();
    assert_eq!(settled.len(), 1, "settled more than once: {settled:?}");
    assert_eq!(settled[0].bets, 2);

    // The revealed seed matches the commitment and recomputes the deal; the bettor got
    // exactly the payout the rules give.
    let detail = app.post("casino/round", Some(&demo), json!({ "round_id": round.round_id })).await;
    detail.expect(200);
    let seed = detail.data()["seed"].as_str().unwrap().to_string();
    assert_eq!(detail.data()["verified"], true);
    assert_eq!(detail.data()["phase"], "settled");
    assert_eq!(detail.data()["title"], "Teen Patti T20");
    let verified =
        verify(&seed, &round.commitment, &round.round_id, GameKind::TeenPattiT20).unwrap();
    assert_eq!(detail.data()["deal"], serde_json::to_value(&verified.deal).unwrap());
    let expected: i64 = [("player-a", &odds_a), ("player-b", &odds_b)]
        .iter()
        .map(|(market, odds)| {
            expected_payout(
                &seed,
                &round.commitment,
                &round.round_id,
                GameKind::TeenPattiT20,
                market,
                odds,
                100_00,
            )
        })
        .sum();
    assert!(expected > 0, "one of Player A and Player B wins or both push");
    assert_eq!(settled[0].paid_minor, expected);
    assert_eq!(app.balance_minor(&demo).await, before - 200_00 + expected);

    // Settling again changes nothing.
    assert!(settle_round(&store, &round.round_id, now_ms()).await.unwrap().is_none());
    assert_eq!(app.balance_minor(&demo).await, before - 200_00 + expected);

    // The reports.
    let table = state_of(&app, &demo, "teen20").await;
    assert_eq!(table["status"], "result");
    assert_eq!(table["seed"], seed.as_str());
    assert!(table["dealing"].is_null());
    // The result stays up for the pause (10 s by default) from the settlement.
    let next_in = table["next_round_in_ms"].as_i64().unwrap();
    assert!((9_000..=10_000).contains(&next_in), "{next_in}");
    let result_cards: Vec<&Value> = table["result"]["hands"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h["cards"].as_array().unwrap())
        .collect();
    let dealt_cards: Vec<&Value> = steps.iter().map(|s| &s["card"]).collect();
    assert_eq!(result_cards.len(), 6);
    assert!(dealt_cards.iter().all(|c| result_cards.contains(c)), "the deal shown is the result's");
    assert_eq!(table["last_results"][0]["round_id"], round.round_id.as_str());
    let results =
        app.post("report/casinoResult", Some(&demo), json!({ "game_code": "teen20" })).await;
    results.expect(200);
    assert_eq!(results.data()["rows"][0]["round_id"], round.round_id.as_str());
    assert_eq!(results.data()["rows"][0]["winner"], verified.outcome.winner.as_str());
    assert_eq!(results.data()["rows"][0]["cards"].as_array().unwrap().len(), 6);
    assert_eq!(results.data()["rows"][0]["game_name"], "Teen Patti T20");
    // The cards by player, as the table shows them: the verified result's hands.
    let hands: Vec<Value> = verified
        .outcome
        .hands
        .iter()
        .map(|h| json!({ "name": h.name, "cards": h.cards, "description": h.description }))
        .collect();
    assert_eq!(results.data()["rows"][0]["hands"], json!(hands));
    assert_eq!(
        results.data()["rows"][0]["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["Player A", "Player B"]
    );
    let current = app.post("report/currentBets", Some(&demo), json!({ "type": "casino" })).await;
    assert_eq!(current.data()["total"], 0);
    let statement =
        app.post("report/accountStatement", Some(&demo), json!({ "type": "casino" })).await;
    statement.expect(200);
    let rows = statement.data()["rows"].as_array().unwrap();
    let debits: i64 = rows.iter().map(|r| minor(&r["debit"])).sum();
    let credits: i64 = rows.iter().map(|r| minor(&r["credit"])).sum();
    assert_eq!((debits, credits), (200_00, expected));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(bet_in_window_settles_once_and_pays_the_payout, super::runner_off);

async fn bad_bets_are_refused_with_4xx_and_no_ledger_change(app: TestApp) {
    let store = Store::connect(app.database_url()).await.unwrap();
    let admin = app.admin().await;
    let demo = app.demo().await;
    let game = store.casino_game_by_code("dt6").await.unwrap();
    let round = open_round(&store, &game, now_ms(), 60_000).await.unwrap();
    let table = state_of(&app, &demo, "dt6").await;
    let odds = odds_of(&table, "dragon");
    let entries = ledger_entries(&app, &admin).await;
    let before = app.balance_minor(&demo).await;
    let bet = |round_id: &str, market: &str, odds: Value, stake: Value| json!({ "round_id": round_id, "market": market, "odds": odds, "stake": stake });
    let cases = [
        (bet(&round.round_id, "dragon", json!("2.50"), json!(100)), 409, "Odds changed"),
        (bet(&round.round_id, "unicorn", json!(odds), json!(100)), 400, "no market"),
        (bet("dt1day-1", "dragon", json!(odds), json!(100)), 404, "no casino round"),
        (bet(&round.round_id, "dragon", json!(odds), json!(0)), 400, "stake"),
        (bet(&round.round_id, "dragon", json!(odds), json!(100_000_000)), 400, "stake"),
        (bet(&round.round_id, "dragon", json!(odds), json!(10.005)), 400, "stake"),
        (bet(&round.round_id, "dragon", json!("1.00"), json!(100)), 400, "odds"),
        (bet(&round.round_id, "dragon", json!("abc"), json!(100)), 400, "odds"),
        (bet("", "dragon", json!(odds), json!(100)), 400, "round_id"),
        (json!({ "market": "dragon", "odds": odds, "stake": 100 }), 400, "round_id"),
    ];
    for (body, status, words) in cases {
        let answer = app.post("casino/placeBet", Some(&demo), body.clone()).await;
        answer.expect(status);
        assert!(answer.message().contains(words), "{body} → {}", answer.message());
    }
    app.post("casino/placeBet", None, bet(&round.round_id, "dragon", json!(odds), json!(100)))
        .await
        .expect(401);
    // A user without chips is told what is available.
    let (_, broke) = app.new_user(&admin, "casino_broke", "client").await;
    let answer = app
        .post(
            "casino/placeBet",
            Some(&broke),
            bet(&round.round_id, "dragon", json!(odds), json!(100)),
        )
        .await;
    answer.expect(422);
    assert!(answer.message().contains("₹0.00 available"), "{}", answer.message());

    app.post("casino/roundState", Some(&demo), json!({})).await.expect(400);
    app.post("casino/roundState", Some(&demo), json!({ "game_code": "blackjack" }))
        .await
        .expect(404);
    app.post("casino/roundState", Some(&demo), json!({ "match_id": "x" })).await.expect(400);
    app.post("casino/roundState", None, json!({ "game_code": "dt6" })).await.expect(401);
    app.post("casino/round", Some(&demo), json!({ "round_id": "nope" })).await.expect(404);
    app.post(
        "report/casinoResult",
        Some(&demo),
        json!({ "game_code": "dt6", "date": "22/11/2026" }),
    )
    .await
    .expect(400);
    app.post("report/casinoResult", Some(&demo), json!({ "game_code": "nope" })).await.expect(404);
    app.post("report/casinoResult", Some(&demo), json!({ "game_code": "dt6", "limit": 1000 }))
        .await
        .expect(400);

    let list = app.post("casino/getCasinoList", Some(&demo), json!({})).await;
    list.expect(200);
    let games = list.data().as_array().unwrap();
    assert_eq!(games.len(), 16);
    assert_eq!(games[0]["game_code"], "teen20");
    assert_eq!(games[15]["game_code"], "worli");
    // Each game carries its players' rules, the same text the crate gives.
    for game in games {
        let kind = store.casino_game(game["match_id"].as_i64().unwrap()).await.unwrap().kind;
        let rules: Vec<&str> =
            game["rules"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
        assert_eq!(rules, GameKind::from_code(&kind).unwrap().rules(), "{}", game["game_code"]);
    }
    let matka =
        app.post("casino/getCasinoList", Some(&demo), json!({ "series_id": "matka" })).await;
    assert_eq!(matka.data().as_array().unwrap().len(), 1);

    let openapi: Value = app.openapi().await;
    for path in [
        "/api/casino/getCasinoList",
        "/api/casino/roundState",
        "/api/casino/placeBet",
        "/api/casino/round",
        "/api/report/casinoResult",
    ] {
        assert!(openapi["paths"].get(path).is_some(), "{path} missing from the OpenAPI document");
    }

    assert_eq!(app.balance_minor(&demo).await, before);
    assert_eq!(ledger_entries(&app, &admin).await, entries);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(bad_bets_are_refused_with_4xx_and_no_ledger_change, super::runner_off);

async fn the_runner_plays_settles_and_opens_the_next_round(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let before = app.balance_minor(&demo).await;
    // Wait for a round with time left to bet.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let table = loop {
        let table = state_of(&app, &demo, "dt6").await;
        if table["status"] == "betting" && table["close_in_ms"].as_i64().unwrap() > 600 {
            break table;
        }
        assert!(std::time::Instant::now() < deadline, "no round opened for betting: {table}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let round_id = table["round_id"].as_str().unwrap().to_string();
    let commitment = table["commitment"].as_str().unwrap().to_string();
    let odds = odds_of(&table, "dragon");
    app.post(
        "casino/placeBet",
        Some(&demo),
        json!({ "round_id": round_id, "market": "dragon", "odds": odds, "stake": "50.00" }),
    )
    .await
    .expect(200);
    assert_eq!(app.balance_minor(&demo).await, before - 50_00);
    // Wait for it to settle.
    let detail = loop {
        let detail = app.post("casino/round", Some(&demo), json!({ "round_id": round_id })).await;
        detail.expect(200);
        if detail.data()["phase"] == "settled" {
            break detail.data().clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "round {round_id} did not settle: {}",
            detail.body
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(detail["commitment"], commitment.as_str());
    assert_eq!(detail["verified"], true);
    // It settled only after its two cards were shown: 600 ms after the deal (RUNNER_PACE).
    let store = Store::connect(app.database_url()).await.unwrap();
    let stored = store.casino_round(&round_id).await.unwrap();
    let dealing_ms = stored.settled_at_ms.unwrap() - stored.dealt_at_ms.unwrap();
    assert!(dealing_ms >= 600, "settled {dealing_ms} ms after the deal");
    let seed = detail["seed"].as_str().unwrap();
    let expected = expected_payout(
        seed,
        &commitment,
        &round_id,
        GameKind::DragonTiger,
        "dragon",
        &odds,
        50_00,
    );
    assert_eq!(app.balance_minor(&demo).await, before - 50_00 + expected);
    // The next round opens after the pause, with a new commitment.
    let next = loop {
        let table = state_of(&app, &demo, "dt6").await;
        if table["round_id"] != round_id.as_str() && table["status"] == "betting" {
            break table;
        }
        assert!(std::time::Instant::now() < deadline, "no next round: {table}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_ne!(next["commitment"], commitment.as_str());
    assert_eq!(next["last_results"][0]["round_id"], round_id.as_str());
    app.assert_ledger_sound(&admin).await;
}
both_databases!(the_runner_plays_settles_and_opens_the_next_round, super::runner_on);

/// Rounds a stopped server left half-way are finished by the next start's runner: one closed
/// but never dealt (with a bet in it), one still open until its close time.
async fn a_restarted_runner_resumes_unfinished_rounds(app: TestApp) {
    let store = Store::connect(app.database_url()).await.unwrap();
    let demo = app.demo().await;
    let admin = app.admin().await;
    let before = app.balance_minor(&demo).await;
    let dragon_tiger = store.casino_game_by_code("dt6").await.unwrap();
    let closed = open_round(&store, &dragon_tiger, now_ms(), 700).await.unwrap();
    let odds = odds_of(&state_of(&app, &demo, "dt6").await, "tiger");
    app.post(
        "casino/placeBet",
        Some(&demo),
        json!({ "round_id": closed.round_id, "market": "tiger", "odds": odds, "stake": 25 }),
    )
    .await
    .expect(200);
    until_clock_reaches(closed.close_at_ms).await;
    assert!(close_round(&store, &closed, now_ms()).await.unwrap());
    let baccarat = store.casino_game_by_code("baccarat").await.unwrap();
    let open = open_round(&store, &baccarat, now_ms(), 1_000).await.unwrap();

    // The server "restarts": a runner starts on the same database.
    let runner = backlay_casino_runtime::start(
        store.clone(),
        backlay_casino_runtime::RunnerSettings {
            betting_window_ms: 1_000,
            result_pause_ms: 200,
            deal_pace: RUNNER_PACE,
            only_games: vec!["dt6".into(), "baccarat".into()],
        },
        std::sync::Arc::default(),
    )
    .await
    .unwrap();
    assert_eq!(runner.games(), 2);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    for round in [&closed, &open] {
        loop {
            let now = store.casino_round(&round.round_id).await.unwrap();
            if now.phase == backlay_casino_store::casino::RoundPhase::Settled {
                // The open round was not cut short: it closed at its close time, not before.
                assert!(now.dealt_at_ms.unwrap() >= round.close_at_ms);
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "round {} was not finished: {now:?}",
                round.round_id
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    drop(runner);
    let detail =
        app.post("casino/round", Some(&demo), json!({ "round_id": closed.round_id })).await;
    let seed = detail.data()["seed"].as_str().unwrap().to_string();
    let expected = expected_payout(
        &seed,
        &closed.commitment,
        &closed.round_id,
        GameKind::DragonTiger,
        "tiger",
        &odds,
        25_00,
    );
    assert_eq!(app.balance_minor(&demo).await, before - 25_00 + expected);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_restarted_runner_resumes_unfinished_rounds, super::runner_off);

async fn next_round(stream: &mut reqwest::Response, buffer: &mut String) -> Value {
    read_until(stream, buffer, |event, _| event == "round").await.1
}

/// The table's live stream: the current round on connect, then each step the runner takes,
/// in order, each sent after it committed, and never the seed.
async fn the_stream_pushes_each_step_of_the_runner(app: TestApp) {
    let demo = app.demo().await;
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    // Refusals come before anything streams, in the envelope.
    app.get("stream?casino=dt6", None).await.expect(401);
    let unknown = app.get(&format!("stream?casino=blackjack&ticket={ticket}"), None).await;
    unknown.expect(404);
    assert!(unknown.message().contains("no casino game blackjack"), "{}", unknown.message());
    for bad in ["", "dt6%20x", "dt6%3Cscript%3E", &"d".repeat(33)] {
        let answer = app.get(&format!("stream?casino={bad}&ticket={ticket}"), None).await;
        answer.expect(400);
        assert!(answer.field_error("casino").contains("game's code"), "{bad}: {}", answer.body);
    }
    app.get(&format!("stream?casino=dt6&match_id=1&ticket={ticket}"), None).await.expect(400);

    // Once the runner has opened its first round, the stream starts with the round now.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while state_of(&app, &demo, "dt6").await["round_id"].is_null() {
        assert!(std::time::Instant::now() < deadline, "the runner opened no round");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // By its rules code: the events still name the client's code.
    let mut stream = app
        .client
        .get(format!("{}/stream?casino=dt1day&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    assert!(stream.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut buffer = String::new();
    let first = next_round(&mut stream, &mut buffer).await;
    assert_eq!(first["game_code"], "dt6");
    assert!(
        ["betting", "closed", "dealt", "settled"].contains(&first["phase"].as_str().unwrap()),
        "{first}"
    );

    // Follow one whole round from its opening: closed, dealt, settled, then the next one opens.
    let mut event = first;
    while event["phase"] != "betting" {
        event = next_round(&mut stream, &mut buffer).await;
    }
    let round_id = event["round_id"].as_str().unwrap().to_string();
    let mut steps = vec![event];
    while steps.len() < 5 {
        steps.push(next_round(&mut stream, &mut buffer).await);
        let step = steps.last().unwrap();
        assert!(
            step.get("seed").is_none() && step.get("deal").is_none(),
            "the stream carried more than the step: {step}"
        );
        // Each step is news only once it committed: the table already shows it.
        let table = state_of(&app, &demo, "dt6").await;
        match step["phase"].as_str().unwrap() {
            "closed" if table["round_id"] == round_id.as_str() => {
                assert_ne!(table["status"], "betting");
                // (The runner deals at once, so the table may already show the result.)
                if table["status"] == "closed" {
                    assert!(table["seed"].is_null(), "the seed is out before the deal: {table}");
                }
            }
            // The deal takes 600 ms (RUNNER_PACE), so the table is still dealing when told.
            "dealt" if table["round_id"] == round_id.as_str() => {
                assert_eq!(table["status"], "dealing", "{table}");
                assert!(table["seed"].is_null(), "the seed is out before the last card: {table}");
                assert_eq!(table["dealing"]["seats"], json!(["Dragon", "Tiger"]));
                assert_eq!(table["dealing"]["steps"].as_array().unwrap().len(), 2);
            }
            "settled" if table["round_id"] == round_id.as_str() => {
                assert_eq!(table["status"], "result");
                assert!(table["seed"].is_string());
            }
            _ => {}
        }
    }
    let phases: Vec<(&str, &str)> = steps
        .iter()
        .map(|s| (s["round_id"].as_str().unwrap(), s["phase"].as_str().unwrap()))
        .collect();
    let next_id = phases[4].0;
    assert_ne!(next_id, round_id);
    assert_eq!(
        phases,
        [
            (round_id.as_str(), "betting"),
            (round_id.as_str(), "closed"),
            (round_id.as_str(), "dealt"),
            (round_id.as_str(), "settled"),
            (next_id, "betting")
        ]
    );
    // Only a betting round carries its close time; every event names the game and nothing else.
    for step in &steps {
        let keys: Vec<&str> = step.as_object().unwrap().keys().map(String::as_str).collect();
        if step["phase"] == "betting" {
            assert!(step["close_at"].as_str().unwrap().ends_with('Z'), "{step}");
            assert_eq!(keys.len(), 4, "{step}");
        } else {
            assert_eq!(keys.len(), 3, "{step}");
        }
        assert_eq!(step["game_code"], "dt6");
    }
    let detail = app.post("casino/round", Some(&demo), json!({ "round_id": round_id })).await;
    assert_eq!(detail.data()["phase"], "settled");
}
both_databases!(the_stream_pushes_each_step_of_the_runner, super::runner_on);
