//! The account API (`account/json-rpc/v1`, `AccountAPING/v1.0/<op>`): getAccountFunds,
//! getAccountDetails (flumine asks at start and every two minutes) and getAccountStatement,
//! from the same ledger the web app's wallet and statement read.
//!
//! Betfair writes exposure as a figure at or below zero: a client with 1 000 and 25 at risk
//! has `availableToBetBalance` 975 and `exposure` −25 (the web app shows the same as liability).

use std::collections::HashMap;

use backlay_core::money::Money;
use backlay_store::ledger::{StatementLine, TransactionKind};
use serde_json::{json, Map, Value};

use super::catalogue::{rupees, time_range};
use super::rpc::{ApiNgError, OpResult};
use super::{date_text, market_id_text, market_type_code, Caller};
use backlay_operator::AppState;

/// Most statement lines one getAccountStatement answers (Betfair's limit).
const MAX_STATEMENT_LINES: i64 = 100;
/// The exposure limit shown to a client the operator set none for (Betfair always shows one).
const DEFAULT_EXPOSURE_LIMIT_MINOR: i64 = 10_000_000_000;
/// The start date Betfair writes when there is none.
const NO_DATE: &str = "0001-01-01T00:00:00.000Z";

/// The operations this module answers; `None` for any other.
pub(super) async fn call(
    state: &AppState,
    caller: &Caller,
    operation: &str,
    params: &Value,
) -> Option<OpResult> {
    let empty = Map::new();
    let params = params.as_object().unwrap_or(&empty);
    Some(match operation {
        "getAccountFunds" => account_funds(state, caller).await,
        "getAccountDetails" => Ok(account_details(caller)),
        "getAccountStatement" => account_statement(state, caller, params).await,
        _ => return None,
    })
}

async fn account_funds(state: &AppState, caller: &Caller) -> OpResult {
    let funds = state.store.funds_of_user(caller.user.id).await?;
    let limit_minor = caller.user.max_exposure_minor.unwrap_or(DEFAULT_EXPOSURE_LIMIT_MINOR);
    Ok(json!({
        "availableToBetBalance": rupees(Money::from_minor(funds.available_minor())),
        "exposure": rupees(Money::from_minor(-funds.exposure_minor)),
        "retainedCommission": 0.0,
        "exposureLimit": rupees(Money::from_minor(-limit_minor)),
        "discountRate": 0.0,
        "pointsBalance": 0,
        "wallet": "UK",
    }))
}

fn account_details(caller: &Caller) -> Value {
    json!({
        "currencyCode": "INR",
        "firstName": caller.user.user_name,
        "lastName": "",
        "localeCode": "en",
        "region": "IND",
        "timezone": "Asia/Kolkata",
        "discountRate": 0.0,
        "pointsBalance": 0,
        "countryCode": "IN",
    })
}

async fn account_statement(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
    let (from_ms, to_ms) = time_range(params, "itemDateRange")?;
    let number = |key: &str| match params.get(key) {
        None | Some(Value::Null) => Ok(0),
        Some(value) => value.as_i64().filter(|n| *n >= 0).ok_or_else(|| {
            ApiNgError::input(format!("{key} must be a whole number from 0, not {value}."))
        }),
    };
    let offset = number("fromRecord")?;
    let count = number("recordCount")?;
    let limit = if count == 0 { MAX_STATEMENT_LINES } else { count.min(MAX_STATEMENT_LINES) };
    use TransactionKind::{Deposit, Settlement, Void, Withdraw};
    let include_item = params.get("includeItem").and_then(Value::as_str);
    let kinds: Option<&[TransactionKind]> = match include_item {
        None | Some("ALL") => Some(&[]),
        Some("EXCHANGE") => Some(&[Settlement, Void]),
        Some("DEPOSITS_WITHDRAWALS") => Some(&[Deposit, Withdraw]),
        Some("POKER_ROOM") => None,
        Some(other) => {
            return Err(ApiNgError::input(format!(
            "includeItem must be ALL, EXCHANGE, DEPOSITS_WITHDRAWALS or POKER_ROOM, not {other}."
        )))
        }
    };
    let Some(kinds) = kinds else {
        return Ok(json!({ "accountStatement": [], "moreAvailable": false }));
    };
    let (lines, total) = state
        .store
        .statement(
            caller.user.id,
            from_ms.unwrap_or(0),
            to_ms.unwrap_or(i64::MAX),
            kinds,
            // Betfair's statement is of the wallet bet with; cash settled is not in it.
            false,
            offset,
            limit,
        )
        .await?;
    let more = offset + (lines.len() as i64) < total;
    // The markets the lines settled, each read once.
    let mut markets: HashMap<i64, Option<MarketNames>> = HashMap::new();
    for market_id in lines.iter().filter_map(|l| l.market_id) {
        if markets.contains_key(&market_id) {
            continue;
        }
        let names = match state.store.market(market_id).await {
            Ok(market) => {
                let event = state.store.match_by_id(market.setup.match_id).await.ok();
                event.map(|event| MarketNames {
                    event_id: event.match_id,
                    event_type_id: event.sport_id,
                    full_name: format!("{} / {}", event.name, market.setup.name),
                    start_ms: event.open_date_ms,
                    is_exchange: market_type_code(market.setup.market_type).is_some(),
                })
            }
            Err(_) => None,
        };
        markets.insert(market_id, names);
    }
    let items: Vec<Value> = lines
        .iter()
        .map(|line| statement_item(line, line.market_id.and_then(|m| markets.get(&m)?.as_ref())))
        .collect();
    Ok(json!({ "accountStatement": items, "moreAvailable": more }))
}

/// What a statement line names of the market it settled.
struct MarketNames {
    event_id: i64,
    event_type_id: i64,
    full_name: String,
    start_ms: i64,
    is_exchange: bool,
}

/// One ledger line as Betfair's strict AccountStatement: exactly its seven keys, with a
/// strict legacyData.
fn statement_item(line: &StatementLine, market: Option<&MarketNames>) -> Value {
    let settled = matches!(line.kind, TransactionKind::Settlement | TransactionKind::Void);
    let win_lose = match (line.kind, line.amount_minor) {
        (TransactionKind::Settlement, amount) if amount > 0 => "RESULT_WON",
        (TransactionKind::Settlement, amount) if amount < 0 => "RESULT_LOST",
        _ => "RESULT_NOT_APPLICABLE",
    };
    let unknown_item = json!({
        "kind": line.kind,
        "description": line.description,
        "remark": line.remark,
        "marketId": line.market_id.map(market_id_text),
    });
    json!({
        "refId": line.entry_id.to_string(),
        "itemDate": date_text(line.created_at_ms),
        "amount": rupees(Money::from_minor(line.amount_minor)),
        "balance": rupees(Money::from_minor(line.balance_after_minor)),
        "itemClass": "UNKNOWN",
        "itemClassData": { "unknownStatementItem": unknown_item.to_string() },
        "legacyData": {
            "avgPrice": 0.0,
            "betCategoryType": if settled { "E" } else { "NONE" },
            "betSize": 0.0,
            "betType": "B",
            "eventId": market.map_or(0, |m| m.event_id),
            "eventTypeId": market.map_or(0, |m| m.event_type_id),
            "fullMarketName": market.map_or_else(|| line.description.clone(), |m| m.full_name.clone()),
            "grossBetAmount": 0.0,
            "marketName": line.description,
            "marketType": if market.is_some_and(|m| m.is_exchange) { "O" } else { "NOT_APPLICABLE" },
            "placedDate": date_text(line.created_at_ms),
            "selectionId": 0,
            "startDate": market.map_or_else(|| NO_DATE.to_string(), |m| date_text(m.start_ms)),
            "transactionType": if line.amount_minor >= 0 { "ACCOUNT_CREDIT" } else { "ACCOUNT_DEBIT" },
            "transactionId": line.entry_id,
            "winLose": win_lose,
        },
    })
}
