//! What every API answer shares: the envelope, Cache-Control, and a clear 4xx for bad input.

use serde_json::json;

use crate::both_databases;
use crate::common::TestApp;

async fn malformed_and_mistyped_bodies_get_400_with_the_envelope(app: TestApp) {
    let syntax = app.post_raw("user/login", None, "{\"user_name\": ").await;
    syntax.expect(400);
    assert!(syntax.message().contains("not valid JSON"), "{}", syntax.message());
    let trailing = app.post_raw("user/login", None, "{\"user_name\": \"a\", \"password\": \"b\"} junk").await;
    trailing.expect(400);
    let wrong_type = app.post("user/login", None, json!({ "user_name": 5, "password": "x" })).await;
    wrong_type.expect(400);
    assert!(wrong_type.field_error("user_name").contains("expected a string"), "{}", wrong_type.body);
    let not_object = app.post("user/login", None, json!([1, 2])).await;
    not_object.expect(400);
    let overlong = app.post("user/login", None, json!({ "user_name": "u".repeat(10_000), "password": "x" })).await;
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
    let fraction = app.post_raw("match/matchDetail", Some(&token), format!(r#"{{"match_id": {match_id}.5}}"#)).await;
    fraction.expect(400);
    assert_eq!(fraction.field_error("match_id"), format!("Expected a whole number, not {match_id}.5."), "{}", fraction.body);
}
both_databases!(ids_written_as_whole_floats_are_taken_and_fractions_refused);

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
    let openapi: serde_json::Value =
        app.client.get(format!("{}/openapi.json", app.base)).send().await.unwrap().json().await.unwrap();
    assert!(openapi["openapi"].as_str().unwrap().starts_with("3."));
    let paths = openapi["paths"].as_object().unwrap();
    for path in [
        "/api/user/login", "/api/user/signup", "/api/user/logout", "/api/user/changePassword",
        "/api/user/getUserBalance", "/api/user/getButtonValue", "/api/user/setButtonValue",
        "/api/globalSetting/getGlobalSetting", "/api/sport/getSports", "/api/series/getSeriesHeader",
        "/api/series/getSeries", "/api/match/getMatches", "/api/match/searchByMatchNameHeader",
        "/api/match/getCupsForMenu", "/api/casino/getCasinoSport", "/api/bet/getExposureDetail", "/api/health",
        "/api/admin/user/create", "/api/admin/user/transfer", "/api/admin/user/lock", "/api/admin/settings",
        "/api/admin/sport/create", "/api/admin/series/create", "/api/admin/match/create",
    ] {
        assert!(paths.contains_key(path), "{path} missing from the OpenAPI document");
    }
    assert!(paths["/api/user/login"].get("post").is_some());
    assert!(openapi["components"]["securitySchemes"]["bearer"].is_object());
    // Without a web build the root explains how to make one.
    let root = app.client.get(app.base.trim_end_matches("/api").to_string() + "/").send().await.unwrap();
    assert_eq!(root.status().as_u16(), 200);
    assert_eq!(root.headers()["x-frame-options"], "DENY");
    assert!(root.text().await.unwrap().contains("make run"));
}
both_databases!(health_openapi_and_web_root);
