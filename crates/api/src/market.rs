//! A runner of an exchange market in depth: `market/ladder`, its full ladder from the market's
//! owner (every price with money on it, the caller's own unmatched orders, the volume traded at
//! each price and the last price traded), and `market/priceHistory`, its price over time from
//! the stored fills, in at most 200 points. Bookmaker and fancy markets have neither: the house
//! posts one rate there.

use axum::extract::State;
use backlay_core::exchange::MarketStatus;
use backlay_core::money::Money;
use backlay_core::odds::Price;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_engine::{no_ladder, LadderLevel, RunnerLadder};
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope, OrNotFound};
use backlay_kit::input::{ApiJson, FlexI64};
use backlay_kit::refusal::Refusal;
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;
use backlay_store::bets::PricePoint;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ladder)).routes(routes!(price_history))
}

#[derive(Deserialize, ToSchema)]
pub struct RunnerRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    #[schema(value_type = i64)]
    pub selection_id: FlexI64,
}

/// One price of the ladder.
#[derive(Serialize, ToSchema)]
pub struct LadderLevelData {
    /// Decimal odds, a ladder price.
    pub price: f64,
    /// Money available to back at this price (the resting lays).
    #[schema(value_type = f64)]
    pub back_size: Money,
    /// Money available to lay at this price (the resting backs).
    #[schema(value_type = f64)]
    pub lay_size: Money,
    /// Matched at this price so far (the backers' stakes).
    #[schema(value_type = f64)]
    pub traded: Money,
    /// The caller's own unmatched back bets at this price (part of `lay_size`).
    #[schema(value_type = f64)]
    pub my_back: Money,
    /// The caller's own unmatched lay bets at this price (part of `back_size`).
    #[schema(value_type = f64)]
    pub my_lay: Money,
}

impl From<LadderLevel> for LadderLevelData {
    fn from(level: LadderLevel) -> LadderLevelData {
        LadderLevelData {
            price: level.price.to_f64_for_json(),
            back_size: level.back_size,
            lay_size: level.lay_size,
            traded: level.traded,
            my_back: level.my_back,
            my_lay: level.my_lay,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct LadderData {
    pub market_id: i64,
    pub selection_id: i64,
    /// The runner's name.
    pub name: String,
    pub status: MarketStatus,
    pub in_play: bool,
    /// The price of the runner's last fill; null before any.
    #[schema(required = true)]
    pub last_traded_price: Option<f64>,
    /// Everything matched on this runner (the sum of the levels' `traded`).
    #[schema(value_type = f64)]
    pub total_matched: Money,
    /// Only the prices with something on them (money to back or lay, a traded volume, an order
    /// of the caller's), lowest price first: at most the ladder's 350. The client knows the
    /// ladder and draws every step.
    pub levels: Vec<LadderLevelData>,
}

impl From<RunnerLadder> for LadderData {
    fn from(ladder: RunnerLadder) -> LadderData {
        LadderData {
            market_id: ladder.market_id,
            selection_id: ladder.selection_id,
            name: ladder.name,
            status: ladder.status,
            in_play: ladder.in_play,
            last_traded_price: ladder.last_traded.map(Price::to_f64_for_json),
            total_matched: ladder.total_matched,
            levels: ladder.levels.into_iter().map(LadderLevelData::from).collect(),
        }
    }
}

/// A runner's full ladder, read from the market's owner so that it is the book that matches:
/// the money to back and to lay at every price, the caller's own unmatched bets at theirs
/// (never anyone else's), the volume traded at each price and the last price traded. Only
/// exchange markets (match odds, win, place) have one.
#[utoipa::path(post, path = "/market/ladder", tag = "bet", request_body = RunnerRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<LadderData>),
        (status = 400, description = "A bookmaker or fancy market: no ladder there"),
        (status = 404, description = "Unknown market, or a runner not in it"),
        (status = 409, description = "The market is closed, or the runner was withdrawn")))]
async fn ladder(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<RunnerRequest>,
) -> ApiResult<LadderData> {
    let ladder = state.engine.ladder(body.market_id.0, authed.user.id, body.selection_id.0).await?;
    Ok(ok(LadderData::from(ladder)))
}

/// One interval of a price history with a fill in it.
#[derive(Serialize, ToSchema)]
pub struct PricePointData {
    /// When the interval starts, ISO-8601 UTC.
    pub at: String,
    /// The price of the last fill in the interval (decimal odds).
    pub price: f64,
    /// Matched in the interval (the backers' stakes).
    #[schema(value_type = f64)]
    pub volume: Money,
}

#[derive(Serialize, ToSchema)]
pub struct PriceHistoryData {
    pub market_id: i64,
    pub selection_id: i64,
    /// Each point's interval, in seconds: the shortest round length (1 s, 2 s, 5 s … 1 day,
    /// then whole days) that puts the runner's whole trading in at most 200 intervals.
    pub interval_s: i64,
    /// Oldest first, at most 200; none before the runner's first fill.
    pub points: Vec<PricePointData>,
}

/// A runner's price over time, for its chart: its fills in at most 200 intervals of one round
/// length, each with the price of its last fill and the volume matched in it. Any exchange
/// market, running or settled.
#[utoipa::path(post, path = "/market/priceHistory", tag = "bet", request_body = RunnerRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<PriceHistoryData>),
        (status = 400, description = "A bookmaker or fancy market: no ladder there"),
        (status = 404, description = "Unknown market, or a runner not in it")))]
async fn price_history(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<RunnerRequest>,
) -> ApiResult<PriceHistoryData> {
    let (market_id, selection_id) = (body.market_id.0, body.selection_id.0);
    let market = state
        .store
        .market(market_id)
        .await
        .or_not_found(|| format!("There is no market with id {market_id}."))?;
    if market.setup.market_type.is_house_banked() {
        return Err(no_ladder(market.setup.market_type));
    }
    if !market.setup.runners.iter().any(|r| r.runner_id == selection_id) {
        return Err(AppError::Refused(Refusal::UnknownRunner { runner_id: selection_id }));
    }
    let history = state.store.price_history(market_id, selection_id).await?;
    let points = history
        .points
        .into_iter()
        .map(|PricePoint { from_ms, price, volume_minor }| {
            let price = u32::try_from(price)
                .ok()
                .and_then(|hundredths| Price::from_hundredths(hundredths).ok())
                .ok_or_else(|| {
                    AppError::Internal(anyhow::anyhow!(
                        "a fill of runner {selection_id} is stored at {price}, not a ladder price"
                    ))
                })?;
            Ok(PricePointData {
                at: iso_utc(from_ms),
                price: price.to_f64_for_json(),
                volume: Money::from_minor(volume_minor),
            })
        })
        .collect::<Result<_, AppError>>()?;
    Ok(ok(PriceHistoryData {
        market_id,
        selection_id,
        interval_s: history.interval_ms / 1000,
        points,
    }))
}
