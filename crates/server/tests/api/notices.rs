//! Notices: a bettor is told when a bet of theirs is matched later, lapses, is cancelled by the
//! exchange, or its market is settled or voided — live on every stream they have open and in
//! `GET user/notices` after a reload — and never of anyone else's bets.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{read_until, TestApp};

/// An open match-odds market (runners A and B, no bet delay) on the first cricket match;
/// answers (match id, market id, A's selection id).
async fn open_market(app: &TestApp, admin: &str, name: &str) -> (i64, i64, i64) {
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = app
        .open_market(
            admin,
            match_id,
            json!({ "type": "match_odds", "name": name, "runners": ["A", "B"], "bet_delay_s": 0 }),
        )
        .await;
    (match_id, market, runners[0])
}

/// A live stream of `query` (e.g. `notices=1`) opened with `token`'s ticket.
async fn open_stream(app: &TestApp, token: &str, query: &str) -> (reqwest::Response, String) {
    let ticket = app.post("stream/ticket", Some(token), json!({})).await;
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let response = app
        .client
        .get(format!("{}/stream?{query}&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200, "stream?{query}");
    (response, String::new())
}

async fn notices(app: &TestApp, token: &str) -> Value {
    let answer = app.get("user/notices", Some(token)).await;
    answer.expect(200);
    answer.data().clone()
}

fn bet(market: i64, selection: i64, side: &str, price: f64, stake: i64) -> Value {
    json!({ "market_id": market, "selection_id": selection, "side": side, "price": price, "stake": stake })
}

async fn a_bet_matched_later_is_told_live_and_after_a_reload(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let (match_id, market, a) = open_market(&app, &admin, "Told").await;
    let placed = app.post("bet/placeBet", Some(&demo), bet(market, a, "lay", 2.5, 400)).await;
    placed.expect(200);
    let bet_id = placed.data()["bet_id"].as_i64().unwrap();

    // demo's streams: the notices alone, and the match's (notices ride on it too); demo2's
    // match stream, which must carry none of demo's.
    let (mut alone, mut alone_buffer) = open_stream(&app, &demo, "notices=1").await;
    let (mut on_match, mut match_buffer) =
        open_stream(&app, &demo, &format!("match_id={match_id}")).await;
    read_until(&mut on_match, &mut match_buffer, |event, _| event == "snapshot").await;
    let (mut other, mut other_buffer) =
        open_stream(&app, &demo2, &format!("match_id={match_id}")).await;
    read_until(&mut other, &mut other_buffer, |event, _| event == "snapshot").await;

    // demo2 takes 150 of the 400: demo's lay is partly matched, later than it was placed.
    app.post("bet/placeBet", Some(&demo2), bet(market, a, "back", 2.5, 150)).await.expect(200);
    let (_, partly) = read_until(&mut alone, &mut alone_buffer, |event, _| event == "notice").await;
    assert_eq!(partly["kind"], "partially_matched", "{partly}");
    assert_eq!(partly["bet_id"], bet_id);
    assert_eq!(partly["market_id"], market);
    assert_eq!(partly["match_id"], match_id);
    assert!(
        partly["text"]
            .as_str()
            .unwrap()
            .starts_with("₹150.00 of your ₹400.00 lay bet on A at 2.50 matched; the rest waits"),
        "{partly}"
    );
    let (_, same) =
        read_until(&mut on_match, &mut match_buffer, |event, _| event == "notice").await;
    assert_eq!(same, partly, "the match stream carries the same notice");

    // The other 250: wholly matched now.
    app.post("bet/placeBet", Some(&demo2), bet(market, a, "back", 2.5, 250)).await.expect(200);
    let (_, whole) = read_until(&mut alone, &mut alone_buffer, |event, _| event == "notice").await;
    assert_eq!(whole["kind"], "matched", "{whole}");
    assert!(whole["text"].as_str().unwrap().contains("is fully matched"), "{whole}");

    // After a reload: both, newest first, unread until marked read.
    let listed = notices(&app, &demo).await;
    assert_eq!(listed["total"], 2, "{listed}");
    assert_eq!(listed["unread"], 2);
    assert_eq!(listed["rows"][0], whole);
    assert_eq!(listed["rows"][1], partly);
    let read =
        app.post("user/notices/read", Some(&demo), json!({ "up_to_id": partly["id"] })).await;
    read.expect(200);
    assert_eq!(read.data()["last_read_id"], partly["id"]);
    assert_eq!(notices(&app, &demo).await["unread"], 1);
    // Never backwards; an id past the newest marks them all.
    app.post("user/notices/read", Some(&demo), json!({ "up_to_id": 0 })).await.expect(200);
    assert_eq!(notices(&app, &demo).await["unread"], 1);
    app.post("user/notices/read", Some(&demo), json!({ "up_to_id": 1_000_000_000 }))
        .await
        .expect(200);
    assert_eq!(notices(&app, &demo).await["unread"], 0);

    // demo2's bets matched at once: nothing to tell them, and nothing of demo's.
    assert_eq!(notices(&app, &demo2).await["total"], 0);
    // The settlement: each bettor told their result once. A wins: demo's lay loses 600.00.
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": a }),
    )
    .await
    .expect(200);
    let (_, settled) =
        read_until(&mut alone, &mut alone_buffer, |event, _| event == "notice").await;
    assert_eq!(settled["kind"], "settled", "{settled}");
    assert_eq!(settled["bet_id"], Value::Null);
    assert!(settled["text"].as_str().unwrap().contains("settled: you lost ₹600.00."), "{settled}");
    let (_, won) = read_until(&mut other, &mut other_buffer, |event, _| event == "notice").await;
    assert_eq!(won["kind"], "settled", "demo2's stream: only demo2's own notice: {won}");
    assert!(won["text"].as_str().unwrap().contains("you won ₹600.00"), "{won}");
    let theirs = notices(&app, &demo2).await;
    assert_eq!(theirs["total"], 1, "{theirs}");
    assert_eq!(theirs["rows"][0], won);
    assert_eq!(notices(&app, &demo).await["total"], 3);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_bet_matched_later_is_told_live_and_after_a_reload);

async fn lapses_cancels_and_voids_are_told_to_their_bettors(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let (_, market, a) = open_market(&app, &admin, "Lapsing").await;
    // The list stream carries notices too.
    let (mut list, mut buffer) = open_stream(&app, &demo, "list=all").await;
    read_until(&mut list, &mut buffer, |event, _| event == "snapshot").await;

    // A LAPSE back (the default) and a PERSIST one; the suspension lapses the first only.
    let lapsing = app.post("bet/placeBet", Some(&demo), bet(market, a, "back", 3.0, 100)).await;
    lapsing.expect(200);
    let mut kept = bet(market, a, "back", 3.5, 300);
    kept["persistence"] = json!("persist");
    let kept = app.post("bet/placeBet", Some(&demo), kept).await;
    kept.expect(200);
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": market, "status": "suspended" }),
    )
    .await
    .expect(200);
    let (_, lapsed) = read_until(&mut list, &mut buffer, |event, _| event == "notice").await;
    assert_eq!(lapsed["kind"], "lapsed", "{lapsed}");
    assert_eq!(lapsed["bet_id"], lapsing.data()["bet_id"]);
    assert!(
        lapsed["text"]
            .as_str()
            .unwrap()
            .starts_with("₹100.00 unmatched of your ₹100.00 back bet on A at 3.00 lapsed"),
        "{lapsed}"
    );

    // A bettor's own cancel is no notice.
    app.post("admin/market/status", Some(&admin), json!({ "market_id": market, "status": "open" }))
        .await
        .expect(200);
    let own = app.post("bet/placeBet", Some(&demo2), bet(market, a, "lay", 1.5, 100)).await;
    own.expect(200);
    app.post("bet/cancelBet", Some(&demo2), json!({ "bet_id": own.data()["bet_id"] }))
        .await
        .expect(200);
    assert_eq!(notices(&app, &demo2).await["total"], 0);

    // The void: demo's persisting bet never matched, so it is told cancelled; demo2, with a
    // matched bet, is told the market is void.
    app.post("bet/placeBet", Some(&demo2), bet(market, a, "lay", 3.5, 100)).await.expect(200);
    let (_, matched) = read_until(&mut list, &mut buffer, |event, _| event == "notice").await;
    assert_eq!(matched["kind"], "partially_matched", "{matched}");
    app.post("admin/market/void", Some(&admin), json!({ "market_id": market })).await.expect(200);
    let (_, voided) = read_until(&mut list, &mut buffer, |event, _| event == "notice").await;
    assert_eq!(voided["kind"], "voided", "{voided}");
    assert!(voided["text"].as_str().unwrap().contains("is void"), "{voided}");
    let theirs = notices(&app, &demo2).await;
    assert_eq!(theirs["total"], 1, "{theirs}");
    assert_eq!(theirs["rows"][0]["kind"], "voided");
    let kinds: Vec<Value> = notices(&app, &demo).await["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].clone())
        .collect();
    assert_eq!(kinds, vec![json!("voided"), json!("partially_matched"), json!("lapsed")]);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(lapses_cancels_and_voids_are_told_to_their_bettors);

async fn a_settled_market_whose_bet_never_matched_tells_it_cancelled(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let (_, market, a) = open_market(&app, &admin, "Unmatched").await;
    let mut resting = bet(market, a, "back", 4.0, 100);
    resting["persistence"] = json!("persist");
    let resting = app.post("bet/placeBet", Some(&demo), resting).await;
    resting.expect(200);
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market, "winner_selection_id": a }),
    )
    .await
    .expect(200);
    let listed = notices(&app, &demo).await;
    assert_eq!(listed["total"], 1, "{listed}");
    assert_eq!(listed["rows"][0]["kind"], "cancelled");
    assert_eq!(listed["rows"][0]["bet_id"], resting.data()["bet_id"]);
    assert!(
        listed["rows"][0]["text"].as_str().unwrap().contains("was cancelled by the exchange"),
        "{listed}"
    );
}
both_databases!(a_settled_market_whose_bet_never_matched_tells_it_cancelled);

async fn bad_notice_requests_are_refused_with_reasons(app: TestApp) {
    let demo = app.demo().await;
    app.get("user/notices", None).await.expect(401);
    for (query, field) in
        [("limit=0", "limit"), ("limit=101", "limit"), ("limit=abc", "limit"), ("page=0", "page")]
    {
        let answer = app.get(&format!("user/notices?{query}"), Some(&demo)).await;
        answer.expect(400);
        assert!(!answer.field_error(field).is_empty(), "{query}: {}", answer.body);
    }
    let page = app.get("user/notices?page=3&limit=5", Some(&demo)).await;
    page.expect(200);
    assert_eq!(page.data()["page"], 3);
    assert_eq!(page.data()["limit"], 5);
    let negative = app.post("user/notices/read", Some(&demo), json!({ "up_to_id": -1 })).await;
    negative.expect(400);
    assert!(negative.field_error("up_to_id").contains("0 or more"), "{}", negative.body);
    app.post("user/notices/read", Some(&demo), json!({})).await.expect(400);
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await;
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let wrong = app.get(&format!("stream?notices=2&ticket={ticket}"), None).await;
    wrong.expect(400);
    assert!(wrong.field_error("notices").contains("notices=1"), "{}", wrong.body);
    app.get(&format!("stream?notices=1&match_id=1&ticket={ticket}"), None).await.expect(400);
}
both_databases!(bad_notice_requests_are_refused_with_reasons);

/// A runner withdrawn: its matched bets are void and every unmatched bet of the market is
/// cancelled (a reduction factor over the threshold reprices the rest): each bettor is told.
async fn a_withdrawn_runner_tells_its_bettors_void_and_cancelled(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Withdrawn", "runners": ["Home", "Away", "Draw"], "bet_delay_s": 0 }))
        .await;
    let (away, draw) = (runners[1], runners[2]);
    let on_away = app.post("bet/placeBet", Some(&demo), bet(market, away, "back", 3.0, 300)).await;
    on_away.expect(200);
    app.post("bet/placeBet", Some(&demo2), bet(market, away, "lay", 3.0, 100)).await.expect(200);
    let on_draw = app.post("bet/placeBet", Some(&demo2), bet(market, draw, "back", 5.0, 100)).await;
    on_draw.expect(200);
    app.post(
        "admin/market/removeRunner",
        Some(&admin),
        json!({ "market_id": market, "selection_id": away, "reduction_factor": 30 }),
    )
    .await
    .expect(200);
    // demo's back on Away matched 100: void (its unmatched rest goes unsaid).
    let mine = notices(&app, &demo).await;
    let kinds: Vec<&Value> = mine["rows"].as_array().unwrap().iter().map(|n| &n["kind"]).collect();
    assert_eq!(kinds, vec!["voided", "partially_matched"], "{mine}");
    assert_eq!(mine["rows"][0]["bet_id"], on_away.data()["bet_id"]);
    assert!(
        mine["rows"][0]["text"].as_str().unwrap().contains("is void: the ₹100.00 matched"),
        "{mine}"
    );
    // demo2's lay on Away (matched at once) void; the unmatched back on Draw cancelled.
    let theirs = notices(&app, &demo2).await;
    let told: Vec<(Value, Value)> = theirs["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["kind"].clone(), n["bet_id"].clone()))
        .collect();
    assert!(told.contains(&(json!("cancelled"), on_draw.data()["bet_id"].clone())), "{theirs}");
    assert_eq!(told.iter().filter(|(kind, _)| kind == "voided").count(), 1, "{theirs}");
    assert_eq!(told.len(), 2, "{theirs}");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_withdrawn_runner_tells_its_bettors_void_and_cancelled);
