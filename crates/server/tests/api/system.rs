//! The dashboard's "System" card (`console/system`): an admin's alone, read from the same
//! recorder `GET /metrics` renders, so a bet moves both alike.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::TestApp;
use crate::metrics::{scrape, with_metrics_token, TOKEN};

async fn system(app: &TestApp, admin: &str) -> Value {
    let answer = app.post("console/system", Some(admin), json!({})).await;
    answer.expect(200);
    answer.data().clone()
}

fn count(figures: &Value, field: &str) -> u64 {
    figures[field].as_u64().unwrap_or_else(|| panic!("{field} is a count: {figures}"))
}

async fn the_system_card_reads_what_metrics_scrapes_and_only_an_admin_reads_it(app: TestApp) {
    let admin = app.admin().await;
    let agent = app.agent().await;
    let demo = app.demo().await;
    app.post("console/system", None, json!({})).await.expect(401);
    app.post("console/system", Some(&demo), json!({})).await.expect(403);
    let refused = app.post("console/system", Some(&agent), json!({})).await;
    refused.expect(403);
    assert_eq!(refused.message(), "Only an admin reads the server's own figures.");

    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "System", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let before = system(&app, &admin).await;
    assert_eq!(before["recording"], true, "the test servers record: {before}");
    let bet = json!({ "market_id": market_id, "selection_id": runners[0], "side": "back", "price": 2.5, "stake": 10 });
    app.post("bet/placeBet", Some(&demo), bet.clone()).await.expect(200);
    let suspended = json!({ "market_id": market_id, "status": "suspended" });
    app.post("admin/market/status", Some(&admin), suspended).await.expect(200);
    app.post("bet/placeBet", Some(&demo), bet).await.expect(409);
    let after = system(&app, &admin).await;
    let scraped = scrape(&app, TOKEN).await;

    // Other tests in this process bet too: at least ours moved the figure, and a scrape taken
    // after reads at least as many.
    assert!(count(&after, "bets_placed") > count(&before, "bets_placed"), "{before} → {after}");
    assert!(count(&after, "bets_refused") > count(&before, "bets_refused"), "{before} → {after}");
    let placed = scraped.total("backlay_bets_placed_total", &[]);
    assert!(placed >= count(&after, "bets_placed") as f64, "/metrics {placed}: {after}");
    let ms = |field: &str| after[field].as_f64().unwrap_or_else(|| panic!("{field}: {after}"));
    assert!(ms("placement_p50_ms") > 0.0 && ms("placement_p50_ms") <= ms("placement_p99_ms"));
    assert!(ms("commit_p99_ms") > 0.0);
    // A batch whose bets were all refused commits too, with none: the mean is above 0, not 1.
    assert!(ms("bets_per_commit") > 0.0, "{after}");
    // Read at the call from this server's engine, which runs at least the market opened here.
    assert!(count(&after, "markets_running") >= 1, "{after}");
    assert!(
        count(&after, "db_pool_in_use") + count(&after, "db_pool_idle") >= 1,
        "the pool: {after}"
    );
    assert!(after["logins"]["ok"].as_u64().unwrap() >= 3, "three log-ins: {after}");
    assert!(after["logins"]["refused"].is_u64() && after["lease_renewals"]["ok"].is_u64());
    assert!(after["refused_by_reason"].is_array() && after["feed_lag"].is_array());
}
both_databases!(
    the_system_card_reads_what_metrics_scrapes_and_only_an_admin_reads_it,
    super::with_metrics_token
);
