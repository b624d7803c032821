//! A bot's orders: placeOrders, cancelOrders, replaceOrders, updateOrders, listCurrentOrders,
//! listClearedOrders and listMarketProfitAndLoss, and the caller's orders and matches inside
//! listMarketBook ([`book_orders`]). Every order goes through the same engine as the web app's
//! (`api/bet.rs`), so a bot's bets are the client's bets.
//!
//! Refusals of orders are reports, never exceptions: `status: FAILURE` with Betfair's codes,
//! the execution report's (`errorCode` at the top: BET_ACTION_ERROR, INSUFFICIENT_FUNDS,
//! MARKET_SUSPENDED, …) and the instruction's (INVALID_ODDS, INVALID_BET_SIZE, …); see
//! [`Refusal`]. Only a request that is not one (no instructions, a list that is not a list)
//! is an APINGException (INVALID_INPUT_DATA naming the field).
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

use std::collections::{BTreeMap, HashMap, HashSet};

use backlay_core::exchange::{BetSide, MarketStatus, MarketType, Persistence};
use backlay_core::money::Money;
use backlay_core::odds::Price;
use backlay_store::bets::{BetRow, BotRefs};
use backlay_store::bot_bets::{BotBet, BotBetQuery, BotBetState, BOT_BETS_MAX, BOT_FILTER_MAX};
use backlay_store::markets::{MarketSetup, RunnerStatus};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::catalogue::{rupees, time_range};
use super::rpc::{ApiNgError, OpResult};
use super::{date_text, market_id_text, market_type_code, parse_id, parse_market_id, Caller};
use crate::clock::now_ms;
use crate::engine::{average_price, PlaceBet};
use crate::error::AppError;
use crate::AppState;

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

/// The engine's refusal of a placement in Betfair's terms. The bot API checks what it can
/// from the market's own facts first (status, runners, the ladder, stake limits: see
/// [`check_instruction`]); what is left is decided inside the market's task, against the
/// caller's funds or a status that changed meanwhile, and arrives as the web API's error.
pub(crate) fn refusal_of(err: &AppError) -> Refusal {
    match err {
        AppError::Unprocessable(message) if message.starts_with("Insufficient funds") => {
            Refusal::InsufficientFunds
        }
        AppError::Unprocessable(message) if message.contains("exposure over your limit") => {
            Refusal::LossLimit
        }
        AppError::Unprocessable(message) if message.contains("stake") => Refusal::InvalidBetSize,
        AppError::Unprocessable(_) | AppError::Forbidden(_) => Refusal::AccountLocked,
        AppError::Conflict(message) if message == crate::engine::MARKET_CLOSED => Refusal::NotOpen,
        AppError::Conflict(message) if message.contains("suspended") => Refusal::Suspended,
        AppError::NotFound(message) if message.starts_with("Runner") => Refusal::InvalidRunner,
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
    crate::input::plain_decimal(&text).filter(|t| !t.starts_with('-'))
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

/// The market as orders find it: its setup when it takes bets, or why not.
async fn market_for_orders(
    state: &AppState,
    market_id: Option<i64>,
) -> Result<Result<MarketSetup, Refusal>, ApiNgError> {
    let Some(market_id) = market_id else { return Ok(Err(Refusal::InvalidMarket)) };
    let row = match state.store.market(market_id).await {
        Ok(row) => row,
        Err(backlay_store::StoreError::NotFound) => return Ok(Err(Refusal::InvalidMarket)),
        Err(other) => return Err(other.into()),
    };
    if market_type_code(row.setup.market_type).is_none() {
        return Ok(Err(Refusal::InvalidMarket));
    }
    let (status, setup) = if state.engine.is_running(market_id).await {
        match state.engine.view(market_id, None).await {
            Ok(view) => (view.status, view.setup),
            Err(err) => return Ok(Err(refusal_of(&err))),
        }
    } else {
        (row.status, row.setup)
    };
    Ok(match status {
        MarketStatus::Open => Ok(setup),
        MarketStatus::Suspended | MarketStatus::BallRunning => Err(Refusal::Suspended),
        MarketStatus::Closed | MarketStatus::Void => Err(Refusal::NotOpen),
    })
}

/// A place instruction as read, with what to echo back.
#[derive(Clone, Debug)]
struct PlaceInstruction {
    selection_id: i64,
    side: BetSide,
    price: Price,
    price_text: String,
    size: Money,
    persistence: Persistence,
    order_ref: Option<String>,
}

impl PlaceInstruction {
    /// The instruction as Betfair echoes it (strict keys).
    fn echo(&self) -> Value {
        let mut echo = json!({
            "selectionId": self.selection_id,
            "handicap": 0.0,
            "side": side_code(self.side),
            "orderType": "LIMIT",
            "limitOrder": {
                "size": rupees(self.size),
                "price": self.price.to_f64_for_json(),
                "persistenceType": persistence_code(self.persistence),
            },
        });
        if let Some(order_ref) = &self.order_ref {
            echo["customerOrderRef"] = json!(order_ref);
        }
        echo
    }
}

/// Reads one place instruction: an instruction Backlay cannot place is a refusal, with the
/// echo when enough of it was read to echo.
fn read_instruction(value: &Value) -> Result<PlaceInstruction, (Refusal, Option<Value>)> {
    let Some(item) = value.as_object() else { return Err((Refusal::Error, None)) };
    if item.get("orderType").and_then(Value::as_str) != Some("LIMIT") {
        return Err((Refusal::InvalidOrderType, None));
    }
    let selection_id =
        item.get("selectionId").and_then(parse_id).ok_or((Refusal::InvalidRunner, None))?;
    let side = match item.get("side").and_then(Value::as_str) {
        Some("BACK") => BetSide::Back,
        Some("LAY") => BetSide::Lay,
        _ => return Err((Refusal::Error, None)),
    };
    let order_ref = text_param(item, "customerOrderRef", CUSTOMER_REF_MAX_CHARS)
        .map_err(|_| (Refusal::InvalidOrderRef, None))?;
    let Some(limit) = item.get("limitOrder").and_then(Value::as_object) else {
        return Err((Refusal::InvalidOrderType, None));
    };
    let persistence = parse_persistence(limit.get("persistenceType")).map_err(|r| (r, None))?;
    // Fill-or-kill and bet targets are not offered: refused rather than placed as plain
    // orders, which would rest where the bot expected none.
    for key in ["timeInForce", "minFillSize", "betTargetType", "betTargetSize"] {
        if limit.get(key).is_some_and(|v| !v.is_null()) {
            return Err((Refusal::InvalidOrderType, None));
        }
    }
    let size = limit
        .get("size")
        .and_then(number_text)
        .and_then(|t| Money::parse_decimal(&t).ok())
        .filter(|s| s.is_positive())
        .ok_or((Refusal::InvalidBetSize, None))?;
    let price_text =
        limit.get("price").and_then(number_text).ok_or((Refusal::InvalidOdds, None))?;
    let price = Price::parse_decimal(&price_text).map_err(|_| (Refusal::InvalidOdds, None))?;
    Ok(PlaceInstruction { selection_id, side, price, price_text, size, persistence, order_ref })
}

/// The checks of an instruction against the market's own facts, before the engine.
fn check_instruction(order: &PlaceInstruction, market: &MarketSetup) -> Result<(), Refusal> {
    let runner = market
        .runners
        .iter()
        .find(|r| r.runner_id == order.selection_id)
        .ok_or(Refusal::InvalidRunner)?;
    match runner.status {
        RunnerStatus::Active => {}
        RunnerStatus::Removed => return Err(Refusal::RunnerRemoved),
        RunnerStatus::Winner | RunnerStatus::Loser => return Err(Refusal::NotOpen),
    }
    let size_minor = order.size.minor();
    if size_minor < market.min_stake_minor || size_minor > market.max_stake_minor {
        return Err(Refusal::InvalidBetSize);
    }
    Ok(())
}

/// Places one instruction through the engine, as the web app places a bet.
async fn place_one(
    state: &AppState,
    caller: &Caller,
    market_id: i64,
    order: &PlaceInstruction,
    client_ref: Option<String>,
    strategy_ref: Option<String>,
) -> Result<Value, Refusal> {
    let fingerprint = format!(
        "bf|{market_id}|{}|{}|{}|{}|{}|{:?}|{:?}",
        order.selection_id,
        order.side,
        order.price_text,
        order.size.minor(),
        order.persistence,
        order.order_ref,
        strategy_ref,
    );
    let answer = state
        .engine
        .place(PlaceBet {
            user_id: caller.user.id,
            market_id,
            selection_id: Some(order.selection_id),
            side: order.side,
            price_text: order.price.to_string(),
            line: None,
            stake: order.size,
            persistence: order.persistence,
            client_ref,
            request_hash: hex::encode(Sha256::digest(fingerprint.as_bytes())),
            refs: BotRefs { order_ref: order.order_ref.clone(), strategy_ref },
        })
        .await
        .map_err(|err| refusal_of(&err))?;
    if answer.message == crate::engine::REPEAT_MESSAGE {
        // A copy of this request placed it first (see the module docs).
        return Err(Refusal::Duplicate);
    }
    let complete = answer.size_matched == order.size;
    Ok(json!({
        "status": "SUCCESS",
        "orderStatus": if complete { "EXECUTION_COMPLETE" } else { "EXECUTABLE" },
        "betId": answer.bet_id.to_string(),
        "placedDate": date_text(now_ms()),
        "averagePriceMatched": answer.avg_price_matched.unwrap_or(0.0),
        "sizeMatched": rupees(answer.size_matched),
        "instruction": order.echo(),
    }))
}

/// The list under `key` (absent or null: empty); its callers bound its length.
fn list_param<'a>(params: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], ApiNgError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(ApiNgError::input(format!("{key} must be a list, not {other}."))),
    }
}

async fn place_orders(state: &AppState, caller: &Caller, params: &Map<String, Value>) -> OpResult {
    let customer_ref =
        text_param(params, "customerRef", CUSTOMER_REF_MAX_CHARS).map_err(ApiNgError::input)?;
    if customer_ref.as_deref().is_some_and(|r| !r.chars().all(customer_ref_char)) {
        return Err(ApiNgError::input(
            "customerRef may hold only letters, digits and the characters : - . _ + * ; ~",
        ));
    }
    let strategy_ref = text_param(params, "customerStrategyRef", STRATEGY_REF_MAX_CHARS)
        .map_err(ApiNgError::input)?;
    let instructions = list_param(params, "instructions")?;
    let market_value = params.get("marketId");
    let mut top = report("FAILURE", market_value, customer_ref.as_deref());
    let fail_all = |mut top: Map<String, Value>, refusal: Refusal, reports: Vec<Value>| {
        top.insert("errorCode".into(), json!(refusal.report_code()));
        top.insert("instructionReports".into(), Value::Array(reports));
        Ok(Value::Object(top))
    };
    if instructions.is_empty() {
        return Err(ApiNgError::input("instructions is required: at least one place instruction."));
    }
    if instructions.len() > MAX_INSTRUCTIONS {
        top.insert("errorCode".into(), json!("TOO_MANY_INSTRUCTIONS"));
        top.insert("instructionReports".into(), json!([]));
        return Ok(Value::Object(top));
    }
    let client_refs: Option<Vec<String>> = customer_ref
        .as_ref()
        .map(|r| (0..instructions.len()).map(|i| format!("bf:{r}:{i}")).collect());
    if let Some(refs) = &client_refs {
        if !state.store.bets_with_client_refs(caller.user.id, refs).await?.is_empty() {
            return fail_all(top, Refusal::Duplicate, Vec::new());
        }
    }
    let market_id = market_value.and_then(parse_market_id);
    let market = match market_for_orders(state, market_id).await? {
        Ok(market) => market,
        Err(refusal) => {
            let reports = instructions
                .iter()
                .map(|i| {
                    failed(refusal.instruction_code(), read_instruction(i).ok().map(|o| o.echo()))
                })
                .collect();
            return fail_all(top, refusal, reports);
        }
    };
    let market_id = market.market_id;
    let placing = instructions.iter().enumerate().map(|(index, value)| {
        let client_ref = client_refs.as_ref().map(|refs| refs[index].clone());
        let strategy_ref = strategy_ref.clone();
        let market = &market;
        async move {
            let order = read_instruction(value)?;
            check_instruction(&order, market).map_err(|r| (r, Some(order.echo())))?;
            place_one(state, caller, market_id, &order, client_ref, strategy_ref)
                .await
                .map_err(|r| (r, Some(order.echo())))
        }
    });
    // Together, so that the market's task places them in one batch.
    let results = futures::future::join_all(placing).await;
    let passed = results.iter().filter(|r| r.is_ok()).count();
    let first_refusal = results.iter().find_map(|r| r.as_ref().err().map(|(refusal, _)| *refusal));
    let reports: Vec<Value> = results
        .into_iter()
        .map(|result| match result {
            Ok(report) => report,
            Err((refusal, echo)) => failed(refusal.instruction_code(), echo),
        })
        .collect();
    top.insert("status".into(), json!(overall(passed, reports.len())));
    top.insert("marketId".into(), json!(market_id_text(market_id)));
    if let Some(refusal) = first_refusal {
        top.insert("errorCode".into(), json!(refusal.report_code()));
    }
    top.insert("instructionReports".into(), Value::Array(reports));
    Ok(Value::Object(top))
}

/// Betfair's characters of a customerRef.
fn customer_ref_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || ":-._+*;~".contains(c)
}

/// The caller's bet `bet_id` if it is theirs (in `market_id` when given); `None` for an
/// unknown bet or someone else's, which a bot is never told apart.
async fn own_bet(
    state: &AppState,
    caller: &Caller,
    bet_id: Option<i64>,
    market_id: Option<i64>,
) -> Result<Option<BetRow>, ApiNgError> {
    let Some(bet_id) = bet_id else { return Ok(None) };
    match state.store.bet(bet_id).await {
        Ok(bet)
            if bet.user_id == caller.user.id && market_id.is_none_or(|m| m == bet.market_id) =>
        {
            let market_type = state.store.market(bet.market_id).await?.setup.market_type;
            Ok(market_type_code(market_type).map(|_| bet))
        }
        Ok(_) | Err(backlay_store::StoreError::NotFound) => Ok(None),
        Err(other) => Err(other.into()),
    }
}

/// The bet id as the bot sent it (echoed exactly: flumine finds its order by it).
fn bet_id_echo(value: Option<&Value>) -> Value {
    match value {
        Some(Value::Number(n)) => json!(n.to_string()),
        Some(Value::String(s)) => json!(s),
        _ => json!(""),
    }
}

/// Refuses a request naming one bet twice.
fn repeated_bet_ids(items: &[Value]) -> bool {
    let mut seen = HashSet::new();
    items.iter().filter_map(|i| i.get("betId").and_then(parse_id)).any(|id| !seen.insert(id))
}

/// Cancels (part of) one of the caller's bets: the size cancelled and the cancel report, or
/// the failed report.
async fn cancel_one(
    state: &AppState,
    caller: &Caller,
    bet: Option<&BetRow>,
    instruction: Value,
    size: Option<Money>,
) -> Result<(Money, Value), Value> {
    let Some(bet) = bet else { return Err(failed("INVALID_BET_ID", Some(instruction))) };
    if bet.remaining_minor == 0 {
        return Err(failed("BET_TAKEN_OR_LAPSED", Some(instruction)));
    }
    match state.engine.cancel(bet.market_id, caller.user.id, bet.bet_id, size).await {
        Ok(answer) => Ok((
            answer.cancelled,
            json!({
                "status": "SUCCESS",
                "instruction": instruction,
                "sizeCancelled": rupees(answer.cancelled),
                "cancelledDate": date_text(now_ms()),
            }),
        )),
        // Matched or lapsed in the meantime, or the market closed.
        Err(AppError::NotFound(_)) => Err(failed("BET_TAKEN_OR_LAPSED", Some(instruction))),
        Err(AppError::Conflict(message)) if message == crate::engine::MARKET_CLOSED => {
            Err(failed("BET_TAKEN_OR_LAPSED", Some(instruction)))
        }
        Err(err) => {
            tracing::warn!("a bot's cancel failed: {err}");
            Err(failed("ERROR_IN_ORDER", Some(instruction)))
        }
    }
}

async fn cancel_orders(state: &AppState, caller: &Caller, params: &Map<String, Value>) -> OpResult {
    let customer_ref =
        text_param(params, "customerRef", CUSTOMER_REF_MAX_CHARS).map_err(ApiNgError::input)?;
    let market_value = params.get("marketId").filter(|v| !v.is_null());
    let market_id = match market_value {
        Some(value) => Some(parse_market_id(value).ok_or_else(|| {
            ApiNgError::input(format!("marketId {value} is not a market id such as \"1.40\"."))
        })?),
        None => None,
    };
    let instructions = list_param(params, "instructions")?;
    let mut top = report("SUCCESS", market_value, customer_ref.as_deref());
    if instructions.len() > MAX_INSTRUCTIONS {
        top.insert("status".into(), json!("FAILURE"));
        top.insert("errorCode".into(), json!("TOO_MANY_INSTRUCTIONS"));
        top.insert("instructionReports".into(), json!([]));
        return Ok(Value::Object(top));
    }
    if repeated_bet_ids(instructions) {
        top.insert("status".into(), json!("FAILURE"));
        top.insert("errorCode".into(), json!("DUPLICATE_BETIDS"));
        top.insert("instructionReports".into(), json!([]));
        return Ok(Value::Object(top));
    }
    let mut reports = Vec::new();
    let mut passed = 0;
    if instructions.is_empty() {
        // Everything of the caller's that is unmatched (in the market, if named).
        let (bets, _) = state
            .store
            .bot_bets(&BotBetQuery {
                market_ids: market_id.into_iter().collect(),
                unmatched: Some(true),
                limit: MAX_CANCEL_ALL,
                ..BotBetQuery::new(caller.user.id, BotBetState::Current)
            })
            .await?;
        for bot_bet in bets {
            let instruction = json!({ "betId": bot_bet.bet.bet_id.to_string() });
            let answer = cancel_one(state, caller, Some(&bot_bet.bet), instruction, None).await;
            passed += usize::from(answer.is_ok());
            reports.push(answer.map_or_else(|failed| failed, |(_, report)| report));
        }
    } else {
        for item in instructions {
            let id_value = item.get("betId");
            let mut instruction = json!({ "betId": bet_id_echo(id_value) });
            let size = match item.get("sizeReduction").filter(|v| !v.is_null()) {
                None => None,
                Some(value) => {
                    instruction["sizeReduction"] = value.clone();
                    match number_text(value).and_then(|t| Money::parse_decimal(&t).ok()) {
                        Some(size) if size.is_positive() => Some(size),
                        _ => {
                            reports.push(failed("INVALID_BET_SIZE", Some(instruction)));
                            continue;
                        }
                    }
                }
            };
            let bet = own_bet(state, caller, id_value.and_then(parse_id), market_id).await?;
            let answer = cancel_one(state, caller, bet.as_ref(), instruction, size).await;
            passed += usize::from(answer.is_ok());
            reports.push(answer.map_or_else(|failed| failed, |(_, report)| report));
        }
    }
    let status = overall(passed, reports.len());
    top.insert("status".into(), json!(status));
    if status != "SUCCESS" {
        top.insert("errorCode".into(), json!("BET_ACTION_ERROR"));
    }
    top.insert("instructionReports".into(), Value::Array(reports));
    Ok(Value::Object(top))
}

/// What replaceOrders and updateOrders read first: the report so far (FAILURE until an
/// instruction passes), the market, and the instructions; or, when the request as a whole is
/// refused (no market, too many instructions, a bet named twice), the report that says so.
fn edits_of<'a>(
    params: &'a Map<String, Value>,
    what: &str,
) -> Result<Result<Edits<'a>, Value>, ApiNgError> {
    let customer_ref =
        text_param(params, "customerRef", CUSTOMER_REF_MAX_CHARS).map_err(ApiNgError::input)?;
    let market_value = params.get("marketId").filter(|v| !v.is_null());
    let market_id = market_value.and_then(parse_market_id);
    let instructions = list_param(params, "instructions")?;
    let mut top = report("FAILURE", market_value, customer_ref.as_deref());
    if instructions.is_empty() {
        return Err(ApiNgError::input(format!(
            "instructions is required: at least one {what} instruction."
        )));
    }
    let refused = if market_id.is_none() {
        Some("INVALID_MARKET_ID")
    } else if instructions.len() > MAX_INSTRUCTIONS {
        Some("TOO_MANY_INSTRUCTIONS")
    } else if repeated_bet_ids(instructions) {
        Some("DUPLICATE_BETIDS")
    } else {
        None
    };
    if let Some(code) = refused {
        top.insert("errorCode".into(), json!(code));
        top.insert("instructionReports".into(), json!([]));
        return Ok(Err(Value::Object(top)));
    }
    Ok(Ok(Edits { top, market_id, instructions }))
}

/// A replaceOrders or updateOrders request that may go on ([`edits_of`]).
struct Edits<'a> {
    top: Map<String, Value>,
    market_id: Option<i64>,
    instructions: &'a [Value],
}

async fn replace_orders(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
    let Edits { mut top, market_id, instructions } = match edits_of(params, "replace")? {
        Ok(edits) => edits,
        Err(refused) => return Ok(refused),
    };
    let mut reports = Vec::new();
    let mut passed = 0;
    let mut first_code: Option<&str> = None;
    for item in instructions {
        let id_value = item.get("betId");
        let cancel_instruction = json!({ "betId": bet_id_echo(id_value) });
        let failure = |code: &'static str, cancel: Value, place: Value| json!({ "status": "FAILURE", "errorCode": code, "cancelInstructionReport": cancel, "placeInstructionReport": place });
        let new_price =
            item.get("newPrice").and_then(number_text).and_then(|t| Price::parse_decimal(&t).ok());
        let bet = own_bet(state, caller, id_value.and_then(parse_id), market_id).await?;
        let Some(new_price) = new_price else {
            first_code.get_or_insert("BET_ACTION_ERROR");
            reports.push(failure(
                "INVALID_ODDS",
                failed("RELATED_ACTION_FAILED", Some(cancel_instruction)),
                failed("INVALID_ODDS", None),
            ));
            continue;
        };
        let Some((bet, selection_id)) = bet.and_then(|b| b.runner_id.map(|r| (b, r))) else {
            first_code.get_or_insert("BET_ACTION_ERROR");
            reports.push(failure(
                "INVALID_BET_ID",
                failed("INVALID_BET_ID", Some(cancel_instruction)),
                failed("RELATED_ACTION_FAILED", None),
            ));
            continue;
        };
        // The whole remaining size is cancelled, then placed again at the new price.
        let (size, cancel_report) =
            match cancel_one(state, caller, Some(&bet), cancel_instruction, None).await {
                Ok(cancelled) => cancelled,
                Err(cancel_report) => {
                    first_code.get_or_insert("BET_ACTION_ERROR");
                    let code = cancel_report["errorCode"].as_str().unwrap_or("ERROR_IN_ORDER");
                    reports.push(json!({
                        "status": "FAILURE",
                        "errorCode": code,
                        "cancelInstructionReport": cancel_report,
                        "placeInstructionReport": failed("RELATED_ACTION_FAILED", None),
                    }));
                    continue;
                }
            };
        let order = PlaceInstruction {
            selection_id,
            side: bet.side,
            price: new_price,
            price_text: new_price.to_string(),
            size,
            persistence: bet.persistence,
            order_ref: bet.refs.order_ref.clone(),
        };
        match place_one(state, caller, bet.market_id, &order, None, bet.refs.strategy_ref.clone())
            .await
        {
            Ok(place_report) => {
                passed += 1;
                reports.push(json!({
                    "status": "SUCCESS",
                    "cancelInstructionReport": cancel_report,
                    "placeInstructionReport": place_report,
                }));
            }
            Err(refusal) => {
                first_code.get_or_insert(refusal.report_code());
                reports.push(failure(
                    "CANCELLED_NOT_PLACED",
                    cancel_report,
                    failed(refusal.instruction_code(), Some(order.echo())),
                ));
            }
        }
    }
    top.insert("status".into(), json!(overall(passed, reports.len())));
    if let Some(code) = first_code {
        top.insert("errorCode".into(), json!(code));
    }
    top.insert("instructionReports".into(), Value::Array(reports));
    Ok(Value::Object(top))
}

async fn update_orders(state: &AppState, caller: &Caller, params: &Map<String, Value>) -> OpResult {
    let Edits { mut top, market_id, instructions } = match edits_of(params, "update")? {
        Ok(edits) => edits,
        Err(refused) => return Ok(refused),
    };
    let mut reports = Vec::new();
    let mut passed = 0;
    for item in instructions {
        let id_value = item.get("betId");
        let asked = item.get("newPersistenceType").cloned().unwrap_or(Value::Null);
        let instruction = json!({ "betId": bet_id_echo(id_value), "newPersistenceType": asked });
        let Ok(persistence) = parse_persistence(item.get("newPersistenceType")) else {
            reports.push(failed("INVALID_PERSISTENCE_TYPE", Some(instruction)));
            continue;
        };
        let Some(bet) = own_bet(state, caller, id_value.and_then(parse_id), market_id).await?
        else {
            reports.push(failed("INVALID_BET_ID", Some(instruction)));
            continue;
        };
        if bet.remaining_minor == 0 {
            reports.push(failed("BET_TAKEN_OR_LAPSED", Some(instruction)));
            continue;
        }
        match state
            .engine
            .set_persistence(bet.market_id, caller.user.id, bet.bet_id, persistence)
            .await
        {
            Ok(true) => {
                passed += 1;
                reports.push(json!({ "status": "SUCCESS", "instruction": instruction }));
            }
            Ok(false) => reports.push(failed("NO_ACTION_REQUIRED", Some(instruction))),
            Err(AppError::NotFound(_)) => {
                reports.push(failed("BET_TAKEN_OR_LAPSED", Some(instruction)))
            }
            Err(err) => {
                tracing::warn!("a bot's update failed: {err}");
                reports.push(failed("ERROR_IN_ORDER", Some(instruction)))
            }
        }
    }
    let status = overall(passed, reports.len());
    top.insert("status".into(), json!(status));
    if status != "SUCCESS" {
        top.insert("errorCode".into(), json!("BET_ACTION_ERROR"));
    }
    top.insert("instructionReports".into(), Value::Array(reports));
    Ok(Value::Object(top))
}

/// The ids under `key` (a list; absent or null: none), each read by `item`.
fn ids_param(
    params: &Map<String, Value>,
    key: &str,
    item: impl Fn(&Value) -> Option<i64>,
) -> Result<Vec<i64>, ApiNgError> {
    let items = list_param(params, key)?;
    if items.len() > BOT_FILTER_MAX {
        return Err(ApiNgError::new(
            "TOO_MUCH_DATA",
            format!("{key} may hold at most {BOT_FILTER_MAX} ids."),
        ));
    }
    items
        .iter()
        .map(|v| {
            item(v)
                .ok_or_else(|| ApiNgError::input(format!("{key} holds {v}, which is not an id.")))
        })
        .collect()
}

fn texts_param(params: &Map<String, Value>, key: &str) -> Result<Vec<String>, ApiNgError> {
    let items = list_param(params, key)?;
    if items.len() > BOT_FILTER_MAX {
        return Err(ApiNgError::new(
            "TOO_MUCH_DATA",
            format!("{key} may hold at most {BOT_FILTER_MAX} references."),
        ));
    }
    items
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| ApiNgError::input(format!("{key} holds {v}, which is not text.")))
        })
        .collect()
}

/// fromRecord and recordCount (at most [`BOT_BETS_MAX`]; 0 or absent is the most).
fn paging(params: &Map<String, Value>) -> Result<(i64, i64), ApiNgError> {
    let number = |key: &str| match params.get(key) {
        None | Some(Value::Null) => Ok(0),
        Some(value) => value.as_i64().filter(|n| *n >= 0).ok_or_else(|| {
            ApiNgError::input(format!("{key} must be a whole number from 0, not {value}."))
        }),
    };
    let from = number("fromRecord")?;
    let count = number("recordCount")?;
    Ok((from, if count == 0 { BOT_BETS_MAX } else { count.min(BOT_BETS_MAX) }))
}

/// Σ price × size per bet, for average matched prices.
async fn price_size_sums(
    state: &AppState,
    bets: &[&BetRow],
) -> Result<BTreeMap<i64, i128>, ApiNgError> {
    let ids: Vec<i64> = bets.iter().filter(|b| b.matched_minor > 0).map(|b| b.bet_id).collect();
    Ok(state.store.matched_price_size_sums(&ids).await?)
}

fn average_matched(bet: &BetRow, sums: &BTreeMap<i64, i128>) -> f64 {
    average_price(bet.matched_minor, sums.get(&bet.bet_id).copied().unwrap_or(0), None)
        .unwrap_or(0.0)
}

/// A stored exchange price (hundredths) as Betfair writes prices.
fn price_of(hundredths: i64) -> f64 {
    hundredths as f64 / 100.0
}

/// A current order in Betfair's strict CurrentOrder shape.
fn current_order(bet: &BetRow, sums: &BTreeMap<i64, i128>) -> Value {
    let mut item = json!({
        "betId": bet.bet_id.to_string(),
        "marketId": market_id_text(bet.market_id),
        "selectionId": bet.runner_id.unwrap_or(0),
        "handicap": 0.0,
        "priceSize": { "price": price_of(bet.price), "size": size_of(bet.stake_minor) },
        "bspLiability": 0.0,
        "side": side_code(bet.side),
        "status": if bet.remaining_minor > 0 { "EXECUTABLE" } else { "EXECUTION_COMPLETE" },
        "persistenceType": persistence_code(bet.persistence),
        "orderType": "LIMIT",
        "placedDate": date_text(bet.created_at_ms),
        "averagePriceMatched": average_matched(bet, sums),
        "sizeMatched": size_of(bet.matched_minor),
        "sizeRemaining": size_of(bet.remaining_minor),
        "sizeLapsed": size_of(bet.lapsed_minor),
        "sizeCancelled": size_of(bet.cancelled_minor),
        "sizeVoided": 0.0,
    });
    add_refs(&mut item, &bet.refs);
    item
}

fn add_refs(item: &mut Value, refs: &BotRefs) {
    if let Some(order_ref) = &refs.order_ref {
        item["customerOrderRef"] = json!(order_ref);
    }
    if let Some(strategy_ref) = &refs.strategy_ref {
        item["customerStrategyRef"] = json!(strategy_ref);
    }
}

/// Oldest first unless sortDir says LATEST_TO_EARLIEST.
fn oldest_first(params: &Map<String, Value>) -> Result<bool, ApiNgError> {
    match params.get("sortDir") {
        None | Some(Value::Null) => Ok(true),
        Some(Value::String(s)) if s == "EARLIEST_TO_LATEST" => Ok(true),
        Some(Value::String(s)) if s == "LATEST_TO_EARLIEST" => Ok(false),
        Some(other) => Err(ApiNgError::input(format!(
            "sortDir must be EARLIEST_TO_LATEST or LATEST_TO_EARLIEST, not {other}."
        ))),
    }
}

async fn list_current_orders(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
    let (from_ms, to_ms) = time_range(params, "dateRange")?;
    let (offset, limit) = paging(params)?;
    let unmatched = match params.get("orderProjection").and_then(Value::as_str) {
        None | Some("ALL") => None,
        Some("EXECUTABLE") => Some(true),
        Some("EXECUTION_COMPLETE") => Some(false),
        Some(other) => {
            return Err(ApiNgError::input(format!(
                "orderProjection must be ALL, EXECUTABLE or EXECUTION_COMPLETE, not {other}."
            )))
        }
    };
    // Every order is placed, matched and sorted by its id here (placing time); BY_MARKET
    // sorts by market first.
    let by_market = params.get("orderBy").and_then(Value::as_str) == Some("BY_MARKET");
    let (bets, more) = state
        .store
        .bot_bets(&BotBetQuery {
            bet_ids: ids_param(params, "betIds", parse_id)?,
            market_ids: ids_param(params, "marketIds", parse_market_id)?,
            order_refs: texts_param(params, "customerOrderRefs")?,
            strategy_refs: texts_param(params, "customerStrategyRefs")?,
            from_ms,
            to_ms,
            unmatched,
            oldest_first: oldest_first(params)?,
            offset,
            limit,
            ..BotBetQuery::new(caller.user.id, BotBetState::Current)
        })
        .await?;
    let mut rows: Vec<&BetRow> = bets.iter().map(|b| &b.bet).collect();
    if by_market {
        rows.sort_by_key(|b| b.market_id);
    }
    let sums = price_size_sums(state, &rows).await?;
    Ok(json!({
        "currentOrders": rows.iter().map(|b| current_order(b, &sums)).collect::<Vec<_>>(),
        "moreAvailable": more,
    }))
}

/// A cleared order, or a group of them, as listClearedOrders writes it.
#[derive(Default)]
struct Cleared {
    first: Option<BotBet>,
    bet_count: i64,
    profit_minor: i64,
    size_minor: i64,
    cancelled_minor: i64,
    settled_ms: i64,
}

async fn list_cleared_orders(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
    let bet_status = params.get("betStatus").and_then(Value::as_str).unwrap_or("SETTLED");
    let state_wanted = match bet_status {
        "SETTLED" => BotBetState::Settled,
        "VOIDED" => BotBetState::Voided,
        "LAPSED" => BotBetState::Lapsed,
        "CANCELLED" => BotBetState::Cancelled,
        other => {
            return Err(ApiNgError::input(format!(
                "betStatus must be SETTLED, VOIDED, LAPSED or CANCELLED, not {other}."
            )))
        }
    };
    let group_by = match params.get("groupBy") {
        None | Some(Value::Null) => "BET",
        Some(Value::String(g))
            if ["EVENT_TYPE", "EVENT", "MARKET", "SIDE", "BET"].contains(&g.as_str()) =>
        {
            g.as_str()
        }
        Some(other) => {
            return Err(ApiNgError::input(format!(
                "groupBy must be EVENT_TYPE, EVENT, MARKET, SIDE or BET, not {other}."
            )))
        }
    };
    let with_description =
        params.get("includeItemDescription").and_then(Value::as_bool) == Some(true);
    let (from_ms, to_ms) = time_range(params, "settledDateRange")?;
    let (offset, limit) = paging(params)?;
    let side = match params.get("side").and_then(Value::as_str) {
        None => None,
        Some("BACK") => Some("back".to_string()),
        Some("LAY") => Some("lay".to_string()),
        Some(other) => {
            return Err(ApiNgError::input(format!("side must be BACK or LAY, not {other}.")))
        }
    };
    let grouped = group_by != "BET";
    let query = BotBetQuery {
        sport_ids: ids_param(params, "eventTypeIds", parse_id)?,
        match_ids: ids_param(params, "eventIds", parse_id)?,
        market_ids: ids_param(params, "marketIds", parse_market_id)?,
        runner_ids: ids_param(params, "runnerIds", parse_id)?,
        bet_ids: ids_param(params, "betIds", parse_id)?,
        order_refs: texts_param(params, "customerOrderRefs")?,
        strategy_refs: texts_param(params, "customerStrategyRefs")?,
        side,
        from_ms,
        to_ms,
        oldest_first: true,
        // A grouped answer groups the first page of bets (up to the most a page holds).
        offset: if grouped { 0 } else { offset },
        limit: if grouped { BOT_BETS_MAX } else { limit },
        ..BotBetQuery::new(caller.user.id, state_wanted.clone())
    };
    let (bets, more) = state.store.bot_bets(&query).await?;
    let rows: Vec<&BetRow> = bets.iter().map(|b| &b.bet).collect();
    let sums = price_size_sums(state, &rows).await?;
    let mut groups: Vec<(String, Cleared)> = Vec::new();
    for bot_bet in &bets {
        let bet = &bot_bet.bet;
        let key = match group_by {
            "EVENT_TYPE" => bot_bet.sport_id.to_string(),
            "EVENT" => bot_bet.match_id.to_string(),
            "MARKET" => bet.market_id.to_string(),
            "SIDE" => format!("{}:{}", bet.market_id, bet.side),
            _ => bet.bet_id.to_string(),
        };
        let index = match groups.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                groups.push((key, Cleared { first: Some(bot_bet.clone()), ..Cleared::default() }));
                groups.len() - 1
            }
        };
        let group = &mut groups[index].1;
        group.bet_count += 1;
        group.profit_minor += bet.pnl_minor.unwrap_or(0);
        group.size_minor += bet.matched_minor;
        group.cancelled_minor += match state_wanted {
            BotBetState::Lapsed => bet.lapsed_minor,
            _ => bet.cancelled_minor,
        };
        group.settled_ms = group.settled_ms.max(bot_bet.settled_at_ms.unwrap_or(bet.created_at_ms));
    }
    let more = if grouped { more || groups.len() as i64 > offset + limit } else { more };
    let page: Vec<Value> = groups
        .into_iter()
        .skip(if grouped { usize::try_from(offset).unwrap_or(0) } else { 0 })
        .take(usize::try_from(limit).unwrap_or(0))
        .filter_map(|(_, group)| {
            let first = group.first.as_ref()?;
            let bet = &first.bet;
            let mut item = json!({
                "eventTypeId": first.sport_id.to_string(),
                "settledDate": date_text(group.settled_ms),
                "betCount": group.bet_count,
            });
            if group_by != "EVENT_TYPE" {
                item["eventId"] = json!(first.match_id.to_string());
            }
            if ["MARKET", "SIDE", "BET"].contains(&group_by) {
                item["marketId"] = json!(market_id_text(bet.market_id));
            }
            if ["SIDE", "BET"].contains(&group_by) {
                item["side"] = json!(side_code(bet.side));
            }
            match state_wanted {
                BotBetState::Settled | BotBetState::Voided => {
                    item["profit"] = size_of(group.profit_minor);
                    item["commission"] = json!(0.0);
                    item["sizeSettled"] = size_of(group.size_minor);
                    if bet_status == "SETTLED" && group_by == "BET" {
                        item["betOutcome"] =
                            json!(if group.profit_minor > 0 { "WON" } else { "LOST" });
                    }
                }
                _ => item["sizeCancelled"] = size_of(group.cancelled_minor),
            }
            if group_by == "BET" {
                item["selectionId"] = json!(bet.runner_id.unwrap_or(0));
                item["handicap"] = json!(0.0);
                item["betId"] = json!(bet.bet_id.to_string());
                item["placedDate"] = json!(date_text(bet.created_at_ms));
                item["persistenceType"] = json!(persistence_code(bet.persistence));
                item["orderType"] = json!("LIMIT");
                item["priceRequested"] = json!(price_of(bet.price));
                item["priceMatched"] = json!(average_matched(bet, &sums));
                item["priceReduced"] = json!(false);
                add_refs(&mut item, &bet.refs);
            }
            if with_description {
                let mut description = json!({
                    "eventTypeDesc": first.sport_name,
                    "eventDesc": first.match_name,
                    "marketStartTime": date_text(first.match_open_ms),
                });
                if group_by != "EVENT_TYPE" && group_by != "EVENT" {
                    description["marketDesc"] = json!(first.market_name);
                    description["marketType"] = json!(betfair_market_type(first.market_type));
                }
                if group_by == "BET" {
                    if let Some(name) = &first.selection_name {
                        description["runnerDesc"] = json!(name);
                    }
                }
                item["itemDescription"] = description;
            }
            Some(item)
        })
        .collect();
    Ok(json!({ "clearedOrders": page, "moreAvailable": more }))
}

fn betfair_market_type(market_type: MarketType) -> &'static str {
    market_type_code(market_type).unwrap_or("MATCH_ODDS")
}

async fn list_market_pnl(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
    let market_ids = ids_param(params, "marketIds", parse_market_id)?;
    if market_ids.is_empty() {
        return Err(ApiNgError::input(
            "marketIds is required: a list of market ids such as [\"1.40\"].",
        ));
    }
    if market_ids.len() > MAX_PNL_MARKETS {
        return Err(ApiNgError::new(
            "TOO_MUCH_DATA",
            format!("Ask for at most {MAX_PNL_MARKETS} markets at once."),
        ));
    }
    let mut answer = Vec::new();
    for market_id in market_ids {
        let Ok(row) = state.store.market(market_id).await else { continue };
        if market_type_code(row.setup.market_type).is_none()
            || !state.engine.is_running(market_id).await
        {
            continue;
        }
        let Ok(view) = state.engine.view(market_id, Some(caller.user.id)).await else { continue };
        // The engine's position for the caller is their profit or loss if that runner wins.
        let pnls: Vec<Value> = view
            .runners
            .iter()
            .map(|r| json!({ "selectionId": r.selection_id, "ifWin": rupees(r.position) }))
            .collect();
        answer.push(json!({
            "marketId": market_id_text(market_id),
            // ifWin is before commission (netOfCommission is not offered).
            "commissionApplied": 0.0,
            "profitAndLosses": pnls,
        }));
    }
    Ok(Value::Array(answer))
}

/// The caller's orders and matches per runner for listMarketBook's orderProjection and
/// matchProjection (`None` when not asked for): `runner_id → (orders, matches)`.
pub(crate) async fn book_orders(
    state: &AppState,
    caller: &Caller,
    market_id: i64,
    params: &Value,
) -> Result<HashMap<i64, (Option<Vec<Value>>, Option<Vec<Value>>)>, ApiNgError> {
    let order_projection = params.get("orderProjection").and_then(Value::as_str);
    let match_projection = params.get("matchProjection").and_then(Value::as_str);
    if order_projection.is_none() && match_projection.is_none() {
        return Ok(HashMap::new());
    }
    let unmatched = match order_projection {
        Some("EXECUTABLE") => Some(true),
        Some("EXECUTION_COMPLETE") => Some(false),
        _ => None,
    };
    let (bets, _) = state
        .store
        .bot_bets(&BotBetQuery {
            market_ids: vec![market_id],
            limit: BOT_BETS_MAX,
            ..BotBetQuery::new(caller.user.id, BotBetState::Current)
        })
        .await?;
    let rows: Vec<&BetRow> = bets.iter().map(|b| &b.bet).collect();
    let sums = price_size_sums(state, &rows).await?;
    let mut orders: HashMap<i64, Vec<Value>> = HashMap::new();
    let mut fills: HashMap<i64, Vec<Matched>> = HashMap::new();
    for bet in &rows {
        let Some(runner_id) = bet.runner_id else { continue };
        if order_projection.is_some() && unmatched.is_none_or(|u| u == (bet.remaining_minor > 0)) {
            let mut order = json!({
                "betId": bet.bet_id.to_string(),
                "orderType": "LIMIT",
                "status": if bet.remaining_minor > 0 { "EXECUTABLE" } else { "EXECUTION_COMPLETE" },
                "persistenceType": persistence_code(bet.persistence),
                "side": side_code(bet.side),
                "price": price_of(bet.price),
                "size": size_of(bet.stake_minor),
                "bspLiability": 0.0,
                "placedDate": date_text(bet.created_at_ms),
                "avgPriceMatched": average_matched(bet, &sums),
                "sizeMatched": size_of(bet.matched_minor),
                "sizeRemaining": size_of(bet.remaining_minor),
                "sizeLapsed": size_of(bet.lapsed_minor),
                "sizeCancelled": size_of(bet.cancelled_minor),
                "sizeVoided": 0.0,
            });
            add_refs(&mut order, &bet.refs);
            orders.entry(runner_id).or_default().push(order);
        }
        if match_projection.is_some() && bet.matched_minor > 0 {
            fills.entry(runner_id).or_default().push(Matched {
                bet_id: bet.bet_id,
                side: bet.side,
                size_minor: bet.matched_minor,
                price_size_sum: sums.get(&bet.bet_id).copied().unwrap_or(0),
            });
        }
    }
    let runner_ids: HashSet<i64> = rows.iter().filter_map(|b| b.runner_id).collect();
    Ok(runner_ids
        .into_iter()
        .map(|runner_id| {
            let runner_orders =
                order_projection.map(|_| orders.remove(&runner_id).unwrap_or_default());
            let runner_matches = match_projection
                .map(|p| rolled_up(fills.remove(&runner_id).unwrap_or_default(), p));
            (runner_id, (runner_orders, runner_matches))
        })
        .collect())
}

/// One bet's matched part, for listMarketBook's matches.
struct Matched {
    bet_id: i64,
    side: BetSide,
    size_minor: i64,
    /// Σ price × size over its fills (hundredths × minor units).
    price_size_sum: i128,
}

/// The caller's matches on one runner as matchProjection asks: each bet's matched part
/// (NO_ROLLUP), or per side and average price (ROLLED_UP_BY_PRICE), or per side at the
/// side's average price (ROLLED_UP_BY_AVG_PRICE). Items are Betfair's strict Match.
fn rolled_up(matched: Vec<Matched>, projection: &str) -> Vec<Value> {
    let average = |sum: i128, size: i64| average_price(size, sum, None).unwrap_or(0.0);
    match projection {
        "NO_ROLLUP" => matched
            .iter()
            .map(|m| {
                json!({
                    "betId": m.bet_id.to_string(),
                    "side": side_code(m.side),
                    "price": average(m.price_size_sum, m.size_minor),
                    "size": size_of(m.size_minor),
                })
            })
            .collect(),
        _ => {
            let by_price = projection == "ROLLED_UP_BY_PRICE";
            // (side, price in hundredths or 0 for the side's average) → (size, Σ price × size)
            let mut groups: BTreeMap<(&'static str, i64), (i64, i128)> = BTreeMap::new();
            for m in &matched {
                let price_key = if by_price {
                    (average(m.price_size_sum, m.size_minor) * 100.0).round() as i64
                } else {
                    0
                };
                let group = groups.entry((side_code(m.side), price_key)).or_default();
                group.0 += m.size_minor;
                group.1 += m.price_size_sum;
            }
            groups
                .into_iter()
                .map(|((side, _), (size_minor, sum))| {
                    json!({ "side": side, "price": average(sum, size_minor), "size": size_of(size_minor) })
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_refusals_map_to_betfairs_codes() {
        let unprocessable = |m: &str| AppError::Unprocessable(m.into());
        let conflict = |m: &str| AppError::Conflict(m.into());
        let cases = [
            (
                unprocessable("Insufficient funds: this bet needs ₹10 and you have ₹5 available."),
                Refusal::InsufficientFunds,
            ),
            (
                unprocessable("This bet would take your exposure over your limit of ₹100."),
                Refusal::LossLimit,
            ),
            (unprocessable("The minimum stake here is ₹100."), Refusal::InvalidBetSize),
            (unprocessable("This account cannot bet."), Refusal::AccountLocked),
            (AppError::betting_locked(), Refusal::AccountLocked),
            (unprocessable("Your stake limit is ₹500 a bet."), Refusal::InvalidBetSize),
            (conflict(crate::engine::MARKET_CLOSED), Refusal::NotOpen),
            (conflict("This market is suspended and takes no bets now."), Refusal::Suspended),
            (
                conflict("This market is suspended (ball running) and takes no bets now."),
                Refusal::Suspended,
            ),
            (
                conflict(
                    "The market was suspended during the bet delay, so the bet was not placed.",
                ),
                Refusal::Suspended,
            ),
            (conflict("The market is busy. Try again in a moment."), Refusal::Error),
            (AppError::NotFound("Runner 9 is not in this market.".into()), Refusal::InvalidRunner),
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
