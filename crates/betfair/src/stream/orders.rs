//! Order change messages (`ocm`): the full state of each of the caller's orders that changed,
//! every time (betfairlightweight replaces an order by its bet id, never merges), grouped by
//! market and runner:
//!
//! ```json
//! {"id":"1.42","orc":[{"id":11,"uo":[{"id":"1001","p":2.0,"s":10.0,"side":"B","status":"EC",
//!   "pt":"L","ot":"L","pd":1735725590000,"md":1735725600000,"avp":2.0,"sm":10.0,"sr":0.0,
//!   "sl":0.0,"sc":0.0,"sv":0.0,"rfo":"","rfs":""}]}]}
//! ```
//!
//! Bets placed from the web app are the same bets, so they come here too.

use std::collections::{BTreeMap, HashSet};

use backlay_core::exchange::{BetSide, Persistence};
use backlay_core::money::Money;
use backlay_store::bets::{BetRow, BetStatus, FillSummary};
use serde_json::{json, Value};

use crate::market_id_text;

/// One order as the stream shows it, with where it belongs.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Order {
    pub bet_id: i64,
    pub market_id: i64,
    pub runner_id: i64,
    /// Its `uo` item.
    pub uo: Value,
}

/// The customer's references of a bet, `(rfo, rfs)`; `""` when unset (betfairlightweight
/// requires both keys, and flumine follows its orders by `rfo`).
fn customer_refs(bet: &BetRow) -> (String, String) {
    (
        bet.refs.order_ref.clone().unwrap_or_default(),
        bet.refs.strategy_ref.clone().unwrap_or_default(),
    )
}

fn size(minor: i64) -> f64 {
    Money::from_minor(minor).to_f64_for_json()
}

/// The order of an exchange bet (`None` for a fancy bet, which has no runner).
pub(super) fn order(bet: &BetRow, fills: Option<&FillSummary>) -> Option<Order> {
    let runner_id = bet.runner_id?;
    let side = match bet.side {
        BetSide::Back | BetSide::Yes => "B",
        BetSide::Lay | BetSide::No => "L",
    };
    let executable = bet.status == BetStatus::Open && bet.remaining_minor > 0;
    let voided = if bet.status == BetStatus::Void { bet.matched_minor } else { 0 };
    let (rfo, rfs) = customer_refs(bet);
    let mut uo = json!({
        "id": bet.bet_id.to_string(),
        "p": bet.price as f64 / 100.0,
        "s": size(bet.stake_minor),
        "side": side,
        "status": if executable { "E" } else { "EC" },
        "pt": match bet.persistence { Persistence::Lapse => "L", Persistence::Persist => "P" },
        "ot": "L",
        "pd": bet.created_at_ms,
        "sm": size(bet.matched_minor),
        "sr": size(bet.remaining_minor),
        "sl": size(bet.lapsed_minor),
        "sc": size(bet.cancelled_minor),
        "sv": size(voided),
        "rfo": rfo,
        "rfs": rfs,
    });
    if let Some(fills) = fills.filter(|_| bet.matched_minor > 0) {
        uo["md"] = json!(fills.last_fill_ms);
        // Σ price × size / Σ size, in hundredths, then as odds: the average matched price.
        let average = fills.price_size_sum / i128::from(bet.matched_minor);
        uo["avp"] = json!(average as f64 / 100.0);
    }
    Some(Order { bet_id: bet.bet_id, market_id: bet.market_id, runner_id, uo })
}

/// True when the order passes the subscription's strategy filter.
pub(super) fn wanted(order: &Order, strategy_refs: Option<&HashSet<String>>) -> bool {
    strategy_refs.is_none_or(|refs| order.uo["rfs"].as_str().is_some_and(|rfs| refs.contains(rfs)))
}

/// The `oc` items for these orders, by market and runner; `full_image` marks an image (the
/// client replaces what it holds of those markets).
pub(super) fn market_changes(orders: &[Order], full_image: bool) -> Vec<Value> {
    let mut by_market: BTreeMap<i64, BTreeMap<i64, Vec<Value>>> = BTreeMap::new();
    for order in orders {
        by_market
            .entry(order.market_id)
            .or_default()
            .entry(order.runner_id)
            .or_default()
            .push(order.uo.clone());
    }
    by_market
        .into_iter()
        .map(|(market_id, runners)| {
            let orc: Vec<Value> = runners
                .into_iter()
                .map(|(runner_id, uo)| {
                    let mut item = json!({ "id": runner_id, "uo": uo });
                    if full_image {
                        item["fullImage"] = json!(true);
                    }
                    item
                })
                .collect();
            let mut item = json!({ "id": market_id_text(market_id), "orc": orc });
            if full_image {
                item["fullImage"] = json!(true);
            }
            item
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bet(matched: i64, remaining: i64, status: BetStatus) -> BetRow {
        BetRow {
            bet_id: 1001,
            user_id: 5,
            market_id: 42,
            runner_id: Some(11),
            side: BetSide::Back,
            price: 250,
            line: None,
            stake_minor: 1_000,
            matched_minor: matched,
            remaining_minor: remaining,
            cancelled_minor: 1_000 - matched - remaining,
            lapsed_minor: 0,
            persistence: Persistence::Lapse,
            status,
            pnl_minor: None,
            client_ref: None,
            request_hash: None,
            created_at_ms: 1_735_725_590_000,
            refs: backlay_store::bets::BotRefs {
                order_ref: Some("strategy-1".into()),
                strategy_ref: None,
            },
        }
    }

    #[test]
    fn an_order_carries_every_key_betfairlightweight_requires() {
        let fills = FillSummary {
            price_size_sum: 250 * 400,
            backer_profit_minor: 600,
            last_fill_ms: 1_735_725_600_000,
        };
        let order = order(&bet(400, 600, BetStatus::Open), Some(&fills)).unwrap();
        assert_eq!(
            order.uo,
            json!({
                "id": "1001", "p": 2.5, "s": 10.0, "side": "B", "status": "E", "pt": "L", "ot": "L",
                "pd": 1_735_725_590_000_i64, "md": 1_735_725_600_000_i64, "avp": 2.5,
                "sm": 4.0, "sr": 6.0, "sl": 0.0, "sc": 0.0, "sv": 0.0, "rfo": "strategy-1", "rfs": ""
            })
        );
        let cancelled = super::order(&bet(0, 0, BetStatus::Closed), None).unwrap();
        assert_eq!(
            (cancelled.uo["status"].clone(), cancelled.uo["sc"].clone()),
            (json!("EC"), json!(10.0))
        );
        assert!(cancelled.uo.get("avp").is_none());
    }

    #[test]
    fn orders_are_grouped_by_market_and_runner() {
        let one = order(&bet(0, 1_000, BetStatus::Open), None).unwrap();
        let items = market_changes(&[one], true);
        assert_eq!(items[0]["id"], json!("1.42"));
        assert_eq!(items[0]["fullImage"], json!(true));
        assert_eq!(items[0]["orc"][0]["id"], json!(11));
        assert_eq!(items[0]["orc"][0]["uo"][0]["id"], json!("1001"));
        assert!(wanted(&super::order(&bet(0, 1_000, BetStatus::Open), None).unwrap(), None));
        assert!(!wanted(
            &super::order(&bet(0, 1_000, BetStatus::Open), None).unwrap(),
            Some(&HashSet::from(["s1".to_string()]))
        ));
    }
}
