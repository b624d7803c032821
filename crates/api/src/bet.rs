//! Bets: place (idempotent by `client_ref`), cancel in part or whole, cancel all, the
//! caller's open bets, and exposure per market. Prices, exposure and positions are decided on
//! the server from stored bets; nothing the client computed is trusted.

use std::collections::BTreeMap;

use axum::extract::State;
use backlay_core::exchange::{BetSide, MarketType, Persistence};
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_core::odds::Quote;
use backlay_store::bets::{BetRow, BetStatus};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_engine::{average_price, PlaceBet, PlacementStatus, RateChanges};
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{choice_field, plain_decimal, AmountInput, ApiJson, FlexI64};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(place_bet))
        .routes(routes!(cancel_bet))
        .routes(routes!(cancel_all_bets))
        .routes(routes!(open_bets))
        .routes(routes!(get_exposure_detail))
        .routes(routes!(positions))
}

/// A number kept as exact text in plain form (`2.5`, `45`), so the market can parse it by its
/// own rules (ladder odds or a whole-number rate) without a trip through f64. A whole value
/// arrives as a whole number however it was written: `107.0`, `1.07e2` and `"107"` are all
/// `107`, so a rate the server itself sent as `107.0` is taken back; `52.5` stays a fraction,
/// which a bookmaker or fancy market refuses ("The rate is a whole number such as 45.").
#[derive(Clone, Debug)]
pub struct NumberText(pub String);

/// Longest number text read: far more digits than any price has.
const MAX_NUMBER_TEXT_CHARS: usize = 24;

impl<'de> Deserialize<'de> for NumberText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
        let text = raw.get();
        let text = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
        match plain_decimal(text) {
            Some(plain) if text.len() <= MAX_NUMBER_TEXT_CHARS && !plain.starts_with('-') => {
                Ok(NumberText(plain))
            }
            _ => Err(de::Error::custom("expected a number such as 2.5 or 45")),
        }
    }
}

/// Longest `client_ref` accepted.
pub const CLIENT_REF_MAX_CHARS: usize = 64;

#[derive(Deserialize, ToSchema)]
pub struct PlaceBetRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// The runner (not for fancy).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub selection_id: Option<FlexI64>,
    /// back or lay; yes or no on a fancy.
    #[schema(value_type = BetSide)]
    pub side: String,
    /// Odds on exchange markets (on the ladder, e.g. 2.5); the rate on bookmaker and fancy (e.g. 45).
    #[schema(value_type = f64, exclusive_minimum = 0)]
    pub price: NumberText,
    /// Fancy only: the line bet on.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub line: Option<FlexI64>,
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub stake: AmountInput,
    /// lapse (default) or persist: what happens to the unmatched part at suspension.
    #[serde(default)]
    #[schema(value_type = Option<Persistence>)]
    pub persistence: Option<String>,
    /// Idempotency key: the same key returns the first answer, never a second bet.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub client_ref: Option<String>,
    /// Bookmaker and fancy: exact (default) refuses a rate or line that moved since it was
    /// quoted; better takes a move in the bettor's favour; any takes the rate posted at placing.
    #[serde(default)]
    #[schema(value_type = Option<RateChanges>)]
    pub accept_rate_changes: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PlaceBetData {
    pub bet_id: i64,
    pub status: PlacementStatus,
    #[schema(value_type = f64)]
    pub size_matched: Money,
    #[schema(required = true)]
    pub avg_price_matched: Option<f64>,
    pub message: String,
    /// The request repeated one already placed under its client_ref: this is that bet.
    pub repeated: bool,
}

#[utoipa::path(post, path = "/bet/placeBet", tag = "bet", request_body = PlaceBetRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<PlaceBetData>), (status = 400, description = "Bad input (off-ladder price names the nearest valid prices)"),
        (status = 401), (status = 404, description = "Unknown market or runner"),
        (status = 409, description = "Market not open, odds changed, client_ref reused"),
        (status = 422, description = "Stake limits, insufficient funds, an account that cannot bet")))]
async fn place_bet(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<PlaceBetRequest>,
) -> ApiResult<PlaceBetData> {
    let stake = body.stake.0;
    if !stake.is_positive() {
        return Err(AppError::field("stake", "The stake must be more than 0."));
    }
    let persistence =
        choice_field("persistence", body.persistence.as_deref(), Persistence::default(), |text| {
            format!("{text} is not {}.", one_of(Persistence::NAMES))
        })?;
    let accept_rate_changes = choice_field(
        "accept_rate_changes",
        body.accept_rate_changes.as_deref(),
        RateChanges::default(),
        |text| format!("{text} is not {}.", one_of(RateChanges::NAMES)),
    )?;
    let client_ref =
        body.client_ref.as_deref().map(str::trim).filter(|r| !r.is_empty()).map(str::to_string);
    if client_ref.as_ref().is_some_and(|r| r.chars().count() > CLIENT_REF_MAX_CHARS) {
        return Err(AppError::field(
            "client_ref",
            format!("client_ref must be at most {CLIENT_REF_MAX_CHARS} characters."),
        ));
    }
    let side: BetSide = body
        .side
        .trim()
        .to_lowercase()
        .parse()
        .map_err(|_| AppError::field("side", "side must be back, lay, yes or no."))?;
    let fingerprint = format!(
        "{}|{:?}|{}|{}|{:?}|{}|{:?}",
        body.market_id.0,
        body.selection_id.map(|s| s.0),
        side,
        body.price.0,
        body.line.map(|l| l.0),
        stake.minor(),
        persistence
    );
    let answer = state
        .engine
        .place(PlaceBet {
            user_id: authed.user.id,
            market_id: body.market_id.0,
            selection_id: body.selection_id.map(|s| s.0),
            side,
            price: Quote::read(&body.price.0),
            line: body.line.map(|l| l.0),
            stake,
            persistence,
            client_ref,
            request_hash: hex::encode(Sha256::digest(fingerprint.as_bytes())),
            refs: Default::default(),
            house_liquidity: false,
            house_max_exposure_minor: None,
            accept_rate_changes,
            cash_out: None,
        })
        .await?;
    let message = answer.message.clone();
    Ok(ok_with(
        message,
        PlaceBetData {
            bet_id: answer.bet_id,
            status: answer.status,
            size_matched: answer.size_matched,
            avg_price_matched: answer.avg_price_matched,
            message: answer.message,
            repeated: answer.repeated,
        },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct CancelBetRequest {
    #[schema(value_type = i64)]
    pub bet_id: FlexI64,
    /// Part of the unmatched size to cancel; all of it when absent.
    #[serde(default)]
    #[schema(value_type = Option<f64>, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub size: Option<AmountInput>,
}

#[derive(Serialize, ToSchema)]
pub struct CancelBetData {
    pub bet_id: i64,
    #[schema(value_type = f64)]
    pub cancelled: Money,
    #[schema(value_type = f64)]
    pub remaining: Money,
}

#[utoipa::path(post, path = "/bet/cancelBet", tag = "bet", request_body = CancelBetRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CancelBetData>), (status = 400), (status = 401), (status = 404), (status = 409)))]
async fn cancel_bet(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<CancelBetRequest>,
) -> ApiResult<CancelBetData> {
    let bet_id = body.bet_id.0;
    let not_yours = || AppError::NotFound(format!("You have no unmatched bet {bet_id}."));
    let bet = state.store.bet(bet_id).await.map_err(|_| not_yours())?;
    if bet.user_id != authed.user.id || bet.remaining_minor == 0 {
        return Err(not_yours());
    }
    let answer =
        state.engine.cancel(bet.market_id, authed.user.id, bet_id, body.size.map(|s| s.0)).await?;
    Ok(ok_with(
        format!("Cancelled {}.", answer.cancelled.rupees()),
        CancelBetData { bet_id, cancelled: answer.cancelled, remaining: answer.remaining },
    ))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct CancelAllRequest {
    /// Only this market's bets; all the caller's unmatched bets when absent.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub market_id: Option<FlexI64>,
}

#[derive(Serialize, ToSchema)]
pub struct CancelAllData {
    pub count: i64,
}

#[utoipa::path(post, path = "/bet/cancelAllBets", tag = "bet", request_body = CancelAllRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CancelAllData>), (status = 401)))]
async fn cancel_all_bets(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<CancelAllRequest>,
) -> ApiResult<CancelAllData> {
    let count = backlay_operator::safer::cancel_unmatched(
        &state,
        authed.user.id,
        body.market_id.map(|m| m.0),
    )
    .await?;
    Ok(ok_with(format!("Cancelled {count} bet(s)."), CancelAllData { count }))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct OpenBetsRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub match_id: Option<FlexI64>,
}

#[derive(Serialize, ToSchema)]
pub struct BetItem {
    pub bet_id: i64,
    pub market_id: i64,
    /// Null on a fancy.
    #[schema(required = true)]
    pub selection_id: Option<i64>,
    pub side: BetSide,
    /// The odds asked (exchange) or the rate (bookmaker, fancy).
    pub price: f64,
    /// What the matched part got on average (exchange: Σ odds × size / Σ size over its fills,
    /// at least as good as `price`; bookmaker and fancy: the rate); null while nothing matched.
    #[schema(required = true)]
    pub avg_price_matched: Option<f64>,
    /// Fancy only (null otherwise): the line bet on.
    #[schema(required = true)]
    pub line: Option<i64>,
    #[schema(value_type = f64)]
    pub stake: Money,
    #[schema(value_type = f64)]
    pub matched: Money,
    #[schema(value_type = f64)]
    pub remaining: Money,
    pub status: BetStatus,
    pub persistence: Persistence,
    pub date: String,
}

/// A stored price as the API shows it: decimal odds on exchange markets (stored in
/// hundredths), the rate itself on bookmaker and fancy markets.
pub fn display_price(stored: i64, market_type: MarketType) -> f64 {
    if market_type.is_house_banked() {
        stored as f64
    } else {
        stored as f64 / 100.0
    }
}

/// A bet as the lists show it; `price_size_sums` from [`Store::matched_price_size_sums`] over
/// the listed bets (exchange bets' averages come from their fills).
///
/// [`Store::matched_price_size_sums`]: backlay_store::Store::matched_price_size_sums
pub fn bet_item(
    bet: &BetRow,
    market_type: MarketType,
    price_size_sums: &BTreeMap<i64, i128>,
) -> BetItem {
    let house_rate = market_type.is_house_banked().then_some(bet.price);
    let price_size_sum = price_size_sums.get(&bet.bet_id).copied().unwrap_or(0);
    BetItem {
        bet_id: bet.bet_id,
        market_id: bet.market_id,
        selection_id: bet.runner_id,
        side: bet.side,
        price: display_price(bet.price, market_type),
        avg_price_matched: average_price(bet.matched_minor, price_size_sum, house_rate),
        line: bet.line,
        stake: Money::from_minor(bet.stake_minor),
        matched: Money::from_minor(bet.matched_minor),
        remaining: Money::from_minor(bet.remaining_minor),
        status: bet.status,
        persistence: bet.persistence,
        date: iso_utc(bet.created_at_ms),
    }
}

#[derive(Serialize, ToSchema)]
pub struct OpenBetsData {
    pub matched: Vec<BetItem>,
    pub unmatched: Vec<BetItem>,
}

/// The caller's live bets (not settled), newest first: matched parts and unmatched parts.
#[utoipa::path(post, path = "/bet/openBets", tag = "bet", request_body = OpenBetsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<OpenBetsData>), (status = 401)))]
async fn open_bets(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<OpenBetsRequest>,
) -> ApiResult<OpenBetsData> {
    let bets =
        state.store.live_bets_of_user(authed.user.id, body.match_id.map(|m| m.0), 500).await?;
    let ids: Vec<i64> = bets.iter().map(|(bet, _)| bet.bet_id).collect();
    let sums = state.store.matched_price_size_sums(&ids).await?;
    let mut data = OpenBetsData { matched: Vec::new(), unmatched: Vec::new() };
    for (bet, market_type) in &bets {
        if bet.matched_minor > 0 {
            data.matched.push(bet_item(bet, *market_type, &sums));
        }
        if bet.remaining_minor > 0 {
            data.unmatched.push(bet_item(bet, *market_type, &sums));
        }
    }
    Ok(ok(data))
}

#[derive(Serialize, ToSchema)]
pub struct MarketExposure {
    /// The market's name (Match Odds, Bookmaker, a fancy's name …).
    pub sub_type: String,
    pub market_id: i64,
    pub bet_count: i64,
    #[schema(value_type = f64)]
    pub exposure: Money,
}

#[derive(Serialize, ToSchema)]
pub struct ExposureRow {
    pub sport_name: String,
    pub match_name: String,
    pub match_id: i64,
    pub market_details: Vec<MarketExposure>,
}

/// The spec's client reads `data.data`.
#[derive(Serialize, ToSchema)]
pub struct ExposureDetail {
    pub data: Vec<ExposureRow>,
}

/// The caller's exposure per open market, grouped by match.
#[utoipa::path(get, path = "/bet/getExposureDetail", tag = "bet", security(("bearer" = [])),
    responses((status = 200, body = Envelope<ExposureDetail>), (status = 401)))]
async fn get_exposure_detail(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<ExposureDetail> {
    let rows = state.store.exposure_rows_of_user(authed.user.id).await?;
    let mut by_match: BTreeMap<i64, ExposureRow> = BTreeMap::new();
    for row in rows {
        by_match
            .entry(row.match_id)
            .or_insert_with(|| ExposureRow {
                sport_name: row.sport_name.clone(),
                match_name: row.match_name.clone(),
                match_id: row.match_id,
                market_details: Vec::new(),
            })
            .market_details
            .push(MarketExposure {
                sub_type: row.market_name,
                market_id: row.market_id,
                bet_count: row.bet_count,
                exposure: Money::from_minor(row.exposure_minor),
            });
    }
    Ok(ok(ExposureDetail { data: by_match.into_values().rev().collect() }))
}

#[derive(Deserialize, ToSchema)]
pub struct PositionsRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct RunnerPosition {
    pub selection_id: i64,
    pub name: String,
    /// The caller's profit (or loss, negative) if this runner wins.
    #[schema(value_type = f64)]
    pub pnl: Money,
}

#[derive(Serialize, ToSchema)]
pub struct MarketPosition {
    pub market_id: i64,
    pub name: String,
    #[serde(rename = "type")]
    pub market_type: MarketType,
    /// Runner markets: P&L per runner.
    pub runners: Vec<RunnerPosition>,
    /// Fancy markets: P&L per run range.
    pub book: Vec<backlay_live::market_book::FancyRange>,
}

/// The caller's profit/loss per runner (or per fancy run range) in each market of a match,
/// from their stored bets.
#[utoipa::path(post, path = "/bet/positions", tag = "bet", request_body = PositionsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<MarketPosition>>), (status = 401), (status = 404)))]
async fn positions(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<PositionsRequest>,
) -> ApiResult<Vec<MarketPosition>> {
    use backlay_kit::error::OrNotFound;
    let match_id = body.match_id.0;
    let the_match = state
        .store
        .match_by_id(match_id)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    let books = backlay_live::market_book::market_books(
        &state.store,
        &state.engine,
        match_id,
        the_match.in_play,
        Some(authed.user.id),
    )
    .await?;
    Ok(ok(books
        .into_iter()
        .map(|market| MarketPosition {
            market_id: market.market_id,
            name: market.name,
            market_type: market.market_type,
            runners: market
                .runners
                .into_iter()
                .map(|r| RunnerPosition {
                    selection_id: r.selection_id,
                    name: r.name,
                    pnl: r.position,
                })
                .collect(),
            book: market.book,
        })
        .collect()))
}
