//! The reads of the catalogue and the books: listEventTypes, listCompetitions, listEvents,
//! listMarketCatalogue and listMarketBook, over the exchange markets (match odds, win, place)
//! of the matches bettors see (active, not finished).
//!
//! Every list operation takes Betfair's MarketFilter ([`MarketFilter`]); the ones that name
//! things (event types, competitions, events) count the markets of each that pass it.

use std::collections::{BTreeMap, HashMap, HashSet};

use backlay_core::exchange::MarketStatus;
use backlay_core::money::Money;
use backlay_store::catalogue::{Match, MatchFilter};
use backlay_store::markets::{MarketRow, RunnerStatus};
use serde_json::{json, Map, Value};
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, PrimitiveDateTime};

use super::rpc::{ApiNgError, OpResult};
use super::{
    date_text, market_id_text, market_type_code, parse_id, parse_market_id, text_item, Caller,
};
use backlay_operator::AppState;

/// Most markets one listMarketCatalogue answers (Betfair's limit too).
const MAX_CATALOGUE_RESULTS: i64 = 1000;
/// Most markets one listMarketBook reads.
const MAX_BOOK_MARKETS: usize = 250;
/// Betfair's default depth of EX_BEST_OFFERS.
const DEFAULT_BEST_DEPTH: usize = 3;

/// The operations this module answers; `None` for any other.
pub(super) async fn call(
    state: &AppState,
    caller: &Caller,
    operation: &str,
    params: &Value,
) -> Option<OpResult> {
    Some(match operation {
        "listEventTypes" => list_event_types(state, params).await,
        "listCompetitions" => list_competitions(state, params).await,
        "listEvents" => list_events(state, params).await,
        "listMarketCatalogue" => list_market_catalogue(state, params).await,
        "listMarketBook" => list_market_book(state, caller, params).await,
        _ => return None,
    })
}

/// A market a bot may see, with its match.
struct Listed {
    market: MarketRow,
    event: Match,
}

/// Every exchange market of a listed match, not yet closed or void, oldest match first.
async fn listed_markets(state: &AppState) -> Result<Vec<Listed>, ApiNgError> {
    let matches: HashMap<i64, Match> = state
        .store
        .matches(&MatchFilter {
            is_active: Some(true),
            listed_only: true,
            ..MatchFilter::default()
        })
        .await?
        .into_iter()
        .map(|m| (m.match_id, m))
        .collect();
    let mut listed: Vec<Listed> = state
        .store
        .live_markets()
        .await?
        .into_iter()
        .filter(|m| market_type_code(m.setup.market_type).is_some())
        .filter_map(|market| {
            let event = matches.get(&market.setup.match_id)?.clone();
            Some(Listed { market, event })
        })
        .collect();
    listed.sort_by_key(|l| (l.event.open_date_ms, l.market.setup.market_id));
    Ok(listed)
}

/// Betfair's MarketFilter, as far as Backlay's markets have its properties. An absent or null
/// key does not filter.
#[derive(Default, Debug)]
struct MarketFilter {
    event_type_ids: Option<HashSet<i64>>,
    event_ids: Option<HashSet<i64>>,
    competition_ids: Option<HashSet<i64>>,
    market_ids: Option<HashSet<i64>>,
    market_type_codes: Option<HashSet<String>>,
    betting_types: Option<HashSet<String>>,
    countries: Option<HashSet<String>>,
    venues: Option<HashSet<String>>,
    in_play_only: Option<bool>,
    turn_in_play_enabled: Option<bool>,
    from_ms: Option<i64>,
    to_ms: Option<i64>,
    text_query: Option<String>,
}

fn set_of<T: std::hash::Hash + Eq>(
    filter: &Map<String, Value>,
    key: &str,
    item: impl Fn(&Value) -> Option<T>,
) -> Result<Option<HashSet<T>>, ApiNgError> {
    super::set_of(filter, key, item).map_err(ApiNgError::input)
}

fn flag(filter: &Map<String, Value>, key: &str) -> Result<Option<bool>, ApiNgError> {
    match filter.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(ApiNgError::input(format!("{key} must be true or false, not {other}."))),
    }
}

/// A time a bot sends: ISO 8601 with `Z`, an offset, or none (read as UTC), with or without
/// fractions of a second.
pub(crate) fn parse_time(text: &str) -> Option<i64> {
    let text = text.trim();
    let at = OffsetDateTime::parse(text, &Rfc3339).ok().or_else(|| {
        let naive = time::macros::format_description!(
            version = 2,
            "[year]-[month]-[day]T[hour]:[minute][optional [:[second][optional [.[subsecond]]]]]"
        );
        PrimitiveDateTime::parse(text, naive).ok().map(PrimitiveDateTime::assume_utc)
    })?;
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).ok()
}

/// A `{from, to}` range of times (either may be absent or null).
pub(crate) fn time_range(
    params: &Map<String, Value>,
    key: &str,
) -> Result<(Option<i64>, Option<i64>), ApiNgError> {
    let Some(range) = params.get(key).filter(|v| !v.is_null()) else { return Ok((None, None)) };
    let Some(range) = range.as_object() else {
        return Err(ApiNgError::input(format!("{key} must be an object with from and to.")));
    };
    let end = |name: &str| match range.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => parse_time(text).map(Some).ok_or_else(|| {
            ApiNgError::input(format!(
                "{key}.{name} {text:?} is not a time such as 2030-01-01T10:00:00Z."
            ))
        }),
        Some(other) => Err(ApiNgError::input(format!("{key}.{name} must be a time, not {other}."))),
    };
    Ok((end("from")?, end("to")?))
}

impl MarketFilter {
    fn read(params: &Value) -> Result<MarketFilter, ApiNgError> {
        let filter = match params.get("filter") {
            None | Some(Value::Null) => return Ok(MarketFilter::default()),
            Some(Value::Object(filter)) => filter,
            Some(other) => {
                return Err(ApiNgError::input(format!("filter must be an object, not {other}.")))
            }
        };
        let (from_ms, to_ms) = time_range(filter, "marketStartTime")?;
        Ok(MarketFilter {
            event_type_ids: set_of(filter, "eventTypeIds", parse_id)?,
            event_ids: set_of(filter, "eventIds", parse_id)?,
            competition_ids: set_of(filter, "competitionIds", parse_id)?,
            market_ids: set_of(filter, "marketIds", parse_market_id)?,
            market_type_codes: set_of(filter, "marketTypeCodes", text_item)?,
            betting_types: set_of(filter, "marketBettingTypes", text_item)?,
            countries: set_of(filter, "marketCountries", text_item)?,
            venues: set_of(filter, "venues", text_item)?,
            in_play_only: flag(filter, "inPlayOnly")?,
            turn_in_play_enabled: flag(filter, "turnInPlayEnabled")?,
            from_ms,
            to_ms,
            text_query: match filter.get("textQuery") {
                None | Some(Value::Null) => None,
                Some(Value::String(text)) => {
                    Some(text.trim().to_lowercase()).filter(|t| !t.is_empty())
                }
                Some(other) => {
                    return Err(ApiNgError::input(format!("textQuery must be text, not {other}.")))
                }
            },
        })
    }

    fn passes(&self, listed: &Listed) -> bool {
        let (market, event) = (&listed.market.setup, &listed.event);
        let within =
            |set: &Option<HashSet<i64>>, id: i64| set.as_ref().is_none_or(|s| s.contains(&id));
        let named = |set: &Option<HashSet<String>>, value: Option<&str>| {
            set.as_ref().is_none_or(|s| value.is_some_and(|v| s.contains(&v.to_uppercase())))
        };
        within(&self.event_type_ids, event.sport_id)
            && within(&self.event_ids, event.match_id)
            && within(&self.competition_ids, event.series_id)
            && within(&self.market_ids, market.market_id)
            && named(&self.market_type_codes, market_type_code(market.market_type))
            && named(&self.betting_types, Some("ODDS"))
            && named(&self.countries, event.country_code.as_deref())
            && named(&self.venues, event.venue.as_deref())
            && self.in_play_only.is_none_or(|only| !only || event.in_play)
            && self.turn_in_play_enabled.is_none_or(|enabled| enabled)
            && self.from_ms.is_none_or(|from| event.open_date_ms >= from)
            && self.to_ms.is_none_or(|to| event.open_date_ms <= to)
            && self.text_query.as_ref().is_none_or(|text| {
                [&event.name, &event.series_name, &event.sport_name, &market.name]
                    .iter()
                    .any(|name| name.to_lowercase().contains(text))
            })
    }
}

/// The listed markets that pass the call's filter.
async fn filtered(state: &AppState, params: &Value) -> Result<Vec<Listed>, ApiNgError> {
    let filter = MarketFilter::read(params)?;
    Ok(listed_markets(state).await?.into_iter().filter(|l| filter.passes(l)).collect())
}

/// Counts the markets of each key, in first-seen order.
fn count_by<K: Ord + Clone>(
    listed: &[Listed],
    key: impl Fn(&Listed) -> K,
) -> Vec<(K, usize, &Listed)> {
    let mut counts: BTreeMap<K, (usize, usize)> = BTreeMap::new();
    for (index, l) in listed.iter().enumerate() {
        counts.entry(key(l)).or_insert((0, index)).0 += 1;
    }
    let mut rows: Vec<_> =
        counts.into_iter().map(|(k, (n, first))| (k, n, &listed[first])).collect();
    rows.sort_by_key(|(_, _, l)| (l.event.open_date_ms, l.market.setup.market_id));
    rows
}

async fn list_event_types(state: &AppState, params: &Value) -> OpResult {
    let listed = filtered(state, params).await?;
    Ok(count_by(&listed, |l| l.event.sport_id)
        .into_iter()
        .map(|(id, count, l)| {
            json!({ "eventType": { "id": id.to_string(), "name": l.event.sport_name }, "marketCount": count })
        })
        .collect())
}

async fn list_competitions(state: &AppState, params: &Value) -> OpResult {
    let listed = filtered(state, params).await?;
    Ok(count_by(&listed, |l| l.event.series_id)
        .into_iter()
        .map(|(id, count, l)| {
            let mut item = json!({
                "competition": { "id": id.to_string(), "name": l.event.series_name },
                "marketCount": count,
            });
            if let Some(country) = &l.event.country_code {
                item["competitionRegion"] = json!(country);
            }
            item
        })
        .collect())
}

/// An event (a match) in Betfair's strict shape.
fn event_of(event: &Match) -> Value {
    let mut item = json!({
        "id": event.match_id.to_string(),
        "name": event.name,
        "timezone": "GMT",
        "openDate": date_text(event.open_date_ms),
    });
    if let Some(country) = &event.country_code {
        item["countryCode"] = json!(country);
    }
    if let Some(venue) = &event.venue {
        item["venue"] = json!(venue);
    }
    item
}

async fn list_events(state: &AppState, params: &Value) -> OpResult {
    let listed = filtered(state, params).await?;
    Ok(count_by(&listed, |l| l.event.match_id)
        .into_iter()
        .map(|(_, count, l)| json!({ "event": event_of(&l.event), "marketCount": count }))
        .collect())
}

/// Rupees as a JSON number with two decimals.
pub(crate) fn rupees(money: Money) -> Value {
    json!(money.to_f64_for_json())
}

/// What was matched in these markets: per market the total, per runner the total and the
/// ladder of traded sizes (ascending price).
#[derive(Default)]
struct Traded {
    markets: HashMap<i64, i64>,
    runners: HashMap<i64, Vec<(i64, i64)>>,
}

impl Traded {
    async fn read(state: &AppState, market_ids: &[i64]) -> Result<Traded, ApiNgError> {
        let mut traded = Traded::default();
        for (market_id, runner_id, price, size) in state.store.traded_volume(market_ids).await? {
            *traded.markets.entry(market_id).or_default() += size;
            traded.runners.entry(runner_id).or_default().push((price, size));
        }
        Ok(traded)
    }

    fn market(&self, market_id: i64) -> Value {
        rupees(Money::from_minor(self.markets.get(&market_id).copied().unwrap_or(0)))
    }

    fn runner(&self, runner_id: i64) -> Value {
        rupees(Money::from_minor(
            self.runners.get(&runner_id).map_or(0, |ladder| ladder.iter().map(|(_, s)| s).sum()),
        ))
    }

    fn ladder(&self, runner_id: i64) -> Vec<Value> {
        self.runners
            .get(&runner_id)
            .map(|ladder| {
                ladder
                    .iter()
                    .map(|(price, size)| {
                        json!({ "price": *price as f64 / 100.0, "size": rupees(Money::from_minor(*size)) })
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The projections a listMarketCatalogue asks for.
fn projections(params: &Value) -> Result<HashSet<String>, ApiNgError> {
    match params.get("marketProjection") {
        None | Some(Value::Null) => Ok(HashSet::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str().map(str::to_string).ok_or_else(|| {
                    ApiNgError::input(format!(
                        "marketProjection holds {v}, which is not a projection."
                    ))
                })
            })
            .collect(),
        Some(other) => {
            Err(ApiNgError::input(format!("marketProjection must be a list, not {other}.")))
        }
    }
}

async fn list_market_catalogue(state: &AppState, params: &Value) -> OpResult {
    let max_results = match params.get("maxResults") {
        None | Some(Value::Null) => {
            return Err(ApiNgError::input("maxResults is required (1 to 1000)."));
        }
        Some(value) => {
            value.as_i64().filter(|n| (1..=MAX_CATALOGUE_RESULTS).contains(n)).ok_or_else(|| {
                ApiNgError::input(format!("maxResults must be 1 to 1000, not {value}."))
            })?
        }
    };
    let projections = projections(params)?;
    let mut listed = filtered(state, params).await?;
    match params.get("sort").and_then(Value::as_str) {
        Some("LAST_TO_START") => listed.reverse(),
        Some("MAXIMUM_TRADED" | "MINIMUM_TRADED") => {
            let ids: Vec<i64> = listed.iter().map(|l| l.market.setup.market_id).collect();
            let traded = Traded::read(state, &ids).await?;
            let volume =
                |l: &Listed| traded.markets.get(&l.market.setup.market_id).copied().unwrap_or(0);
            listed.sort_by_key(|l| volume(l));
            if params.get("sort").and_then(Value::as_str) == Some("MAXIMUM_TRADED") {
                listed.reverse();
            }
        }
        _ => {} // FIRST_TO_START, and the ones without a meaning here (available amounts).
    }
    listed.truncate(usize::try_from(max_results).unwrap_or(1));
    let ids: Vec<i64> = listed.iter().map(|l| l.market.setup.market_id).collect();
    let traded = Traded::read(state, &ids).await?;
    let wants = |p: &str| projections.contains(p);
    Ok(listed
        .iter()
        .map(|l| {
            let (market, event) = (&l.market.setup, &l.event);
            let mut item = json!({
                "marketId": market_id_text(market.market_id),
                "marketName": market.name,
                "totalMatched": traded.market(market.market_id),
            });
            if wants("MARKET_START_TIME") {
                item["marketStartTime"] = json!(date_text(event.open_date_ms));
            }
            if wants("RUNNER_DESCRIPTION") || wants("RUNNER_METADATA") {
                let mut runners = market.runners.clone();
                runners.sort_by_key(|r| (r.sort_order, r.runner_id));
                item["runners"] = runners
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let mut runner = json!({
                            "selectionId": r.runner_id,
                            "runnerName": r.name,
                            "handicap": 0.0,
                            "sortPriority": i + 1,
                        });
                        if wants("RUNNER_METADATA") {
                            runner["metadata"] = json!({ "runnerId": r.runner_id.to_string() });
                        }
                        runner
                    })
                    .collect();
            }
            if wants("EVENT_TYPE") {
                item["eventType"] =
                    json!({ "id": event.sport_id.to_string(), "name": event.sport_name });
            }
            if wants("COMPETITION") {
                item["competition"] =
                    json!({ "id": event.series_id.to_string(), "name": event.series_name });
            }
            if wants("EVENT") {
                item["event"] = event_of(event);
            }
            if wants("MARKET_DESCRIPTION") {
                item["description"] = json!({
                    "persistenceEnabled": true,
                    "bspMarket": false,
                    "marketTime": date_text(event.open_date_ms),
                    "suspendTime": date_text(event.open_date_ms),
                    "bettingType": "ODDS",
                    "turnInPlayEnabled": true,
                    "marketType": market_type_code(market.market_type),
                    "regulator": "BACKLAY",
                    "marketBaseRate": market.commission_bp as f64 / 100.0,
                    "discountAllowed": false,
                    "wallet": "MAIN",
                    "rules": "",
                    "rulesHasDate": false,
                    "priceLadderDescription": { "type": "CLASSIC" },
                });
            }
            item
        })
        .collect())
}

/// Betfair's market status for Backlay's (ball running is a suspension).
pub(crate) fn status_code(status: MarketStatus) -> &'static str {
    match status {
        MarketStatus::Open => "OPEN",
        MarketStatus::Suspended | MarketStatus::BallRunning => "SUSPENDED",
        MarketStatus::Closed | MarketStatus::Void => "CLOSED",
    }
}

/// Betfair's runner status for Backlay's.
pub(crate) fn runner_status_code(status: RunnerStatus) -> &'static str {
    match status {
        RunnerStatus::Active => "ACTIVE",
        RunnerStatus::Winner => "WINNER",
        RunnerStatus::Loser => "LOSER",
        RunnerStatus::Removed => "REMOVED",
    }
}

/// Which of the book's ladders a listMarketBook asks for, and how deep.
struct PriceProjection {
    /// Levels of available prices per side; 0: no `ex` ladders of prices.
    depth: usize,
    traded: bool,
}

impl PriceProjection {
    fn read(params: &Value) -> Result<PriceProjection, ApiNgError> {
        let Some(projection) = params.get("priceProjection").filter(|v| !v.is_null()) else {
            return Ok(PriceProjection { depth: 0, traded: false });
        };
        let data =
            projection.get("priceData").and_then(Value::as_array).cloned().unwrap_or_default();
        let wants = |name: &str| data.iter().any(|v| v.as_str() == Some(name));
        let best_depth = projection
            .get("exBestOffersOverrides")
            .and_then(|o| o.get("bestPricesDepth"))
            .and_then(Value::as_u64)
            .map_or(DEFAULT_BEST_DEPTH, |d| usize::try_from(d).unwrap_or(DEFAULT_BEST_DEPTH));
        let depth = if wants("EX_ALL_OFFERS") {
            backlay_engine::VIEW_DEPTH
        } else if wants("EX_BEST_OFFERS") {
            best_depth.clamp(1, backlay_engine::VIEW_DEPTH)
        } else {
            0
        };
        Ok(PriceProjection { depth, traded: wants("EX_TRADED") })
    }
}

async fn list_market_book(state: &AppState, caller: &Caller, params: &Value) -> OpResult {
    let market_ids = match params.get("marketIds") {
        Some(Value::Array(ids)) => ids
            .iter()
            .map(|v| {
                parse_market_id(v).ok_or_else(|| {
                    ApiNgError::input(format!("{v} is not a market id such as \"1.40\"."))
                })
            })
            .collect::<Result<Vec<i64>, _>>()?,
        _ => {
            return Err(ApiNgError::input(
                "marketIds is required: a list of market ids such as [\"1.40\"].",
            ))
        }
    };
    if market_ids.len() > MAX_BOOK_MARKETS {
        return Err(ApiNgError::new(
            "TOO_MUCH_DATA",
            format!("Ask for at most {MAX_BOOK_MARKETS} markets at once."),
        ));
    }
    let projection = PriceProjection::read(params)?;
    let traded = Traded::read(state, &market_ids).await?;
    let mut books = Vec::new();
    for market_id in market_ids {
        let Ok(row) = state.store.market(market_id).await else { continue };
        if market_type_code(row.setup.market_type).is_none() {
            continue;
        }
        let event = state.store.match_by_id(row.setup.match_id).await?;
        let view = if state.engine.is_running(market_id).await {
            state.engine.view(market_id, Some(caller.user.id)).await.ok()
        } else {
            None
        };
        let (status, in_play, setup) = match &view {
            Some(view) => (view.status, view.in_play, &view.setup),
            None => (row.status, event.in_play, &row.setup),
        };
        let mut own = super::orders::book_orders(state, caller, market_id, params).await?;
        let mut runners = setup.runners.clone();
        runners.sort_by_key(|r| (r.sort_order, r.runner_id));
        let runners: Vec<Value> = runners
            .iter()
            .map(|r| {
                let mut runner = json!({
                    "selectionId": r.runner_id,
                    "handicap": 0.0,
                    "status": runner_status_code(r.status),
                    "totalMatched": traded.runner(r.runner_id),
                });
                if projection.depth > 0 || projection.traded {
                    let live = view.as_ref().and_then(|v| v.runners.iter().find(|x| x.selection_id == r.runner_id));
                    let side = |levels: Option<&Vec<(backlay_core::odds::Price, Money)>>| -> Vec<Value> {
                        levels
                            .map(|levels| {
                                levels
                                    .iter()
                                    .take(projection.depth)
                                    .map(|(p, s)| json!({ "price": p.to_f64_for_json(), "size": rupees(*s) }))
                                    .collect()
                            })
                            .unwrap_or_default()
                    };
                    runner["ex"] = json!({
                        "availableToBack": side(live.map(|l| &l.back)),
                        "availableToLay": side(live.map(|l| &l.lay)),
                        "tradedVolume": if projection.traded { traded.ladder(r.runner_id) } else { Vec::new() },
                    });
                }
                if let Some((orders, matches)) = own.remove(&r.runner_id) {
                    if let Some(orders) = orders {
                        runner["orders"] = Value::Array(orders);
                    }
                    if let Some(matches) = matches {
                        runner["matches"] = Value::Array(matches);
                    }
                }
                runner
            })
            .collect();
        let bet_delay_s = if in_play { setup.bet_delay_ms / 1000 } else { 0 };
        books.push(json!({
            "marketId": market_id_text(market_id),
            "isMarketDataDelayed": false,
            "status": status_code(status),
            "betDelay": bet_delay_s,
            "bspReconciled": false,
            "complete": true,
            "inplay": in_play,
            "numberOfWinners": setup.winners,
            "numberOfRunners": runners.len(),
            "numberOfActiveRunners": setup.runners.iter().filter(|r| r.status == RunnerStatus::Active).count(),
            "totalMatched": traded.market(market_id),
            "totalAvailable": 0.0,
            "crossMatching": false,
            "runnersVoidable": false,
            "version": 1,
            "runners": runners,
        }));
    }
    Ok(Value::Array(books))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_read_with_a_zone_an_offset_or_none() {
        let at = 1_893_492_000_000; // 2030-01-01T10:00:00Z
        assert_eq!(parse_time("2030-01-01T10:00:00Z"), Some(at));
        assert_eq!(parse_time("2030-01-01T10:00:00.000Z"), Some(at));
        assert_eq!(parse_time("2030-01-01T10:00:00+00:00"), Some(at));
        assert_eq!(parse_time("2030-01-01T15:30:00+05:30"), Some(at));
        assert_eq!(parse_time("2030-01-01T10:00:00"), Some(at));
        assert_eq!(parse_time("2030-01-01T10:00:00.250"), Some(at + 250));
        assert_eq!(parse_time("2030-01-01T10:00"), Some(at));
        assert_eq!(parse_time("tomorrow"), None);
        assert_eq!(parse_time("2030-13-01T10:00:00Z"), None);
    }
}
