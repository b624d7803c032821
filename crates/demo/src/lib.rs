//! The demo: data for a new, empty database, and the feed that keeps it alive. The product runs
//! without it; the `backlay` binary wires it into the server ([`Demo`], the server's start
//! hooks), as do the server's API tests for their data.
//!
//! Seeding (this file): the sports of spec §3, series and matches spread over the coming days
//! (some in play), the demo log-ins with chips, site settings and casino categories, and the
//! demo's markets. Everything goes through the same operator actions an admin would use, so
//! the demo's ledger, audit log and users are exactly what real operation produces.
//!
//! The feed ([`Demo::feed`], on by default with the embedded database) plays the demo:
//! - [`scheduler`] — the feed's task: turns matches in play at their start, hands them to
//!   `play`, opens race markets, schedules new matches and race meetings;
//! - `play` — plays one in-play match through the engine: ball running, rates, fancy lines,
//!   goals, the off, and finally the results and settlement;
//! - [`simulator`] — the pure, seeded models of cricket, football, tennis and racing, with the
//!   win probabilities and fancy projections the prices come from;
//! - [`market_maker`] — the `maker` account re-quoting exchange markets around the fair price;
//! - [`fancy`] — a cricket match's fancy lines and odd/even markets: names, prices, results;
//! - [`fixtures`] — the teams, batsmen, venues and runner names the feed knows (and drives);
//! - `rng` — the seeded generator every random draw comes from ([`simulator::DemoRng`]).

pub mod fancy;
pub mod fixtures;
pub mod market_maker;
mod play;
mod rng;
pub mod scheduler;
pub mod simulator;

pub use scheduler::{start as start_feed, FeedHandle};

use std::sync::Arc;

use backlay_core::exchange::{MarketStatus, MarketType};
use backlay_core::money::Money;
use backlay_core::odds::{self, Price};
use backlay_engine::cluster::LeaderJob;
use backlay_engine::cluster::RunsWithServer;
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_kit::password::Passwords;
use backlay_operator::AppState;
use backlay_operator::{
    self as operator, Actor, CreateMarket, CreateMatch, CreateUser, OperatorContext,
    TransferDirection,
};
use backlay_server::StartHooks;
use backlay_store::catalogue::{Match, MatchFilter};
use backlay_store::users::{Role, User};
use backlay_store::Store;

/// What of the demo a server runs with; [`Demo::start_hooks`] runs it.
#[derive(Clone, Debug)]
pub struct Demo {
    /// Seed demo data into an empty database.
    pub seed: bool,
    /// With the seed: also markets with the market-maker's liquidity (tests that do not need
    /// them turn this off to start faster).
    pub markets: bool,
    /// Run the demo feed: play the demo's matches and races, keep the market-maker quoting,
    /// settle what finishes and schedule more ([`scheduler`]). Needs the demo's `maker`.
    pub feed: bool,
    /// How many times faster than the wall clock the demo feed's time runs (1 in the product;
    /// tests use e.g. 60 to watch a match in seconds).
    pub feed_speed: u32,
}

/// Nothing on: no seed, no feed (markets would follow a seed).
impl Default for Demo {
    fn default() -> Demo {
        Demo { seed: false, markets: true, feed: false, feed_speed: 1 }
    }
}

impl Demo {
    /// The server's start hooks that seed an empty database, create the demo's markets and
    /// start the feed, as this asks.
    pub fn start_hooks(self) -> DemoStart {
        DemoStart { demo: self, seeded: false }
    }
}

/// [`Demo`] as the server's start hooks.
#[derive(Debug)]
pub struct DemoStart {
    demo: Demo,
    /// Whether this start seeded the database (set by the first hook).
    seeded: bool,
}

impl StartHooks for DemoStart {
    async fn before_engine(&mut self, store: &Store, passwords: &Passwords) -> anyhow::Result<()> {
        self.seeded = self.demo.seed && seed_if_empty(store, passwords).await?;
        Ok(())
    }

    async fn after_state(&mut self, state: &AppState) -> anyhow::Result<Option<RunsWithServer>> {
        if self.seeded && self.demo.markets {
            let markets = seed_markets(state)
                .await
                .map_err(|e| anyhow::anyhow!("seeding demo markets failed: {e}"))?;
            if !self.demo.feed {
                // The market-maker's orders wait out in-play bet delays: post them in the
                // background. (The feed's market-maker quotes them itself.)
                tokio::spawn(post_liquidity(state.clone(), markets));
            }
            tracing::info!("seeded demo data into the empty database");
        }
        Ok(None)
    }

    /// The feed plays the demo's matches once, however many servers run: on the leader.
    fn leader_job(&mut self, state: &AppState) -> Option<LeaderJob> {
        if !self.demo.feed {
            return None;
        }
        let state = state.clone();
        let speed = self.demo.feed_speed;
        Some(Arc::new(move || Box::new(start_feed(state.clone(), speed)) as RunsWithServer))
    }
}

/// The demo log-ins printed at start: (user name, password, role).
pub const DEMO_LOGINS: &[(&str, &str, &str)] = &[
    ("admin", "Admin@1234", "operator"),
    ("agent", "Agent@1234", "agent"),
    ("demo", "Demo@1234", "client"),
    ("demo2", "Demo@1234", "client"),
    ("maker", "Maker@1234", "market maker"),
];

const HOUR_MS: i64 = 60 * 60 * 1000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// Sports: (id, name, order). 4 cricket first; 2378961 promoted; -1 the Indian casino flag;
/// -17 hidden by the client.
const SPORTS: &[(i64, &str, i64)] = &[
    (4, "Cricket", 1),
    (2378961, "Politics", 2),
    (1, "Football", 3),
    (2, "Tennis", 4),
    (7, "Horse Racing", 5),
    (4339, "Greyhound Racing", 6),
    (7522, "Basketball", 7),
    (6423, "American Football", 8),
    (-1, "Indian Casino", 90),
    (-17, "Virtual Cricket", 99),
];

/// Series: (sport id, name, featured, matches as (name, start offset from now in hours, in play)).
type DemoSeries = (i64, &'static str, bool, &'static [(&'static str, i64, bool)]);
const SERIES: &[DemoSeries] = &[
    (
        4,
        "Indian Premier League",
        true,
        &[
            ("Mumbai Indians v Chennai Super Kings", -1, true),
            ("Royal Challengers Bengaluru v Kolkata Knight Riders", 5, false),
            ("Delhi Capitals v Rajasthan Royals", 29, false),
            ("Sunrisers Hyderabad v Punjab Kings", 53, false),
        ],
    ),
    (
        4,
        "ICC Champions Trophy",
        true,
        &[
            ("India v Australia", -2, true),
            ("England v South Africa", 26, false),
            ("Pakistan v New Zealand", 74, false),
        ],
    ),
    (
        4,
        "Big Bash League",
        false,
        &[
            ("Sydney Sixers v Perth Scorchers", 3, false),
            ("Melbourne Stars v Brisbane Heat", 50, false),
        ],
    ),
    (
        1,
        "English Premier League",
        true,
        &[
            ("Arsenal v Liverpool", -1, true),
            ("Manchester City v Chelsea", 20, false),
            ("Tottenham v Newcastle", 44, false),
        ],
    ),
    (
        1,
        "La Liga",
        false,
        &[("Real Madrid v Barcelona", 30, false), ("Atletico Madrid v Sevilla", 78, false)],
    ),
    (2, "ATP Finals", false, &[("Sinner v Alcaraz", 0, true), ("Djokovic v Zverev", 22, false)]),
    (2378961, "US Politics", false, &[("2028 Presidential Election", 24 * 300, false)]),
    (7522, "NBA", false, &[("Lakers v Celtics", 12, false)]),
    (-17, "Virtual Cricket League", false, &[("Virtual XI v Simulated XI", 1, false)]),
];

/// How many matches the seed gives a sport: the feed keeps that many unfinished.
pub fn seeded_matches(sport_id: i64) -> usize {
    SERIES
        .iter()
        .filter(|(sport, ..)| *sport == sport_id)
        .map(|(_, _, _, matches)| matches.len())
        .sum()
}

/// Race meetings: (sport id, series, country code, venue, first race in hours from now, races).
/// Races run every 35 minutes from the first; each is a match named after its off time.
const MEETINGS: &[(i64, &str, &str, &str, i64, usize)] = &[
    (7, "GB Racing", "GB", "Ascot", 1, 6),
    (7, "GB Racing", "GB", "Cheltenham", 2, 5),
    (7, "IE Racing", "IE", "Leopardstown", 3, 5),
    (7, "AU Racing", "AU", "Flemington", 20, 6),
    (7, "US Racing", "US", "Belmont Park", 26, 5),
    (4339, "GB Greyhounds", "GB", "Romford", 1, 8),
    (4339, "AU Greyhounds", "AU", "Wentworth Park", 21, 6),
];

const RACE_INTERVAL_MS: i64 = 35 * 60 * 1000;

const SETTINGS: &[(&str, &str)] = &[
    ("site_title", "Backlay"),
    (
        "site_message",
        "Welcome to Backlay: back and lay at the best prices. Bet responsibly; 18+ only.",
    ),
    ("payment_gateway", "1"),
    ("is_show_apk", "0"),
    ("default_parent", "agent"),
    ("bg_primary_color", "#0b3d2e"),
    ("bg_secondry_color", "#145c45"),
    ("text_primary_color", "#ffffff"),
    ("text_secondry_color", "#f5c542"),
    ("other_color", "#72bbef"),
];

/// Seeds the demo when the database has no users yet; returns whether it did.
pub async fn seed_if_empty(store: &Store, passwords: &Passwords) -> anyhow::Result<bool> {
    if store.count_users().await? > 0 {
        return Ok(false);
    }
    seed(store, passwords).await.map_err(|e| anyhow::anyhow!("seeding demo data failed: {e}"))?;
    Ok(true)
}

async fn seed(store: &Store, passwords: &Passwords) -> Result<(), backlay_kit::error::AppError> {
    let console = OperatorContext { store, actor: Actor::Console, client_ip: None };
    let create = |user_name: &'static str, password: &str, role: Role, parent_id: Option<i64>| {
        let console = &console;
        let request = CreateUser::parse(user_name, password.into(), role, parent_id, false);
        async move { operator::create_demo_user(console, passwords, request?).await }
    };
    let admin = create("admin", "Admin@1234", Role::Admin, None).await?;
    let agent = create("agent", "Agent@1234", Role::Agent, Some(admin.id)).await?;
    let demo = create("demo", "Demo@1234", Role::Client, Some(agent.id)).await?;
    let demo2 = create("demo2", "Demo@1234", Role::Client, Some(agent.id)).await?;
    let maker = create("maker", "Maker@1234", Role::Client, Some(agent.id)).await?;

    operator::mint(&console, admin.id, Money::from_minor(100_000_000_00)).await?;
    let deposit = |user: &User, units: i64| {
        let user_id = user.id;
        let console = &console;
        async move {
            operator::transfer(
                console,
                user_id,
                Money::from_minor(units * 100),
                TransferDirection::Deposit,
                "demo chips",
            )
            .await
        }
    };
    deposit(&agent, 20_000_000).await?;
    deposit(&demo, 100_000).await?;
    deposit(&demo2, 50_000).await?;
    deposit(&maker, 5_000_000).await?;

    let changes: Vec<(String, String)> =
        SETTINGS.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    operator::update_settings(&console, &changes).await?;

    for (sport_id, name, order) in SPORTS {
        operator::create_sport(&console, *sport_id, name, *order, true).await?;
    }
    let now = now_ms();
    // Start times on the quarter hour, so the demo looks like a real fixture list.
    let base = now - now.rem_euclid(HOUR_MS / 4);
    for (sport_id, series_name, featured, matches) in SERIES {
        let series_id =
            operator::create_series(&console, *sport_id, series_name, *featured).await?;
        for (match_name, offset_hours, in_play) in matches.iter() {
            let open_date_ms = if *offset_hours >= 24 * 200 {
                base + 200 * DAY_MS
            } else {
                base + offset_hours * HOUR_MS
            };
            operator::create_match(
                &console,
                CreateMatch {
                    series_id,
                    name: match_name.to_string(),
                    open_date_ms,
                    in_play: *in_play,
                    venue: None,
                    country_code: None,
                    upstream_ref: None,
                },
            )
            .await?;
        }
    }
    let mut series_ids: Vec<(&str, i64)> = Vec::new();
    for (sport_id, series_name, country, venue, first_hours, races) in MEETINGS {
        let series_id = match series_ids.iter().find(|(name, _)| name == series_name) {
            Some((_, id)) => *id,
            None => {
                let id = operator::create_series(&console, *sport_id, series_name, false).await?;
                series_ids.push((series_name, id));
                id
            }
        };
        for race in 0..*races {
            let off_ms = base + first_hours * HOUR_MS + race as i64 * RACE_INTERVAL_MS;
            let off = backlay_kit::clock::iso_utc(off_ms + backlay_kit::clock::DISPLAY_OFFSET_MS);
            operator::create_match(
                &console,
                CreateMatch {
                    series_id,
                    name: format!("{venue} {}", &off[11..16]),
                    open_date_ms: off_ms,
                    in_play: false,
                    venue: Some(venue.to_string()),
                    country_code: Some(country.to_string()),
                    upstream_ref: None,
                },
            )
            .await?;
        }
    }
    // The casino categories come from the migrations (0008), not from the demo.
    Ok(())
}

/// Sports whose demo matches get a match-odds market; cricket also gets bookmaker and fancy.
const MARKET_SPORTS: &[i64] = &[fixtures::CRICKET, fixtures::FOOTBALL, fixtures::TENNIS];

/// Creates the demo's markets (once, on a database without markets) and opens them; the
/// market-maker's liquidity is posted by [`post_liquidity`] (or by the feed, when it runs).
/// Returns the match-odds markets with their runners and fair prices (hundredths).
pub async fn seed_markets(state: &AppState) -> Result<Vec<(i64, Vec<(i64, u32)>)>, AppError> {
    if state.store.count_markets().await? > 0 {
        return Ok(Vec::new());
    }
    let mut exchange_markets = Vec::new();
    for sport_id in MARKET_SPORTS {
        let filter = MatchFilter {
            sport_id: Some(*sport_id),
            is_active: Some(true),
            ..MatchFilter::default()
        };
        for the_match in state.store.matches(&filter).await? {
            if let Some(match_odds) = open_match_markets(state, &the_match).await? {
                exchange_markets.push(match_odds);
            }
        }
    }
    Ok(exchange_markets)
}

/// Opens a demo match's markets: match odds (with the draw in football), and on cricket a
/// bookmaker and the house lines of [`fancy`] (eighteen fancies and two odd/even markets) at
/// their opening figures. Returns the match-odds market with its runners and fair prices (hundredths); `None`
/// for a name that is not "Home v Away".
pub async fn open_match_markets(
    state: &AppState,
    the_match: &Match,
) -> Result<Option<(i64, Vec<(i64, u32)>)>, AppError> {
    let console = OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
    let mut teams: Vec<String> = the_match.name.split(" v ").map(str::to_string).collect();
    if teams.len() != 2 {
        return Ok(None);
    }
    let sport_id = the_match.sport_id;
    if sport_id == fixtures::FOOTBALL {
        teams.insert(1, "The Draw".into());
    }
    let market =
        |market_type: MarketType, name: &str, runners: Vec<String>, delay_ms: i64| CreateMarket {
            match_id: the_match.match_id,
            market_type,
            name: name.into(),
            runners,
            bet_delay_ms: delay_ms,
            min_stake_minor: 100_00,
            max_stake_minor: 500_000_00,
            commission_bp: if market_type == MarketType::MatchOdds { 200 } else { 0 },
            winners: 1,
            upstream: None,
        };
    let (market_id, selections) = operator::create_market(
        &console,
        &state.engine,
        market(MarketType::MatchOdds, "Match Odds", teams.clone(), 5_000),
    )
    .await?;
    state.engine.set_status(market_id, MarketStatus::Open, None).await?;
    let fair = fair_prices(&the_match.name, teams.len());
    let match_odds =
        (market_id, selections.iter().copied().zip(fair.iter().copied()).collect::<Vec<_>>());

    if sport_id == fixtures::CRICKET {
        let (bookmaker, bm_selections) = operator::create_market(
            &console,
            &state.engine,
            market(MarketType::Bookmaker, "Bookmaker", teams.clone(), 0),
        )
        .await?;
        let chances = simulator::probabilities_of_prices(&fair);
        let rates = play::bookmaker_update(&bm_selections, [chances[0], chances[1]]);
        state.engine.set_rates(bookmaker, rates, None).await?;
        state.engine.set_status(bookmaker, MarketStatus::Open, None).await?;
        // The house lines, at their figures before the first ball (which no seed changes).
        let Some(sides) = fancy::sides_of(&the_match.name) else { return Ok(Some(match_odds)) };
        let before_the_first_ball = simulator::Cricket::new(0, 0.0);
        for line in fancy::fancy_lines() {
            let request = market(MarketType::Fancy, &line.name(sides), Vec::new(), 0);
            let (fancy, _) = operator::create_market(&console, &state.engine, request).await?;
            if let fancy::Figure::Projected(figure) = line.figure(&before_the_first_ball) {
                state.engine.set_rates(fancy, play::fancy_update(figure), None).await?;
            }
            state.engine.set_status(fancy, MarketStatus::Open, None).await?;
        }
        for odd_even in fancy::odd_even_lines() {
            let runners = fancy::ODD_EVEN_RUNNERS.map(str::to_string).to_vec();
            let request = market(MarketType::Bookmaker, &odd_even.name(sides), runners, 0);
            let (market_id, selections) =
                operator::create_market(&console, &state.engine, request).await?;
            if let fancy::Parity::Open(odd) = odd_even.parity(&before_the_first_ball) {
                let rates = play::bookmaker_update(&selections, [odd, 1.0 - odd]);
                state.engine.set_rates(market_id, rates, None).await?;
            }
            state.engine.set_status(market_id, MarketStatus::Open, None).await?;
        }
    }
    Ok(Some(match_odds))
}

/// Fair decimal prices (hundredths) for a match's runners, the same for the same match name.
fn fair_prices(match_name: &str, runners: usize) -> Vec<u32> {
    let seed: u32 =
        match_name.bytes().fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    let favourite = 150 + seed % 100; // 1.50 to 2.49
    let on_ladder =
        |hundredths: u32| odds::nearest(hundredths).0.unwrap_or(Price::MIN).hundredths();
    if runners == 3 {
        vec![on_ladder(favourite + 50), on_ladder(340), on_ladder(favourite * 2)]
    } else {
        // Two runners: the other price makes a fair book (1/p1 + 1/p2 = 1).
        let other = favourite * 100 / (favourite - 100);
        vec![on_ladder(favourite), on_ladder(other)]
    }
}

/// The market-maker posts its prices on the seeded markets once (the feed, when it runs, keeps
/// them up to date instead), through the same placement path as any bettor: in-play markets
/// make it wait out the bet delay too. Logs "demo market-maker: liquidity posted" when every
/// market's orders are placed or refused: tests that count the day's bets wait for it.
pub async fn post_liquidity(state: AppState, markets: Vec<(i64, Vec<(i64, u32)>)>) {
    let Ok(Some(maker)) = state.store.user_id_by_name("maker").await else { return };
    let placements = markets.iter().map(|(market_id, runners)| {
        let state = &state;
        async move {
            let market = state.store.market(*market_id).await?.setup;
            let fair: Vec<(i64, Price)> = runners
                .iter()
                .filter_map(|(selection, fair)| {
                    Price::from_hundredths(*fair).ok().map(|p| (*selection, p))
                })
                .collect();
            let wanted = market_maker::quotes(
                *market_id,
                &fair,
                market_maker::SPORTS_QUOTES,
                market.min_stake_minor,
            );
            backlay_operator::house_orders::requote_market(
                state,
                market_maker::maker_house(maker),
                market.match_id,
                *market_id,
                &wanted,
            )
            .await
        }
    });
    for result in futures::future::join_all(placements).await {
        match result {
            Ok(outcome) if outcome.refused.is_empty() => {}
            Ok(outcome) => tracing::warn!(
                "demo market-maker: {} orders refused: {}",
                outcome.refused.len(),
                outcome.refused[0]
            ),
            Err(err) => tracing::warn!("demo market-maker: cannot post liquidity: {err}"),
        }
    }
    tracing::info!("demo market-maker: liquidity posted on {} markets", markets.len());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_has_no_pair_twice_on_a_day() {
        for (sport, _, _, matches) in SERIES {
            for (i, (name, hours, _)) in matches.iter().enumerate() {
                let Some((home, away)) = fixtures::sides(name) else { continue };
                for (other, other_hours, _) in &matches[i + 1..] {
                    let same_pair = fixtures::sides(other)
                        .is_some_and(|p| p == (home, away) || p == (away, home));
                    assert!(
                        !(same_pair && (hours - other_hours).abs() < 24),
                        "sport {sport}: {name} twice within a day"
                    );
                }
            }
        }
    }
}
