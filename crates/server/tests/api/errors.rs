//! What every API answer shares: the envelope, Cache-Control, and a clear 4xx for bad input.

use serde_json::json;

use crate::both_databases;
use crate::common::{spawn_app, Db, TestApp};

async fn malformed_and_mistyped_bodies_get_400_with_the_envelope(app: TestApp) {
    let syntax = app.post_raw("user/login", None, "{\"user_name\": ").await;
    syntax.expect(400);
    assert!(syntax.message().contains("not valid JSON"), "{}", syntax.message());
    let trailing =
        app.post_raw("user/login", None, "{\"user_name\": \"a\", \"password\": \"b\"} junk").await;
    trailing.expect(400);
    let wrong_type = app.post("user/login", None, json!({ "user_name": 5, "password": "x" })).await;
    wrong_type.expect(400);
    assert!(
        wrong_type.field_error("user_name").contains("expected a string"),
        "{}",
        wrong_type.body
    );
    let not_object = app.post("user/login", None, json!([1, 2])).await;
    not_object.expect(400);
    let overlong = app
        .post("user/login", None, json!({ "user_name": "u".repeat(10_000), "password": "x" }))
        .await;
    overlong.expect(400);
    assert!(overlong.field_error("user_name").contains("at most 64"));
}
both_databases!(malformed_and_mistyped_bodies_get_400_with_the_envelope);

/// A whole number is a whole number however a client's JSON library writes it; a fraction
/// where a whole number belongs is a 400 naming the field.
async fn ids_written_as_whole_floats_are_taken_and_fractions_refused(app: TestApp) {
    let token = app.demo().await;
    let matches = app.post("match/getMatches", Some(&token), json!({ "sport_id": 4.0 })).await;
    matches.expect(200);
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let body = format!(r#"{{"match_id": {match_id}.0}}"#);
    app.post_raw("match/matchDetail", Some(&token), body).await.expect(200);
    let exponent = format!(r#"{{"match_id": {match_id}e0}}"#);
    app.post_raw("match/matchDetail", Some(&token), exponent).await.expect(200);
    let fraction = app
        .post_raw("match/matchDetail", Some(&token), format!(r#"{{"match_id": {match_id}.5}}"#))
        .await;
    fraction.expect(400);
    assert_eq!(
        fraction.field_error("match_id"),
        format!("Expected a whole number, not {match_id}.5."),
        "{}",
        fraction.body
    );
}
both_databases!(ids_written_as_whole_floats_are_taken_and_fractions_refused);

/// PostgreSQL's text cannot hold U+0000: a string with it is a 400 naming the field on both
/// databases, never a 500 (the fuzzer found `casino/round` and `report/casinoResult`).
async fn text_holding_nul_is_a_400_naming_the_field(app: TestApp) {
    let token = app.demo().await;
    for (path, field) in [
        ("casino/round", "round_id"),
        ("report/casinoResult", "game_code"),
        ("match/searchByMatchNameHeader", "search"),
    ] {
        let answer =
            app.post_raw(path, Some(&token), format!(r#"{{"{field}": "x\u0000y"}}"#)).await;
        answer.expect(400);
        assert_eq!(
            answer.field_error(field),
            format!("{field} may not contain the character U+0000."),
            "{path}: {}",
            answer.body
        );
    }
    let login = app
        .post_raw("user/login", None, r#"{"user_name": "demo\u0000", "password": "Demo@1234"}"#)
        .await;
    login.expect(400);
}
both_databases!(text_holding_nul_is_a_400_naming_the_field);

async fn oversized_bodies_get_413(app: TestApp) {
    let body = format!("{{\"user_name\": \"{}\", \"password\": \"x\"}}", "a".repeat(100 * 1024));
    let answer = app.post_raw("user/login", None, body).await;
    assert_eq!(answer.status.as_u16(), 413);
    assert_eq!(answer.body["status"], false);
    assert!(answer.message().contains("64 KiB"));
}
both_databases!(oversized_bodies_get_413);

async fn unknown_routes_and_methods_answer_in_the_envelope(app: TestApp) {
    let unknown = app.get("no/such/call", None).await;
    unknown.expect(404);
    assert!(unknown.message().contains("/api/no/such/call"));
    let wrong_method = app.get("user/login", None).await;
    wrong_method.expect(405);
    assert!(wrong_method.message().contains("GET is not allowed"));
}
both_databases!(unknown_routes_and_methods_answer_in_the_envelope);

async fn every_answer_says_no_store(app: TestApp) {
    let token = app.demo().await;
    for answer in [
        app.get("globalSetting/getGlobalSetting", None).await,
        app.get("user/getUserBalance", Some(&token)).await,
        app.get("user/getUserBalance", None).await,
        app.get("no/such/call", None).await,
        app.post_raw("user/login", None, "{").await,
    ] {
        assert_eq!(answer.headers["cache-control"], "no-store, no-cache", "{}", answer.body);
        assert_eq!(answer.headers["content-type"], "application/json");
    }
}
both_databases!(every_answer_says_no_store);

async fn health_openapi_and_web_root(app: TestApp) {
    let health = app.get("health", None).await;
    health.expect(200);
    assert_eq!(health.data()["database"], "ok");
    let openapi: serde_json::Value = app.openapi().await;
    assert!(openapi["openapi"].as_str().unwrap().starts_with("3."));
    let paths = openapi["paths"].as_object().unwrap();
    for path in [
        "/api/user/login",
        "/api/user/signup",
        "/api/user/logout",
        "/api/user/changePassword",
        "/api/user/getUserBalance",
        "/api/user/getButtonValue",
        "/api/user/setButtonValue",
        "/api/globalSetting/getGlobalSetting",
        "/api/sport/getSports",
        "/api/series/getSeriesHeader",
        "/api/series/getSeries",
        "/api/match/getMatches",
        "/api/match/searchByMatchNameHeader",
        "/api/match/getCupsForMenu",
        "/api/casino/getCasinoSport",
        "/api/bet/getExposureDetail",
        "/api/health",
        "/api/admin/user/create",
        "/api/admin/user/transfer",
        "/api/admin/user/lock",
        "/api/admin/settings",
        "/api/admin/sport/create",
        "/api/admin/series/create",
        "/api/admin/match/create",
    ] {
        assert!(paths.contains_key(path), "{path} missing from the OpenAPI document");
    }
    assert!(paths["/api/user/login"].get("post").is_some());
    assert!(openapi["components"]["securitySchemes"]["bearer"].is_object());
    // Without a web build the root explains how to make one.
    let root =
        app.client.get(app.base.trim_end_matches("/api").to_string() + "/").send().await.unwrap();
    assert_eq!(root.status().as_u16(), 200);
    assert_eq!(root.headers()["x-frame-options"], "DENY");
    assert!(root.text().await.unwrap().contains("make run"));
}
both_databases!(health_openapi_and_web_root);

/// Every operation of the document, as (method, path, operation).
fn operations(openapi: &serde_json::Value) -> Vec<(String, String, serde_json::Value)> {
    let mut all = Vec::new();
    for (path, item) in openapi["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            all.push((method.to_uppercase(), path.clone(), operation.clone()));
        }
    }
    all
}

/// Where in the document a schema is a tuple (`prefixItems`, or `items` as a list).
fn find_tuples(value: &serde_json::Value, at: &str, found: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(fields) => {
            for (key, inner) in fields {
                if key == "prefixItems" || (key == "items" && inner.is_array()) {
                    found.push(at.to_string());
                }
                find_tuples(inner, &format!("{at}/{key}"), found);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                find_tuples(inner, &format!("{at}/{i}"), found);
            }
        }
        _ => {}
    }
}

fn needs_bearer(operation: &serde_json::Value) -> bool {
    operation["security"]
        .as_array()
        .is_some_and(|all| all.iter().any(|s| s.get("bearer").is_some()))
}

/// The document tells the truth about what the extractors answer on every route: the 400 of a
/// malformed body on each call that takes one, the 401 on each call that needs a token, each
/// error in the envelope's shape; and the stream is an event stream, not JSON.
async fn the_openapi_document_lists_the_400_and_401_every_route_can_answer(app: TestApp) {
    let openapi = app.openapi().await;
    let envelope = &openapi["components"]["schemas"]["ErrorEnvelope"];
    assert_eq!(envelope["properties"]["status"]["enum"], json!([false]), "{envelope}");
    let all = operations(&openapi);
    assert!(all.len() > 60, "{} operations", all.len());
    for (method, path, operation) in &all {
        let responses = operation["responses"].as_object().unwrap();
        if operation.get("requestBody").is_some() {
            assert!(responses.contains_key("400"), "{method} {path} takes a body but lists no 400");
        }
        if needs_bearer(operation) {
            assert!(
                responses.contains_key("401"),
                "{method} {path} needs a token but lists no 401"
            );
        }
        for (status, response) in responses.iter().filter(|(status, _)| status.starts_with('4')) {
            assert!(
                response["content"]["application/json"]["schema"].is_object(),
                "{method} {path} {status} has no body: {response}"
            );
        }
    }
    let secured = all.iter().filter(|(_, _, op)| needs_bearer(op)).count();
    assert!(secured > 40, "{secured} secured operations");

    // utoipa renders a Rust tuple as `prefixItems`, which schemathesis (tests/fuzz) reads as a
    // list of `items` and refuses as an invalid schema: every tuple field needs a value_type.
    let mut tuples = Vec::new();
    find_tuples(&openapi, "", &mut tuples);
    assert!(tuples.is_empty(), "tuple schemas (a tuple field without a value_type): {tuples:?}");

    let stream = &openapi["paths"]["/api/stream"]["get"]["responses"]["200"]["content"];
    assert!(stream["text/event-stream"].is_object(), "{stream}");
    assert!(stream.get("application/json").is_none(), "{stream}");

    // And the server does answer so: a malformed body is a 400, a missing token a 401.
    app.post_raw("bet/placeBet", None, "{").await.expect(401);
    let token = app.demo().await;
    app.post_raw("bet/placeBet", Some(&token), "{").await.expect(400);
    let ticket = app.post("stream/ticket", Some(&token), json!({})).await;
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let response = app
        .client
        .get(format!("{}/stream?casino=teen20&ticket={ticket}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
}
both_databases!(the_openapi_document_lists_the_400_and_401_every_route_can_answer);

/// A session whose password must still be changed gets 428 from exactly the calls the document
/// lists 428 on (all but log-out, change-password and the balance poll).
async fn the_openapi_document_lists_428_where_a_password_change_comes_first(app: TestApp) {
    let admin = app.admin().await;
    app.post(
        "admin/user/create",
        Some(&admin),
        json!({ "user_name": "newbie", "password": "First@123", "role": "client" }),
    )
    .await
    .expect(200);
    let token = app.login("newbie", "First@123").await;
    let openapi = app.openapi().await;
    let mut checked = 0;
    for (method, path, operation) in operations(&openapi) {
        // Log-out would end the session the rest of the loop uses.
        if !needs_bearer(&operation) || path == "/api/user/logout" {
            continue;
        }
        let call = path.trim_start_matches("/api/");
        let answer = if method == "GET" {
            app.get(call, Some(&token)).await
        } else {
            app.post(call, Some(&token), json!({})).await
        };
        let documented = operation["responses"].get("428").is_some();
        assert_eq!(
            answer.status.as_u16() == 428,
            documented,
            "{method} {path}: answered {}, 428 documented: {documented}",
            answer.status
        );
        checked += 1;
    }
    assert!(checked > 40, "{checked} calls checked");
}
both_databases!(the_openapi_document_lists_428_where_a_password_change_comes_first);

/// Answers the long fuzzing run (bench/fuzz.sh) got that the document did not list: an admin
/// locking itself, and a transfer for a user with no parent, are 409s.
async fn the_operator_conflicts_are_in_the_openapi_document(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    let openapi = app.openapi().await;
    let lock = app
        .post("admin/user/lock", Some(&admin), json!({ "user_id": admin_id, "locked": 1 }))
        .await;
    lock.expect(409);
    assert!(openapi["paths"]["/api/admin/user/lock"]["post"]["responses"]["409"].is_object());
    let transfer = app
        .post(
            "admin/user/transfer",
            Some(&admin),
            json!({ "user_id": admin_id, "amount": 1, "direction": "deposit" }),
        )
        .await;
    transfer.expect(409);
    assert!(openapi["paths"]["/api/admin/user/transfer"]["post"]["responses"]["409"].is_object());
}
both_databases!(the_operator_conflicts_are_in_the_openapi_document);

/// Every answer names its request in `x-request-id` (and the server's log lines for it carry
/// the same id: `request_log`'s tests): the client's own id when it is a safe one, otherwise a
/// fresh one. The transport does not touch the database, so this runs on SQLite only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_request_id() {
    let app = spawn_app(Db::Sqlite).await.expect("SQLite always runs");
    let health = format!("{}/health", app.base);
    let answered_id = |response: &reqwest::Response| {
        let id = response.headers().get("x-request-id").expect("an x-request-id answer header");
        id.to_str().unwrap().to_string()
    };

    let given = app.client.get(&health).header("x-request-id", "web-7f3a.1").send().await.unwrap();
    assert_eq!(answered_id(&given), "web-7f3a.1");

    let mut fresh = Vec::new();
    let unsafe_ids = ["", "two words", "semi;colon", &"x".repeat(65)];
    let without = app.client.get(&health).send().await.unwrap();
    fresh.push(answered_id(&without));
    for id in unsafe_ids {
        let response = app.client.get(&health).header("x-request-id", id).send().await.unwrap();
        fresh.push(answered_id(&response));
    }
    // Refusals and unknown routes name their request too.
    let unknown = app.client.post(format!("{}/no/such/call", app.base)).send().await.unwrap();
    assert_eq!(unknown.status(), 404);
    fresh.push(answered_id(&unknown));
    for id in &fresh {
        assert!(id.len() == 36 && id.chars().all(|c| c.is_ascii_hexdigit() || c == '-'), "{id}");
    }
    fresh.sort();
    fresh.dedup();
    assert_eq!(fresh.len(), unsafe_ids.len() + 2, "each request gets its own id: {fresh:?}");
}

/// A variant of a tagged enum (`#[serde(tag = "sport")]`, the score) accepts its own tag in the
/// document, as serde does: the fuzzer once found a football score in `match/getMatches` that
/// the document's closed `FootballScore` (`additionalProperties: false`) refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tagged_variant_in_the_openapi_document_accepts_its_tag() {
    let app = spawn_app(Db::Sqlite).await.expect("SQLite always runs");
    let openapi = app.openapi().await;
    let schemas = openapi["components"]["schemas"].as_object().unwrap();
    let mut closed_variants = 0;
    for schema in schemas.values() {
        for item in schema["oneOf"].as_array().into_iter().flatten() {
            let Some([variant, tag]) = item["allOf"].as_array().map(Vec::as_slice) else {
                continue;
            };
            let Some(reference) = variant["$ref"].as_str() else { continue };
            let name = reference.rsplit('/').next().unwrap();
            let target = &schemas[name];
            if target["additionalProperties"] != false {
                continue;
            }
            closed_variants += 1;
            for key in tag["properties"].as_object().unwrap().keys() {
                assert!(target["properties"][key].is_object(), "{name} refuses its own tag {key}");
            }
        }
    }
    assert!(closed_variants >= 4, "the score's closed variants are checked: {closed_variants}");
}
