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
    let detail = app.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await;
    let mine = detail.data()["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["market_id"] == market)
        .unwrap()
        .clone();
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
