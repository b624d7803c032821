//! A race card's facts about runners (admin/market/runnerCards): the draw, the jockey and the
//! trainer an operator gives (a feed's catalogue gives them itself), shown by match/matchDetail
//! for each runner that has any; only an admin sets them, and each is checked.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::TestApp;

/// The demo's first horse race with its win market's runners.
async fn a_race(app: &TestApp, admin: &str) -> (i64, i64, Vec<i64>) {
    let day = app.store().await.matches(&Default::default()).await.unwrap();
    let race = day.iter().find(|m| m.sport_id == 7).expect("a horse race").match_id;
    let (market_id, runners) = app
        .open_market(
            admin,
            race,
            json!({ "type": "win", "name": "Win", "runners": ["Red Rum", "Arkle", "Kauto Star"] }),
        )
        .await;
    (race, market_id, runners)
}

async fn cards(app: &TestApp, token: &str, match_id: i64) -> Vec<Value> {
    let detail = app.post("match/matchDetail", Some(token), json!({ "match_id": match_id })).await;
    detail.expect(200);
    detail.data()["runner_cards"].as_array().unwrap().clone()
}

async fn an_admin_gives_a_race_card_that_bettors_read(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let (race, market_id, runners) = a_race(&app, &admin).await;
    // Nobody gave anything: nothing is shown, nothing made up.
    assert_eq!(cards(&app, &demo, race).await, Vec::<Value>::new());

    let set = app
        .post(
            "admin/market/runnerCards",
            Some(&admin),
            json!({ "market_id": market_id, "runners": [
                { "selection_id": runners[0], "draw": 4, "jockey": "  R. Moore ", "trainer": "A. P. O'Brien" },
                { "selection_id": runners[1], "draw": "7" },
                { "selection_id": runners[2], "jockey": "" },
            ] }),
        )
        .await;
    set.expect(200);
    assert_eq!(set.message(), "Race card set for 3 runner(s).");
    // Only what was given; the third runner was given nothing and has no card.
    assert_eq!(
        cards(&app, &demo, race).await,
        vec![
            json!({ "selection_id": runners[0], "draw": 4, "jockey": "R. Moore", "trainer": "A. P. O'Brien" }),
            json!({ "selection_id": runners[1], "draw": 7, "jockey": null, "trainer": null }),
        ]
    );

    // A card given again replaces the old one; given nothing, it goes.
    app.post(
        "admin/market/runnerCards",
        Some(&admin),
        json!({ "market_id": market_id, "runners": [
            { "selection_id": runners[0], "trainer": "J. Gosden" },
            { "selection_id": runners[1] },
        ] }),
    )
    .await
    .expect(200);
    assert_eq!(
        cards(&app, &demo, race).await,
        vec![
            json!({ "selection_id": runners[0], "draw": null, "jockey": null, "trainer": "J. Gosden" })
        ]
    );
}
both_databases!(an_admin_gives_a_race_card_that_bettors_read);

async fn race_cards_are_an_admins_and_checked(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    let (race, market_id, runners) = a_race(&app, &admin).await;
    let body =
        json!({ "market_id": market_id, "runners": [{ "selection_id": runners[0], "draw": 1 }] });
    app.post("admin/market/runnerCards", Some(&demo), body.clone()).await.expect(403);
    app.post("admin/market/runnerCards", Some(&agent), body.clone()).await.expect(403);
    app.post("admin/market/runnerCards", None, body).await.expect(401);

    let refused = |runner: Value| json!({ "market_id": market_id, "runners": [runner] });
    for (runner, field, words) in [
        (json!({ "selection_id": runners[0], "draw": 0 }), "runners[0].draw", "1 to 99"),
        (json!({ "selection_id": runners[0], "draw": 100 }), "runners[0].draw", "1 to 99"),
        (
            json!({ "selection_id": runners[0], "jockey": "J".repeat(65) }),
            "runners[0].jockey",
            "64",
        ),
        (
            json!({ "selection_id": runners[0], "trainer": "T".repeat(65) }),
            "runners[0].trainer",
            "64",
        ),
        (
            json!({ "selection_id": 999_999, "draw": 2 }),
            "runners[0].selection_id",
            "not one of Win",
        ),
    ] {
        let answer =
            app.post("admin/market/runnerCards", Some(&admin), refused(runner.clone())).await;
        answer.expect(400);
        assert!(answer.field_error(field).contains(words), "{runner}: {}", answer.body);
    }
    let none = app
        .post(
            "admin/market/runnerCards",
            Some(&admin),
            json!({ "market_id": market_id, "runners": [] }),
        )
        .await;
    none.expect(400);
    assert!(none.field_error("runners").contains("1 to 64"), "{}", none.body);
    app.post(
        "admin/market/runnerCards",
        Some(&admin),
        json!({ "market_id": 987_654, "runners": [{ "selection_id": runners[0] }] }),
    )
    .await
    .expect(404);
    // Nothing refused was stored.
    assert_eq!(cards(&app, &demo, race).await, Vec::<Value>::new());
}
both_databases!(race_cards_are_an_admins_and_checked);
