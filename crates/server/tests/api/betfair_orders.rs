//! The bot API's orders and account (issue 17): placeOrders, cancelOrders, replaceOrders,
//! updateOrders, the order lists, market P&L and funds, over HTTP as a bot sends them (the
//! shapes betfairlightweight parses are checked again by tests/betfair/test_orders.py).

use serde_json::{json, Value};

use crate::betfair::{root, rpc};
use crate::both_databases;
use crate::common::{minor, TestApp};

/// One JSON-RPC call (`api` is betting or account): its `result`, or the whole answer when
/// there is none.
async fn call(app: &TestApp, token: &str, api: &str, operation: &str, params: Value) -> Value {
    let prefix = if api == "account" { "AccountAPING" } else { "SportsAPING" };
    let body = json!({ "jsonrpc": "2.0", "method": format!("{prefix}/v1.0/{operation}"), "params": params, "id": 1 });
    let mut answer = rpc(app, Some(token), api, body).await;
    match answer.get_mut("result") {
        Some(result) => result.take(),
        None => answer,
    }
}

async fn betting(app: &TestApp, token: &str, operation: &str, params: Value) -> Value {
    call(app, token, "betting", operation, params).await
}

/// A match-odds market of its own, open, no bet delay: ("1.<id>", its id, runners).
async fn exchange_market(app: &TestApp, name: &str) -> (String, i64, Vec<i64>) {
    let (_, _, market, runners) = crate::betfair::exchange_market(app, name).await;
    (format!("1.{market}"), market, runners)
}

/// A demo client's bot session.
async fn bot_login(app: &TestApp, user: &str) -> String {
    crate::betfair::bot_login(app, user, "Demo@1234").await
}

fn limit(selection_id: i64, side: &str, price: Value, size: Value) -> Value {
    json!({
        "orderType": "LIMIT", "selectionId": selection_id, "side": side, "handicap": 0,
        "limitOrder": { "size": size, "price": price, "persistenceType": "LAPSE", "timeInForce": null },
    })
}

async fn place(app: &TestApp, token: &str, market: &str, instructions: Value) -> Value {
    betting(app, token, "placeOrders", json!({ "marketId": market, "instructions": instructions }))
        .await
}

async fn current(app: &TestApp, token: &str, params: Value) -> Vec<Value> {
    let answer = betting(app, token, "listCurrentOrders", params).await;
    assert_eq!(answer["moreAvailable"], false, "{answer}");
    answer["currentOrders"].as_array().unwrap_or_else(|| panic!("{answer}")).clone()
}

async fn set_status(app: &TestApp, market_id: i64, status: &str) {
    let admin = app.admin().await;
    app.post(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": market_id, "status": status }),
    )
    .await
    .expect(200);
}

async fn a_back_and_a_lay_from_two_bots_match_at_the_resting_price(app: TestApp) {
    let (market, market_id, runners) = exchange_market(&app, "Bots match").await;
    let demo = bot_login(&app, "demo").await;
    let demo2 = bot_login(&app, "demo2").await;
    let mut back = limit(runners[0], "BACK", json!(2.5), json!(10));
    back["customerOrderRef"] = json!("back-1");
    let backed = place(&app, &demo, &market, json!([back])).await;
    assert_eq!(backed["status"], "SUCCESS", "{backed}");
    let back_report = &backed["instructionReports"][0];
    assert_eq!(back_report["orderStatus"], "EXECUTABLE");
    assert_eq!(back_report["sizeMatched"], 0.0);
    assert_eq!(back_report["instruction"]["customerOrderRef"], "back-1");
    let back_id = back_report["betId"].as_str().unwrap().to_string();

    // The lay asks 2.6 and gets the back's 2.5.
    let laid =
        place(&app, &demo2, &market, json!([limit(runners[0], "LAY", json!(2.6), json!(10))]))
            .await;
    let lay_report = &laid["instructionReports"][0];
    assert_eq!(lay_report["orderStatus"], "EXECUTION_COMPLETE", "{laid}");
    assert_eq!(lay_report["sizeMatched"], 10.0);
    assert_eq!(lay_report["averagePriceMatched"], 2.5);
    assert_ne!(lay_report["betId"], json!(back_id));

    let mine = current(&app, &demo, json!({ "dateRange": { "from": null, "to": null } })).await;
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert_eq!(mine[0]["betId"], json!(back_id));
    assert_eq!(mine[0]["status"], "EXECUTION_COMPLETE");
    assert_eq!(mine[0]["averagePriceMatched"], 2.5);
    assert_eq!(mine[0]["sizeMatched"], 10.0);
    assert_eq!(mine[0]["priceSize"], json!({ "price": 2.5, "size": 10.0 }));
    assert_eq!(mine[0]["customerOrderRef"], "back-1");
    assert_eq!(mine[0]["marketId"], json!(market));
    let theirs = current(&app, &demo2, json!({ "orderProjection": "EXECUTION_COMPLETE" })).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["side"], "LAY");
    assert!(theirs[0].get("customerOrderRef").is_none(), "absent, not null: {}", theirs[0]);
    assert!(current(&app, &demo2, json!({ "orderProjection": "EXECUTABLE" })).await.is_empty());

    // The book shows the caller's orders and matches.
    let books = betting(
        &app,
        &demo,
        "listMarketBook",
        json!({ "marketIds": [market], "orderProjection": "ALL", "matchProjection": "ROLLED_UP_BY_AVG_PRICE" }),
    )
    .await;
    let runner = &books[0]["runners"][0];
    assert_eq!(runner["orders"][0]["betId"], json!(back_id), "{books}");
    assert_eq!(runner["orders"][0]["avgPriceMatched"], 2.5);
    assert_eq!(runner["matches"], json!([{ "side": "BACK", "price": 2.5, "size": 10.0 }]));
    assert!(books[0]["runners"][1].get("orders").is_none());

    // P&L: +15 if Home wins, −10 if Away does.
    let pnl =
        betting(&app, &demo, "listMarketProfitAndLoss", json!({ "marketIds": [market] })).await;
    assert_eq!(
        pnl[0]["profitAndLosses"],
        json!([{ "selectionId": runners[0], "ifWin": 15.0 }, { "selectionId": runners[1], "ifWin": -10.0 }])
    );

    // Funds: exposure negative, and the web app's liability.
    let funds = call(&app, &demo, "account", "getAccountFunds", json!({})).await;
    let web = app.get("user/getUserBalance", Some(&app.demo().await)).await;
    assert_eq!(minor(&funds["exposure"]), -10_00);
    assert_eq!(funds["exposure"], web.data()["liability"]);
    assert_eq!(funds["availableToBetBalance"], web.data()["available"]);
    assert!(minor(&funds["exposureLimit"]) < 0);

    // Settled: the cleared orders and the statement.
    let admin = app.admin().await;
    app.post(
        "admin/market/result",
        Some(&admin),
        json!({ "market_id": market_id, "winner_selection_id": runners[0] }),
    )
    .await
    .expect(200);
    let cleared = betting(
        &app,
        &demo,
        "listClearedOrders",
        json!({ "betStatus": "SETTLED", "settledDateRange": { "from": null, "to": null }, "includeItemDescription": true }),
    )
    .await;
    let item = &cleared["clearedOrders"][0];
    assert_eq!(item["betId"], json!(back_id), "{cleared}");
    assert_eq!(item["betOutcome"], "WON");
    assert_eq!(item["profit"], 15.0);
    assert_eq!(item["customerOrderRef"], "back-1");
    assert_eq!(item["itemDescription"]["marketDesc"], "Bots match");
    let by_market = betting(
        &app,
        &demo2,
        "listClearedOrders",
        json!({ "betStatus": "SETTLED", "groupBy": "MARKET", "marketIds": [market] }),
    )
    .await;
    assert_eq!(by_market["clearedOrders"][0]["profit"], -15.0, "{by_market}");
    assert_eq!(by_market["clearedOrders"][0]["betCount"], 1);
    assert!(by_market["clearedOrders"][0].get("betId").is_none());
    assert!(current(&app, &demo, json!({})).await.is_empty());

    let statement = call(
        &app,
        &demo,
        "account",
        "getAccountStatement",
        json!({ "itemDateRange": { "from": null, "to": null }, "recordCount": 5 }),
    )
    .await;
    let line = &statement["accountStatement"][0];
    let mut keys: Vec<&str> = line.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["amount", "balance", "itemClass", "itemClassData", "itemDate", "legacyData", "refId"]
    );
    assert_eq!(line["amount"], 15.0, "{statement}");
    assert_eq!(line["legacyData"]["winLose"], "RESULT_WON");
}
both_databases!(a_back_and_a_lay_from_two_bots_match_at_the_resting_price);

async fn a_repeated_customer_ref_places_no_second_bet(app: TestApp) {
    let (market, _, runners) = exchange_market(&app, "Bots repeat").await;
    let demo = bot_login(&app, "demo").await;
    let request = json!({
        "marketId": market, "customerRef": "dup-key-0001",
        "instructions": [limit(runners[0], "BACK", json!(3), json!(5)), limit(runners[1], "BACK", json!(4), json!(5))],
    });
    let first = betting(&app, &demo, "placeOrders", request.clone()).await;
    assert_eq!(first["status"], "SUCCESS", "{first}");
    assert_eq!(first["customerRef"], "dup-key-0001");
    let again = betting(&app, &demo, "placeOrders", request).await;
    assert_eq!(again["status"], "FAILURE", "{again}");
    assert_eq!(again["errorCode"], "DUPLICATE_TRANSACTION");
    assert_eq!(again["instructionReports"], json!([]));
    assert_eq!(current(&app, &demo, json!({})).await.len(), 2);
    // Another client may use the same key.
    let demo2 = bot_login(&app, "demo2").await;
    let theirs = betting(&app, &demo2, "placeOrders", json!({ "marketId": market, "customerRef": "dup-key-0001", "instructions": [limit(runners[0], "LAY", json!(1.5), json!(5))] })).await;
    assert_eq!(theirs["status"], "SUCCESS", "{theirs}");

    let long = betting(&app, &demo, "placeOrders", json!({ "marketId": market, "customerRef": "x".repeat(33), "instructions": [limit(runners[0], "BACK", json!(3), json!(5))] })).await;
    assert_eq!(
        long["error"]["data"]["APINGException"]["errorCode"], "INVALID_INPUT_DATA",
        "{long}"
    );
    assert_eq!(current(&app, &demo, json!({})).await.len(), 2);
}
both_databases!(a_repeated_customer_ref_places_no_second_bet);

async fn refusals_are_failure_reports_with_betfairs_codes(app: TestApp) {
    let (market, market_id, runners) = exchange_market(&app, "Bots refusals").await;
    let demo = bot_login(&app, "demo").await;
    let refused = |answer: &Value, top: &str, instruction: &str| {
        assert_eq!(answer["status"], "FAILURE", "{answer}");
        assert_eq!(answer["errorCode"], top, "{answer}");
        assert_eq!(answer["instructionReports"][0]["status"], "FAILURE", "{answer}");
        assert_eq!(answer["instructionReports"][0]["errorCode"], instruction, "{answer}");
    };
    let off_ladder =
        place(&app, &demo, &market, json!([limit(runners[0], "BACK", json!(2.51), json!(5))]))
            .await;
    refused(&off_ladder, "BET_ACTION_ERROR", "INVALID_ODDS");
    let runner =
        place(&app, &demo, &market, json!([limit(999_999, "BACK", json!(2.5), json!(5))])).await;
    refused(&runner, "BET_ACTION_ERROR", "INVALID_RUNNER");
    let tiny =
        place(&app, &demo, &market, json!([limit(runners[0], "BACK", json!(2.5), json!(0.5))]))
            .await;
    refused(&tiny, "BET_ACTION_ERROR", "INVALID_BET_SIZE");
    let unknown =
        place(&app, &demo, "1.999999", json!([limit(runners[0], "BACK", json!(2.5), json!(5))]))
            .await;
    refused(&unknown, "INVALID_MARKET_ID", "ERROR_IN_ORDER");
    let mut on_close = limit(runners[0], "BACK", json!(2.5), json!(5));
    on_close["limitOrder"]["persistenceType"] = json!("MARKET_ON_CLOSE");
    refused(
        &place(&app, &demo, &market, json!([on_close])).await,
        "BET_ACTION_ERROR",
        "INVALID_PERSISTENCE_TYPE",
    );

    let too_many: Vec<Value> =
        (0..201).map(|_| limit(runners[0], "BACK", json!(2.5), json!(5))).collect();
    let too_many = place(&app, &demo, &market, json!(too_many)).await;
    assert_eq!(too_many["errorCode"], "TOO_MANY_INSTRUCTIONS", "{too_many}");
    assert_eq!(too_many["instructionReports"], json!([]));

    // More than the account holds: a lay at 1000 risks 999 times its size.
    let funds = call(&app, &demo, "account", "getAccountFunds", json!({})).await;
    let size = minor(&funds["availableToBetBalance"]) / 100 / 999 + 1;
    let broke =
        place(&app, &demo, &market, json!([limit(runners[0], "LAY", json!(1000), json!(size))]))
            .await;
    refused(&broke, "INSUFFICIENT_FUNDS", "INSUFFICIENT_FUNDS");

    // Each instruction answered on its own.
    let mixed = place(
        &app,
        &demo,
        &market,
        json!([
            limit(runners[0], "BACK", json!(2.5), json!(5)),
            limit(runners[0], "BACK", json!(2.51), json!(5))
        ]),
    )
    .await;
    assert_eq!(mixed["status"], "PROCESSED_WITH_ERRORS", "{mixed}");
    assert_eq!(mixed["instructionReports"][0]["status"], "SUCCESS");
    assert_eq!(mixed["instructionReports"][1]["errorCode"], "INVALID_ODDS");
    assert_eq!(current(&app, &demo, json!({})).await.len(), 1);

    set_status(&app, market_id, "suspended").await;
    let suspended =
        place(&app, &demo, &market, json!([limit(runners[0], "BACK", json!(2.5), json!(5))])).await;
    refused(&suspended, "MARKET_SUSPENDED", "ERROR_IN_ORDER");
    assert_eq!(
        current(&app, &demo, json!({})).await.len(),
        0,
        "the LAPSE order lapsed, nothing placed"
    );
}
both_databases!(refusals_are_failure_reports_with_betfairs_codes);

/// `admin/market/removeRunner` of `selection` with a reduction factor of 12.5 %.
async fn withdraw(
    app: &TestApp,
    token: &str,
    market_id: i64,
    selection: i64,
) -> crate::common::Answer {
    let body =
        json!({ "market_id": market_id, "selection_id": selection, "reduction_factor": 12.5 });
    app.post("admin/market/removeRunner", Some(token), body).await
}

/// A runner withdrawn from its market (a non-runner) by the operator is refused by the engine
/// itself, which tells a bot RUNNER_REMOVED and the web app why; the other runners still take
/// bets. Only an admin withdraws, once, and never so many that the market could not stand.
async fn a_withdrawn_runner_takes_no_bets_from_a_bot_or_the_web_app(app: TestApp) {
    let admin = app.admin().await;
    let matches = app.post("match/getMatches", Some(&admin), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Bots non-runner", "runners": ["Home", "Away", "Draw"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let market = format!("1.{market_id}");
    let web = app.demo().await;
    withdraw(&app, &web, market_id, runners[1]).await.expect(403);
    let removed = withdraw(&app, &admin, market_id, runners[1]).await;
    removed.expect(200);
    assert_eq!(removed.data()["prices_reduced"], true, "{}", removed.body);
    assert_eq!(removed.data()["name"], "Away");
    withdraw(&app, &admin, market_id, runners[1]).await.expect(409);
    // Two runners left: a third withdrawal would leave a market of one.
    let alone = withdraw(&app, &admin, market_id, runners[2]).await;
    alone.expect(409);
    assert!(alone.message().contains("would not stand"), "{}", alone.message());

    let demo = bot_login(&app, "demo").await;
    let answer =
        place(&app, &demo, &market, json!([limit(runners[1], "BACK", json!(2.5), json!(5))])).await;
    assert_eq!(answer["status"], "FAILURE", "{answer}");
    assert_eq!(answer["errorCode"], "BET_ACTION_ERROR", "{answer}");
    assert_eq!(answer["instructionReports"][0]["errorCode"], "RUNNER_REMOVED", "{answer}");

    let bet = json!({ "market_id": market_id, "selection_id": runners[1], "side": "back", "price": 2.5, "stake": 5 });
    let refused = app.post("bet/placeBet", Some(&web), bet).await;
    refused.expect(409);
    assert_eq!(
        refused.message(),
        format!("Runner {} was withdrawn from this market and takes no bets.", runners[1])
    );
    let other =
        place(&app, &demo, &market, json!([limit(runners[0], "BACK", json!(2.5), json!(5))])).await;
    assert_eq!(other["status"], "SUCCESS", "{other}");
}
both_databases!(a_withdrawn_runner_takes_no_bets_from_a_bot_or_the_web_app);

async fn cancel_replace_and_update_an_unmatched_order(app: TestApp) {
    let (market, market_id, runners) = exchange_market(&app, "Bots edits").await;
    let demo = bot_login(&app, "demo").await;
    let mut back = limit(runners[0], "BACK", json!(3), json!(10));
    back["customerOrderRef"] = json!("order-7");
    let placed = betting(&app, &demo, "placeOrders", json!({ "marketId": market, "customerStrategyRef": "strat-a", "instructions": [back, limit(runners[1], "BACK", json!(5), json!(8))] })).await;
    let bet_id = placed["instructionReports"][0]["betId"].as_str().unwrap().to_string();
    let other_id = placed["instructionReports"][1]["betId"].as_str().unwrap().to_string();

    let update = |persistence: &str| json!({ "marketId": market, "instructions": [{ "betId": bet_id, "newPersistenceType": persistence }] });
    let updated = betting(&app, &demo, "updateOrders", update("PERSIST")).await;
    assert_eq!(updated["status"], "SUCCESS", "{updated}");
    assert_eq!(
        updated["instructionReports"][0]["instruction"],
        json!({ "betId": bet_id, "newPersistenceType": "PERSIST" })
    );
    let same = betting(&app, &demo, "updateOrders", update("PERSIST")).await;
    assert_eq!(same["instructionReports"][0]["errorCode"], "NO_ACTION_REQUIRED", "{same}");

    let cancelled = betting(
        &app,
        &demo,
        "cancelOrders",
        json!({ "marketId": market, "instructions": [{ "betId": bet_id, "sizeReduction": 4 }] }),
    )
    .await;
    assert_eq!(cancelled["status"], "SUCCESS", "{cancelled}");
    assert_eq!(cancelled["instructionReports"][0]["sizeCancelled"], 4.0);
    assert_eq!(
        cancelled["instructionReports"][0]["instruction"],
        json!({ "betId": bet_id, "sizeReduction": 4 })
    );

    let replaced = betting(
        &app,
        &demo,
        "replaceOrders",
        json!({ "marketId": market, "instructions": [{ "betId": bet_id, "newPrice": 3.5 }] }),
    )
    .await;
    assert_eq!(replaced["status"], "SUCCESS", "{replaced}");
    let report = &replaced["instructionReports"][0];
    assert_eq!(report["cancelInstructionReport"]["sizeCancelled"], 6.0);
    let place_report = &report["placeInstructionReport"];
    assert_eq!(
        place_report["instruction"]["limitOrder"],
        json!({ "size": 6.0, "price": 3.5, "persistenceType": "PERSIST" })
    );
    let new_id = place_report["betId"].as_str().unwrap().to_string();
    assert_ne!(new_id, bet_id);

    let executable = current(
        &app,
        &demo,
        json!({ "orderProjection": "EXECUTABLE", "customerOrderRefs": ["order-7"] }),
    )
    .await;
    assert_eq!(executable.len(), 1, "{executable:?}");
    assert_eq!(executable[0]["betId"], json!(new_id));
    assert_eq!(executable[0]["customerStrategyRef"], "strat-a");
    assert_eq!(executable[0]["persistenceType"], "PERSIST");
    assert_eq!(executable[0]["priceSize"], json!({ "price": 3.5, "size": 6.0 }));

    // The PERSIST order outlives a suspension; the LAPSE one lapses.
    set_status(&app, market_id, "suspended").await;
    let left = current(&app, &demo, json!({ "orderProjection": "EXECUTABLE" })).await;
    assert_eq!(left.iter().map(|o| o["betId"].clone()).collect::<Vec<_>>(), vec![json!(new_id)]);
    let lapsed = betting(&app, &demo, "listClearedOrders", json!({ "betStatus": "LAPSED" })).await;
    assert_eq!(lapsed["clearedOrders"][0]["betId"], json!(other_id), "{lapsed}");
    assert_eq!(lapsed["clearedOrders"][0]["sizeCancelled"], 8.0);
    set_status(&app, market_id, "open").await;

    // Cancel everything of the market; then there is nothing left to cancel.
    let all = betting(&app, &demo, "cancelOrders", json!({ "marketId": market })).await;
    assert_eq!(all["status"], "SUCCESS", "{all}");
    assert_eq!(all["instructionReports"][0]["instruction"], json!({ "betId": new_id }));
    assert_eq!(all["instructionReports"][0]["sizeCancelled"], 6.0);
    let again =
        betting(&app, &demo, "cancelOrders", json!({ "instructions": [{ "betId": new_id }] }))
            .await;
    assert_eq!(again["status"], "FAILURE");
    assert_eq!(again["instructionReports"][0]["errorCode"], "BET_TAKEN_OR_LAPSED");
    let cancelled = betting(
        &app,
        &demo,
        "listClearedOrders",
        json!({ "betStatus": "CANCELLED", "customerOrderRefs": ["order-7"] }),
    )
    .await;
    assert_eq!(cancelled["clearedOrders"].as_array().unwrap().len(), 2, "{cancelled}");
    assert!(current(&app, &demo, json!({ "orderProjection": "EXECUTABLE" })).await.is_empty());
}
both_databases!(cancel_replace_and_update_an_unmatched_order);

async fn someone_elses_bet_is_refused_as_an_unknown_one(app: TestApp) {
    let (market, _, runners) = exchange_market(&app, "Bots privacy").await;
    let demo = bot_login(&app, "demo").await;
    let demo2 = bot_login(&app, "demo2").await;
    let placed =
        place(&app, &demo, &market, json!([limit(runners[0], "BACK", json!(3), json!(10))])).await;
    let bet_id = placed["instructionReports"][0]["betId"].as_str().unwrap().to_string();
    let unknown_id = (bet_id.parse::<i64>().unwrap() + 1000).to_string();

    let cancel = |id: &str| json!({ "instructions": [{ "betId": id }] });
    let theirs = betting(&app, &demo2, "cancelOrders", cancel(&bet_id)).await;
    let nobodys = betting(&app, &demo2, "cancelOrders", cancel(&unknown_id)).await;
    assert_eq!(theirs["instructionReports"][0]["errorCode"], "INVALID_BET_ID", "{theirs}");
    assert_eq!(theirs["instructionReports"][0]["instruction"], json!({ "betId": bet_id }));
    assert_eq!(theirs["status"], nobodys["status"]);
    assert_eq!(
        theirs["instructionReports"][0]["errorCode"],
        nobodys["instructionReports"][0]["errorCode"]
    );
    let replace = betting(
        &app,
        &demo2,
        "replaceOrders",
        json!({ "marketId": market, "instructions": [{ "betId": bet_id, "newPrice": 4 }] }),
    )
    .await;
    assert_eq!(replace["instructionReports"][0]["errorCode"], "INVALID_BET_ID", "{replace}");
    let update = betting(&app, &demo2, "updateOrders", json!({ "marketId": market, "instructions": [{ "betId": bet_id, "newPersistenceType": "PERSIST" }] })).await;
    assert_eq!(update["instructionReports"][0]["errorCode"], "INVALID_BET_ID", "{update}");
    assert!(current(&app, &demo2, json!({ "betIds": [bet_id] })).await.is_empty());

    let mine = current(&app, &demo, json!({ "betIds": [bet_id] })).await;
    assert_eq!(mine[0]["sizeRemaining"], 10.0, "untouched");
    assert_eq!(mine[0]["persistenceType"], "LAPSE");
}
both_databases!(someone_elses_bet_is_refused_as_an_unknown_one);

/// In a cluster a bot's order and its persistence change reach the market's owner from any
/// node, references included (they travel in the engine's wire calls).
#[tokio::test]
async fn a_bots_orders_reach_the_markets_owner_from_another_node() {
    let Some(first) = crate::common::spawn_app(crate::common::Db::Postgres).await else { return };
    let second = first.second_node().await;
    let (market, market_id, runners) = exchange_market(&first, "Bots across nodes").await;
    let store = first.store().await;
    let owner = store.owner_of(&format!("market:{market_id}")).await.unwrap().expect("an owner");
    assert_eq!(owner.url, root(&first), "the node that created the market runs it");

    let demo = bot_login(&second, "demo").await;
    let mut back = limit(runners[0], "BACK", json!(3), json!(10));
    back["customerOrderRef"] = json!("across-ref");
    let placed = betting(&second, &demo, "placeOrders", json!({ "marketId": market, "customerRef": "across-1", "customerStrategyRef": "across", "instructions": [back.clone()] })).await;
    assert_eq!(placed["status"], "SUCCESS", "{placed}");
    let bet_id = placed["instructionReports"][0]["betId"].as_str().unwrap().to_string();
    let again = betting(
        &second,
        &demo,
        "placeOrders",
        json!({ "marketId": market, "customerRef": "across-1", "instructions": [back] }),
    )
    .await;
    assert_eq!(again["errorCode"], "DUPLICATE_TRANSACTION", "{again}");

    let updated = betting(&second, &demo, "updateOrders", json!({ "marketId": market, "instructions": [{ "betId": bet_id, "newPersistenceType": "PERSIST" }] })).await;
    assert_eq!(updated["status"], "SUCCESS", "{updated}");
    // Suspended on the owner: the order, now PERSIST in the owner's book, stays.
    set_status(&first, market_id, "suspended").await;
    let orders = current(&first, &demo, json!({})).await;
    assert_eq!(orders.len(), 1, "{orders:?}");
    assert_eq!(orders[0]["sizeRemaining"], 10.0);
    assert_eq!(orders[0]["persistenceType"], "PERSIST");
    assert_eq!(orders[0]["customerOrderRef"], "across-ref");
    assert_eq!(orders[0]["customerStrategyRef"], "across");
}
