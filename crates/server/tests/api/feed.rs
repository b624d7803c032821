//! An upstream feed (`--feed`) of flumine's recorded greyhound race at Sheffield (tests/feeds):
//! its markets made here with their catalogue's names, moved as upstream, settled with the
//! recorded winner; bad lines refused and counted; a restart joining what was made; the feed's
//! figures for the admin alone.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use backlay_core::exchange::MarketStatus;
use backlay_kit::config::{Config, FeedConfig, FeedSettle, FeedSource};
use serde_json::Value;

use crate::both_databases;
use crate::common::TestApp;

const WIN: &str = "1.197931750";
const PLACE: &str = "1.197931751";
/// 18:13:20 UTC on the day: the markets open, the race not yet off (18:26).
const BEFORE_THE_OFF_PT: i64 = 1_650_392_800_000;
const FEED_WAIT: Duration = Duration::from_secs(30);

fn feeds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/feeds/flumine")
}

fn feed(files: &[PathBuf], until_pt: Option<i64>) -> FeedConfig {
    FeedConfig {
        sources: files.iter().cloned().map(FeedSource::BetfairFile).collect(),
        speed: 0.0,
        until_pt,
        catalogues: vec![feeds().join("catalogues")],
        settle: FeedSettle::Auto,
    }
}

/// The feeds' figures once every feed has finished.
async fn finished_feeds(app: &TestApp, admin: &str) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let answer = app.get("admin/feed/status", Some(admin)).await;
        answer.expect(200);
        let feeds = answer.data()["feeds"].as_array().unwrap().clone();
        if !feeds.is_empty() && feeds.iter().all(|f| f["state"] == "finished") {
            return feeds;
        }
        assert!(started.elapsed() < FEED_WAIT, "the feed never finished: {feeds:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn whole_race(config: &mut Config) {
    config.feed = Some(feed(&[feeds().join(WIN)], None));
}

async fn a_recorded_race_is_made_here_and_settled_with_its_winner(app: TestApp) {
    let admin = app.admin().await;
    let feeds = finished_feeds(&app, &admin).await;
    let feed = &feeds[0];
    assert_eq!((feed["messages"].as_u64(), feed["refused"].as_u64()), (Some(166), Some(0)));
    assert_eq!(feed["first_refusal"], Value::Null);
    assert_eq!(feed["last_pt"], 1_650_392_996_470_i64);
    let market = &feed["markets"][0];
    assert_eq!(
        (market["upstream_market_id"].as_str(), market["status"].as_str()),
        (Some(WIN), Some("CLOSED"))
    );
    let mut names: Vec<(i64, String)> = market["runners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["upstream_selection_id"].as_i64().unwrap(), r["name"].as_str().unwrap().to_owned())
        })
        .collect();
    names.sort();
    assert_eq!(names[0], (36276560, "3. Kirabilly Kathy".to_owned()));
    assert_eq!(names.len(), 6);

    let store = app.store().await;
    let market_id = market["market_id"].as_i64().unwrap();
    let row = store.market(market_id).await.unwrap();
    assert_eq!(row.setup.name, "OR 280m");
    assert_eq!(row.status, MarketStatus::Closed);
    let order: Vec<&str> = row.setup.runners.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        order,
        [
            "1. Paradise Mission",
            "2. Sandwood Jet",
            "3. Kirabilly Kathy",
            "4. Gurtnacrehyblake",
            "5. Castlehill Jil",
            "6. Coolavanny Galiv"
        ],
        "in the upstream's sortPriority order"
    );
    let winner = row.setup.runners.iter().find(|r| Some(r.runner_id) == row.result_runner_id);
    assert_eq!(winner.map(|r| r.name.as_str()), Some("2. Sandwood Jet"));
    let the_match = store.match_by_id(row.setup.match_id).await.unwrap();
    assert_eq!((the_match.name.as_str(), the_match.sport_id), ("Sheffield 19th Apr", 4339));

    // A client reads none of it.
    let client = app.demo().await;
    app.get("admin/feed/status", Some(&client)).await.expect(403);
    app.get("admin/feed/status", None).await.expect(401);

    // A restart plays the recording again and joins what it made: nothing made twice.
    let mut app = app;
    app.restart().await;
    let admin = app.admin().await;
    let again = finished_feeds(&app, &admin).await;
    assert_eq!(again[0]["markets"][0]["market_id"], market["market_id"]);
    let races = store.matches(&Default::default()).await.unwrap();
    assert_eq!(races.iter().filter(|m| m.name == "Sheffield 19th Apr").count(), 1);
    assert_eq!(store.markets_of_match(row.setup.match_id).await.unwrap().len(), 1);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_recorded_race_is_made_here_and_settled_with_its_winner, super::whole_race);

fn both_markets_before_the_off(config: &mut Config) {
    config.feed = Some(feed(&[feeds().join(WIN), feeds().join(PLACE)], Some(BEFORE_THE_OFF_PT)));
}

async fn a_recording_stopped_before_the_off_leaves_its_markets_open(app: TestApp) {
    let admin = app.admin().await;
    let feeds = finished_feeds(&app, &admin).await;
    let markets = feeds[0]["markets"].as_array().unwrap();
    assert_eq!(markets.len(), 2);
    assert!(feeds[0]["last_pt"].as_i64().unwrap() <= BEFORE_THE_OFF_PT);
    let store = app.store().await;
    let rows = [
        store.market(markets[0]["market_id"].as_i64().unwrap()).await.unwrap(),
        store.market(markets[1]["market_id"].as_i64().unwrap()).await.unwrap(),
    ];
    assert_eq!(rows[0].setup.match_id, rows[1].setup.match_id, "one race, one match");
    for row in &rows {
        assert_eq!(row.status, MarketStatus::Open, "{}", row.setup.name);
        assert_eq!(row.settled_at_ms, None);
    }
    assert_eq!(rows[1].setup.name, "To Be Placed");
    assert!(rows[1].setup.winners > 1, "a place market pays more than one");
}
both_databases!(
    a_recording_stopped_before_the_off_leaves_its_markets_open,
    super::both_markets_before_the_off
);

fn with_bad_lines(config: &mut Config) {
    let dir = std::env::temp_dir().join(format!("backlay-feed-bad-{}", rand::random::<u64>()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read_to_string(feeds().join(WIN)).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(5, "{ a line cut short");
    lines.insert(9, r#"{"op":"mcm","pt":1650392680000,"mc":[{"id":"1.197931750","rc":[{"id":44331354,"atb":[[8.85,2]]}]}]}"#);
    let file = dir.join("with-bad-lines");
    std::fs::write(&file, lines.join("\n")).unwrap();
    config.feed = Some(feed(&[file], None));
}

async fn bad_lines_are_counted_with_the_first_reason_and_the_race_still_settles(app: TestApp) {
    let admin = app.admin().await;
    let feeds = finished_feeds(&app, &admin).await;
    let feed = &feeds[0];
    assert_eq!((feed["messages"].as_u64(), feed["refused"].as_u64()), (Some(166), Some(2)));
    let first = feed["first_refusal"].as_str().unwrap();
    assert!(first.contains("with-bad-lines line 6: not a JSON message"), "{first}");
    assert_eq!(feed["markets"][0]["status"], "CLOSED");
    let row =
        app.store().await.market(feed["markets"][0]["market_id"].as_i64().unwrap()).await.unwrap();
    assert_eq!(row.status, MarketStatus::Closed);
}
both_databases!(
    bad_lines_are_counted_with_the_first_reason_and_the_race_still_settles,
    super::with_bad_lines
);
