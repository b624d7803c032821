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
//!
//! One file a part: [`downline`] (the list and the bulk action), [`account`] (one account's
//! header, statement, bets and P&L), [`market`] (the live matches, a market's analysis and bets).

mod account;
mod downline;
mod market;

pub(crate) use market::live_matches_with_markets;

use backlay_store::downline::Scope;
use backlay_store::users::{Role, User};
use backlay_store::StoreError;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_api::matches::SEARCH_MAX_CHARS;
use backlay_kit::error::AppError;
use backlay_operator::not_in_downline;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(downline::downline_list))
        .routes(routes!(downline::downline_bulk))
        .routes(routes!(account::account_summary))
        .routes(routes!(account::console_account_statement))
        .routes(routes!(account::account_bets))
        .routes(routes!(account::account_settled_bets))
        .routes(routes!(account::account_bet_history))
        .routes(routes!(account::account_pnl))
        .routes(routes!(market::live_matches))
        .routes(routes!(market::market_analysis))
        .routes(routes!(market::market_bets))
}

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
