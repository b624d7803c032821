//! Market change messages (`mcm`): what a market looks like to the stream ([`MarketSnapshot`],
//! read from the engine's view, the fills and the catalogue), and what a connection is sent of
//! it: the whole market the first time (`img: true`), then only what changed since
//! ([`change`]), against what that connection was last sent ([`SentMarket`]).
//!
//! Example: runner 11 was sent `atb [[2.0, 10.0], [1.98, 5.0]]`; a back of 4 at 2.0 is
//! matched, so the book now shows `[[2.0, 6.0], [1.98, 5.0]]`: the delta is
//! `{"id":11,"atb":[[2.0,6.0]]}`. Had the whole 10 gone, it would be `[[2.0,0.0]]` (size 0
//! deletes a price).

use std::collections::{BTreeMap, HashMap};

use backlay_core::exchange::MarketStatus;
use backlay_core::money::Money;
use backlay_store::catalogue::Match;
use backlay_store::markets::{MarketSetup, RunnerStatus};
use serde_json::{json, Value};

use super::protocol::Fields;
use crate::catalogue::{runner_status_code, status_code};
use crate::{date_text, market_id_text, market_type_code};
use backlay_operator::AppState;

/// One runner as the stream shows it; prices in hundredths, sizes in minor units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct RunnerSnapshot {
    pub id: i64,
    /// Available to back, best (highest) first.
    pub back: Vec<(i64, i64)>,
    /// Available to lay, best (lowest) first.
    pub lay: Vec<(i64, i64)>,
    /// Traded volume by price.
    pub traded: BTreeMap<i64, i64>,
    pub last_traded: Option<i64>,
}

impl RunnerSnapshot {
    fn traded_volume(&self) -> i64 {
        self.traded.values().sum()
    }
}

/// A market as the stream shows it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct MarketSnapshot {
    pub market_id: i64,
    /// The marketDefinition without its `version` (set per connection, see [`SentMarket`]).
    pub definition: Value,
    pub runners: Vec<RunnerSnapshot>,
}

/// What a connection was last sent of a market.
#[derive(Clone, Debug)]
pub(super) struct SentMarket {
    snapshot: MarketSnapshot,
    /// The marketDefinition's version: 1, and one more at each change of the definition.
    version: i64,
}

/// Reads a market for the stream; `None` for a market the bot API does not show (not found,
/// or not an exchange market).
pub(super) async fn read_snapshot(
    state: &AppState,
    market_id: i64,
) -> anyhow::Result<Option<MarketSnapshot>> {
    let Ok(row) = state.store.market(market_id).await else { return Ok(None) };
    if market_type_code(row.setup.market_type).is_none() {
        return Ok(None);
    }
    let event = state.store.match_by_id(row.setup.match_id).await?;
    let view = if state.engine.is_running(market_id).await {
        state.engine.view(market_id, None).await.ok()
    } else {
        None
    };
    let (status, in_play, setup) = match &view {
        Some(view) => (view.status, view.in_play, &view.setup),
        None => (row.status, event.in_play, &row.setup),
    };
    let mut traded: HashMap<i64, BTreeMap<i64, i64>> = HashMap::new();
    for (_, runner_id, price, size) in state.store.traded_volume(&[market_id]).await? {
        traded.entry(runner_id).or_default().insert(price, size);
    }
    let last: HashMap<i64, i64> =
        state.store.last_traded_prices(market_id).await?.into_iter().collect();
    let runners = sorted_runners(setup)
        .iter()
        .map(|runner| {
            let live = view
                .as_ref()
                .and_then(|v| v.runners.iter().find(|r| r.selection_id == runner.runner_id));
            let side = |levels: Option<&Vec<(backlay_core::odds::Price, Money)>>| {
                levels
                    .map(|levels| {
                        levels
                            .iter()
                            .map(|(price, size)| (i64::from(price.hundredths()), size.minor()))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            RunnerSnapshot {
                id: runner.runner_id,
                back: side(live.map(|l| &l.back)),
                lay: side(live.map(|l| &l.lay)),
                traded: traded.remove(&runner.runner_id).unwrap_or_default(),
                last_traded: last.get(&runner.runner_id).copied(),
            }
        })
        .collect();
    Ok(Some(MarketSnapshot {
        market_id,
        definition: definition(setup, &event, status, in_play),
        runners,
    }))
}

fn sorted_runners(setup: &MarketSetup) -> Vec<backlay_store::markets::RunnerRow> {
    let mut runners = setup.runners.clone();
    runners.sort_by_key(|r| (r.sort_order, r.runner_id));
    runners
}

/// The marketDefinition (without `version`): every key betfairlightweight requires, and only
/// the keys its strict runner items take.
pub(super) fn definition(
    setup: &MarketSetup,
    event: &Match,
    status: MarketStatus,
    in_play: bool,
) -> Value {
    let runners: Vec<Value> = sorted_runners(setup)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "id": r.runner_id,
                "sortPriority": i + 1,
                "status": runner_status_code(r.status),
                "hc": 0.0,
                "name": r.name,
            })
        })
        .collect();
    let bet_delay_s = if in_play { setup.bet_delay_ms / 1000 } else { 0 };
    let mut definition = json!({
        "betDelay": bet_delay_s,
        "bettingType": "ODDS",
        "bspMarket": false,
        "bspReconciled": false,
        "complete": true,
        "crossMatching": false,
        "discountAllowed": false,
        "eventId": event.match_id.to_string(),
        "eventTypeId": event.sport_id.to_string(),
        "inPlay": in_play,
        "marketBaseRate": setup.commission_bp as f64 / 100.0,
        "marketTime": date_text(event.open_date_ms),
        "openDate": date_text(event.open_date_ms),
        "suspendTime": date_text(event.open_date_ms),
        "numberOfActiveRunners": setup.runners.iter().filter(|r| r.status == RunnerStatus::Active).count(),
        "numberOfWinners": setup.winners,
        "persistenceEnabled": true,
        "regulators": ["MR_INT"],
        "runnersVoidable": false,
        "status": status_code(status),
        "timezone": "GMT",
        "turnInPlayEnabled": true,
        "marketType": market_type_code(setup.market_type),
        "name": setup.name,
        "eventName": event.name,
        "priceLadderDefinition": { "type": "CLASSIC" },
        "runners": runners,
    });
    if let Some(country) = &event.country_code {
        definition["countryCode"] = json!(country);
    }
    if let Some(venue) = &event.venue {
        definition["venue"] = json!(venue);
    }
    definition
}

fn price(hundredths: i64) -> f64 {
    hundredths as f64 / 100.0
}

fn size(minor: i64) -> f64 {
    Money::from_minor(minor).to_f64_for_json()
}

/// `[[price, size], …]` of the prices whose size differs from what was sent (all of them for
/// an image), with size 0 for the prices gone.
fn price_changes(
    now: impl IntoIterator<Item = (i64, i64)>,
    before: Option<impl IntoIterator<Item = (i64, i64)>>,
) -> Vec<Value> {
    let now: BTreeMap<i64, i64> = now.into_iter().collect();
    let before: BTreeMap<i64, i64> = before.map(|b| b.into_iter().collect()).unwrap_or_default();
    let mut changes: Vec<Value> = now
        .iter()
        .filter(|(p, s)| before.get(p) != Some(s))
        .map(|(p, s)| json!([price(*p), size(*s)]))
        .collect();
    changes.extend(before.keys().filter(|p| !now.contains_key(p)).map(|p| json!([price(*p), 0.0])));
    changes
}

/// `[[level, price, size], …]` of the first `levels` levels that differ from what was sent,
/// with `[level, 0, 0]` for a level gone.
fn level_changes(now: &[(i64, i64)], before: Option<&[(i64, i64)]>, levels: usize) -> Vec<Value> {
    (0..levels)
        .filter_map(|level| {
            let new = now.get(level);
            let old = before.and_then(|b| b.get(level));
            match (new, old) {
                (Some(new), old) if old != Some(new) => {
                    Some(json!([level, price(new.0), size(new.1)]))
                }
                (None, Some(_)) => Some(json!([level, 0.0, 0.0])),
                _ => None,
            }
        })
        .collect()
}

/// The `rc` item of a runner: everything asked for in an image, what changed in a delta
/// (`None` when nothing did).
fn runner_change(
    now: &RunnerSnapshot,
    before: Option<&RunnerSnapshot>,
    fields: &Fields,
) -> Option<Value> {
    let mut item = serde_json::Map::new();
    let image = before.is_none();
    if fields.all_offers {
        let atb = price_changes(now.back.iter().copied(), before.map(|b| b.back.iter().copied()));
        let atl = price_changes(now.lay.iter().copied(), before.map(|b| b.lay.iter().copied()));
        if image || !atb.is_empty() {
            item.insert("atb".into(), Value::Array(atb));
        }
        if image || !atl.is_empty() {
            item.insert("atl".into(), Value::Array(atl));
        }
    }
    if fields.best_levels > 0 {
        let batb = level_changes(&now.back, before.map(|b| b.back.as_slice()), fields.best_levels);
        let batl = level_changes(&now.lay, before.map(|b| b.lay.as_slice()), fields.best_levels);
        if image || !batb.is_empty() {
            item.insert("batb".into(), Value::Array(batb));
        }
        if image || !batl.is_empty() {
            item.insert("batl".into(), Value::Array(batl));
        }
    }
    if fields.traded {
        let trd = price_changes(
            now.traded.iter().map(|(p, s)| (*p, *s)),
            before.map(|b| b.traded.iter().map(|(p, s)| (*p, *s))),
        );
        if image || !trd.is_empty() {
            item.insert("trd".into(), Value::Array(trd));
        }
    }
    if fields.last_traded
        && now.last_traded.is_some()
        && before.map(|b| b.last_traded) != Some(now.last_traded)
    {
        item.insert("ltp".into(), json!(price(now.last_traded.unwrap_or_default())));
    }
    if fields.traded_volume
        && before.map(RunnerSnapshot::traded_volume) != Some(now.traded_volume())
    {
        item.insert("tv".into(), json!(size(now.traded_volume())));
    }
    if item.is_empty() && !image {
        return None;
    }
    item.insert("id".into(), json!(now.id));
    Some(Value::Object(item))
}

/// The `mc` item that brings a connection from what it was sent (`None`: nothing yet, so an
/// image) to `now`, and what it has then been sent. `None` as the item: nothing changed.
pub(super) fn change(
    now: &MarketSnapshot,
    before: Option<&SentMarket>,
    fields: &Fields,
) -> (Option<Value>, SentMarket) {
    let version = match before {
        None => 1,
        Some(sent) if sent.snapshot.definition != now.definition => sent.version + 1,
        Some(sent) => sent.version,
    };
    let mut item = serde_json::Map::new();
    item.insert("id".into(), json!(market_id_text(now.market_id)));
    if before.is_none() {
        item.insert("img".into(), json!(true));
    }
    if fields.definition && before.is_none_or(|sent| sent.version != version) {
        let mut definition = now.definition.clone();
        definition["version"] = json!(version);
        item.insert("marketDefinition".into(), definition);
    }
    let total =
        |s: &MarketSnapshot| s.runners.iter().map(RunnerSnapshot::traded_volume).sum::<i64>();
    if fields.traded_volume && before.is_none_or(|sent| total(&sent.snapshot) != total(now)) {
        item.insert("tv".into(), json!(size(total(now))));
    }
    let rc: Vec<Value> = now
        .runners
        .iter()
        .filter_map(|runner| {
            let sent = before.and_then(|s| s.snapshot.runners.iter().find(|r| r.id == runner.id));
            runner_change(runner, sent, fields)
        })
        .collect();
    if !rc.is_empty() {
        item.insert("rc".into(), Value::Array(rc));
    }
    let sent = SentMarket { snapshot: now.clone(), version };
    let changed = before.is_none() || item.len() > 1;
    (changed.then_some(Value::Object(item)), sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(
        back: Vec<(i64, i64)>,
        lay: Vec<(i64, i64)>,
        traded: &[(i64, i64)],
    ) -> MarketSnapshot {
        MarketSnapshot {
            market_id: 42,
            definition: json!({ "status": "OPEN" }),
            runners: vec![
                RunnerSnapshot {
                    id: 11,
                    back,
                    lay,
                    traded: traded.iter().copied().collect(),
                    last_traded: traded.last().map(|t| t.0),
                },
                RunnerSnapshot { id: 12, ..RunnerSnapshot::default() },
            ],
        }
    }

    const ALL: Fields = Fields {
        best_levels: 0,
        all_offers: true,
        traded: true,
        traded_volume: true,
        last_traded: true,
        definition: true,
    };

    #[test]
    fn an_image_carries_every_ladder_asked_for() {
        let now = snapshot(vec![(200, 1_000), (198, 500)], vec![(202, 700)], &[(200, 300)]);
        let (item, _) = change(&now, None, &ALL);
        assert_eq!(
            item.unwrap(),
            json!({
                "id": "1.42", "img": true, "tv": 3.0,
                "marketDefinition": { "status": "OPEN", "version": 1 },
                "rc": [
                    { "id": 11, "atb": [[1.98, 5.0], [2.0, 10.0]], "atl": [[2.02, 7.0]], "trd": [[2.0, 3.0]], "ltp": 2.0, "tv": 3.0 },
                    { "id": 12, "atb": [], "atl": [], "trd": [], "tv": 0.0 },
                ]
            })
        );
    }

    #[test]
    fn a_delta_carries_only_changed_prices_and_deletes_with_size_zero() {
        let before = snapshot(vec![(200, 1_000), (198, 500)], vec![(202, 700)], &[]);
        let (_, sent) = change(&before, None, &ALL);
        let now = snapshot(vec![(198, 500)], vec![(202, 700), (204, 100)], &[(200, 1_000)]);
        let (item, sent) = change(&now, Some(&sent), &ALL);
        assert_eq!(
            item.unwrap(),
            json!({
                "id": "1.42", "tv": 10.0,
                "rc": [{ "id": 11, "atb": [[2.0, 0.0]], "atl": [[2.04, 1.0]], "trd": [[2.0, 10.0]], "ltp": 2.0, "tv": 10.0 }]
            })
        );
        let (item, _) = change(&now, Some(&sent), &ALL);
        assert_eq!(item, None, "nothing changed, nothing sent");
    }

    #[test]
    fn best_offers_are_levels_and_a_new_definition_bumps_the_version() {
        let fields = Fields { best_levels: 2, ..Fields::default() };
        let before = snapshot(vec![(200, 1_000), (198, 500)], vec![], &[]);
        let (item, sent) = change(&before, None, &fields);
        assert_eq!(item.unwrap()["rc"][0]["batb"], json!([[0, 2.0, 10.0], [1, 1.98, 5.0]]));
        let now = snapshot(vec![(198, 500)], vec![], &[]);
        let (item, _) = change(&now, Some(&sent), &fields);
        assert_eq!(item.unwrap()["rc"][0]["batb"], json!([[0, 1.98, 5.0], [1, 0.0, 0.0]]));

        let (_, sent) = change(&before, None, &ALL);
        let mut suspended = before.clone();
        suspended.definition = json!({ "status": "SUSPENDED" });
        let (item, _) = change(&suspended, Some(&sent), &ALL);
        assert_eq!(
            item.unwrap()["marketDefinition"],
            json!({ "status": "SUSPENDED", "version": 2 })
        );
    }

    #[test]
    fn the_definition_has_every_key_betfairlightweight_requires() {
        let setup = MarketSetup {
            market_id: 42,
            match_id: 3,
            market_type: backlay_core::exchange::MarketType::MatchOdds,
            name: "Match Odds".into(),
            bet_delay_ms: 5_000,
            min_stake_minor: 100,
            max_stake_minor: 1_000_000,
            commission_bp: 200,
            winners: 1,
            line_no: None,
            rate_no: None,
            line_yes: None,
            rate_yes: None,
            created_at_ms: 0,
            runners: vec![backlay_store::markets::RunnerRow {
                runner_id: 11,
                name: "India".into(),
                sort_order: 1,
                status: RunnerStatus::Active,
                back_rate: None,
                lay_rate: None,
            }],
        };
        let event: Match = test_match();
        let definition = definition(&setup, &event, MarketStatus::Open, true);
        for key in [
            "betDelay",
            "bettingType",
            "bspMarket",
            "bspReconciled",
            "complete",
            "crossMatching",
            "discountAllowed",
            "eventId",
            "eventTypeId",
            "inPlay",
            "marketBaseRate",
            "marketTime",
            "numberOfActiveRunners",
            "numberOfWinners",
            "persistenceEnabled",
            "regulators",
            "runnersVoidable",
            "status",
            "timezone",
            "turnInPlayEnabled",
            "runners",
        ] {
            assert!(definition.get(key).is_some(), "{key} missing from {definition}");
        }
        assert_eq!(definition["betDelay"], json!(5));
        assert_eq!(definition["marketTime"], json!("2030-01-01T10:00:00.000Z"));
        let runner = definition["runners"][0].as_object().unwrap();
        let allowed = [
            "id",
            "sortPriority",
            "status",
            "hc",
            "bsp",
            "adjustmentFactor",
            "removalDate",
            "name",
        ];
        assert!(runner.keys().all(|k| allowed.contains(&k.as_str())), "{runner:?}");
        assert_eq!(definition["runners"][0]["status"], json!("ACTIVE"));
    }

    fn test_match() -> Match {
        Match {
            match_id: 3,
            series_id: 2,
            sport_id: 4,
            sport_name: "Cricket".into(),
            series_name: "Test series".into(),
            name: "India v Australia".into(),
            open_date_ms: 1_893_492_000_000,
            is_active: true,
            in_play: true,
            venue: None,
            country_code: None,
            score: None,
            result: None,
            finished: false,
        }
    }
}
