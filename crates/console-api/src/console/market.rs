//! `console/market/…`: the live matches with their markets, a market's analysis (the house's
//! position on each runner) and its bets.

use std::collections::{BTreeMap, HashSet};

use axum::extract::State;
use backlay_core::exchange::{BetSide, MarketStatus, MarketType};
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_store::downline::{MarketBetsQuery, Scope};
use backlay_store::markets::MarketRow;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use backlay_api::bet::display_price;
use backlay_engine::stored_matched_bets;
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope, OrNotFound};
use backlay_kit::input::{ApiJson, FlexI64, Paged, Paging};
use backlay_kit::market_analysis::house_position;
use backlay_live::market_book::FancyRange;
use backlay_operator::session::Operator;
use backlay_operator::AppState;

use super::{scope_of, search_field};

/// A market not yet settled, as the risk screens name it.
#[derive(Serialize, ToSchema)]
pub struct LiveMarketRef {
    pub market_id: i64,
    pub name: String,
    pub market_type: MarketType,
}

#[derive(Serialize, ToSchema)]
pub struct LiveMatch {
    pub match_id: i64,
    pub name: String,
    pub sport_name: String,
    pub series_name: String,
    pub in_play: bool,
    pub open_date: String,
    pub markets: Vec<LiveMarketRef>,
}

/// Matches with markets not yet settled (open, suspended or ball running), soonest first.
#[utoipa::path(get, path = "/console/market/live", tag = "console", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<LiveMatch>>), (status = 403)))]
pub(super) async fn live_matches(
    State(state): State<AppState>,
    _operator: Operator,
) -> ApiResult<Vec<LiveMatch>> {
    Ok(ok(live_matches_with_markets(&state).await?.0))
}

/// The matches with markets not yet settled, soonest first, and those markets: one read of
/// every unsettled market, grouped by match, and one read of each match (the risk screens'
/// list and the dashboard's).
pub(crate) async fn live_matches_with_markets(
    state: &AppState,
) -> Result<(Vec<LiveMatch>, Vec<MarketRow>), AppError> {
    let markets = state.store.live_markets().await?;
    let mut by_match: BTreeMap<i64, Vec<LiveMarketRef>> = BTreeMap::new();
    for market in &markets {
        by_match.entry(market.setup.match_id).or_default().push(LiveMarketRef {
            market_id: market.setup.market_id,
            name: market.setup.name.clone(),
            market_type: market.setup.market_type,
        });
    }
    let mut matches = Vec::with_capacity(by_match.len());
    for (match_id, refs) in by_match {
        let the_match = state.store.match_by_id(match_id).await?;
        matches.push((
            the_match.open_date_ms,
            LiveMatch {
                match_id: the_match.match_id,
                name: the_match.name,
                sport_name: the_match.sport_name,
                series_name: the_match.series_name,
                in_play: the_match.in_play,
                open_date: iso_utc(the_match.open_date_ms),
                markets: refs,
            },
        ));
    }
    matches.sort_by_key(|(open_ms, live)| (*open_ms, live.match_id));
    Ok((matches.into_iter().map(|(_, live)| live).collect(), markets))
}

#[derive(Deserialize, ToSchema)]
pub struct MarketAnalysisRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct RunnerAnalysis {
    pub selection_id: i64,
    pub name: String,
    /// What the house wins (positive) or loses (negative) against the caller's downline if
    /// this runner wins (is placed, on a place market).
    #[schema(value_type = f64)]
    pub house_pnl: Money,
}

#[derive(Serialize, ToSchema)]
pub struct MarketAnalysis {
    pub market_id: i64,
    pub name: String,
    pub market_type: MarketType,
    pub status: MarketStatus,
    /// Runner markets: the house's P&L per runner; empty on a fancy.
    pub runners: Vec<RunnerAnalysis>,
    /// Fancy: the house's P&L (`pnl`) per range of runs; empty on a runner market.
    pub fancy: Vec<FancyRange>,
    /// Fancy: the lines now offered (null when none).
    #[schema(required = true)]
    pub line_no: Option<i64>,
    #[schema(required = true)]
    pub line_yes: Option<i64>,
    /// How many matched bets of the downline the position sums.
    pub bets: i64,
}

#[derive(Serialize, ToSchema)]
pub struct MatchAnalysis {
    pub match_id: i64,
    pub name: String,
    pub in_play: bool,
    pub markets: Vec<MarketAnalysis>,
}

/// For each market of the match not yet settled, the house's position against the caller's
/// downline (an admin: every account) per runner or per fancy run range, from the matched bets.
#[utoipa::path(post, path = "/console/market/analysis", tag = "console", request_body = MarketAnalysisRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MatchAnalysis>), (status = 400), (status = 403), (status = 404)))]
pub(super) async fn market_analysis(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<MarketAnalysisRequest>,
) -> ApiResult<MatchAnalysis> {
    let match_id = body.match_id.0;
    let the_match = state
        .store
        .match_by_id(match_id)
        .await
        .or_not_found(|| format!("There is no match {match_id}."))?;
    let downline: Option<HashSet<i64>> = match scope_of(&authed.user) {
        Scope::Everyone => None,
        Scope::Under(ancestor) => {
            Some(state.store.downline_user_ids(ancestor).await?.into_iter().collect())
        }
    };
    let counts = |user_id: i64| downline.as_ref().is_none_or(|set| set.contains(&user_id));
    let mut markets = Vec::new();
    for market in state.store.markets_of_match(match_id).await? {
        if market.status.is_settled() {
            continue;
        }
        let market_id = market.setup.market_id;
        let matched = stored_matched_bets(&state.store, market.setup.kind(), market_id).await?;
        let position = house_position(&market, &matched, counts)?;
        let names: BTreeMap<i64, &str> =
            market.setup.runners.iter().map(|r| (r.runner_id, r.name.as_str())).collect();
        markets.push(MarketAnalysis {
            market_id,
            name: market.setup.name.clone(),
            market_type: market.setup.market_type,
            status: market.status,
            runners: position
                .runners
                .iter()
                .map(|(runner_id, pnl_minor)| RunnerAnalysis {
                    selection_id: *runner_id,
                    name: names.get(runner_id).copied().unwrap_or_default().to_string(),
                    house_pnl: Money::from_minor(*pnl_minor),
                })
                .collect(),
            fancy: position
                .fancy
                .iter()
                .map(|row| FancyRange {
                    from: row.from,
                    to: row.to,
                    pnl: Money::from_minor(row.pnl_minor),
                })
                .collect(),
            line_no: market.setup.line_no,
            line_yes: market.setup.line_yes,
            bets: i64::try_from(position.bets).unwrap_or(i64::MAX),
        });
    }
    Ok(ok(MatchAnalysis {
        match_id: the_match.match_id,
        name: the_match.name,
        in_play: the_match.in_play,
        markets,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct MarketBetsRequest {
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
    /// Part of the user name, any case (at most 50 characters).
    #[serde(default)]
    pub user: Option<String>,
    /// back, lay, yes or no; absent: both sides.
    #[serde(default)]
    #[schema(value_type = Option<BetSide>)]
    pub side: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct MarketBetRow {
    pub bet_id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub side: BetSide,
    /// The runner; null on a fancy.
    #[schema(required = true)]
    pub selection_name: Option<String>,
    /// Odds (exchange) or the rate (bookmaker, fancy).
    pub price: f64,
    /// Fancy: the line bet on.
    #[schema(required = true)]
    pub line: Option<i64>,
    #[schema(value_type = f64)]
    pub stake: Money,
    #[schema(value_type = f64)]
    pub matched: Money,
    pub status: backlay_store::bets::BetStatus,
    pub date: String,
}

/// The bets of the caller's downline (an admin: everyone's) on one market, newest first,
/// filtered by user name and side.
#[utoipa::path(post, path = "/console/market/bets", tag = "console", request_body = Paging<MarketBetsRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<MarketBetRow>>), (status = 400), (status = 403), (status = 404)))]
pub(super) async fn market_bets(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Paging { request: body, page }: Paging<MarketBetsRequest>,
) -> ApiResult<Paged<MarketBetRow>> {
    let user = search_field("user", body.user.as_deref())?;
    let side = match body.side.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => None,
        Some(text) => Some(text.parse::<BetSide>().map_err(|_| {
            AppError::field(
                "side",
                format!("{text} is not a side: use {}.", one_of(BetSide::NAMES)),
            )
        })?),
    };
    let (page, limit, offset) = page.resolve()?;
    let market_id = body.market_id.0;
    let market = state
        .store
        .market(market_id)
        .await
        .or_not_found(|| format!("There is no market {market_id}."))?;
    let query = MarketBetsQuery { market_id, user, side, offset, limit };
    let (bets, total) = state.store.downline_market_bets(scope_of(&authed.user), &query).await?;
    let market_type = market.setup.market_type;
    let rows = bets
        .into_iter()
        .map(|bet| MarketBetRow {
            bet_id: bet.bet_id,
            user_id: bet.user_id,
            user_name: bet.user_name,
            side: bet.side,
            selection_name: bet.runner_name,
            price: display_price(bet.price, market_type),
            line: bet.line,
            stake: Money::from_minor(bet.stake_minor),
            matched: Money::from_minor(bet.matched_minor),
            status: bet.status,
            date: iso_utc(bet.created_at_ms),
        })
        .collect();
    Ok(ok(Paged { rows, total, page, limit }))
}
