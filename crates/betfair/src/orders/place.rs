//! placeOrders: each instruction read (its price on Betfair's ladder, its size a positive
//! amount) and placed on its own through the engine, which alone decides the runner, the stake
//! limits and the funds; the market's status is read first because Betfair fails the whole call
//! for it; `customerRef` as the key that never places twice (see the parent module).

use super::*;

/// The market as orders find it: its id when it takes bets, or why not (a refusal of the whole
/// call, Betfair's envelope; the engine checks the status again as it places).
pub(super) async fn market_for_orders(
    state: &AppState,
    market_id: Option<i64>,
) -> Result<Result<i64, Refusal>, ApiNgError> {
    let Some(market_id) = market_id else { return Ok(Err(Refusal::InvalidMarket)) };
    let row = match state.store.market(market_id).await {
        Ok(row) => row,
        Err(backlay_store::StoreError::NotFound) => return Ok(Err(Refusal::InvalidMarket)),
        Err(other) => return Err(other.into()),
    };
    if market_type_code(row.setup.market_type).is_none() {
        return Ok(Err(Refusal::InvalidMarket));
    }
    let status = if state.engine.is_running(market_id).await {
        match state.engine.view(market_id, None).await {
            Ok(view) => view.status,
            Err(err) => return Ok(Err(refusal_of(&err))),
        }
    } else {
        row.status
    };
    Ok(match status {
        MarketStatus::Open => Ok(row.setup.market_id),
        MarketStatus::Suspended | MarketStatus::BallRunning => Err(Refusal::Suspended),
        MarketStatus::Closed | MarketStatus::Void => Err(Refusal::NotOpen),
    })
}

/// A place instruction as read, with what to echo back.
#[derive(Clone, Debug)]
pub(super) struct PlaceInstruction {
    pub(super) selection_id: i64,
    pub(super) side: BetSide,
    pub(super) price: Price,
    pub(super) price_text: String,
    pub(super) size: Money,
    pub(super) persistence: Persistence,
    pub(super) order_ref: Option<String>,
}

impl PlaceInstruction {
    /// The instruction as Betfair echoes it (strict keys).
    pub(super) fn echo(&self) -> Value {
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
pub(super) fn read_instruction(
    value: &Value,
) -> Result<PlaceInstruction, (Refusal, Option<Value>)> {
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

/// Places one instruction through the engine, as the web app places a bet.
pub(super) async fn place_one(
    state: &AppState,
    caller: &Caller,
    market_id: i64,
    order: &PlaceInstruction,
    client_ref: Option<String>,
    strategy_ref: Option<String>,
) -> Result<Value, Refused> {
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
            price: Quote::of_price(order.price),
            line: None,
            stake: order.size,
            persistence: order.persistence,
            client_ref,
            request_hash: hex::encode(Sha256::digest(fingerprint.as_bytes())),
            refs: BotRefs { order_ref: order.order_ref.clone(), strategy_ref },
            house_liquidity: false,
            house_max_exposure_minor: None,
            accept_rate_changes: Default::default(),
            cash_out: None,
        })
        .await
        .map_err(|err| Refused::of(&err))?;
    if answer.repeated {
        // A copy of this request placed it first (see the module docs).
        return Err(Refusal::Duplicate.into());
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

pub(super) async fn place_orders(
    state: &AppState,
    caller: &Caller,
    params: &Map<String, Value>,
) -> OpResult {
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
    let market_id = match market_for_orders(state, market_id).await? {
        Ok(market_id) => market_id,
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
    let placing = instructions.iter().enumerate().map(|(index, value)| {
        let client_ref = client_refs.as_ref().map(|refs| refs[index].clone());
        let strategy_ref = strategy_ref.clone();
        async move {
            let order = read_instruction(value).map_err(|(r, echo)| (r.into(), echo))?;
            place_one(state, caller, market_id, &order, client_ref, strategy_ref)
                .await
                .map_err(|r| (r, Some(order.echo())))
        }
    });
    // Together, so that the market's task places them in one batch.
    let results = futures::future::join_all(placing).await;
    let passed = results.iter().filter(|r| r.is_ok()).count();
    let first_refusal =
        results.iter().find_map(|r| r.as_ref().err().map(|(refused, _)| refused.clone()));
    let reports: Vec<Value> = results
        .into_iter()
        .map(|result| match result {
            Ok(report) => report,
            Err((refused, echo)) => failed(refused.refusal.instruction_code(), echo),
        })
        .collect();
    top.insert("status".into(), json!(overall(passed, reports.len())));
    top.insert("marketId".into(), json!(market_id_text(market_id)));
    if let Some(refused) = first_refusal {
        top.insert("errorCode".into(), json!(refused.refusal.report_code()));
        if let Some(details) = refused.details {
            top.insert("errorDetails".into(), json!(details));
        }
    }
    top.insert("instructionReports".into(), Value::Array(reports));
    Ok(Value::Object(top))
}

/// Betfair's characters of a customerRef.
pub(super) fn customer_ref_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || ":-._+*;~".contains(c)
}
