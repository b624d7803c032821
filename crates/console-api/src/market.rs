//! Operator calls for markets: create (match odds, bookmaker, fancy, racing win/place), open
//! and suspend, post bookmaker rates and fancy lines, declare the result, void. Everything
//! but creation goes through the market's engine task, which owns the live book.

use axum::extract::State;
use backlay_core::exchange::{MarketStatus, MarketType};
use backlay_core::money::Money;
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_engine::{not_a_status_to_set, ActedBy, RatesUpdate, ResultInput, StakeLimits};
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{AmountInput, ApiJson, Checks, FlexI64, PercentInput};
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{
    self as operator, Actor, CorrectedAccount, Correction, CreateMarket, OperatorContext,
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_market))
        .routes(routes!(set_status))
        .routes(routes!(set_rates))
        .routes(routes!(declare_result))
        .routes(routes!(void_market))
        .routes(routes!(unsettle_preview))
        .routes(routes!(unsettle_market))
        .routes(routes!(resolve_crossed))
        .routes(routes!(remove_runner))
        .routes(routes!(set_runner_cards))
}

pub(crate) fn require_admin(operator: &Operator) -> Result<(), AppError> {
    if operator.0.user.role == Role::Admin {
        Ok(())
    } else {
        Err(AppError::Forbidden("Only an admin manages markets.".into()))
    }
}

/// The admin behind a market command, for the audit row the market's task writes with it.
pub(crate) fn acted_by(operator: Operator, ClientIp(client_ip): ClientIp) -> ActedBy {
    ActedBy { actor: Actor::User(operator.0.user), client_ip }
}

/// The lowest min stake a market may have (₹1.00).
pub const MIN_STAKE_FLOOR_MINOR: i64 = 1_00;

/// A market's stake limits as sent at creation or changed live: min at least
/// [`MIN_STAKE_FLOOR_MINOR`], max at least min. Failures are recorded in `checks`.
pub(crate) fn stake_limits(
    checks: &mut Checks,
    min_stake_minor: i64,
    max_stake_minor: i64,
) -> StakeLimits {
    if min_stake_minor < MIN_STAKE_FLOOR_MINOR {
        checks.fail(
            "min_stake",
            format!("min_stake must be at least {}.", Money::from_minor(MIN_STAKE_FLOOR_MINOR)),
        );
    }
    if max_stake_minor < min_stake_minor {
        checks.fail("max_stake", "max_stake must be at least min_stake.");
    }
    StakeLimits { min_stake_minor, max_stake_minor }
}

/// A bet delay longer than this is a mistake.
pub const MAX_BET_DELAY_S: i64 = 30;

#[derive(Deserialize, ToSchema)]
pub struct CreateMarketRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
    /// match_odds, bookmaker, fancy, win or place.
    #[serde(rename = "type")]
    #[schema(value_type = MarketType)]
    pub market_type: String,
    pub name: String,
    /// Runner names (none for fancy).
    #[serde(default)]
    pub runners: Vec<String>,
    #[serde(default)]
    #[schema(value_type = Option<f64>, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub min_stake: Option<AmountInput>,
    #[serde(default)]
    #[schema(value_type = Option<f64>, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub max_stake: Option<AmountInput>,
    /// In-play bet delay in seconds (default 5 for exchange markets, 0 for house markets).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub bet_delay_s: Option<FlexI64>,
    /// Commission on net market winnings, basis points (100 = 1%).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub commission_bp: Option<FlexI64>,
    /// Place markets: how many runners are placed.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub winners: Option<FlexI64>,
}

#[derive(Serialize, ToSchema)]
pub struct CreatedMarket {
    pub market_id: i64,
    /// Runner ids in the order given.
    pub selection_ids: Vec<i64>,
}

/// Creates a market, suspended until opened.
#[utoipa::path(post, path = "/admin/market/create", tag = "admin", request_body = CreateMarketRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CreatedMarket>), (status = 400), (status = 403), (status = 404)))]
async fn create_market(
    State(state): State<AppState>,
    operator: Operator,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<CreateMarketRequest>,
) -> ApiResult<CreatedMarket> {
    require_admin(&operator)?;
    let mut checks = Checks::default();
    let market_type = body.market_type.trim().parse::<MarketType>().ok();
    if market_type.is_none() {
        checks.fail("type", format!("type must be one of {}.", MarketType::NAMES.join(", ")));
    }
    let name = backlay_kit::input::text_field(&mut checks, "name", "Market name", &body.name, 100);
    let runners: Vec<String> = body.runners.iter().map(|r| r.trim().to_string()).collect();
    if market_type == Some(MarketType::Fancy) {
        if !runners.is_empty() {
            checks.fail("runners", "A fancy market has no runners.");
        }
    } else if !(2..=64).contains(&runners.len()) {
        checks.fail("runners", "A market needs 2 to 64 runners.");
    } else if runners.iter().any(|r| r.is_empty() || r.chars().count() > 100) {
        checks.fail("runners", "Each runner needs a name of at most 100 characters.");
    }
    let house = market_type.is_some_and(MarketType::is_house_banked);
    let limits = stake_limits(
        &mut checks,
        body.min_stake.map_or(100_00, |m| m.0.minor()),
        body.max_stake.map_or(1_000_000_00, |m| m.0.minor()),
    );
    let bet_delay_s = body.bet_delay_s.map_or(if house { 0 } else { 5 }, |d| d.0);
    if !(0..=MAX_BET_DELAY_S).contains(&bet_delay_s) {
        checks.fail("bet_delay_s", format!("bet_delay_s must be 0 to {MAX_BET_DELAY_S}."));
    }
    let commission_bp = body.commission_bp.map_or(0, |c| c.0);
    if !(0..=2_000).contains(&commission_bp) {
        checks.fail("commission_bp", "commission_bp must be 0 to 2000 (20%).");
    }
    let place = market_type == Some(MarketType::Place);
    let winners = body.winners.map_or(if place { 3 } else { 1 }, |w| w.0);
    if place && !(1..runners.len() as i64).contains(&winners) {
        checks.fail("winners", "winners must be at least 1 and fewer than the runners.");
    }
    checks.finish()?;
    let market_type = market_type.expect("a market type that did not parse failed the checks");

    let ctx =
        OperatorContext { store: &state.store, actor: Actor::User(operator.0.user), client_ip: ip };
    let (market_id, selection_ids) = operator::create_market(
        &ctx,
        &state.engine,
        CreateMarket {
            match_id: body.match_id.0,
            market_type,
            name: name.clone(),
            runners,
            bet_delay_ms: bet_delay_s * 1000,
            min_stake_minor: limits.min_stake_minor,
            max_stake_minor: limits.max_stake_minor,
            commission_bp,
            winners,
            upstream: None,
        },
    )
    .await?;
    Ok(ok_with(
        format!("{name} created (suspended until opened)."),
        CreatedMarket { market_id, selection_ids },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct StatusRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// open, suspended or ball_running. Suspending lapses LAPSE orders.
    #[schema(pattern = "^(open|suspended|ball_running)$")]
    pub status: String,
}

#[utoipa::path(post, path = "/admin/market/status", tag = "admin", request_body = StatusRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403), (status = 404), (status = 409)))]
async fn set_status(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<StatusRequest>,
) -> ApiResult<Option<String>> {
    require_admin(&operator)?;
    let text = body.status.trim();
    // Closed and void parse, and the market's task refuses them as before: only a result sets
    // them.
    let status: MarketStatus = text.parse().map_err(|_| not_a_status_to_set(text))?;
    state.engine.set_status(body.market_id.0, status, Some(acted_by(operator, ip))).await?;
    Ok(ok_with(format!("Market is {status}."), None))
}

#[derive(Deserialize, ToSchema)]
pub struct MarketRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
}

/// An unmatched bet cancelled to resolve a crossed book.
#[derive(Serialize, ToSchema)]
pub struct CrossingCancelledRow {
    pub bet_id: i64,
    pub user_id: i64,
    pub selection_id: i64,
    /// back or lay.
    pub side: String,
    /// Decimal odds.
    pub price: f64,
    /// The unmatched stake cancelled (its exposure returned to the user).
    #[schema(value_type = f64)]
    pub cancelled: Money,
}

/// Resolves a market whose stored book was found crossed when it was loaded (a resting back at
/// or below a resting lay, written by an older version): such a market loads suspended with
/// the younger order of each crossing pair held out of the book, and cannot reopen until this
/// cancels those orders, returning their exposure; audited. The market stays suspended.
#[utoipa::path(post, path = "/admin/market/resolveCrossed", tag = "admin", request_body = MarketRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<CrossingCancelledRow>>), (status = 403), (status = 404), (status = 409)))]
async fn resolve_crossed(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<MarketRequest>,
) -> ApiResult<Vec<CrossingCancelledRow>> {
    require_admin(&operator)?;
    let cancelled = state.engine.resolve_crossed(body.market_id.0, acted_by(operator, ip)).await?;
    let rows: Vec<CrossingCancelledRow> = cancelled
        .into_iter()
        .map(|c| CrossingCancelledRow {
            bet_id: c.bet_id,
            user_id: c.user_id,
            selection_id: c.selection_id,
            side: c.side.as_str().to_string(),
            price: f64::from(c.price) / 100.0,
            cancelled: c.cancelled,
        })
        .collect();
    Ok(ok_with(
        format!(
            "{} crossing bet(s) cancelled and their exposure returned; the market stays suspended until you open it.",
            rows.len()
        ),
        rows,
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct RunnerRates {
    #[schema(value_type = i64)]
    pub selection_id: FlexI64,
    /// Back rate (45 = 1.45); absent or null takes the side off.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub back: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub lay: Option<FlexI64>,
}

#[derive(Deserialize, ToSchema)]
pub struct RatesRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// Bookmaker: rates per runner.
    #[serde(default)]
    pub runners: Option<Vec<RunnerRates>>,
    /// Fancy: the NO and YES lines and rates.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub line_no: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub rate_no: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub line_yes: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub rate_yes: Option<FlexI64>,
}

/// The highest rate accepted (1000 = decimal odds 11.00 on a bookmaker).
const MAX_RATE: i64 = 100_000;
const MAX_LINE: i64 = 100_000;

#[utoipa::path(post, path = "/admin/market/rates", tag = "admin", request_body = RatesRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403), (status = 404), (status = 409)))]
async fn set_rates(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<RatesRequest>,
) -> ApiResult<Option<String>> {
    require_admin(&operator)?;
    let rate_ok = |value: i64| (1..=MAX_RATE).contains(&value);
    let update = match (&body.runners, body.line_no, body.rate_no, body.line_yes, body.rate_yes) {
        (Some(runners), None, None, None, None) => {
            let mut checks = Checks::default();
            let mut rates = Vec::new();
            for (index, runner) in runners.iter().enumerate() {
                for (label, value) in [("back", runner.back), ("lay", runner.lay)] {
                    if value.is_some_and(|v| !rate_ok(v.0)) {
                        checks.fail(&format!("runners[{index}].{label}"), format!("A rate is 1 to {MAX_RATE}."));
                    }
                }
                rates.push((runner.selection_id.0, runner.back.map(|v| v.0), runner.lay.map(|v| v.0)));
            }
            checks.finish()?;
            RatesUpdate::Bookmaker(rates)
        }
        (None, Some(line_no), Some(rate_no), Some(line_yes), Some(rate_yes)) => {
            let mut checks = Checks::default();
            for (field, value) in [("line_no", line_no.0), ("line_yes", line_yes.0)] {
                if !(0..=MAX_LINE).contains(&value) {
                    checks.fail(field, format!("{field} must be 0 to {MAX_LINE}."));
                }
            }
            for (field, value) in [("rate_no", rate_no.0), ("rate_yes", rate_yes.0)] {
                if !rate_ok(value) {
                    checks.fail(field, format!("{field} must be 1 to {MAX_RATE}."));
                }
            }
            if line_yes.0 < line_no.0 {
                checks.fail("line_yes", "The YES line cannot be below the NO line.");
            }
            checks.finish()?;
            RatesUpdate::Fancy { line_no: line_no.0, rate_no: rate_no.0, line_yes: line_yes.0, rate_yes: rate_yes.0 }
        }
        _ => {
            return Err(AppError::invalid(
                "Send runners [{selection_id, back, lay}] for a bookmaker, or line_no, rate_no, line_yes, rate_yes for a fancy.",
            ))
        }
    };
    state.engine.set_rates(body.market_id.0, update, Some(acted_by(operator, ip))).await?;
    Ok(ok_with("Rates posted.", None))
}

#[derive(Deserialize, ToSchema)]
pub struct ResultRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// The winning runner (match odds, win, bookmaker).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub winner_selection_id: Option<FlexI64>,
    /// The placed runners (place markets).
    #[serde(default)]
    #[schema(value_type = Option<Vec<i64>>)]
    pub placed_selection_ids: Option<Vec<FlexI64>>,
    /// The run total (fancy).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub result: Option<FlexI64>,
}

/// Declares the result and settles every bet through the ledger, once.
#[utoipa::path(post, path = "/admin/market/result", tag = "admin", request_body = ResultRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403), (status = 404), (status = 409)))]
async fn declare_result(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<ResultRequest>,
) -> ApiResult<Option<String>> {
    require_admin(&operator)?;
    let result = body.result_input()?;
    let message =
        state.engine.settle(body.market_id.0, result, Some(acted_by(operator, ip))).await?;
    Ok(ok_with(message, None))
}

impl ResultRequest {
    /// Whether any of the result's fields was sent.
    pub(crate) fn names_a_result(&self) -> bool {
        self.winner_selection_id.is_some()
            || self.placed_selection_ids.is_some()
            || self.result.is_some()
    }

    /// The one result the request names.
    pub(crate) fn result_input(&self) -> Result<ResultInput, AppError> {
        match (self.winner_selection_id, &self.placed_selection_ids, self.result) {
            (Some(winner), None, None) => Ok(ResultInput::Winner(winner.0)),
            (None, Some(placed), None) => {
                Ok(ResultInput::Placed(placed.iter().map(|p| p.0).collect()))
            }
            (None, None, Some(value)) => Ok(ResultInput::Fancy(value.0)),
            _ => Err(AppError::invalid(
                "Send exactly one of winner_selection_id, placed_selection_ids or result (the run total of a fancy).",
            )),
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct UnsettlePreviewRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
}

#[derive(Deserialize, ToSchema)]
pub struct UnsettleRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// Why the result is corrected: required, kept in the audit log (at most 200 characters).
    #[serde(default)]
    pub reason: String,
}

/// What a correction moves on one account.
#[derive(Serialize, ToSchema)]
pub struct CorrectionLineView {
    pub account: CorrectedAccount,
    /// The client, or the agent whose partnership share it is.
    pub user_id: Option<i64>,
    pub user_name: Option<String>,
    /// What the correction posts: the settlement's movement, negated.
    #[schema(value_type = f64)]
    pub amount: Money,
    #[schema(value_type = f64)]
    pub balance_before: Money,
    #[schema(value_type = f64)]
    pub balance_after: Money,
    /// A client's exposure in the market, reserved again until the new result.
    #[schema(value_type = f64)]
    pub exposure: Money,
    /// Balance after less all of the exposure reserved here: below zero, the client owes it.
    #[schema(value_type = f64)]
    pub available_after: Money,
}

/// A result's correction, made or previewed.
#[derive(Serialize, ToSchema)]
pub struct CorrectionAnswer {
    pub market_id: i64,
    /// "Match / Market".
    pub market: String,
    /// The market's status before the correction (closed or void).
    pub was: MarketStatus,
    /// True once made; false for a preview.
    pub applied: bool,
    /// Bets taken back to matched.
    pub bets: i64,
    /// Clients left with less than nothing available (their agent collects it).
    pub clients_negative: i64,
    /// Clients, then agents' shares, then the house and commission.
    pub lines: Vec<CorrectionLineView>,
}

impl From<Correction> for CorrectionAnswer {
    fn from(correction: Correction) -> CorrectionAnswer {
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        CorrectionAnswer {
            market_id: correction.market_id,
            market: correction.label.clone(),
            was: correction.was,
            applied: correction.applied,
            bets: count(correction.bets),
            clients_negative: count(correction.clients_negative() as u64),
            lines: correction
                .lines
                .iter()
                .map(|l| CorrectionLineView {
                    account: l.account,
                    user_id: l.user_id,
                    user_name: l.user_name.clone(),
                    amount: Money::from_minor(l.amount_minor),
                    balance_before: Money::from_minor(l.balance_before_minor),
                    balance_after: Money::from_minor(l.balance_after_minor),
                    exposure: Money::from_minor(l.exposure_minor),
                    available_after: Money::from_minor(l.balance_after_minor - l.exposure_minor),
                })
                .collect(),
        }
    }
}

/// What correcting the market's result would move, per client and per agent's share, from the
/// same transaction as the correction (rolled back): nothing is written.
#[utoipa::path(post, path = "/admin/market/unsettlePreview", tag = "admin", request_body = UnsettlePreviewRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CorrectionAnswer>), (status = 401), (status = 403), (status = 404),
        (status = 409, description = "The market has no result to correct")))]
async fn unsettle_preview(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<UnsettlePreviewRequest>,
) -> ApiResult<CorrectionAnswer> {
    require_admin(&operator)?;
    let by = acted_by(operator, ip);
    let ctx = OperatorContext { store: &state.store, actor: by.actor, client_ip: by.client_ip };
    let correction =
        operator::unsettle_market(&ctx, &state.engine, body.market_id.0, "", false).await?;
    Ok(ok(correction.into()))
}

/// Corrects a result: takes a resulted or void market back to suspended, reversing every
/// posting of its settlement with new "Result corrected: …" entries (clients, agents' shares,
/// house, commission), bets back to matched and exposure reserved again; a client may go below
/// zero. Then declare the right result (or void) as usual. Audited with the reason.
#[utoipa::path(post, path = "/admin/market/unsettle", tag = "admin", request_body = UnsettleRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CorrectionAnswer>), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409, description = "The market has no result to correct")))]
async fn unsettle_market(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<UnsettleRequest>,
) -> ApiResult<CorrectionAnswer> {
    require_admin(&operator)?;
    let by = acted_by(operator, ip);
    let ctx = OperatorContext { store: &state.store, actor: by.actor, client_ip: by.client_ip };
    let correction =
        operator::unsettle_market(&ctx, &state.engine, body.market_id.0, &body.reason, true)
            .await?;
    let message = format!(
        "{}: the result is taken back and the market is suspended. Declare the right result.",
        correction.label
    );
    Ok(ok_with(message, correction.into()))
}

#[derive(Deserialize, ToSchema)]
pub struct VoidRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
}

/// Voids a market: every bet is off, exposure released, no money moves.
#[utoipa::path(post, path = "/admin/market/void", tag = "admin", request_body = VoidRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 403), (status = 404), (status = 409)))]
async fn void_market(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<VoidRequest>,
) -> ApiResult<Option<String>> {
    require_admin(&operator)?;
    let message = state
        .engine
        .settle(body.market_id.0, ResultInput::Void, Some(acted_by(operator, ip)))
        .await?;
    Ok(ok_with(message, None))
}

#[derive(Deserialize, ToSchema)]
pub struct RemoveRunnerRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    #[schema(value_type = i64)]
    pub selection_id: FlexI64,
    /// The non-runner's reduction factor, a percentage from 0 to 100 with at most two decimals
    /// (its chance of winning, as Betfair's `adjustmentFactor`); 0 when none applies.
    #[schema(value_type = f64, example = 12.5)]
    pub reduction_factor: PercentInput,
}

/// What withdrawing a runner did.
#[derive(Serialize, ToSchema)]
pub struct RunnerRemovedRow {
    pub selection_id: i64,
    pub name: String,
    /// The reduction factor applied, a percentage.
    pub reduction_factor: f64,
    /// Whether the prices matched before on the other runners were reduced (a factor of 2.5 %
    /// or more), and every unmatched bet of the market cancelled.
    pub prices_reduced: bool,
    /// The runner's bets made void.
    pub bets_void: u64,
    /// Unmatched bets cancelled.
    pub unmatched_cancelled: usize,
    /// Matches on the other runners whose price was reduced.
    pub matches_reduced: u64,
}

/// Withdraws a runner from an exchange, bookmaker or racing market (a non-runner), by Betfair's
/// rule: its bets are void; with a reduction factor of 2.5 % or more every unmatched bet of the
/// market is cancelled and the prices matched before on the other runners are reduced (win
/// markets: price × (1 − factor); place markets: 1 + (price − 1) × (1 − factor)). Audited as
/// `market.runner_removed`; cannot be undone. A feed does this itself for a runner its upstream
/// marks REMOVED.
#[utoipa::path(post, path = "/admin/market/removeRunner", tag = "admin", request_body = RemoveRunnerRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<RunnerRemovedRow>), (status = 400), (status = 403), (status = 404), (status = 409)))]
async fn remove_runner(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<RemoveRunnerRequest>,
) -> ApiResult<RunnerRemovedRow> {
    require_admin(&operator)?;
    let (market_id, selection_id) = (body.market_id.0, body.selection_id.0);
    let removed = state
        .engine
        .remove_runner(
            market_id,
            selection_id,
            body.reduction_factor.0,
            Some(acted_by(operator, ip)),
        )
        .await?
        .ok_or_else(|| {
            AppError::Conflict(format!("Runner {selection_id} was withdrawn already."))
        })?;
    let row = RunnerRemovedRow {
        selection_id: removed.runner_id,
        name: removed.name,
        reduction_factor: f64::from(removed.reduction_factor_bp) / 100.0,
        prices_reduced: removed.reduced,
        bets_void: removed.voided_bets,
        unmatched_cancelled: removed.cancelled.len(),
        matches_reduced: removed.reduced_fills,
    };
    Ok(ok_with(
        format!(
            "{} is withdrawn: {} bet(s) void, {} unmatched bet(s) cancelled, {} match(es) on the other runners reduced.",
            row.name, row.bets_void, row.unmatched_cancelled, row.matches_reduced
        ),
        row,
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct RunnerCardsRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// 1 to 64 runners of the market, each with what is known of it.
    pub runners: Vec<RunnerCardRequest>,
}

#[derive(Deserialize, ToSchema)]
pub struct RunnerCardRequest {
    #[schema(value_type = i64)]
    pub selection_id: FlexI64,
    /// The stall (horses) or trap (greyhounds), 1 to 99; absent or null when not known.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub draw: Option<FlexI64>,
    /// At most 64 characters; absent, null or empty when not known.
    #[serde(default)]
    pub jockey: Option<String>,
    /// At most 64 characters; absent, null or empty when not known.
    #[serde(default)]
    pub trainer: Option<String>,
}

/// Sets what a race card shows of runners of a market: the draw, the jockey and the trainer,
/// each runner's card replaced by what is given (a runner given nothing has its card cleared).
/// A feed's catalogue sets them itself from Betfair's runner metadata. Audited as
/// `market.runner_cards`.
#[utoipa::path(post, path = "/admin/market/runnerCards", tag = "admin", request_body = RunnerCardsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403), (status = 404)))]
async fn set_runner_cards(
    State(state): State<AppState>,
    operator: Operator,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<RunnerCardsRequest>,
) -> ApiResult<Option<String>> {
    require_admin(&operator)?;
    let ctx =
        OperatorContext { store: &state.store, actor: Actor::User(operator.0.user), client_ip: ip };
    let cards: Vec<operator::RunnerCardInput> = body
        .runners
        .into_iter()
        .map(|r| operator::RunnerCardInput {
            selection_id: r.selection_id.0,
            draw: r.draw.map(|d| d.0),
            jockey: r.jockey,
            trainer: r.trainer,
        })
        .collect();
    let count = operator::set_runner_cards(&ctx, body.market_id.0, &cards).await?;
    Ok(ok_with(format!("Race card set for {count} runner(s)."), None))
}
