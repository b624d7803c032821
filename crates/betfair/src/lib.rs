//! A Betfair-compatible API for traders' programs (issue 17; docs/bot-api.md): a subset of
//! Betfair's Exchange API (API-NG) at fixed paths, so that a bot written against
//! betfairlightweight or flumine is pointed at Backlay by changing its URLs and nothing else.
//!
//! - `POST /betfair/identity/{login,certlogin,keepAlive,logout}`: [`identity`]. A bot is a client
//!   account; its session is a Backlay session, sent back as `X-Authentication`.
//! - `POST /betfair/exchange/{betting,account}/json-rpc/v1` and the REST form
//!   `POST /betfair/exchange/{betting,account}/rest/v1.0/<operation>/`: [`rpc`], which hands each
//!   operation to the module that answers it ([`catalogue`] for the reads of the catalogue and
//!   the books).
//!
//! Everything runs over the same engine, ledger and accounts as the web app: a bot's bets show
//! in the client app and the other way round. Only exchange markets (match odds, win, place)
//! are exposed; bookmaker, fancy and casino markets are not.
//!
//! How Backlay's things are named here, in Betfair's forms (the libraries parse these shapes
//! strictly: an unknown key or a date in another form fails them):
//! - a market id is `"1.<id>"` (`"1.40"` is market 40); `"40"` is taken too;
//! - event ids (matches), competition ids (series) and bet ids are the id as a string, event
//!   type ids are Backlay's sport ids, which follow Betfair's (4 cricket, 7 horse racing, 4339
//!   greyhounds);
//! - a selection id is the runner's id, a number; handicap is always 0;
//! - money is in rupees with two decimals, prices on the same ladder as the web app;
//! - dates are `2030-01-01T10:00:00.000Z` (milliseconds and `Z`, as Betfair writes them).

mod account;
mod catalogue;
mod identity;
mod orders;
mod rpc;
pub mod stream;

use axum::http::HeaderMap;
use axum::Router;
use backlay_core::exchange::MarketType;
use backlay_store::users::{Role, User};
use serde_json::Value;

use backlay_kit::clock::now_ms;
use backlay_operator::session::token_hash;
use backlay_operator::AppState;
use rpc::ApiNgError;

/// The Betfair-compatible routes (under `/betfair`).
pub fn routes(state: AppState) -> Router {
    Router::new().merge(identity::routes()).merge(rpc::routes()).with_state(state)
}

/// The market id as Betfair writes one: `"1.<id>"`.
pub(crate) fn market_id_text(market_id: i64) -> String {
    format!("1.{market_id}")
}

/// A market id sent by a bot: `"1.<id>"`, or the bare id (as a string or a number).
pub(crate) fn parse_market_id(value: &Value) -> Option<i64> {
    match value {
        Value::String(text) => {
            let digits = text.trim().strip_prefix("1.").unwrap_or(text.trim());
            digits.parse().ok().filter(|id: &i64| *id > 0)
        }
        Value::Number(number) => number.as_i64().filter(|id| *id > 0),
        _ => None,
    }
}

/// An id Betfair sends as a string of digits (event, competition, event type, bet), or a number.
pub(crate) fn parse_id(value: &Value) -> Option<i64> {
    match value {
        Value::String(text) => text.trim().parse().ok(),
        Value::Number(number) => number.as_i64(),
        _ => None,
    }
}

/// The list under `key` of a request's object, each item read by `item` (absent or null:
/// `None`). The error says which key and what was wrong, for the caller's own error type.
pub(crate) fn set_of<T: std::hash::Hash + Eq>(
    object: &serde_json::Map<String, Value>,
    key: &str,
    item: impl Fn(&Value) -> Option<T>,
) -> Result<Option<std::collections::HashSet<T>>, String> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| item(v).ok_or_else(|| format!("{key} holds {v}, which is not one.")))
            .collect::<Result<_, _>>()
            .map(Some),
        Some(other) => Err(format!("{key} must be a list, not {other}.")),
    }
}

/// A code sent as text (a market type, a country), compared in capitals.
pub(crate) fn text_item(value: &Value) -> Option<String> {
    value.as_str().map(|t| t.trim().to_uppercase())
}

/// A date as Betfair writes one (`2030-01-01T10:00:00.000Z`; betfairlightweight reads nothing
/// else).
pub(crate) fn date_text(epoch_ms: i64) -> String {
    backlay_kit::clock::iso_utc(epoch_ms)
}

/// The exchange markets a bot sees, with Betfair's market type codes.
pub(crate) fn market_type_code(market_type: MarketType) -> Option<&'static str> {
    match market_type {
        MarketType::MatchOdds => Some("MATCH_ODDS"),
        MarketType::Win => Some("WIN"),
        MarketType::Place => Some("PLACE"),
        MarketType::Bookmaker | MarketType::Fancy => None,
    }
}

/// A bot's call: the client account behind its `X-Authentication` session.
#[derive(Clone, Debug)]
pub(crate) struct Caller {
    pub user: User,
    pub session_id: i64,
}

/// Longest application key or session token read.
const MAX_HEADER_CHARS: usize = 256;

/// The caller of an exchange call, from its headers: `X-Application` must be there (any key:
/// Backlay issues none), `X-Authentication` must be a live session of a client whose password
/// is its own.
pub(crate) async fn caller(state: &AppState, headers: &HeaderMap) -> Result<Caller, ApiNgError> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| !v.is_empty() && v.len() <= MAX_HEADER_CHARS)
    };
    if header("x-application").is_none() {
        return Err(ApiNgError::new(
            "NO_APP_KEY",
            "Send an application key in the X-Application header (any name for your program).",
        ));
    }
    let Some(token) = header("x-authentication") else {
        return Err(ApiNgError::new(
            "NO_SESSION",
            "Log in at /betfair/identity/login and send the token in the X-Authentication header.",
        ));
    };
    session_user(state, token).await
}

/// The client behind a session token (the stream's authentication uses this too).
pub(crate) async fn session_user(state: &AppState, token: &str) -> Result<Caller, ApiNgError> {
    let session = state
        .store
        .session_by_token_hash(&token_hash(token), now_ms())
        .await
        .map_err(ApiNgError::unexpected)?
        .ok_or_else(|| {
            ApiNgError::new(
                "INVALID_SESSION_INFORMATION",
                "The session has expired or was never opened: log in again.",
            )
        })?;
    if session.user.role != Role::Client {
        return Err(ApiNgError::new(
            "ACCESS_DENIED",
            "The bot API is for client accounts; operators use the console.",
        ));
    }
    if session.user.is_change_password {
        return Err(ApiNgError::new(
            "ACCESS_DENIED",
            "Change the password given to you in the web app before using the bot API.",
        ));
    }
    Ok(Caller { user: session.user, session_id: session.session_id })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn market_ids_are_read_in_betfairs_form_and_bare() {
        assert_eq!(market_id_text(40), "1.40");
        assert_eq!(parse_market_id(&json!("1.40")), Some(40));
        assert_eq!(parse_market_id(&json!("40")), Some(40));
        assert_eq!(parse_market_id(&json!(40)), Some(40));
        assert_eq!(parse_market_id(&json!("1.")), None);
        assert_eq!(parse_market_id(&json!("2.40x")), None);
        assert_eq!(parse_market_id(&json!("1.-4")), None);
        assert_eq!(parse_market_id(&json!(null)), None);
    }

    #[test]
    fn dates_carry_milliseconds_and_z() {
        assert_eq!(date_text(1_893_492_000_000), "2030-01-01T10:00:00.000Z");
        assert_eq!(date_text(1_893_492_000_123), "2030-01-01T10:00:00.123Z");
    }
}
