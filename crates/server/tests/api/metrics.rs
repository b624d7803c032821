//! `GET /metrics` (issue 31): read by an admin or with the metrics token, refused to anyone
//! else, parsed as Prometheus parses it, and moved by a bet.

use backlay_kit::metrics::reading::Reading;
use serde_json::json;

use crate::both_databases;
use crate::common::TestApp;

pub(crate) const TOKEN: &str = "0123456789abcdef0123456789abcdef-metrics";

pub(crate) fn with_metrics_token(config: &mut backlay_kit::config::Config) {
    config.metrics_token = Some(TOKEN.into());
}

/// The scrape as Prometheus reads it, with the bearer `token`.
pub(crate) async fn scrape(app: &TestApp, token: &str) -> Reading {
    let url = format!("{}/metrics", app.base.trim_end_matches("/api"));
    let answer = reqwest::Client::new().get(url).bearer_auth(token).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    Reading::parse(&answer.text().await.unwrap()).expect("Prometheus's text format")
}

async fn a_bet_moves_the_metrics_which_only_an_admin_or_the_token_reads(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let url = format!("{}/metrics", app.base.trim_end_matches("/api"));
    let client = reqwest::Client::new();
    assert_eq!(client.get(&url).send().await.unwrap().status(), 401, "no one");
    assert_eq!(client.get(&url).bearer_auth(&demo).send().await.unwrap().status(), 401, "a client");
    assert_eq!(
        client
            .get(&url)
            .bearer_auth("0123456789abcdef0123456789abcdef-wrong!!")
            .send()
            .await
            .unwrap()
            .status(),
        401,
        "a wrong token"
    );
    scrape(&app, &admin).await;

    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Metrics", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let before = scrape(&app, TOKEN).await;
    let placed = ("market_type", "match_odds");
    let bet = json!({ "market_id": market_id, "selection_id": runners[0], "side": "back", "price": 2.5, "stake": 10 });
    app.post("bet/placeBet", Some(&demo), bet).await.expect(200);
    let closed = app
        .post(
            "admin/market/status",
            Some(&admin),
            json!({ "market_id": market_id, "status": "suspended" }),
        )
        .await;
    closed.expect(200);
    let refused = json!({ "market_id": market_id, "selection_id": runners[0], "side": "back", "price": 2.5, "stake": 10 });
    app.post("bet/placeBet", Some(&demo), refused).await.expect(409);
    let after = scrape(&app, TOKEN).await;

    // Other tests in this process bet too: at least ours moved each figure.
    let moved = |name: &str, labels: &[(&str, &str)]| {
        after.total(name, labels) - before.total(name, labels)
    };
    assert!(moved("backlay_bets_placed_total", &[placed]) >= 1.0);
    assert!(moved("backlay_bets_refused_total", &[("reason", "market_not_open"), placed]) >= 1.0);
    for histogram in
        ["backlay_placement_seconds", "backlay_commit_seconds", "backlay_group_commit_bets"]
    {
        assert!(
            after.histogram(histogram).count > before.histogram(histogram).count,
            "{histogram} observed the bet"
        );
    }
    // SQLite commits the markets' batches in groups, counted at the scrape (on PostgreSQL
    // each batch commits alone; the recorder is the process's, shared with SQLite's tests).
    if app.database_url().starts_with("sqlite") {
        for name in ["backlay_placement_groups_total", "backlay_placement_group_batches_total"] {
            assert!(moved(name, &[]) >= 1.0, "{name} counted the bet's group");
        }
    }
    for state in ["in_use", "idle"] {
        let pool = after.values("backlay_db_pool_connections", &[("state", state)]);
        assert!(!pool.is_empty(), "the pool's {state} connections");
    }
    assert!(after.total("backlay_logins_total", &[("outcome", "ok")]) >= 2.0, "two log-ins");
    // Read at the scrape from this server's engine, which runs at least the market opened here.
    assert!(after.total("backlay_markets_running", &[]) >= 1.0);
    let queue_of = |scrape: &Reading| {
        let id = market_id.to_string();
        !scrape.values("backlay_engine_queue_depth", &[("market_id", &id)]).is_empty()
    };
    assert!(queue_of(&after), "the market's queue depth while its task runs");

    // A market that ended has no series left (the recorder would keep it for ever).
    app.post("admin/market/void", Some(&admin), json!({ "market_id": market_id }))
        .await
        .expect(200);
    assert!(!queue_of(&scrape(&app, TOKEN).await), "no queue depth for a voided market");
}
both_databases!(
    a_bet_moves_the_metrics_which_only_an_admin_or_the_token_reads,
    super::with_metrics_token
);
