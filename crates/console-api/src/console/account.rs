//! `console/account/…`: one downline account's header, statement, bets, settled bets, bet
//! history and P&L.

use axum::extract::State;
use axum::response::Response;
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_store::downline::{DownlineQuery, DownlineSort, Listing};
use backlay_store::ledger::TransactionKind;
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use backlay_api::export::{
    list_answer, report_answer, Cell, CsvRow, Downloadable, DownloadableReport,
};
use backlay_api::report::{
    current_bets_answer, settled_bets_of, settled_rows, statement_answer, CurrentBetEntry,
    CurrentBetsRequest, SettledBetRow, StatementRequest, StatementRow,
};
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::input::{date_range, ApiJson, FlexI64, Paged};
use backlay_operator::not_in_downline;
use backlay_operator::session::Operator;
use backlay_operator::AppState;

use super::downline::{steps, DownlineAccount, PathStep};
use super::readable_account;

/// Most lines of a P&L answer (markets and casino kinds in the period).
const PNL_ROWS_MAX: i64 = 500;

/// A request about one account: `user_id` beside the fields of the report it asks for.
#[derive(Deserialize, ToSchema)]
pub struct AccountOf<F> {
    /// The caller's own account or one of its downline.
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    #[serde(flatten)]
    pub request: F,
}

#[derive(Deserialize, ToSchema)]
pub struct AccountSummaryRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct AccountSummary {
    /// The account as the downline list shows it (its path: just itself).
    pub account: DownlineAccount,
    /// From the caller (an admin: the top of the tree) down to the account, it last.
    pub trail: Vec<PathStep>,
}

/// One account's header: its chips and its branch's, terms, status and partnership, and the
/// way down to it from the caller.
#[utoipa::path(post, path = "/console/account/summary", tag = "console", request_body = AccountSummaryRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<AccountSummary>), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
pub(super) async fn account_summary(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<AccountSummaryRequest>,
) -> ApiResult<AccountSummary> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    let query = DownlineQuery {
        listing: Listing::One(account.id),
        sort: DownlineSort::Name,
        descending: false,
        offset: 0,
        limit: 1,
    };
    let (rows, _) = state.store.downline_page(&query).await?;
    let row = rows.into_iter().next().ok_or_else(not_in_downline)?;
    let mut path = state.store.account_path(account.id).await?;
    // An agent's trail starts at itself: what is above it is not its business.
    if authed.user.role != Role::Admin {
        if let Some(at) = path.iter().position(|(id, _)| *id == authed.user.id) {
            path.drain(..at);
        }
    }
    Ok(ok(AccountSummary { account: DownlineAccount::from(row), trail: steps(path) }))
}

/// The account's statement, as the account sees its own (`report/accountStatement`).
#[utoipa::path(post, path = "/console/account/statement", tag = "console", request_body = Downloadable<AccountOf<StatementRequest>>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<StatementRow>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
pub(super) async fn console_account_statement(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Downloadable { request: body, page, format }: Downloadable<AccountOf<StatementRequest>>,
) -> Result<Response, AppError> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    statement_answer(state, account.id, body.request, page, format.parse()?).await
}

/// The account's current bets, as the account sees its own (`report/currentBets`).
#[utoipa::path(post, path = "/console/account/bets", tag = "console", request_body = Downloadable<AccountOf<CurrentBetsRequest>>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<CurrentBetEntry>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
pub(super) async fn account_bets(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Downloadable { request: body, page, format }: Downloadable<AccountOf<CurrentBetsRequest>>,
) -> Result<Response, AppError> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    current_bets_answer(state, account.id, body.request, page, format.parse()?).await
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
pub(super) async fn account_settled_bets(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<AccountSettledBetsRequest>,
) -> ApiResult<Vec<SettledBetRow>> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    Ok(ok(settled_bets_of(&state, account.id, body.market_id.0).await?))
}

backlay_core::named_enum! {
    /// Which closed bets a history shows, by how each ended.
    pub enum BetOutcome as "outcome" {
        Won = "won",
        Lost = "lost",
        Void = "void",
    }
}

#[derive(Clone, Deserialize, ToSchema)]
pub struct BetHistoryRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// Placed from: yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// Placed until: yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: now.
    #[serde(default)]
    pub to_date: Option<String>,
    /// won, lost or void; absent or empty: every closed bet.
    #[serde(default)]
    #[schema(value_type = Option<BetOutcome>)]
    pub outcome: Option<String>,
}

/// The account's closed bets (settled or void) newest first, by the date placed and how each
/// ended, each with what it won or lost (`report/settledBets`' rows across markets).
#[utoipa::path(post, path = "/console/account/betHistory", tag = "console", request_body = Downloadable<BetHistoryRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<SettledBetRow>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
pub(super) async fn account_bet_history(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Downloadable { request: body, page, format }: Downloadable<BetHistoryRequest>,
) -> Result<Response, AppError> {
    let format = format.parse()?;
    let (from_ms, to_ms) = date_range(&body.from_date, &body.to_date, (0, i64::MAX))?;
    let outcome = match body.outcome.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        None => "",
        Some(text) => text
            .parse::<BetOutcome>()
            .map_err(|_| {
                AppError::field(
                    "outcome",
                    format!("{text} is not an outcome: use {}.", one_of(BetOutcome::NAMES)),
                )
            })?
            .as_str(),
    };
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    list_answer(format, page, "bet-history", move |page| {
        let state = state.clone();
        async move {
            let (page, limit, offset) = page.resolve()?;
            let filter = backlay_store::bets::SettledBetsFilter { from_ms, to_ms, outcome };
            let (bets, total) =
                state.store.settled_bets_page(account.id, &filter, offset, limit).await?;
            Ok(Paged { rows: settled_rows(&state, bets).await?, total, page, limit })
        }
    })
    .await
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
    #[schema(value_type = String)]
    pub kind: TransactionKind,
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
#[utoipa::path(post, path = "/console/account/pnl", tag = "console", request_body = DownloadableReport<AccountPnlRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<AccountPnl> = "application/json"), (String = "text/csv"))), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
pub(super) async fn account_pnl(
    State(state): State<AppState>,
    Operator(authed): Operator,
    DownloadableReport { request: body, format }: DownloadableReport<AccountPnlRequest>,
) -> Result<Response, AppError> {
    let format = format.parse()?;
    let (from_ms, to_ms) = date_range(&body.from_date, &body.to_date, (0, i64::MAX))?;
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
    let pnl = AccountPnl {
        user_id: account.id,
        user_name: account.user_name,
        role: account.role,
        total,
        rows,
    };
    report_answer(format, "pnl", pnl, |pnl| pnl.rows.iter().collect())
}

impl CsvRow for PnlRow {
    const HEADER: &'static [&'static str] =
        &["date", "kind", "market_id", "match", "market", "pnl"];

    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::Figure(self.date.clone()),
            Cell::text(self.kind.as_str()),
            Cell::opt_int(self.market_id),
            Cell::text(self.match_name.clone().unwrap_or_default()),
            Cell::text(self.market_name.clone().unwrap_or_default()),
            Cell::money(self.pnl),
        ]
    }
}
