//! The bettor's history and P&L (issue 32): `report/profitLoss` by sport, event and market
//! adding up to the account statement, `report/betHistory` with its filters and totals, the
//! liability and potential profit of current bets, and bad input. Each test runs on SQLite and
//! PostgreSQL.
//!
//! The figures are worked out by hand from the bets placed; the statement is read through its
//! own API and summed here, never recomputed from the bets.

use std::collections::BTreeSet;
use std::time::Duration;

use backlay_casino_runtime::{close_round, open_round, reveal_round, settle_round};
use backlay_casino_store::{CasinoReads, ProviderReads};
use backlay_kit::clock::{iso_utc, now_ms};
use backlay_kit::config::Config;
use backlay_store::Store;
use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};

fn casino_runner_off(config: &mut Config) {
    config.casino = false;
}

/// The first match of a sport in the demo.
async fn first_match(app: &TestApp, token: &str, sport_id: i64) -> i64 {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": sport_id })).await;
    answer.data()[0]["match_id"].as_i64().unwrap()
}

async fn bet(app: &TestApp, token: &str, body: Value) -> i64 {
    let answer = app.post("bet/placeBet", Some(token), body).await;
    answer.expect(200);
    answer.data()["bet_id"].as_i64().unwrap()
}

/// A match odds market with no bet delay, `commission_bp` on net winnings.
async fn match_odds(
    app: &TestApp,
    admin: &str,
    match_id: i64,
    name: &str,
    commission_bp: i64,
) -> (i64, Vec<i64>) {
    app.open_market(admin, match_id, json!({ "type": "match_odds", "name": name, "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0, "commission_bp": commission_bp })).await
}

async fn result(app: &TestApp, admin: &str, market: i64, winner: i64) {
    app.post(
        "admin/market/result",
        Some(admin),
        json!({ "market_id": market, "winner_selection_id": winner }),
    )
    .await
    .expect(200);
}

/// The net (credits less debits, minor units) of the token's statement lines of `kind`
/// (sports or casino) between the two times, every page read.
async fn statement_net(app: &TestApp, token: &str, kind: &str, from: &str, to: &str) -> i64 {
    let mut net = 0;
    let mut page = 1;
    loop {
        let answer = app
            .post(
                "report/accountStatement",
                Some(token),
                json!({ "type": kind, "from_date": from, "to_date": to, "page": page, "limit": 100 }),
            )
            .await;
        answer.expect(200);
        let rows = answer.data()["rows"].as_array().unwrap();
        net += rows.iter().map(|r| minor(&r["credit"]) - minor(&r["debit"])).sum::<i64>();
        if page * 100 >= answer.data()["total"].as_i64().unwrap() {
            return net;
        }
        page += 1;
    }
}

async fn pnl(app: &TestApp, token: &str, body: Value) -> Value {
    let answer = app.post("report/profitLoss", Some(token), body).await;
    answer.expect(200);
    answer.data().clone()
}

async fn history(app: &TestApp, token: &str, body: Value) -> Value {
    let answer = app.post("report/betHistory", Some(token), body).await;
    answer.expect(200);
    answer.data().clone()
}

fn row_with<'a>(rows: &'a Value, key: &str, value: &Value) -> &'a Value {
    rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| &row[key] == value)
        .unwrap_or_else(|| panic!("no row with {key} {value} in {rows}"))
}

fn bet_ids(page: &Value) -> BTreeSet<i64> {
    page["rows"].as_array().unwrap().iter().map(|row| row["bet_id"].as_i64().unwrap()).collect()
}

/// (pnl, commission, net) of a row or totals, in minor units.
fn figures(value: &Value) -> (i64, i64, i64) {
    (minor(&value["pnl"]), minor(&value["commission"]), minor(&value["net"]))
}

/// Plays one teen20 round with the casino runner off: `token` stakes 100.00 on Player A and
/// the round is settled. Answers (round id, what came back).
async fn play_a_casino_round(app: &TestApp, token: &str) -> (String, i64) {
    let store = Store::connect(app.database_url()).await.unwrap();
    let game = store.casino_game_by_code("teen20").await.unwrap();
    let round = open_round(&store, &game, now_ms(), 2_000).await.unwrap();
    let table = app.post("casino/roundState", Some(token), json!({ "game_code": "teen20" })).await;
    table.expect(200);
    let odds = table.data()["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["code"] == "player-a")
        .unwrap()["odds"]
        .clone();
    let before = app.balance_minor(token).await;
    let placed = app
        .post(
            "casino/placeBet",
            Some(token),
            json!({ "round_id": round.round_id, "market": "player-a", "odds": odds, "stake": 100 }),
        )
        .await;
    placed.expect(200);

    // Unsettled, it is a current casino bet: it risks its stake to win stake × (odds − 1).
    let current = app.post("report/currentBets", Some(token), json!({ "type": "casino" })).await;
    current.expect(200);
    let row = &current.data()["rows"][0];
    assert_eq!(row["round_id"], round.round_id.as_str());
    let odds_hundredths = (odds.as_str().unwrap().parse::<f64>().unwrap() * 100.0).round() as i64;
    assert_eq!(minor(&row["liability"]), 100_00);
    assert_eq!(minor(&row["profit"]), 100_00 * odds_hundredths / 100 - 100_00);

    while now_ms() < round.close_at_ms {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(close_round(&store, &round, now_ms()).await.unwrap());
    let round = store.casino_round(&round.round_id).await.unwrap();
    assert!(reveal_round(&store, &round, now_ms()).await.unwrap());
    settle_round(&store, &round.round_id, now_ms()).await.unwrap().expect("settled once");
    let back = app.balance_minor(token).await - before + 100_00;
    (round.round_id.clone(), back)
}

/// Plays one round of the built-in provider's Teen Patti T20 through the seamless wallet, signed
/// as the provider signs: `token` stakes 50.00 and is paid 80.00. Answers the provider's round.
async fn play_a_provider_round(app: &TestApp, token: &str) -> String {
    let builtin = app.store().await.builtin_casino_provider().await.unwrap().expect("built in");
    let provider = crate::wallet::Provider { code: builtin.code, secret: builtin.hmac_secret };
    let player = crate::wallet::player_token(app, token).await;
    for (call, tx_id, amount) in [("debit", "pl-d", 50), ("credit", "pl-c", 80)] {
        let body = json!({ "token": player, "tx_id": tx_id, "round": "pl-round", "amount": amount, "game": "teen20" });
        crate::wallet::wallet(app, &provider, call, body).await.expect(200);
    }
    "pl-round".to_string()
}

/// Every bet of the scenario below, by what happened to it.
struct Placed {
    won_with_commission: i64,
    cancelled: i64,
    lay_lost: i64,
    lapsed_then_lost: i64,
    voided: i64,
    bookmaker_won: i64,
    football_won: i64,
    counterparty: BTreeSet<i64>,
}

/// demo bets on five cricket markets and a football one against demo2 (and the house), as the
/// module's figures say:
///
/// | market            | demo's bet                          | demo        | demo2          |
/// |-------------------|-------------------------------------|-------------|----------------|
/// | A (5% commission) | back Home 100 @ 2.50, Home wins     | +150 − 7.50 | −150           |
/// | A                 | back Away 10 @ 10, cancelled        | 0           |                |
/// | B (5% commission) | lay Away 50 @ 3.00, Away wins       | −100        | +100 − 5.00    |
/// | C                 | back Home 100 @ 4.00, 40 matched, 60 lapsed at a suspension, Away wins | −40 | +40 |
/// | D                 | back Home 20 @ 2.00, voided         | 0           | 0              |
/// | E (bookmaker)     | back Home 100 @ 45, Home wins       | +45         |                |
/// | F (football)      | back Home 10 @ 2.00, Home wins      | +10         | −10            |
async fn place_and_settle(app: &TestApp, admin: &str, demo: &str, demo2: &str) -> Placed {
    let cricket = first_match(app, demo, 4).await;
    let football = first_match(app, demo, 1).await;
    let mut counterparty = BTreeSet::new();

    let (a, a_runners) = match_odds(app, admin, cricket, "Match Odds A", 500).await;
    counterparty.insert(bet(app, demo2, json!({ "market_id": a, "selection_id": a_runners[0], "side": "lay", "price": 2.5, "stake": 100 })).await);
    let won_with_commission = bet(app, demo, json!({ "market_id": a, "selection_id": a_runners[0], "side": "back", "price": 2.5, "stake": 100 })).await;
    let cancelled = bet(app, demo, json!({ "market_id": a, "selection_id": a_runners[1], "side": "back", "price": 10, "stake": 10 })).await;
    app.post("bet/cancelBet", Some(demo), json!({ "bet_id": cancelled })).await.expect(200);
    result(app, admin, a, a_runners[0]).await;

    let (b, b_runners) = match_odds(app, admin, cricket, "Match Odds B", 500).await;
    let lay_lost = bet(app, demo, json!({ "market_id": b, "selection_id": b_runners[1], "side": "lay", "price": 3, "stake": 50 })).await;
    counterparty.insert(bet(app, demo2, json!({ "market_id": b, "selection_id": b_runners[1], "side": "back", "price": 3, "stake": 50 })).await);
    result(app, admin, b, b_runners[1]).await;

    let (c, c_runners) = match_odds(app, admin, cricket, "Match Odds C", 0).await;
    let lapsed_then_lost = bet(app, demo, json!({ "market_id": c, "selection_id": c_runners[0], "side": "back", "price": 4, "stake": 100 })).await;
    counterparty.insert(bet(app, demo2, json!({ "market_id": c, "selection_id": c_runners[0], "side": "lay", "price": 4, "stake": 40 })).await);
    app.post("admin/market/status", Some(admin), json!({ "market_id": c, "status": "suspended" }))
        .await
        .expect(200);
    result(app, admin, c, c_runners[1]).await;

    let (d, d_runners) = match_odds(app, admin, cricket, "Match Odds D", 0).await;
    counterparty.insert(bet(app, demo2, json!({ "market_id": d, "selection_id": d_runners[0], "side": "lay", "price": 2, "stake": 20 })).await);
    let voided = bet(app, demo, json!({ "market_id": d, "selection_id": d_runners[0], "side": "back", "price": 2, "stake": 20 })).await;
    app.post("admin/market/void", Some(admin), json!({ "market_id": d })).await.expect(200);

    let (e, e_runners) = app
        .open_market(admin, cricket, json!({ "type": "bookmaker", "name": "Bookmaker E", "runners": ["Home", "Away"], "min_stake": 1 }))
        .await;
    app.post("admin/market/rates", Some(admin), json!({ "market_id": e, "runners": [
        { "selection_id": e_runners[0], "back": 45, "lay": 48 }, { "selection_id": e_runners[1], "back": 190, "lay": 200 }
    ] })).await.expect(200);
    let bookmaker_won = bet(app, demo, json!({ "market_id": e, "selection_id": e_runners[0], "side": "back", "price": 45, "stake": 100 })).await;
    result(app, admin, e, e_runners[0]).await;

    let (f, f_runners) = match_odds(app, admin, football, "Match Odds", 0).await;
    counterparty.insert(bet(app, demo2, json!({ "market_id": f, "selection_id": f_runners[0], "side": "lay", "price": 2, "stake": 10 })).await);
    let football_won = bet(app, demo, json!({ "market_id": f, "selection_id": f_runners[0], "side": "back", "price": 2, "stake": 10 })).await;
    result(app, admin, f, f_runners[0]).await;

    Placed {
        won_with_commission,
        cancelled,
        lay_lost,
        lapsed_then_lost,
        voided,
        bookmaker_won,
        football_won,
        counterparty,
    }
}

async fn profit_and_loss_adds_up_to_the_statement_by_sport_match_and_market(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let from = iso_utc(now_ms() - 1_000);
    place_and_settle(&app, &admin, &demo, &demo2).await;
    let (round_id, came_back) = play_a_casino_round(&app, &demo).await;
    let provider_round = play_a_provider_round(&app, &demo).await;
    let to = iso_utc(now_ms() + 1_000);
    let period = json!({ "from_date": from, "to_date": to });

    // The top level: a row per sport, the casino and the providers' games, the grand total.
    let sports = pnl(&app, &demo, period.clone()).await;
    assert_eq!(sports["level"], "sport");
    assert_eq!(sports["total"], 4, "{sports}");
    let cricket = row_with(&sports, "sport", &json!("4"));
    assert_eq!(cricket["sport_name"], "Cricket");
    assert_eq!(
        figures(cricket),
        (55_00, 7_50, 47_50),
        "150 − 100 − 40 + 45; the void moved nothing"
    );
    assert_eq!(cricket["markets"], 4, "A, B, C and E: the voided D moved no money");
    assert_eq!(figures(row_with(&sports, "sport", &json!("1"))), (10_00, 0, 10_00));
    let casino = row_with(&sports, "sport", &json!("casino"));
    assert_eq!(casino["sport_name"], "Casino");
    let casino_net = came_back - 100_00;
    assert_eq!(figures(casino), (casino_net, 0, casino_net));
    let live = row_with(&sports, "sport", &json!("live_casino"));
    assert_eq!(
        (live["sport_name"].as_str(), figures(live)),
        (Some("Live Casino"), (30_00, 0, 30_00))
    );
    assert_eq!(
        figures(&sports["totals"]),
        (65_00 + casino_net + 30_00, 7_50, 57_50 + casino_net + 30_00)
    );
    assert_eq!(sports["totals"]["markets"], 7);

    // The grand total is what the statement's betting lines add up to over the same period.
    let statement = statement_net(&app, &demo, "sports", &from, &to).await
        + statement_net(&app, &demo, "casino", &from, &to).await;
    assert_eq!(minor(&sports["totals"]["net"]), statement);

    // Down to a sport: its matches, with the sport's subtotal.
    let events = pnl(&app, &demo, json!({ "from_date": from, "to_date": to, "sport": "4" })).await;
    assert_eq!((events["level"].as_str(), events["total"].as_i64()), (Some("event"), Some(1)));
    let the_match = &events["rows"][0];
    assert_eq!(figures(the_match), figures(cricket));
    assert_eq!(figures(&events["totals"]), figures(cricket));
    let event = the_match["event"].as_str().unwrap().to_string();

    // Down to a match: its markets, newest first, each P&L before commission, commission, net.
    let markets =
        pnl(&app, &demo, json!({ "from_date": from, "to_date": to, "sport": "4", "event": event }))
            .await;
    assert_eq!(markets["level"], "market");
    let names: Vec<&str> = markets["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["market_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bookmaker E", "Match Odds C", "Match Odds B", "Match Odds A"]);
    let a = row_with(&markets, "market_name", &json!("Match Odds A"));
    assert_eq!(figures(a), (150_00, 7_50, 142_50));
    assert!(a["market_id"].is_i64() && a["event_name"] == the_match["event_name"]);
    assert_eq!(
        figures(row_with(&markets, "market_name", &json!("Match Odds B"))),
        (-100_00, 0, -100_00)
    );
    assert_eq!(
        figures(row_with(&markets, "market_name", &json!("Match Odds C"))),
        (-40_00, 0, -40_00)
    );
    assert_eq!(figures(&markets["totals"]), figures(cricket));
    // Paged: the totals are every row's, whatever the page.
    let second = pnl(&app, &demo, json!({ "from_date": from, "to_date": to, "sport": "4", "event": event, "page": 2, "limit": 3 })).await;
    assert_eq!((second["total"].as_i64(), second["rows"].as_array().unwrap().len()), (Some(4), 1));
    assert_eq!(second["rows"][0]["market_name"], "Match Odds A");
    assert_eq!(figures(&second["totals"]), figures(cricket));

    // The casino: its games, then the rounds played.
    let games =
        pnl(&app, &demo, json!({ "from_date": from, "to_date": to, "sport": "casino" })).await;
    assert_eq!(games["rows"][0]["event"], "teen20");
    assert_eq!(games["rows"][0]["event_name"], "Teen Patti T20");
    let rounds = pnl(
        &app,
        &demo,
        json!({ "from_date": from, "to_date": to, "sport": "casino", "event": "teen20" }),
    )
    .await;
    assert_eq!(rounds["total"], 1);
    assert_eq!(rounds["rows"][0]["market"], round_id.as_str());
    assert_eq!(minor(&rounds["rows"][0]["net"]), casino_net, "the stake and the payout, one round");
    // A provider's game: its round, its debit and credit together.
    let provider_games =
        pnl(&app, &demo, json!({ "from_date": from, "to_date": to, "sport": "live_casino" })).await;
    let game = &provider_games["rows"][0];
    assert_eq!(
        (game["event_name"].as_str(), game["markets"].as_i64()),
        (Some("Teen Patti T20 Instant"), Some(1))
    );
    let game_key = game["event"].as_str().unwrap();
    let provider_rounds = pnl(
        &app,
        &demo,
        json!({ "from_date": from, "to_date": to, "sport": "live_casino", "event": game_key }),
    )
    .await;
    assert_eq!(provider_rounds["rows"][0]["market_name"], provider_round.as_str());
    assert_eq!(figures(&provider_rounds["rows"][0]), (30_00, 0, 30_00));

    // The counterparty sees their own side only, and it too meets their statement.
    let theirs = pnl(&app, &demo2, period.clone()).await;
    assert_eq!(theirs["total"], 2, "cricket and football, no casino: {theirs}");
    assert_eq!(figures(row_with(&theirs, "sport", &json!("4"))), (-10_00, 5_00, -15_00));
    assert_eq!(
        minor(&theirs["totals"]["net"]),
        statement_net(&app, &demo2, "sports", &from, &to).await
            + statement_net(&app, &demo2, "casino", &from, &to).await
    );

    // A period before any of it lists nothing; the CSV lists the level's rows.
    let before =
        pnl(&app, &demo, json!({ "from_date": "2026-01-01", "to_date": "2026-01-31" })).await;
    assert_eq!((before["total"].as_i64(), figures(&before["totals"])), (Some(0), (0, 0, 0)));
    let (status, content_type, _, csv) = app
        .download("report/profitLoss", Some(&demo), json!({ "from_date": from, "to_date": to, "sport": "4", "event": event, "format": "csv" }))
        .await;
    assert_eq!((status.as_u16(), content_type.as_str()), (200, "text/csv; charset=utf-8"));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "date,sport,event,market,market_id,markets,pnl,commission,net");
    assert_eq!(lines.len(), 5);
    assert!(
        lines.iter().any(|l| l.contains(",Match Odds A,") && l.ends_with(",150.00,7.50,142.50")),
        "{csv}"
    );
    app.assert_ledger_sound(&admin).await;
}
both_databases!(
    profit_and_loss_adds_up_to_the_statement_by_sport_match_and_market,
    super::casino_runner_off
);

async fn bet_history_lists_closed_bets_each_filter_narrowing_them(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let from = iso_utc(now_ms() - 1_000);
    let placed = place_and_settle(&app, &admin, &demo, &demo2).await;
    let to = iso_utc(now_ms() + 1_000);
    let with = |extra: Value| {
        let mut body = json!({ "from_date": from, "to_date": to });
        for (key, value) in extra.as_object().unwrap() {
            body[key] = value.clone();
        }
        body
    };

    let all = history(&app, &demo, with(json!({}))).await;
    let every: BTreeSet<i64> = [
        placed.won_with_commission,
        placed.cancelled,
        placed.lay_lost,
        placed.lapsed_then_lost,
        placed.voided,
        placed.bookmaker_won,
        placed.football_won,
    ]
    .into();
    assert_eq!(bet_ids(&all), every);
    assert_eq!(all["total"], 7);
    assert!(
        bet_ids(&all).is_disjoint(&placed.counterparty),
        "another user's bets are never listed"
    );
    // Totals: P&L before commission, the commission, and the net, which is what the statement's
    // sports lines add up to over the same period.
    assert_eq!(figures(&all["totals"]), (65_00, 7_50, 57_50));
    assert_eq!(
        minor(&all["totals"]["net"]),
        statement_net(&app, &demo, "sports", &from, &to).await
    );

    // Each row as it closed, newest first.
    let row = |id: i64| row_with(&all, "bet_id", &json!(id)).clone();
    let won = row(placed.won_with_commission);
    assert_eq!(
        (won["status"].as_str(), won["sport_name"].as_str()),
        (Some("settled"), Some("Cricket"))
    );
    assert_eq!(
        (won["market_name"].as_str(), won["selection_name"].as_str()),
        (Some("Match Odds A"), Some("Home"))
    );
    assert_eq!((won["side"].as_str(), &won["avg_price_matched"]), (Some("back"), &json!(2.5)));
    assert_eq!(figures(&won), (150_00, 7_50, 142_50));
    assert!(won["placed_at"].as_str().unwrap() <= won["settled_at"].as_str().unwrap());
    let lapsed = row(placed.lapsed_then_lost);
    assert_eq!(lapsed["status"], "settled");
    assert_eq!((minor(&lapsed["matched"]), minor(&lapsed["lapsed"])), (40_00, 60_00));
    assert_eq!(figures(&lapsed), (-40_00, 0, -40_00));
    let cancelled = row(placed.cancelled);
    assert_eq!(
        (cancelled["status"].as_str(), minor(&cancelled["cancelled"])),
        (Some("cancelled"), 10_00)
    );
    assert_eq!((minor(&cancelled["pnl"]), &cancelled["commission"]), (0, &Value::Null));
    let voided = row(placed.voided);
    assert_eq!((voided["status"].as_str(), minor(&voided["pnl"])), (Some("void"), 0));
    let bookmaker = row(placed.bookmaker_won);
    assert_eq!(
        (bookmaker["market_type"].as_str(), &bookmaker["price"]),
        (Some("bookmaker"), &json!(45.0))
    );
    assert_eq!(figures(&bookmaker), (45_00, 0, 45_00));
    let newest = all["rows"][0]["bet_id"].as_i64().unwrap();
    assert_eq!(newest, placed.football_won, "the football market settled last");

    // Each filter narrows the list to exactly its bets.
    let cases = [
        (
            json!({ "status": "settled" }),
            vec![
                placed.won_with_commission,
                placed.lay_lost,
                placed.lapsed_then_lost,
                placed.bookmaker_won,
                placed.football_won,
            ],
        ),
        (json!({ "status": "void" }), vec![placed.voided]),
        // Partly matched then lapsed, then settled: listed as lapsed too, with both figures.
        (json!({ "status": "lapsed" }), vec![placed.lapsed_then_lost]),
        (json!({ "status": "cancelled" }), vec![placed.cancelled]),
        (json!({ "sport_id": 1 }), vec![placed.football_won]),
        (json!({ "sport_id": "4", "market_type": "bookmaker" }), vec![placed.bookmaker_won]),
        (json!({ "side": "lay" }), vec![placed.lay_lost]),
        (
            json!({ "side": "back", "status": "settled", "market_type": "match_odds", "sport_id": 4 }),
            vec![placed.won_with_commission, placed.lapsed_then_lost],
        ),
    ];
    for (filter, expected) in cases {
        let page = history(&app, &demo, with(filter.clone())).await;
        assert_eq!(bet_ids(&page), expected.into_iter().collect::<BTreeSet<_>>(), "{filter}");
        assert!(page["total"].as_i64().unwrap() < 7, "{filter} narrows the list");
    }
    let lapsed_only = history(&app, &demo, with(json!({ "status": "lapsed" }))).await;
    assert_eq!(
        (minor(&lapsed_only["rows"][0]["matched"]), minor(&lapsed_only["rows"][0]["lapsed"])),
        (40_00, 60_00)
    );
    let settled = history(&app, &demo, with(json!({ "status": "settled" }))).await;
    assert_eq!(figures(&settled["totals"]), (65_00, 7_50, 57_50));
    let lays = history(&app, &demo, with(json!({ "side": "lay" }))).await;
    assert_eq!(figures(&lays["totals"]), (-100_00, 0, -100_00), "no commission on a losing lay");
    let earlier =
        history(&app, &demo, json!({ "from_date": "2026-01-01", "to_date": "2026-01-31" })).await;
    assert_eq!((earlier["total"].as_i64(), figures(&earlier["totals"])), (Some(0), (0, 0, 0)));

    // Paged: the totals are the whole list's on every page.
    let page_two = history(&app, &demo, with(json!({ "page": 2, "limit": 5 }))).await;
    assert_eq!(page_two["rows"].as_array().unwrap().len(), 2);
    assert_eq!(figures(&page_two["totals"]), (65_00, 7_50, 57_50));

    // The counterparty's history holds their own bets only, with their commission on B.
    let theirs = history(&app, &demo2, with(json!({}))).await;
    assert_eq!(bet_ids(&theirs), placed.counterparty);
    assert_eq!(figures(&theirs["totals"]), (-20_00, 5_00, -25_00));

    let (status, _, _, csv) = app
        .download(
            "report/betHistory",
            Some(&demo),
            with(json!({ "status": "lapsed", "format": "csv" })),
        )
        .await;
    assert_eq!(status.as_u16(), 200);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(lines[0].starts_with("placed_at,settled_at,bet_id,status,sport,match,market"));
    assert!(
        lines[1].contains(",settled,Cricket,")
            && lines[1].contains(",100.00,40.00,60.00,0.00,-40.00,0.00,-40.00"),
        "{csv}"
    );
}
both_databases!(bet_history_lists_closed_bets_each_filter_narrowing_them);

async fn current_bets_show_what_each_bet_risks_and_may_win(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let cricket = first_match(&app, &demo, 4).await;
    let (market, runners) = match_odds(&app, &admin, cricket, "Match Odds", 0).await;
    // demo2 lays Home 100 @ 2.50; demo backs 40 of it. demo2 lays Away 10 @ 3.00, which demo's
    // back at 2.50 takes at 3.00.
    let lay = bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[0], "side": "lay", "price": 2.5, "stake": 100 })).await;
    let back = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 2.5, "stake": 40 })).await;
    bet(&app, &demo2, json!({ "market_id": market, "selection_id": runners[1], "side": "lay", "price": 3, "stake": 10 })).await;
    let improved = bet(&app, &demo, json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": 2.5, "stake": 10 })).await;

    let (bookmaker, bm_runners) = app
        .open_market(&admin, cricket, json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"], "min_stake": 1 }))
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": bookmaker, "runners": [
        { "selection_id": bm_runners[0], "back": 45, "lay": 48 }, { "selection_id": bm_runners[1], "back": 190, "lay": 200 }
    ] })).await.expect(200);
    let khai = bet(&app, &demo, json!({ "market_id": bookmaker, "selection_id": bm_runners[0], "side": "lay", "price": 48, "stake": 100 })).await;
    let (fancy, _) = app
        .open_market(
            &admin,
            cricket,
            json!({ "type": "fancy", "name": "6 over runs", "min_stake": 1 }),
        )
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 48, "rate_no": 90, "line_yes": 49, "rate_yes": 110 })).await.expect(200);
    let no = bet(
        &app,
        &demo,
        json!({ "market_id": fancy, "side": "no", "price": 90, "line": 48, "stake": 50 }),
    )
    .await;
    let yes = bet(
        &app,
        &demo,
        json!({ "market_id": fancy, "side": "yes", "price": 110, "line": 49, "stake": 20 }),
    )
    .await;

    let at_risk = |page: &Value, bet_id: i64| {
        let row = row_with(page, "bet_id", &json!(bet_id));
        (minor(&row["liability"]), minor(&row["profit"]))
    };
    let matched = app.post("report/currentBets", Some(&demo), json!({ "status": "matched" })).await;
    matched.expect(200);
    let matched = matched.data();
    assert_eq!(
        at_risk(matched, back),
        (40_00, 60_00),
        "a back risks its stake to win stake × (2.50 − 1)"
    );
    assert_eq!(
        at_risk(matched, improved),
        (10_00, 20_00),
        "at the 3.00 it matched, not the 2.50 asked"
    );
    assert_eq!(at_risk(matched, khai), (48_00, 100_00), "a bookmaker lay risks stake × 48 / 100");
    assert_eq!(at_risk(matched, no), (45_00, 50_00), "a fancy NO risks stake × 90 / 100");
    assert_eq!(at_risk(matched, yes), (20_00, 22_00), "a fancy YES wins stake × 110 / 100");

    // The layer: the matched part at its fill, the unmatched part at its own price.
    let theirs = app.post("report/currentBets", Some(&demo2), json!({ "status": "matched" })).await;
    assert_eq!(at_risk(theirs.data(), lay), (60_00, 40_00));
    let waiting =
        app.post("report/currentBets", Some(&demo2), json!({ "status": "unmatched" })).await;
    waiting.expect(200);
    assert_eq!(at_risk(waiting.data(), lay), (90_00, 60_00), "60.00 still offered at 2.50");
    assert!(bet_ids(waiting.data()).is_disjoint(&[back, improved, khai, no, yes].into()));

    let (_, _, _, csv) = app
        .download(
            "report/currentBets",
            Some(&demo),
            json!({ "status": "matched", "format": "csv" }),
        )
        .await;
    assert!(csv.lines().next().unwrap().ends_with(",status,liability,profit"), "{csv}");
    assert!(
        csv.lines().any(|l| l.contains(&format!(",{khai},")) && l.ends_with(",48.00,100.00")),
        "{csv}"
    );
}
both_databases!(current_bets_show_what_each_bet_risks_and_may_win);

async fn bad_report_input_is_refused_on_its_field(app: TestApp) {
    let demo = app.demo().await;
    let cases = [
        (
            "report/profitLoss",
            json!({ "from_date": "2026-03-10", "to_date": "2026-03-01" }),
            "to_date",
            "must not be before",
        ),
        (
            "report/profitLoss",
            json!({ "from_date": "2026-01-01", "to_date": "2026-04-03" }),
            "to_date",
            "at most 92 days",
        ),
        ("report/profitLoss", json!({ "from_date": "01/03/2026" }), "from_date", "a date such as"),
        ("report/profitLoss", json!({ "event": "17" }), "sport", "sport"),
        ("report/profitLoss", json!({ "sport": "x".repeat(101) }), "sport", "at most 100"),
        ("report/profitLoss", json!({ "limit": 0 }), "limit", "between 1 and 100"),
        ("report/profitLoss", json!({ "format": "pdf" }), "format", "not a format"),
        (
            "report/betHistory",
            json!({ "from_date": "2026-03-10", "to_date": "2026-03-01" }),
            "to_date",
            "must not be before",
        ),
        (
            "report/betHistory",
            json!({ "from_date": "2025-12-01", "to_date": "2026-03-31" }),
            "to_date",
            "at most 92 days",
        ),
        (
            "report/betHistory",
            json!({ "status": "won" }),
            "status",
            "settled, void, lapsed or cancelled",
        ),
        (
            "report/betHistory",
            json!({ "market_type": "exotic" }),
            "market_type",
            "not a market type",
        ),
        ("report/betHistory", json!({ "side": "yes" }), "side", "back or lay"),
        ("report/betHistory", json!({ "sport_id": "cricket" }), "sport_id", "whole number"),
        ("report/betHistory", json!({ "page": 0 }), "page", "1 or more"),
    ];
    for (path, body, field, words) in cases {
        let answer = app.post(path, Some(&demo), body.clone()).await;
        answer.expect(400);
        assert!(answer.field_error(field).contains(words), "{path} {body} → {}", answer.body);
    }
    // 92 days exactly is taken.
    app.post(
        "report/betHistory",
        Some(&demo),
        json!({ "from_date": "2026-01-01", "to_date": "2026-04-02" }),
    )
    .await
    .expect(200);
    app.post("report/profitLoss", None, json!({})).await.expect(401);
    app.post("report/betHistory", None, json!({})).await.expect(401);
}
both_databases!(bad_report_input_is_refused_on_its_field);
