//! The console's reads under `/api/console/…`: the downline list (a parent's children, or a
//! search through every level with each hit's path), any downline account's header, statement,
//! bets, settled bets and P&L, and the market analysis with its bet list; and one write, the
//! downline's bulk action, which only calls the operator functions of the single-account
//! routes once per account.
//!
//! **Branch totals**: an agent's row stands for its branch, the agent and everyone under it.
//! With boss (400.00) → sub (250.00) → clients 200.00 and 100.00 (20.00 of it held for a bet),
//! boss's row shows its own 400.00 and its branch's balance 950.00, exposure 20.00, available
//! 930.00; a client's branch is itself.
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
use axum::response::Response;
use backlay_core::exchange::{BetSide, MarketStatus, MarketType};
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_store::downline::{
    DownlineQuery, DownlineRow, DownlineSort, Listing, MarketBetsQuery, Scope,
};
use backlay_store::ledger::TransactionKind;
use backlay_store::markets::MarketRow;
use backlay_store::users::{Role, User};
use backlay_store::StoreError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_api::bet::display_price;
use backlay_api::export::{
    list_answer, report_answer, Cell, CsvRow, Downloadable, DownloadableReport,
};
use backlay_api::matches::SEARCH_MAX_CHARS;
use backlay_api::report::{
    current_bets_answer, settled_bets_of, settled_rows, statement_answer, CurrentBetEntry,
    CurrentBetsRequest, SettledBetRow, StatementRequest, StatementRow,
};
use backlay_engine::stored_matched_bets;
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope, OrNotFound};
use backlay_kit::input::{choice_field, date_range, ApiJson, FlexI64, PageRequest, Paged, Paging};
use backlay_kit::market_analysis::house_position;
use backlay_live::market_book::FancyRange;
use backlay_operator::session::Operator;
use backlay_operator::AppState;
use backlay_operator::{self as operator, not_in_downline};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(downline_list))
        .routes(routes!(downline_bulk))
        .routes(routes!(account_summary))
        .routes(routes!(console_account_statement))
        .routes(routes!(account_bets))
        .routes(routes!(account_settled_bets))
        .routes(routes!(account_bet_history))
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

#[derive(Clone, Deserialize, ToSchema, Default)]
pub struct DownlineListRequest {
    /// Part of the user name, any case (at most 50 characters). Given: every account under the
    /// parent at any depth whose name holds it; absent or empty: the parent's direct children.
    #[serde(default)]
    pub search: Option<String>,
    /// name (default), balance, exposure, available, pnl or last_login; the amounts are the
    /// branch's (the account and everyone under it).
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

/// One step of the way down the tree to an account.
#[derive(Serialize, ToSchema)]
pub struct PathStep {
    pub user_id: i64,
    pub user_name: String,
}

fn steps(path: Vec<(i64, String)>) -> Vec<PathStep> {
    path.into_iter().map(|(user_id, user_name)| PathStep { user_id, user_name }).collect()
}

/// An account of the listing. Its own chips (`balance`, `exposure`, `available`) are what a
/// transfer moves; the `branch_…` figures sum the account and everyone under it (a client's
/// branch is itself), which is what an agent row stands for.
#[derive(Serialize, ToSchema)]
pub struct DownlineAccount {
    pub user_id: i64,
    pub user_name: String,
    pub role: Role,
    /// -1 for an account without a parent (the operator).
    pub parent_id: i64,
    /// An agent's partnership in percent (40 = 40%), cumulative from the bottom; 0 for a client.
    pub partnership: f64,
    /// The account's own chips.
    #[schema(value_type = f64)]
    pub balance: Money,
    /// Held for the account's own open bets.
    #[schema(value_type = f64)]
    pub exposure: Money,
    /// balance − exposure.
    #[schema(value_type = f64)]
    pub available: Money,
    /// The chips of the account and everyone under it.
    #[schema(value_type = f64)]
    pub branch_balance: Money,
    /// The exposure of the account and everyone under it.
    #[schema(value_type = f64)]
    pub branch_exposure: Money,
    /// branch_balance − branch_exposure.
    #[schema(value_type = f64)]
    pub branch_available: Money,
    /// Betting P&L of the account and everyone under it, as they see it: positive, the branch
    /// won from the house (see the module documentation).
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
    /// The account's own state (what unlocking it changes).
    pub status: AccountStatus,
    /// The agent above whose lock covers the account: it cannot log in whatever its own status
    /// says, until that agent is unlocked. Null: no lock above.
    #[schema(required = true)]
    pub locked_by: Option<String>,
    /// The agent above whose bet-lock covers the account: it cannot bet. Null: none above.
    #[schema(required = true)]
    pub bet_locked_by: Option<String>,
    /// The last log-in; null: never.
    #[schema(required = true)]
    pub last_login: Option<String>,
    /// How many accounts are directly under it.
    pub children: i64,
    /// From the first level under the listed parent down to this account (it last): one step
    /// for a child, more for a search hit deeper down.
    pub path: Vec<PathStep>,
}

impl From<DownlineRow> for DownlineAccount {
    fn from(row: DownlineRow) -> DownlineAccount {
        DownlineAccount {
            user_id: row.user_id,
            user_name: row.user_name,
            role: row.role,
            parent_id: row.parent_id.unwrap_or(-1),
            partnership: f64::from(row.partnership_bp) / 100.0,
            balance: Money::from_minor(row.balance_minor),
            exposure: Money::from_minor(row.exposure_minor),
            available: Money::from_minor(row.balance_minor - row.exposure_minor),
            branch_balance: Money::from_minor(row.branch.balance_minor),
            branch_exposure: Money::from_minor(row.branch.exposure_minor),
            branch_available: Money::from_minor(
                row.branch.balance_minor - row.branch.exposure_minor,
            ),
            pnl: Money::from_minor(row.pnl_minor),
            credit_reference: Money::from_minor(row.credit_reference_minor),
            max_stake: row.max_stake_minor.map(Money::from_minor),
            max_exposure: row.max_exposure_minor.map(Money::from_minor),
            status: match (row.is_locked, row.is_bet_locked) {
                (true, _) => AccountStatus::Locked,
                (false, true) => AccountStatus::BetLocked,
                (false, false) => AccountStatus::Active,
            },
            locked_by: row.locked_by,
            bet_locked_by: row.bet_locked_by,
            last_login: row.last_login_at_ms.map(iso_utc),
            children: row.children,
            path: steps(row.path),
        }
    }
}

/// The accounts directly under `parent_id` (default: the caller), or with `search` every
/// account under it at any depth with its path, each with its own chips and its branch's
/// (balance, exposure, available, P&L), partnership, terms, status and last log-in; sorted,
/// paged.
#[utoipa::path(post, path = "/console/downline/list", tag = "console", request_body = Downloadable<DownlineListRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<DownlineAccount>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 403),
        (status = 404, description = "parent_id is not in the caller's downline")))]
async fn downline_list(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Downloadable { request, page, format }: Downloadable<DownlineListRequest>,
) -> Result<Response, AppError> {
    let caller = authed.user;
    list_answer(format.parse()?, page, "downline", move |page| {
        let (state, caller, request) = (state.clone(), caller.clone(), request.clone());
        async move { downline_page(&state, &caller, &request, page).await }
    })
    .await
}

/// One page of the downline list as `caller` may read it.
async fn downline_page(
    state: &AppState,
    caller: &User,
    body: &DownlineListRequest,
    page: PageRequest,
) -> Result<Paged<DownlineAccount>, AppError> {
    let search = search_field("search", body.search.as_deref())?;
    let sort = choice_field("sort", body.sort.as_deref(), DownlineSort::Name, |text| {
        format!("{text} is not a sort: use {}.", one_of(DownlineSort::NAMES))
    })?;
    let order = choice_field("order", body.order.as_deref(), SortOrder::Asc, |text| {
        format!("{text} is not an order: use {}.", one_of(SortOrder::NAMES))
    })?;
    let (page, limit, offset) = page.resolve()?;
    let parent_id = match body.parent_id {
        Some(FlexI64(parent_id)) => readable_account(state, caller, parent_id).await?.id,
        None => caller.id,
    };
    let listing = if search.is_empty() {
        Listing::Children { parent_id, search }
    } else {
        Listing::Search { under_id: parent_id, search }
    };
    let query =
        DownlineQuery { listing, sort, descending: order == SortOrder::Desc, offset, limit };
    let (rows, total) = state.store.downline_page(&query).await?;
    let rows = rows.into_iter().map(DownlineAccount::from).collect();
    Ok(Paged { rows, total, page, limit })
}

impl CsvRow for DownlineAccount {
    const HEADER: &'static [&'static str] = &[
        "user_id",
        "user_name",
        "role",
        "path",
        "partnership",
        "balance",
        "exposure",
        "available",
        "branch_balance",
        "branch_exposure",
        "branch_available",
        "pnl",
        "credit_reference",
        "max_stake",
        "max_exposure",
        "status",
        "locked_by",
        "bet_locked_by",
        "last_login",
    ];

    fn cells(&self) -> Vec<Cell> {
        let path = self.path.iter().map(|step| step.user_name.as_str()).collect::<Vec<_>>();
        let limit = |money: Option<Money>| money.map_or(Cell::text(""), Cell::money);
        vec![
            Cell::int(self.user_id),
            Cell::text(&self.user_name),
            Cell::text(self.role.as_str()),
            Cell::text(path.join(" › ")),
            Cell::Figure(self.partnership.to_string()),
            Cell::money(self.balance),
            Cell::money(self.exposure),
            Cell::money(self.available),
            Cell::money(self.branch_balance),
            Cell::money(self.branch_exposure),
            Cell::money(self.branch_available),
            Cell::money(self.pnl),
            Cell::money(self.credit_reference),
            limit(self.max_stake),
            limit(self.max_exposure),
            Cell::text(self.status.as_str()),
            Cell::text(self.locked_by.clone().unwrap_or_default()),
            Cell::text(self.bet_locked_by.clone().unwrap_or_default()),
            Cell::Figure(self.last_login.clone().unwrap_or_default()),
        ]
    }
}

// ---------------------------------------------------------------------------------------------
// console/downline/bulk

/// Most accounts one bulk action names (a page of the downline list is 25 to 100).
pub const BULK_ACCOUNTS_MAX: usize = 100;

backlay_core::named_enum! {
    /// What a bulk action does to each account.
    pub enum BulkAction as "action" {
        /// Ends its sessions; it cannot log in until unlocked.
        Lock = "lock",
        Unlock = "unlock",
        /// Can log in, cannot bet.
        BetLock = "bet_lock",
        BetUnlock = "bet_unlock",
        /// Chips from the account's parent (the caller must be that parent, or an admin).
        GiveChips = "give_chips",
    }
}

#[derive(Deserialize, ToSchema)]
pub struct BulkRequest {
    /// The accounts, in the order to act on them (at most 100, each once).
    #[serde(default)]
    #[schema(value_type = Vec<i64>)]
    pub user_ids: Vec<FlexI64>,
    /// lock, unlock, bet_lock, bet_unlock or give_chips.
    #[serde(default)]
    #[schema(value_type = BulkAction)]
    pub action: Option<String>,
    /// give_chips: the chips each account gets.
    #[serde(default)]
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub amount: Option<backlay_kit::input::AmountInput>,
    /// give_chips: the remark on each transfer (at most 200 characters).
    #[serde(default)]
    pub remark: String,
}

/// What happened to one account of a bulk action.
#[derive(Serialize, ToSchema)]
pub struct BulkResult {
    pub user_id: i64,
    /// True: done; false: `message` says why not (nothing was changed on this account).
    pub ok: bool,
    pub message: String,
}

#[derive(Serialize, ToSchema)]
pub struct BulkOutcome {
    pub done: i64,
    pub failed: i64,
    /// One per account, in the order asked.
    pub results: Vec<BulkResult>,
}

/// Does one action to each account, in order, through the same operator functions as the
/// single-account calls (`admin/user/lock`, `admin/user/terms`, `admin/user/transfer`): each
/// account on its own, so one refused (outside the caller's downline, not its child for chips,
/// too few chips) leaves the others done; the answer says per account what happened.
#[utoipa::path(post, path = "/console/downline/bulk", tag = "console", request_body = BulkRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<BulkOutcome>), (status = 400), (status = 403)))]
async fn downline_bulk(
    State(state): State<AppState>,
    operator: Operator,
    ip: backlay_operator::session::ClientIp,
    ApiJson(body): ApiJson<BulkRequest>,
) -> ApiResult<BulkOutcome> {
    let action =
        body.action.as_deref().map(str::trim).filter(|text| !text.is_empty()).ok_or_else(|| {
            AppError::field("action", format!("Choose an action: {}.", one_of(BulkAction::NAMES)))
        })?;
    let action = action.parse::<BulkAction>().map_err(|_| {
        AppError::field(
            "action",
            format!("{action} is not an action: use {}.", one_of(BulkAction::NAMES)),
        )
    })?;
    if body.user_ids.is_empty() {
        return Err(AppError::field("user_ids", "Select at least one account."));
    }
    if body.user_ids.len() > BULK_ACCOUNTS_MAX {
        return Err(AppError::field(
            "user_ids",
            format!("Select at most {BULK_ACCOUNTS_MAX} accounts at a time."),
        ));
    }
    let mut seen = HashSet::new();
    if let Some(FlexI64(twice)) = body.user_ids.iter().find(|id| !seen.insert(id.0)) {
        return Err(AppError::field("user_ids", format!("Account {twice} is selected twice.")));
    }
    let amount = match (action, body.amount) {
        (BulkAction::GiveChips, Some(amount)) if amount.0.is_positive() => Some(amount.0),
        (BulkAction::GiveChips, _) => {
            return Err(AppError::field("amount", "Give an amount of chips more than 0."))
        }
        (_, _) => None,
    };
    if body.remark.chars().count() > 200 {
        return Err(AppError::field("remark", "Remark must be at most 200 characters."));
    }
    let ctx = backlay_api::operator_context(&state, operator, ip);
    let mut results = Vec::with_capacity(body.user_ids.len());
    for FlexI64(user_id) in body.user_ids {
        let done = match action {
            BulkAction::Lock | BulkAction::Unlock => {
                let locked = action == BulkAction::Lock;
                operator::set_locked(&ctx, user_id, locked).await.map(|user| {
                    let word = if locked { "locked" } else { "unlocked" };
                    format!("{} is {word}.", user.user_name)
                })
            }
            BulkAction::BetLock | BulkAction::BetUnlock => {
                let bet_locked = action == BulkAction::BetLock;
                let terms =
                    operator::AccountTerms { bet_locked: Some(bet_locked), ..Default::default() };
                operator::set_account_terms(&ctx, user_id, &terms).await.map(|user| {
                    let word = if bet_locked { "bet-locked" } else { "free to bet" };
                    format!("{} is {word}.", user.user_name)
                })
            }
            BulkAction::GiveChips => {
                let amount = amount.expect("give_chips was checked to carry an amount");
                operator::transfer(
                    &ctx,
                    user_id,
                    amount,
                    operator::TransferDirection::Deposit,
                    &body.remark,
                )
                .await
                .map(|outcome| {
                    format!(
                        "Given {}; balance now {}.",
                        amount.rupees(),
                        outcome.user_balance.rupees()
                    )
                })
            }
        };
        results.push(match done {
            Ok(message) => BulkResult { user_id, ok: true, message },
            Err(error) => {
                // A refusal is the account's answer; a server fault is logged here (it never
                // reaches the middleware, the request as a whole succeeds) and not shown.
                let message = if error.status_code().is_server_error() {
                    tracing::error!(user_id, cause = %error.cause_for_log(), "bulk action failed");
                    "Not done: the server could not do it now; try this account again.".to_string()
                } else {
                    error.to_string()
                };
                BulkResult { user_id, ok: false, message }
            }
        });
    }
    let done = results.iter().filter(|r| r.ok).count();
    let failed = results.len() - done;
    let message = if failed == 0 {
        format!("Done for all {done}.")
    } else {
        format!("{done} of {} done; {failed} not done.", results.len())
    };
    Ok(ok_with(
        message,
        BulkOutcome {
            done: i64::try_from(done).unwrap_or(i64::MAX),
            failed: i64::try_from(failed).unwrap_or(i64::MAX),
            results,
        },
    ))
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
async fn account_summary(
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
async fn console_account_statement(
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
async fn account_bets(
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
async fn account_settled_bets(
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
async fn account_bet_history(
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
async fn account_pnl(
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
