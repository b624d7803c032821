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
//! The house's result is the house's own markets (bookmaker, fancy, in-house casino) and the
//! commission on exchange winnings; exchange money matched between clients moves between them
//! and is in neither.

use std::collections::HashMap;

use axum::extract::State;
use backlay_core::money::Money;
use backlay_core::partnership::downline_report;
use backlay_store::partnership::SplitFilter;
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::console::readable_account;

use crate::error::{ok, ApiResult, AppError, Envelope};
use crate::input::{date_bound, ApiJson, FlexI64};
use crate::session::Operator;
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(partnership_report))
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
    /// collect_total − pay_upline − own_share: always 0 (the report is checked before it is
    /// sent).
    #[schema(value_type = f64)]
    pub balance: Money,
    pub markets: Vec<PartnershipMarketRow>,
}

/// The P&L of an account with its downline, split by partnership, and the collection report.
#[utoipa::path(post, path = "/console/report/partnership", tag = "admin", request_body = PartnershipReportRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<PartnershipReport>), (status = 400), (status = 401), (status = 403), (status = 404)))]
async fn partnership_report(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<PartnershipReportRequest>,
) -> ApiResult<PartnershipReport> {
    let from_ms = date_bound("from_date", &body.from_date, false, 0)?;
    let to_ms = date_bound("to_date", &body.to_date, true, i64::MAX)?;
    if to_ms < from_ms {
        return Err(AppError::field("to_date", "to_date must not be before from_date."));
    }
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
    let rows = report
        .children
        .iter()
        .map(|child| {
            let node = &tree[&child.child_id];
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
            }
        })
        .collect();
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
    Ok(ok(PartnershipReport {
        user_id: account.id,
        user_name: account.user_name,
        partnership: if is_operator { 100.0 } else { f64::from(account.partnership_bp) / 100.0 },
        rows,
        own_share: Money::from_minor(report.own_share_minor),
        collect_total: Money::from_minor(report.children.iter().map(|c| c.collect_minor).sum()),
        pay_upline: Money::from_minor(report.pay_upline_minor),
        balance: Money::from_minor(report.imbalance_minor()),
        markets,
    }))
}
