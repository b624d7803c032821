//! Two nodes on one database (issue 16): what one server process used to keep in memory is in
//! the database, so a second node sees it. Each test drives the app and a second node on the
//! same database (`TestApp::second_node`).

use serde_json::json;

use crate::both_databases;
use crate::common::{read_until, TestApp};

async fn failures_on_one_node_block_the_name_on_another(app: TestApp) {
    let other = app.second_node().await;
    for _ in 0..4 {
        app.login_answer("demo2", "Wrong@1234").await.expect(400);
    }
    // The fifth failure, on the other node, reaches the limit of five.
    other.login_answer("demo2", "Wrong@1234").await.expect(400);
    for node in [&app, &other] {
        let blocked = node.login_answer("DEMO2", "Demo@1234").await;
        blocked.expect(429);
        assert!(
            blocked.message().contains("Too many failed log-in attempts"),
            "{}",
            blocked.message()
        );
    }
    // Another name from the same address logs in on either node.
    other.login_answer("demo", "Demo@1234").await.expect(200);
    app.login_answer("demo", "Demo@1234").await.expect(200);
}
both_databases!(failures_on_one_node_block_the_name_on_another);

async fn a_burst_across_two_nodes_gets_no_more_checks_than_the_limit(app: TestApp) {
    let other = app.second_node().await;
    // 20 wrong passwords for one name at once, half through each node.
    let burst: Vec<_> = (0..20)
        .map(|i| if i % 2 == 0 { &app } else { &other }.spawn_login("demo2", "Wrong@1234"))
        .collect();
    let mut checked = 0;
    for answer in burst {
        let answer = answer.await.unwrap();
        match answer.status.as_u16() {
            400 => checked += 1,
            429 => {}
            status => panic!("unexpected {status}: {:?}", answer.body),
        }
    }
    assert_eq!(checked, 5, "five passwords checked across both nodes, the rest refused");
}
both_databases!(a_burst_across_two_nodes_gets_no_more_checks_than_the_limit);

async fn a_ticket_issued_on_one_node_opens_a_stream_on_another(app: TestApp) {
    let other = app.second_node().await;
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await;
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let mut response = other
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={ticket}", other.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut buffer = String::new();
    let (event, _) = read_until(&mut response, &mut buffer, |event, _| event == "snapshot").await;
    assert_eq!(event, "snapshot");
    // A ticket nobody issued opens nothing on either node.
    for node in [&app, &other] {
        node.get(&format!("stream?match_id={match_id}&ticket=made-up"), None).await.expect(401);
    }
}
both_databases!(a_ticket_issued_on_one_node_opens_a_stream_on_another);

async fn a_user_keeps_only_the_newest_tickets(app: TestApp) {
    let demo = app.demo().await;
    let mut tickets = Vec::new();
    for _ in 0..25 {
        let ticket = app.post("stream/ticket", Some(&demo), json!({})).await;
        tickets.push(ticket.data()["ticket"].as_str().unwrap().to_string());
    }
    let demo_id = app.user_id(&app.admin().await, "demo").await;
    let stored = app.store().await.stream_tickets_stored(demo_id).await.unwrap();
    assert_eq!(stored, backlay_store::tickets::MAX_TICKETS_PER_USER);
    let newest = tickets.last().unwrap();
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let response = app
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={newest}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200, "the newest ticket still opens a stream");
    let oldest = &tickets[0];
    app.get(&format!("stream?match_id={match_id}&ticket={oldest}"), None).await.expect(401);
}
both_databases!(a_user_keeps_only_the_newest_tickets);
