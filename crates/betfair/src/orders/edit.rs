//! cancelOrders, replaceOrders and updateOrders: edits of the caller's own unmatched bets
//! (another's bet is refused exactly like one that does not exist).

use super::*;

/// The caller's bet `bet_id` if it is theirs (in `market_id` when given); `None` for an
/// unknown bet or someone else's, which a bot is never told apart.
pub(super) async fn own_bet(
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
pub(super) fn bet_id_echo(value: Option<&Value>) -> Value {
    match value {
        Some(Value::Number(n)) => json!(n.to_string()),
        Some(Value::String(s)) => json!(s),
        _ => json!(""),
    }
}

/// Refuses a request naming one bet twice.
pub(super) fn repeated_bet_ids(items: &[Value]) -> bool {
    let mut seen = HashSet::new();
    items.iter().filter_map(|i| i.get("betId").and_then(parse_id)).any(|id| !seen.insert(id))
}

/// Cancels (part of) one of the caller's bets: the size cancelled and the cancel report, or
/// the failed report.
pub(super) async fn cancel_one(
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
        Err(AppError::Refused(BetRefusal::MarketClosed)) => {
            Err(failed("BET_TAKEN_OR_LAPSED", Some(instruction)))
        }
        Err(err) => {
            tracing::warn!("a bot's cancel failed: {err}");
            Err(failed("ERROR_IN_ORDER", Some(instruction)))
        }
    }
}

pub(super) async fn cancel_orders(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
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
pub(super) fn edits_of<'a>(
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
pub(super) struct Edits<'a> {
    pub(super) top: Map<String, Value>,
    pub(super) market_id: Option<i64>,
    pub(super) instructions: &'a [Value],
}

pub(super) async fn replace_orders(
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
    // The first refusal's words, when the engine gave some (the module docs of `orders`).
    let mut first_details: Option<String> = None;
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
            Err(refused) => {
                if first_code.is_none() {
                    first_code = Some(refused.refusal.report_code());
                    first_details = refused.details;
                }
                reports.push(failure(
                    "CANCELLED_NOT_PLACED",
                    cancel_report,
                    failed(refused.refusal.instruction_code(), Some(order.echo())),
                ));
            }
        }
    }
    top.insert("status".into(), json!(overall(passed, reports.len())));
    if let Some(code) = first_code {
        top.insert("errorCode".into(), json!(code));
    }
    if let Some(details) = first_details {
        top.insert("errorDetails".into(), json!(details));
    }
    top.insert("instructionReports".into(), Value::Array(reports));
    Ok(Value::Object(top))
}

pub(super) async fn update_orders(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
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
