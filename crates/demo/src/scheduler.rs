//! The demo feed's scheduler: the one task that keeps the demo alive, started with the server
//! when [`Demo::feed`](crate::Demo::feed) is on and stopped with it.
//!
//! Every [`SCHEDULER_INTERVAL_MS`] of demo time it looks at the demo's fixtures (the matches
//! and races of [`super::fixtures`]; anything else is left alone) and
//! - turns a match in play at its scheduled start (`operator::set_match_in_play`: LAPSE orders
//!   lapse, the bet delay starts) and hands it to [`super::play`], which plays it to the end,
//!   results and settles it;
//! - gives every race in the next [`RACE_MARKETS_AHEAD_MS`] its win and place markets;
//! - has the market-maker quote every demo market before the off;
//! - schedules new fixtures so the demo never runs dry: a new cricket, football or tennis match
//!   whenever a sport has fewer unfinished matches than the seed gave it, and a new race
//!   meeting when no race of a sport goes off in the next [`NEXT_RACE_WITHIN_MS`], or fewer
//!   than a day's worth are left.
//!
//! Everything goes through the operator actions and the engine, as an admin's console would:
//! the ledger, the audit log and the live stream see the demo exactly as real operation. A
//! failed step is logged at warn and the feed carries on.
//!
//! Demo time runs [`Demo::feed_speed`](crate::Demo::feed_speed) times faster than the wall clock (1 in the
//! product; tests play a whole match in seconds). Fixture times are demo time.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use backlay_core::exchange::{MarketStatus, MarketType};
use backlay_store::catalogue::{Match, MatchFilter};
use tokio::task::JoinSet;

use super::fixtures::{
    self, is_demo_fixture, is_racing, GREYHOUND_RACING, HORSE_RACING, SERIES_TEAMS, VENUES,
};
use super::market_maker::MarketMaker;
use super::play;
use super::rng::DemoRng;
use backlay_kit::clock::{iso_utc, now_ms, DISPLAY_OFFSET_MS};
use backlay_kit::error::AppError;
use backlay_operator::AppState;
use backlay_operator::{self as operator, Actor, CreateMarket, CreateMatch, OperatorContext};

/// Demo time between the scheduler's looks at the fixtures.
pub const SCHEDULER_INTERVAL_MS: i64 = 10_000;
/// Races get their markets this long before the off.
pub const RACE_MARKETS_AHEAD_MS: i64 = 2 * HOUR_MS;
/// A new meeting is scheduled when no race of a sport goes off within this…
pub const NEXT_RACE_WITHIN_MS: i64 = 20 * MINUTE_MS;
/// …with its first race this far ahead.
pub const NEW_MEETING_LEAD_MS: i64 = 5 * MINUTE_MS;
/// A new match starts this soon when its sport has nothing in play or starting within the hour.
pub const NEW_MATCH_LEAD_MS: i64 = 10 * MINUTE_MS;
/// A finished demo fixture is retired (taken off the lists) this long after the feed finished
/// it, or, when the feed did not see it finish, this long after its start.
pub const RETIRE_AFTER_MS: i64 = 10 * MINUTE_MS;
pub const STALE_AFTER_MS: i64 = 6 * HOUR_MS;
/// Races still to run in the coming day below which a meeting is added later in the day, and
/// the most a sport may have waiting.
const MIN_RACES_AHEAD: usize = 10;
const MAX_RACES_AHEAD: usize = 60;

const MINUTE_MS: i64 = 60 * 1000;
const HOUR_MS: i64 = 60 * MINUTE_MS;
const DAY_MS: i64 = 24 * HOUR_MS;

/// The sports the feed drives, in the order it looks at them.
const DRIVEN_SPORTS: [i64; 5] =
    [fixtures::CRICKET, fixtures::FOOTBALL, fixtures::TENNIS, HORSE_RACING, GREYHOUND_RACING];

/// The demo's clock: real time, `speed` times faster, from the moment the feed started.
#[derive(Copy, Clone, Debug)]
pub struct DemoClock {
    started: tokio::time::Instant,
    started_ms: i64,
    speed: u32,
}

impl DemoClock {
    pub fn new(speed: u32) -> DemoClock {
        DemoClock {
            started: tokio::time::Instant::now(),
            started_ms: now_ms(),
            speed: speed.max(1),
        }
    }

    /// Demo time now, epoch milliseconds (the wall clock at speed 1).
    pub fn now_ms(&self) -> i64 {
        let elapsed_ms = i64::try_from(self.started.elapsed().as_millis()).unwrap_or(i64::MAX / 4);
        self.started_ms + elapsed_ms.saturating_mul(i64::from(self.speed))
    }

    /// Sleeps `demo_ms` of demo time.
    pub async fn sleep(&self, demo_ms: i64) {
        let real_us = u64::try_from(demo_ms.max(0)).unwrap_or(0) * 1000 / u64::from(self.speed);
        tokio::time::sleep(Duration::from_micros(real_us)).await;
    }
}

/// What the feed's tasks share.
pub struct Feed {
    pub state: AppState,
    pub clock: DemoClock,
    pub maker: Arc<MarketMaker>,
}

impl Feed {
    /// The feed acts as the operator's console (audit entries carry no user).
    pub fn console(&self) -> OperatorContext<'_> {
        OperatorContext { store: &self.state.store, actor: Actor::Console, client_ip: None }
    }
}

/// The running feed. Dropping it stops the feed and every task it started.
pub struct FeedHandle {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FeedHandle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts the demo feed in the background, its time running `speed` times faster than the
/// wall clock.
pub fn start(state: AppState, speed: u32) -> FeedHandle {
    FeedHandle { task: tokio::spawn(run(state, speed)) }
}

async fn run(state: AppState, speed: u32) {
    let clock = DemoClock::new(speed);
    let maker_id = match state.store.user_id_by_name("maker").await {
        Ok(Some(id)) => id,
        Ok(None) => {
            tracing::info!("demo feed: there is no `maker` account, so no demo to drive");
            return;
        }
        Err(err) => {
            tracing::warn!("demo feed: cannot find the market-maker: {err}");
            return;
        }
    };
    let maker = MarketMaker::new(state.clone(), maker_id, clock);
    let feed = Arc::new(Feed { state, clock, maker: maker.clone() });
    tracing::info!(speed = clock.speed, "demo feed started");
    // Every task hangs off these sets: when this task is aborted they are dropped, and with
    // them the maker and every match being played.
    let mut maker_task = JoinSet::new();
    maker_task.spawn(maker.run());
    let mut plays = Plays::default();
    // Demo fixtures without the demo's markets: never played.
    let mut left_alone: HashSet<i64> = HashSet::new();
    let mut quoted_pre_match: HashSet<i64> = HashSet::new();
    loop {
        if let Err(err) = pass(&feed, &mut plays, &mut quoted_pre_match, &left_alone).await {
            tracing::warn!("demo feed: scheduling pass failed: {err}");
        }
        tokio::select! {
            _ = clock.sleep(SCHEDULER_INTERVAL_MS) => {}
            Some(done) = plays.tasks.join_next_with_id() => {
                // Every play that has ended, not only the first: one a pass let them queue up
                // behind slow passes (a loaded machine, many races), each still counted as
                // playing and so never retired.
                let now = clock.now_ms();
                let mut ended = Some(done);
                while let Some(done) = ended {
                    if let Some(match_id) = plays.finished(done, now) {
                        left_alone.insert(match_id);
                    }
                    ended = plays.tasks.try_join_next_with_id();
                }
            }
        }
    }
}

/// The matches being played, one task each.
#[derive(Default)]
struct Plays {
    tasks: JoinSet<bool>,
    match_of_task: HashMap<tokio::task::Id, i64>,
    /// Matches played to the end, with the demo time they finished: retired
    /// [`RETIRE_AFTER_MS`] later.
    finished_at: HashMap<i64, i64>,
}

impl Plays {
    fn is_playing(&self, match_id: i64) -> bool {
        self.match_of_task.values().any(|m| *m == match_id)
    }

    fn start(&mut self, feed: &Arc<Feed>, the_match: Match) {
        let match_id = the_match.match_id;
        let handle = self.tasks.spawn(play::play(feed.clone(), the_match));
        self.match_of_task.insert(handle.id(), match_id);
    }

    /// Forgets a finished play (a match played to the end is due to be retired); returns the
    /// match if it turned out not to be playable.
    fn finished(
        &mut self,
        done: Result<(tokio::task::Id, bool), tokio::task::JoinError>,
        now_ms: i64,
    ) -> Option<i64> {
        let (id, played) = match done {
            Ok(done) => done,
            Err(err) => {
                tracing::warn!("demo feed: playing a match failed: {err}");
                (err.id(), true)
            }
        };
        let match_id = self.match_of_task.remove(&id);
        if let Some(match_id) = match_id.filter(|_| played) {
            self.finished_at.insert(match_id, now_ms);
        }
        match_id.filter(|_| !played)
    }
}

/// One look at the fixtures.
async fn pass(
    feed: &Arc<Feed>,
    plays: &mut Plays,
    quoted_pre_match: &mut HashSet<i64>,
    left_alone: &HashSet<i64>,
) -> Result<(), AppError> {
    let now = feed.clock.now_ms();
    let live: HashSet<i64> = feed
        .state
        .store
        .live_market_types()
        .await?
        .into_iter()
        .map(|(match_id, _, _)| match_id)
        .collect();
    for sport_id in DRIVEN_SPORTS {
        let mut fixtures = demo_fixtures(feed, sport_id).await?;
        // New fixtures first, so that a new meeting's first race gets its markets at once.
        let replenished = if is_racing(sport_id) {
            replenish_races(feed, sport_id, &fixtures, &live, now).await
        } else {
            replenish_matches(feed, sport_id, &fixtures, &live, now).await
        };
        match replenished {
            Ok(false) => {}
            Ok(true) => fixtures = demo_fixtures(feed, sport_id).await?,
            Err(err) => tracing::warn!(sport_id, "demo feed: cannot schedule new fixtures: {err}"),
        }
        for the_match in &fixtures {
            let has_markets = live.contains(&the_match.match_id);
            if plays.is_playing(the_match.match_id) {
                continue;
            }
            if !has_markets && !the_match.in_play {
                let finished_at = plays.finished_at.get(&the_match.match_id).copied();
                if is_due_to_retire(the_match.open_date_ms, finished_at, now) {
                    retire(feed, the_match).await;
                    plays.finished_at.remove(&the_match.match_id);
                    continue;
                }
            }
            if left_alone.contains(&the_match.match_id) {
                continue;
            }
            if has_markets && (the_match.in_play || the_match.open_date_ms <= now) {
                if !the_match.in_play {
                    let turned = operator::set_match_in_play(
                        &feed.console(),
                        &feed.state.engine,
                        the_match.match_id,
                        true,
                    )
                    .await;
                    if let Err(err) = turned {
                        tracing::warn!("demo feed: cannot turn {} in play: {err}", the_match.name);
                        continue;
                    }
                    tracing::info!("demo feed: {} is in play", the_match.name);
                }
                quoted_pre_match.remove(&the_match.match_id);
                plays.start(feed, Match { in_play: true, ..the_match.clone() });
            } else if has_markets && !the_match.in_play {
                if !quoted_pre_match.contains(&the_match.match_id) {
                    match play::quote_pre_match(feed, the_match).await {
                        Ok(()) => {
                            quoted_pre_match.insert(the_match.match_id);
                        }
                        Err(err) => {
                            tracing::warn!("demo feed: cannot quote {}: {err}", the_match.name)
                        }
                    }
                }
            } else if is_racing(sport_id)
                && !the_match.in_play
                && (now..now + RACE_MARKETS_AHEAD_MS).contains(&the_match.open_date_ms)
                && feed.state.store.markets_of_match(the_match.match_id).await?.is_empty()
            {
                match open_race_markets(feed, the_match).await {
                    Ok(()) => {
                        quoted_pre_match.insert(the_match.match_id);
                    }
                    Err(err) => tracing::warn!(
                        "demo feed: cannot open the markets of {}: {err}",
                        the_match.name
                    ),
                }
            }
        }
    }
    Ok(())
}

/// Whether a demo fixture with no live market and not in play is due to be retired: one the
/// feed played, [`RETIRE_AFTER_MS`] after it finished (time enough to read its result); any
/// other (the feed restarted since it finished, a race that never got its markets)
/// [`STALE_AFTER_MS`] after its start.
fn is_due_to_retire(open_date_ms: i64, finished_at_ms: Option<i64>, now_ms: i64) -> bool {
    match finished_at_ms {
        Some(finished_at_ms) => now_ms >= finished_at_ms + RETIRE_AFTER_MS,
        None => now_ms >= open_date_ms + STALE_AFTER_MS,
    }
}

/// Takes a finished demo fixture off the lists (the operator's retire action: audited, its
/// markets and bets untouched).
async fn retire(feed: &Feed, the_match: &Match) {
    match operator::set_match_active(&feed.console(), the_match.match_id, false).await {
        Ok(()) => tracing::info!("demo feed: {} retired", the_match.name),
        Err(err) => tracing::warn!("demo feed: cannot retire {}: {err}", the_match.name),
    }
}

/// The active matches of a sport that the feed drives, in-play first, then by start.
async fn demo_fixtures(feed: &Feed, sport_id: i64) -> Result<Vec<Match>, AppError> {
    let filter =
        MatchFilter { sport_id: Some(sport_id), is_active: Some(true), ..MatchFilter::default() };
    let matches = feed.state.store.matches(&filter).await?;
    Ok(matches
        .into_iter()
        .filter(|m| is_demo_fixture(m.sport_id, &m.series_name, &m.name, m.venue.as_deref()))
        .collect())
}

/// The win and place markets of a race, opened and quoted by the maker.
async fn open_race_markets(feed: &Feed, the_match: &Match) -> Result<(), AppError> {
    let race = play::race_of(the_match);
    let market = |market_type: MarketType, name: String, winners: usize| CreateMarket {
        match_id: the_match.match_id,
        market_type,
        name,
        runners: race.runners.clone(),
        bet_delay_ms: 1_000,
        min_stake_minor: 100_00,
        max_stake_minor: 200_000_00,
        commission_bp: 200,
        winners: winners as i64,
        upstream: None,
    };
    let win = market(MarketType::Win, "Win".into(), 1);
    let place = market(MarketType::Place, format!("Place ({} places)", race.places), race.places);
    for request in [win, place] {
        let (market_id, _) =
            operator::create_market(&feed.console(), &feed.state.engine, request).await?;
        feed.state.engine.set_status(market_id, MarketStatus::Open, None).await?;
    }
    play::quote_pre_match(feed, the_match).await
}

/// A new cricket, football or tennis match when the sport has fewer unfinished matches than
/// the seed gave it (one a pass).
async fn replenish_matches(
    feed: &Feed,
    sport_id: i64,
    fixtures: &[Match],
    live: &HashSet<i64>,
    now: i64,
) -> Result<bool, AppError> {
    let unfinished: Vec<&Match> = fixtures.iter().filter(|m| live.contains(&m.match_id)).collect();
    if unfinished.len() >= super::seeded_matches(sport_id) {
        return Ok(false);
    }
    let mut rng = DemoRng::new(now as u64 ^ sport_id as u64);
    // The series with the fewest matches to come, and two of its teams not already busy.
    let Some((_, series_name, teams)) =
        SERIES_TEAMS.iter().filter(|(sport, _, _)| *sport == sport_id).min_by_key(
            |(_, series, _)| unfinished.iter().filter(|m| m.series_name == *series).count(),
        )
    else {
        return Ok(false);
    };
    let busy: Vec<&str> = unfinished
        .iter()
        .filter(|m| m.series_name == *series_name)
        .filter_map(|m| fixtures::sides(&m.name))
        .flat_map(|(h, a)| [h, a])
        .collect();
    let something_soon = unfinished.iter().any(|m| m.in_play || m.open_date_ms <= now + HOUR_MS);
    let open_date_ms = if something_soon {
        round_up(now + HOUR_MS + i64::from(rng.below(11)) * HOUR_MS, 15 * MINUTE_MS)
    } else {
        round_up(now + NEW_MATCH_LEAD_MS, MINUTE_MS)
    };
    // The pairs already meeting that day, retired matches included.
    let every_match =
        MatchFilter { sport_id: Some(sport_id), is_active: None, ..MatchFilter::default() };
    let that_day: Vec<Match> = feed
        .state
        .store
        .matches(&every_match)
        .await?
        .into_iter()
        .filter(|m| display_day(m.open_date_ms) == display_day(open_date_ms))
        .collect();
    let taken: Vec<(&str, &str)> =
        that_day.iter().filter_map(|m| fixtures::sides(&m.name)).collect();
    let Some((home, away)) = pick_pair(&mut rng, teams, &busy, &taken) else {
        return Ok(false);
    };
    let series_id = series_id(feed, sport_id, series_name, false).await?;
    let name = format!("{home} v {away}");
    let request = CreateMatch {
        series_id,
        name: name.clone(),
        open_date_ms,
        in_play: false,
        venue: None,
        country_code: None,
        upstream_ref: None,
    };
    let match_id = operator::create_match(&feed.console(), request).await?;
    let the_match = feed.state.store.match_by_id(match_id).await?;
    super::open_match_markets(&feed.state, &the_match).await?;
    tracing::info!("demo feed: scheduled {name} for {}", iso_utc(open_date_ms));
    Ok(true)
}

/// A new race meeting when nothing goes off soon, or when the coming day runs short of races.
async fn replenish_races(
    feed: &Feed,
    sport_id: i64,
    fixtures: &[Match],
    live: &HashSet<i64>,
    now: i64,
) -> Result<bool, AppError> {
    let to_run: Vec<&Match> = fixtures
        .iter()
        .filter(|m| live.contains(&m.match_id) || (!m.in_play && m.open_date_ms > now))
        .collect();
    if to_run.len() >= MAX_RACES_AHEAD {
        return Ok(false);
    }
    let next_off = to_run.iter().map(|m| m.open_date_ms).filter(|t| *t > now).min();
    let in_a_day = to_run.iter().filter(|m| m.open_date_ms <= now + DAY_MS).count();
    let mut rng = DemoRng::new(now as u64 ^ sport_id as u64);
    let first_off_ms = if next_off.is_none_or(|t| t > now + NEXT_RACE_WITHIN_MS) {
        round_up(now + NEW_MEETING_LEAD_MS, MINUTE_MS)
    } else if in_a_day < MIN_RACES_AHEAD {
        round_up(now + 2 * HOUR_MS + i64::from(rng.below(18)) * HOUR_MS, 15 * MINUTE_MS)
    } else {
        return Ok(false);
    };
    // A venue not racing already.
    let racing_now: HashSet<&str> = to_run.iter().filter_map(|m| m.venue.as_deref()).collect();
    let venues: Vec<(&str, &str, &str)> = VENUES
        .iter()
        .filter(|(sport, _, _, _)| *sport == sport_id)
        .flat_map(|(_, series, country, venues)| {
            venues.iter().map(move |v| (*series, *country, *v))
        })
        .collect();
    let free: Vec<&(&str, &str, &str)> =
        venues.iter().filter(|(_, _, v)| !racing_now.contains(v)).collect();
    let (series_name, country, venue) = if free.is_empty() {
        venues[rng.below(venues.len() as u32) as usize]
    } else {
        *free[rng.below(free.len() as u32) as usize]
    };
    let (races, interval_ms) =
        if sport_id == GREYHOUND_RACING { (8, 15 * MINUTE_MS) } else { (6, 30 * MINUTE_MS) };
    let series_id = series_id(feed, sport_id, series_name, false).await?;
    for race in 0..races {
        let off_ms = first_off_ms + race * interval_ms;
        let local = iso_utc(off_ms + DISPLAY_OFFSET_MS);
        let request = CreateMatch {
            series_id,
            name: format!("{venue} {}", &local[11..16]),
            open_date_ms: off_ms,
            in_play: false,
            venue: Some(venue.to_string()),
            country_code: Some(country.to_string()),
            upstream_ref: None,
        };
        operator::create_match(&feed.console(), request).await?;
    }
    tracing::info!(
        "demo feed: scheduled a meeting at {venue}, first race {}",
        iso_utc(first_off_ms)
    );
    Ok(true)
}

/// The id of a series by name, created when missing.
async fn series_id(
    feed: &Feed,
    sport_id: i64,
    name: &str,
    featured: bool,
) -> Result<i64, AppError> {
    let existing = feed.state.store.series(Some(sport_id), None).await?;
    match existing.iter().find(|s| s.name == name) {
        Some(series) => Ok(series.series_id),
        None => operator::create_series(&feed.console(), sport_id, name, featured).await,
    }
}

/// The day (at the display offset, UTC+5:30) a time falls on, as a day number.
fn display_day(ms: i64) -> i64 {
    (ms + DISPLAY_OFFSET_MS).div_euclid(DAY_MS)
}

/// Two teams to meet, home first: a pair not already meeting that day (`taken`, either way
/// round), of teams not busy in an unfinished match when there is one such pair, else of any
/// teams; `None` when every pair meets that day already.
fn pick_pair<'a>(
    rng: &mut DemoRng,
    teams: &[&'a str],
    busy: &[&str],
    taken: &[(&str, &str)],
) -> Option<(&'a str, &'a str)> {
    let meets =
        |a: &str, b: &str| taken.iter().any(|(h, w)| (*h, *w) == (a, b) || (*h, *w) == (b, a));
    let pairs = |teams: Vec<&'a str>| -> Vec<(&'a str, &'a str)> {
        let mut pairs = Vec::new();
        for (i, home) in teams.iter().enumerate() {
            for away in &teams[i + 1..] {
                if !meets(home, away) {
                    pairs.push((*home, *away));
                }
            }
        }
        pairs
    };
    let mut candidates = pairs(teams.iter().copied().filter(|t| !busy.contains(t)).collect());
    if candidates.is_empty() {
        candidates = pairs(teams.to_vec());
    }
    if candidates.is_empty() {
        return None;
    }
    let (a, b) = candidates[rng.below(candidates.len() as u32) as usize];
    Some(if rng.chance(0.5) { (a, b) } else { (b, a) })
}

fn round_up(ms: i64, step: i64) -> i64 {
    (ms + step - 1).div_euclid(step) * step
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_pair_meets_twice_on_a_day() {
        let teams = ["A", "B", "C", "D", "E"];
        let mut rng = DemoRng::new(5);
        let mut day: Vec<(&str, &str)> = Vec::new();
        // Ten pairs from five teams: each once, then nothing more that day.
        for _ in 0..10 {
            let (home, away) = pick_pair(&mut rng, &teams, &[], &day).expect("a pair left");
            assert_ne!(home, away);
            assert!(
                !day.iter().any(|p| *p == (home, away) || *p == (away, home)),
                "{home} v {away} twice in {day:?}"
            );
            day.push((home, away));
        }
        assert_eq!(pick_pair(&mut rng, &teams, &[], &day), None);
        // Busy teams sit out while a free pair is left.
        for seed in 0..50 {
            let mut rng = DemoRng::new(seed);
            let (home, away) = pick_pair(&mut rng, &teams, &["A", "B", "C"], &[]).unwrap();
            assert_eq!([home.min(away), home.max(away)], ["D", "E"]);
            // …and play when only they are left.
            let pair = pick_pair(&mut rng, &teams, &["A", "B", "C"], &[("D", "E")]).unwrap();
            assert!(pair.0 != pair.1);
        }
    }

    #[test]
    fn finished_fixtures_are_retired_after_a_while() {
        let start = 1_000 * DAY_MS; // midnight UTC, 05:30 at the display offset
        let finished = start + 30 * MINUTE_MS;
        assert!(!is_due_to_retire(start, Some(finished), finished + RETIRE_AFTER_MS - 1));
        assert!(is_due_to_retire(start, Some(finished), finished + RETIRE_AFTER_MS));
        // Not seen to finish: retired once well past its start, never before.
        assert!(!is_due_to_retire(start, None, start + HOUR_MS));
        assert!(is_due_to_retire(start, None, start + STALE_AFTER_MS));
        assert_eq!(display_day(start), display_day(start + 18 * HOUR_MS + 29 * MINUTE_MS));
        assert_ne!(display_day(start), display_day(start + 18 * HOUR_MS + 30 * MINUTE_MS));
    }
}
