//! Bets straddling the operator: bettors firing at a market while it is suspended, reopened,
//! resulted or voided, on both databases. What must hold (ARCHITECTURE.md §3, docs/api.md):
//!
//! - no bet is accepted that arrived while the market was not open;
//! - no bet is accepted that a suspension or a result caught in its bet delay, even when the
//!   market reopened before the delay was up (no past-posting);
//! - no bet is placed after the result, and a bet or cancel that races it hears 409 "This market
//!   is closed." (never a 5xx);
//! - every settled bet stores its own profit or loss, and the ledger stays sound.
//!
//! The checks are black-box where the answer's timing proves a breach: a bet *sent* after a
//! suspension was *answered*, and answered before the reopen was sent, arrived on a suspended
//! market; a suspension sent after a delayed bet's latest possible arrival (its answer minus the
//! delay) and answered before its earliest possible placement (its sending plus the delay) came
//! inside its delay. Where only the server knows (which bets were placed before the result), the
//! stored rows are read.
//!
//! The sleeps here are the scenario, not waits for something to happen: random jitter between
//! an operator's action and a bet, calls staggered to spread across a result, bettors and an
//! operator at random paces. They vary where the races fall, and the checks hold wherever they
//! fall, with one assumption, in the first test: a bet reaches its market before the reopen
//! sent at least 100 ms after it.

use std::time::Duration;

use backlay_store::Store;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio::time::Instant;

use crate::both_databases;
use crate::common::{Answer, TestApp};

/// The demo's in-play cricket match.
async fn in_play_match(app: &TestApp, token: &str) -> i64 {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    let matches = answer.data().as_array().unwrap();
    matches.iter().find(|m| m["in_play"] == json!(true)).expect("an in-play demo match")["match_id"]
        .as_i64()
        .unwrap()
}

async fn set_status(app: &TestApp, admin: &str, market: i64, status: &str) -> Answer {
    app.post("admin/market/status", Some(admin), json!({ "market_id": market, "status": status }))
        .await
}

/// Fails the test on any 5xx, naming the call.
#[track_caller]
fn no_server_error(what: &str, answer: &Answer) {
    assert!(answer.status.as_u16() < 500, "{what} answered {}: {}", answer.status, answer.body);
}

/// Finding 13 of issue 11: a bet sent while the market is suspended (or ball running) is
/// refused, even though the market reopens well inside the bet's delay and the quotes from
/// before the suspension are still in the book.
async fn a_bet_sent_while_suspended_is_refused_though_the_market_reopens_inside_its_delay(
    app: TestApp,
) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = in_play_match(&app, &demo).await;
    let (market, runners) =
        app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Delayed 2 s", "runners": ["A", "B"], "min_stake": 1, "bet_delay_s": 2 })).await;
    // A PERSIST quote that survives every suspension: the price a past-poster would take.
    let quote = json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2.0, "stake": 5000, "persistence": "persist" });
    let quoted = app.post("bet/placeBet", Some(&demo2), quote).await;
    quoted.expect(200);
    assert_eq!(quoted.data()["status"], "unmatched");

    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    for trial in 0..8 {
        let status = if trial % 2 == 0 { "suspended" } else { "ball_running" };
        set_status(&app, &admin, market, status).await.expect(200);
        tokio::time::sleep(Duration::from_micros(rng.gen_range(100..8_000))).await;
        let reopen_after = Duration::from_millis(rng.gen_range(100..1_500));
        let body = json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2.0, "stake": 100 });
        let (answer, ()) = tokio::join!(app.post("bet/placeBet", Some(&demo), body), async {
            tokio::time::sleep(reopen_after).await;
            set_status(&app, &admin, market, "open").await.expect(200);
        });
        answer.expect(409);
        assert!(
            answer.message().contains("takes no bets now"),
            "trial {trial} ({status}): {}",
            answer.message()
        );
    }
    let open_bets = app.post("bet/openBets", Some(&demo), json!({ "match_id": match_id })).await;
    open_bets.expect(200);
    assert_eq!(
        open_bets.data()["matched"],
        json!([]),
        "nothing was past-posted: {}",
        open_bets.body
    );
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_bet_sent_while_suspended_is_refused_though_the_market_reopens_inside_its_delay);

/// Finding 14 of issue 11: bets, cancels and cancel-alls racing a result or a void are
/// answered 200 (before it) or 409 "This market is closed." (after it), never 5xx; every bet
/// stored was placed before the result and is settled with its P&L.
async fn bets_and_cancels_racing_a_result_hear_the_market_is_closed(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = in_play_match(&app, &demo).await;
    let store = Store::connect(app.database_url()).await.unwrap();
    let mut closed_answers = 0;
    for round in 0..6 {
        let (market, runners) = if round % 3 == 2 {
            let (market, runners) =
                app.open_market(&admin, match_id, json!({ "type": "bookmaker", "name": format!("BM {round}"), "runners": ["A", "B"], "min_stake": 1 })).await;
            app.post("admin/market/rates", Some(&admin), json!({ "market_id": market, "runners": [
                { "selection_id": runners[0], "back": 90, "lay": 95 }, { "selection_id": runners[1], "back": 100, "lay": 110 }
            ] }))
            .await
            .expect(200);
            (market, runners)
        } else {
            app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": format!("MO {round}"), "runners": ["A", "B"], "min_stake": 1, "bet_delay_s": 0 })).await
        };
        let exchange = round % 3 != 2;
        let mut lays = Vec::new();
        if exchange {
            for _ in 0..6 {
                let lay = app
                    .post("bet/placeBet", Some(&demo2), json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 1.9, "stake": 10 }))
                    .await;
                lay.expect(200);
                lays.push(lay.data()["bet_id"].as_i64().unwrap());
            }
        }
        let price = if exchange { json!(1.9) } else { json!(90) };
        let void = round % 2 == 1;
        let runner = runners[0];
        let calls = (0..30).map(|i| {
            let (app, demo, demo2, price) = (&app, &demo, &demo2, price.clone());
            let lay = lays.get(i % lays.len().max(1)).copied();
            async move {
                tokio::time::sleep(Duration::from_millis(i as u64 * 3)).await;
                match (i % 3, lay) {
                    (1, Some(bet_id)) => ("cancelBet", app.post("bet/cancelBet", Some(demo2), json!({ "bet_id": bet_id, "size": 1 })).await),
                    (2, Some(_)) => ("cancelAllBets", app.post("bet/cancelAllBets", Some(demo2), json!({ "market_id": market })).await),
                    _ => (
                        "placeBet",
                        app.post("bet/placeBet", Some(demo), json!({ "market_id": market, "selection_id": runner, "side": "back", "price": price, "stake": 5 }))
                            .await,
                    ),
                }
            }
        });
        let settle = async {
            tokio::time::sleep(Duration::from_millis(40)).await;
            if void {
                app.post("admin/market/void", Some(&admin), json!({ "market_id": market })).await
            } else {
                app.post(
                    "admin/market/result",
                    Some(&admin),
                    json!({ "market_id": market, "winner_selection_id": runners[0] }),
                )
                .await
            }
        };
        let (answers, settled) = tokio::join!(futures::future::join_all(calls), settle);
        settled.expect(200);
        for (call, answer) in &answers {
            no_server_error(call, answer);
            match answer.status.as_u16() {
                200 => {}
                409 if answer.message() == "This market is closed." => closed_answers += 1,
                // A cancel of an order already matched or cancelled by an earlier call.
                404 if *call == "cancelBet" => {}
                _ => panic!("round {round}: {call} answered {}: {}", answer.status, answer.body),
            }
        }
        // After the result everything is told the same.
        let late = app
            .post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": price, "stake": 5 }))
            .await;
        late.expect(409);
        assert_eq!(late.message(), "This market is closed.");
        let row = store.market(market).await.unwrap();
        let settled_at_ms = row.settled_at_ms.expect("settled");
        for bet in store.bets_of_market(market).await.unwrap() {
            assert!(
                bet.created_at_ms <= settled_at_ms,
                "bet {} placed after the result",
                bet.bet_id
            );
            assert_eq!(
                bet.status.as_str(),
                if void { "void" } else { "settled" },
                "bet {}",
                bet.bet_id
            );
            assert!(bet.pnl_minor.is_some(), "bet {} has no P&L after settlement", bet.bet_id);
            assert_eq!(bet.remaining_minor, 0, "bet {}", bet.bet_id);
        }
    }
    assert!(closed_answers > 0, "no call raced a result: the test did not test the race");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(bets_and_cancels_racing_a_result_hear_the_market_is_closed);

/// One call as the client saw it.
struct Timed {
    sent: Instant,
    answered: Instant,
    answer: Answer,
}

/// An operator action on the timeline: a status change, or the result (which never reopens).
struct Action {
    sent: Instant,
    answered: Instant,
    /// Closes the market to bets: suspended, ball running, or the result.
    closes: bool,
}

/// Bettors fire at a delayed exchange market and an undelayed bookmaker market while the
/// operator suspends, sets ball running and reopens them at random, then results one and voids
/// the other; bets keep coming through the result.
async fn bettors_straddling_suspensions_and_results_are_never_past_posted(app: TestApp) {
    const DELAY: Duration = Duration::from_secs(1);
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = in_play_match(&app, &demo).await;
    let (exchange, ex_runners) =
        app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Straddled", "runners": ["A", "B"], "min_stake": 1, "bet_delay_s": 1 })).await;
    let (bookmaker, bm_runners) =
        app.open_market(&admin, match_id, json!({ "type": "bookmaker", "name": "Straddled BM", "runners": ["A", "B"], "min_stake": 1, "bet_delay_s": 0 })).await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": bookmaker, "runners": [
        { "selection_id": bm_runners[0], "back": 90, "lay": 95 }, { "selection_id": bm_runners[1], "back": 100, "lay": 110 }
    ] }))
    .await
    .expect(200);
    // Liquidity that survives suspensions, so accepted backs match.
    let quote = json!({ "market_id": exchange, "selection_id": ex_runners[0], "side": "lay", "price": 2.0, "stake": 20000, "persistence": "persist" });
    app.post("bet/placeBet", Some(&demo2), quote).await.expect(200);

    let started = Instant::now();
    let betting_for = Duration::from_secs(7);
    let bettor = |market: i64, selection: i64, price: Value, seed: u64| {
        let (app, demo) = (&app, &demo);
        async move {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let mut calls = Vec::new();
            while started.elapsed() < betting_for && calls.len() < 400 {
                tokio::time::sleep(Duration::from_millis(rng.gen_range(0..60))).await;
                let sent = Instant::now();
                let body = json!({ "market_id": market, "selection_id": selection, "side": "back", "price": price, "stake": 2 });
                let answer = app.post("bet/placeBet", Some(demo), body).await;
                calls.push(Timed { sent, answered: Instant::now(), answer });
            }
            calls
        }
    };
    let operator = |market: i64, seed: u64, last: &'static str| {
        let (app, admin) = (&app, &admin);
        let winner = ex_runners[0];
        async move {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let mut actions = Vec::new();
            let mut open = true;
            while started.elapsed() < betting_for - Duration::from_secs(2) && actions.len() < 100 {
                // Open long enough, often enough, for delayed bets to get through.
                let wait_ms = if open { rng.gen_range(300..2_200) } else { rng.gen_range(50..500) };
                tokio::time::sleep(Duration::from_millis(wait_ms)).await;
                let status = if open {
                    if rng.gen_bool(0.5) {
                        "suspended"
                    } else {
                        "ball_running"
                    }
                } else {
                    "open"
                };
                let sent = Instant::now();
                set_status(app, admin, market, status).await.expect(200);
                actions.push(Action { sent, answered: Instant::now(), closes: open });
                open = !open;
            }
            if !open {
                let sent = Instant::now();
                set_status(app, admin, market, "open").await.expect(200);
                actions.push(Action { sent, answered: Instant::now(), closes: false });
            }
            tokio::time::sleep(Duration::from_millis(rng.gen_range(300..900))).await;
            let sent = Instant::now();
            let answer = match last {
                "void" => {
                    app.post("admin/market/void", Some(admin), json!({ "market_id": market })).await
                }
                _ => {
                    app.post(
                        "admin/market/result",
                        Some(admin),
                        json!({ "market_id": market, "winner_selection_id": winner }),
                    )
                    .await
                }
            };
            answer.expect(200);
            actions.push(Action { sent, answered: Instant::now(), closes: true });
            actions
        }
    };
    let (ex_bets_a, ex_bets_b, bm_bets, ex_actions, bm_actions) = tokio::join!(
        bettor(exchange, ex_runners[0], json!(2.0), 1),
        bettor(exchange, ex_runners[0], json!(2.0), 2),
        bettor(bookmaker, bm_runners[0], json!(90), 3),
        operator(exchange, 4, "result"),
        operator(bookmaker, 5, "void"),
    );
    let ex_bets: Vec<Timed> = ex_bets_a.into_iter().chain(ex_bets_b).collect();
    for (market, bets, actions, delay) in [
        (exchange, &ex_bets, &ex_actions, DELAY),
        (bookmaker, &bm_bets, &bm_actions, Duration::ZERO),
    ] {
        let accepted = bets.iter().filter(|b| b.answer.status == 200).count();
        let refused = bets.iter().filter(|b| b.answer.status == 409).count();
        let messages: std::collections::BTreeSet<&str> =
            bets.iter().map(|b| b.answer.message()).collect();
        assert!(accepted > 0 && refused > 0, "market {market}: {accepted} accepted, {refused} refused ({messages:?}): the straddle did not straddle");
        for bet in bets {
            no_server_error("placeBet", &bet.answer);
            assert!(
                matches!(bet.answer.status.as_u16(), 200 | 409),
                "market {market}: {}",
                bet.answer.body
            );
            if bet.answer.status != 200 {
                continue;
            }
            // The latest the bet can have reached the market, and the earliest it was placed.
            let latest_arrival = bet.answered - delay;
            let earliest_placement = bet.sent + delay;
            for (index, action) in actions.iter().enumerate().filter(|(_, a)| a.closes) {
                let reopened = actions.get(index + 1).map(|next| next.sent);
                let closed_throughout = action.answered < bet.sent
                    && reopened.is_none_or(|reopen| reopen > latest_arrival);
                assert!(
                    !closed_throughout,
                    "market {market}: a bet sent while the market was closed was accepted: {}",
                    bet.answer.body
                );
                if !delay.is_zero() {
                    let inside_delay =
                        action.sent >= latest_arrival && action.answered <= earliest_placement;
                    assert!(!inside_delay, "market {market}: a bet caught in its delay by a suspension was accepted: {}", bet.answer.body);
                }
            }
        }
    }
    let store = Store::connect(app.database_url()).await.unwrap();
    for market in [exchange, bookmaker] {
        let row = store.market(market).await.unwrap();
        let settled_at_ms = row.settled_at_ms.expect("settled");
        let bets = store.bets_of_market(market).await.unwrap();
        for bet in &bets {
            assert!(
                bet.created_at_ms <= settled_at_ms,
                "bet {} placed after the result",
                bet.bet_id
            );
            assert!(bet.pnl_minor.is_some(), "bet {} has no P&L", bet.bet_id);
        }
        if market == exchange {
            // Peer to peer: what the backers win the layer loses.
            assert_eq!(bets.iter().map(|b| b.pnl_minor.unwrap()).sum::<i64>(), 0);
        } else {
            assert!(
                bets.iter().all(|b| b.pnl_minor == Some(0)),
                "a void market's bets are all off"
            );
        }
    }
    app.assert_ledger_sound(&admin).await;
}
both_databases!(bettors_straddling_suspensions_and_results_are_never_past_posted);
