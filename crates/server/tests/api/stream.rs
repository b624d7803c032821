//! The live stream: a ticket opens it, a snapshot comes first, then coalesced market changes,
//! with no bettor's position in them.

use serde_json::json;

use crate::both_databases;
use crate::common::{minor, read_until, TestApp};

async fn the_stream_pushes_book_changes_without_positions(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let created = app
        .post("admin/market/create", Some(&admin), json!({ "match_id": match_id, "type": "match_odds", "name": "Streamed", "runners": ["A", "B"], "bet_delay_s": 0 }))
        .await;
    let market = created.data()["market_id"].as_i64().unwrap();
    let runner = created.data()["selection_ids"][0].as_i64().unwrap();
    app.post("admin/market/status", Some(&admin), json!({ "market_id": market, "status": "open" }))
        .await
        .expect(200);

    // Without a ticket: 401 in the envelope.
    app.get(&format!("stream?match_id={match_id}"), None).await.expect(401);
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await;
    ticket.expect(200);
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    app.get(&format!("stream?match_id=999999&ticket={ticket}"), None).await.expect(404);
    app.get(&format!("stream?match_id=abc&ticket={ticket}"), None).await.expect(400);

    // A bystander's stream, to show that nobody else is told about demo's bets.
    let bystander_ticket = app.post("stream/ticket", Some(&admin), json!({})).await.data()
        ["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut bystander = app
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={bystander_ticket}", app.base))
        .send()
        .await
        .unwrap();
    let mut bystander_buffer = String::new();
    read_until(&mut bystander, &mut bystander_buffer, |event, _| event == "snapshot").await;

    let mut response = app
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut buffer = String::new();
    let (event, snapshot) =
        read_until(&mut response, &mut buffer, |event, _| event == "snapshot").await;
    assert_eq!(event, "snapshot");
    assert!(snapshot.as_array().unwrap().iter().any(|m| m["market_id"] == market));

    // demo's own lay, then demo2's back: the stream shows the book as anyone sees it.
    app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runner, "side": "lay", "price": 2.5, "stake": 400 })).await.expect(200);
    let (_, book) = read_until(&mut response, &mut buffer, |event, value| {
        event == "market"
            && value["market_id"] == market
            && !value["runners"][0]["back"].as_array().unwrap().is_empty()
    })
    .await;
    assert_eq!(book["runners"][0]["back"][0]["price"], 2.5);
    assert_eq!(minor(&book["runners"][0]["back"][0]["size"]), 400_00);
    app.post("bet/placeBet", Some(&demo2), json!({ "market_id": market, "selection_id": runner, "side": "back", "price": 2.5, "stake": 400 })).await.expect(200);
    let (_, book) = read_until(&mut response, &mut buffer, |event, value| {
        event == "market"
            && value["market_id"] == market
            && value["runners"][0]["back"].as_array().unwrap().is_empty()
    })
    .await;
    // demo's lay was matched by someone else: demo (only) is told to fetch their own figures.
    let (_, mine) = read_until(&mut response, &mut buffer, |event, _| event == "mine").await;
    assert_eq!(mine, json!({ "market_id": market }));
    // demo has a position of -600.00 on A, but the stream carries nobody's position.
    assert!(
        book["runners"].as_array().unwrap().iter().all(|r| minor(&r["position"]) == 0),
        "{book}"
    );
    let mine = app.match_market(&demo, match_id, market).await;
    assert_eq!(minor(&mine["runners"][0]["position"]), -600_00);

    // A suspension is pushed too.
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": market, "status": "ball_running" }),
    )
    .await
    .expect(200);
    let (_, book) = read_until(&mut response, &mut buffer, |event, value| {
        event == "market" && value["status"] == "ball_running"
    })
    .await;
    assert_eq!(book["market_id"], market);
    let seen = std::sync::Mutex::new(Vec::new());
    read_until(&mut bystander, &mut bystander_buffer, |event, value| {
        seen.lock().unwrap().push(event.to_string());
        event == "market" && value["status"] == "ball_running"
    })
    .await;
    assert!(
        !seen.lock().unwrap().iter().any(|e| e == "mine"),
        "the bystander saw {:?}",
        seen.lock().unwrap()
    );
}
both_databases!(the_stream_pushes_book_changes_without_positions);

/// Creates an open match-odds market with runners A and B; answers its id and A's.
async fn open_match_odds(app: &TestApp, admin: &str, match_id: i64, name: &str) -> (i64, i64) {
    let created = app
        .post("admin/market/create", Some(admin), json!({ "match_id": match_id, "type": "match_odds", "name": name, "runners": ["A", "B"], "bet_delay_s": 0 }))
        .await;
    let market = created.data()["market_id"].as_i64().unwrap();
    let runner = created.data()["selection_ids"][0].as_i64().unwrap();
    app.post("admin/market/status", Some(admin), json!({ "market_id": market, "status": "open" }))
        .await
        .expect(200);
    (market, runner)
}

async fn the_list_stream_pushes_each_listed_matchs_odds_line(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let match_ids = |sport_id: i64| {
        let (app, demo) = (&app, &demo);
        async move {
            let matches =
                app.post("match/getMatches", Some(demo), json!({ "sport_id": sport_id })).await;
            matches
                .data()
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["match_id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    let cricket = match_ids(4).await;
    let football = match_ids(1).await;
    let (line, runner) = open_match_odds(&app, &admin, cricket[0], "Match Odds").await;
    // A second match-odds market of the same match is not the match's line (getMatches shows the first).
    let (second, second_runner) = open_match_odds(&app, &admin, cricket[0], "Second").await;
    let (goal_line, goal_runner) = open_match_odds(&app, &admin, football[0], "Match Odds").await;

    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    app.get("stream?list=4", None).await.expect(401);
    app.get(&format!("stream?list=cricket&ticket={ticket}"), None).await.expect(400);
    app.get(&format!("stream?list=0&ticket={ticket}"), None).await.expect(400);
    app.get(&format!("stream?list=4&match_id=1&ticket={ticket}"), None).await.expect(400);
    app.get(&format!("stream?list=999999&ticket={ticket}"), None).await.expect(404);

    let open = |list: &'static str| {
        let (app, ticket) = (&app, &ticket);
        async move {
            let response = app
                .client
                .get(format!("{}/stream?list={list}&ticket={ticket}", app.base))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 200);
            response
        }
    };
    let (mut cricket_stream, mut cricket_buffer) = (open("4").await, String::new());
    let (mut all_stream, mut all_buffer) = (open("all").await, String::new());
    let (_, snapshot) =
        read_until(&mut cricket_stream, &mut cricket_buffer, |event, _| event == "snapshot").await;
    assert_eq!(
        snapshot,
        json!([{ "match_id": cricket[0], "odds": { "market_id": line, "status": "open", "runners": [
            { "selection_id": runner, "name": "A", "back": null, "back_size": null, "lay": null, "lay_size": null },
            { "selection_id": runner + 1, "name": "B", "back": null, "back_size": null, "lay": null, "lay_size": null },
        ] } }]),
        "only the cricket match's first match-odds market is its line"
    );
    let (_, snapshot) =
        read_until(&mut all_stream, &mut all_buffer, |event, _| event == "snapshot").await;
    let mut in_all: Vec<i64> = snapshot
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["odds"]["market_id"].as_i64().unwrap())
        .collect();
    in_all.sort_unstable();
    assert_eq!(in_all, vec![line, goal_line]);

    // Bets on the second market and on football change nothing in the cricket list; a lay on
    // the line shows as its best back with the size, to both lists.
    for (market, selection) in [(second, second_runner), (goal_line, goal_runner), (line, runner)] {
        app.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": selection, "side": "lay", "price": 2.5, "stake": 400 }))
            .await
            .expect(200);
    }
    let seen = std::sync::Mutex::new(Vec::new());
    let (_, odds) = read_until(&mut cricket_stream, &mut cricket_buffer, |event, value| {
        seen.lock().unwrap().push(value["odds"]["market_id"].clone());
        event == "odds"
            && value["odds"]["market_id"] == line
            && value["odds"]["runners"][0]["back"] == 2.5
    })
    .await;
    assert_eq!(odds["match_id"], cricket[0]);
    assert_eq!(minor(&odds["odds"]["runners"][0]["back_size"]), 400_00);
    // An earlier change of the football line (its creation, before the lay) may still be on
    // its way: read until the lay's.
    let (_, goal) = read_until(&mut all_stream, &mut all_buffer, |event, value| {
        event == "odds"
            && value["odds"]["market_id"] == goal_line
            && value["odds"]["runners"][0]["back"] == 2.5
    })
    .await;
    assert_eq!(goal["match_id"], football[0]);
    assert_eq!(minor(&goal["odds"]["runners"][0]["back_size"]), 400_00);

    // A suspension is pushed; a line created after the stream opened (the second cricket
    // match's) is followed too.
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": line, "status": "ball_running" }),
    )
    .await
    .expect(200);
    let (new_line, new_runner) = open_match_odds(&app, &admin, cricket[1], "Match Odds").await;
    app.post("bet/placeBet", Some(&demo), json!({ "market_id": new_line, "selection_id": new_runner, "side": "back", "price": 3.0, "stake": 100 }))
        .await
        .expect(200);
    read_until(&mut cricket_stream, &mut cricket_buffer, |event, value| {
        seen.lock().unwrap().push(value["odds"]["market_id"].clone());
        event == "odds"
            && value["odds"]["market_id"] == line
            && value["odds"]["status"] == "ball_running"
    })
    .await;
    let (_, fresh) = read_until(&mut cricket_stream, &mut cricket_buffer, |event, value| {
        seen.lock().unwrap().push(value["odds"]["market_id"].clone());
        event == "odds"
            && value["odds"]["market_id"] == new_line
            && value["odds"]["runners"][0]["lay"] == 3.0
    })
    .await;
    assert_eq!(fresh["match_id"], cricket[1]);
    let seen = seen.into_inner().unwrap();
    assert!(
        !seen.contains(&json!(second)) && !seen.contains(&json!(goal_line)),
        "the cricket list saw {seen:?}"
    );
}
both_databases!(the_list_stream_pushes_each_listed_matchs_odds_line);
