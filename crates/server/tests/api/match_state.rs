//! A match's live state (admin/match/score): the score and result an operator or feed sets,
//! checked, carried by match/matchDetail and match/getMatches and pushed on the match's stream;
//! and finished matches (every market settled) leaving the lists.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{read_until, TestApp};

/// The first listed match of a sport: (id, name).
async fn first_match(app: &TestApp, token: &str, sport_id: i64) -> (i64, String) {
    let answer = app.post("match/getMatches", Some(token), json!({ "sport_id": sport_id })).await;
    answer.expect(200);
    let first = &answer.data()[0];
    (first["match_id"].as_i64().unwrap(), first["name"].as_str().unwrap().to_string())
}

fn sides(name: &str) -> (String, String) {
    let (home, away) = name.split_once(" v ").expect("an A v B match");
    (home.to_string(), away.to_string())
}

fn chase(home: &str, away: &str) -> Value {
    json!({
        "sport": "cricket",
        "overs_limit": 20,
        "innings": [
            { "side": home, "runs": 180, "wickets": 6, "overs": 20, "balls": 0 },
            { "side": away, "runs": 45, "wickets": 2, "overs": 5, "balls": 0 }
        ],
        "last_balls": ["1", "4", "w", "0", "6", "."]
    })
}

async fn detail(app: &TestApp, token: &str, match_id: i64) -> Value {
    let answer = app.post("match/matchDetail", Some(token), json!({ "match_id": match_id })).await;
    answer.expect(200);
    answer.data().clone()
}

async fn listed(app: &TestApp, token: &str, match_id: i64) -> Option<Value> {
    let answer = app.post("match/getMatches", Some(token), json!({})).await;
    answer.expect(200);
    answer.data().as_array().unwrap().iter().find(|m| m["match_id"] == match_id).cloned()
}

async fn an_admin_sets_a_cricket_score_that_bettors_read(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let (match_id, name) = first_match(&app, &demo, 4).await;
    let (home, away) = sides(&name);
    let before = detail(&app, &demo, match_id).await;
    assert_eq!(before["match"]["score"], Value::Null);
    assert_eq!(before["match"]["result"], Value::Null);

    let set = app
        .post(
            "admin/match/score",
            Some(&admin),
            json!({ "match_id": match_id, "score": chase(&home, &away) }),
        )
        .await;
    set.expect(200);
    assert_eq!(set.data()["match_id"], match_id);

    let the_match = detail(&app, &demo, match_id).await["match"].clone();
    let score = &the_match["score"];
    assert_eq!(score["sport"], "cricket");
    assert_eq!(score["innings"][1]["side"], away.as_str());
    assert_eq!(score["innings"][1]["overs_text"], "5.0");
    assert_eq!(score["run_rate"], 9.0);
    assert_eq!(score["target"], 181);
    assert_eq!(score["runs_needed"], 136);
    assert_eq!(score["required_rate"], 9.07);
    assert_eq!(score["last_balls"], json!(["1", "4", "W", "0", "6", "."]));
    assert_eq!(the_match["result"], Value::Null);

    // getMatches carries the score only while the match is in play.
    let row = listed(&app, &demo, match_id).await.expect("listed");
    assert_eq!(
        row["score"]["sport"],
        if row["in_play"] == true { json!("cricket") } else { Value::Null }
    );
    app.post("admin/match/inPlay", Some(&admin), json!({ "match_id": match_id, "in_play": 1 }))
        .await
        .expect(200);
    let row = listed(&app, &demo, match_id).await.expect("listed");
    assert_eq!(row["in_play"], true);
    assert_eq!(row["score"]["target"], 181);

    // A result alone keeps the score; the match is no longer in play.
    let result = format!("{home} won by 20 runs");
    app.post("admin/match/score", Some(&admin), json!({ "match_id": match_id, "result": result }))
        .await
        .expect(200);
    let the_match = detail(&app, &demo, match_id).await["match"].clone();
    assert_eq!(the_match["result"], result.as_str());
    assert_eq!(the_match["score"]["target"], 181);
    assert_eq!(the_match["in_play"], false);
    let row = listed(&app, &demo, match_id).await.expect("still listed until settled");
    assert_eq!(row["in_play"], false);
    assert_eq!(row["score"], Value::Null);

    // null clears.
    app.post(
        "admin/match/score",
        Some(&admin),
        json!({ "match_id": match_id, "score": null, "result": null }),
    )
    .await
    .expect(200);
    let the_match = detail(&app, &demo, match_id).await["match"].clone();
    assert_eq!(
        (the_match["score"].clone(), the_match["result"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(the_match["in_play"], true);

    // Declaring the result is in the audit log.
    let audit = app.post("admin/audit", Some(&admin), json!({})).await;
    let actions: Vec<&str> = audit.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["target"] == format!("match:{match_id}"))
        .map(|r| r["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions.iter().filter(|a| **a == "match.result").count(), 2, "{actions:?}");
}
both_databases!(an_admin_sets_a_cricket_score_that_bettors_read);

async fn a_bad_score_is_refused_with_its_field(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let (match_id, name) = first_match(&app, &demo, 4).await;
    let (home, away) = sides(&name);
    let set = |body: Value| {
        let mut body = body;
        body["match_id"] = json!(match_id);
        app.post("admin/match/score", Some(&admin), body)
    };
    let mut too_many_wickets = chase(&home, &away);
    too_many_wickets["innings"][1]["wickets"] = json!(11);
    let answer = set(json!({ "score": too_many_wickets })).await;
    answer.expect(400);
    assert_eq!(answer.field_error("score.innings[1].wickets"), "wickets must be 0 to 10.");

    let mut bad_ball = chase(&home, &away);
    bad_ball["last_balls"][2] = json!("9");
    let answer = set(json!({ "score": bad_ball })).await;
    answer.expect(400);
    assert!(
        answer.field_error("score.last_balls[2]").contains("not a delivery"),
        "{}",
        answer.body
    );

    let answer =
        set(json!({ "score": { "sport": "football", "goals": [1, 0], "minute": 20 } })).await;
    answer.expect(400);
    assert_eq!(
        answer.field_error("score.sport"),
        "This match takes a cricket score, not a football one."
    );
    set(json!({ "score": { "sport": "darts" } })).await.expect(400);
    let answer = set(json!({ "result": "  " })).await;
    answer.expect(400);
    assert!(answer.field_error("result").contains("send null to clear"), "{}", answer.body);
    let answer = set(json!({})).await;
    answer.expect(400);
    assert_eq!(answer.field_error("score"), "Give a score, a result or both.");
    app.post("admin/match/score", Some(&admin), json!({ "match_id": 999999, "result": "x won" }))
        .await
        .expect(404);

    // An agent is an operator but not an admin; a client is neither.
    let agent = app.agent().await;
    let answer = app
        .post("admin/match/score", Some(&agent), json!({ "match_id": match_id, "result": "x won" }))
        .await;
    answer.expect(403);
    assert!(answer.message().contains("Only an admin"), "{}", answer.message());
    app.post("admin/match/score", Some(&demo), json!({ "match_id": match_id, "result": "x won" }))
        .await
        .expect(403);
    // Nothing was stored.
    let the_match = detail(&app, &demo, match_id).await["match"].clone();
    assert_eq!(
        (the_match["score"].clone(), the_match["result"].clone()),
        (Value::Null, Value::Null)
    );
}
both_databases!(a_bad_score_is_refused_with_its_field);

async fn football_tennis_and_race_scores(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    for (sport, score) in [
        (1, json!({ "sport": "football", "goals": [2, 1], "minute": 67 })),
        (2, json!({ "sport": "tennis", "sets": [1, 0], "games": [3, 2], "serving": 1 })),
    ] {
        let (match_id, _) = first_match(&app, &demo, sport).await;
        app.post(
            "admin/match/score",
            Some(&admin),
            json!({ "match_id": match_id, "score": score }),
        )
        .await
        .expect(200);
        assert_eq!(detail(&app, &demo, match_id).await["match"]["score"], score);
    }
    let day = app.store().await.matches(&Default::default()).await.unwrap();
    let race = day.iter().find(|m| m.sport_id == 7).expect("a horse race");
    let placings = json!({ "sport": "race", "placings": ["Red Rum", "Arkle", "Kauto Star"] });
    app.post(
        "admin/match/score",
        Some(&admin),
        json!({ "match_id": race.match_id, "score": placings, "result": "Won by Red Rum" }),
    )
    .await
    .expect(200);
    let the_match = detail(&app, &demo, race.match_id).await["match"].clone();
    assert_eq!(the_match["score"]["placings"][0], "Red Rum");
    assert_eq!(the_match["result"], "Won by Red Rum");
    // The race list marks it finished, and only it: its venue's other races are still to run.
    let ist =
        time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(race.open_date_ms) * 1_000_000)
            .unwrap()
            + time::Duration::minutes(330);
    let day = format!("{:04}-{:02}-{:02}", ist.year(), u8::from(ist.month()), ist.day());
    let meetings = app
        .post(
            "match/getMatchVenueListByCountryCodeSportId",
            Some(&demo),
            json!({ "country": race.country_code, "date": day, "sport_id": 7 }),
        )
        .await;
    meetings.expect(200);
    let races: Vec<(i64, Value)> = meetings
        .data()
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|venue| venue["races"].as_array().unwrap().clone())
        .map(|r| (r["match_id"].as_i64().unwrap(), r["finished"].clone()))
        .collect();
    assert!(races.contains(&(race.match_id, json!(true))), "{races:?}");
    assert!(races.iter().filter(|(id, _)| *id != race.match_id).all(|(_, f)| *f == json!(false)));
    assert!(races.len() > 1, "{races:?}");
}
both_databases!(football_tennis_and_race_scores);

async fn the_stream_sends_the_score_after_the_snapshot_and_on_each_change(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let (match_id, name) = first_match(&app, &demo, 4).await;
    let (home, away) = sides(&name);
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut response = app
        .client
        .get(format!("{}/stream?match_id={match_id}&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    let mut buffer = String::new();
    let (first, _) = read_until(&mut response, &mut buffer, |_, _| true).await;
    assert_eq!(first, "snapshot");
    let (event, current) = read_until(&mut response, &mut buffer, |_, _| true).await;
    assert_eq!(event, "score");
    assert_eq!(current["match_id"], match_id);
    assert_eq!(current["score"], Value::Null);

    app.post(
        "admin/match/score",
        Some(&admin),
        json!({ "match_id": match_id, "score": chase(&home, &away) }),
    )
    .await
    .expect(200);
    let (_, pushed) = read_until(&mut response, &mut buffer, |event, _| event == "score").await;
    assert_eq!(pushed["score"]["innings"][1]["runs"], 45);
    assert_eq!(pushed["score"]["required_rate"], 9.07);
    assert_eq!(pushed["result"], Value::Null);

    app.post(
        "admin/match/score",
        Some(&admin),
        json!({ "match_id": match_id, "result": format!("{home} won by 20 runs") }),
    )
    .await
    .expect(200);
    let (_, ended) = read_until(&mut response, &mut buffer, |event, _| event == "score").await;
    assert_eq!(ended["result"], format!("{home} won by 20 runs"));
    assert_eq!(ended["in_play"], false);
    assert_eq!(ended["score"]["innings"][0]["runs"], 180);

    // Turning the match in play is news for its page too.
    app.post("admin/match/score", Some(&admin), json!({ "match_id": match_id, "result": null }))
        .await
        .expect(200);
    read_until(&mut response, &mut buffer, |event, _| event == "score").await;
    app.post("admin/match/inPlay", Some(&admin), json!({ "match_id": match_id, "in_play": 1 }))
        .await
        .expect(200);
    let (_, started) = read_until(&mut response, &mut buffer, |event, _| event == "score").await;
    assert_eq!(started["in_play"], true);
    assert_eq!(started["score"]["innings"][1]["runs"], 45);

    // Another match's score is not sent on this stream.
    let other = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await.data()[1]
        ["match_id"]
        .as_i64()
        .unwrap();
    app.post(
        "admin/match/score",
        Some(&admin),
        json!({ "match_id": other, "result": "Other won" }),
    )
    .await
    .expect(200);
    app.post("admin/match/score", Some(&admin), json!({ "match_id": match_id, "result": "Last" }))
        .await
        .expect(200);
    let (_, next) = read_until(&mut response, &mut buffer, |event, _| event == "score").await;
    assert_eq!(next["match_id"], match_id);
    assert_eq!(next["result"], "Last");
}
both_databases!(the_stream_sends_the_score_after_the_snapshot_and_on_each_change);

/// Whether searching for the match's name finds it.
async fn found_by_search(app: &TestApp, token: &str, match_id: i64, name: &str) -> bool {
    let answer =
        app.post("match/searchByMatchNameHeader", Some(token), json!({ "search": name })).await;
    answer.expect(200);
    answer
        .data()
        .as_object()
        .unwrap()
        .values()
        .flat_map(|hits| hits.as_array().unwrap().clone())
        .any(|hit| hit["match_id"] == match_id)
}

async fn a_settled_match_leaves_the_lists_and_settled_fancies_leave_the_page(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let (match_id, name) = first_match(&app, &demo, 4).await;
    let (odds, runners) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"] }),
        )
        .await;
    let (fancy, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "fancy", "name": "6 over runs", "runners": [] }),
        )
        .await;
    assert!(listed(&app, &demo, match_id).await.unwrap()["odds"].is_object());
    assert!(found_by_search(&app, &demo, match_id, &name).await);

    // The fancy is resulted: it leaves the match page; the match stays listed.
    app.post("admin/market/result", Some(&admin), json!({ "market_id": fancy, "result": 52 }))
        .await
        .expect(200);
    let markets = detail(&app, &demo, match_id).await["markets"].clone();
    let ids: Vec<i64> =
        markets.as_array().unwrap().iter().map(|m| m["market_id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [odds]);
    assert!(listed(&app, &demo, match_id).await.is_some());

    // The match odds are settled too: the match is finished and leaves getMatches, search and
    // the sidebar's series (when it was the series' only match).
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": odds, "winner_selection_id": runners[0] }),
    )
    .await
    .expect(200);
    assert!(listed(&app, &demo, match_id).await.is_none());
    assert!(!found_by_search(&app, &demo, match_id, &name).await);
    let the_match = detail(&app, &demo, match_id).await["match"].clone();
    assert_eq!(the_match["finished"], true);
    assert_eq!(the_match["in_play"], false);
    let sidebar_matches = app
        .store()
        .await
        .matches(&backlay_store::catalogue::MatchFilter { listed_only: true, ..Default::default() })
        .await
        .unwrap();
    assert!(sidebar_matches.iter().all(|m| m.match_id != match_id));
}
both_databases!(a_settled_match_leaves_the_lists_and_settled_fancies_leave_the_page);

async fn a_list_stream_sends_the_scores_of_its_sport(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let (cricket, name) = first_match(&app, &demo, 4).await;
    let (football, _) = first_match(&app, &demo, 1).await;
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut response =
        app.client.get(format!("{}/stream?list=4&ticket={ticket}", app.base)).send().await.unwrap();
    let mut buffer = String::new();
    read_until(&mut response, &mut buffer, |event, _| event == "snapshot").await;
    // A football score is not the cricket list's; the cricket one that follows is.
    let goals = json!({ "sport": "football", "goals": [1, 0], "minute": 3 });
    app.post("admin/match/score", Some(&admin), json!({ "match_id": football, "score": goals }))
        .await
        .expect(200);
    let (home, away) = sides(&name);
    app.post(
        "admin/match/score",
        Some(&admin),
        json!({ "match_id": cricket, "score": chase(&home, &away) }),
    )
    .await
    .expect(200);
    let (_, score) = read_until(&mut response, &mut buffer, |event, _| event == "score").await;
    assert_eq!(score["match_id"], cricket);
    assert_eq!(score["sport_id"], 4);
    assert_eq!(score["score"]["target"], 181);
}
both_databases!(a_list_stream_sends_the_scores_of_its_sport);

async fn a_list_stream_opened_after_a_score_was_set_sends_it_after_its_snapshot(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let (cricket, name) = first_match(&app, &demo, 4).await;
    let (home, away) = sides(&name);
    // Set before the stream opens: a page that fetched the list just before would miss it.
    app.post(
        "admin/match/score",
        Some(&admin),
        json!({ "match_id": cricket, "score": chase(&home, &away) }),
    )
    .await
    .expect(200);
    let ticket = app.post("stream/ticket", Some(&demo), json!({})).await.data()["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut response =
        app.client.get(format!("{}/stream?list=4&ticket={ticket}", app.base)).send().await.unwrap();
    let mut buffer = String::new();
    read_until(&mut response, &mut buffer, |event, _| event == "snapshot").await;
    let (_, score) = read_until(&mut response, &mut buffer, |event, data| {
        event == "score" && data["match_id"] == json!(cricket)
    })
    .await;
    assert_eq!(score["score"]["target"], 181);
}
both_databases!(a_list_stream_opened_after_a_score_was_set_sends_it_after_its_snapshot);
