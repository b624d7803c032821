//! The end checks of every test: what the bettors were told is what is stored, nothing is
//! half-applied, exposure is what the stored bets make it, the engine's book is the stored one,
//! and the ledger is sound.

use std::collections::{BTreeMap, HashMap};

use backlay_core::exchange::{
    exposure_minor, position_per_runner, Bet, MarketKind, MarketSpec, RunnerId, Side,
};
use backlay_core::odds::Price;
use backlay_store::Store;
use serde_json::{json, Value};
use sqlx::Row;

use crate::harness::{call, match_of, user_id_of, Markets, Reply, SentBet};
/// Price levels the match page shows per side (the engine's `BOOK_DEPTH`).
const BOOK_DEPTH: usize = 3;

/// The ledger check's answer.
pub async fn ledger_check(base: &str, admin: &str) -> Value {
    let check: Value = reqwest::Client::new()
        .get(format!("{base}/admin/ledger/check"))
        .bearer_auth(admin)
        .send()
        .await
        .expect("the ledger check answers")
        .json()
        .await
        .unwrap();
    check["data"].clone()
}

/// Every acknowledged bet stored once with its id and stake; nothing stored that nobody was
/// told of; no bet half-applied.
pub async fn check_bets_as_told(
    store: &Store,
    acknowledged: &BTreeMap<String, (SentBet, i64, i64)>,
) {
    let rows = sqlx::query(
        "SELECT id, client_ref, stake_minor, matched_minor, remaining_minor, cancelled_minor, lapsed_minor FROM bets \
         WHERE client_ref LIKE 'crash-%'",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    let mut stored: HashMap<String, (i64, i64)> = HashMap::new();
    for row in &rows {
        let client_ref: String = row.get("client_ref");
        let (id, stake): (i64, i64) = (row.get("id"), row.get("stake_minor"));
        let parts: i64 = ["matched_minor", "remaining_minor", "cancelled_minor", "lapsed_minor"]
            .iter()
            .map(|c| row.get::<i64, _>(*c))
            .sum();
        assert_eq!(
            parts, stake,
            "bet {id} ({client_ref}) is half-applied: its parts add up to {parts} of {stake}"
        );
        assert!(
            stored.insert(client_ref.clone(), (id, stake)).is_none(),
            "{client_ref} is stored twice"
        );
    }
    for (client_ref, (_, bet_id, stake)) in acknowledged {
        assert_eq!(
            stored.get(client_ref),
            Some(&(*bet_id, *stake)),
            "acknowledged bet {client_ref} (id {bet_id}) is not stored as told"
        );
    }
    for client_ref in stored.keys() {
        assert!(
            acknowledged.contains_key(client_ref),
            "{client_ref} is stored but its bettor was never told"
        );
    }
    let unfilled = sqlx::query(
        "SELECT b.id FROM bets b LEFT JOIN (SELECT bet_id, CAST(SUM(size_minor) AS BIGINT) AS filled FROM \
         (SELECT back_bet_id AS bet_id, size_minor FROM fills UNION ALL SELECT lay_bet_id, size_minor FROM fills) f GROUP BY bet_id) s \
         ON s.bet_id = b.id JOIN markets m ON m.id = b.market_id \
         WHERE m.market_type = 'match_odds' AND b.client_ref LIKE 'crash-%' AND b.matched_minor <> COALESCE(s.filled, 0)",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    assert!(
        unfilled.is_empty(),
        "{} exchange bets matched more or less than their fills",
        unfilled.len()
    );
}

/// Each user's stored exposure per market is what their stored bets make it; the engine,
/// rebuilt from the database, shows each user the positions their stored fills make, and the
/// book their stored unmatched bets make.
pub async fn check_exposure_and_engine(
    store: &Store,
    base: &str,
    tokens: &HashMap<&str, String>,
    markets: Markets,
) {
    for (market, kind, runners) in [
        (markets.exchange, MarketKind::OneWinner, markets.exchange_runners),
        (markets.bookmaker, MarketKind::Bookmaker, markets.bookmaker_runners),
    ] {
        let spec =
            MarketSpec::new(kind, runners.iter().map(|r| RunnerId(*r)).collect(), 0).unwrap();
        let mut matched: HashMap<i64, Vec<Bet>> = HashMap::new();
        let mut unmatched: HashMap<i64, Vec<Bet>> = HashMap::new();
        // Book levels from the database: (runner, column, price) → size.
        let mut levels: BTreeMap<(i64, &str, u32), i64> = BTreeMap::new();
        if kind == MarketKind::OneWinner {
            for fill in store.fills_of_market(market).await.unwrap() {
                let price = Price::from_hundredths(u32::try_from(fill.price).unwrap()).unwrap();
                for (user, side) in [(fill.back_user_id, Side::Back), (fill.lay_user_id, Side::Lay)]
                {
                    matched.entry(user).or_default().push(
                        Bet::exchange(RunnerId(fill.runner_id), side, price, fill.size_minor)
                            .unwrap(),
                    );
                }
            }
        }
        for bet in store.bets_of_market(market).await.unwrap() {
            let side = bet.side.side();
            let runner = RunnerId(bet.runner_id.unwrap());
            if kind == MarketKind::Bookmaker {
                if bet.matched_minor > 0 {
                    matched.entry(bet.user_id).or_default().push(
                        Bet::bookmaker(
                            runner,
                            side,
                            u32::try_from(bet.price).unwrap(),
                            bet.matched_minor,
                        )
                        .unwrap(),
                    );
                }
            } else if bet.remaining_minor > 0 {
                let price = Price::from_hundredths(u32::try_from(bet.price).unwrap()).unwrap();
                unmatched
                    .entry(bet.user_id)
                    .or_default()
                    .push(Bet::exchange(runner, side, price, bet.remaining_minor).unwrap());
                // A resting lay is money available to back, shown in the "back" column.
                let column = if side == Side::Lay { "back" } else { "lay" };
                *levels.entry((runner.0, column, price.hundredths())).or_default() +=
                    bet.remaining_minor;
            }
        }
        let stored: HashMap<i64, i64> =
            store.exposures_of_market(market).await.unwrap().into_iter().collect();
        let users: std::collections::BTreeSet<i64> =
            matched.keys().chain(unmatched.keys()).chain(stored.keys()).copied().collect();
        for user in users {
            let expected = exposure_minor(
                &spec,
                matched.get(&user).map_or(&[][..], Vec::as_slice),
                unmatched.get(&user).map_or(&[][..], Vec::as_slice),
            );
            assert_eq!(
                stored.get(&user).copied().unwrap_or(0),
                expected,
                "market {market}: user {user}'s stored exposure"
            );
        }

        let client = reqwest::Client::new();
        for (name, token) in tokens {
            let detail = match call(
                &client,
                base,
                "match/matchDetail",
                Some(token),
                &json!({ "match_id": match_of(store, market).await }),
            )
            .await
            {
                Reply::Answer(200, body) => body["data"].clone(),
                Reply::Answer(status, body) => panic!("matchDetail answered {status}: {body}"),
                Reply::Lost => panic!("matchDetail: no answer"),
            };
            let book = detail["markets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["market_id"] == market)
                .expect("the market on the page")
                .clone();
            let user_id = user_id_of(store, name).await;
            let positions: HashMap<i64, i64> =
                position_per_runner(&spec, matched.get(&user_id).map_or(&[][..], Vec::as_slice))
                    .into_iter()
                    .map(|(r, p)| (r.0, p))
                    .collect();
            for runner in book["runners"].as_array().unwrap() {
                let selection = runner["selection_id"].as_i64().unwrap();
                assert_eq!(
                    to_minor(&runner["position"]),
                    positions.get(&selection).copied().unwrap_or(0),
                    "market {market}: {name}'s position on {selection}"
                );
                if kind != MarketKind::OneWinner {
                    continue;
                }
                for (column, best_first_desc) in [("back", true), ("lay", false)] {
                    let mut from_db: Vec<(u32, i64)> = levels
                        .iter()
                        .filter(|((r, c, _), _)| *r == selection && *c == column)
                        .map(|((_, _, p), size)| (*p, *size))
                        .collect();
                    if best_first_desc {
                        from_db.reverse();
                    }
                    from_db.truncate(BOOK_DEPTH);
                    let shown: Vec<(u32, i64)> = runner[column]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|level| {
                            (
                                (level["price"].as_f64().unwrap() * 100.0).round() as u32,
                                to_minor(&level["size"]),
                            )
                        })
                        .collect();
                    assert_eq!(shown, from_db, "market {market}: the engine's {column} column of {selection} differs from the stored unmatched bets");
                }
            }
        }
    }
}

pub fn to_minor(value: &Value) -> i64 {
    (value.as_f64().unwrap_or_else(|| panic!("not a number: {value}")) * 100.0).round() as i64
}
