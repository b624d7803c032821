//! One line of an Exchange Stream, read once into types that cannot be wrong.
//!
//! The stream's JSON carries prices and sizes as numbers with up to two decimals (`[8.8, 18.62]`:
//! 18.62 available to back at 8.8). Here a price becomes a ladder [`Price`] and a size a
//! [`Money`] in minor units (18.62 → 1862): a price off Betfair's ladder, a negative size, a
//! runner state Betfair does not have, refuse the whole line ([`Refusal`]), so that nothing of
//! it is half applied. Keys Backlay does not act on (BSP projections, regulators, the rules) are
//! not read at all.
//!
//! ```
//! use backlay_feed::message::Message;
//!
//! let line = r#"{"op":"mcm","pt":1650392673420,"clk":"AAAAAAAA","mc":[{"id":"1.197931750",
//!   "rc":[{"id":44331354,"atb":[[8.8,18.62]],"atl":[[9.4,0]]}]}]}"#;
//! let Message::Market(change) = Message::read(line).unwrap() else { panic!("a market change") };
//! assert_eq!(change.pt, 1650392673420);
//! let runner = &change.markets[0].runners[0];
//! assert_eq!(runner.to_back.as_ref().unwrap()[0].price.to_string(), "8.80");
//! assert_eq!(runner.to_back.as_ref().unwrap()[0].size.minor(), 1862);
//! assert!(runner.to_lay.as_ref().unwrap()[0].size.is_zero()); // 0: the level is gone
//!
//! let off_ladder = r#"{"op":"mcm","pt":1,"mc":[{"id":"1.1","rc":[{"id":1,"atb":[[8.85,2]]}]}]}"#;
//! assert_eq!(
//!     Message::read(off_ladder).unwrap_err().to_string(),
//!     "market 1.1, selection 1: atb price 8.85 is not on Betfair's ladder"
//! );
//! ```

use backlay_core::money::Money;
use backlay_core::odds::Price;
use serde::Deserialize;

/// Why a line was not applied. The feed counts these and keeps the first one's words for its
/// status; the line is skipped and the feed goes on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("not a JSON message: {0}")]
    NotJson(String),
    #[error("line longer than {limit_bytes} bytes")]
    TooLong { limit_bytes: usize },
    #[error("{0}")]
    Malformed(String),
    #[error("market {market_id}, selection {selection_id}: {field} price {given} is not on Betfair's ladder")]
    OffLadder { market_id: String, selection_id: i64, field: &'static str, given: f64 },
    #[error("market {market_id}, selection {selection_id}: {field} size {given} is not an amount of money")]
    BadSize { market_id: String, selection_id: i64, field: &'static str, given: f64 },
    #[error(
        "market {market_id}: no market definition seen for it, so its changes cannot be placed"
    )]
    UnknownMarket { market_id: String },
}

/// One message of the stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// `mcm`: changes to markets.
    Market(MarketChangeMessage),
    /// `ccm`: cricket scores.
    Cricket(CricketChangeMessage),
    /// `rcm`: race progress (the race is running).
    Race(RaceChangeMessage),
    /// Anything else the stream says (`connection`, `status`, `ocm` order changes, a heartbeat
    /// with no changes): nothing for the mirror, kept for its publish time.
    Other { op: String, pt: Option<i64> },
}

impl Message {
    /// Reads one line.
    pub fn read(line: &str) -> Result<Message, Refusal> {
        let raw: RawLine =
            serde_json::from_str(line).map_err(|e| Refusal::NotJson(e.to_string()))?;
        raw.into_message()
    }

    /// When the upstream published it (`pt`, milliseconds since the epoch).
    pub fn pt(&self) -> Option<i64> {
        match self {
            Message::Market(change) => Some(change.pt),
            Message::Cricket(change) => Some(change.pt),
            Message::Race(change) => Some(change.pt),
            Message::Other { pt, .. } => *pt,
        }
    }
}

/// What a stream's change message says of itself (`ct`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeType {
    /// A delta on what came before (no `ct`).
    Update,
    /// The first image of a subscription: every market in it replaces what was held.
    SubscriptionImage,
    /// A new image after a gap on the upstream's side.
    ResubscriptionDelta,
    /// Nothing changed; the stream is alive.
    Heartbeat,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MarketChangeMessage {
    pub pt: i64,
    /// The stream's position to resume from after a drop (`clk`, and `initialClk` in the first
    /// image): recordings carry them too.
    pub clk: Option<String>,
    pub initial_clk: Option<String>,
    pub change_type: ChangeType,
    pub markets: Vec<MarketChange>,
}

/// One market's change.
#[derive(Clone, Debug, PartialEq)]
pub struct MarketChange {
    pub market_id: String,
    /// A full image: the market's ladders are replaced, not changed.
    pub image: bool,
    /// Conflated: several upstream changes in one.
    pub conflated: bool,
    pub definition: Option<MarketDefinition>,
    /// The market's traded volume.
    pub traded_volume: Option<Money>,
    pub runners: Vec<RunnerChange>,
}

/// One price level: a price and the money at it (zero: the level is gone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub price: Price,
    pub size: Money,
}

/// One of the best levels (`batb`, `bdatb` …): its rank from 0, and what is at it. A price of
/// `None` comes with a zero size: the rank is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedLevel {
    pub rank: u32,
    pub price: Option<Price>,
    pub size: Money,
}

/// One runner's change; a field absent is unchanged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunnerChange {
    pub selection_id: i64,
    /// Last traded price (`ltp`) in hundredths. Not held to the ladder: Betfair's BASIC
    /// historical data averages it over its interval (10.21 where the ladder has 10 and 10.5).
    pub last_traded_hundredths: Option<u32>,
    /// Traded volume (`tv`).
    pub traded_volume: Option<Money>,
    /// Every level available to back (`atb`, EX_ALL_OFFERS).
    pub to_back: Option<Vec<Level>>,
    /// Every level available to lay (`atl`).
    pub to_lay: Option<Vec<Level>>,
    /// Traded at each price (`trd`); an empty list clears it.
    pub traded: Option<Vec<Level>>,
    /// The best levels to back and to lay (`batb`/`batl`, EX_BEST_OFFERS).
    pub best_to_back: Option<Vec<RankedLevel>>,
    pub best_to_lay: Option<Vec<RankedLevel>>,
    /// The best levels as Betfair's site displays them, virtual bets included (`bdatb`/`bdatl`).
    pub best_display_to_back: Option<Vec<RankedLevel>>,
    pub best_display_to_lay: Option<Vec<RankedLevel>>,
}

/// A market's state (Betfair's `status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MarketStatus {
    Inactive,
    Open,
    Suspended,
    Closed,
}

impl MarketStatus {
    /// As Betfair writes it.
    pub fn betfair_name(self) -> &'static str {
        match self {
            MarketStatus::Inactive => "INACTIVE",
            MarketStatus::Open => "OPEN",
            MarketStatus::Suspended => "SUSPENDED",
            MarketStatus::Closed => "CLOSED",
        }
    }
}

/// A runner's state: whether it runs, and once the market is settled, how it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RunnerStatus {
    Active,
    Winner,
    Loser,
    Placed,
    Removed,
    RemovedVacant,
    Hidden,
}

impl RunnerStatus {
    /// As Betfair writes it.
    pub fn betfair_name(self) -> &'static str {
        match self {
            RunnerStatus::Active => "ACTIVE",
            RunnerStatus::Winner => "WINNER",
            RunnerStatus::Loser => "LOSER",
            RunnerStatus::Placed => "PLACED",
            RunnerStatus::Removed => "REMOVED",
            RunnerStatus::RemovedVacant => "REMOVED_VACANT",
            RunnerStatus::Hidden => "HIDDEN",
        }
    }
}

/// A market's definition (`marketDefinition`): sent whole whenever any of it changes.
#[derive(Clone, Debug, PartialEq)]
pub struct MarketDefinition {
    pub event_type_id: String,
    pub event_id: String,
    /// Present in some messages (historical data's closing definition).
    pub event_name: Option<String>,
    /// The market's own name, when sent.
    pub name: Option<String>,
    /// MATCH_ODDS, WIN, PLACE, …
    pub market_type: String,
    /// ISO 8601, as Betfair sends it.
    pub market_time: Option<String>,
    pub open_date: Option<String>,
    pub status: MarketStatus,
    pub in_play: bool,
    /// Seconds a bet waits in play before it is matched.
    pub bet_delay_s: u32,
    pub number_of_winners: u32,
    pub venue: Option<String>,
    pub country_code: Option<String>,
    pub version: Option<i64>,
    pub runners: Vec<RunnerDefinition>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RunnerDefinition {
    pub selection_id: i64,
    pub sort_priority: u32,
    pub status: RunnerStatus,
    pub name: Option<String>,
    /// The runner's share of the market's probability, in percent, when Betfair reduces the
    /// others' matched prices on its removal.
    pub adjustment_factor: Option<f64>,
    pub removal_date: Option<String>,
}

/// `ccm`.
#[derive(Clone, Debug, PartialEq)]
pub struct CricketChangeMessage {
    pub pt: i64,
    pub matches: Vec<CricketScore>,
}

/// A cricket match's score as the feed sends it, whole each time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CricketScore {
    pub event_id: String,
    pub market_id: Option<String>,
    /// "Karachi Kings v Multan Sultans, Pakistan Super League Match 1, from National Stadium".
    pub description: Option<String>,
    pub home_team: Option<String>,
    pub away_team: Option<String>,
    /// IN_RUNNING, COMPLETE, …
    pub fixture_status: Option<String>,
    /// BALL_IN_PROGRESS, MATCH_STABLE, RUNS_LIKELY, …
    pub event_status: Option<String>,
    /// The scoreboard's own words ("Match in Progress - Ball in Progress").
    pub scoreboard: Option<String>,
    pub current_innings: Option<u32>,
    pub innings: Vec<Innings>,
    /// Overs per innings (20 for a T20), when the fixture says.
    pub max_overs: Option<u32>,
    /// NA until there is one.
    pub winner: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Innings {
    pub number: u32,
    pub batting_team: Option<String>,
    pub bowling_team: Option<String>,
    pub runs: u32,
    pub wickets: u32,
    /// As sent: "12.5" is twelve overs and five balls.
    pub overs: String,
}

/// `rcm`.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceChangeMessage {
    pub pt: i64,
    pub races: Vec<RaceProgress>,
}

/// A race's progress: that it runs, and the order of the runners as it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceProgress {
    /// Betfair's race id ("28587288.1650").
    pub race_id: String,
    /// The WIN market it belongs to, when sent.
    pub market_id: Option<String>,
    /// Distance run, as a percentage, when sent.
    pub progress_percent: Option<f64>,
    /// The current order, by selection id.
    pub order: Vec<i64>,
    /// The gate or furlong marker passed ("1f", "Finish").
    pub gate: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// The JSON as it comes: every key optional, numbers as Betfair sends them.

#[derive(Deserialize)]
struct RawLine {
    op: Option<String>,
    pt: Option<i64>,
    #[serde(default, deserialize_with = "text_or_number")]
    clk: Option<String>,
    #[serde(default, rename = "initialClk", deserialize_with = "text_or_number")]
    initial_clk: Option<String>,
    ct: Option<String>,
    mc: Option<Vec<RawMarketChange>>,
    cc: Option<Vec<RawCricketChange>>,
    rc: Option<Vec<RawRaceChange>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMarketChange {
    id: String,
    #[serde(default)]
    img: bool,
    #[serde(default)]
    con: bool,
    tv: Option<f64>,
    market_definition: Option<RawMarketDefinition>,
    #[serde(default)]
    rc: Vec<RawRunnerChange>,
}

#[derive(Deserialize)]
struct RawRunnerChange {
    id: i64,
    ltp: Option<f64>,
    tv: Option<f64>,
    atb: Option<Vec<[f64; 2]>>,
    atl: Option<Vec<[f64; 2]>>,
    trd: Option<Vec<[f64; 2]>>,
    batb: Option<Vec<[f64; 3]>>,
    batl: Option<Vec<[f64; 3]>>,
    bdatb: Option<Vec<[f64; 3]>>,
    bdatl: Option<Vec<[f64; 3]>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMarketDefinition {
    #[serde(deserialize_with = "required_text_or_number")]
    event_type_id: String,
    #[serde(deserialize_with = "required_text_or_number")]
    event_id: String,
    event_name: Option<String>,
    name: Option<String>,
    market_type: Option<String>,
    market_time: Option<String>,
    open_date: Option<String>,
    status: MarketStatus,
    #[serde(default)]
    in_play: bool,
    #[serde(default)]
    bet_delay: u32,
    number_of_winners: Option<u32>,
    venue: Option<String>,
    country_code: Option<String>,
    version: Option<i64>,
    #[serde(default)]
    runners: Vec<RawRunnerDefinition>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawRunnerDefinition {
    id: i64,
    #[serde(default)]
    sort_priority: u32,
    status: RunnerStatus,
    name: Option<String>,
    adjustment_factor: Option<f64>,
    removal_date: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawCricketChange {
    #[serde(deserialize_with = "required_text_or_number")]
    event_id: String,
    market_id: Option<String>,
    fixture_info: Option<RawFixtureInfo>,
    home_team: Option<RawTeam>,
    away_team: Option<RawTeam>,
    match_stats: Option<RawMatchStats>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawFixtureInfo {
    max_overs: Option<u32>,
    fixture_status: Option<String>,
    event_description: Option<String>,
    event_status: Option<String>,
}

#[derive(Deserialize)]
struct RawTeam {
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMatchStats {
    winner: Option<String>,
    scoreboard_status: Option<String>,
    current_innings: Option<u32>,
    #[serde(default)]
    innings_stats: Vec<RawInnings>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawInnings {
    innings_num: u32,
    batting_team: Option<String>,
    bowling_team: Option<String>,
    #[serde(default)]
    innings_runs: u32,
    #[serde(default)]
    innings_wickets: u32,
    #[serde(default)]
    innings_overs: Option<String>,
}

#[derive(Deserialize)]
struct RawRaceChange {
    #[serde(deserialize_with = "required_text_or_number")]
    id: String,
    mid: Option<String>,
    rpc: Option<RawRaceProgress>,
}

#[derive(Deserialize)]
struct RawRaceProgress {
    prg: Option<f64>,
    g: Option<String>,
    #[serde(default)]
    ord: Vec<i64>,
}

/// `clk` is text in market messages and a number in race ones.
fn text_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<TextOrNumber>::deserialize(d)?.map(TextOrNumber::into_text))
}

fn required_text_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(TextOrNumber::deserialize(d)?.into_text())
}

#[derive(Deserialize)]
#[serde(untagged)]
enum TextOrNumber {
    Text(String),
    Number(serde_json::Number),
}

impl TextOrNumber {
    fn into_text(self) -> String {
        match self {
            TextOrNumber::Text(text) => text,
            TextOrNumber::Number(number) => number.to_string(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// From the JSON to the types above, refusing the whole line at the first fault.

impl RawLine {
    fn into_message(self) -> Result<Message, Refusal> {
        let op = self.op.unwrap_or_default();
        let pt = || self.pt.ok_or_else(|| Refusal::Malformed(format!("{op} message without pt")));
        match op.as_str() {
            "mcm" => {
                let pt = pt()?;
                let change_type = match self.ct.as_deref() {
                    None => ChangeType::Update,
                    Some("SUB_IMAGE") => ChangeType::SubscriptionImage,
                    Some("RESUB_DELTA") => ChangeType::ResubscriptionDelta,
                    Some("HEARTBEAT") => ChangeType::Heartbeat,
                    Some(other) => {
                        return Err(Refusal::Malformed(format!("unknown change type {other}")))
                    }
                };
                let markets = self
                    .mc
                    .unwrap_or_default()
                    .into_iter()
                    .map(RawMarketChange::into_change)
                    .collect::<Result<_, _>>()?;
                Ok(Message::Market(MarketChangeMessage {
                    pt,
                    clk: self.clk,
                    initial_clk: self.initial_clk,
                    change_type,
                    markets,
                }))
            }
            "ccm" => Ok(Message::Cricket(CricketChangeMessage {
                pt: pt()?,
                matches: self
                    .cc
                    .unwrap_or_default()
                    .into_iter()
                    .map(RawCricketChange::into_score)
                    .collect(),
            })),
            "rcm" => Ok(Message::Race(RaceChangeMessage {
                pt: pt()?,
                races: self
                    .rc
                    .unwrap_or_default()
                    .into_iter()
                    .map(RawRaceChange::into_progress)
                    .collect(),
            })),
            "" => Err(Refusal::Malformed("message without op".into())),
            _ => Ok(Message::Other { op, pt: self.pt }),
        }
    }
}

impl RawMarketChange {
    fn into_change(self) -> Result<MarketChange, Refusal> {
        let market_id = self.id;
        let runners = self
            .rc
            .into_iter()
            .map(|runner| runner.into_change(&market_id))
            .collect::<Result<_, _>>()?;
        let traded_volume = match self.tv {
            Some(tv) => Some(size(tv).ok_or_else(|| {
                Refusal::Malformed(format!(
                    "market {market_id}: traded volume {tv} is not an amount of money"
                ))
            })?),
            None => None,
        };
        let definition = self.market_definition.map(RawMarketDefinition::into_definition);
        Ok(MarketChange {
            market_id,
            image: self.img,
            conflated: self.con,
            definition,
            traded_volume,
            runners,
        })
    }
}

impl RawRunnerChange {
    fn into_change(self, market_id: &str) -> Result<RunnerChange, Refusal> {
        let selection_id = self.id;
        let off_ladder = |field, given| Refusal::OffLadder {
            market_id: market_id.to_owned(),
            selection_id,
            field,
            given,
        };
        let bad_size = |field, given| Refusal::BadSize {
            market_id: market_id.to_owned(),
            selection_id,
            field,
            given,
        };
        let levels = |field: &'static str, levels: Option<Vec<[f64; 2]>>| {
            levels
                .map(|levels| {
                    levels
                        .into_iter()
                        .map(|[p, s]| {
                            Ok(Level {
                                price: price(p).ok_or_else(|| off_ladder(field, p))?,
                                size: size(s).ok_or_else(|| bad_size(field, s))?,
                            })
                        })
                        .collect::<Result<Vec<_>, Refusal>>()
                })
                .transpose()
        };
        let ranked = |field: &'static str, levels: Option<Vec<[f64; 3]>>| {
            levels
                .map(|levels| {
                    levels
                        .into_iter()
                        .map(|[rank, p, s]| {
                            let size = size(s).ok_or_else(|| bad_size(field, s))?;
                            // An emptied rank comes as [rank, 0, 0].
                            let price = if p == 0.0 && size.is_zero() {
                                None
                            } else {
                                Some(price(p).ok_or_else(|| off_ladder(field, p))?)
                            };
                            let rank = whole(rank).ok_or_else(|| {
                                Refusal::Malformed(format!(
                                    "market {market_id}, selection {selection_id}: {field} rank {rank} is not a whole number"
                                ))
                            })?;
                            Ok(RankedLevel { rank, price, size })
                        })
                        .collect::<Result<Vec<_>, Refusal>>()
                })
                .transpose()
        };
        Ok(RunnerChange {
            selection_id,
            last_traded_hundredths: match self.ltp {
                Some(p) => Some(
                    hundredths(p)
                        .and_then(|h| u32::try_from(h).ok())
                        .filter(|&h| h >= 100)
                        .ok_or_else(|| off_ladder("ltp", p))?,
                ),
                None => None,
            },
            traded_volume: match self.tv {
                Some(s) => Some(size(s).ok_or_else(|| bad_size("tv", s))?),
                None => None,
            },
            to_back: levels("atb", self.atb)?,
            to_lay: levels("atl", self.atl)?,
            traded: levels("trd", self.trd)?,
            best_to_back: ranked("batb", self.batb)?,
            best_to_lay: ranked("batl", self.batl)?,
            best_display_to_back: ranked("bdatb", self.bdatb)?,
            best_display_to_lay: ranked("bdatl", self.bdatl)?,
        })
    }
}

impl RawMarketDefinition {
    fn into_definition(self) -> MarketDefinition {
        MarketDefinition {
            event_type_id: self.event_type_id,
            event_id: self.event_id,
            event_name: self.event_name,
            name: self.name,
            market_type: self.market_type.unwrap_or_else(|| "MATCH_ODDS".into()),
            market_time: self.market_time,
            open_date: self.open_date,
            status: self.status,
            in_play: self.in_play,
            bet_delay_s: self.bet_delay,
            number_of_winners: self.number_of_winners.unwrap_or(1),
            venue: self.venue,
            country_code: self.country_code,
            version: self.version,
            runners: self
                .runners
                .into_iter()
                .map(|runner| RunnerDefinition {
                    selection_id: runner.id,
                    sort_priority: runner.sort_priority,
                    status: runner.status,
                    name: runner.name,
                    adjustment_factor: runner.adjustment_factor,
                    removal_date: runner.removal_date,
                })
                .collect(),
        }
    }
}

impl RawCricketChange {
    fn into_score(self) -> CricketScore {
        let fixture = self.fixture_info;
        let stats = self.match_stats;
        CricketScore {
            event_id: self.event_id,
            market_id: self.market_id,
            description: fixture.as_ref().and_then(|f| f.event_description.clone()),
            home_team: self.home_team.and_then(|team| team.name),
            away_team: self.away_team.and_then(|team| team.name),
            fixture_status: fixture.as_ref().and_then(|f| f.fixture_status.clone()),
            max_overs: fixture.as_ref().and_then(|f| f.max_overs),
            event_status: fixture.and_then(|f| f.event_status),
            scoreboard: stats.as_ref().and_then(|s| s.scoreboard_status.clone()),
            current_innings: stats.as_ref().and_then(|s| s.current_innings),
            winner: stats.as_ref().and_then(|s| s.winner.clone()).filter(|w| w != "NA"),
            innings: stats
                .map(|s| s.innings_stats)
                .unwrap_or_default()
                .into_iter()
                .map(|i| Innings {
                    number: i.innings_num,
                    batting_team: i.batting_team,
                    bowling_team: i.bowling_team,
                    runs: i.innings_runs,
                    wickets: i.innings_wickets,
                    overs: i.innings_overs.unwrap_or_else(|| "0.0".into()),
                })
                .collect(),
        }
    }
}

impl RawRaceChange {
    fn into_progress(self) -> RaceProgress {
        let rpc = self.rpc;
        RaceProgress {
            race_id: self.id,
            market_id: self.mid,
            progress_percent: rpc.as_ref().and_then(|r| r.prg),
            gate: rpc.as_ref().and_then(|r| r.g.clone()),
            order: rpc.map(|r| r.ord).unwrap_or_default(),
        }
    }
}

/// A JSON number with at most two decimals as hundredths; `None` when it has more, or is
/// negative or too large.
fn hundredths(value: f64) -> Option<i64> {
    let scaled = value * 100.0;
    let rounded = scaled.round();
    // Two decimals read as a binary fraction are a hair off a whole number of hundredths
    // (8.8 × 100 = 880.0000000000001); anything further off had a third decimal.
    let within = (scaled - rounded).abs() < 1e-6;
    (within && (0.0..1e15).contains(&rounded)).then_some(rounded as i64)
}

fn price(value: f64) -> Option<Price> {
    let hundredths = u32::try_from(hundredths(value)?).ok()?;
    Price::from_hundredths(hundredths).ok()
}

fn size(value: f64) -> Option<Money> {
    hundredths(value).map(Money::from_minor)
}

fn whole(value: f64) -> Option<u32> {
    (value.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&value)).then_some(value as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_market_definition_is_read_with_its_runners_in_their_states() {
        let line = r#"{"op":"mcm","clk":"1","pt":5,"mc":[{"id":"1.2","img":true,"marketDefinition":{
            "eventTypeId":"4339","eventId":"31389771","marketType":"WIN","status":"CLOSED",
            "inPlay":false,"betDelay":0,"numberOfWinners":1,"runners":[
              {"status":"WINNER","sortPriority":2,"id":37947503,"name":"2. Sandwood Jet"},
              {"status":"REMOVED","sortPriority":1,"id":44331354,"adjustmentFactor":12.5}]}}]}"#;
        let Message::Market(message) = Message::read(line).unwrap() else { panic!() };
        let market = &message.markets[0];
        assert!(market.image);
        let definition = market.definition.as_ref().unwrap();
        assert_eq!(definition.status, MarketStatus::Closed);
        assert_eq!(definition.event_type_id, "4339");
        assert_eq!(definition.runners[0].status, RunnerStatus::Winner);
        assert_eq!(definition.runners[0].name.as_deref(), Some("2. Sandwood Jet"));
        assert_eq!(definition.runners[1].status, RunnerStatus::Removed);
        assert_eq!(definition.runners[1].adjustment_factor, Some(12.5));
    }

    #[test]
    fn a_fault_anywhere_refuses_the_whole_line() {
        let negative = r#"{"op":"mcm","pt":1,"mc":[{"id":"1.1","rc":[{"id":7,"atl":[[2,-1]]}]}]}"#;
        assert_eq!(
            Message::read(negative).unwrap_err().to_string(),
            "market 1.1, selection 7: atl size -1 is not an amount of money"
        );
        let third_decimal =
            r#"{"op":"mcm","pt":1,"mc":[{"id":"1.1","rc":[{"id":7,"trd":[[2,1.005]]}]}]}"#;
        assert!(matches!(Message::read(third_decimal), Err(Refusal::BadSize { .. })));
        let state = r#"{"op":"mcm","pt":1,"mc":[{"id":"1.1","marketDefinition":{"eventTypeId":"1",
            "eventId":"2","status":"FLYING","runners":[]}}]}"#;
        assert!(matches!(Message::read(state), Err(Refusal::NotJson(_))));
        assert!(matches!(Message::read("{not json"), Err(Refusal::NotJson(_))));
        assert_eq!(
            Message::read(r#"{"op":"mcm","mc":[]}"#).unwrap_err().to_string(),
            "mcm message without pt"
        );
    }

    #[test]
    fn an_emptied_best_level_has_no_price() {
        let line =
            r#"{"op":"mcm","pt":1,"mc":[{"id":"1.1","rc":[{"id":7,"batb":[[1,0,0],[0,2.5,3]]}]}]}"#;
        let Message::Market(message) = Message::read(line).unwrap() else { panic!() };
        let best = message.markets[0].runners[0].best_to_back.clone().unwrap();
        assert_eq!(best[0], RankedLevel { rank: 1, price: None, size: Money::ZERO });
        assert_eq!(best[1].price.map(|p| p.hundredths()), Some(250));
        assert_eq!(best[1].size.minor(), 300);
    }

    #[test]
    fn a_cricket_score_and_a_race_are_read() {
        let line = r#"{"op":"ccm","pt":9,"cc":[{"eventId":"30610310","marketId":"1.179676557",
            "fixtureInfo":{"fixtureStatus":"IN_RUNNING","eventStatus":"BALL_IN_PROGRESS"},
            "matchStats":{"winner":"NA","currentInnings":1,"inningsStats":[{"inningsNum":1,
            "battingTeam":"Karachi Kings","inningsRuns":80,"inningsOvers":"12.5","inningsWickets":2}]}}]}"#;
        let Message::Cricket(message) = Message::read(line).unwrap() else { panic!() };
        let score = &message.matches[0];
        assert_eq!(score.winner, None);
        assert_eq!(score.innings[0].runs, 80);
        assert_eq!(score.innings[0].overs, "12.5");
        let race = r#"{"op":"rcm","clk":12,"pt":7,"rc":[{"id":"28587288.1650","mid":"1.1234567",
            "rpc":{"g":"1f","prg":87.5,"ord":[7390417,5600338]}}]}"#;
        let Message::Race(message) = Message::read(race).unwrap() else { panic!() };
        assert_eq!(message.races[0].market_id.as_deref(), Some("1.1234567"));
        assert_eq!(message.races[0].order, vec![7390417, 5600338]);
    }
}
