//! Demo data for a new, empty database: the sports of spec §3, series and matches spread over
//! the coming days (some in play), the demo log-ins with chips, site settings and casino
//! categories. Everything goes through the same operator actions an admin would use, so the
//! demo's ledger, audit log and users are exactly what real operation produces.

use backlay_core::exchange::Persistence;
use backlay_core::money::Money;
use backlay_core::odds::{self, Price};
use backlay_store::catalogue::{CasinoSport, MatchFilter};
use backlay_store::users::{Role, User};
use backlay_store::Store;

use crate::clock::now_ms;
use crate::engine::{PlaceBet, RatesUpdate};
use crate::error::AppError;
use crate::operator::{self, Actor, CreateMarket, CreateMatch, CreateUser, OperatorContext, TransferDirection};
use crate::AppState;

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
    (4, "Indian Premier League", true, &[
        ("Mumbai Indians v Chennai Super Kings", -1, true),
        ("Royal Challengers Bengaluru v Kolkata Knight Riders", 5, false),
        ("Delhi Capitals v Rajasthan Royals", 29, false),
        ("Sunrisers Hyderabad v Punjab Kings", 53, false),
    ]),
    (4, "ICC Champions Trophy", true, &[
        ("India v Australia", -2, true),
        ("England v South Africa", 26, false),
        ("Pakistan v New Zealand", 74, false),
    ]),
    (4, "Big Bash League", false, &[
        ("Sydney Sixers v Perth Scorchers", 3, false),
        ("Melbourne Stars v Brisbane Heat", 50, false),
    ]),
    (1, "English Premier League", true, &[
        ("Arsenal v Liverpool", -1, true),
        ("Manchester City v Chelsea", 20, false),
        ("Tottenham v Newcastle", 44, false),
    ]),
    (1, "La Liga", false, &[("Real Madrid v Barcelona", 30, false), ("Atletico Madrid v Sevilla", 78, false)]),
    (2, "ATP Finals", false, &[("Sinner v Alcaraz", 0, true), ("Djokovic v Zverev", 22, false)]),
    (2378961, "US Politics", false, &[("2028 Presidential Election", 24 * 300, false)]),
    (7522, "NBA", false, &[("Lakers v Celtics", 12, false)]),
    (-17, "Virtual Cricket League", false, &[("Virtual XI v Simulated XI", 1, false)]),
];

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

const CASINO_SPORTS: &[(&str, &str, i64)] = &[
    ("teenpatti", "Teen Patti", 1),
    ("livecasino", "Live Casino", 2),
    ("worldcasino", "World Casino", 3),
    ("matka", "Matka", 4),
];

const SETTINGS: &[(&str, &str)] = &[
    ("site_title", "Backlay"),
    ("site_message", "Welcome to Backlay: back and lay at the best prices. Bet responsibly; 18+ only."),
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
pub async fn seed_if_empty(store: &Store) -> anyhow::Result<bool> {
    if store.count_users().await? > 0 {
        return Ok(false);
    }
    seed(store).await.map_err(|e| anyhow::anyhow!("seeding demo data failed: {e}"))?;
    Ok(true)
}

async fn seed(store: &Store) -> Result<(), crate::error::AppError> {
    let console = OperatorContext { store, actor: Actor::Console, client_ip: None };
    let create = |user_name: &'static str, password: &'static str, role: Role, parent_id: Option<i64>| CreateUser {
        user_name: user_name.into(),
        password: password.into(),
        role,
        parent_id,
        must_change_password: false,
    };
    let admin = operator::create_user(&console, create("admin", "Admin@1234", Role::Admin, None)).await?;
    let agent = operator::create_user(&console, create("agent", "Agent@1234", Role::Agent, Some(admin.id))).await?;
    let demo = operator::create_user(&console, create("demo", "Demo@1234", Role::Client, Some(agent.id))).await?;
    let demo2 = operator::create_user(&console, create("demo2", "Demo@1234", Role::Client, Some(agent.id))).await?;
    let maker = operator::create_user(&console, create("maker", "Maker@1234", Role::Client, Some(agent.id))).await?;

    operator::mint(&console, admin.id, Money::from_minor(100_000_000_00)).await?;
    let deposit = |user: &User, units: i64| {
        let user_id = user.id;
        let console = &console;
        async move { operator::transfer(console, user_id, Money::from_minor(units * 100), TransferDirection::Deposit, "demo chips").await }
    };
    deposit(&agent, 20_000_000).await?;
    deposit(&demo, 100_000).await?;
    deposit(&demo2, 50_000).await?;
    deposit(&maker, 5_000_000).await?;

    let changes: Vec<(String, String)> = SETTINGS.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    operator::update_settings(&console, &changes).await?;

    for (sport_id, name, order) in SPORTS {
        operator::create_sport(&console, *sport_id, name, *order, true).await?;
    }
    let now = now_ms();
    // Start times on the quarter hour, so the demo looks like a real fixture list.
    let base = now - now.rem_euclid(HOUR_MS / 4);
    for (sport_id, series_name, featured, matches) in SERIES {
        let series_id = operator::create_series(&console, *sport_id, series_name, *featured).await?;
        for (match_name, offset_hours, in_play) in matches.iter() {
            let open_date_ms = if *offset_hours >= 24 * 200 { base + 200 * DAY_MS } else { base + offset_hours * HOUR_MS };
            operator::create_match(
                &console,
                CreateMatch {
                    series_id,
                    name: match_name.to_string(),
                    open_date_ms,
                    in_play: *in_play,
                    venue: None,
                    country_code: None,
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
            let off = crate::clock::iso_utc(off_ms + crate::clock::DISPLAY_OFFSET_MS);
            operator::create_match(
                &console,
                CreateMatch {
                    series_id,
                    name: format!("{venue} {}", &off[11..16]),
                    open_date_ms: off_ms,
                    in_play: false,
                    venue: Some(venue.to_string()),
                    country_code: Some(country.to_string()),
                },
            )
            .await?;
        }
    }
    let mut writer = store.begin_write().await?;
    for (sport_id, name, order) in CASINO_SPORTS {
        writer
            .insert_casino_sport(&CasinoSport { sport_id: sport_id.to_string(), name: name.to_string(), is_active: true, display_order: *order })
            .await?;
    }
    writer.commit().await?;
    Ok(())
}

/// Sports whose demo matches get a match-odds market; cricket also gets bookmaker and fancy.
const MARKET_SPORTS: &[i64] = &[4, 1, 2];

/// Creates the demo's markets (once, on a database without markets) and opens them; the
/// market-maker's liquidity is posted by [`post_liquidity`]. Returns the match-odds markets
/// with their runners and fair prices (hundredths).
pub async fn seed_markets(state: &AppState) -> Result<Vec<(i64, Vec<(i64, u32)>)>, AppError> {
    if state.store.count_markets().await? > 0 {
        return Ok(Vec::new());
    }
    let console = OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
    let mut exchange_markets = Vec::new();
    for sport_id in MARKET_SPORTS {
        let filter = MatchFilter { sport_id: Some(*sport_id), is_active: Some(true), ..MatchFilter::default() };
        for the_match in state.store.matches(&filter).await? {
            let mut teams: Vec<String> = the_match.name.split(" v ").map(str::to_string).collect();
            if teams.len() != 2 {
                continue;
            }
            if *sport_id == 1 {
                teams.insert(1, "The Draw".into());
            }
            let market = |market_type: &str, name: &str, runners: Vec<String>, delay_ms: i64| CreateMarket {
                match_id: the_match.match_id,
                market_type: market_type.into(),
                name: name.into(),
                runners,
                bet_delay_ms: delay_ms,
                min_stake_minor: 100_00,
                max_stake_minor: 500_000_00,
                commission_bp: if market_type == "match_odds" { 200 } else { 0 },
                winners: 1,
            };
            let (market_id, selections) =
                operator::create_market(&console, &state.engine, market("match_odds", "Match Odds", teams.clone(), 5_000)).await?;
            state.engine.set_status(market_id, "open").await?;
            let fair = fair_prices(&the_match.name, teams.len());
            exchange_markets.push((market_id, selections.iter().copied().zip(fair.iter().copied()).collect::<Vec<_>>()));

            if *sport_id == 4 {
                let (bookmaker, bm_selections) =
                    operator::create_market(&console, &state.engine, market("bookmaker", "Bookmaker", teams.clone(), 0)).await?;
                let rates = bm_selections
                    .iter()
                    .zip(&fair)
                    .map(|(selection, price)| {
                        // Indian rates: 85 means 1.85; lay (khai) two points above back.
                        let rate = i64::from(price.saturating_sub(100)).max(1);
                        (*selection, Some(rate), Some(rate + 2))
                    })
                    .collect();
                state.engine.set_rates(bookmaker, RatesUpdate::Bookmaker(rates)).await?;
                state.engine.set_status(bookmaker, "open").await?;
                let first_team = teams[0].split_whitespace().next().unwrap_or("Team");
                for (name, line) in [(format!("6 over runs {first_team}"), 48), (format!("10 over runs {first_team}"), 82)] {
                    let (fancy, _) = operator::create_market(&console, &state.engine, market("fancy", &name, Vec::new(), 0)).await?;
                    state
                        .engine
                        .set_rates(fancy, RatesUpdate::Fancy { line_no: line, rate_no: 100, line_yes: line + 1, rate_yes: 100 })
                        .await?;
                    state.engine.set_status(fancy, "open").await?;
                }
            }
        }
    }
    Ok(exchange_markets)
}

/// Fair decimal prices (hundredths) for a match's runners, the same for the same match name.
fn fair_prices(match_name: &str, runners: usize) -> Vec<u32> {
    let seed: u32 = match_name.bytes().fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    let favourite = 150 + seed % 100; // 1.50 to 2.49
    let on_ladder = |hundredths: u32| odds::nearest(hundredths).0.unwrap_or(Price::MIN).hundredths();
    if runners == 3 {
        vec![on_ladder(favourite + 50), on_ladder(340), on_ladder(favourite * 2)]
    } else {
        // Two runners: the other price makes a fair book (1/p1 + 1/p2 = 1).
        let other = favourite * 100 / (favourite - 100);
        vec![on_ladder(favourite), on_ladder(other)]
    }
}

/// The market-maker posts three prices each side of fair on every runner, through the same
/// placement path as any bettor (in-play markets make it wait out the bet delay too).
pub async fn post_liquidity(state: AppState, markets: Vec<(i64, Vec<(i64, u32)>)>) {
    let Ok(Some(maker)) = state.store.user_id_by_name("maker").await else { return };
    let mut placements = Vec::new();
    for (market_id, runners) in &markets {
        for (selection_id, fair) in runners {
            let Ok(fair) = Price::from_hundredths(*fair) else { continue };
            let mut lay_price = Some(fair);
            let mut back_price = fair.tick_up();
            for level in 0..3u32 {
                let size = Money::from_minor(i64::from(1_000 + level * 1_500) * 100);
                for (side, price) in [("lay", lay_price), ("back", back_price)] {
                    let Some(price) = price else { continue };
                    placements.push(PlaceBet {
                        user_id: maker,
                        market_id: *market_id,
                        selection_id: Some(*selection_id),
                        side: side.into(),
                        price_text: price.to_string(),
                        line: None,
                        stake: size,
                        persistence: Persistence::Persist,
                        client_ref: None,
                        request_hash: format!("demo-liquidity-{market_id}-{selection_id}-{side}-{level}"),
                        admitted_after_suspensions: None,
                    });
                }
                lay_price = lay_price.and_then(Price::tick_down);
                back_price = back_price.and_then(Price::tick_up);
            }
        }
    }
    let engine = &state.engine;
    let results = futures::future::join_all(placements.into_iter().map(|bet| engine.place(bet))).await;
    let refused = results.iter().filter(|r| r.is_err()).count();
    if refused > 0 {
        tracing::warn!("demo market-maker: {refused} of {} orders refused", results.len());
    }
}
