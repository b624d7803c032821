//! `console/downline/list` (a parent's children, or a search through every level) and
//! `console/downline/bulk` (one action on many accounts).

use std::collections::HashSet;

use axum::extract::State;
use axum::response::Response;
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_store::downline::{DownlineQuery, DownlineRow, DownlineSort, Listing};
use backlay_store::users::{Role, User};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use backlay_api::export::{list_answer, Cell, CsvRow, Downloadable};
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{choice_field, ApiJson, FlexI64, PageRequest, Paged};
use backlay_operator::session::Operator;
use backlay_operator::AppState;
use backlay_operator::{self as operator};

use super::{readable_account, search_field};

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

pub(super) fn steps(path: Vec<(i64, String)>) -> Vec<PathStep> {
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
pub(super) async fn downline_list(
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
pub(super) async fn downline_bulk(
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
