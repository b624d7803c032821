//! The caller's balance and stake buttons.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{minor, TestApp};

async fn balance_shows_total_liability_and_available(app: TestApp) {
    let token = app.demo().await;
    let answer = app.get("user/getUserBalance", Some(&token)).await;
    answer.expect(200);
    assert_eq!(minor(&answer.data()["total_balance"]), 100_000_00);
    assert_eq!(minor(&answer.data()["liability"]), 0);
    assert_eq!(minor(&answer.data()["available"]), 100_000_00);
    let demo2 = app.login("demo2", "Demo@1234").await;
    assert_eq!(app.balance_minor(&demo2).await, 50_000_00);
}
both_databases!(balance_shows_total_liability_and_available);

async fn buttons(app: &TestApp, token: &str) -> Vec<Value> {
    let answer = app.get("user/getButtonValue", Some(token)).await;
    answer.expect(200);
    let text =
        answer.data().as_str().expect("data is a JSON string, as the spec's client reads it");
    serde_json::from_str(text).unwrap()
}

async fn every_user_starts_with_game_and_casino_presets(app: TestApp) {
    let token = app.demo().await;
    let list = buttons(&app, &token).await;
    let game: Vec<&Value> = list.iter().filter(|b| b["type"] == "Game").collect();
    let casino: Vec<&Value> = list.iter().filter(|b| b["type"] == "Casino").collect();
    assert_eq!(game.len(), 8);
    assert_eq!(casino.len(), 6);
    assert_eq!(game[2]["button_name"], "1k");
    assert_eq!(minor(&game[2]["button_value"]), 1_000_00);
    assert!(list.iter().all(|b| minor(&b["button_value"]) > 0));
}
both_databases!(every_user_starts_with_game_and_casino_presets);

async fn set_button_value_replaces_the_lists_sent(app: TestApp) {
    let token = app.demo().await;
    let answer = app
        .post(
            "user/setButtonValue",
            Some(&token),
            json!([
                { "button_name": "2k", "button_value": 2000, "type": "Game" },
                { "button_name": "7.5k", "button_value": "7500.50", "type": "Game" },
                { "button_name": "x", "button_value": 1, "type": "Game" }
            ]),
        )
        .await;
    answer.expect(200);
    assert_eq!(answer.message(), "Button values updated.");
    let list = buttons(&app, &token).await;
    let game: Vec<(String, i64)> = list
        .iter()
        .filter(|b| b["type"] == "Game")
        .map(|b| (b["button_name"].as_str().unwrap().to_string(), minor(&b["button_value"])))
        .collect();
    assert_eq!(game, vec![("2k".into(), 2_000_00), ("7.5k".into(), 7_500_50), ("x".into(), 1_00)]);
    // Casino was not sent, so it keeps the presets; another user is untouched.
    assert_eq!(list.iter().filter(|b| b["type"] == "Casino").count(), 6);
    let demo2 = app.login("demo2", "Demo@1234").await;
    assert_eq!(buttons(&app, &demo2).await.iter().filter(|b| b["type"] == "Game").count(), 8);
}
both_databases!(set_button_value_replaces_the_lists_sent);

async fn set_button_value_refuses_bad_entries_and_saves_nothing(app: TestApp) {
    let token = app.demo().await;
    let answer = app
        .post(
            "user/setButtonValue",
            Some(&token),
            json!([
                { "button_name": "ok", "button_value": 100, "type": "Game" },
                { "button_name": "", "button_value": 100, "type": "Game" },
                { "button_name": "zero", "button_value": 0, "type": "Game" },
                { "button_name": "big", "button_value": 100, "type": "Sports" },
                { "button_name": "waytoolonglabel", "button_value": 100, "type": "Casino" }
            ]),
        )
        .await;
    answer.expect(400);
    assert_eq!(answer.field_error("[1].button_name"), "Label is required.");
    assert_eq!(answer.field_error("[2].button_value"), "Value must be more than 0.");
    assert_eq!(answer.field_error("[3].type"), "Type must be Game or Casino.");
    assert!(answer.field_error("[4].button_name").contains("at most 10"));
    let fraction = app
        .post(
            "user/setButtonValue",
            Some(&token),
            json!([{ "button_name": "a", "button_value": 10.005, "type": "Game" }]),
        )
        .await;
    fraction.expect(400);
    assert!(fraction.message().contains("2 decimal"), "{}", fraction.message());
    let too_many: Vec<Value> = (0..21)
        .map(|i| json!({ "button_name": format!("b{i}"), "button_value": 10 + i, "type": "Game" }))
        .collect();
    app.post("user/setButtonValue", Some(&token), Value::Array(too_many)).await.expect(400);
    app.post("user/setButtonValue", Some(&token), json!({ "button_name": "a" })).await.expect(400);
    app.post("user/setButtonValue", Some(&token), json!([])).await.expect(400);
    assert_eq!(buttons(&app, &token).await.iter().filter(|b| b["type"] == "Game").count(), 8);
    app.post("user/setButtonValue", None, json!([])).await.expect(401);
}
both_databases!(set_button_value_refuses_bad_entries_and_saves_nothing);

async fn set_button_value_takes_the_specs_name_and_value_entries(app: TestApp) {
    let token = app.demo().await;
    app.post(
        "user/setButtonValue",
        Some(&token),
        json!([
            { "name": "5k", "value": 5000, "type": "Casino" },
            { "name": "10k", "value": "10000", "type": "Casino" },
            { "button_name": "20k", "button_value": 20000, "type": "Casino" }
        ]),
    )
    .await
    .expect(200);
    let casino: Vec<(String, i64)> = buttons(&app, &token)
        .await
        .iter()
        .filter(|b| b["type"] == "Casino")
        .map(|b| (b["button_name"].as_str().unwrap().to_string(), minor(&b["button_value"])))
        .collect();
    assert_eq!(
        casino,
        vec![("5k".into(), 5_000_00), ("10k".into(), 10_000_00), ("20k".into(), 20_000_00)]
    );

    // The same checks apply under the spec's names, reported under the field's own name.
    let answer = app
        .post(
            "user/setButtonValue",
            Some(&token),
            json!([{ "name": "", "value": 0, "type": "Game" }]),
        )
        .await;
    answer.expect(400);
    assert_eq!(answer.field_error("[0].button_name"), "Label is required.");
    assert_eq!(answer.field_error("[0].button_value"), "Value must be more than 0.");
    // Both spellings of one field in an entry is ambiguous, and refused.
    let both = app
        .post(
            "user/setButtonValue",
            Some(&token),
            json!([{ "name": "a", "button_name": "b", "value": 1, "type": "Game" }]),
        )
        .await;
    both.expect(400);
    assert_eq!(buttons(&app, &token).await.iter().filter(|b| b["type"] == "Casino").count(), 3);
}
both_databases!(set_button_value_takes_the_specs_name_and_value_entries);
