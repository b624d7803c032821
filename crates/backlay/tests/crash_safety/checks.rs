//! The end checks of every test, run on what is stored once the faults are over and on a server
//! that rebuilt its engine from it:
//!
//! - every acknowledged bet is stored once with its id and stake, nothing is stored that nobody
//!   was told of, no `client_ref` twice for a user, no bet half-applied;
//! - no exchange book is crossed: on each live runner the lowest resting back is above the
//!   highest resting lay (else they should have matched);
//! - each user's stored exposure in a market, and their account's reserved exposure, is what
//!   their stored bets make it (recomputed here with `backlay_core`, not read from the server);
//! - the engine shows each user the positions and the book the stored bets make;
//! - the ledger check is sound;
//! - no answer was a 5xx other than a 503, and every 503 said when to try again.
//!
//! Each check notes what it finds in a [`Verdict`] instead of failing at once, so that a run
//! that went wrong says everything that went wrong (and prints its counts) before it fails.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

use backlay_core::exchange::{
    exposure_minor, position_per_runner, Bet, MarketKind, MarketSpec, RunnerId, Side,
};
use backlay_core::odds::Price;
use backlay_store::Store;
use serde_json::{json, Value};
use sqlx::Row;
use tokio::time::Instant;

use crate::harness::{
    back_off, call, get, match_of, stake_minor, user_id_of, Markets, Reply, SentBet, Tally,
};

/// Price levels the match page shows per side (the engine's `BOOK_DEPTH`).
const BOOK_DEPTH: usize = 3;
/// Problems a failing test lists; the rest are counted.
const LISTED_MAX: usize = 40;

/// What the end checks found: the counts a run prints, and every problem.
#[derive(Default)]
pub struct Verdict {
    pub exposure_mismatches: usize,
    pub crossed_books: usize,
    pub problems: Vec<String>,
}

impl Verdict {
    /// Fails the test when anything was found, listing it.
    pub fn assert_sound(&self, after: &str) {
        let listed: Vec<&str> = self.problems.iter().take(LISTED_MAX).map(String::as_str).collect();
        assert!(
            self.problems.is_empty(),
            "{} problems after {after}:\n- {}{}",
            self.problems.len(),
            listed.join("\n- "),
            if self.problems.len() > LISTED_MAX { "\n- …" } else { "" }
        );
    }
}

/// Every end check, on `store` and on the server at `base` (whose engine was rebuilt from
/// `store`), for the bets `tally` says the bettors were told of.
pub async fn end_checks(
    store: &Store,
    base: &str,
    admin: &str,
    tokens: &HashMap<&str, String>,
    markets: Markets,
    tally: &Tally,
) -> Verdict {
    let mut verdict = Verdict::default();
    bets_as_told(store, &tally.acknowledged, &mut verdict).await;
    crossed_books(store, &mut verdict).await;
    exposure_and_engine(store, base, tokens, markets, &mut verdict).await;
    let check = ledger_check(base, admin).await;
    if check["sound"] != true {
        verdict.problems.push(format!("the ledger check is not sound: {check}"));
    }
    verdict.problems.extend(tally.problems.iter().cloned());
    if tally.no_retry_after > 0 {
        verdict.problems.push(format!("{} 503s had no Retry-After header", tally.no_retry_after));
    }
    // The same 500 comes many times: each once, with its count.
    let mut errors: BTreeMap<&str, usize> = BTreeMap::new();
    for error in &tally.server_errors {
        *errors.entry(error.as_str()).or_default() += 1;
    }
    for (error, n) in errors {
        verdict.problems.push(format!("{n}× a 5xx other than 503: {error}"));
    }
    verdict
}

/// The ledger check's answer.
pub async fn ledger_check(base: &str, admin: &str) -> Value {
    get(&reqwest::Client::new(), base, "admin/ledger/check", Some(admin))
        .await
        .data("the ledger check")
}

/// Every acknowledged bet stored once with its id and stake; nothing stored that nobody was
/// told of; no `client_ref` stored twice for a user; no bet half-applied.
async fn bets_as_told(
    store: &Store,
    acknowledged: &BTreeMap<String, (SentBet, i64, i64)>,
    verdict: &mut Verdict,
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
        if parts != stake {
            verdict.problems.push(format!(
                "bet {id} ({client_ref}) is half-applied: its parts add up to {parts} of {stake}"
            ));
        }
        if stored.insert(client_ref.clone(), (id, stake)).is_some() {
            verdict.problems.push(format!("{client_ref} is stored twice"));
        }
    }
    // The client_ref is unique per user by a constraint; this says so if it ever is not.
    let twice = sqlx::query(
        "SELECT user_id, client_ref, COUNT(*) AS n FROM bets WHERE client_ref IS NOT NULL \
         GROUP BY user_id, client_ref HAVING COUNT(*) > 1",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    for row in &twice {
        verdict.problems.push(format!(
            "user {}'s client_ref {} is stored {} times",
            row.get::<i64, _>("user_id"),
            row.get::<String, _>("client_ref"),
            row.get::<i64, _>("n")
        ));
    }
    for (client_ref, (_, bet_id, stake)) in acknowledged {
        if stored.get(client_ref) != Some(&(*bet_id, *stake)) {
            verdict.problems.push(format!(
                "acknowledged bet {client_ref} (id {bet_id}, stake {stake}) is not stored as told: {:?}",
                stored.get(client_ref)
            ));
        }
    }
    for client_ref in stored.keys() {
        if !acknowledged.contains_key(client_ref) {
            verdict.problems.push(format!("{client_ref} is stored but its bettor was never told"));
        }
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
    if !unfilled.is_empty() {
        verdict.problems.push(format!(
            "{} exchange bets matched more or less than their fills",
            unfilled.len()
        ));
    }
}

/// No live exchange book is crossed: on each runner of a market not closed, void or settled,
/// the lowest price of the backs still resting is above the highest price of the lays still
/// resting. (A back at 1.97 and a lay at 1.97 both resting would have matched: one of them was
/// kept from a batch that was never committed, or the book was never written whole.)
async fn crossed_books(store: &Store, verdict: &mut Verdict) {
    let crossed = sqlx::query(
        "SELECT b.market_id, b.runner_id, \
                MIN(CASE WHEN b.side = 'back' THEN b.price END) AS lowest_back, \
                MAX(CASE WHEN b.side = 'lay' THEN b.price END) AS highest_lay \
         FROM bets b JOIN markets m ON m.id = b.market_id \
         WHERE m.market_type IN ('match_odds', 'win', 'place') AND m.status NOT IN ('closed', 'void') \
           AND m.settled_at_ms IS NULL AND b.remaining_minor > 0 \
         GROUP BY b.market_id, b.runner_id \
         HAVING MIN(CASE WHEN b.side = 'back' THEN b.price END) <= MAX(CASE WHEN b.side = 'lay' THEN b.price END)",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    verdict.crossed_books = crossed.len();
    for row in &crossed {
        verdict.problems.push(format!(
            "market {} runner {}: the stored book is crossed (a back resting at {:.2} against a lay at {:.2})",
            row.get::<i64, _>("market_id"),
            row.get::<i64, _>("runner_id"),
            row.get::<i64, _>("lowest_back") as f64 / 100.0,
            row.get::<i64, _>("highest_lay") as f64 / 100.0
        ));
    }
}

/// Each user's stored exposure per market is what their stored bets make it, and each bettor's
/// reserved exposure (their account's) the sum of that over their markets; the engine, rebuilt
/// from the database, shows each user the positions their stored fills make, and the book their
/// stored unmatched bets make.
async fn exposure_and_engine(
    store: &Store,
    base: &str,
    tokens: &HashMap<&str, String>,
    markets: Markets,
    verdict: &mut Verdict,
) {
    // user → their exposure in the test's markets, recomputed.
    let mut recomputed: HashMap<i64, i64> = HashMap::new();
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
        let users: BTreeSet<i64> =
            matched.keys().chain(unmatched.keys()).chain(stored.keys()).copied().collect();
        for user in users {
            let expected = exposure_minor(
                &spec,
                matched.get(&user).map_or(&[][..], Vec::as_slice),
                unmatched.get(&user).map_or(&[][..], Vec::as_slice),
            );
            *recomputed.entry(user).or_default() += expected;
            let stored = stored.get(&user).copied().unwrap_or(0);
            if stored != expected {
                verdict.exposure_mismatches += 1;
                verdict.problems.push(format!(
                    "market {market}: user {user}'s stored exposure is {stored}, their stored bets make it {expected}"
                ));
            }
        }

        let client = reqwest::Client::new();
        let match_id = match_of(store, market).await;
        for (name, token) in tokens {
            let body = json!({ "match_id": match_id });
            let detail = match call(&client, base, "match/matchDetail", Some(token), &body).await {
                Reply::Answer(200, body) => body["data"].clone(),
                Reply::Answer(status, body) => {
                    verdict.problems.push(format!("matchDetail answered {status}: {body}"));
                    continue;
                }
                Reply::Unavailable { body, .. } => {
                    verdict.problems.push(format!("matchDetail answered 503: {body}"));
                    continue;
                }
                Reply::Lost => panic!("matchDetail: no answer"),
            };
            let Some(book) = detail["markets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["market_id"] == market)
                .cloned()
            else {
                verdict.problems.push(format!("market {market} is not on its match's page"));
                continue;
            };
            let user_id = user_id_of(store, name).await;
            let positions: HashMap<i64, i64> =
                position_per_runner(&spec, matched.get(&user_id).map_or(&[][..], Vec::as_slice))
                    .into_iter()
                    .map(|(r, p)| (r.0, p))
                    .collect();
            for runner in book["runners"].as_array().unwrap() {
                let selection = runner["selection_id"].as_i64().unwrap();
                let (shown, stored) = (
                    to_minor(&runner["position"]),
                    positions.get(&selection).copied().unwrap_or(0),
                );
                if shown != stored {
                    verdict.problems.push(format!(
                        "market {market}: {name}'s position on {selection} is {shown} in the engine, {stored} in the stored fills"
                    ));
                }
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
                    if shown != from_db {
                        verdict.problems.push(format!(
                            "market {market}: the engine's {column} column of {selection} differs from the stored unmatched bets: {shown:?} shown, {from_db:?} stored"
                        ));
                    }
                }
            }
        }
    }

    // Reserved exposure: the bettors' accounts against what their bets make it (the test's
    // markets recomputed above, any other market as stored).
    let accounts: HashMap<i64, i64> =
        sqlx::query("SELECT user_id, exposure_minor FROM ledger_accounts WHERE kind = 'user'")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|row| (row.get("user_id"), row.get("exposure_minor")))
            .collect();
    let elsewhere = sqlx::query("SELECT user_id, market_id, exposure_minor FROM market_exposures")
        .fetch_all(store.pool())
        .await
        .unwrap();
    for name in tokens.keys() {
        let user = user_id_of(store, name).await;
        let other_markets: i64 = elsewhere
            .iter()
            .filter(|row| row.get::<i64, _>("user_id") == user)
            .filter(|row| ![markets.exchange, markets.bookmaker].contains(&row.get("market_id")))
            .map(|row| row.get::<i64, _>("exposure_minor"))
            .sum();
        let expected = recomputed.get(&user).copied().unwrap_or(0) + other_markets;
        let reserved = accounts.get(&user).copied().unwrap_or(0);
        if reserved != expected {
            verdict.exposure_mismatches += 1;
            verdict.problems.push(format!(
                "{name}'s reserved exposure is {reserved}, their stored bets make it {expected}"
            ));
        }
    }
}

pub fn to_minor(value: &Value) -> i64 {
    (value.as_f64().unwrap_or_else(|| panic!("not a number: {value}")) * 100.0).round() as i64
}

/// How long a market may take to take a bet again once the faults are over.
const TAKES_BETS_WAIT: Duration = Duration::from_secs(30);

/// Every market loads and takes bets again, through every node: one small bet on each market
/// through each of `bases` must answer 200 within [`TAKES_BETS_WAIT`] (a 503 or a lost answer
/// is tried again, with the same `client_ref`, until then), all at once. The bets join
/// `tally`'s; an exchange bet backs at 10.00, far above the book, so it rests.
pub async fn markets_take_bets(
    bases: &[&str],
    token: &str,
    markets: Markets,
    tag: &str,
    tally: &mut Tally,
) {
    let mut probes = Vec::new();
    for (node, base) in bases.iter().enumerate() {
        for (market, runner, price) in [
            (markets.exchange, markets.exchange_runners[0], json!("10.00")),
            (markets.bookmaker, markets.bookmaker_runners[0], json!(90)),
        ] {
            let client_ref = format!("crash-demo-probe-{tag}-{node}-{market}");
            let body = json!({ "market_id": market, "selection_id": runner, "side": "back",
                               "price": price, "stake": 1, "persistence": "persist", "client_ref": client_ref });
            let sent = SentBet { user: "demo", client_ref, body };
            let probe = probe(base.to_string(), token.to_string(), sent);
            probes.push((node, market, tokio::spawn(probe)));
        }
    }
    for (node, market, probe) in probes {
        match probe.await.expect("a probe finished") {
            Ok((sent, bet_id)) => {
                let stake = stake_minor(&sent.body);
                tally.acknowledged.insert(sent.client_ref.clone(), (sent, bet_id, stake));
            }
            Err((last, server_error)) => {
                tally.server_errors.extend(server_error);
                tally.problem(format!(
                    "market {market} did not take a bet through node {node} after the faults: {last}"
                ));
            }
        }
    }
}

/// Sends one bet until it is placed (its id) or refused, or [`TAKES_BETS_WAIT`] passes (the
/// last answer, and whether it was a 5xx other than 503).
async fn probe(
    base: String,
    token: String,
    sent: SentBet,
) -> Result<(SentBet, i64), (String, Option<String>)> {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + TAKES_BETS_WAIT;
    loop {
        let (wait, last) =
            match call(&client, &base, "bet/placeBet", Some(&token), &sent.body).await {
                Reply::Answer(200, answer) => {
                    let bet_id = answer["data"]["bet_id"].as_i64().expect("a bet id");
                    return Ok((sent, bet_id));
                }
                Reply::Unavailable { retry_after, body } => {
                    (back_off(retry_after), format!("503 {body}"))
                }
                Reply::Lost => (Duration::from_millis(500), "no answer".to_string()),
                Reply::Answer(status, answer) => {
                    let last = format!("{status} {answer}");
                    let server_error = (status >= 500).then(|| format!("placeBet: {last}"));
                    return Err((last, server_error));
                }
            };
        if Instant::now() + wait > deadline {
            return Err((format!("{last} after {TAKES_BETS_WAIT:?}"), None));
        }
        tokio::time::sleep(wait).await;
    }
}
