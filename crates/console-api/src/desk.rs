//! The trading desk's calls (admin only): a match's markets with everything the desk shows in
//! one read, a market's stake limits changed live, the desk's spread per market
//! (operator::desk), and what declaring a result would move before it is declared.
//!
//! The preview is the settlement itself run on the market as it stands, writing nothing
//! (`Market::settlement`, which `Market::settle` uses too), checked against the stored bets as
//! the settlement is. Example: a client's ₹100 YES at line 50 rate 100 and another's ₹200 NO at
//! the same line; result 52 → clients win ₹100 and lose ₹200, house +₹100, 2 bets, 2 clients.

use axum::extract::{FromRequest, Request, State};
use backlay_core::money::Money;
use backlay_store::markets::{RunnerRow, RunnerStatus};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::market::{acted_by, require_admin, stake_limits, ResultRequest};
use backlay_api::matches::MatchItem;
use backlay_engine::ResultInput;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope, OrNotFound};
use backlay_kit::input::{
    json_text, parse_json, read_body, AmountInput, ApiJson, Checks, FlexBool, FlexI64,
};
use backlay_live::market_book::{market_book, MarketBook};
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{set_desk_spread, OperatorContext};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(desk_markets))
        .routes(routes!(set_limits))
        .routes(routes!(result_preview))
        .routes(routes!(set_spread))
}

#[derive(Deserialize, ToSchema)]
pub struct DeskMarketsRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct DeskMarket {
    /// Status, in play, bet delay, min/max stake, bookmaker rates, fancy lines, live book.
    #[serde(flatten)]
    pub book: MarketBook,
    /// Commission on net market winnings, basis points.
    pub commission_bp: i64,
    /// How many runners a place market pays (as created: `winners`); 1 for any other market.
    pub winners: i64,
    /// The declared winner (or first placed runner), once resulted.
    #[schema(required = true)]
    pub result_selection_id: Option<i64>,
    /// Every runner the result named, first placed first: the winner, or a place market's
    /// placed runners; empty until resulted, and for a fancy or a void.
    pub result_selection_ids: Vec<i64>,
    /// A fancy's declared run total, once resulted.
    #[schema(required = true)]
    pub result_value: Option<i64>,
    /// How far the desk posts the second side from a rate or line it types: a bookmaker's lay
    /// above its back (rate points), a fancy's YES line above its NO line (runs).
    pub spread: i64,
}

#[derive(Serialize, ToSchema)]
pub struct DeskMatch {
    #[serde(rename = "match")]
    pub the_match: MatchItem,
    /// Every market of the match, settled ones included, oldest first.
    pub markets: Vec<DeskMarket>,
}

/// A match's markets as the desk runs them: the live book and posted rates with each market's
/// status, limits, bet delay, commission and result.
#[utoipa::path(post, path = "/admin/desk/markets", tag = "admin", request_body = DeskMarketsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<DeskMatch>), (status = 401), (status = 403), (status = 404)))]
async fn desk_markets(
    State(state): State<AppState>,
    operator: Operator,
    ApiJson(body): ApiJson<DeskMarketsRequest>,
) -> ApiResult<DeskMatch> {
    require_admin(&operator)?;
    let match_id = body.match_id.0;
    let the_match = state
        .store
        .match_by_id(match_id)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    let in_play = the_match.in_play;
    let mut markets = Vec::new();
    for row in state.store.markets_of_match(match_id).await? {
        let (commission_bp, winners, result_selection_id, result_value, spread) = (
            row.setup.commission_bp,
            row.setup.winners,
            row.result_runner_id,
            row.result_value,
            row.desk_spread(),
        );
        let result_selection_ids = result_runners(&row.setup.runners, result_selection_id);
        let book = market_book(&state.engine, row, in_play, None).await;
        markets.push(DeskMarket {
            book,
            commission_bp,
            winners,
            result_selection_id,
            result_selection_ids,
            result_value,
            spread,
        });
    }
    Ok(ok(DeskMatch { the_match: MatchItem::from(the_match), markets }))
}

/// The runners a result named: those settlement marked `winner`, the first placed (the stored
/// `result_runner_id`) first. A market settled before runners were marked has only that one.
fn result_runners(runners: &[RunnerRow], first: Option<i64>) -> Vec<i64> {
    let Some(first) = first else { return Vec::new() };
    let others = runners
        .iter()
        .filter(|r| r.status == RunnerStatus::Winner && r.runner_id != first)
        .map(|r| r.runner_id);
    std::iter::once(first).chain(others).collect()
}

#[derive(Deserialize, ToSchema)]
pub struct LimitsRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// At least 1.00.
    #[schema(value_type = f64, minimum = 1, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub min_stake: AmountInput,
    /// At least min_stake.
    #[schema(value_type = f64, minimum = 1, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub max_stake: AmountInput,
}

#[derive(Serialize, ToSchema)]
pub struct MarketLimits {
    pub market_id: i64,
    #[schema(value_type = f64)]
    pub min_stake: Money,
    #[schema(value_type = f64)]
    pub max_stake: Money,
}

/// Changes a running market's min and max stake; the next bet is checked against them.
#[utoipa::path(post, path = "/admin/market/limits", tag = "admin", request_body = LimitsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MarketLimits>), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409, description = "The market is closed")))]
async fn set_limits(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<LimitsRequest>,
) -> ApiResult<MarketLimits> {
    require_admin(&operator)?;
    let mut checks = Checks::default();
    let limits = stake_limits(&mut checks, body.min_stake.0.minor(), body.max_stake.0.minor());
    checks.finish()?;
    let market_id = body.market_id.0;
    state.engine.set_limits(market_id, limits, acted_by(operator, ip)).await?;
    let (min_stake, max_stake) =
        (Money::from_minor(limits.min_stake_minor), Money::from_minor(limits.max_stake_minor));
    Ok(ok_with(
        format!("Stakes are now {min_stake} to {max_stake}."),
        MarketLimits { market_id, min_stake, max_stake },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct SpreadRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// Rate points (bookmaker) or runs (fancy), 0 to 1000.
    #[schema(value_type = i64, minimum = 0, maximum = 1000)]
    pub spread: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct MarketSpread {
    pub market_id: i64,
    pub spread: i64,
}

/// Sets the desk's spread on a bookmaker or fancy market: where a typed back rate puts the lay,
/// or a typed NO line the YES line (operator::desk).
#[utoipa::path(post, path = "/admin/market/spread", tag = "admin", request_body = SpreadRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MarketSpread>), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409, description = "The market is settled")))]
async fn set_spread(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<SpreadRequest>,
) -> ApiResult<MarketSpread> {
    require_admin(&operator)?;
    let by = acted_by(operator, ip);
    let ctx = OperatorContext { store: &state.store, actor: by.actor, client_ip: by.client_ip };
    let market_id = body.market_id.0;
    let spread = set_desk_spread(&ctx, market_id, body.spread.0).await?;
    Ok(ok_with(format!("The desk's spread is now {spread}."), MarketSpread { market_id, spread }))
}

/// The result to preview, as `admin/market/result` takes it, or `void` instead.
//
// Read as [`Paging`](backlay_kit::input::Paging) reads a list request: the body parsed once as
// the result and once for `void`, each ignoring the other's fields, so that an error in either
// names its field (`#[serde(flatten)]` would lose the name, and cannot read our number fields).
// The flatten here only shapes the OpenAPI schema.
#[derive(ToSchema)]
pub struct PreviewRequest {
    #[serde(flatten)]
    pub result: ResultRequest,
    /// 1: preview voiding the market instead of a result.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub void: Option<FlexBool>,
}

/// The part of a [`PreviewRequest`] beside the result.
#[derive(Deserialize)]
struct VoidPart {
    #[serde(default)]
    void: Option<FlexBool>,
}

impl<S: Send + Sync> FromRequest<S> for PreviewRequest {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let bytes = read_body(req, state).await?;
        let text = json_text(&bytes);
        let result = parse_json(text)?;
        let VoidPart { void } = parse_json(text)?;
        Ok(PreviewRequest { result, void })
    }
}

/// What settling would move, as the settlement itself computes it (nothing is written).
#[derive(Serialize, ToSchema)]
pub struct ResultPreview {
    pub market_id: i64,
    /// Matched bets the result settles (or voids).
    pub bets: i64,
    /// Clients with bets in the market.
    pub clients: i64,
    /// Clients whose balance goes up.
    pub winners: i64,
    /// Clients whose balance goes down.
    pub losers: i64,
    /// What the winning clients receive, after commission.
    #[schema(value_type = f64)]
    pub clients_win: Money,
    /// What the losing clients pay (a positive amount).
    #[schema(value_type = f64)]
    pub clients_lose: Money,
    /// The house's result on a bookmaker or fancy market (positive: the house wins); 0 on
    /// exchange markets, where clients pay each other.
    #[schema(value_type = f64)]
    pub house_pnl: Money,
    /// Commission taken on the winners' net winnings.
    #[schema(value_type = f64)]
    pub commission: Money,
}

/// Previews declaring a result or voiding: the bets settled, the clients' wins and losses, the
/// house's result and the commission, from the same computation as the settlement.
#[utoipa::path(post, path = "/admin/market/resultPreview", tag = "admin", request_body = PreviewRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<ResultPreview>), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409, description = "The market is closed")))]
async fn result_preview(
    State(state): State<AppState>,
    operator: Operator,
    body: PreviewRequest,
) -> ApiResult<ResultPreview> {
    require_admin(&operator)?;
    let named = body.result;
    let market_id = named.market_id.0;
    let void = body.void.is_some_and(|v| v.0);
    let result = match (void, named.names_a_result()) {
        (true, false) => ResultInput::Void,
        (true, true) => {
            return Err(AppError::field("void", "Preview either a result or voiding, not both."))
        }
        (false, _) => named.result_input()?,
    };
    let preview = state.engine.preview_settlement(market_id, result).await?;
    let settlement = &preview.settlement;
    let nets = settlement.users.iter().map(|u| u.net_minor());
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    Ok(ok(ResultPreview {
        market_id,
        bets: count(preview.bets),
        clients: count(settlement.users.len()),
        winners: count(nets.clone().filter(|n| *n > 0).count()),
        losers: count(nets.clone().filter(|n| *n < 0).count()),
        clients_win: Money::from_minor(nets.clone().filter(|n| *n > 0).sum()),
        clients_lose: Money::from_minor(-nets.filter(|n| *n < 0).sum::<i64>()),
        house_pnl: Money::from_minor(settlement.house_pnl_minor),
        commission: Money::from_minor(settlement.commission_total_minor),
    }))
}
