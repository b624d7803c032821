//! The partnership report (`console/report/partnership`): an admin's or agent's P&L with its
//! downline, split by partnership, and who owes whom after settlement (the collection report).
//!
//! Read from the `partnership_splits` rows every settlement writes (store::partnership), through
//! `backlay_core::partnership::downline_report`. Per direct child of the account reported on:
//! the house's result against the clients under it, what the agents under it took, what the
//! account took (its share), what its upline took, and what the child owes the account after
//! settlement. The figures balance: what the children owe, less what the account owes its
//! parent, less its share, is zero. Per market: the house's result and the account's share.
//!
//! **Cash settled** (`console/collection/settle`, [`backlay_operator::settle_cash`],
//! `backlay_store::cash`): each row also says how much cash the account and the child settled in
//! the same period (`settled`, positive: the account received it), when last, and what is still
//! to collect (`remaining` = `collect` − `settled`); the account's own settlements with its
//! parent likewise (`upline_settled`, `upline_remaining`). Settlements belong to no market, so a
//! report of one match or market counts none. A child with settlements but no result in the
//! period still has a row (collect 0, remaining −settled).
//!
//! The house's result is the house's own markets (bookmaker, fancy, in-house casino) and the
//! commission on exchange winnings; exchange money matched between clients moves between them
//! and is in neither.

use std::collections::HashMap;

use axum::extract::State;
use axum::response::Response;
use backlay_core::money::Money;
use backlay_core::partnership::downline_report;
use backlay_store::cash::Settled;
use backlay_store::partnership::SplitFilter;
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::console::readable_account;
use backlay_api::operator_context;

use backlay_api::export::{report_answer, Cell, CsvRow, DownloadableReport};
use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{date_range, AmountInput, ApiJson, FlexI64};
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{self as operator, CashDirection};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(partnership_report)).routes(routes!(settle_cash))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct PartnershipReportRequest {
    /// The account reported on: the caller (default) or an agent of its downline.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub user_id: Option<FlexI64>,
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
    /// Only this match's markets.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub match_id: Option<FlexI64>,
    /// Only this market.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub market_id: Option<FlexI64>,
}

/// One direct child's figures. Money: positive when the clients lost.
#[derive(Serialize, ToSchema)]
pub struct PartnershipRow {
    pub user_id: i64,
    pub user_name: String,
    pub role: Role,
    /// The child's partnership in percent (agents).
    pub partnership: f64,
    /// The house's result against every client under the child.
    #[schema(value_type = f64)]
    pub house_result: Money,
    /// What the agents at or under the child took.
    #[schema(value_type = f64)]
    pub downline_share: Money,
    /// What the account reported on took.
    #[schema(value_type = f64)]
    pub own_share: Money,
    /// What the agents above it and the operator took.
    #[schema(value_type = f64)]
    pub upline_share: Money,
    /// What the child owes the account after settlement (negative: is owed).
    #[schema(value_type = f64)]
    pub collect: Money,
    /// Cash the account and the child settled in the period (positive: the account received).
    #[schema(value_type = f64)]
    pub settled: Money,
    /// When the period's last cash settlement with the child was recorded (ISO-8601 UTC).
    #[schema(required = true)]
    pub last_settled_at: Option<String>,
    /// collect − settled: what is still to collect (negative: still to pay).
    #[schema(value_type = f64)]
    pub remaining: Money,
}

#[derive(Serialize, ToSchema)]
pub struct PartnershipMarketRow {
    /// -1 for the in-house casino's rounds.
    pub market_id: i64,
    /// The market's match; null for the casino's rounds.
    #[schema(required = true)]
    pub match_id: Option<i64>,
    /// "Match / Market" or "Casino".
    pub name: String,
    #[schema(value_type = f64)]
    pub house_result: Money,
    #[schema(value_type = f64)]
    pub own_share: Money,
}

#[derive(Serialize, ToSchema)]
pub struct PartnershipReport {
    pub user_id: i64,
    pub user_name: String,
    /// The account's partnership in percent (the operator: 100).
    pub partnership: f64,
    pub rows: Vec<PartnershipRow>,
    /// The account's share over every child.
    #[schema(value_type = f64)]
    pub own_share: Money,
    /// What the children owe the account in all.
    #[schema(value_type = f64)]
    pub collect_total: Money,
    /// What the account owes its parent (negative: is owed); 0 for the operator.
    #[schema(value_type = f64)]
    pub pay_upline: Money,
    /// Cash settled with the children in the period in all (positive: received).
    #[schema(value_type = f64)]
    pub settled_total: Money,
    /// collect_total − settled_total.
    #[schema(value_type = f64)]
    pub remaining_total: Money,
    /// Cash the account paid its parent in the period (negative: received from it).
    #[schema(value_type = f64)]
    pub upline_settled: Money,
    /// pay_upline − upline_settled: what the account still owes its parent.
    #[schema(value_type = f64)]
    pub upline_remaining: Money,
    /// collect_total − pay_upline − own_share: always 0 (the report is checked before it is
    /// sent).
    #[schema(value_type = f64)]
    pub balance: Money,
    pub markets: Vec<PartnershipMarketRow>,
}

/// The P&L of an account with its downline, split by partnership, and the collection report.
#[utoipa::path(post, path = "/console/report/partnership", tag = "admin", request_body = DownloadableReport<PartnershipReportRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<PartnershipReport> = "application/json"), (String = "text/csv"))), (status = 400), (status = 401), (status = 403), (status = 404)))]
async fn partnership_report(
    State(state): State<AppState>,
    Operator(authed): Operator,
    DownloadableReport { request: body, format }: DownloadableReport<PartnershipReportRequest>,
) -> Result<Response, AppError> {
    let format = format.parse()?;
    let (from_ms, to_ms) = date_range(&body.from_date, &body.to_date, (0, i64::MAX))?;
    let caller = &authed.user;
    let account =
        readable_account(&state, caller, body.user_id.map_or(caller.id, |id| id.0)).await?;
    if account.role == Role::Client {
        return Err(AppError::field(
            "user_id",
            format!("{} is a client: it has no downline.", account.user_name),
        ));
    }
    let is_operator = account.role == Role::Admin;
    let filter = SplitFilter {
        from_ms,
        to_ms,
        match_id: body.match_id.map(|id| id.0),
        market_id: body.market_id.map(|id| id.0),
    };
    // One read of the tree gives each child's parent and its name, role and partnership.
    let tree = state.store.downline_tree(account.id).await?;
    let parent_of: HashMap<i64, i64> =
        tree.iter().map(|(id, node)| (*id, node.parent_id)).collect();
    let markets = state.store.split_lines_under(account.id, filter).await?;
    let all_lines: Vec<_> = markets.iter().flat_map(|m| m.lines.iter().copied()).collect();
    let report = downline_report(account.id, is_operator, &parent_of, &all_lines);
    if report.imbalance_minor() != 0 {
        return Err(AppError::Internal(anyhow::anyhow!(
            "the partnership report of user {} does not balance: {report:?}",
            account.id
        )));
    }
    // Settlements belong to no market: a report of one match or market counts none.
    let by_market = filter.match_id.is_some() || filter.market_id.is_some();
    let mut settled = if by_market {
        HashMap::new()
    } else {
        state.store.cash_settled_with_children(account.id, from_ms, to_ms).await?
    };
    let upline_settled = match (by_market, is_operator) {
        (false, false) => state.store.cash_settled_with_parent(account.id, from_ms, to_ms).await?,
        _ => Settled::default(),
    };
    let mut rows: Vec<PartnershipRow> = report
        .children
        .iter()
        .map(|child| {
            let node = &tree[&child.child_id];
            let cash = settled.remove(&child.child_id).unwrap_or_default();
            PartnershipRow {
                user_id: child.child_id,
                user_name: node.user_name.clone(),
                role: node.role,
                partnership: f64::from(node.partnership_bp) / 100.0,
                house_result: Money::from_minor(child.house_result_minor),
                downline_share: Money::from_minor(child.downline_share_minor),
                own_share: Money::from_minor(child.own_share_minor),
                upline_share: Money::from_minor(child.upline_share_minor),
                collect: Money::from_minor(child.collect_minor),
                settled: Money::from_minor(cash.amount_minor),
                last_settled_at: cash.last_at_ms.map(iso_utc),
                remaining: Money::from_minor(child.collect_minor - cash.amount_minor),
            }
        })
        .collect();
    // Children settled with in the period but without a result in it.
    let mut settled_only: Vec<_> = settled.into_iter().collect();
    settled_only.sort_unstable_by_key(|(child_id, _)| *child_id);
    for (child_id, cash) in settled_only {
        let Some(node) = tree.get(&child_id) else { continue };
        rows.push(PartnershipRow {
            user_id: child_id,
            user_name: node.user_name.clone(),
            role: node.role,
            partnership: f64::from(node.partnership_bp) / 100.0,
            house_result: Money::ZERO,
            downline_share: Money::ZERO,
            own_share: Money::ZERO,
            upline_share: Money::ZERO,
            collect: Money::ZERO,
            settled: Money::from_minor(cash.amount_minor),
            last_settled_at: cash.last_at_ms.map(iso_utc),
            remaining: Money::from_minor(-cash.amount_minor),
        });
    }
    let settled_total_minor: i64 = rows.iter().map(|row| row.settled.minor()).sum();
    let collect_total_minor: i64 = report.children.iter().map(|c| c.collect_minor).sum();
    let markets = markets
        .iter()
        .map(|market| {
            let figures = downline_report(account.id, is_operator, &parent_of, &market.lines);
            PartnershipMarketRow {
                market_id: market.market_id.unwrap_or(-1),
                match_id: market.match_id,
                name: market.label.clone(),
                house_result: Money::from_minor(
                    figures.children.iter().map(|c| c.house_result_minor).sum(),
                ),
                own_share: Money::from_minor(figures.own_share_minor),
            }
        })
        .collect();
    let report = PartnershipReport {
        user_id: account.id,
        user_name: account.user_name,
        partnership: if is_operator { 100.0 } else { f64::from(account.partnership_bp) / 100.0 },
        rows,
        own_share: Money::from_minor(report.own_share_minor),
        collect_total: Money::from_minor(collect_total_minor),
        pay_upline: Money::from_minor(report.pay_upline_minor),
        settled_total: Money::from_minor(settled_total_minor),
        remaining_total: Money::from_minor(collect_total_minor - settled_total_minor),
        // The account's settlements with its parent are stored from the parent's side.
        upline_settled: Money::from_minor(upline_settled.amount_minor),
        upline_remaining: Money::from_minor(report.pay_upline_minor - upline_settled.amount_minor),
        balance: Money::from_minor(report.imbalance_minor()),
        markets,
    };
    // The download is the collection report: one row per direct child.
    report_answer(format, "collection", report, |report| report.rows.iter().collect())
}

impl CsvRow for PartnershipRow {
    const HEADER: &'static [&'static str] = &[
        "user_id",
        "user_name",
        "role",
        "partnership",
        "house_result",
        "downline_share",
        "own_share",
        "upline_share",
        "collect",
        "settled",
        "last_settled_at",
        "remaining",
    ];

    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::int(self.user_id),
            Cell::text(&self.user_name),
            Cell::text(self.role.as_str()),
            Cell::Figure(self.partnership.to_string()),
            Cell::money(self.house_result),
            Cell::money(self.downline_share),
            Cell::money(self.own_share),
            Cell::money(self.upline_share),
            Cell::money(self.collect),
            Cell::money(self.settled),
            Cell::Figure(self.last_settled_at.clone().unwrap_or_default()),
            Cell::money(self.remaining),
        ]
    }
}

#[derive(Deserialize, ToSchema)]
pub struct SettleCashRequest {
    /// A direct child of the caller.
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// More than 0, at most 2 decimals, at most what is owed in that direction.
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub amount: AmountInput,
    /// received (the child paid the caller) or paid (the caller paid the child).
    pub direction: CashDirection,
    /// At most 200 characters.
    #[serde(default)]
    pub remark: String,
}

#[derive(Serialize, ToSchema)]
pub struct SettleCashData {
    pub settlement_id: i64,
    pub transaction_id: i64,
    pub user_id: i64,
    pub user_name: String,
    /// What the child owed the caller before (negative: was owed), over all time.
    #[schema(value_type = f64)]
    pub owed_before: Money,
    /// And now.
    #[schema(value_type = f64)]
    pub owed_after: Money,
}

/// Records cash received from a direct child (or paid to it) against what the collection report
/// says it owes: a ledger entry between the two accounts' cash books (no chips move), shown in
/// both statements and in the report, audited. Never more than is owed.
#[utoipa::path(post, path = "/console/collection/settle", tag = "console", request_body = SettleCashRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<SettleCashData>), (status = 400), (status = 401), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
async fn settle_cash(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<SettleCashRequest>,
) -> ApiResult<SettleCashData> {
    let ctx = operator_context(&state, operator, ip);
    let done =
        operator::settle_cash(&ctx, body.user_id.0, body.amount.0, body.direction, &body.remark)
            .await?;
    let message = match body.direction {
        CashDirection::Received => {
            format!("Cash {} received from {}.", body.amount.0.rupees(), done.child.user_name)
        }
        CashDirection::Paid => {
            format!("Cash {} paid to {}.", body.amount.0.rupees(), done.child.user_name)
        }
    };
    Ok(ok_with(
        message,
        SettleCashData {
            settlement_id: done.settlement_id,
            transaction_id: done.transaction_id,
            user_id: done.child.id,
            user_name: done.child.user_name.to_string(),
            owed_before: done.owed_before,
            owed_after: done.owed_after,
        },
    ))
}
