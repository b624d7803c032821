//! The console's reads under `/api/console/…`: the downline list, any downline account's
//! statement, bets and P&L, and the market analysis with its bet list.
//!
//! Who sees what: an admin every account; an agent its own account and its downline at any
//! depth ([`backlay_store::downline`]); a client nothing (403), a stranger nothing (401). An
//! agent who names an account outside its downline gets 404 "No such account in your
//! downline." whether or not the account exists, so the answer never tells.
//!
//! **P&L** everywhere here is the betting P&L of the ledger: the sum of an account's statement
//! lines of the betting kinds (sports settlements after commission and voids, casino stakes and
//! payouts, providers' games); deposits and withdrawals are not P&L. A client's P&L is its own;
//! an agent's is the sum over its downline (and itself). Positive: the account is up.

use std::collections::{BTreeMap, HashSet};

use axum::extract::State;
use backlay_core::exchange::{BetSide, MarketStatus, MarketType};
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_store::downline::{DownlineQuery, DownlineSort, MarketBetsQuery, Scope};
use backlay_store::users::{Role, User};
use backlay_store::StoreError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::bet::display_price;
use super::matches::SEARCH_MAX_CHARS;
use super::report::{
    current_bets_page, settled_bets_of, statement_page, CurrentBetEntry, CurrentBetsRequest,
    SettledBetRow, StatementRequest, StatementRow,
};
use crate::clock::iso_utc;
use crate::engine::stored_matched_bets;
use crate::error::{ok, ApiResult, AppError, Envelope, OrNotFound};
use crate::input::{choice_field, date_bound, ApiJson, FlexI64, Paged, Paging};
use crate::market_analysis::house_position;
use crate::market_book::FancyRange;
use crate::operator::not_in_downline;
use crate::session::Operator;
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(downline_list))
        .routes(routes!(console_account_statement))
        .routes(routes!(account_bets))
        .routes(routes!(account_settled_bets))
        .routes(routes!(account_pnl))
        .routes(routes!(live_matches))
        .routes(routes!(market_analysis))
        .routes(routes!(market_bets))
}

/// Most lines of a P&L answer (markets and casino kinds in the period).
const PNL_ROWS_MAX: i64 = 500;

pub(crate) fn scope_of(caller: &User) -> Scope {
    match caller.role {
        Role::Admin => Scope::Everyone,
        _ => Scope::Under(caller.id),
    }
}

/// The account `user_id` when the caller may read it: its own, or one of its downline (an
/// admin: any).
pub(crate) async fn readable_account(
    state: &AppState,
    caller: &User,
    user_id: i64,
) -> Result<User, AppError> {
    let allowed = match scope_of(caller) {
        Scope::Everyone => true,
        Scope::Under(ancestor) => {
            user_id == ancestor || state.store.is_in_downline(ancestor, user_id).await?
        }
    };
    if !allowed {
        return Err(not_in_downline());
    }
    match state.store.user_by_id(user_id).await {
        Ok(user) => Ok(user),
        Err(StoreError::NotFound) => Err(not_in_downline()),
        Err(other) => Err(other.into()),
    }
}

fn search_field(field: &str, text: Option<&str>) -> Result<String, AppError> {
    let text = text.unwrap_or_default().trim();
    if text.chars().count() > SEARCH_MAX_CHARS {
        return Err(AppError::field(
            field,
            format!("{field} must be at most {SEARCH_MAX_CHARS} characters."),
        ));
    }
    Ok(text.to_string())
}

// ---------------------------------------------------------------------------------------------
// console/downline/list

backlay_core::named_enum! {
    /// Which way a list is sorted.
    pub enum SortOrder as "order" {
        Asc = "asc",
        Desc = "desc",
    }
}

backlay_core::named_enum! {
    /// Where an account stands.
    pub enum AccountStatus as "account status" {
        Active = "active",
        /// Cannot log in.
        Locked = "locked",
        /// Can log in, cannot bet.
        BetLocked = "bet_locked",
    }
}

#[derive(Deserialize, ToSchema, Default)]
pub struct DownlineListRequest {
    /// Part of the user name, any case (at most 50 characters).
    #[serde(default)]
    pub search: Option<String>,
    /// name (default), balance, exposure, available, pnl or last_login.
    #[serde(default)]
    #[schema(value_type = Option<DownlineSort>)]
    pub sort: Option<String>,
    /// asc (default) or desc.
    #[serde(default)]
    #[schema(value_type = Option<SortOrder>)]
    pub order: Option<String>,
    /// Whose direct children to list: the caller (default) or an account of its downline.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub parent_id: Option<FlexI64>,
}

/// A direct child of the listed parent.
#[derive(Serialize, ToSchema)]
pub struct DownlineAccount {
    pub user_id: i64,
    pub user_name: String,
    pub role: Role,
    #[schema(value_type = f64)]
    pub balance: Money,
    /// Held for open bets.
    #[schema(value_type = f64)]
    pub exposure: Money,
    /// balance − exposure.
    #[schema(value_type = f64)]
    pub available: Money,
    /// Betting P&L of the account and everyone under it (see the module documentation).
    #[schema(value_type = f64)]
    pub pnl: Money,
    /// What the parent says the account owes or is owed (a number on the account, not money).
    #[schema(value_type = f64)]
    pub credit_reference: Money,
    /// The largest stake of one bet; null: no cap but each market's.
    #[schema(value_type = Option<f64>, required = true)]
    pub max_stake: Option<Money>,
    /// The most exposure across markets; null: no limit.
    #[schema(value_type = Option<f64>, required = true)]
    pub max_exposure: Option<Money>,
    pub status: AccountStatus,
    /// The last log-in; null: never.
    #[schema(required = true)]
    pub last_login: Option<String>,
    /// How many accounts are directly under it.
    pub children: i64,
}

/// The accounts directly under `parent_id` (default: the caller) with balance, exposure,
/// available, credit reference, P&L, status and last log-in; searched by name, sorted, paged.
#[utoipa::path(post, path = "/console/downline/list", tag = "console", request_body = Paging<DownlineListRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<DownlineAccount>>), (status = 400), (status = 403),
        (status = 404, description = "parent_id is not in the caller's downline")))]
async fn downline_list(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Paging { request: body, page }: Paging<DownlineListRequest>,
) -> ApiResult<Paged<DownlineAccount>> {
    let search = search_field("search", body.search.as_deref())?;
    let sort = choice_field("sort", body.sort.as_deref(), DownlineSort::Name, |text| {
        format!("{text} is not a sort: use {}.", one_of(DownlineSort::NAMES))
    })?;
    let order = choice_field("order", body.order.as_deref(), SortOrder::Asc, |text| {
        format!("{text} is not an order: use {}.", one_of(SortOrder::NAMES))
    })?;
    let (page, limit, offset) = page.resolve()?;
    let parent_id = match body.parent_id {
        Some(FlexI64(parent_id)) => readable_account(&state, &authed.user, parent_id).await?.id,
        None => authed.user.id,
    };
    let query = DownlineQuery {
        parent_id,
        search,
        sort,
        descending: order == SortOrder::Desc,
        offset,
        limit,
    };
    let (rows, total) = state.store.downline_page(&query).await?;
    let rows = rows
        .into_iter()
        .map(|row| DownlineAccount {
            user_id: row.user_id,
            user_name: row.user_name,
            role: row.role,
            balance: Money::from_minor(row.balance_minor),
            exposure: Money::from_minor(row.exposure_minor),
            available: Money::from_minor(row.balance_minor - row.exposure_minor),
            pnl: Money::from_minor(row.pnl_minor),
            credit_reference: Money::from_minor(row.credit_reference_minor),
            max_stake: row.max_stake_minor.map(Money::from_minor),
            max_exposure: row.max_exposure_minor.map(Money::from_minor),
            status: match (row.is_locked, row.is_bet_locked) {
                (true, _) => AccountStatus::Locked,
                (false, true) => AccountStatus::BetLocked,
                (false, false) => AccountStatus::Active,
            },
            last_login: row.last_login_at_ms.map(iso_utc),
            children: row.children,
        })
        .collect();
    Ok(ok(Paged { rows, total, page, limit }))
}

// ---------------------------------------------------------------------------------------------
// console/account/…

/// A request about one account: `user_id` beside the fields of the report it asks for.
#[derive(Deserialize, ToSchema)]
pub struct AccountOf<F> {
    /// The caller's own account or one of its downline.
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    #[serde(flatten)]
    pub request: F,
}

/// The account's statement, as the account sees its own (`report/accountStatement`).
#[utoipa::path(post, path = "/console/account/statement", tag = "console", request_body = Paging<AccountOf<StatementRequest>>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<StatementRow>>), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
async fn console_account_statement(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Paging { request: body, page }: Paging<AccountOf<StatementRequest>>,
) -> ApiResult<Paged<StatementRow>> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    Ok(ok(statement_page(&state, account.id, &body.request, page).await?))
}

/// The account's current bets, as the account sees its own (`report/currentBets`).
#[utoipa::path(post, path = "/console/account/bets", tag = "console", request_body = Paging<AccountOf<CurrentBetsRequest>>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<CurrentBetEntry>>), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
async fn account_bets(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Paging { request: body, page }: Paging<AccountOf<CurrentBetsRequest>>,
) -> ApiResult<Paged<CurrentBetEntry>> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    Ok(ok(current_bets_page(&state, account.id, &body.request, page).await?))
}

#[derive(Deserialize, ToSchema)]
pub struct AccountSettledBetsRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// The market of a statement or P&L line.
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
}

/// The account's bets that one market's settlement or void closed (`report/settledBets`).
#[utoipa::path(post, path = "/console/account/settledBets", tag = "console", request_body = AccountSettledBetsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<SettledBetRow>>), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
async fn account_settled_bets(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<AccountSettledBetsRequest>,
) -> ApiResult<Vec<SettledBetRow>> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    Ok(ok(settled_bets_of(&state, account.id, body.market_id.0).await?))
}

#[derive(Deserialize, ToSchema)]
pub struct AccountPnlRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
}

/// The P&L of one settled market, or of one kind of casino play, over the period.
#[derive(Serialize, ToSchema)]
pub struct PnlRow {
    /// settlement, void, casino (in-house tables) or live_casino (providers' games).
    pub kind: String,
    /// The market settled (settlement, void); null for casino lines.
    #[schema(required = true)]
    pub market_id: Option<i64>,
    #[schema(required = true)]
    pub match_name: Option<String>,
    #[schema(required = true)]
    pub market_name: Option<String>,
    #[schema(value_type = f64)]
    pub pnl: Money,
    /// The latest line's time.
    pub date: String,
}

#[derive(Serialize, ToSchema)]
pub struct AccountPnl {
    pub user_id: i64,
    pub user_name: String,
    pub role: Role,
    /// The sum of the rows.
    #[schema(value_type = f64)]
    pub total: Money,
    /// Latest first, at most 500.
    pub rows: Vec<PnlRow>,
}

/// The account's betting P&L per settled market and per casino kind (an agent: summed over its
/// downline), latest first; see the module documentation for what counts.
#[utoipa::path(post, path = "/console/account/pnl", tag = "console", request_body = AccountPnlRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<AccountPnl>), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
async fn account_pnl(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<AccountPnlRequest>,
) -> ApiResult<AccountPnl> {
    let from_ms = date_bound("from_date", &body.from_date, false, 0)?;
    let to_ms = date_bound("to_date", &body.to_date, true, i64::MAX)?;
    if from_ms > to_ms {
        return Err(AppError::field("to_date", "to_date must not be before from_date."));
    }
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    let lines = state.store.betting_pnl(account.id, from_ms, to_ms, PNL_ROWS_MAX).await?;
    let total = Money::from_minor(lines.iter().map(|line| line.pnl_minor).sum());
    let rows = lines
        .into_iter()
        .map(|line| PnlRow {
            kind: line.kind,
            market_id: line.market_id,
            match_name: line.match_name,
            market_name: line.market_name,
            pnl: Money::from_minor(line.pnl_minor),
            date: iso_utc(line.last_at_ms),
        })
        .collect();
    Ok(ok(AccountPnl {
        user_id: account.id,
        user_name: account.user_name,
        role: account.role,
        total,
        rows,
    }))
}

// ---------------------------------------------------------------------------------------------
// console/market/…

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
async fn live_matches(
    State(state): State<AppState>,
    _operator: Operator,
) -> ApiResult<Vec<LiveMatch>> {
    // One read of every unsettled market, grouped by match.
    let mut by_match: BTreeMap<i64, Vec<LiveMarketRef>> = BTreeMap::new();
    for market in state.store.live_markets().await? {
        by_match.entry(market.setup.match_id).or_default().push(LiveMarketRef {
            market_id: market.setup.market_id,
            name: market.setup.name,
            market_type: market.setup.market_type,
        });
    }
    let mut matches = Vec::with_capacity(by_match.len());
    for (match_id, markets) in by_match {
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
                markets,
            },
        ));
    }
    matches.sort_by_key(|(open_ms, live)| (*open_ms, live.match_id));
    Ok(ok(matches.into_iter().map(|(_, live)| live).collect()))
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
async fn market_analysis(
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
async fn market_bets(
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
