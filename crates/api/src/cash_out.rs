//! Cash out (issue 32): `bet/cashOutQuote` tells the bettor what their position on a market
//! would become if closed now, the same whatever wins; `bet/cashOut` closes it (or a part) with
//! bets at the prices shown, all of them matched at once or none placed, through the in-play
//! bet delay like any bet. The market's task works both out from its own book
//! (`backlay_engine`'s `market_task/cash_out.rs`, the arithmetic in `backlay_core`'s
//! `exchange/cash_out.rs`); nothing the client computed is trusted.

use axum::extract::State;
use backlay_core::exchange::{BetSide, MarketType};
use backlay_core::money::Money;
use backlay_engine::{CashOutPlan, CashedOut, PlacementStatus, MAX_TOLERANCE_TICKS};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{ApiJson, FlexI64};
use backlay_kit::refusal::Refusal;
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

use crate::bet::display_price;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(cash_out_quote)).routes(routes!(cash_out))
}

/// Longest `client_ref` of a cash out: its legs carry it with `/runner` after it, within the
/// 64 characters a bet's `client_ref` may have.
const CASH_OUT_REF_MAX_CHARS: usize = 40;

#[derive(Deserialize, ToSchema)]
pub struct CashOutQuoteRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// The part of the position to cash out, 1–100 (default 100).
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub percent: Option<FlexI64>,
}

/// Whether the positions after a cash out are the same to the paisa, or differ by the ladder's
/// rounding (each fill's profit rounds down to a paisa; a stake is whole paise).
#[derive(Serialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CashOutEquality {
    Exact,
    WithinRounding,
}

impl CashOutEquality {
    fn of(spread_minor: i64) -> CashOutEquality {
        if spread_minor == 0 {
            CashOutEquality::Exact
        } else {
            CashOutEquality::WithinRounding
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct CashOutRunnerData {
    pub selection_id: i64,
    pub name: String,
    /// The bettor's P&L if this runner wins now (on a place market: if it is placed).
    #[schema(value_type = f64)]
    pub position: Money,
    /// The same after the cash out.
    #[schema(value_type = f64)]
    pub after: Money,
    /// The bet the cash out places on this runner (null: none).
    #[schema(required = true)]
    pub bet: Option<CashOutLegData>,
}

#[derive(Serialize, ToSchema)]
pub struct CashOutLegData {
    /// back or lay.
    pub side: BetSide,
    /// Odds on an exchange market, the rate on a bookmaker.
    pub price: f64,
    #[schema(value_type = f64)]
    pub stake: Money,
}

#[derive(Serialize, ToSchema)]
pub struct CashOutQuoteData {
    /// Whether the position can be cashed out now.
    pub available: bool,
    /// What the bettor is sure of after cashing out, whatever wins (null when not available);
    /// for a part, that part of the whole cash out's value, the rest of the position left open.
    #[schema(value_type = Option<f64>, required = true)]
    pub value: Option<Money>,
    /// Why there is no cash out now (null when available).
    #[schema(required = true)]
    pub reason_if_not: Option<String>,
    /// The same as facts, as a refused bet's error gives them in `data.refusal` ({refusal:
    /// market_not_open | nothing_to_cash_out | cash_out_not_enough | …, amounts in paise}), for
    /// a client to word in its own language; null when available.
    #[schema(value_type = Option<Object>, required = true)]
    pub why_not: Option<Refusal>,
    pub percent: u32,
    /// Each runner: the position now and after, and the bet on it.
    pub per_runner: Vec<CashOutRunnerData>,
    /// Whether the positions after are equal to the paisa or within the ladder's rounding.
    #[schema(required = true)]
    pub equal: Option<CashOutEquality>,
    /// The in-play bet delay a cash out waits now, in seconds (0 when not in play).
    pub bet_delay_seconds: f64,
}

#[utoipa::path(post, path = "/bet/cashOutQuote", tag = "bet", request_body = CashOutQuoteRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CashOutQuoteData>, description = "The cash out now, or why not (available false)"),
        (status = 400, description = "A percent outside 1–100"), (status = 401), (status = 404, description = "No such market")))]
async fn cash_out_quote(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<CashOutQuoteRequest>,
) -> ApiResult<CashOutQuoteData> {
    let percent = percent_of(body.percent)?;
    let market_id = body.market_id.0;
    let quote = state.engine.cash_out_quote(market_id, authed.user.id, percent).await?;
    let market_type = quote.market_type;
    let bet_delay_seconds = quote.delay_ms as f64 / 1000.0;
    let data = match quote.plan {
        Ok(plan) => CashOutQuoteData {
            available: true,
            value: Some(Money::from_minor(plan.value_minor)),
            reason_if_not: None,
            why_not: None,
            percent,
            equal: Some(CashOutEquality::of(plan.spread_minor)),
            per_runner: runners_of(&plan, market_type),
            bet_delay_seconds,
        },
        Err(refusal) => CashOutQuoteData {
            available: false,
            value: None,
            reason_if_not: Some(refusal.to_string()),
            why_not: Some(refusal),
            percent,
            equal: None,
            per_runner: Vec::new(),
            bet_delay_seconds,
        },
    };
    let message = match (&data.value, &data.reason_if_not) {
        (Some(value), _) => format!("Cash out now for {} whatever wins.", value.rupees()),
        (None, Some(reason)) => reason.clone(),
        (None, None) => String::new(),
    };
    Ok(ok_with(message, data))
}

#[derive(Deserialize, ToSchema)]
pub struct CashOutRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// The part of the position to cash out, 1–100 (default 100): the rest stays open, in
    /// proportion.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub percent: Option<FlexI64>,
    /// How many ticks worse than quoted (rate points on a bookmaker) a bet may be placed at
    /// after the bet delay, 0–10 (default 0: the prices shown or better, else nothing placed).
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10)]
    pub tolerance_ticks: Option<FlexI64>,
    /// The bets of the quote the bettor was shown (`per_runner[].bet` of `bet/cashOutQuote`):
    /// the prices the tolerance counts from. Without it, the prices quoted as the cash out
    /// arrives.
    #[serde(default)]
    pub shown: Option<Vec<ShownLeg>>,
    /// Idempotency key: sent again, the cash out it made is answered, never a second one.
    #[serde(default)]
    #[schema(max_length = 40)]
    pub client_ref: Option<String>,
}

/// A bet of a quote as the page showed it.
#[derive(Deserialize, ToSchema)]
pub struct ShownLeg {
    #[schema(value_type = i64)]
    pub selection_id: FlexI64,
    /// back or lay.
    #[schema(value_type = BetSide)]
    pub side: String,
    /// Odds on an exchange market, the rate on a bookmaker.
    #[schema(exclusive_minimum = 0)]
    pub price: f64,
}

/// Most legs a shown quote may have: a market's runners are fewer.
const MAX_SHOWN_LEGS: usize = 100;

#[derive(Serialize, ToSchema)]
pub struct CashOutBetData {
    pub bet_id: i64,
    pub selection_id: i64,
    pub side: BetSide,
    pub price: f64,
    #[schema(value_type = f64)]
    pub stake: Money,
    pub status: PlacementStatus,
}

#[derive(Serialize, ToSchema)]
pub struct CashOutData {
    /// What the bettor is sure of now, whatever wins: the lowest position after (on a place
    /// market, summed over its runners); for a part, that part of the whole cash out's value.
    #[schema(value_type = f64)]
    pub value: Money,
    /// Each runner's position before and after.
    pub per_runner: Vec<CashOutRunnerData>,
    /// The bets placed.
    pub bets: Vec<CashOutBetData>,
    /// exact: every runner's position is equal to the paisa; within_rounding: they differ by
    /// `spread`, each fill's profit having rounded down to a paisa.
    pub equal: CashOutEquality,
    #[schema(value_type = f64)]
    pub spread: Money,
    /// This repeats a cash out already made with the same client_ref: nothing new was placed.
    pub repeated: bool,
}

#[utoipa::path(post, path = "/bet/cashOut", tag = "bet", request_body = CashOutRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CashOutData>),
        (status = 400, description = "A percent outside 1–100, a tolerance outside 0–10, a client_ref too long"),
        (status = 401), (status = 404, description = "No such market"),
        (status = 409, description = "Suspended, closed, a fancy, a flat position, prices moved beyond the tolerance, suspended during the bet delay"),
        (status = 422, description = "Not enough offered for the whole hedge, the bettor's own order in the way, above the maximum stake, insufficient funds")))]
async fn cash_out(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<CashOutRequest>,
) -> ApiResult<CashOutData> {
    let percent = percent_of(body.percent)?;
    let tolerance = match body.tolerance_ticks.map(|t| t.0) {
        None => 0,
        Some(t) if (0..=i64::from(MAX_TOLERANCE_TICKS)).contains(&t) => t as u32,
        Some(_) => {
            return Err(AppError::field(
                "tolerance_ticks",
                format!("tolerance_ticks is from 0 to {MAX_TOLERANCE_TICKS}."),
            ))
        }
    };
    let client_ref =
        body.client_ref.as_deref().map(str::trim).filter(|r| !r.is_empty()).map(str::to_string);
    if client_ref.as_ref().is_some_and(|r| r.chars().count() > CASH_OUT_REF_MAX_CHARS) {
        return Err(AppError::field(
            "client_ref",
            format!("client_ref must be at most {CASH_OUT_REF_MAX_CHARS} characters."),
        ));
    }
    let market_id = body.market_id.0;
    let user_id = authed.user.id;
    let market = state.store.market(market_id).await?;
    let market_type = market.setup.market_type;
    let shown = match &body.shown {
        None => None,
        Some(legs) if legs.len() > MAX_SHOWN_LEGS => {
            return Err(AppError::field(
                "shown",
                format!("shown has at most {MAX_SHOWN_LEGS} bets."),
            ))
        }
        Some(legs) => Some(
            legs.iter()
                .map(|leg| {
                    let side: BetSide = leg.side.trim().to_lowercase().parse().map_err(|_| {
                        AppError::field("shown", "Each shown bet's side is back or lay.")
                    })?;
                    let scaled =
                        if market_type.is_house_banked() { leg.price } else { leg.price * 100.0 };
                    if !(scaled.is_finite() && scaled >= 1.0 && scaled <= f64::from(u32::MAX)) {
                        return Err(AppError::field(
                            "shown",
                            "Each shown bet's price is the odds or rate the quote gave.",
                        ));
                    }
                    Ok((leg.selection_id.0, side, scaled.round() as u32))
                })
                .collect::<Result<Vec<_>, AppError>>()?,
        ),
    };
    if let Some(client_ref) = &client_ref {
        let refs: Vec<String> =
            market.setup.runners.iter().map(|r| format!("{client_ref}/{}", r.runner_id)).collect();
        let made = state.store.bets_with_client_refs(user_id, &refs).await?;
        if !made.is_empty() {
            // The position as it stands now, which the cash out made (and anything since).
            let view = state.engine.view(market_id, Some(user_id)).await?;
            let positions = view.runners.iter().map(|r| r.position.minor());
            let spread_minor =
                positions.clone().max().unwrap_or(0) - positions.clone().min().unwrap_or(0);
            return Ok(ok_with(
                "This cash out was already made with the same client_ref.",
                CashOutData {
                    value: Money::from_minor(positions.clone().min().unwrap_or(0)),
                    per_runner: view
                        .runners
                        .iter()
                        .map(|r| CashOutRunnerData {
                            selection_id: r.selection_id,
                            name: r.name.clone(),
                            position: r.position,
                            after: r.position,
                            bet: None,
                        })
                        .collect(),
                    bets: made
                        .iter()
                        .map(|bet| CashOutBetData {
                            bet_id: bet.bet_id,
                            selection_id: bet.runner_id.unwrap_or(0),
                            side: bet.side,
                            price: display_price(bet.price, market_type),
                            stake: Money::from_minor(bet.stake_minor),
                            status: PlacementStatus::of(bet.matched_minor, bet.stake_minor),
                        })
                        .collect(),
                    equal: CashOutEquality::of(spread_minor),
                    spread: Money::from_minor(spread_minor),
                    repeated: true,
                },
            ));
        }
    }
    let done: CashedOut =
        state.engine.cash_out(market_id, user_id, percent, tolerance, shown, client_ref).await?;
    let equal = CashOutEquality::of(done.spread_minor);
    let message = format!(
        "Cashed out: {} whatever wins{}.",
        Money::from_minor(done.value_minor).rupees(),
        if equal == CashOutEquality::Exact { "" } else { ", within a paisa or two of rounding" }
    );
    let per_runner = runners_of(
        &CashOutPlan {
            value_minor: done.value_minor,
            runners: done.runners.clone(),
            spread_minor: done.spread_minor,
        },
        market_type,
    );
    Ok(ok_with(
        message,
        CashOutData {
            value: Money::from_minor(done.value_minor),
            per_runner,
            bets: done
                .bets
                .iter()
                .map(|b| CashOutBetData {
                    bet_id: b.bet.bet_id,
                    selection_id: b.selection_id,
                    side: b.leg.side,
                    price: display_price(i64::from(b.leg.price), market_type),
                    stake: Money::from_minor(b.leg.stake_minor),
                    status: b.bet.status,
                })
                .collect(),
            equal,
            spread: Money::from_minor(done.spread_minor),
            repeated: false,
        },
    ))
}

/// The percent asked for, 1–100, 100 when not given.
fn percent_of(percent: Option<FlexI64>) -> Result<u32, AppError> {
    match percent.map(|p| p.0) {
        None => Ok(100),
        Some(p) if (1..=100).contains(&p) => Ok(p as u32),
        Some(_) => Err(AppError::field("percent", "percent is from 1 to 100.")),
    }
}

fn runners_of(plan: &CashOutPlan, market_type: MarketType) -> Vec<CashOutRunnerData> {
    plan.runners
        .iter()
        .map(|r| CashOutRunnerData {
            selection_id: r.selection_id,
            name: r.name.clone(),
            position: Money::from_minor(r.position_minor),
            after: Money::from_minor(r.after_minor),
            bet: r.leg.map(|leg| CashOutLegData {
                side: leg.side,
                price: display_price(i64::from(leg.price), market_type),
                stake: Money::from_minor(leg.stake_minor),
            }),
        })
        .collect()
}
