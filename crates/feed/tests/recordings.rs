//! The recordings in tests/feeds (betfairlightweight's and flumine's test data, unedited) read
//! through the timeline into the mirror: every line read, the market settled as recorded, the
//! same whether the file is plain, gzip or bzip2, several files merged in publish-time order,
//! bad lines refused without stopping the rest.

use std::io::Write;
use std::path::{Path, PathBuf};

use backlay_feed::message::{MarketStatus, RunnerStatus};
use backlay_feed::recording::Timeline;
use backlay_feed::{Message, Mirror, Refusal};

fn feeds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/feeds")
}

const WIN: &str = "flumine/1.197931750";
const PLACE: &str = "flumine/1.197931751";

/// Plays the files to their end: the mirror, the publish times in the order played, the refusals.
fn play(paths: &[PathBuf]) -> (Mirror, Vec<i64>, Vec<(u64, Refusal)>) {
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let mut timeline = Timeline::open(&paths).unwrap();
    let (mut mirror, mut pts, mut refused) = (Mirror::default(), Vec::new(), Vec::new());
    while let Some(entry) = timeline.next_entry() {
        match entry.message.and_then(|message| {
            let pt = message.pt();
            mirror.apply(message).map(|_| pt)
        }) {
            Ok(pt) => pts.extend(pt),
            Err(refusal) => refused.push((entry.line, refusal)),
        }
    }
    (mirror, pts, refused)
}

/// Each runner's ladders, for comparing two mirrors.
fn ladders(mirror: &Mirror) -> Vec<String> {
    mirror
        .markets()
        .flat_map(|market| {
            market.runners().iter().map(move |runner| {
                format!(
                    "{} {} back {:?} lay {:?} traded {:?} ltp {:?}",
                    market.market_id(),
                    runner.selection_id(),
                    runner.available_to_back(),
                    runner.available_to_lay(),
                    runner.traded(),
                    runner.last_traded_hundredths()
                )
            })
        })
        .collect()
}

#[test]
fn the_greyhound_win_market_plays_to_its_recorded_result() {
    let (mirror, pts, refused) = play(&[feeds().join(WIN)]);
    assert_eq!(refused, []);
    assert_eq!(pts.len(), 166);
    let market = mirror.market("1.197931750").unwrap();
    let definition = market.definition().unwrap();
    assert_eq!(definition.status, MarketStatus::Closed);
    assert_eq!(
        (definition.market_type.as_str(), definition.event_type_id.as_str()),
        ("WIN", "4339")
    );
    assert_eq!(definition.venue.as_deref(), Some("Sheffield"));
    let winners: Vec<_> = definition
        .runners
        .iter()
        .filter(|r| r.status == RunnerStatus::Winner)
        .map(|r| (r.selection_id, r.name.clone().unwrap()))
        .collect();
    assert_eq!(winners, [(37947503, "2. Sandwood Jet".to_owned())]);
    assert_eq!(market.runners().len(), 6);
    assert!(market.traded_volume().is_positive());
}

#[test]
fn a_market_reads_the_same_plain_gzip_or_bzip2() {
    let plain = std::fs::read(feeds().join(WIN)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("1.197931750.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    encoder.write_all(&plain).unwrap();
    encoder.finish().unwrap();
    // Named without .bz2: the contents say what a file is, not its name.
    let bz2 = dir.path().join("1.197931750");
    let mut encoder = bzip2::write::BzEncoder::new(
        std::fs::File::create(&bz2).unwrap(),
        bzip2::Compression::fast(),
    );
    encoder.write_all(&plain).unwrap();
    encoder.finish().unwrap();

    let (expected, expected_pts, _) = play(&[feeds().join(WIN)]);
    for compressed in [gz, bz2] {
        let (mirror, pts, refused) = play(std::slice::from_ref(&compressed));
        assert_eq!(refused, [], "{}", compressed.display());
        assert_eq!(pts, expected_pts);
        assert_eq!(ladders(&mirror), ladders(&expected));
    }
}

#[test]
fn two_recordings_play_as_one_timeline_in_publish_time_order() {
    let (mirror, pts, refused) = play(&[feeds().join(WIN), feeds().join(PLACE)]);
    assert_eq!(refused, []);
    assert_eq!(pts.len(), 332);
    assert!(pts.windows(2).all(|w| w[0] <= w[1]), "publish times never go back");
    let ids: Vec<_> = mirror.markets().map(|m| m.market_id().to_owned()).collect();
    assert_eq!(ids, ["1.197931750", "1.197931751"]);
    let place = mirror.market("1.197931751").unwrap().definition().unwrap();
    assert_eq!(place.market_type, "PLACE");
    assert_eq!(place.status, MarketStatus::Closed);

    // A folder holding both plays them the same way.
    let dir = tempfile::tempdir().unwrap();
    for name in [WIN, PLACE] {
        let file = feeds().join(name);
        std::fs::copy(&file, dir.path().join(file.file_name().unwrap())).unwrap();
    }
    let (from_folder, folder_pts, _) = play(&[dir.path().to_owned()]);
    assert_eq!(folder_pts, pts);
    assert_eq!(ladders(&from_folder), ladders(&mirror));
}

#[test]
fn a_basic_recording_carries_last_traded_prices_only() {
    let (mirror, pts, refused) = play(&[feeds().join("betfairlightweight/BASIC-1.132153978")]);
    assert_eq!(refused, []);
    assert_eq!(pts.len(), 480);
    let market = mirror.market("1.132153978").unwrap();
    assert!(market.runners().iter().any(|r| r.last_traded_hundredths().is_some()));
    // Averaged over an interval, a BASIC file's last traded price need not be on the ladder.
    let off_ladder = market.runner(8504171).unwrap().last_traded_hundredths();
    assert!(off_ladder.is_some());
    assert!(market.runners().iter().all(|r| r.available_to_back().is_empty()));
}

#[test]
fn a_cricket_score_stream_gives_the_latest_score() {
    let (mirror, _, refused) = play(&[feeds().join("betfairlightweight/CRICKET-1.179676557")]);
    assert_eq!(refused, []);
    let score = mirror.score("30610310").unwrap();
    assert_eq!(score.market_id.as_deref(), Some("1.179676557"));
    assert_eq!(score.innings[0].batting_team.as_deref(), Some("Karachi Kings"));
    assert_eq!(score.innings[0].runs, 81, "the second message's score, not the first's 80");
    assert_eq!(score.innings[0].wickets, 2);
    assert_eq!(score.event_status.as_deref(), Some("RUNS_LIKELY"));
}

#[test]
fn a_race_status_stream_names_the_market_whose_race_runs() {
    let (mirror, _, refused) = play(&[feeds().join("betfairlightweight/RACE-1.140075353")]);
    assert_eq!(refused, []);
    let race = mirror.race("1.1234567").unwrap();
    assert_eq!(race.race_id, "28587288.1650");
    assert!(!race.order.is_empty());
}

#[test]
fn bad_lines_are_refused_with_their_reason_and_the_rest_plays() {
    let good = std::fs::read_to_string(feeds().join(WIN)).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    let bad = [
        (3, "this is not json"),
        (
            10,
            r#"{"op":"mcm","pt":1650392680000,"mc":[{"id":"1.197931750","rc":[{"id":44331354,"atb":[[8.85,2]]}]}]}"#,
        ),
        (
            20,
            r#"{"op":"mcm","pt":1650392690000,"mc":[{"id":"1.999","rc":[{"id":1,"atb":[[2,1]]}]}]}"#,
        ),
        (
            30,
            r#"{"op":"mcm","pt":1650392700000,"mc":[{"id":"1.197931750","rc":[{"id":44331354,"atl":[[9,-2]]}]}]}"#,
        ),
    ];
    for (at, line) in bad {
        lines.insert(at, line);
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("with-bad-lines");
    std::fs::write(&file, lines.join("\n")).unwrap();

    let (mirror, pts, refused) = play(&[file]);
    let reasons: Vec<_> =
        refused.iter().map(|(line, refusal)| (*line, refusal.to_string())).collect();
    assert_eq!(reasons.len(), 4);
    assert_eq!(reasons[0].0, 4);
    assert!(reasons[0].1.starts_with("not a JSON message"));
    assert_eq!(
        reasons[1].1,
        "market 1.197931750, selection 44331354: atb price 8.85 is not on Betfair's ladder"
    );
    assert_eq!(
        reasons[2].1,
        "market 1.999: no market definition seen for it, so its changes cannot be placed"
    );
    assert_eq!(
        reasons[3].1,
        "market 1.197931750, selection 44331354: atl size -2 is not an amount of money"
    );
    assert_eq!(pts.len(), 166, "every good line still played");
    let (clean, _, _) = play(&[feeds().join(WIN)]);
    assert_eq!(ladders(&mirror), ladders(&clean), "the refused lines changed nothing");
    assert!(Message::read("{}").is_err());
}
