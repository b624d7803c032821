//! What an admin checks: the ledger against the bets (`admin/ledger/check`) and the audit log.

use axum::extract::State;
use axum::response::Response;
use backlay_core::money::Money;
use backlay_office_store::audit::{AuditFilter, AuditListed};
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_api::export::{list_answer, Cell, CsvRow, Downloadable};
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::input::{date_range, PageRequest, Paged};
use backlay_office_store::AuditLog;
use backlay_operator::session::Operator;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ledger_check)).routes(routes!(audit_log))
}

#[derive(Serialize, ToSchema)]
pub struct LedgerCheckData {
    pub sound: bool,
    pub accounts: i64,
    pub entries: i64,
    #[schema(value_type = f64)]
    pub total: Money,
    /// (account id, stored balance, sum of entries) in minor units.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub mismatched_accounts: Vec<(i64, i64, i64)>,
    pub unbalanced_transactions: Vec<i64>,
    pub overdrawn_accounts: Vec<i64>,
    /// (account id, stored exposure, sum of its exposures per market) in minor units, where the
    /// two differ.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub exposure_mismatches: Vec<(i64, i64, i64)>,
    /// (agent's user id, share account balance, sum of its partnership splits) in minor units,
    /// where the two differ.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub share_mismatches: Vec<(i64, i64, i64)>,
    /// (user id, cash account balance, net of its cash settlements) in minor units, where the
    /// two differ.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub cash_mismatches: Vec<(i64, i64, i64)>,
    /// Users whose exposure reserved in a live market is not what their stored bets there can
    /// lose at worst, as the engine computes it from the fills and live bets (at most 1,000).
    pub reserved_exposure_mismatches: Vec<ExposureMismatchItem>,
    /// Runners of live exchange markets where a resting back is at or below a resting lay: two
    /// orders that should have matched (at most 1,000).
    pub crossed_books: Vec<CrossedBookItem>,
    /// Chips in circulation: minus the issuance account.
    #[schema(value_type = f64)]
    pub chips_issued: Money,
}

/// A user's exposure in one live market that is not the worst case of their bets there.
#[derive(Serialize, ToSchema)]
pub struct ExposureMismatchItem {
    pub user_id: i64,
    pub user_name: String,
    pub market_id: i64,
    /// What is reserved (the funds check counts it as spent).
    #[schema(value_type = f64)]
    pub reserved: Money,
    /// What the user's stored bets in the market can lose at worst: what should be reserved.
    #[schema(value_type = f64)]
    pub worst_case: Money,
}

/// A runner whose best resting back is at or below its best resting lay, with the oldest order
/// at each of the two prices.
#[derive(Serialize, ToSchema)]
pub struct CrossedBookItem {
    pub market_id: i64,
    pub selection_id: i64,
    /// Decimal odds, e.g. 1.97.
    pub back_price: f64,
    /// Decimal odds, at least `back_price`.
    pub lay_price: f64,
    pub back_bet_id: i64,
    pub lay_bet_id: i64,
}

/// Decimal odds of a price stored in hundredths. Not through `Price`: a crossed book may hold
/// a price off the ladder, and the check shows what is stored.
fn decimal_odds(hundredths: i64) -> f64 {
    hundredths as f64 / 100.0
}

/// Verifies the ledger: every balance is the sum of its entries, every transaction sums to
/// zero, no account is overdrawn, every exposure is the sum of its markets and every share
/// account the sum of its splits, every cash account the sum of its cash settlements; and in every live market, each user's reserved exposure is
/// the worst case of their stored bets and no resting back is at or below a resting lay.
#[utoipa::path(get, path = "/admin/ledger/check", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<LedgerCheckData>), (status = 403)))]
async fn ledger_check(
    State(state): State<AppState>,
    Operator(authed): Operator,
) -> ApiResult<LedgerCheckData> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin can check the ledger.".into()));
    }
    let check = state.store.ledger_check().await?;
    let issuance =
        state.store.system_balance(backlay_store::ledger::SystemAccount::Issuance).await?;
    Ok(ok(LedgerCheckData {
        sound: check.is_sound(),
        accounts: check.accounts,
        entries: check.entries,
        total: Money::from_minor(check.total_minor),
        mismatched_accounts: check.mismatched_accounts,
        unbalanced_transactions: check.unbalanced_transactions,
        overdrawn_accounts: check.overdrawn_accounts,
        exposure_mismatches: check.exposure_mismatches,
        share_mismatches: check.share_mismatches,
        cash_mismatches: check.cash_mismatches,
        reserved_exposure_mismatches: check
            .reserved_exposure_mismatches
            .into_iter()
            .map(|m| ExposureMismatchItem {
                user_id: m.user_id,
                user_name: m.user_name,
                market_id: m.market_id,
                reserved: Money::from_minor(m.reserved_minor),
                worst_case: Money::from_minor(m.worst_case_minor),
            })
            .collect(),
        crossed_books: check
            .crossed_books
            .into_iter()
            .map(|c| CrossedBookItem {
                market_id: c.market_id,
                selection_id: c.runner_id,
                back_price: decimal_odds(c.back_price),
                lay_price: decimal_odds(c.lay_price),
                back_bet_id: c.back_bet_id,
                lay_bet_id: c.lay_bet_id,
            })
            .collect(),
        chips_issued: Money::from_minor(-issuance),
    }))
}

#[derive(Clone, Deserialize, ToSchema, Default)]
pub struct AuditRequest {
    /// Only what this user (by name) did.
    #[serde(default)]
    pub actor: Option<String>,
    /// An action (`chips.transfer`) or its area (`chips`: every `chips.…` action).
    #[serde(default)]
    #[schema(max_length = 60)]
    pub action: Option<String>,
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct AuditRow {
    pub id: i64,
    /// -1 for the console or the system.
    pub actor_user_id: i64,
    /// The acting user's name; "" for the console or the system.
    pub actor_name: String,
    pub action: String,
    /// Whom: `user:<id>`, `market:<id>`, `payment_request:<id>`…
    pub target: String,
    /// What the target names: the account (`user:`), the market, the match, or the account
    /// that asked (`payment_request:`); "" for other targets.
    pub target_name: String,
    /// The rest: names beside ids, before → after, money in rupees.
    #[schema(value_type = Object)]
    pub detail: serde_json::Value,
    #[schema(required = true)]
    pub client_ip: Option<String>,
    pub date: String,
}

/// The audit log, newest first, filtered by who, what and when (admin only).
#[utoipa::path(post, path = "/admin/audit", tag = "admin", request_body = Downloadable<AuditRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<AuditRow>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 403)))]
async fn audit_log(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Downloadable { request, page, format }: Downloadable<AuditRequest>,
) -> Result<Response, AppError> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin can read the audit log.".into()));
    }
    list_answer(format.parse()?, page, "audit", move |page| {
        let (state, request) = (state.clone(), request.clone());
        async move { audit_page(&state, request, page).await }
    })
    .await
}

async fn audit_page(
    state: &AppState,
    request: AuditRequest,
    page: PageRequest,
) -> Result<Paged<AuditRow>, AppError> {
    let (page, limit, offset) = page.resolve()?;
    let filter = audit_filter(state, request).await?;
    let (entries, total) = state.store.audit_entries(&filter, offset, limit).await?;
    let rows = entries
        .into_iter()
        .map(|AuditListed { entry: e, actor_name, target_name }| AuditRow {
            id: e.id,
            actor_user_id: e.actor_user_id.unwrap_or(-1),
            actor_name: actor_name.unwrap_or_default(),
            action: e.action,
            target: e.target,
            target_name: target_name.unwrap_or_default(),
            detail: serde_json::from_str(&e.detail).unwrap_or(serde_json::Value::Null),
            client_ip: e.client_ip,
            date: iso_utc(e.created_at_ms),
        })
        .collect();
    Ok(Paged { rows, total, page, limit })
}

impl CsvRow for AuditRow {
    const HEADER: &'static [&'static str] = &[
        "date",
        "id",
        "actor_user_id",
        "actor_name",
        "action",
        "target",
        "target_name",
        "client_ip",
        "detail",
    ];

    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::Figure(self.date.clone()),
            Cell::int(self.id),
            Cell::int(self.actor_user_id),
            Cell::text(&self.actor_name),
            Cell::text(&self.action),
            Cell::text(&self.target),
            Cell::text(&self.target_name),
            Cell::text(self.client_ip.clone().unwrap_or_default()),
            // The detail as its JSON text: a spreadsheet shows it whole.
            Cell::text(self.detail.to_string()),
        ]
    }
}

/// The request's filters, each refused on its own field when it cannot pick anything.
async fn audit_filter(state: &AppState, body: AuditRequest) -> Result<AuditFilter, AppError> {
    let (from_ms, to_ms) = date_range(&body.from_date, &body.to_date, (0, i64::MAX))?;
    let action = body.action.map(|a| a.trim().to_lowercase()).filter(|a| !a.is_empty());
    if let Some(action) = &action {
        let known = |c: char| c.is_ascii_lowercase() || c == '_' || c == '.';
        if action.chars().count() > 60 || !action.chars().all(known) {
            return Err(AppError::field(
                "action",
                "action is an action such as chips.transfer, or its area such as chips.",
            ));
        }
    }
    let actor_user_id =
        match body.actor.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
            None => None,
            Some(name) => Some(state.store.user_id_by_name(name).await?.ok_or_else(|| {
                AppError::field("actor", format!("There is no user named {name}."))
            })?),
        };
    Ok(AuditFilter { actor_user_id, action, from_ms, to_ms })
}
