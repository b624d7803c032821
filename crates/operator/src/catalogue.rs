//! The catalogue: sports, series, matches (and turning them in play), and markets.

use backlay_core::exchange::MarketType;
use backlay_core::money::Money;
use backlay_store::catalogue::{NewMatch, NewSeries, Sport};
use backlay_store::upstream::UpstreamKind;

use super::OperatorContext;
use backlay_engine::Engine;
use backlay_kit::clock::now_ms;
use backlay_kit::error::{AppError, OrNotFound};
use backlay_kit::input::Checks;

pub const CATALOGUE_NAME_MAX_CHARS: usize = 100;

fn catalogue_name(field: &str, label: &str, name: &str) -> Result<String, AppError> {
    let mut checks = Checks::default();
    let name =
        backlay_kit::input::text_field(&mut checks, field, label, name, CATALOGUE_NAME_MAX_CHARS);
    checks.finish()?;
    Ok(name)
}

pub async fn create_sport(
    ctx: &OperatorContext<'_>,
    sport_id: i64,
    name: &str,
    display_order: i64,
    is_active: bool,
) -> Result<Sport, AppError> {
    ctx.require_admin("create sports")?;
    let sport = Sport {
        sport_id,
        name: catalogue_name("name", "Sport name", name)?,
        is_active,
        display_order,
    };
    let mut writer = ctx.store.begin_write().await?;
    writer.insert_sport(&sport).await?;
    ctx.audit(
        &mut writer,
        "sport.create",
        format!("sport:{sport_id}"),
        serde_json::json!({ "name": sport.name }),
    )
    .await?;
    writer.commit().await?;
    Ok(sport)
}

pub async fn create_series(
    ctx: &OperatorContext<'_>,
    sport_id: i64,
    name: &str,
    is_featured: bool,
) -> Result<i64, AppError> {
    ctx.require_admin("create series")?;
    let name = catalogue_name("name", "Series name", name)?;
    let mut writer = ctx.store.begin_write().await?;
    let series_id = writer
        .insert_series(&NewSeries { sport_id, name: &name, is_featured }, now_ms())
        .await
        .or_not_found(|| format!("There is no sport with id {sport_id}."))?;
    ctx.audit(
        &mut writer,
        "series.create",
        format!("series:{series_id}"),
        serde_json::json!({ "name": name, "sport_id": sport_id }),
    )
    .await?;
    writer.commit().await?;
    Ok(series_id)
}

/// A match to create; `open_date_ms` is the scheduled start.
#[derive(Clone, Debug)]
pub struct CreateMatch {
    pub series_id: i64,
    pub name: String,
    pub open_date_ms: i64,
    pub in_play: bool,
    pub venue: Option<String>,
    pub country_code: Option<String>,
    /// What an upstream feed calls the match ("betfair:31389771"), linked in the same
    /// transaction (`backlay_store::upstream`); `None` for a match made by hand.
    pub upstream_ref: Option<String>,
}

pub async fn create_match(
    ctx: &OperatorContext<'_>,
    request: CreateMatch,
) -> Result<i64, AppError> {
    ctx.require_admin("create matches")?;
    let name = catalogue_name("name", "Match name", &request.name)?;
    let mut writer = ctx.store.begin_write().await?;
    let match_id = writer
        .insert_match(
            &NewMatch {
                series_id: request.series_id,
                name: &name,
                open_date_ms: request.open_date_ms,
                in_play: request.in_play,
                venue: request.venue.as_deref(),
                country_code: request.country_code.as_deref(),
            },
            now_ms(),
        )
        .await
        .or_not_found(|| format!("There is no series with id {}.", request.series_id))?;
    if let Some(upstream_ref) = &request.upstream_ref {
        writer.link_upstream(UpstreamKind::Match, upstream_ref, match_id).await?;
    }
    ctx.audit(
        &mut writer,
        "match.create",
        format!("match:{match_id}"),
        serde_json::json!({ "name": name, "series_id": request.series_id }),
    )
    .await?;
    writer.commit().await?;
    Ok(match_id)
}

/// Turns a match in play (its markets' LAPSE orders lapse and their bet delay starts) or
/// back out of play.
pub async fn set_match_in_play(
    ctx: &OperatorContext<'_>,
    engine: &Engine,
    match_id: i64,
    in_play: bool,
) -> Result<(), AppError> {
    ctx.require_admin("turn matches in play")?;
    let mut writer = ctx.store.begin_write().await?;
    writer
        .set_match_in_play(match_id, in_play)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    ctx.audit(
        &mut writer,
        "match.in_play",
        format!("match:{match_id}"),
        serde_json::json!({ "in_play": in_play }),
    )
    .await?;
    writer.commit().await?;
    for market in ctx.store.markets_of_match(match_id).await? {
        engine.set_in_play(market.setup.market_id, in_play).await?;
    }
    Ok(())
}

/// Retires a finished match (off every list: sports, series, search) or lists it again. Its
/// markets and bets are untouched.
pub async fn set_match_active(
    ctx: &OperatorContext<'_>,
    match_id: i64,
    active: bool,
) -> Result<(), AppError> {
    ctx.require_admin("retire matches")?;
    let mut writer = ctx.store.begin_write().await?;
    writer
        .set_match_active(match_id, active)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    ctx.audit(
        &mut writer,
        "match.active",
        format!("match:{match_id}"),
        serde_json::json!({ "is_active": active }),
    )
    .await?;
    writer.commit().await?;
    Ok(())
}

/// A market to create (checked by the caller's parsing; the store checks the match exists).
#[derive(Clone, Debug)]
pub struct CreateMarket {
    pub match_id: i64,
    pub market_type: MarketType,
    pub name: String,
    pub runners: Vec<String>,
    pub bet_delay_ms: i64,
    pub min_stake_minor: i64,
    pub max_stake_minor: i64,
    pub commission_bp: i64,
    pub winners: i64,
    /// What an upstream feed calls the market and each of its runners (in `runners`' order),
    /// linked in the same transaction; `None` for a market made by hand.
    pub upstream: Option<UpstreamMarket>,
}

/// An upstream market's reference and its runners' ("1.197931750", ["1.197931750:37947503", …]).
#[derive(Clone, Debug)]
pub struct UpstreamMarket {
    pub market_ref: String,
    pub runner_refs: Vec<String>,
}

/// Creates a market (suspended) and starts its engine task; returns its id and runner ids.
pub async fn create_market(
    ctx: &OperatorContext<'_>,
    engine: &Engine,
    request: CreateMarket,
) -> Result<(i64, Vec<i64>), AppError> {
    ctx.require_admin("create markets")?;
    let now = now_ms();
    let mut writer = ctx.store.begin_write().await?;
    let market_id = writer
        .insert_market(
            &backlay_store::markets::NewMarket {
                match_id: request.match_id,
                market_type: request.market_type,
                name: &request.name,
                bet_delay_ms: request.bet_delay_ms,
                min_stake_minor: request.min_stake_minor,
                max_stake_minor: request.max_stake_minor,
                commission_bp: request.commission_bp,
                winners: request.winners,
                runners: &request.runners,
            },
            now,
        )
        .await
        .or_not_found(|| format!("There is no match with id {}.", request.match_id))?;
    ctx.audit(
        &mut writer,
        "market.create",
        format!("market:{market_id}"),
        serde_json::json!({
            "type": request.market_type,
            "name": request.name,
            "match_id": request.match_id,
            "runners": request.runners,
            "min_stake": Money::from_minor(request.min_stake_minor),
            "max_stake": Money::from_minor(request.max_stake_minor),
            "bet_delay_ms": request.bet_delay_ms,
            "commission_bp": request.commission_bp,
        }),
    )
    .await?;
    let market = writer.market(market_id).await?;
    if let Some(upstream) = &request.upstream {
        if upstream.runner_refs.len() != market.setup.runners.len() {
            return Err(AppError::Internal(anyhow::anyhow!(
                "{} upstream runner references for {} runners",
                upstream.runner_refs.len(),
                market.setup.runners.len()
            )));
        }
        writer.link_upstream(UpstreamKind::Market, &upstream.market_ref, market_id).await?;
        for (runner_ref, runner) in upstream.runner_refs.iter().zip(&market.setup.runners) {
            writer.link_upstream(UpstreamKind::Runner, runner_ref, runner.runner_id).await?;
        }
    }
    writer.commit().await?;
    engine.spawn(market_id).await?;
    Ok((market_id, market.setup.runners.iter().map(|r| r.runner_id).collect()))
}

/// A runner's race card as given: each field absent (or empty) when not known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunnerCardInput {
    pub selection_id: i64,
    pub draw: Option<i64>,
    pub jockey: Option<String>,
    pub trainer: Option<String>,
}

/// The most runners one call sets: a market's most runners.
pub const MAX_RUNNER_CARDS: usize = 64;

/// Sets race card facts (draw, jockey, trainer) of runners of `market_id`, each replacing what
/// its runner's card said; a card with nothing in it clears the runner's. Every runner must be
/// the market's. Audited as `market.runner_cards`. The feed sets them from its catalogue's
/// runner metadata, an operator through `admin/market/runnerCards`.
pub async fn set_runner_cards(
    ctx: &OperatorContext<'_>,
    market_id: i64,
    cards: &[RunnerCardInput],
) -> Result<usize, AppError> {
    use backlay_store::runner_cards::{RunnerCard, CARD_NAME_MAX_CHARS};
    ctx.require_admin("set race cards")?;
    let market = ctx
        .store
        .market(market_id)
        .await
        .or_not_found(|| format!("There is no market with id {market_id}."))?;
    let mut checks = Checks::default();
    if cards.is_empty() || cards.len() > MAX_RUNNER_CARDS {
        checks.fail("runners", format!("Give 1 to {MAX_RUNNER_CARDS} runners."));
    }
    let name = |checks: &mut Checks, field: String, label: &str, given: &Option<String>| {
        let given = given.as_deref().map(str::trim).filter(|t| !t.is_empty())?;
        if given.chars().count() > CARD_NAME_MAX_CHARS {
            checks.fail(&field, format!("{label} is at most {CARD_NAME_MAX_CHARS} characters."));
            return None;
        }
        Some(given.to_string())
    };
    let mut checked = Vec::with_capacity(cards.len());
    for (i, card) in cards.iter().enumerate() {
        if !market.setup.runners.iter().any(|r| r.runner_id == card.selection_id) {
            checks.fail(
                &format!("runners[{i}].selection_id"),
                format!("Runner {} is not one of {}.", card.selection_id, market.setup.name),
            );
        }
        if card.draw.is_some_and(|draw| !(1..=99).contains(&draw)) {
            checks.fail(&format!("runners[{i}].draw"), "The draw is a stall from 1 to 99.");
        }
        checked.push(RunnerCard {
            runner_id: card.selection_id,
            draw: card.draw,
            jockey: name(
                &mut checks,
                format!("runners[{i}].jockey"),
                "A jockey's name",
                &card.jockey,
            ),
            trainer: name(
                &mut checks,
                format!("runners[{i}].trainer"),
                "A trainer's name",
                &card.trainer,
            ),
        });
    }
    checks.finish()?;
    let mut writer = ctx.store.begin_write().await?;
    for card in &checked {
        writer.set_runner_card(card, now_ms()).await?;
    }
    let detail: Vec<serde_json::Value> = checked
        .iter()
        .map(|c| serde_json::json!({ "runner_id": c.runner_id, "draw": c.draw, "jockey": c.jockey, "trainer": c.trainer }))
        .collect();
    ctx.audit(&mut writer, "market.runner_cards", format!("market:{market_id}"), detail.into())
        .await?;
    writer.commit().await?;
    Ok(checked.len())
}
