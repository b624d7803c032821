//! The order lists: listCurrentOrders, listClearedOrders, listMarketProfitAndLoss, and the
//! caller's orders and matches inside listMarketBook ([`book_orders`]).

use super::*;

/// The ids under `key` (a list; absent or null: none), each read by `item`.
pub(super) fn ids_param(
    params: &Map<String, Value>,
    key: &str,
    item: impl Fn(&Value) -> Option<i64>,
) -> Result<Vec<i64>, ApiNgError> {
    bounded_list(params, key, ("ids", "an id"), item)
}

pub(super) fn texts_param(
    params: &Map<String, Value>,
    key: &str,
) -> Result<Vec<String>, ApiNgError> {
    bounded_list(params, key, ("references", "text"), |v| v.as_str().map(str::to_string))
}

/// The list under `key`, at most [`BOT_FILTER_MAX`] items, each read by `item`; `what` names
/// the items (plural, and one) in the refusals.
fn bounded_list<T>(
    params: &Map<String, Value>,
    key: &str,
    what: (&str, &str),
    item: impl Fn(&Value) -> Option<T>,
) -> Result<Vec<T>, ApiNgError> {
    let items = list_param(params, key)?;
    if items.len() > BOT_FILTER_MAX {
        return Err(ApiNgError::new(
            "TOO_MUCH_DATA",
            format!("{key} may hold at most {BOT_FILTER_MAX} {}.", what.0),
        ));
    }
    items
        .iter()
        .map(|v| {
            item(v).ok_or_else(|| {
                ApiNgError::input(format!("{key} holds {v}, which is not {}.", what.1))
            })
        })
        .collect()
}

/// fromRecord and recordCount (at most [`BOT_BETS_MAX`]; 0 or absent is the most).
pub(super) fn paging(params: &Map<String, Value>) -> Result<(i64, i64), ApiNgError> {
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
pub(super) async fn price_size_sums(
    state: &AppState,
    bets: &[&BetRow],
) -> Result<BTreeMap<i64, i128>, ApiNgError> {
    let ids: Vec<i64> = bets.iter().filter(|b| b.matched_minor > 0).map(|b| b.bet_id).collect();
    Ok(state.store.matched_price_size_sums(&ids).await?)
}

pub(super) fn average_matched(bet: &BetRow, sums: &BTreeMap<i64, i128>) -> f64 {
    average_price(bet.matched_minor, sums.get(&bet.bet_id).copied().unwrap_or(0), None)
        .unwrap_or(0.0)
}

/// A stored exchange price (hundredths) as Betfair writes prices.
pub(super) fn price_of(hundredths: i64) -> f64 {
    hundredths as f64 / 100.0
}

/// A current order in Betfair's strict CurrentOrder shape.
pub(super) fn current_order(bet: &BetRow, sums: &BTreeMap<i64, i128>) -> Value {
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

pub(super) fn add_refs(item: &mut Value, refs: &BotRefs) {
    if let Some(order_ref) = &refs.order_ref {
        item["customerOrderRef"] = json!(order_ref);
    }
    if let Some(strategy_ref) = &refs.strategy_ref {
        item["customerStrategyRef"] = json!(strategy_ref);
    }
}

/// Oldest first unless sortDir says LATEST_TO_EARLIEST.
pub(super) fn oldest_first(params: &Map<String, Value>) -> Result<bool, ApiNgError> {
    match params.get("sortDir") {
        None | Some(Value::Null) => Ok(true),
        Some(Value::String(s)) if s == "EARLIEST_TO_LATEST" => Ok(true),
        Some(Value::String(s)) if s == "LATEST_TO_EARLIEST" => Ok(false),
        Some(other) => Err(ApiNgError::input(format!(
            "sortDir must be EARLIEST_TO_LATEST or LATEST_TO_EARLIEST, not {other}."
        ))),
    }
}

pub(super) async fn list_current_orders(
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
pub(super) struct Cleared {
    pub(super) first: Option<BotBet>,
    pub(super) bet_count: i64,
    pub(super) profit_minor: i64,
    pub(super) size_minor: i64,
    pub(super) cancelled_minor: i64,
    pub(super) settled_ms: i64,
}

pub(super) async fn list_cleared_orders(
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

pub(super) fn betfair_market_type(market_type: MarketType) -> &'static str {
    market_type_code(market_type).unwrap_or("MATCH_ODDS")
}

pub(super) async fn list_market_pnl(
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
pub(super) struct Matched {
    pub(super) bet_id: i64,
    pub(super) side: BetSide,
    pub(super) size_minor: i64,
    /// Σ price × size over its fills (hundredths × minor units).
    pub(super) price_size_sum: i128,
}

/// The caller's matches on one runner as matchProjection asks: each bet's matched part
/// (NO_ROLLUP), or per side and average price (ROLLED_UP_BY_PRICE), or per side at the
/// side's average price (ROLLED_UP_BY_AVG_PRICE). Items are Betfair's strict Match.
pub(super) fn rolled_up(matched: Vec<Matched>, projection: &str) -> Vec<Value> {
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
