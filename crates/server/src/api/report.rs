//! Reports of the caller's own money and bets: the account statement (every ledger entry with
//! its running balance), current bets, and live casino bets (the provider wallet calls). A user
//! only ever sees their own.

use axum::extract::State;
use backlay_core::money::Money;
use backlay_store::wallet::{LiveCasinoLine, ProviderRoundState, WalletKind};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::bet::{bet_item, BetItem};
use crate::clock::{iso_utc, parse_report_date};
use crate::error::{ok, ApiResult, AppError, Envelope};
use crate::input::{Paged, Paging};
use crate::session::CurrentUser;
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(account_statement))
        .routes(routes!(current_bets))
        .routes(routes!(live_casino_bets))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct StatementRequest {
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
    /// all (default), deposit_withdraw, sports or casino.
    #[serde(default, rename = "type")]
    #[schema(pattern = "^(all|deposit_withdraw|sports|casino)$")]
    pub statement_type: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct StatementRow {
    pub date: String,
    pub description: String,
    #[schema(value_type = f64)]
    pub credit: Money,
    #[schema(value_type = f64)]
    pub debit: Money,
    /// The balance right after this line.
    #[schema(value_type = f64)]
    pub balance: Money,
    pub remark: String,
    /// deposit, withdraw, settlement, mint …
    pub kind: String,
}

fn date_bound(
    field: &str,
    text: &Option<String>,
    end_of_day: bool,
    default: i64,
) -> Result<i64, AppError> {
    match text.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(default),
        Some(text) => parse_report_date(text, end_of_day).ok_or_else(|| {
            AppError::field(field, format!("{field} must be a date such as 2026-11-22."))
        }),
    }
}

#[utoipa::path(post, path = "/report/accountStatement", tag = "user", request_body = Paging<StatementRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<StatementRow>>), (status = 400), (status = 401)))]
async fn account_statement(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Paging { request: body, page }: Paging<StatementRequest>,
) -> ApiResult<Paged<StatementRow>> {
    let from_ms = date_bound("from_date", &body.from_date, false, 0)?;
    let to_ms = date_bound("to_date", &body.to_date, true, i64::MAX)?;
    if from_ms > to_ms {
        return Err(AppError::field("to_date", "to_date must not be before from_date."));
    }
    let kinds = match body.statement_type.as_deref().map(str::trim).unwrap_or("all") {
        "all" | "" => "",
        "deposit_withdraw" => "deposit,withdraw",
        "sports" => "settlement,void",
        "casino" => "casino,live_casino",
        other => {
            return Err(AppError::field(
                "type",
                format!(
                    "{other} is not a statement type: use all, deposit_withdraw, sports or casino."
                ),
            ))
        }
    };
    let (page, limit, offset) = page.resolve()?;
    let (lines, total) =
        state.store.statement(authed.user.id, from_ms, to_ms, kinds, offset, limit).await?;
    let rows = lines
        .into_iter()
        .map(|line| StatementRow {
            date: iso_utc(line.created_at_ms),
            description: line.description,
            credit: Money::from_minor(line.amount_minor.max(0)),
            debit: Money::from_minor((-line.amount_minor).max(0)),
            balance: Money::from_minor(line.balance_after_minor),
            remark: line.remark,
            kind: line.kind,
        })
        .collect();
    Ok(ok(Paged { rows, total, page, limit }))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct CurrentBetsRequest {
    /// sports (default) or casino.
    #[serde(default, rename = "type")]
    #[schema(pattern = "^(sports|casino)$")]
    pub bet_type: Option<String>,
    /// matched (default) or unmatched.
    #[serde(default)]
    #[schema(pattern = "^(matched|unmatched)$")]
    pub status: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CurrentBetRow {
    /// The bet as openBets shows it.
    #[serde(flatten)]
    pub bet: BetItem,
    pub match_id: i64,
    pub match_name: String,
    pub market_name: String,
    #[schema(required = true)]
    pub selection_name: Option<String>,
}

/// A row of current bets: a sports bet, or (with `type: casino`) a casino bet whose round has
/// not settled yet.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum CurrentBetEntry {
    Sports(CurrentBetRow),
    Casino(super::casino::CasinoBetItem),
}

#[utoipa::path(post, path = "/report/currentBets", tag = "user", request_body = Paging<CurrentBetsRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<CurrentBetEntry>>), (status = 400), (status = 401)))]
async fn current_bets(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Paging { request: body, page }: Paging<CurrentBetsRequest>,
) -> ApiResult<Paged<CurrentBetEntry>> {
    let unmatched = match body.status.as_deref().map(str::trim).unwrap_or("matched") {
        "matched" | "" => false,
        "unmatched" => true,
        other => {
            return Err(AppError::field("status", format!("{other} is not matched or unmatched.")))
        }
    };
    let (page, limit, offset) = page.resolve()?;
    match body.bet_type.as_deref().map(str::trim).unwrap_or("sports") {
        "sports" | "" => {}
        // Casino bets are taken whole at the posted odds: none is ever unmatched.
        "casino" if unmatched => return Ok(ok(Paged { rows: Vec::new(), total: 0, page, limit })),
        "casino" => {
            let (bets, total) =
                super::casino::current_casino_bets(&state, authed.user.id, offset, limit).await?;
            let rows = bets.into_iter().map(CurrentBetEntry::Casino).collect();
            return Ok(ok(Paged { rows, total, page, limit }));
        }
        other => return Err(AppError::field("type", format!("{other} is not sports or casino."))),
    }
    let (bets, total) = state.store.current_bets(authed.user.id, unmatched, offset, limit).await?;
    let rows = bets
        .into_iter()
        .map(|current| {
            CurrentBetEntry::Sports(CurrentBetRow {
                bet: bet_item(&current.bet, current.market_type),
                match_id: current.match_id,
                match_name: current.match_name,
                market_name: current.market_name,
                selection_name: current.selection_name,
            })
        })
        .collect();
    Ok(ok(Paged { rows, total, page, limit }))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct LiveCasinoBetsRequest {
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
}

/// One wallet call of a provider's on the caller's money.
#[derive(Serialize, ToSchema)]
pub struct LiveCasinoBetRow {
    pub id: i64,
    pub date: String,
    pub provider_name: String,
    pub game_name: String,
    pub game_code: String,
    /// The provider's round.
    pub round_id: String,
    /// The provider's id for the call.
    pub transaction_id: String,
    /// debit (a stake), credit (a payout) or rollback (a stake returned).
    pub kind: String,
    #[schema(value_type = f64)]
    pub debit: Money,
    #[schema(value_type = f64)]
    pub credit: Money,
    #[schema(value_type = f64)]
    pub amount: Money,
    /// A debit: open, settled or rolled back; a credit: won or lost; a rollback: refund.
    pub status: String,
}

fn live_casino_row(line: LiveCasinoLine) -> LiveCasinoBetRow {
    let amount = Money::from_minor(line.amount_minor);
    let (debit, credit, status) = match line.kind {
        WalletKind::Debit => {
            let status = match (line.rolled_back_by.is_some(), line.round_state) {
                (true, _) | (false, ProviderRoundState::RolledBack) => "rolled back",
                (false, ProviderRoundState::Open) => "open",
                (false, ProviderRoundState::Settled) => "settled",
            };
            (amount, Money::ZERO, status)
        }
        WalletKind::Credit => {
            (Money::ZERO, amount, if line.amount_minor > 0 { "won" } else { "lost" })
        }
        WalletKind::Rollback => (Money::ZERO, amount, "refund"),
    };
    LiveCasinoBetRow {
        id: line.id,
        date: iso_utc(line.created_at_ms),
        provider_name: line.provider_name,
        game_name: line.game_name.unwrap_or_else(|| line.game_code.clone()),
        game_code: line.game_code,
        round_id: line.round_ref,
        transaction_id: line.provider_tx_id,
        kind: line.kind.as_str().to_string(),
        debit,
        credit,
        amount,
        status: status.to_string(),
    }
}

#[utoipa::path(post, path = "/report/liveCasinoBets", tag = "user", request_body = Paging<LiveCasinoBetsRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<LiveCasinoBetRow>>), (status = 400), (status = 401)))]
async fn live_casino_bets(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Paging { request: body, page }: Paging<LiveCasinoBetsRequest>,
) -> ApiResult<Paged<LiveCasinoBetRow>> {
    let from_ms = date_bound("from_date", &body.from_date, false, 0)?;
    let to_ms = date_bound("to_date", &body.to_date, true, i64::MAX)?;
    if from_ms > to_ms {
        return Err(AppError::field("to_date", "to_date must not be before from_date."));
    }
    let (page, limit, offset) = page.resolve()?;
    let (lines, total) =
        state.store.live_casino_lines(authed.user.id, from_ms, to_ms, offset, limit).await?;
    Ok(ok(Paged { rows: lines.into_iter().map(live_casino_row).collect(), total, page, limit }))
}
