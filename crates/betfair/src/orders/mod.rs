//! A bot's orders: placeOrders, cancelOrders, replaceOrders, updateOrders, listCurrentOrders,
//! listClearedOrders and listMarketProfitAndLoss, and the caller's orders and matches inside
//! listMarketBook ([`book_orders`]). Every order goes through the same engine as the web app's
//! (`api/bet.rs`), so a bot's bets are the client's bets.
//!
//! Refusals of orders are reports, never exceptions: `status: FAILURE` with Betfair's codes,
//! the execution report's (`errorCode` at the top: BET_ACTION_ERROR, INSUFFICIENT_FUNDS,
//! MARKET_SUSPENDED, …) and the instruction's (INVALID_ODDS, INVALID_BET_SIZE, …); see
//! [`Refusal`]. Where the engine said why in words (a loss limit's "You can lose ₹50.00 more
//! today", a time-out's end), placeOrders and replaceOrders add them as `errorDetails` beside the
//! report's `errorCode` (an addition of Backlay's: Betfair's reports carry the code alone), so a
//! bot's owner reads the reason in its log. Only a request that is not one (no instructions, a
//! list that is not a list) is an APINGException (INVALID_INPUT_DATA naming the field).
//!
//! Each place instruction is placed on its own (Betfair places a request all or nothing):
//! a request whose instructions all pass is SUCCESS, one where none did FAILURE, and one with
//! both PROCESSED_WITH_ERRORS, each instruction's report saying what happened to it.
//!
//! `customerRef` is the idempotency key. Instruction `i` of a request with customerRef `r` is
//! placed with the client reference `bf:r:i`, which the store keeps unique per user: a request
//! repeating a customerRef that placed a bet is answered FAILURE / DUPLICATE_TRANSACTION and
//! places nothing (Betfair's answer; its window is 60 s, Backlay's is for ever). Two copies
//! racing each other cannot both place either: the engine answers the second with the first's
//! bet, which is reported the same way.
//!
//! Here: the dispatch, the refusals and the pieces of a report every operation shares;
//! `place` (placeOrders), `edit` (cancel, replace, update) and `lists` (current and cleared
//! orders, P&L, the book's orders).

use std::collections::{BTreeMap, HashMap, HashSet};

use backlay_core::exchange::{BetSide, MarketStatus, MarketType, Persistence};
use backlay_core::money::Money;
use backlay_core::odds::{Price, Quote};
use backlay_store::bets::{BetRow, BotRefs};
use backlay_store::bot_bets::{BotBet, BotBetQuery, BotBetState, BOT_BETS_MAX, BOT_FILTER_MAX};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::catalogue::{rupees, time_range};
use super::rpc::{ApiNgError, OpResult};
use super::{date_text, market_id_text, market_type_code, parse_id, parse_market_id, Caller};
use backlay_engine::{average_price, PlaceBet};
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_kit::refusal::Refusal as BetRefusal;
use backlay_operator::AppState;

mod edit;
mod lists;
mod place;

use edit::*;
pub(crate) use lists::book_orders;
use lists::*;
use place::*;

/// Most instructions in one placeOrders, cancelOrders, replaceOrders or updateOrders
/// (Betfair's limit for place; 60 for replace there, which Backlay does not need).
const MAX_INSTRUCTIONS: usize = 200;
/// Longest customerRef and customerOrderRef (Betfair's limits).
const CUSTOMER_REF_MAX_CHARS: usize = 32;
/// Longest customerStrategyRef.
const STRATEGY_REF_MAX_CHARS: usize = 15;
/// Most markets one listMarketProfitAndLoss reads.
const MAX_PNL_MARKETS: usize = 250;
/// Most bets a cancel of everything (no instructions) cancels in one call.
const MAX_CANCEL_ALL: i64 = 1000;

/// The operations this module answers; `None` for any other.
pub(super) async fn call(
    state: &AppState,
    caller: &Caller,
    operation: &str,
    params: &Value,
) -> Option<OpResult> {
    let Some(params) = params.as_object() else {
        return Some(Err(ApiNgError::input("params must be a JSON object.")));
    };
    Some(match operation {
        "placeOrders" => place_orders(state, caller, params).await,
        "cancelOrders" => cancel_orders(state, caller, params).await,
        "replaceOrders" => replace_orders(state, caller, params).await,
        "updateOrders" => update_orders(state, caller, params).await,
        "listCurrentOrders" => list_current_orders(state, caller, params).await,
        "listClearedOrders" => list_cleared_orders(state, caller, params).await,
        "listMarketProfitAndLoss" => list_market_pnl(state, caller, params).await,
        _ => return None,
    })
}

/// Why an order was refused, in Betfair's two codes: the execution report's and the
/// instruction's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    InvalidOdds,
    InvalidBetSize,
    InvalidRunner,
    RunnerRemoved,
    InvalidOrderType,
    InvalidPersistence,
    InvalidOrderRef,
    InsufficientFunds,
    LossLimit,
    AccountLocked,
    Suspended,
    NotOpen,
    InvalidMarket,
    Duplicate,
    Error,
}

impl Refusal {
    /// The execution report's `errorCode`.
    fn report_code(self) -> &'static str {
        match self {
            Refusal::InsufficientFunds => "INSUFFICIENT_FUNDS",
            Refusal::LossLimit => "LOSS_LIMIT_EXCEEDED",
            Refusal::AccountLocked => "PERMISSION_DENIED",
            Refusal::Suspended => "MARKET_SUSPENDED",
            Refusal::NotOpen => "MARKET_NOT_OPEN_FOR_BETTING",
            Refusal::InvalidMarket => "INVALID_MARKET_ID",
            Refusal::Duplicate => "DUPLICATE_TRANSACTION",
            _ => "BET_ACTION_ERROR",
        }
    }

    /// The instruction report's `errorCode`.
    fn instruction_code(self) -> &'static str {
        match self {
            Refusal::InvalidOdds => "INVALID_ODDS",
            Refusal::InvalidBetSize => "INVALID_BET_SIZE",
            Refusal::InvalidRunner => "INVALID_RUNNER",
            Refusal::RunnerRemoved => "RUNNER_REMOVED",
            Refusal::InvalidOrderType => "INVALID_ORDER_TYPE",
            Refusal::InvalidPersistence => "INVALID_PERSISTENCE_TYPE",
            Refusal::InvalidOrderRef => "INVALID_CUSTOMER_ORDER_REF",
            Refusal::InsufficientFunds => "INSUFFICIENT_FUNDS",
            Refusal::LossLimit => "LOSS_LIMIT_EXCEEDED",
            Refusal::NotOpen => "MARKET_NOT_OPEN_FOR_BETTING",
            Refusal::AccountLocked
            | Refusal::Suspended
            | Refusal::InvalidMarket
            | Refusal::Duplicate
            | Refusal::Error => "ERROR_IN_ORDER",
        }
    }
}

/// An order refused: Betfair's codes, and the engine's words when it gave some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    pub refusal: Refusal,
    /// The report's `errorDetails`: what the engine said, never an error of ours (logged).
    pub details: Option<String>,
}

impl From<Refusal> for Refused {
    fn from(refusal: Refusal) -> Refused {
        Refused { refusal, details: None }
    }
}

impl Refused {
    /// The engine's refusal of a placement: its codes ([`refusal_of`]) and its words.
    pub(crate) fn of(err: &AppError) -> Refused {
        let details = match err {
            AppError::Internal(_) | AppError::Unavailable { .. } => None,
            said => Some(said.to_string()),
        };
        Refused { refusal: refusal_of(err), details }
    }
}

/// The engine's refusal of a placement in Betfair's terms. The bot API reads an instruction
/// (Betfair's envelope: its fields, the ladder, a positive size) and the market's status (which
/// fails the whole call); everything else (the runner, the stake limits, the caller's funds, a
/// status that changed meanwhile) is decided inside the market's task, as for the web app, and
/// arrives here as the engine's error.
pub(crate) fn refusal_of(err: &AppError) -> Refusal {
    match err {
        // Every reason the engine gives, by match: a new one does not compile until it has its
        // Betfair code here.
        AppError::Refused(refused) => match refused {
            BetRefusal::InsufficientFunds { .. } => Refusal::InsufficientFunds,
            // The parent's exposure limit and the bettor's own loss limit (issue 33).
            BetRefusal::ExposureLimit { .. } | BetRefusal::LossLimit { .. } => Refusal::LossLimit,
            BetRefusal::OwnStakeLimit { .. } => Refusal::InvalidBetSize,
            BetRefusal::TimedOut { .. } | BetRefusal::SelfExcluded { .. } => Refusal::AccountLocked,
            // Said of deposits, never of a bet.
            BetRefusal::DepositLimit { .. } => Refusal::Error,
            BetRefusal::StakeCap { .. }
            | BetRefusal::StakeBelowMinimum { .. }
            | BetRefusal::StakeAboveMaximum { .. } => Refusal::InvalidBetSize,
            BetRefusal::BettingLocked => Refusal::AccountLocked,
            BetRefusal::MarketClosed => Refusal::NotOpen,
            BetRefusal::MarketNotOpen { .. } | BetRefusal::SuspendedDuringDelay => {
                Refusal::Suspended
            }
            BetRefusal::UnknownRunner { .. } => Refusal::InvalidRunner,
            BetRefusal::RunnerRemoved { .. } => Refusal::RunnerRemoved,
            // The web app's cash out; the bot API places its own hedges.
            BetRefusal::CashOutNotOffered
            | BetRefusal::NothingToCashOut { .. }
            | BetRefusal::CashOutNoPrice { .. }
            | BetRefusal::CashOutNotEnough { .. }
            | BetRefusal::CashOutOwnOrder { .. }
            | BetRefusal::CashOutAboveMaximum { .. }
            | BetRefusal::CashOutPricesMoved => Refusal::Error,
        },
        // The account's own state (locked, a parent who cannot take bets).
        AppError::Unprocessable(_) | AppError::Forbidden(_) => Refusal::AccountLocked,
        AppError::NotFound(_) => Refusal::InvalidMarket,
        AppError::Invalid { errors, .. } if errors.contains_key("price") => Refusal::InvalidOdds,
        AppError::Invalid { errors, .. } if errors.contains_key("stake") => Refusal::InvalidBetSize,
        other => {
            if matches!(other, AppError::Internal(_)) {
                tracing::error!("a bot's order failed: {other}");
            }
            Refusal::Error
        }
    }
}

/// The params' text under `key`, at most `max_chars`; absent or null is `None`.
fn text_param(
    params: &Map<String, Value>,
    key: &str,
    max_chars: usize,
) -> Result<Option<String>, String> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.chars().count() <= max_chars => {
            Ok(Some(text.clone()).filter(|t| !t.is_empty()))
        }
        Some(Value::String(_)) => Err(format!("{key} must be at most {max_chars} characters.")),
        Some(other) => Err(format!("{key} must be text, not {other}.")),
    }
}

/// A number a bot sends (`2.5`, `10`, `"2.5"`) as exact decimal text, never through f64
/// arithmetic: serde_json prints an f64 back as the shortest text that reads as it.
fn number_text(value: &Value) -> Option<String> {
    let text = match value {
        Value::Number(number) => number.to_string(),
        Value::String(text) => text.trim().to_string(),
        _ => return None,
    };
    backlay_kit::input::plain_decimal(&text).filter(|t| !t.starts_with('-'))
}

fn side_code(side: BetSide) -> &'static str {
    match side {
        BetSide::Lay | BetSide::No => "LAY",
        _ => "BACK",
    }
}

fn persistence_code(persistence: Persistence) -> &'static str {
    match persistence {
        Persistence::Lapse => "LAPSE",
        Persistence::Persist => "PERSIST",
    }
}

fn parse_persistence(value: Option<&Value>) -> Result<Persistence, Refusal> {
    match value.and_then(Value::as_str) {
        Some("LAPSE") => Ok(Persistence::Lapse),
        Some("PERSIST") => Ok(Persistence::Persist),
        _ => Err(Refusal::InvalidPersistence),
    }
}

/// Money as Betfair writes sizes.
fn size_of(minor: i64) -> Value {
    rupees(Money::from_minor(minor))
}

/// The top of an execution report.
fn report(
    status: &str,
    market_id: Option<&Value>,
    customer_ref: Option<&str>,
) -> Map<String, Value> {
    let mut top = Map::new();
    top.insert("status".into(), json!(status));
    if let Some(market_id) = market_id.filter(|v| !v.is_null()) {
        top.insert("marketId".into(), market_id.clone());
    }
    if let Some(customer_ref) = customer_ref {
        top.insert("customerRef".into(), json!(customer_ref));
    }
    top
}

/// SUCCESS, FAILURE or PROCESSED_WITH_ERRORS from how many instructions passed.
fn overall(passed: usize, total: usize) -> &'static str {
    if passed == total {
        "SUCCESS"
    } else if passed == 0 {
        "FAILURE"
    } else {
        "PROCESSED_WITH_ERRORS"
    }
}

/// A failed instruction report (of any operation), with its instruction when it has one.
fn failed(code: &str, instruction: Option<Value>) -> Value {
    let mut item = json!({ "status": "FAILURE", "errorCode": code });
    if let Some(instruction) = instruction {
        item["instruction"] = instruction;
    }
    item
}

/// The list under `key` (absent or null: empty); its callers bound its length.
fn list_param<'a>(params: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], ApiNgError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(ApiNgError::input(format!("{key} must be a list, not {other}."))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_refusals_map_to_betfairs_codes() {
        let refused = AppError::Refused;
        let cases = [
            (
                refused(BetRefusal::InsufficientFunds {
                    needed_minor: Some(10_00),
                    available_minor: 5_00,
                }),
                Refusal::InsufficientFunds,
            ),
            (
                refused(BetRefusal::ExposureLimit { limit_minor: 100_00, this_bet: true }),
                Refusal::LossLimit,
            ),
            (refused(BetRefusal::StakeBelowMinimum { min_minor: 100_00 }), Refusal::InvalidBetSize),
            (refused(BetRefusal::StakeAboveMaximum { max_minor: 100_00 }), Refusal::InvalidBetSize),
            (AppError::Unprocessable("This account cannot bet.".into()), Refusal::AccountLocked),
            (AppError::betting_locked(), Refusal::AccountLocked),
            (refused(BetRefusal::StakeCap { cap_minor: 500_00 }), Refusal::InvalidBetSize),
            (refused(BetRefusal::MarketClosed), Refusal::NotOpen),
            (
                refused(BetRefusal::MarketNotOpen { status: MarketStatus::Suspended }),
                Refusal::Suspended,
            ),
            (
                refused(BetRefusal::MarketNotOpen { status: MarketStatus::BallRunning }),
                Refusal::Suspended,
            ),
            (refused(BetRefusal::SuspendedDuringDelay), Refusal::Suspended),
            (
                AppError::Conflict("The market is busy. Try again in a moment.".into()),
                Refusal::Error,
            ),
            (refused(BetRefusal::UnknownRunner { runner_id: 9 }), Refusal::InvalidRunner),
            (refused(BetRefusal::RunnerRemoved { runner_id: 9 }), Refusal::RunnerRemoved),
            (AppError::NotFound("There is no market with id 9.".into()), Refusal::InvalidMarket),
            (AppError::field("price", "2.51 is not on the ladder."), Refusal::InvalidOdds),
        ];
        for (err, refusal) in cases {
            assert_eq!(refusal_of(&err), refusal, "{err}");
        }
        assert_eq!(Refusal::InsufficientFunds.report_code(), "INSUFFICIENT_FUNDS");
        assert_eq!(Refusal::Suspended.report_code(), "MARKET_SUSPENDED");
        assert_eq!(Refusal::Suspended.instruction_code(), "ERROR_IN_ORDER");
        assert_eq!(Refusal::InvalidOdds.report_code(), "BET_ACTION_ERROR");
        assert_eq!(Refusal::InvalidOdds.instruction_code(), "INVALID_ODDS");
    }

    #[test]
    fn numbers_are_read_as_exact_decimal_text() {
        assert_eq!(number_text(&json!(2.5)).as_deref(), Some("2.5"));
        assert_eq!(number_text(&json!(10)).as_deref(), Some("10"));
        assert_eq!(number_text(&json!(1.01)).as_deref(), Some("1.01"));
        assert_eq!(number_text(&json!("3.50")).as_deref(), Some("3.5"));
        assert_eq!(number_text(&json!(-2)), None);
        assert_eq!(number_text(&json!(null)), None);
    }

    #[test]
    fn place_instructions_refuse_what_backlay_does_not_offer() {
        let read = |limit: Value| {
            read_instruction(&json!({ "orderType": "LIMIT", "selectionId": 11, "side": "BACK", "limitOrder": limit }))
                .map(|o| o.echo())
                .map_err(|(refusal, _)| refusal)
        };
        assert_eq!(
            read(
                json!({ "size": 10, "price": 2, "persistenceType": "PERSIST", "timeInForce": null })
            ),
            Ok(json!({
                "selectionId": 11, "handicap": 0.0, "side": "BACK", "orderType": "LIMIT",
                "limitOrder": { "size": 10.0, "price": 2.0, "persistenceType": "PERSIST" },
            }))
        );
        assert_eq!(
            read(json!({ "size": 10, "price": 2, "persistenceType": "MARKET_ON_CLOSE" })),
            Err(Refusal::InvalidPersistence)
        );
        assert_eq!(
            read(
                json!({ "size": 10, "price": 2, "persistenceType": "LAPSE", "timeInForce": "FILL_OR_KILL" })
            ),
            Err(Refusal::InvalidOrderType)
        );
        assert_eq!(
            read(json!({ "size": 10.001, "price": 2, "persistenceType": "LAPSE" })),
            Err(Refusal::InvalidBetSize)
        );
        assert!(read(json!({ "size": 10, "price": 2.02, "persistenceType": "LAPSE" })).is_ok());
        assert_eq!(
            read(json!({ "size": 10, "price": 2.01, "persistenceType": "LAPSE" })),
            Err(Refusal::InvalidOdds)
        );
        let on_close = read_instruction(
            &json!({ "orderType": "MARKET_ON_CLOSE", "selectionId": 11, "side": "BACK" }),
        );
        assert_eq!(on_close.map_err(|(r, _)| r).err(), Some(Refusal::InvalidOrderType));
    }
}
