//! A runner in depth over HTTP: `market/ladder` (every price of the book with its sizes, the
//! caller's own unmatched orders and nobody else's, what traded at each price and last),
//! `market/priceHistory` (the fills in bounded round intervals), and each exchange market's
//! total matched on the match page and its stream.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, read_until, spawn_app, Answer, Db, TestApp};

/// The demo's first cricket match (in play).
async fn a_match(app: &TestApp, token: &str) -> i64 {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": 4 })).await;
    answer.data()[0]["match_id"].as_i64().unwrap()
}

/// A match-odds market with no bet delay: (market_id, selection ids).
async fn match_odds(app: &TestApp, admin: &str, match_id: i64) -> (i64, Vec<i64>) {
    app.open_market(admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 })).await
}

async fn bet(
    app: &TestApp,
    token: &str,
    market: i64,
    runner: i64,
    side: &str,
    price: &str,
    stake: &str,
) -> Value {
    let answer = app
        .post(
            "bet/placeBet",
            Some(token),
            json!({ "market_id": market, "selection_id": runner, "side": side, "price": price, "stake": stake }),
        )
        .await;
    answer.expect(200);
    answer.data().clone()
}

async fn ladder(app: &TestApp, token: &str, market: i64, runner: i64) -> Answer {
    app.post("market/ladder", Some(token), json!({ "market_id": market, "selection_id": runner }))
        .await
}

/// A ladder's levels as (price in hundredths, back, lay, traded, my back, my lay), in minor
/// units.
fn levels(ladder: &Answer) -> Vec<(i64, i64, i64, i64, i64, i64)> {
    ladder.data()["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                minor(&l["price"]),
                minor(&l["back_size"]),
                minor(&l["lay_size"]),
                minor(&l["traded"]),
                minor(&l["my_back"]),
                minor(&l["my_lay"]),
            )
        })
        .collect()
}

async fn resting_orders_show_at_every_price_with_only_the_callers_own_as_theirs(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    let home = runners[0];
    // Demo lays at five prices (money to back there), demo2 lays beside demo at one of them
    // and backs at five more (money to lay): more than the page's best three on each side.
    for (price, stake) in
        [("1.50", "10"), ("1.60", "20"), ("1.70", "30"), ("1.80", "40"), ("1.90", "50")]
    {
        bet(&app, &demo, market, home, "lay", price, stake).await;
    }
    bet(&app, &demo2, market, home, "lay", "1.90", "5").await;
    for (price, stake) in
        [("2.50", "11"), ("2.60", "12"), ("3.00", "13"), ("4.00", "14"), ("5.00", "15")]
    {
        bet(&app, &demo2, market, home, "back", price, stake).await;
    }
    // Demo backs at 5.00 too: its own order among demo2's at one price.
    bet(&app, &demo, market, home, "back", "5.00", "2").await;

    let page = app.match_market(&demo, match_id, market).await;
    assert_eq!(page["runners"][0]["back"].as_array().unwrap().len(), 3, "the page shows 3");

    let mine = ladder(&app, &demo, market, home).await;
    mine.expect(200);
    assert_eq!(mine.data()["market_id"], market);
    assert_eq!(mine.data()["selection_id"], home);
    assert_eq!(mine.data()["name"], "Home");
    assert_eq!(mine.data()["status"], "open");
    assert_eq!(mine.data()["last_traded_price"], Value::Null);
    assert_eq!(minor(&mine.data()["total_matched"]), 0);
    // Lowest price first; only prices with something on them.
    assert_eq!(
        levels(&mine),
        vec![
            (150, 10_00, 0, 0, 0, 10_00),
            (160, 20_00, 0, 0, 0, 20_00),
            (170, 30_00, 0, 0, 0, 30_00),
            (180, 40_00, 0, 0, 0, 40_00),
            (190, 55_00, 0, 0, 0, 50_00),
            (250, 0, 11_00, 0, 0, 0),
            (260, 0, 12_00, 0, 0, 0),
            (300, 0, 13_00, 0, 0, 0),
            (400, 0, 14_00, 0, 0, 0),
            (500, 0, 17_00, 0, 2_00, 0),
        ]
    );
    // Demo2 sees the same book, with its own orders as its own and demo's as nobody's.
    let theirs = ladder(&app, &demo2, market, home).await;
    assert_eq!(
        levels(&theirs),
        vec![
            (150, 10_00, 0, 0, 0, 0),
            (160, 20_00, 0, 0, 0, 0),
            (170, 30_00, 0, 0, 0, 0),
            (180, 40_00, 0, 0, 0, 0),
            (190, 55_00, 0, 0, 0, 5_00),
            (250, 0, 11_00, 0, 11_00, 0),
            (260, 0, 12_00, 0, 12_00, 0),
            (300, 0, 13_00, 0, 13_00, 0),
            (400, 0, 14_00, 0, 14_00, 0),
            (500, 0, 17_00, 0, 15_00, 0),
        ]
    );
    // A cancelled order leaves the ladder; a part-cancelled one shows what is left.
    let orders = app.post("bet/openBets", Some(&demo), json!({})).await;
    let unmatched = orders.data()["unmatched"].as_array().unwrap().clone();
    let at = |price: f64| {
        unmatched.iter().find(|b| b["price"] == price).unwrap()["bet_id"].as_i64().unwrap()
    };
    app.post("bet/cancelBet", Some(&demo), json!({ "bet_id": at(1.5) })).await.expect(200);
    app.post("bet/cancelBet", Some(&demo), json!({ "bet_id": at(1.9), "size": 20 }))
        .await
        .expect(200);
    let after = levels(&ladder(&app, &demo, market, home).await);
    assert_eq!(after[0], (160, 20_00, 0, 0, 0, 20_00));
    assert_eq!(after[3], (190, 35_00, 0, 0, 0, 30_00));
    // The other runner has nothing on it.
    let away = ladder(&app, &demo, market, runners[1]).await;
    away.expect(200);
    assert!(levels(&away).is_empty());
}
both_databases!(resting_orders_show_at_every_price_with_only_the_callers_own_as_theirs);

async fn traded_volume_and_the_last_price_follow_the_matches_live(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    let (bookmaker, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"] }),
        )
        .await;
    let home = runners[0];
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut stream = app
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    let mut buffer = String::new();
    let (_, snapshot) = read_until(&mut stream, &mut buffer, |event, _| event == "snapshot").await;
    let in_snapshot = |id: i64| {
        snapshot.as_array().unwrap().iter().find(|m| m["market_id"] == id).unwrap().clone()
    };
    assert_eq!(minor(&in_snapshot(market)["total_matched"]), 0);
    assert_eq!(in_snapshot(bookmaker)["total_matched"], Value::Null, "the house takes every bet");

    bet(&app, &demo, market, home, "lay", "2.50", "100").await;
    let matched = bet(&app, &demo2, market, home, "back", "2.50", "40").await;
    assert_eq!(matched["status"], "matched");
    // The stream carries the market's new total matched.
    let (_, event) = read_until(&mut stream, &mut buffer, |event, data| {
        event == "market" && data["market_id"] == market && minor(&data["total_matched"]) == 40_00
    })
    .await;
    assert_eq!(event["runners"][0]["back"][0]["price"], 2.5);

    // Demo lays 30 more at 2.40; demo2's back of 70 at 2.40 takes the 60 left at 2.50 first,
    // then 10 at 2.40: the last price traded is 2.40.
    bet(&app, &demo, market, home, "lay", "2.40", "30").await;
    let matched = bet(&app, &demo2, market, home, "back", "2.40", "70").await;
    assert_eq!(minor(&matched["size_matched"]), 70_00);
    for (token, my_lay) in [(&demo, 20_00), (&demo2, 0)] {
        let answer = ladder(&app, token, market, home).await;
        answer.expect(200);
        assert_eq!(answer.data()["last_traded_price"], 2.4);
        assert_eq!(minor(&answer.data()["total_matched"]), 110_00);
        assert_eq!(
            levels(&answer),
            vec![(240, 20_00, 0, 10_00, 0, my_lay), (250, 0, 0, 100_00, 0, 0)]
        );
    }
    let page = app.match_market(&demo, match_id, market).await;
    assert_eq!(minor(&page["total_matched"]), 110_00);
    assert_eq!(app.match_market(&demo, match_id, bookmaker).await["total_matched"], Value::Null);
    read_until(&mut stream, &mut buffer, |event, data| {
        event == "market" && data["market_id"] == market && minor(&data["total_matched"]) == 110_00
    })
    .await;

    // Settled, the market's task has ended: the page reads its total from the fills.
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": home }),
    )
    .await
    .expect(200);
    let settled = app.match_market(&demo, match_id, market).await;
    assert_eq!(settled["status"], "closed");
    assert_eq!(minor(&settled["total_matched"]), 110_00);
    // A closed market's book is gone: its ladder is refused, its chart is not.
    let closed = ladder(&app, &demo, market, home).await;
    closed.expect(409);
    assert_eq!(closed.message(), "This market is closed.");
    let history = app
        .post(
            "market/priceHistory",
            Some(&demo),
            json!({ "market_id": market, "selection_id": home }),
        )
        .await;
    history.expect(200);
    let volume: i64 =
        history.data()["points"].as_array().unwrap().iter().map(|p| minor(&p["volume"])).sum();
    assert_eq!(volume, 110_00);
    let last = history.data()["points"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["price"], 2.4);
}
both_databases!(traded_volume_and_the_last_price_follow_the_matches_live);

/// Fills one a minute for four hours: a price history of one point a minute would be 240
/// points, so the server takes two-minute intervals (the shortest round length that fits 200),
/// each the price of its last fill and the sum of its volume.
async fn the_price_history_is_bounded_in_round_intervals(app: TestApp) {
    const FILLS: i64 = 240;
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    let home = runners[0];
    let history = |token: &str| {
        let (app, token) = (&app, token.to_string());
        async move {
            app.post(
                "market/priceHistory",
                Some(&token),
                json!({ "market_id": market, "selection_id": home }),
            )
            .await
        }
    };
    let empty = history(&demo).await;
    empty.expect(200);
    assert_eq!(empty.data()["points"], json!([]), "no fills, no points");

    // The first half of the fills at 2.02, the second at 2.00 (a back at 2.00 takes the better
    // 2.02 first, while there is any).
    bet(&app, &demo, market, home, "lay", "2.02", &(FILLS / 2).to_string()).await;
    bet(&app, &demo, market, home, "lay", "2.00", &(FILLS / 2).to_string()).await;
    for _ in 0..FILLS {
        bet(&app, &demo2, market, home, "back", "2.00", "1").await;
    }
    // Spread the fills one a minute from a round hour (each was made within this test's few
    // seconds): the server's intervals are then checked against this test's own arithmetic.
    let start_ms: i64 = 1_790_000_000_000 / 3_600_000 * 3_600_000;
    let store = app.store().await;
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM fills WHERE market_id = $1 ORDER BY id")
        .bind(market)
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(ids.len() as i64, FILLS);
    for (i, id) in ids.iter().enumerate() {
        sqlx::query("UPDATE fills SET created_at_ms = $1 WHERE id = $2")
            .bind(start_ms + i as i64 * 60_000)
            .bind(*id)
            .execute(store.pool())
            .await
            .unwrap();
    }

    // Anyone may read a chart: it holds no one's bets.
    let answer = history(&admin).await;
    answer.expect(200);
    assert_eq!(answer.data()["market_id"], market);
    assert_eq!(answer.data()["selection_id"], home);
    assert_eq!(answer.data()["interval_s"], 120);
    let points = answer.data()["points"].as_array().unwrap().clone();
    assert_eq!(points.len(), 120);
    assert!(points.len() <= 200);
    for (k, point) in points.iter().enumerate() {
        let at = start_ms + k as i64 * 120_000;
        assert_eq!(point["at"], backlay_kit::clock::iso_utc(at), "point {k}");
        // Fills 2k and 2k + 1: the last of them at 2.02 while k < 60.
        let price = if 2 * k as i64 + 1 < FILLS / 2 { 2.02 } else { 2.0 };
        assert_eq!(point["price"], price, "point {k}");
        assert_eq!(minor(&point["volume"]), 2_00, "point {k}");
    }
}
both_databases!(the_price_history_is_bounded_in_round_intervals);

async fn only_a_known_runner_of_an_exchange_market_has_a_ladder(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let match_id = a_match(&app, &demo).await;
    let (market, runners) = match_odds(&app, &admin, match_id).await;
    let (bookmaker, bookmaker_runners) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"] }),
        )
        .await;
    let (fancy, _) =
        app.open_market(&admin, match_id, json!({ "type": "fancy", "name": "10 over runs" })).await;
    for call in ["market/ladder", "market/priceHistory"] {
        let ask = |market: i64, runner: i64| {
            let (app, demo) = (&app, &demo);
            async move {
                app.post(call, Some(demo), json!({ "market_id": market, "selection_id": runner }))
                    .await
            }
        };
        let unknown = ask(987_654, runners[0]).await;
        unknown.expect(404);
        assert_eq!(unknown.message(), "There is no market with id 987654.", "{call}");
        let stranger = ask(market, bookmaker_runners[0]).await;
        stranger.expect(404);
        assert_eq!(
            stranger.message(),
            format!("Runner {} is not in this market.", bookmaker_runners[0]),
            "{call}"
        );
        let house = ask(bookmaker, bookmaker_runners[0]).await;
        house.expect(400);
        assert_eq!(
            house.field_error("market_id"),
            "There is no ladder on a bookmaker market: only exchange markets (match odds, win, \
             place) have one.",
            "{call}"
        );
        let fancy = ask(fancy, runners[0]).await;
        fancy.expect(400);
        assert!(fancy.field_error("market_id").starts_with("There is no ladder on a fancy market"));
        // Not a number: the field says so.
        app.post(call, Some(&demo), json!({ "market_id": "abc", "selection_id": runners[0] }))
            .await
            .expect(400);
        // Without a session, nothing.
        app.post(call, None, json!({ "market_id": market, "selection_id": runners[0] }))
            .await
            .expect(401);
    }
}
both_databases!(only_a_known_runner_of_an_exchange_market_has_a_ladder);

/// On a cluster the ladder is the owner's book, whichever node is asked: the node that does not
/// run the market sends the call to the one that does (PostgreSQL only, as every cluster is).
#[tokio::test]
async fn the_ladder_asked_of_any_node_is_the_owners_book() {
    let Some(first) = spawn_app(Db::Postgres).await else { return };
    let second = first.second_node().await;
    let admin = first.admin().await;
    let (demo, demo2) = (second.demo().await, second.login("demo2", "Demo@1234").await);
    let match_id = a_match(&first, &demo).await;
    let (market, runners) = match_odds(&first, &admin, match_id).await;
    let owner = first.store().await.owner_of(&format!("market:{market}")).await.unwrap();
    assert_eq!(owner.expect("an owner").url, first.base.trim_end_matches("/api"));
    bet(&second, &demo, market, runners[0], "lay", "3.00", "50").await;
    bet(&second, &demo2, market, runners[0], "back", "3.00", "20").await;
    for node in [&second, &first] {
        let answer = ladder(node, &demo, market, runners[0]).await;
        answer.expect(200);
        assert_eq!(levels(&answer), vec![(300, 30_00, 0, 20_00, 0, 30_00)]);
        assert_eq!(answer.data()["last_traded_price"], 3.0);
    }
    let fancy = first
        .open_market(&admin, match_id, json!({ "type": "fancy", "name": "10 over runs" }))
        .await
        .0;
    let refused = ladder(&second, &demo, fancy, runners[0]).await;
    refused.expect(400);
    assert!(refused.field_error("market_id").starts_with("There is no ladder on a fancy market"));
}
