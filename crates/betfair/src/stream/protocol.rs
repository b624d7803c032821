//! The stream's requests as a client sends them (one JSON object a line), read into types that
//! hold only what Backlay acts on, and the `status` answers.
//!
//! betfairlightweight sends every key of a subscription, `null` where unset
//! (`"initialClk":null,"clk":null,"conflateMs":null,…`): null is absent everywhere here.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use crate::{parse_id, parse_market_id, text_item};

/// `heartbeatMs` is clamped to this range (Betfair's), null is the upper end.
pub(super) const HEARTBEAT_MS: (u64, u64) = (500, 5_000);
/// `conflateMs` is clamped to this range (Betfair's), null is 0 (no conflation).
pub(super) const MAX_CONFLATE_MS: u64 = 120_000;
/// Betfair's `ladderLevels` range for EX_BEST_OFFERS; null is 3.
const LADDER_LEVELS: (u64, u64) = (1, 10);
const DEFAULT_LADDER_LEVELS: usize = 3;

/// A refusal: Betfair's error code and a message a person can act on. Every refusal closes the
/// connection (`connectionClosed: true`), as Betfair's do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub(super) fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }

    fn input(message: impl Into<String>) -> Refusal {
        Refusal::new("INVALID_INPUT", message)
    }
}

/// One request.
#[derive(Debug, PartialEq)]
pub(super) enum Request {
    Authentication { id: Option<i64>, app_key: String, session: String },
    Heartbeat { id: Option<i64> },
    Markets { id: Option<i64>, subscription: Box<MarketSubscription> },
    Orders { id: Option<i64>, subscription: OrderSubscription },
}

impl Request {
    /// The id the client gave the request, for the answer to carry.
    pub(super) fn id(&self) -> Option<i64> {
        match self {
            Request::Authentication { id, .. }
            | Request::Heartbeat { id }
            | Request::Markets { id, .. }
            | Request::Orders { id, .. } => *id,
        }
    }
}

/// The market data a subscription asks for (`marketDataFilter.fields`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Fields {
    /// EX_BEST_OFFERS (and _DISP, served alike): `batb`/`batl`, this many levels; 0: not asked.
    pub best_levels: usize,
    /// EX_ALL_OFFERS: `atb`/`atl`, every level the book shows.
    pub all_offers: bool,
    /// EX_TRADED: `trd`.
    pub traded: bool,
    /// EX_TRADED_VOL: `tv` of runners and markets.
    pub traded_volume: bool,
    /// EX_LTP: `ltp`.
    pub last_traded: bool,
    /// EX_MARKET_DEF: `marketDefinition`.
    pub definition: bool,
}

/// Which markets: each present list must hold the market's value (as in Betfair's filter).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct MarketFilter {
    pub market_ids: Option<HashSet<i64>>,
    pub event_type_ids: Option<HashSet<i64>>,
    pub event_ids: Option<HashSet<i64>>,
    pub market_types: Option<HashSet<String>>,
    pub betting_types: Option<HashSet<String>>,
    pub country_codes: Option<HashSet<String>>,
    pub venues: Option<HashSet<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MarketSubscription {
    pub filter: MarketFilter,
    pub fields: Fields,
    pub heartbeat_ms: u64,
    pub conflate_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OrderSubscription {
    /// Only orders with one of these strategy references (`rfs`); `None`: every order.
    pub strategy_refs: Option<HashSet<String>>,
    pub heartbeat_ms: u64,
    pub conflate_ms: u64,
}

/// Reads one line. A refusal carries the request's id when it had one.
pub(super) fn parse(line: &str) -> Result<Request, (Option<i64>, Refusal)> {
    let value: Value = serde_json::from_str(line).map_err(|err| {
        (None, Refusal::input(format!("Each line must be one JSON object: {err}.")))
    })?;
    let Some(object) = value.as_object() else {
        return Err((None, Refusal::input("Each line must be one JSON object.")));
    };
    let id = object.get("id").and_then(Value::as_i64);
    let refuse = |refusal: Refusal| (id, refusal);
    match object.get("op").and_then(Value::as_str) {
        Some("authentication") => {
            let text = |key: &str| {
                object.get(key).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty())
            };
            let Some(app_key) = text("appKey") else {
                return Err(refuse(Refusal::new(
                    "NO_APP_KEY",
                    "Send an appKey (any name for your program).",
                )));
            };
            let Some(session) = text("session") else {
                return Err(refuse(Refusal::new(
                    "NO_SESSION",
                    "Send the session token from /betfair/identity/login as session.",
                )));
            };
            Ok(Request::Authentication {
                id,
                app_key: app_key.to_string(),
                session: session.to_string(),
            })
        }
        Some("heartbeat") => Ok(Request::Heartbeat { id }),
        Some("marketSubscription") => {
            let subscription = market_subscription(object).map_err(refuse)?;
            Ok(Request::Markets { id, subscription: Box::new(subscription) })
        }
        Some("orderSubscription") => {
            let subscription = order_subscription(object).map_err(refuse)?;
            Ok(Request::Orders { id, subscription })
        }
        Some(other) => Err(refuse(Refusal::input(format!(
            "op {other:?} is not served: send authentication, heartbeat, marketSubscription or orderSubscription."
        )))),
        None => Err(refuse(Refusal::input("Each request needs an op."))),
    }
}

/// The object under `key`; absent or null is empty.
fn object_at<'a>(
    object: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>, Refusal> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(inner)) => Ok(Some(inner)),
        Some(other) => Err(Refusal::input(format!("{key} must be an object, not {other}."))),
    }
}

fn set_of<T: std::hash::Hash + Eq>(
    object: &Map<String, Value>,
    key: &str,
    item: impl Fn(&Value) -> Option<T>,
) -> Result<Option<HashSet<T>>, Refusal> {
    crate::set_of(object, key, item).map_err(Refusal::input)
}

/// A number of milliseconds within `range`; null is `default`.
fn millis(
    object: &Map<String, Value>,
    key: &str,
    range: (u64, u64),
    default: u64,
) -> Result<u64, Refusal> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(value) => value.as_u64().map(|ms| ms.clamp(range.0, range.1)).ok_or_else(|| {
            Refusal::input(format!("{key} must be a number of milliseconds, not {value}."))
        }),
    }
}

fn market_subscription(object: &Map<String, Value>) -> Result<MarketSubscription, Refusal> {
    let filter = match object_at(object, "marketFilter")? {
        None => MarketFilter::default(),
        Some(filter) => MarketFilter {
            market_ids: set_of(filter, "marketIds", parse_market_id)?,
            event_type_ids: set_of(filter, "eventTypeIds", parse_id)?,
            event_ids: set_of(filter, "eventIds", parse_id)?,
            market_types: set_of(filter, "marketTypes", text_item)?,
            betting_types: set_of(filter, "bettingTypes", text_item)?,
            country_codes: set_of(filter, "countryCodes", text_item)?,
            venues: set_of(filter, "venues", text_item)?,
        },
    };
    let mut fields = Fields::default();
    if let Some(data) = object_at(object, "marketDataFilter")? {
        let levels = match data.get("ladderLevels") {
            None | Some(Value::Null) => DEFAULT_LADDER_LEVELS,
            Some(value) => value
                .as_u64()
                .map(|n| n.clamp(LADDER_LEVELS.0, LADDER_LEVELS.1))
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    Refusal::input(format!("ladderLevels must be 1 to 10, not {value}."))
                })?,
        };
        for name in set_of(data, "fields", text_item)?.unwrap_or_default() {
            match name.as_str() {
                "EX_BEST_OFFERS" | "EX_BEST_OFFERS_DISP" => fields.best_levels = levels,
                "EX_ALL_OFFERS" => fields.all_offers = true,
                "EX_TRADED" => fields.traded = true,
                "EX_TRADED_VOL" => fields.traded_volume = true,
                "EX_LTP" => fields.last_traded = true,
                "EX_MARKET_DEF" => fields.definition = true,
                // Backlay has no starting price: asked for, they are simply not sent.
                "SP_TRADED" | "SP_PROJECTED" => {}
                other => {
                    return Err(Refusal::input(format!(
                        "marketDataFilter.fields holds {other:?}, which is not a field (EX_BEST_OFFERS, EX_ALL_OFFERS, EX_TRADED, EX_TRADED_VOL, EX_LTP, EX_MARKET_DEF)."
                    )))
                }
            }
        }
    }
    Ok(MarketSubscription {
        filter,
        fields,
        heartbeat_ms: millis(object, "heartbeatMs", HEARTBEAT_MS, HEARTBEAT_MS.1)?,
        conflate_ms: millis(object, "conflateMs", (0, MAX_CONFLATE_MS), 0)?,
    })
}

fn order_subscription(object: &Map<String, Value>) -> Result<OrderSubscription, Refusal> {
    let strategy_refs = match object_at(object, "orderFilter")? {
        None => None,
        Some(filter) => set_of(filter, "customerStrategyRefs", |v| v.as_str().map(str::to_string))?,
    };
    Ok(OrderSubscription {
        strategy_refs,
        heartbeat_ms: millis(object, "heartbeatMs", HEARTBEAT_MS, HEARTBEAT_MS.1)?,
        conflate_ms: millis(object, "conflateMs", (0, MAX_CONFLATE_MS), 0)?,
    })
}

/// The first message of every connection.
pub(super) fn connection(connection_id: &str) -> Value {
    json!({ "op": "connection", "connectionId": connection_id })
}

/// A request done.
pub(super) fn success(id: Option<i64>, connections_available: Option<usize>) -> Value {
    let mut status = json!({ "op": "status", "statusCode": "SUCCESS", "connectionClosed": false });
    if let Some(id) = id {
        status["id"] = json!(id);
    }
    if let Some(available) = connections_available {
        status["connectionsAvailable"] = json!(available);
    }
    status
}

/// A refusal; the connection closes after it.
pub(super) fn failure(id: Option<i64>, connection_id: &str, refusal: &Refusal) -> Value {
    let mut status = json!({
        "op": "status",
        "statusCode": "FAILURE",
        "errorCode": refusal.code,
        "errorMessage": refusal.message,
        "connectionClosed": true,
        "connectionId": connection_id,
    });
    if let Some(id) = id {
        status["id"] = json!(id);
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subscription_as_betfairlightweight_sends_it_is_read() {
        let line = r#"{"op":"marketSubscription","id":1,"marketFilter":{"marketIds":["1.42"]},"marketDataFilter":{"fields":["EX_ALL_OFFERS","EX_TRADED","EX_LTP","EX_MARKET_DEF"],"ladderLevels":null},"initialClk":null,"clk":null,"conflateMs":null,"heartbeatMs":null,"segmentationEnabled":true}"#;
        let Ok(Request::Markets { id, subscription }) = parse(line) else { panic!() };
        assert_eq!(id, Some(1));
        assert_eq!(subscription.filter.market_ids, Some(HashSet::from([42])));
        assert!(subscription.fields.all_offers && subscription.fields.definition);
        assert_eq!(subscription.fields.best_levels, 0);
        assert_eq!((subscription.heartbeat_ms, subscription.conflate_ms), (5_000, 0));
    }

    #[test]
    fn timings_are_clamped_and_bad_input_is_refused_with_its_id() {
        let line = r#"{"op":"orderSubscription","id":7,"orderFilter":null,"heartbeatMs":10,"conflateMs":999999}"#;
        let Ok(Request::Orders { subscription, .. }) = parse(line) else { panic!() };
        assert_eq!((subscription.heartbeat_ms, subscription.conflate_ms), (500, 120_000));
        let Err((id, refusal)) =
            parse(r#"{"op":"marketSubscription","id":3,"marketFilter":{"marketIds":"1.4"}}"#)
        else {
            panic!()
        };
        assert_eq!((id, refusal.code), (Some(3), "INVALID_INPUT"));
        let Err((_, refusal)) = parse(r#"{"op":"authentication","id":2,"session":"x"}"#) else {
            panic!()
        };
        assert_eq!(refusal.code, "NO_APP_KEY");
        assert!(parse("not json").is_err());
    }
}
