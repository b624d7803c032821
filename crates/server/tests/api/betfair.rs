//! The Betfair-compatible bot API's log-in, envelope and catalogue (issue 17), over HTTP as a
//! bot sends it (the shapes betfairlightweight parses are checked again by tests/betfair/).

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::TestApp;

/// The server's root (the test app's base is `<root>/api`).
pub(crate) fn root(app: &TestApp) -> String {
    app.base.trim_end_matches("/api").to_string()
}

/// A bot's log-in form at `/betfair/identity/<path>`: the JSON answer.
pub(crate) async fn identity(
    app: &TestApp,
    path: &str,
    form: &[(&str, &str)],
    token: Option<&str>,
) -> Value {
    let mut request = app
        .client
        .post(format!("{}/betfair/identity/{path}", root(app)))
        .header("X-Application", "tests")
        .form(form);
    if let Some(token) = token {
        request = request.header("X-Authentication", token);
    }
    let answer = request.send().await.unwrap();
    assert_eq!(answer.status(), 200, "identity answers are always 200");
    answer.json().await.unwrap()
}

/// A bot's log-in at `/betfair/identity/login`: its session token.
pub(crate) async fn bot_login(app: &TestApp, user: &str, password: &str) -> String {
    let answer = identity(app, "login", &[("username", user), ("password", password)], None).await;
    assert_eq!(answer["status"], "SUCCESS", "{answer}");
    answer["token"].as_str().unwrap().to_string()
}

/// One JSON-RPC call of the betting API (`SportsAPING/v1.0/<operation>`): the whole answer.
async fn betting(app: &TestApp, token: Option<&str>, operation: &str, params: Value) -> Value {
    rpc(app, token, "betting", json!({
        "jsonrpc": "2.0", "method": format!("SportsAPING/v1.0/{operation}"), "params": params, "id": 1,
    }))
    .await
}

/// One JSON-RPC request (a call or a batch) of `api` (betting or account): the whole answer.
pub(crate) async fn rpc(app: &TestApp, token: Option<&str>, api: &str, body: Value) -> Value {
    let mut request = app
        .client
        .post(format!("{}/betfair/exchange/{api}/json-rpc/v1", root(app)))
        .header("X-Application", "tests")
        .json(&body);
    if let Some(token) = token {
        request = request.header("X-Authentication", token);
    }
    let answer = request.send().await.unwrap();
    assert_eq!(answer.status(), 200, "JSON-RPC answers are always 200");
    answer.json().await.unwrap()
}

/// A match-odds market of its own, open, on a cricket match of the test demo (which has no
/// exchange markets of its own): (match id, whether the match is in play, market id, runners).
pub(crate) async fn exchange_market(app: &TestApp, name: &str) -> (i64, bool, i64, Vec<i64>) {
    let admin = app.admin().await;
    let matches = app.post("match/getMatches", Some(&admin), json!({ "sport_id": 4 })).await;
    let game = &matches.data()[0];
    let match_id = game["match_id"].as_i64().unwrap();
    let (market, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": name, "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    (match_id, game["in_play"] == json!(true), market, runners)
}

fn error_code(answer: &Value) -> &str {
    answer["error"]["data"]["APINGException"]["errorCode"]
        .as_str()
        .unwrap_or_else(|| panic!("no APINGException: {answer}"))
}

async fn a_bot_logs_in_keeps_its_session_alive_and_logs_out(app: TestApp) {
    exchange_market(&app, "Bots session").await;
    let token = bot_login(&app, "demo", "Demo@1234").await;
    let listed = betting(&app, Some(&token), "listEventTypes", json!({ "filter": {} })).await;
    assert!(listed["result"].as_array().is_some_and(|r| !r.is_empty()), "{listed}");

    // The certificate log-in checks the same name and password, in its own shape.
    let cert =
        identity(&app, "certlogin", &[("username", "demo"), ("password", "Demo@1234")], None).await;
    assert_eq!(cert["loginStatus"], "SUCCESS");
    assert!(cert["sessionToken"].as_str().is_some_and(|t| t.len() > 20));

    let alive = identity(&app, "keepAlive", &[], Some(&token)).await;
    assert_eq!(
        alive,
        json!({ "token": token, "product": "tests", "status": "SUCCESS", "error": "" })
    );

    // Kept alive, a session still ends 7 days after its log-in: one logged in 6 days 23 hours
    // ago (and due to end in a minute) lives one more hour, not a day.
    let store = app.store().await;
    let expiry = |session: String| {
        let store = store.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT expires_at_ms - created_at_ms FROM sessions WHERE token_hash = $1",
            )
            .bind(session)
            .fetch_one(store.pool())
            .await
            .unwrap()
        }
    };
    let hash = backlay_kit::token::token_hash(&token);
    let hour = 3_600_000;
    sqlx::query(
        "UPDATE sessions SET created_at_ms = created_at_ms - $1, expires_at_ms = created_at_ms + 60000 \
         WHERE token_hash = $2",
    )
        .bind(7 * 24 * hour - hour)
        .bind(&hash)
        .execute(store.pool())
        .await
        .unwrap();
    identity(&app, "keepAlive", &[], Some(&token)).await;
    let lives = expiry(hash.clone()).await;
    assert_eq!(lives, backlay_store::sessions::MAX_SESSION_LIFE_MS, "capped at 7 days");

    // The web app's session is not a bot's to keep alive.
    let web = app.demo().await;
    let web_hash = backlay_kit::token::token_hash(&web);
    let before = expiry(web_hash.clone()).await;
    let refused = identity(&app, "keepAlive", &[], Some(&web)).await;
    assert_eq!(
        (refused["status"].clone(), refused["error"].clone()),
        (json!("FAIL"), json!("NO_SESSION"))
    );
    assert_eq!(expiry(web_hash).await, before, "the web session is not extended");

    let out = identity(&app, "logout", &[], Some(&token)).await;
    assert_eq!(out["status"], "SUCCESS");
    let after = betting(&app, Some(&token), "listEventTypes", json!({ "filter": {} })).await;
    assert_eq!(error_code(&after), "INVALID_SESSION_INFORMATION");
    assert_eq!(after["error"]["code"], -32099);
    assert_eq!(after["error"]["message"], "ANGX-0003");
    let again = identity(&app, "keepAlive", &[], Some(&token)).await;
    assert_eq!(again["status"], "FAIL");
    assert_eq!(again["error"], "NO_SESSION");
}
both_databases!(a_bot_logs_in_keeps_its_session_alive_and_logs_out);

async fn log_ins_that_cannot_bet_are_refused_with_betfairs_codes(app: TestApp) {
    let refused = |answer: Value| answer["error"].as_str().unwrap().to_string();
    let wrong =
        identity(&app, "login", &[("username", "demo"), ("password", "Wrong@1234")], None).await;
    assert_eq!(wrong["status"], "FAIL");
    assert_eq!(refused(wrong), "INVALID_USERNAME_OR_PASSWORD");
    let unknown =
        identity(&app, "login", &[("username", "nobody"), ("password", "Wrong@1234")], None).await;
    assert_eq!(refused(unknown), "INVALID_USERNAME_OR_PASSWORD");
    let admin =
        identity(&app, "login", &[("username", "admin"), ("password", "Admin@1234")], None).await;
    assert_eq!(refused(admin), "AGENT_CLIENT_MASTER");
    let empty = identity(&app, "login", &[("username", "demo")], None).await;
    assert_eq!(refused(empty), "INPUT_VALIDATION_ERROR");
    let cert =
        identity(&app, "certlogin", &[("username", "demo"), ("password", "nope")], None).await;
    assert_eq!(cert, json!({ "loginStatus": "INVALID_USERNAME_OR_PASSWORD" }));
    // The web app's throttle counts these: the right password is refused after five wrong ones.
    for _ in 0..5 {
        identity(&app, "login", &[("username", "demo2"), ("password", "Wrong@1234")], None).await;
    }
    let blocked =
        identity(&app, "login", &[("username", "demo2"), ("password", "Demo@1234")], None).await;
    assert_eq!(refused(blocked), "TEMPORARY_BAN_TOO_MANY_REQUESTS");
}
both_databases!(log_ins_that_cannot_bet_are_refused_with_betfairs_codes);

async fn the_envelope_refuses_what_is_malformed_with_json_rpc_and_apingexception_codes(
    app: TestApp,
) {
    exchange_market(&app, "Bots envelope").await;
    let token = bot_login(&app, "demo", "Demo@1234").await;
    let no_session = betting(&app, None, "listEventTypes", json!({})).await;
    assert_eq!(error_code(&no_session), "NO_SESSION");

    let no_key = app
        .client
        .post(format!("{}/betfair/exchange/betting/json-rpc/v1", root(&app)))
        .header("X-Authentication", &token)
        .json(&json!({ "jsonrpc": "2.0", "method": "SportsAPING/v1.0/listEventTypes", "params": {}, "id": 7 }))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(error_code(&no_key), "NO_APP_KEY");
    assert_eq!(no_key["id"], 7, "the call's id comes back");

    let unknown = betting(&app, Some(&token), "listRaceDetails", json!({})).await;
    assert_eq!(error_code(&unknown), "INVALID_INPUT_DATA");
    let bad_method =
        rpc(&app, Some(&token), "betting", json!({ "jsonrpc": "2.0", "method": "nope", "id": 2 }))
            .await;
    assert_eq!(bad_method["error"]["code"], -32601);
    let not_json = app
        .client
        .post(format!("{}/betfair/exchange/betting/json-rpc/v1", root(&app)))
        .header("X-Application", "tests")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 200);
    assert_eq!(not_json.json::<Value>().await.unwrap()["error"]["code"], -32700);
    let bad_params =
        betting(&app, Some(&token), "listEvents", json!({ "filter": { "eventIds": "1" } })).await;
    assert_eq!(error_code(&bad_params), "INVALID_INPUT_DATA");
    assert!(bad_params["error"]["data"]["APINGException"]["errorDetails"]
        .as_str()
        .unwrap()
        .contains("eventIds"));

    // A batch answers each call in order; the account API names its own exception.
    let batch = rpc(&app, Some(&token), "betting", json!([
        { "jsonrpc": "2.0", "method": "SportsAPING/v1.0/listEventTypes", "params": { "filter": {} }, "id": 1 },
        { "jsonrpc": "2.0", "method": "SportsAPING/v1.0/listMarketBook", "params": {}, "id": 2 },
    ]))
    .await;
    assert!(batch[0]["result"].as_array().is_some_and(|r| !r.is_empty()), "{batch}");
    assert_eq!(batch[1]["id"], 2);
    assert_eq!(error_code(&batch[1]), "INVALID_INPUT_DATA");
    let too_many: Vec<Value> = (0..21)
        .map(
            |id| json!({ "jsonrpc": "2.0", "method": "SportsAPING/v1.0/listEventTypes", "id": id }),
        )
        .collect();
    assert_eq!(
        rpc(&app, Some(&token), "betting", Value::Array(too_many)).await["error"]["code"],
        -32600
    );
    let account = rpc(
        &app,
        None,
        "account",
        json!({ "jsonrpc": "2.0", "method": "AccountAPING/v1.0/getAccountFunds", "id": 1 }),
    )
    .await;
    assert_eq!(account["error"]["data"]["exceptionname"], "AccountAPINGException");
    assert_eq!(account["error"]["data"]["AccountAPINGException"]["errorCode"], "NO_SESSION");

    // The REST form: the result alone, or 400 with the fault.
    let rest = |token: Option<String>| {
        let request = app
            .client
            .post(format!("{}/betfair/exchange/betting/rest/v1.0/listEventTypes/", root(&app)))
            .header("X-Application", "tests")
            .json(&json!({ "filter": {} }));
        match token {
            Some(token) => request.header("X-Authentication", token),
            None => request,
        }
    };
    let ok = rest(Some(token.clone())).send().await.unwrap();
    assert_eq!(ok.status(), 200);
    let listed: Value = ok.json().await.unwrap();
    assert!(listed.as_array().is_some_and(|r| !r.is_empty()), "{listed}");
    let fault = rest(None).send().await.unwrap();
    assert_eq!(fault.status(), 400);
    let fault: Value = fault.json().await.unwrap();
    assert_eq!(fault["faultstring"], "ANGX-0005");
    assert_eq!(fault["detail"]["APINGException"]["errorCode"], "NO_SESSION");
}
both_databases!(the_envelope_refuses_what_is_malformed_with_json_rpc_and_apingexception_codes);

async fn the_catalogue_shows_exchange_markets_only_and_the_book_what_rests(app: TestApp) {
    let admin = app.admin().await;
    let (match_id, in_play, market, runners) = exchange_market(&app, "Bots odds").await;
    let (bookmaker, _) = app
        .open_market(&admin, match_id, json!({ "type": "bookmaker", "name": "Bots bookmaker", "runners": ["Home", "Away"], "min_stake": 1 }))
        .await;
    let token = bot_login(&app, "demo", "Demo@1234").await;
    let market_text = format!("1.{market}");

    let of_match = json!({ "filter": { "eventIds": [match_id.to_string()] }, "maxResults": 1000,
        "marketProjection": ["RUNNER_DESCRIPTION", "MARKET_DESCRIPTION", "EVENT"] });
    let catalogue = betting(&app, Some(&token), "listMarketCatalogue", of_match).await;
    let entries = catalogue["result"].as_array().unwrap();
    let ids: Vec<&str> = entries.iter().map(|e| e["marketId"].as_str().unwrap()).collect();
    assert!(ids.contains(&market_text.as_str()), "{ids:?}");
    assert!(
        !ids.contains(&format!("1.{bookmaker}").as_str()),
        "bookmaker markets are not exposed: {ids:?}"
    );
    let ours = entries.iter().find(|e| e["marketId"] == market_text).unwrap();
    assert_eq!(
        ours["runners"][0],
        json!({ "selectionId": runners[0], "runnerName": "Home", "handicap": 0.0, "sortPriority": 1 })
    );
    assert_eq!(ours["description"]["marketType"], "MATCH_ODDS");
    assert!(ours["event"]["openDate"].as_str().unwrap().ends_with(".000Z"));
    let one = betting(&app, Some(&token), "listMarketCatalogue", json!({ "filter": {} })).await;
    assert_eq!(error_code(&one), "INVALID_INPUT_DATA", "maxResults is required");

    let events = betting(
        &app,
        Some(&token),
        "listEvents",
        json!({ "filter": { "marketIds": [market_text] } }),
    )
    .await;
    assert_eq!(events["result"].as_array().unwrap().len(), 1);
    assert_eq!(events["result"][0]["event"]["id"], match_id.to_string());
    assert_eq!(events["result"][0]["marketCount"], 1);

    // A back resting at 3.0 is there to lay; once part of it is laid, it traded.
    let demo = app.demo().await;
    let other = app.login("demo2", "Demo@1234").await;
    let bet = |price: &str, side: &str, stake: i64| json!({ "market_id": market, "selection_id": runners[0], "side": side, "price": price, "stake": stake, "persistence": "persist" });
    app.post("bet/placeBet", Some(&demo), bet("3.0", "back", 50)).await.expect(200);
    app.post("bet/placeBet", Some(&other), bet("3.0", "lay", 20)).await.expect(200);
    let book = betting(&app, Some(&token), "listMarketBook", json!({
        "marketIds": [market_text], "priceProjection": { "priceData": ["EX_BEST_OFFERS", "EX_TRADED"] },
    }))
    .await;
    let book = &book["result"][0];
    assert_eq!(book["status"], "OPEN");
    assert_eq!(book["inplay"], in_play);
    assert_eq!(book["totalMatched"], 20.0);
    let home = &book["runners"][0];
    assert_eq!(home["selectionId"], runners[0]);
    assert_eq!(home["ex"]["availableToLay"], json!([{ "price": 3.0, "size": 30.0 }]));
    assert_eq!(home["ex"]["availableToBack"], json!([]));
    assert_eq!(home["ex"]["tradedVolume"], json!([{ "price": 3.0, "size": 20.0 }]));
    assert_eq!(book["runners"][1]["ex"]["tradedVolume"], json!([]));

    // Suspended is SUSPENDED; a bookmaker market is not in the book either.
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": market, "status": "suspended" }),
    )
    .await
    .expect(200);
    let books = betting(
        &app,
        Some(&token),
        "listMarketBook",
        json!({ "marketIds": [market_text, format!("1.{bookmaker}"), "1.999999"] }),
    )
    .await;
    let books = books["result"].as_array().unwrap();
    assert_eq!(books.len(), 1, "{books:?}");
    assert_eq!(books[0]["status"], "SUSPENDED");
    assert!(books[0]["runners"][0].get("ex").is_none(), "no ladders without a price projection");
}
both_databases!(the_catalogue_shows_exchange_markets_only_and_the_book_what_rests);
