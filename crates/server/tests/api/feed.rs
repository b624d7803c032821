//! An upstream feed (`--feed`) of flumine's recorded greyhound race at Sheffield (tests/feeds):
//! its markets made here with their catalogue's names, moved as upstream, settled with the
//! recorded winner; bad lines refused and counted; a restart joining what was made; the feed's
//! figures for the admin alone. And a market of one Backlay mirrored on another over the live
//! Exchange Stream: its price moves arrive, its silence suspends the market.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use backlay_core::exchange::{MarketStatus, MarketType};
use backlay_kit::config::{
    Config, FeedConfig, FeedSettle, FeedSource, StreamAccess, StreamLogin, StreamMarketFilter,
};
use serde_json::Value;

use crate::both_databases;
use crate::common::{spawn_app_with, Db, TestApp};

const WIN: &str = "1.197931750";
const PLACE: &str = "1.197931751";
/// 18:13:20 UTC on the day: the markets open, the race not yet off (18:26).
const BEFORE_THE_OFF_PT: i64 = 1_650_392_800_000;
const FEED_WAIT: Duration = Duration::from_secs(30);

fn recordings() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/feeds/flumine")
}

fn feed(files: &[PathBuf], until_pt: Option<i64>) -> FeedConfig {
    FeedConfig {
        sources: files.iter().cloned().map(FeedSource::BetfairFile).collect(),
        speed: 0.0,
        until_pt,
        catalogues: vec![recordings().join("catalogues")],
        settle: FeedSettle::Auto,
        size_percent: 100,
        max_level_minor: None,
        bankroll_minor: backlay_kit::config::DEFAULT_FEED_BANKROLL_MINOR,
        max_exposure_minor: None,
        bookmaker_margin_percent: None,
        stream: StreamAccess::default(),
        silence: Duration::from_secs(backlay_kit::config::DEFAULT_FEED_SILENCE_SECS),
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
    config.feed = Some(feed(&[recordings().join(WIN)], None));
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
    config.feed =
        Some(feed(&[recordings().join(WIN), recordings().join(PLACE)], Some(BEFORE_THE_OFF_PT)));
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
    let good = std::fs::read_to_string(recordings().join(WIN)).unwrap();
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

/// Each upstream runner's best three levels to back and to lay at `until_pt`, read from the
/// recordings here with the feed's own reader (held to betfairlightweight's by
/// tests/betfair/test_feed.py): (upstream selection id → (back, lay)) as (hundredths, minor).
type Levels = Vec<(u32, i64)>;
fn upstream_best(
    files: &[PathBuf],
    until_pt: i64,
) -> std::collections::HashMap<i64, (Levels, Levels)> {
    upstream_levels(files, until_pt, 3)
}

/// Each runner's levels upstream at `until_pt`, `depth` a side.
fn upstream_levels(
    files: &[PathBuf],
    until_pt: i64,
    depth: usize,
) -> std::collections::HashMap<i64, (Levels, Levels)> {
    use backlay_feed::recording::{Pace, Timeline};
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let mut timeline = Timeline::open(&paths).unwrap();
    let pace = Pace { speed: 0.0, until_pt: Some(until_pt) };
    let mut mirror = backlay_feed::Mirror::default();
    while timeline.next_pt().is_some_and(|pt| pace.plays(pt)) {
        let entry = timeline.next_entry().unwrap();
        mirror.apply(entry.message.unwrap()).unwrap();
    }
    let levels = |levels: Vec<backlay_feed::message::Level>| -> Levels {
        levels.iter().take(depth).map(|l| (l.price.hundredths(), l.size.minor())).collect()
    };
    mirror
        .markets()
        .flat_map(|m| m.runners().iter())
        .map(|r| (r.selection_id(), (levels(r.available_to_back()), levels(r.available_to_lay()))))
        .collect()
}

/// A feed market's runners: the runner here → its upstream selection.
fn upstream_selections(market: &Value) -> std::collections::HashMap<i64, i64> {
    market["runners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["selection_id"].as_i64().unwrap(), r["upstream_selection_id"].as_i64().unwrap())
        })
        .collect()
}

fn page_levels(levels: &Value) -> Levels {
    levels
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                (l["price"].as_f64().unwrap() * 100.0).round() as u32,
                crate::common::minor(&l["size"]),
            )
        })
        .collect()
}

fn win_before_the_off(config: &mut Config) {
    config.feed = Some(feed(&[recordings().join(WIN)], Some(BEFORE_THE_OFF_PT)));
}

async fn the_house_offers_the_upstream_ladder_and_pays_a_bettor_who_backed_the_winner(
    mut app: TestApp,
) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let feeds = finished_feeds(&app, &admin).await;
    let market = feeds[0]["markets"][0].clone();
    let (market_id, match_id) =
        (market["market_id"].as_i64().unwrap(), market["match_id"].as_i64().unwrap());
    let upstream_of = upstream_selections(&market);

    // The bettor's page shows, for every runner, the upstream's best three levels at sizes as
    // upstream (100 %): the house's lays in the back column, its backs in the lay column.
    let upstream = upstream_best(&[recordings().join(WIN)], BEFORE_THE_OFF_PT);
    let detail = app
        .post("match/matchDetail", Some(&demo), serde_json::json!({ "match_id": match_id }))
        .await;
    detail.expect(200);
    let page = detail.data()["markets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["market_id"] == market_id)
        .unwrap()
        .clone();
    assert_eq!(page["status"], "open");
    for runner in page["runners"].as_array().unwrap() {
        let selection = upstream_of[&runner["selection_id"].as_i64().unwrap()];
        let (back, lay) = &upstream[&selection];
        assert!(!back.is_empty() && !lay.is_empty(), "selection {selection} has prices upstream");
        assert_eq!(&page_levels(&runner["back"]), back, "back column of {}", runner["name"]);
        assert_eq!(&page_levels(&runner["lay"]), lay, "lay column of {}", runner["name"]);
    }

    // The bettor backs the winner-to-be at its best price, into the house's lay.
    let winner = page["runners"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "2. Sandwood Jet")
        .unwrap()
        .clone();
    let best_back = winner["back"][0]["price"].as_f64().unwrap();
    let before = app.balance_minor(&demo).await;
    let bet = app
        .post(
            "bet/placeBet",
            Some(&demo),
            serde_json::json!({ "market_id": market_id, "selection_id": winner["selection_id"], "side": "back", "price": best_back.to_string(), "stake": 100 }),
        )
        .await;
    bet.expect(200);
    let matched = crate::common::minor(&bet.data()["size_matched"]);
    assert!(matched > 0 && matched < 100_00, "the house's lay took some of it: {}", bet.body);
    // The unmatched rest is cancelled, so that what is settled is what the house took.
    app.post("bet/cancelBet", Some(&demo), serde_json::json!({ "bet_id": bet.data()["bet_id"] }))
        .await
        .expect(200);

    // The rest of the race, replayed from the start on a restart: the market is joined, not
    // made again, and settled with the recorded winner.
    app.restart_with(|config| config.feed = Some(feed(&[recordings().join(WIN)], None))).await;
    let admin = app.admin().await;
    let again = finished_feeds(&app, &admin).await;
    assert_eq!(again[0]["markets"][0]["market_id"], market_id);
    assert_eq!(again[0]["markets"][0]["status"], "CLOSED");
    let demo = app.demo().await;
    let after = app.balance_minor(&demo).await;
    // Won: matched × (price − 1), less at most the market's 2 % commission on it.
    let gross = matched * ((best_back * 100.0).round() as i64 - 100) / 100;
    let won = after - before;
    assert!(won <= gross && won >= gross - gross * 2 / 100 - 1, "won {won} of {gross}");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(
    the_house_offers_the_upstream_ladder_and_pays_a_bettor_who_backed_the_winner,
    super::win_before_the_off
);

fn win_before_the_off_capped(config: &mut Config) {
    let mut capped = feed(&[recordings().join(WIN)], Some(BEFORE_THE_OFF_PT));
    capped.max_exposure_minor = Some(HOUSE_CAP_MINOR);
    config.feed = Some(capped);
}

/// `--feed-max-exposure` in the capped test: ₹500, a few of the race's levels.
const HOUSE_CAP_MINOR: i64 = 500_00;

async fn the_house_quotes_no_market_past_its_exposure_cap(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let feeds = finished_feeds(&app, &admin).await;
    let market = feeds[0]["markets"][0].clone();
    let (market_id, match_id) =
        (market["market_id"].as_i64().unwrap(), market["match_id"].as_i64().unwrap());
    let house = app.user_id(&admin, "feed").await;
    let exposures = app.store().await.exposures_of_market(market_id).await.unwrap();
    let exposure = exposures.iter().find(|(user, _)| *user == house).map_or(0, |(_, e)| *e);
    assert!(exposure > 0 && exposure <= HOUSE_CAP_MINOR, "the house's worst case here: {exposure}");

    // What it quotes is the upstream's, but not all of it.
    let upstream = upstream_levels(&[recordings().join(WIN)], BEFORE_THE_OFF_PT, usize::MAX);
    let page = app.match_market(&demo, match_id, market_id).await;
    let upstream_of = upstream_selections(&market);
    let mut shown_levels = 0;
    for runner in page["runners"].as_array().unwrap() {
        let (back, lay) = &upstream[&upstream_of[&runner["selection_id"].as_i64().unwrap()]];
        for (column, levels) in [(&runner["back"], back), (&runner["lay"], lay)] {
            let shown = page_levels(column);
            assert!(
                shown.iter().all(|level| levels.contains(level)),
                "{shown:?} not in {levels:?}"
            );
            shown_levels += shown.len();
        }
    }
    let upstream_count: usize = upstream.values().map(|(back, lay)| back.len() + lay.len()).sum();
    let orders = app.store().await.live_bets_of_user(house, Some(match_id), 1_000).await.unwrap();
    let resting = orders.iter().filter(|(bet, _)| bet.market_id == market_id).count();
    assert!(
        shown_levels > 0 && resting < upstream_count,
        "the house rests {resting} orders of the upstream's {upstream_count} levels"
    );
    app.assert_ledger_sound(&admin).await;
}
both_databases!(the_house_quotes_no_market_past_its_exposure_cap, super::win_before_the_off_capped);

/// A recording of `lines` in the system's temp folder (left there: a few hundred bytes).
fn temp_recording(name: &str, lines: &[String]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("backlay-feed-{name}-{}", rand::random::<u64>()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// A match-odds market that goes in play with a bet delay of 5 s (0 before the off).
fn a_market_whose_bet_delay_changes_at_the_off(config: &mut Config) {
    let line = |pt: i64, in_play: bool, delay: u32, image: bool| {
        format!(
            r#"{{"op":"mcm","clk":"{pt}","pt":{pt},"mc":[{{"id":"1.600","img":{image},"marketDefinition":{{"eventTypeId":"1","eventId":"32001","eventName":"Owls v Hawks","marketType":"MATCH_ODDS","status":"OPEN","inPlay":{in_play},"betDelay":{delay},"numberOfWinners":1,"runners":[{{"id":1,"sortPriority":1,"status":"ACTIVE","name":"Owls"}},{{"id":2,"sortPriority":2,"status":"ACTIVE","name":"Hawks"}}]}}}}]}}"#
        )
    };
    let recording = temp_recording(
        "delay",
        &[line(1_700_000_000_000, false, 0, true), line(1_700_000_060_000, true, 5, false)],
    );
    config.feed = Some(feed(&[recording], None));
}

async fn the_bet_delay_follows_the_upstreams_at_the_off(app: TestApp) {
    let admin = app.admin().await;
    let feeds = finished_feeds(&app, &admin).await;
    assert_eq!(feeds[0]["last_error"], Value::Null, "{}", feeds[0]);
    let market_id = feeds[0]["markets"][0]["market_id"].as_i64().unwrap();
    let row = app.store().await.market(market_id).await.unwrap();
    assert_eq!((row.setup.bet_delay_ms, row.status), (5_000, MarketStatus::Open));
    let the_match = app.store().await.match_by_id(row.setup.match_id).await.unwrap();
    assert!(the_match.in_play);
}
both_databases!(
    the_bet_delay_follows_the_upstreams_at_the_off,
    super::a_market_whose_bet_delay_changes_at_the_off
);

/// Two nodes of a cluster both started with the same recording: the feed runs on the one that
/// leads, once, so its markets are made once and one house quotes them.
#[tokio::test]
async fn in_a_cluster_the_feed_runs_on_the_leader_alone() {
    let Some(first) = spawn_app_with(Db::Postgres, win_before_the_off).await else { return };
    let second = first.second_node().await;
    let admin = first.admin().await;
    let started = Instant::now();
    let runs = loop {
        let mut runs = Vec::new();
        for node in [&first, &second] {
            let answer = node.get("admin/feed/status", Some(&admin)).await;
            answer.expect(200);
            runs.push(answer.data()["feeds"].as_array().unwrap().clone());
        }
        if runs.iter().any(|feeds| feeds.iter().any(|f| f["state"] == "finished")) {
            break runs;
        }
        assert!(started.elapsed() < FEED_WAIT, "no node ran the feed: {runs:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let running: Vec<usize> = (0..2).filter(|i| !runs[*i].is_empty()).collect();
    assert_eq!(running.len(), 1, "one node runs the feed: {runs:?}");
    // Give the other node time to have started one too, had it wrongly done so.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle = if running[0] == 0 { &second } else { &first };
    let answer = idle.get("admin/feed/status", Some(&admin)).await;
    assert_eq!(answer.data()["feeds"], serde_json::json!([]), "the other node runs none");
    let store = first.store().await;
    let made = store
        .upstream_links_under(backlay_store::upstream::UpstreamKind::Market, "1.")
        .await
        .unwrap();
    assert_eq!(made.len(), 1, "the market is made once: {made:?}");
}

/// The non-runner race's moments: open (with prices), Charlie withdrawn, the result.
const RACE_OPEN_PT: i64 = 1_700_000_000_000;
const CHARLIE_OUT_PT: i64 = RACE_OPEN_PT + 30_000;
const RACE_CLOSED_PT: i64 = RACE_OPEN_PT + 60_000;

/// A win market of three runners with prices; at +30 s Charlie is withdrawn with an adjustment
/// factor of 25 %; at +60 s it closes with Alpha the winner.
fn non_runner_race() -> PathBuf {
    let definition = |status: &str, charlie: &str, alpha: &str, bravo: &str| {
        format!(
            r#"{{"eventTypeId":"7","eventId":"31001","eventName":"Testwood 1st May","marketType":"WIN","venue":"Testwood","status":"{status}","inPlay":false,"betDelay":0,"numberOfWinners":1,"runners":[{{"id":1,"sortPriority":1,"status":"{alpha}","name":"Alpha"}},{{"id":2,"sortPriority":2,"status":"{bravo}","name":"Bravo"}},{{"id":3,"sortPriority":3,"status":"{charlie}","adjustmentFactor":25.0,"name":"Charlie"}}]}}"#
        )
    };
    temp_recording(
        "race",
        &[
            format!(
                r#"{{"op":"mcm","clk":"1","pt":{RACE_OPEN_PT},"mc":[{{"id":"1.500","img":true,"marketDefinition":{},"rc":[{{"id":1,"atb":[[4.0,500]]}},{{"id":2,"atb":[[3.0,500]]}},{{"id":3,"atb":[[2.0,500]]}}]}}]}}"#,
                definition("OPEN", "ACTIVE", "ACTIVE", "ACTIVE")
            ),
            format!(
                r#"{{"op":"mcm","clk":"2","pt":{CHARLIE_OUT_PT},"mc":[{{"id":"1.500","marketDefinition":{}}}]}}"#,
                definition("OPEN", "REMOVED", "ACTIVE", "ACTIVE")
            ),
            format!(
                r#"{{"op":"mcm","clk":"3","pt":{RACE_CLOSED_PT},"mc":[{{"id":"1.500","marketDefinition":{}}}]}}"#,
                definition("CLOSED", "REMOVED", "WINNER", "LOSER")
            ),
        ],
    )
}

fn a_race_with_a_non_runner(config: &mut Config) {
    config.feed = Some(feed(&[non_runner_race()], Some(RACE_OPEN_PT + 10_000)));
}

/// Betfair's non-runner rule: a bettor backs Alpha at 4.00 and Charlie at 2.00, 100.00 each (matched
/// by the house) and leaves a back on Bravo unmatched; Charlie is withdrawn with a reduction
/// factor of 25 %: the Charlie bet is void, the Bravo order cancelled, Alpha's 4.00 now pays
/// 3.00, and nobody can back Charlie any more; Alpha wins and is paid at 3.00.
async fn a_non_runners_bets_are_void_and_the_others_matched_prices_reduced(mut app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let feeds = finished_feeds(&app, &admin).await;
    let market = feeds[0]["markets"][0].clone();
    let (market_id, match_id) =
        (market["market_id"].as_i64().unwrap(), market["match_id"].as_i64().unwrap());
    let page = app.match_market(&demo, match_id, market_id).await;
    let runner = |name: &str| {
        page["runners"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap()
            ["selection_id"]
            .as_i64()
            .unwrap()
    };
    let (alpha, bravo, charlie) = (runner("Alpha"), runner("Bravo"), runner("Charlie"));
    let before = app.balance_minor(&demo).await;
    let mut bet_ids = Vec::new();
    for (selection, price, stake, matched) in
        [(alpha, "4.00", 100, 100_00), (charlie, "2.00", 100, 100_00), (bravo, "20.00", 100, 0)]
    {
        let bet = app
            .post(
                "bet/placeBet",
                Some(&demo),
                serde_json::json!({ "market_id": market_id, "selection_id": selection, "side": "back", "price": price, "stake": stake }),
            )
            .await;
        bet.expect(200);
        assert_eq!(crate::common::minor(&bet.data()["size_matched"]), matched, "{}", bet.body);
        bet_ids.push(bet.data()["bet_id"].as_i64().unwrap());
    }
    let demo_id = app.user_id(&admin, "demo").await;
    let house = app.user_id(&admin, "feed").await;
    let exposure_of = |exposures: &[(i64, i64)], user: i64| {
        exposures.iter().find(|(u, _)| *u == user).map_or(0, |(_, e)| *e)
    };
    let exposures = app.store().await.exposures_of_market(market_id).await.unwrap();
    // Bravo wins: −100.00 − 100.00 (the unmatched Bravo back would win: it does not count).
    assert_eq!(exposure_of(&exposures, demo_id), 200_00);

    // Charlie is withdrawn while the market stays open: played at ten times its pace, so that
    // the withdrawal comes in a pass of its own, after the market was brought up to date.
    app.restart_with(|config| {
        let mut paced = feed(&[non_runner_race()], Some(CHARLIE_OUT_PT + 10_000));
        paced.speed = 10.0;
        config.feed = Some(paced);
    })
    .await;
    let (admin, demo) = (app.admin().await, app.demo().await);
    let feeds = finished_feeds(&app, &admin).await;
    assert_eq!(feeds[0]["last_error"], Value::Null, "{}", feeds[0]);
    let store = app.store().await;
    let row = store.market(market_id).await.unwrap();
    let status_of = |id: i64| row.setup.runners.iter().find(|r| r.runner_id == id).unwrap().status;
    use backlay_store::markets::RunnerStatus;
    assert_eq!(
        [status_of(alpha), status_of(bravo), status_of(charlie)],
        [RunnerStatus::Active, RunnerStatus::Active, RunnerStatus::Removed],
        "{}",
        feeds[0]
    );
    let bets: Vec<_> = futures::future::join_all(bet_ids.iter().map(|id| store.bet(*id))).await;
    let [on_alpha, on_charlie, on_bravo] = [0, 1, 2].map(|i| bets[i].as_ref().unwrap().clone());
    assert_eq!(on_charlie.status.as_str(), "void");
    assert_eq!(on_charlie.pnl_minor, Some(0));
    assert_eq!((on_bravo.remaining_minor, on_bravo.cancelled_minor), (0, 100_00));
    assert_eq!(on_alpha.matched_minor, 100_00);
    // Alpha's fill now pays 3.00: 200.00 on 100.00, the house's liability the same.
    let fills = store.fills_of_market(market_id).await.unwrap();
    let alpha_fill = fills.iter().find(|f| f.back_bet_id == on_alpha.bet_id).unwrap();
    assert_eq!((alpha_fill.price, alpha_fill.backer_profit_minor), (400, 200_00));
    assert!(fills.iter().all(|f| f.runner_id != charlie), "Charlie's fills no longer count");
    let exposures = store.exposures_of_market(market_id).await.unwrap();
    assert_eq!(exposure_of(&exposures, demo_id), 100_00, "only the Alpha back can lose now");
    assert!(exposure_of(&exposures, house) >= 200_00, "the house still lays Alpha: {exposures:?}");
    // Nobody backs a non-runner.
    let refused = app
        .post(
            "bet/placeBet",
            Some(&demo),
            serde_json::json!({ "market_id": market_id, "selection_id": charlie, "side": "back", "price": "2.00", "stake": 100 }),
        )
        .await;
    refused.expect(409);
    assert!(
        refused.body["message"].as_str().unwrap_or_default().contains("withdrawn"),
        "{}",
        refused.body
    );
    app.assert_ledger_sound(&admin).await;

    // The result: Alpha wins, paid at the reduced 3.00.
    app.restart_with(|config| config.feed = Some(feed(&[non_runner_race()], None))).await;
    let (admin, demo) = (app.admin().await, app.demo().await);
    finished_feeds(&app, &admin).await;
    let store = app.store().await;
    let row = store.market(market_id).await.unwrap();
    assert_eq!((row.status, row.result_runner_id), (MarketStatus::Closed, Some(alpha)));
    let commission = (200_00 * row.setup.commission_bp + 5_000) / 10_000;
    assert_eq!(app.balance_minor(&demo).await - before, 200_00 - commission);
    assert_eq!(store.bet(on_alpha.bet_id).await.unwrap().pnl_minor, Some(200_00));
    let on_charlie = store.bet(on_charlie.bet_id).await.unwrap();
    assert_eq!((on_charlie.status.as_str(), on_charlie.pnl_minor), ("void", Some(0)));
    app.assert_ledger_sound(&admin).await;
}
both_databases!(
    a_non_runners_bets_are_void_and_the_others_matched_prices_reduced,
    super::a_race_with_a_non_runner
);

/// betfairlightweight's cricket score stream with a match-odds market of its event before it
/// (the recording holds the scores alone; the market's definition line is written here).
fn cricket_with_its_market(config: &mut Config) {
    let dir = std::env::temp_dir().join(format!("backlay-feed-cricket-{}", rand::random::<u64>()));
    std::fs::create_dir_all(&dir).unwrap();
    let market = dir.join("market");
    std::fs::write(
        &market,
        r#"{"op":"mcm","clk":"1","pt":1643299000000,"mc":[{"id":"1.179676557","img":true,"marketDefinition":{"eventTypeId":"4","eventId":"30610310","eventName":"Karachi Kings v Multan Sultans","marketType":"MATCH_ODDS","status":"OPEN","inPlay":true,"betDelay":5,"numberOfWinners":1,"runners":[{"id":1,"sortPriority":1,"status":"ACTIVE","name":"Karachi Kings"},{"id":2,"sortPriority":2,"status":"ACTIVE","name":"Multan Sultans"}]},"rc":[{"id":1,"atb":[[1.8,100]],"atl":[[1.85,80]]}]}]}"#,
    )
    .unwrap();
    let scores = recordings().join("../betfairlightweight/CRICKET-1.179676557");
    config.feed = Some(feed(&[market, scores], None));
}

async fn a_cricket_score_from_the_feed_is_on_the_match_page(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let feeds = finished_feeds(&app, &admin).await;
    assert_eq!((feeds[0]["messages"].as_u64(), feeds[0]["refused"].as_u64()), (Some(4), Some(0)));
    let market = &feeds[0]["markets"][0];
    let detail = app
        .post(
            "match/matchDetail",
            Some(&demo),
            serde_json::json!({ "match_id": market["match_id"] }),
        )
        .await;
    detail.expect(200);
    let the_match = &detail.data()["match"];
    assert_eq!(the_match["name"], "Karachi Kings v Multan Sultans");
    assert_eq!(the_match["in_play"], true);
    // The latest score the stream sent: 81 for 2 after 13 overs of a T20.
    let score = &the_match["score"];
    assert_eq!(score["overs_limit"], 20, "{score}");
    let innings = &score["innings"][0];
    assert_eq!(
        (innings["side"].as_str(), innings["runs"].as_u64(), innings["wickets"].as_u64()),
        (Some("Karachi Kings"), Some(81), Some(2)),
        "{score}"
    );
    assert_eq!(
        (innings["overs"].as_u64(), innings["balls"].as_u64()),
        (Some(13), Some(0)),
        "{score}"
    );
}
both_databases!(a_cricket_score_from_the_feed_is_on_the_match_page, super::cricket_with_its_market);

fn cricket_with_a_bookmaker_twin(config: &mut Config) {
    cricket_with_its_market(config);
    config.feed.as_mut().unwrap().bookmaker_margin_percent = Some(5);
}

/// With `--feed-bookmaker-margin 5` the match-odds market gets a bookmaker twin in its match:
/// Karachi Kings at 1.8 to back and 1.85 to lay upstream is rated 76 to back (80 less 5 %) and
/// 90 to lay (85 and 5 %, rounded up); a bet at the posted rate is taken, one at a better rate
/// refused as a changed rate.
async fn a_match_odds_market_has_a_bookmaker_twin_at_the_upstream_prices_widened_by_the_margin(
    app: TestApp,
) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let feeds = finished_feeds(&app, &admin).await;
    let markets = feeds[0]["markets"].as_array().unwrap();
    assert_eq!(markets.len(), 2, "{markets:?}");
    let twin = &markets[1];
    assert_eq!(twin["upstream_market_id"], "1.179676557/bookmaker");
    assert_eq!(twin["match_id"], markets[0]["match_id"]);
    let kings =
        twin["runners"].as_array().unwrap().iter().find(|r| r["name"] == "Karachi Kings").unwrap();
    let twin_id = twin["market_id"].as_i64().unwrap();
    let row = app.store().await.market(twin_id).await.unwrap();
    assert_eq!((row.setup.market_type, row.status), (MarketType::Bookmaker, MarketStatus::Open));
    let rates = row.setup.runners.iter().find(|r| r.name == "Karachi Kings").unwrap();
    assert_eq!((rates.back_rate, rates.lay_rate), (Some(76), Some(90)));
    let sultans = row.setup.runners.iter().find(|r| r.name == "Multan Sultans").unwrap();
    assert_eq!((sultans.back_rate, sultans.lay_rate), (None, None), "no upstream prices, no rates");

    let bet = |price: i64| serde_json::json!({ "market_id": twin_id, "selection_id": kings["selection_id"], "side": "back", "price": price, "stake": 1000 });
    app.post("bet/placeBet", Some(&demo), bet(77)).await.expect(409);
    let taken = app.post("bet/placeBet", Some(&demo), bet(76)).await;
    taken.expect(200);
    assert_eq!(taken.data()["status"], "matched");
    app.assert_ledger_sound(&admin).await;
}
both_databases!(
    a_match_odds_market_has_a_bookmaker_twin_at_the_upstream_prices_widened_by_the_margin,
    super::cricket_with_a_bookmaker_twin
);

/// A second server that logs in to `upstream`'s stream as its client `mirror` (made here),
/// trusting its self-signed certificate; mirroring `market` from the start, or none (the
/// console adds feeds with the same access).
async fn mirror_of(upstream: &TestApp, admin: &str, market: Option<&str>) -> TestApp {
    upstream.new_user(admin, "mirror", "client").await;
    let port = upstream.betfair_stream_addr.expect("the stream was asked for").port();
    let certificate = upstream.secret_key_path().with_extension("stream.crt");
    let identity_url = format!("{}/betfair/identity/", upstream.base.trim_end_matches("/api"));
    let db = if upstream.database_url().starts_with("sqlite") { Db::Sqlite } else { Db::Postgres };
    let market = market.map(str::to_owned);
    spawn_app_with(db, move |config| {
        let mut feed = feed(&[], None);
        feed.sources = match &market {
            Some(_) => vec![FeedSource::BetfairStream { host: "localhost".into(), port }],
            None => Vec::new(),
        };
        feed.stream = StreamAccess {
            app_key: "backlay-mirror".into(),
            session_token: None,
            login: Some(StreamLogin {
                user: "mirror".into(),
                password: "Second@123".into(),
                identity_url,
            }),
            markets: StreamMarketFilter {
                market_ids: market.into_iter().collect(),
                ..Default::default()
            },
            ca_files: vec![certificate],
            heartbeat_ms: 500,
            conflate_ms: 0,
        };
        feed.silence = Duration::from_secs(2);
        config.feed = Some(feed);
    })
    .await
    .expect("the upstream's database is here, so is the mirror's")
}

fn with_stream(config: &mut Config) {
    config.betfair_stream = Some(backlay_kit::config::BetfairStreamConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        cert_file: None,
        key_file: None,
        default_addr: false,
    });
}

/// One Backlay (the upstream, with its Exchange Stream) and a second that mirrors a market of
/// it over that stream, logged in as a client of the first, trusting its self-signed
/// certificate: each back placed upstream shows on the mirror as the house's back at that
/// price, in well under a second; the upstream stopped, the mirror suspends its market; the
/// upstream back, the mirror reconnects and reopens it.
async fn a_market_of_one_backlay_is_mirrored_on_another_over_the_live_stream(
    mut upstream: TestApp,
) {
    let admin = upstream.admin().await;
    let bettor = upstream.demo().await;
    let matches = upstream
        .post("match/getMatches", Some(&bettor), serde_json::json!({ "sport_id": 4 }))
        .await;
    let in_play = matches.data().as_array().unwrap().iter().find(|m| m["in_play"] == true);
    let match_id = in_play.expect("a match in play")["match_id"].as_i64().unwrap();
    // In play with a bet delay of a second: the mirror's market has it too, and its house's
    // quotes are not delayed by it (the bettors' bets are).
    let (market_id, runners) = upstream
        .open_market(&admin, match_id, serde_json::json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 1 }))
        .await;
    let upstream_market = format!("1.{market_id}");
    let port = upstream.betfair_stream_addr.expect("the stream was asked for").port();
    let mirror = mirror_of(&upstream, &admin, Some(&upstream_market)).await;
    let mirror_admin = mirror.admin().await;
    let started = Instant::now();
    let (here, here_match) = loop {
        let answer = mirror.get("admin/feed/status", Some(&mirror_admin)).await;
        answer.expect(200);
        let feed = answer.data()["feeds"][0].clone();
        // On PostgreSQL the feed starts once the node leads, after its first ownership turn
        // has taken the demo's markets: none listed until then.
        if !feed.is_null() {
            assert_eq!(feed["source"], format!("betfair-stream:localhost:{port}"));
        }
        if let Some(market) = feed["markets"].as_array().and_then(|m| m.first()) {
            if feed["state"] == "running" {
                assert_eq!(market["upstream_market_id"], upstream_market.as_str());
                assert_eq!(market["status"], "OPEN");
                let names: Vec<&str> = market["runners"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["name"].as_str().unwrap())
                    .collect();
                assert_eq!(names, ["Home", "Away"], "named as upstream");
                break (
                    market["market_id"].as_i64().unwrap(),
                    market["match_id"].as_i64().unwrap(),
                );
            }
        }
        assert!(started.elapsed() < FEED_WAIT, "the mirror never subscribed: {feed}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };

    // Five backs upstream, each at a new best price (the page shows three levels): each is an
    // upstream lay level (available to lay), which the mirror's house backs at that price.
    let mirror_bettor = mirror.demo().await;
    let mut arrivals = Vec::new();
    for (step, price) in ["3.9", "3.8", "3.7", "3.6", "3.5"].into_iter().enumerate() {
        let placed = upstream
            .post("bet/placeBet", Some(&bettor), serde_json::json!({ "market_id": market_id, "selection_id": runners[0], "side": "back", "price": price, "stake": 10 + step }))
            .await;
        placed.expect(200);
        let sent = Instant::now();
        let wanted = serde_json::json!({ "price": price.parse::<f64>().unwrap(), "size": (10 + step) as f64 });
        loop {
            let page = mirror.match_market(&mirror_bettor, here_match, here).await;
            let lay_column = page["runners"][0]["lay"].as_array().cloned().unwrap_or_default();
            if lay_column
                .iter()
                .any(|level| level["price"] == wanted["price"] && level["size"] == wanted["size"])
            {
                arrivals.push(sent.elapsed());
                break;
            }
            assert!(
                sent.elapsed() < FEED_WAIT,
                "the back at {price} never reached the mirror: {page}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    let page = mirror.match_market(&mirror_bettor, here_match, here).await;
    assert_eq!(
        (page["in_play"].clone(), page["bet_delay_s"].clone()),
        (serde_json::json!(true), serde_json::json!(1))
    );
    arrivals.sort();
    eprintln!("live mirror: a price move upstream shown here after {arrivals:?}");
    assert!(
        arrivals[2] < Duration::from_secs(1),
        "the median move took {:?} ({arrivals:?})",
        arrivals[2]
    );

    // The upstream stops: nothing more, not even a heartbeat; after the silence (2 s) the
    // market here is suspended and the house's orders are gone.
    upstream.stop_gracefully(Duration::from_secs(5)).await;
    let stopped = Instant::now();
    loop {
        let page = mirror.match_market(&mirror_bettor, here_match, here).await;
        if page["status"] == "suspended" {
            assert_eq!(
                page["runners"][0]["lay"],
                serde_json::json!([]),
                "the house's orders pulled"
            );
            break;
        }
        assert!(
            stopped.elapsed() < FEED_WAIT,
            "the silent feed's market stayed {}",
            page["status"]
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let answer = mirror.get("admin/feed/status", Some(&mirror_admin)).await;
    let feed = &answer.data()["feeds"][0];
    assert!(feed["last_error"].as_str().unwrap().contains("nothing from the upstream"), "{feed}");

    // The upstream back on its port: the mirror reconnects, resubscribes, reopens the market
    // and quotes the upstream's book as it stands (the five backs rest there still).
    upstream
        .restart_with(move |config| {
            config.betfair_stream.as_mut().unwrap().addr =
                std::net::SocketAddr::from(([127, 0, 0, 1], port));
        })
        .await;
    let restarted = Instant::now();
    loop {
        let page = mirror.match_market(&mirror_bettor, here_match, here).await;
        let best = &page["runners"][0]["lay"][0];
        if page["status"] == "open" && best["price"] == 3.5 && best["size"] == 14.0 {
            break;
        }
        assert!(restarted.elapsed() < FEED_WAIT, "the mirror never came back: {page}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    mirror.assert_ledger_sound(&mirror_admin).await;
}
both_databases!(
    a_market_of_one_backlay_is_mirrored_on_another_over_the_live_stream,
    super::with_stream
);

/// The feed's state and its one market's id here, once it has one.
async fn feed_with_market(app: &TestApp, admin: &str, id: usize, state: &str) -> Value {
    let started = Instant::now();
    loop {
        let answer = app.get("admin/feed/status", Some(admin)).await;
        answer.expect(200);
        let feed = answer.data()["feeds"][id].clone();
        if feed["state"] == state && feed["markets"].as_array().is_some_and(|m| m.len() == 1) {
            return feed;
        }
        assert!(started.elapsed() < FEED_WAIT, "feed {id} never came to {state}: {feed}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The market's status on the bettor's page, once it is `wanted`.
async fn page_status_becomes(app: &TestApp, token: &str, feed: &Value, wanted: &str) {
    let (match_id, market_id) = (
        feed["markets"][0]["match_id"].as_i64().unwrap(),
        feed["markets"][0]["market_id"].as_i64().unwrap(),
    );
    let started = Instant::now();
    loop {
        let page = app.match_market(token, match_id, market_id).await;
        if page["status"] == wanted {
            return;
        }
        assert!(
            started.elapsed() < FEED_WAIT,
            "the market stayed {} (not {wanted})",
            page["status"]
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The operator adds a live stream from the console, pauses it (its market suspended),
/// resumes it (reopened), and removes it (suspended for good); each step audited, each refused
/// with words when it makes no sense, and none of it open to a client.
async fn the_operator_adds_pauses_resumes_and_removes_a_live_feed(upstream: TestApp) {
    let admin = upstream.admin().await;
    let bettor = upstream.demo().await;
    let matches = upstream
        .post("match/getMatches", Some(&bettor), serde_json::json!({ "sport_id": 4 }))
        .await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, _) = upstream
        .open_market(&admin, match_id, serde_json::json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    // The upstream runs no feed: nothing to add one with.
    let upstream_feeds = upstream.get("admin/feed/status", Some(&admin)).await;
    assert!(
        upstream_feeds.data()["cannot_add"].as_str().unwrap().contains("runs no feeds"),
        "{}",
        upstream_feeds.body
    );
    let port = upstream.betfair_stream_addr.unwrap().port();

    let mut mirror = mirror_of(&upstream, &admin, None).await;
    let (mirror_admin, mirror_client) = (mirror.admin().await, mirror.demo().await);
    let status = mirror.get("admin/feed/status", Some(&mirror_admin)).await;
    assert_eq!(
        (status.data()["feeds"].clone(), status.data()["cannot_add"].clone()),
        (serde_json::json!([]), Value::Null)
    );

    let source = format!("betfair-stream:localhost:{port}");
    let add = serde_json::json!({ "source": source, "markets": format!("1.{market_id}") });
    mirror.post("admin/feed/add", Some(&mirror_client), add.clone()).await.expect(403);
    let not_a_stream = mirror
        .post(
            "admin/feed/add",
            Some(&mirror_admin),
            serde_json::json!({ "source": "betfair-file:/etc/passwd", "markets": "7" }),
        )
        .await;
    not_a_stream.expect(422);
    assert!(not_a_stream.message().contains("betfair-stream:HOST:PORT"), "{}", not_a_stream.body);
    let no_markets = mirror
        .post(
            "admin/feed/add",
            Some(&mirror_admin),
            serde_json::json!({ "source": source, "markets": " , " }),
        )
        .await;
    no_markets.expect(400);
    assert!(!no_markets.field_error("markets").is_empty());
    let bad_market = mirror
        .post(
            "admin/feed/add",
            Some(&mirror_admin),
            serde_json::json!({ "source": source, "markets": "win" }),
        )
        .await;
    bad_market.expect(422);
    assert!(bad_market.message().contains("not a market id"), "{}", bad_market.body);

    let added = mirror.post("admin/feed/add", Some(&mirror_admin), add).await;
    added.expect(200);
    assert_eq!(
        (added.data()["id"].clone(), added.data()["source"].clone()),
        (serde_json::json!(0), serde_json::json!(source))
    );
    let feed = feed_with_market(&mirror, &mirror_admin, 0, "running").await;
    page_status_becomes(&mirror, &mirror_client, &feed, "open").await;

    let pause = |paused: bool| serde_json::json!({ "id": 0, "paused": paused });
    mirror.post("admin/feed/pause", Some(&mirror_client), pause(true)).await.expect(403);
    mirror.post("admin/feed/pause", Some(&mirror_admin), pause(true)).await.expect(200);
    feed_with_market(&mirror, &mirror_admin, 0, "paused").await;
    page_status_becomes(&mirror, &mirror_client, &feed, "suspended").await;
    let again = mirror.post("admin/feed/pause", Some(&mirror_admin), pause(true)).await;
    again.expect(409);
    assert_eq!(again.message(), "Feed 0 is already paused.");

    // Kept: the restarted server runs it again, still paused.
    mirror.restart().await;
    let (mirror_admin, mirror_client) = (mirror.admin().await, mirror.demo().await);
    let started = Instant::now();
    loop {
        let status = mirror.get("admin/feed/status", Some(&mirror_admin)).await;
        let feeds = status.data()["feeds"].clone();
        if feeds[0]["state"] == "paused" {
            assert_eq!(
                (feeds[0]["source"].clone(), feeds[1].clone()),
                (serde_json::json!(source), Value::Null)
            );
            break;
        }
        assert!(started.elapsed() < FEED_WAIT, "the added feed never came back paused: {feeds}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    page_status_becomes(&mirror, &mirror_client, &feed, "suspended").await;

    mirror.post("admin/feed/pause", Some(&mirror_admin), pause(false)).await.expect(200);
    feed_with_market(&mirror, &mirror_admin, 0, "running").await;
    page_status_becomes(&mirror, &mirror_client, &feed, "open").await;

    mirror
        .post("admin/feed/remove", Some(&mirror_admin), serde_json::json!({ "id": 0 }))
        .await
        .expect(200);
    let removed = feed_with_market(&mirror, &mirror_admin, 0, "removed").await;
    assert!(
        removed["last_error"].as_str().unwrap().contains("removed by the operator"),
        "{removed}"
    );
    page_status_becomes(&mirror, &mirror_client, &feed, "suspended").await;
    mirror
        .post("admin/feed/remove", Some(&mirror_admin), serde_json::json!({ "id": 0 }))
        .await
        .expect(409);
    mirror
        .post("admin/feed/remove", Some(&mirror_admin), serde_json::json!({ "id": 7 }))
        .await
        .expect(404);
    // Removed for good: not run again.
    mirror.restart().await;
    let mirror_admin = mirror.admin().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let status = mirror.get("admin/feed/status", Some(&mirror_admin)).await;
    assert_eq!(status.data()["feeds"], serde_json::json!([]), "{}", status.body);

    let audit = mirror
        .post(
            "admin/audit",
            Some(&mirror_admin),
            serde_json::json!({ "action": "feed", "page": 1, "limit": 50 }),
        )
        .await;
    audit.expect(200);
    let mut actions: Vec<String> = audit.data()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["action"].as_str().unwrap().to_owned())
        .collect();
    actions.sort();
    assert_eq!(actions, ["feed.add", "feed.pause", "feed.remove", "feed.resume"]);
    mirror.assert_ledger_sound(&mirror_admin).await;
}
both_databases!(the_operator_adds_pauses_resumes_and_removes_a_live_feed, super::with_stream);
