//! An upstream market made here: its sport, series, match and market, each made once.
//!
//! A market's definition says its event type (Betfair's ids are Backlay's sport ids: 4 cricket,
//! 7 horse racing, 4339 greyhounds), its event, its type and its runners. From those:
//! - the **sport** is joined, or made with Betfair's name for it;
//! - the **series** is the competition the catalogue names, else the venue (racing), else
//!   "<sport> (feed)", joined by name within the sport;
//! - the **match** is linked to the upstream event (`betfair:<event id>`), named as the
//!   catalogue or the definition names the event, else "Event <id>";
//! - the **market** (WIN and PLACE as themselves, any other type as match odds) is linked to
//!   the upstream market and each runner to its selection, its runners in `sortPriority` order,
//!   named from the catalogue, else the definition's `name`, else "Selection <id>"; a runner's
//!   race card (draw, jockey, trainer) is what the catalogue's runner metadata gives
//!   (`STALL_DRAW`, `JOCKEY_NAME`, `TRAINER_NAME`), and nothing where it gives none.
//!
//! Example, flumine's greyhound WIN market 1.197931750 with its catalogue: sport 4339
//! "Greyhound Racing", series "Sheffield", match "Sheffield 19th Apr" (linked to
//! `betfair:31389771`), market "OR 280m" (WIN) with runners "1. Paradise Mission" …
//! "6. Coolavanny Galiv".

use std::collections::HashMap;
use std::path::Path;

use backlay_core::exchange::MarketType;
use backlay_feed::message::MarketDefinition;
use backlay_kit::actor::{Actor, OperatorContext};
use backlay_kit::clock::{now_ms, parse_iso};
use backlay_kit::error::AppError;
use backlay_operator::{AppState, CreateMarket, CreateMatch, UpstreamMarket};
use backlay_store::upstream::UpstreamKind;
use serde::Deserialize;

/// A new market's terms: what an operator's new market gets by default.
const MIN_STAKE_MINOR: i64 = 100_00;
const MAX_STAKE_MINOR: i64 = 5_00_000_00;
const COMMISSION_BP: i64 = 200;

/// Names from `listMarketCatalogue` answers, by market id.
#[derive(Clone, Debug, Default)]
pub struct Catalogue {
    markets: HashMap<String, CatalogueMarket>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CatalogueMarket {
    market_id: String,
    market_name: Option<String>,
    #[serde(default)]
    runners: Vec<CatalogueRunner>,
    event: Option<CatalogueEvent>,
    competition: Option<CatalogueNamed>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CatalogueRunner {
    selection_id: i64,
    runner_name: String,
    /// Betfair's RUNNER_METADATA: text values by key, null where not known.
    #[serde(default)]
    metadata: HashMap<String, Option<String>>,
}

impl CatalogueRunner {
    /// What the race card shows of this runner, from its metadata (`STALL_DRAW`,
    /// `JOCKEY_NAME`, `TRAINER_NAME`); `None` when the metadata gives none of them.
    fn card(&self, runner_id: i64) -> Option<backlay_operator::RunnerCardInput> {
        let text = |key: &str| {
            self.metadata
                .get(key)
                .and_then(Option::as_deref)
                .map(str::trim)
                .filter(|t| !t.is_empty() && !t.eq_ignore_ascii_case("null"))
        };
        let card = backlay_operator::RunnerCardInput {
            selection_id: runner_id,
            // A stall outside 1–99 is not one: left out rather than refused with the card.
            draw: text("STALL_DRAW")
                .and_then(|d| d.parse::<i64>().ok())
                .filter(|d| (1..=99).contains(d)),
            jockey: text("JOCKEY_NAME").map(str::to_owned),
            trainer: text("TRAINER_NAME").map(str::to_owned),
        };
        (card.draw.is_some() || card.jockey.is_some() || card.trainer.is_some()).then_some(card)
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CatalogueEvent {
    name: Option<String>,
    venue: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
struct CatalogueNamed {
    name: Option<String>,
}

impl Catalogue {
    /// Reads `listMarketCatalogue` answers: each file one market or a list of them (as the call
    /// answers), a folder every file in it.
    pub fn load(paths: &[impl AsRef<Path>]) -> anyhow::Result<Catalogue> {
        let mut catalogue = Catalogue::default();
        for path in paths {
            let path = path.as_ref();
            let files: Vec<_> = if path.is_dir() {
                let mut files: Vec<_> = std::fs::read_dir(path)?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.is_file())
                    .collect();
                files.sort();
                files
            } else {
                vec![path.to_owned()]
            };
            for file in files {
                let text = std::fs::read_to_string(&file)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
                let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                    anyhow::anyhow!("{}: not a listMarketCatalogue answer: {e}", file.display())
                })?;
                let markets: Vec<CatalogueMarket> = match value {
                    serde_json::Value::Array(_) => serde_json::from_value(value),
                    other => serde_json::from_value(other).map(|one| vec![one]),
                }
                .map_err(|e| {
                    anyhow::anyhow!("{}: not a listMarketCatalogue answer: {e}", file.display())
                })?;
                for market in markets {
                    catalogue.markets.insert(market.market_id.clone(), market);
                }
            }
        }
        Ok(catalogue)
    }

    fn market(&self, market_id: &str) -> Option<&CatalogueMarket> {
        self.markets.get(market_id)
    }
}

/// An upstream market and what it is here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkedMarket {
    pub upstream_market_id: String,
    pub market_id: i64,
    pub match_id: i64,
    pub market_type: MarketType,
    /// Upstream selection id → runner id here.
    pub runners: HashMap<i64, i64>,
    /// Runner id here → its name, for the feed's figures.
    pub runner_names: HashMap<i64, String>,
}

/// The market linked to an upstream market, made (with its sport, series and match) when there
/// is none yet.
pub async fn ensure_market(
    state: &AppState,
    catalogue: &Catalogue,
    upstream_market_id: &str,
    definition: &MarketDefinition,
) -> Result<LinkedMarket, AppError> {
    if let Some(linked) = linked_market(state, upstream_market_id).await? {
        return Ok(linked);
    }
    let ctx = OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
    let named = catalogue.market(upstream_market_id);
    let sport_id = ensure_sport(&ctx, definition).await?;
    let match_id = ensure_match(&ctx, sport_id, named, definition).await?;

    let mut runners = definition.runners.clone();
    runners.sort_by_key(|r| (r.sort_priority, r.selection_id));
    let runner_name = |selection_id: i64, given: Option<&String>| {
        named
            .and_then(|m| m.runners.iter().find(|r| r.selection_id == selection_id))
            .map(|r| r.runner_name.clone())
            .or_else(|| given.cloned())
            .unwrap_or_else(|| format!("Selection {selection_id}"))
    };
    let market_type = match definition.market_type.as_str() {
        "WIN" => MarketType::Win,
        "PLACE" => MarketType::Place,
        _ => MarketType::MatchOdds,
    };
    let request = CreateMarket {
        match_id,
        market_type,
        name: named
            .and_then(|m| m.market_name.clone())
            .or_else(|| definition.name.clone())
            .unwrap_or_else(|| market_type_name(&definition.market_type)),
        runners: runners.iter().map(|r| runner_name(r.selection_id, r.name.as_ref())).collect(),
        bet_delay_ms: i64::from(definition.bet_delay_s) * 1000,
        min_stake_minor: MIN_STAKE_MINOR,
        max_stake_minor: MAX_STAKE_MINOR,
        commission_bp: COMMISSION_BP,
        winners: i64::from(definition.number_of_winners.max(1)),
        upstream: Some(UpstreamMarket {
            market_ref: upstream_market_id.to_owned(),
            runner_refs: runners
                .iter()
                .map(|r| runner_ref(upstream_market_id, r.selection_id))
                .collect(),
        }),
    };
    let made = match backlay_operator::create_market(&ctx, &state.engine, request).await {
        Ok(_) => true,
        // Another node's feed made it a moment ago: join it.
        Err(AppError::Conflict(_)) => false,
        Err(other) => return Err(other),
    };
    let linked = linked_market(state, upstream_market_id).await?.ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!("market {upstream_market_id} was made but not linked"))
    })?;
    // The race card's facts the catalogue gives (a jockey, a trainer, a draw), by the node that
    // made the market.
    let cards: Vec<_> = named
        .filter(|_| made)
        .map(|m| {
            m.runners
                .iter()
                .filter_map(|r| linked.runners.get(&r.selection_id).and_then(|id| r.card(*id)))
                .collect()
        })
        .unwrap_or_default();
    if !cards.is_empty() {
        backlay_operator::set_runner_cards(&ctx, linked.market_id, &cards).await?;
    }
    Ok(linked)
}

/// What a match-odds market's bookmaker twin is called in the links (`--feed-bookmaker-margin`).
pub fn bookmaker_ref(upstream_market_id: &str) -> String {
    format!("{upstream_market_id}/bookmaker")
}

/// The bookmaker market that follows a mirrored match-odds market (its twin: the same match
/// and runners, in the same order), made when there is none yet. Its rates follow the
/// upstream's best prices (`liquidity::bookmaker_rates`); it opens, closes and settles with
/// the upstream as its twin does.
pub async fn ensure_bookmaker(
    state: &AppState,
    exchange: &LinkedMarket,
    definition: &MarketDefinition,
) -> Result<LinkedMarket, AppError> {
    let reference = bookmaker_ref(&exchange.upstream_market_id);
    if let Some(linked) = linked_market(state, &reference).await? {
        return Ok(linked);
    }
    let ctx = OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
    let mut runners = definition.runners.clone();
    runners.sort_by_key(|r| (r.sort_priority, r.selection_id));
    let name_of = |selection_id: i64| {
        exchange
            .runners
            .get(&selection_id)
            .and_then(|runner_id| exchange.runner_names.get(runner_id))
            .cloned()
            .unwrap_or_else(|| format!("Selection {selection_id}"))
    };
    let request = CreateMarket {
        match_id: exchange.match_id,
        market_type: MarketType::Bookmaker,
        name: "Bookmaker".into(),
        runners: runners.iter().map(|r| name_of(r.selection_id)).collect(),
        bet_delay_ms: i64::from(definition.bet_delay_s) * 1000,
        min_stake_minor: MIN_STAKE_MINOR,
        max_stake_minor: MAX_STAKE_MINOR,
        // A bookmaker's margin is in its rates, not in a commission.
        commission_bp: 0,
        winners: 1,
        upstream: Some(UpstreamMarket {
            market_ref: reference.clone(),
            runner_refs: runners.iter().map(|r| runner_ref(&reference, r.selection_id)).collect(),
        }),
    };
    match backlay_operator::create_market(&ctx, &state.engine, request).await {
        Ok(_) | Err(AppError::Conflict(_)) => {}
        Err(other) => return Err(other),
    }
    linked_market(state, &reference).await?.ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!("market {reference} was made but not linked"))
    })
}

/// What an upstream runner is called in the links.
pub fn runner_ref(upstream_market_id: &str, selection_id: i64) -> String {
    format!("{upstream_market_id}:{selection_id}")
}

/// The market already linked to an upstream market, with its runners.
pub async fn linked_market(
    state: &AppState,
    upstream_market_id: &str,
) -> Result<Option<LinkedMarket>, AppError> {
    let Some(market_id) =
        state.store.upstream_link(UpstreamKind::Market, upstream_market_id).await?
    else {
        return Ok(None);
    };
    let market = state.store.market(market_id).await?;
    let prefix = format!("{upstream_market_id}:");
    let runners = state
        .store
        .upstream_links_under(UpstreamKind::Runner, &prefix)
        .await?
        .into_iter()
        .filter_map(|(reference, runner_id)| {
            reference.strip_prefix(&prefix)?.parse::<i64>().ok().map(|s| (s, runner_id))
        })
        .collect();
    Ok(Some(LinkedMarket {
        upstream_market_id: upstream_market_id.to_owned(),
        market_id,
        match_id: market.setup.match_id,
        market_type: market.setup.market_type,
        runners,
        runner_names: market.setup.runners.into_iter().map(|r| (r.runner_id, r.name)).collect(),
    }))
}

/// Betfair's name of a sport (its event type), for one Backlay does not have yet.
fn sport_name(event_type_id: i64) -> String {
    match event_type_id {
        1 => "Football".into(),
        2 => "Tennis".into(),
        4 => "Cricket".into(),
        7 => "Horse Racing".into(),
        4339 => "Greyhound Racing".into(),
        7522 => "Basketball".into(),
        6423 => "American Football".into(),
        other => format!("Sport {other}"),
    }
}

fn market_type_name(market_type: &str) -> String {
    match market_type {
        "MATCH_ODDS" => "Match Odds".into(),
        "WIN" => "Win".into(),
        "PLACE" => "Place".into(),
        other => other.replace('_', " "),
    }
}

async fn ensure_sport(
    ctx: &OperatorContext<'_>,
    definition: &MarketDefinition,
) -> Result<i64, AppError> {
    let sport_id: i64 = definition.event_type_id.parse().map_err(|_| {
        AppError::Unprocessable(format!(
            "event type {:?} is not a number: the feed cannot place its markets",
            definition.event_type_id
        ))
    })?;
    if ctx.store.sports(Some(sport_id), None).await?.is_empty() {
        match backlay_operator::create_sport(ctx, sport_id, &sport_name(sport_id), 50, true).await {
            Ok(_) | Err(AppError::Conflict(_)) => {}
            Err(other) => return Err(other),
        }
    }
    Ok(sport_id)
}

async fn ensure_match(
    ctx: &OperatorContext<'_>,
    sport_id: i64,
    named: Option<&CatalogueMarket>,
    definition: &MarketDefinition,
) -> Result<i64, AppError> {
    let event_ref = format!("betfair:{}", definition.event_id);
    if let Some(match_id) = ctx.store.upstream_link(UpstreamKind::Match, &event_ref).await? {
        return Ok(match_id);
    }
    let event = named.and_then(|m| m.event.as_ref());
    let series_name = named
        .and_then(|m| m.competition.as_ref())
        .and_then(|c| c.name.clone())
        .or_else(|| event.and_then(|e| e.venue.clone()))
        .or_else(|| definition.venue.clone())
        .unwrap_or_else(|| format!("{} (feed)", sport_name(sport_id)));
    let series_id = match ctx
        .store
        .series(Some(sport_id), None)
        .await?
        .into_iter()
        .find(|s| s.name == series_name)
    {
        Some(series) => series.series_id,
        None => backlay_operator::create_series(ctx, sport_id, &series_name, false).await?,
    };
    let name = event
        .and_then(|e| e.name.clone())
        .or_else(|| definition.event_name.clone())
        .unwrap_or_else(|| format!("Event {}", definition.event_id));
    let open_date_ms = definition
        .open_date
        .as_deref()
        .or(definition.market_time.as_deref())
        .and_then(parse_iso)
        .unwrap_or_else(now_ms);
    let request = CreateMatch {
        series_id,
        name,
        open_date_ms,
        in_play: definition.in_play,
        venue: definition.venue.clone(),
        country_code: definition.country_code.clone(),
        upstream_ref: Some(event_ref.clone()),
    };
    match backlay_operator::create_match(ctx, request).await {
        Ok(match_id) => Ok(match_id),
        Err(AppError::Conflict(_)) => ctx
            .store
            .upstream_link(UpstreamKind::Match, &event_ref)
            .await?
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("match {event_ref} not linked"))),
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runner(metadata: serde_json::Value) -> CatalogueRunner {
        serde_json::from_value(serde_json::json!({
            "selectionId": 44331354, "runnerName": "1. Paradise Mission", "metadata": metadata
        }))
        .unwrap()
    }

    #[test]
    fn a_race_card_is_what_the_runner_metadata_gives_and_nothing_more() {
        let full = runner(serde_json::json!({
            "runnerId": "44331354", "STALL_DRAW": "4", "JOCKEY_NAME": "Ryan Moore",
            "TRAINER_NAME": " Aidan O'Brien ", "CLOTH_NUMBER": "1"
        }));
        assert_eq!(
            full.card(17),
            Some(backlay_operator::RunnerCardInput {
                selection_id: 17,
                draw: Some(4),
                jockey: Some("Ryan Moore".into()),
                trainer: Some("Aidan O'Brien".into()),
            })
        );
        // Betfair sends unknown values as null (or "null"); a stall out of 1-99 is not one.
        let partial = runner(serde_json::json!({
            "STALL_DRAW": "0", "JOCKEY_NAME": null, "TRAINER_NAME": "null", "WEIGHT_VALUE": "140"
        }));
        assert_eq!(partial.card(17), None);
        // flumine's greyhound catalogue: runner ids only, so no card.
        assert_eq!(runner(serde_json::json!({ "runnerId": "44331354" })).card(17), None);
        let no_metadata: CatalogueRunner =
            serde_json::from_value(serde_json::json!({ "selectionId": 1, "runnerName": "A" }))
                .unwrap();
        assert_eq!(no_metadata.card(17), None);
    }
}
