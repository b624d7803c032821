//! Crash safety: bettors place and cancel bets against the real `backlay serve` while the test
//! kills it with SIGKILL at random moments and restarts it on the same database, on SQLite and
//! on PostgreSQL. A moment is random by count, not by clock: the kill comes as soon as the
//! bettors together have been told of a random number of bets, with every bettor still
//! sending, so it lands in the middle of the traffic however fast the machine runs. After every
//! restart the bets whose answer was lost are sent again with the same `client_ref`; at the end,
//! what the bettors were told must be what is stored:
//!
//! - every acknowledged bet is stored once, with its id and stake;
//! - no bet is half-applied: matched + unmatched + cancelled + lapsed = stake, and an exchange
//!   bet's fills add up to what it matched;
//! - each user's stored exposure in a market is what their stored bets make it, and the
//!   engine, rebuilt from the database at start, shows the same book and positions;
//! - the ledger check passes (balances are their entries, exposure the sum of its markets).
//!
//! On PostgreSQL the same bettors and checks run against three servers on one database (issue
//! 16): each time the server killed is the one that owns the busy exchange market, while the
//! bettors on the other two keep betting through the take-over, and a live stream on a node
//! that survives must show the market's changes made by its new owner; the test prints the failover
//! times (kill → first bet on that market sent after the kill and placed through another
//! node), which
//! `bench/cluster.sh` collects over more kills (`CLUSTER_KILLS`, default 3).
//!
//! The server is `$BACKLAY_CRASH_TEST_BIN` (`bench/faults.sh` points it at the release binary),
//! else the workspace's own build of `backlay`, which `make test` runs. `CRASH_KILLS` (default
//! 10) sets the number of kills; the longer run in `bench/faults.sh` raises it.
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use backlay_core::exchange::{
    exposure_minor, position_per_runner, Bet, MarketKind, MarketSpec, RunnerId, Side,
};
use backlay_core::odds::Price;
use backlay_store::Store;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use sqlx::Row;
use tokio::sync::watch;
use tokio::time::Instant;

/// How long a (re)start may take before the test gives up.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Bets a bettor sends at most in one life of the server.
const BETS_PER_LIFE_MAX: usize = 300;
/// The kill comes after this many acknowledged bets in a life, at least one (drawn per life).
const ACKS_BEFORE_KILL_MAX: usize = 150;
/// Bound on the whole run: a fixed part plus a bound per kill (a life, a restart, the resends).
const RUN_MAX_FIXED: Duration = Duration::from_secs(60);
const RUN_MAX_PER_KILL: Duration = Duration::from_secs(5);
const EXCHANGE_PRICES: [&str; 4] = ["1.95", "2.00", "2.04", "2.10"];
/// Price levels the match page shows per side (the engine's `BOOK_DEPTH`).
const BOOK_DEPTH: usize = 3;

fn server_binary() -> PathBuf {
    std::env::var_os("BACKLAY_CRASH_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_backlay")))
}

fn kills_wanted() -> usize {
    std::env::var("CRASH_KILLS").ok().and_then(|k| k.parse().ok()).unwrap_or(10)
}

/// One life of the server process.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    /// Starts `backlay serve` on a free port with `extra` flags and waits for `/api/health`.
    async fn start_with(database_url: &str, log: &Path, first: bool, extra: &[&str]) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let log_file = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        let mut command = Command::new(server_binary());
        command
            .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--database-url", database_url])
            .args(["--no-demo-feed", "--no-casino", "--web-dir", "/nonexistent"])
            // PostgreSQL needs a secret key named; every life of the server uses the same one.
            .arg("--secret-key-file")
            .arg(log.with_file_name("secret.key"))
            .arg("--create-secret-key")
            .arg(if first { "--demo" } else { "--no-demo" })
            // The six servers of the PostgreSQL tests run at once: with the default pools
            // (24 + 3 each) they came near PostgreSQL's limit of 100 connections, and past it in
            // a CI run (log-ins went unanswered while the pools waited for a connection).
            .args(["--database-connections", "9"])
            .args(extra)
            .env("BACKLAY_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(log_file);
        let child = command.spawn().expect("the server binary starts");
        let mut server = Server { child, base: format!("http://127.0.0.1:{port}/api") };
        let client = reqwest::Client::new();
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!(
                    "the server exited at start ({status}); its log: {}",
                    std::fs::read_to_string(log).unwrap_or_default()
                );
            }
            let health = client
                .get(format!("{}/health", server.base))
                .timeout(Duration::from_secs(2))
                .send()
                .await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return server;
            }
            assert!(Instant::now() < deadline, "the server did not come up in {START_TIMEOUT:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends a signal by name (STOP, CONT) with kill(1).
    fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill(1) runs");
        assert!(sent.success(), "SIG{name} was not sent");
    }

    /// SIGKILL: no chance to flush, finish a request or say goodbye.
    fn kill9(&mut self) {
        self.child.kill().expect("SIGKILL sent");
        self.child.wait().expect("the killed server is reaped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a call's answer was, or that none came (the server died under it).
enum Reply {
    Answer(u16, Value),
    Lost,
}

async fn call(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Reply {
    let mut request =
        client.post(format!("{base}/{path}")).json(body).timeout(Duration::from_secs(10));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let Ok(response) = request.send().await else {
        return Reply::Lost;
    };
    let status = response.status().as_u16();
    match response.text().await {
        Ok(text) => Reply::Answer(
            status,
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")),
        ),
        Err(_) => Reply::Lost,
    }
}

/// The markets the bettors use.
#[derive(Clone, Copy)]
struct Markets {
    exchange: i64,
    exchange_runners: [i64; 2],
    bookmaker: i64,
    bookmaker_runners: [i64; 2],
}

/// A bet as sent, kept to send again with the same `client_ref` if its answer was lost.
#[derive(Clone)]
struct SentBet {
    user: &'static str,
    client_ref: String,
    body: Value,
}

/// What one user's bettor saw in one life of the server.
#[derive(Default)]
struct Seen {
    /// client_ref → (bet id, stake in minor units), from 200 answers.
    acknowledged: Vec<(SentBet, i64, i64)>,
    /// When each acknowledged bet was sent and when its answer came, and its market.
    acked_at: Vec<(Instant, Instant, i64)>,
    lost: Vec<SentBet>,
    refused: usize,
}

fn stake_minor(body: &Value) -> i64 {
    body["stake"].as_i64().expect("whole stakes") * 100
}

/// Places and cancels bets until the server dies, the bound is reached or `stop` says so,
/// counting each bet acknowledged on `acks`.
#[allow(clippy::too_many_arguments)] // a test's worker: each argument is one thing it is given
async fn bettor(
    base: String,
    user: &'static str,
    token: String,
    markets: Markets,
    seed: u64,
    life: u32,
    acks: watch::Sender<usize>,
    stop: watch::Receiver<bool>,
) -> Seen {
    let client = reqwest::Client::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seen = Seen::default();
    let mut mine: Vec<i64> = Vec::new();
    for n in 0..BETS_PER_LIFE_MAX {
        if *stop.borrow() {
            break;
        }
        if !mine.is_empty() && rng.gen_bool(0.15) {
            let bet_id = mine[rng.gen_range(0..mine.len())];
            match call(&client, &base, "bet/cancelBet", Some(&token), &json!({ "bet_id": bet_id }))
                .await
            {
                Reply::Lost => break,
                Reply::Answer(status, body) => {
                    assert!(status < 500, "cancelBet answered {status}: {body}")
                }
            }
            continue;
        }
        let side = if rng.gen_bool(0.5) { "back" } else { "lay" };
        let runner = rng.gen_range(0..2);
        let client_ref = format!("crash-{user}-{life}-{n}");
        let body = if rng.gen_bool(0.75) {
            let price = EXCHANGE_PRICES[rng.gen_range(0..EXCHANGE_PRICES.len())];
            json!({ "market_id": markets.exchange, "selection_id": markets.exchange_runners[runner], "side": side,
                    "price": price, "stake": rng.gen_range(1..=20), "persistence": "persist", "client_ref": client_ref })
        } else {
            let rate = match (runner, side) {
                (0, "back") => 90,
                (0, _) => 95,
                (_, "back") => 100,
                _ => 110,
            };
            json!({ "market_id": markets.bookmaker, "selection_id": markets.bookmaker_runners[runner], "side": side,
                    "price": rate, "stake": rng.gen_range(1..=20), "client_ref": client_ref })
        };
        let sent = SentBet { user, client_ref, body };
        let sent_at = Instant::now();
        match call(&client, &base, "bet/placeBet", Some(&token), &sent.body).await {
            Reply::Lost => {
                seen.lost.push(sent);
                break;
            }
            Reply::Answer(200, answer) => {
                let bet_id = answer["data"]["bet_id"].as_i64().expect("a bet id");
                mine.push(bet_id);
                let stake = stake_minor(&sent.body);
                let market = sent.body["market_id"].as_i64().expect("a market id");
                seen.acked_at.push((sent_at, Instant::now(), market));
                seen.acknowledged.push((sent, bet_id, stake));
                acks.send_modify(|n| *n += 1);
            }
            Reply::Answer(status, answer) => {
                assert!(status < 500, "placeBet answered {status}: {answer}");
                seen.refused += 1;
            }
        }
    }
    seen
}

/// Logs in (sessions outlive restarts: they are stored).
async fn login(base: &str, user: &str, password: &str) -> String {
    let client = reqwest::Client::new();
    match call(
        &client,
        base,
        "user/login",
        None,
        &json!({ "user_name": user, "password": password }),
    )
    .await
    {
        Reply::Answer(200, body) => body["data"]["token"].as_str().unwrap().to_string(),
        Reply::Answer(status, body) => panic!("log-in of {user}: {status} {body}"),
        Reply::Lost => panic!("log-in of {user}: no answer"),
    }
}

async fn admin_call(base: &str, admin: &str, path: &str, body: Value) -> Value {
    match call(&reqwest::Client::new(), base, path, Some(admin), &body).await {
        Reply::Answer(200, body) => body["data"].clone(),
        Reply::Answer(status, body) => panic!("{path}: {status} {body}"),
        Reply::Lost => panic!("{path}: no answer"),
    }
}

/// An exchange market and a bookmaker market on the demo's in-play match, with no bet delay
/// (a delay only stretches each life without changing what is stored).
async fn create_markets(base: &str, admin: &str) -> Markets {
    let matches = admin_call(base, admin, "match/getMatches", json!({ "sport_id": 4 })).await;
    let match_id = matches
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["in_play"] == json!(true))
        .expect("an in-play match")["match_id"]
        .clone();
    let mut ids = Vec::new();
    for kind in ["match_odds", "bookmaker"] {
        let created = admin_call(
            base,
            admin,
            "admin/market/create",
            json!({ "match_id": match_id, "type": kind, "name": format!("Crash {kind}"), "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }),
        )
        .await;
        let market = created["market_id"].as_i64().unwrap();
        let runners: Vec<i64> = created["selection_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_i64().unwrap())
            .collect();
        admin_call(
            base,
            admin,
            "admin/market/status",
            json!({ "market_id": market, "status": "open" }),
        )
        .await;
        ids.push((market, [runners[0], runners[1]]));
    }
    let (bookmaker, bm) = ids[1];
    admin_call(
        base,
        admin,
        "admin/market/rates",
        json!({ "market_id": bookmaker, "runners": [
            { "selection_id": bm[0], "back": 90, "lay": 95 }, { "selection_id": bm[1], "back": 100, "lay": 110 }
        ] }),
    )
    .await;
    Markets { exchange: ids[0].0, exchange_runners: ids[0].1, bookmaker, bookmaker_runners: bm }
}

/// On PostgreSQL a restarted server waits for the killed one's cluster lease to pass before it
/// takes the markets over: the shortest lease keeps each restart quick (SQLite ignores it).
const LEASE_FLAGS: [&str; 2] = ["--cluster-lease-ms", "1000"];

const USERS: [(&str, &str); 3] =
    [("demo", "Demo@1234"), ("demo2", "Demo@1234"), ("maker", "Maker@1234")];

async fn kill_and_restart_while_betting(database_url: &str) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let run_started = Instant::now();
    let mut server = Server::start_with(database_url, &log, true, &LEASE_FLAGS).await;
    let admin = login(&server.base, "admin", "Admin@1234").await;
    let markets = create_markets(&server.base, &admin).await;
    let mut tokens = HashMap::new();
    for (user, password) in USERS {
        tokens.insert(user, login(&server.base, user, password).await);
    }

    let mut rng = rand::rngs::StdRng::seed_from_u64(0xC0FFEE);
    let mut acknowledged: BTreeMap<String, (SentBet, i64, i64)> = BTreeMap::new();
    let (mut lost_total, mut refused_total, mut kills) = (0, 0, 0);
    let wanted = kills_wanted();
    for life in 0..wanted as u32 {
        if run_started.elapsed() > RUN_MAX_FIXED + RUN_MAX_PER_KILL * wanted as u32 {
            break;
        }
        let (acks, mut acked) = watch::channel(0);
        let (_stop, stopped) = watch::channel(false);
        let bettors: Vec<_> = USERS
            .iter()
            .enumerate()
            .map(|(i, (user, _))| {
                tokio::spawn(bettor(
                    server.base.clone(),
                    user,
                    tokens[user].clone(),
                    markets,
                    rng.gen(),
                    life * 10 + i as u32,
                    acks.clone(),
                    stopped.clone(),
                ))
            })
            .collect();
        drop(acks);
        // Killed once that many bets are acknowledged, or when every bettor has stopped (the
        // channel closes) should they reach their bound first.
        let kill_after = rng.gen_range(1..=ACKS_BEFORE_KILL_MAX);
        let _ = acked.wait_for(|n| *n >= kill_after).await;
        server.kill9();
        kills += 1;
        let mut lost = Vec::new();
        for bettor in bettors {
            let seen = bettor.await.expect("a bettor finished");
            refused_total += seen.refused;
            lost.extend(seen.lost);
            for ack in seen.acknowledged {
                acknowledged.insert(ack.0.client_ref.clone(), ack);
            }
        }
        server = Server::start_with(database_url, &log, false, &LEASE_FLAGS).await;
        // The bets whose answer died with the server, sent again: stored before the kill, the
        // first answer comes back; not stored, they are placed now. One bet either way.
        lost_total += lost.len();
        send_again(&server.base, &tokens, lost, &mut acknowledged).await;
    }
    assert_eq!(kills, wanted, "the run's time bound cut the kills short");
    assert!(
        acknowledged.len() >= kills * 3,
        "too few bets acknowledged ({}) to test anything",
        acknowledged.len()
    );
    eprintln!(
        "crash safety on {}: {kills} kills, {} bets acknowledged, {lost_total} answers lost and sent again, {refused_total} refused, {:.1} s",
        database_url.split(':').next().unwrap_or("?"),
        acknowledged.len(),
        run_started.elapsed().as_secs_f64()
    );

    let store = Store::connect(database_url).await.unwrap();
    check_bets_as_told(&store, &acknowledged).await;
    check_exposure_and_engine(&store, &server.base, &tokens, markets).await;
    let check = ledger_check(&server.base, &admin).await;
    assert_eq!(check["sound"], true, "ledger after {kills} kills: {check}");
}

/// Sends again, through `base`, the bets whose answers were lost, each with its `client_ref`,
/// noting the answers: a bet stored before its answer was lost answers as first placed, one
/// not stored is placed now. One bet either way.
async fn send_again(
    base: &str,
    tokens: &HashMap<&str, String>,
    lost: Vec<SentBet>,
    acknowledged: &mut BTreeMap<String, (SentBet, i64, i64)>,
) {
    let client = reqwest::Client::new();
    for sent in lost {
        match call(&client, base, "bet/placeBet", Some(&tokens[sent.user]), &sent.body).await {
            Reply::Answer(200, answer) => {
                let bet_id = answer["data"]["bet_id"].as_i64().unwrap();
                let stake = stake_minor(&sent.body);
                acknowledged.insert(sent.client_ref.clone(), (sent, bet_id, stake));
            }
            Reply::Answer(status, answer) => {
                assert!(status < 500, "a repeated placeBet answered {status}: {answer}")
            }
            Reply::Lost => panic!("{base} did not answer a bet sent again"),
        }
    }
}

/// The ledger check's answer.
async fn ledger_check(base: &str, admin: &str) -> Value {
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
async fn check_bets_as_told(store: &Store, acknowledged: &BTreeMap<String, (SentBet, i64, i64)>) {
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
async fn check_exposure_and_engine(
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

fn to_minor(value: &Value) -> i64 {
    (value.as_f64().unwrap_or_else(|| panic!("not a number: {value}")) * 100.0).round() as i64
}

async fn match_of(store: &Store, market: i64) -> i64 {
    store.market(market).await.unwrap().setup.match_id
}

async fn user_id_of(store: &Store, name: &str) -> i64 {
    store.user_id_by_name(name).await.unwrap().expect("a demo user")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_bet_survives_kill_9_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = format!("sqlite://{}", dir.path().join("crash.db").display());
    kill_and_restart_while_betting(&database_url).await;
}

static DATABASES: AtomicU32 = AtomicU32::new(0);

/// A fresh PostgreSQL database for one test, dropped after `run`; `None` (the test is skipped,
/// saying so) when PostgreSQL is unreachable outside CI.
async fn on_fresh_postgres<F, Fut>(what: &str, run: F)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    use sqlx::Connection;
    let admin_url = std::env::var("BACKLAY_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    let mut conn = match sqlx::PgConnection::connect(&admin_url).await {
        Ok(conn) => conn,
        Err(err) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("PostgreSQL at {admin_url} is unreachable under CI=true: {err}")
        }
        Err(err) => {
            eprintln!("note: skipping {what}: {admin_url} is unreachable ({err})");
            return;
        }
    };
    let name = format!(
        "backlay_crash_{}_{}",
        std::process::id(),
        DATABASES.fetch_add(1, Ordering::Relaxed)
    );
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut conn).await.unwrap();
    let database_url = format!("{}/{name}", admin_url.rsplit_once('/').unwrap().0);
    run(database_url).await;
    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut conn)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_bet_survives_kill_9_on_postgres() {
    on_fresh_postgres("the PostgreSQL crash test", |url| async move {
        kill_and_restart_while_betting(&url).await
    })
    .await;
}

// ---------------------------------------------------------------------------------------------
// Three servers on one PostgreSQL (issue 16): the same bettors and the same checks, but the
// server killed is the one that owns the busy exchange market, while bettors on the two others
// keep betting through the take-over.

/// Nodes of the cluster test.
const NODES: usize = 3;

/// The cluster test's nodes' lease (`CLUSTER_LEASE_MS`, default the shortest allowed, so that a
/// take-over is quick; `bench/cluster.sh` runs it with the default lease of 3 s).
fn cluster_lease_ms() -> String {
    std::env::var("CLUSTER_LEASE_MS").unwrap_or_else(|_| "1000".into())
}

/// The index of the node that owns `market` now, waiting (bounded) for one to.
async fn owner_of(store: &Store, nodes: &[Server], market: i64) -> usize {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(owner) = store.owner_of(&format!("market:{market}")).await.unwrap() {
            if let Some(index) = nodes.iter().position(|n| n.base.starts_with(&owner.url)) {
                return index;
            }
        }
        assert!(Instant::now() < deadline, "no live node owns market {market}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens the live stream of a match on a node (a ticket, then the stream).
async fn open_stream(base: &str, token: &str, match_id: i64) -> reqwest::Response {
    let client = reqwest::Client::new();
    let ticket = match call(&client, base, "stream/ticket", Some(token), &json!({})).await {
        Reply::Answer(200, body) => body["data"]["ticket"].as_str().unwrap().to_string(),
        Reply::Answer(status, body) => panic!("stream/ticket answered {status}: {body}"),
        Reply::Lost => panic!("stream/ticket: no answer"),
    };
    let response = client
        .get(format!("{base}/stream?match_id={match_id}&ticket={ticket}"))
        .send()
        .await
        .expect("the stream opens");
    assert_eq!(response.status().as_u16(), 200, "the stream opens");
    response
}

/// Reads a live stream until `stop` says so (or it ends), noting when each `market` event of
/// `market` arrived.
async fn watch_market(
    mut response: reqwest::Response,
    market: i64,
    mut stop: watch::Receiver<bool>,
) -> Vec<Instant> {
    let (mut seen, mut buffer) = (Vec::new(), String::new());
    loop {
        tokio::select! {
            _ = stop.changed() => return seen,
            chunk = response.chunk() => match chunk {
                Ok(Some(chunk)) => buffer.push_str(&String::from_utf8_lossy(&chunk)),
                _ => return seen,
            },
        }
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            if !block.lines().any(|line| line.trim() == "event: market") {
                continue;
            }
            let data: String =
                block.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
            if serde_json::from_str::<Value>(&data).is_ok_and(|v| v["market_id"] == market) {
                seen.push(Instant::now());
            }
        }
    }
}

/// Milliseconds at a quantile of sorted figures.
fn quantile(sorted: &[u128], q: f64) -> u128 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

async fn kill_owners_while_betting_on_three_nodes(database_url: &str) {
    let dir = tempfile::tempdir().unwrap();
    let lease = cluster_lease_ms();
    let flags = ["--cluster-lease-ms", lease.as_str()];
    let log = |i: usize| dir.path().join(format!("node{i}.log"));
    let run_started = Instant::now();
    let mut nodes = vec![Server::start_with(database_url, &log(0), true, &flags).await];
    for i in 1..NODES {
        nodes.push(Server::start_with(database_url, &log(i), false, &flags).await);
    }
    let store = Store::connect(database_url).await.unwrap();
    let admin = login(&nodes[0].base, "admin", "Admin@1234").await;
    let markets = create_markets(&nodes[0].base, &admin).await;
    // Sessions are stored: a log-in on one node is good on every node.
    let mut tokens = HashMap::new();
    for (user, password) in USERS {
        tokens.insert(user, login(&nodes[1].base, user, password).await);
    }

    let match_id = match_of(&store, markets.exchange).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xC1A5);
    let mut acknowledged: BTreeMap<String, (SentBet, i64, i64)> = BTreeMap::new();
    let mut failovers_ms: Vec<u128> = Vec::new();
    let (mut lost_total, mut refused_total) = (0, 0);
    let wanted = std::env::var("CLUSTER_KILLS").ok().and_then(|k| k.parse().ok()).unwrap_or(3);
    for life in 0..wanted as u32 {
        let owner = owner_of(&store, &nodes, markets.exchange).await;
        // Two bettors on the other nodes, one on the owner (its answers die with it).
        let (acks, mut acked) = watch::channel(0);
        let (stop, stopped) = watch::channel(false);
        let bettors: Vec<_> = USERS
            .iter()
            .enumerate()
            .map(|(i, (user, _))| {
                tokio::spawn(bettor(
                    nodes[(owner + 1 + i) % NODES].base.clone(),
                    user,
                    tokens[user].clone(),
                    markets,
                    rng.gen(),
                    1000 + life * 10 + i as u32,
                    acks.clone(),
                    stopped.clone(),
                ))
            })
            .collect();
        drop(acks);
        // A live stream of the market's match on a node that survives, opened before the kill.
        let watcher = tokio::spawn(watch_market(
            open_stream(&nodes[(owner + 1) % NODES].base, &tokens["demo"], match_id).await,
            markets.exchange,
            stopped.clone(),
        ));
        let kill_after = rng.gen_range(1..=60);
        let _ = acked.wait_for(|n| *n >= kill_after).await;
        let before_kill = *acked.borrow();
        let killed_at = Instant::now();
        nodes[owner].kill9();
        // The survivors' bets wait for the take-over and go on: stop once a few more were
        // acknowledged (or, should betting not resume, after a bound the test then fails on).
        // (The answer is read at once: a borrow of the count held on would stop the bettors.)
        let resumed = matches!(
            tokio::time::timeout(
                Duration::from_secs(30),
                acked.wait_for(|n| *n >= before_kill + 10),
            )
            .await,
            Ok(Ok(_))
        );
        // Betting goes on a little longer, for the stream to show its changes.
        tokio::time::sleep(Duration::from_millis(600)).await;
        let _ = stop.send(true);
        let mut lost = Vec::new();
        let mut first_after_kill: Option<Instant> = None;
        for bettor in bettors {
            let seen = bettor.await.expect("a bettor finished");
            refused_total += seen.refused;
            lost.extend(seen.lost);
            // Only bets sent after the kill: one sent before may have been committed by the
            // dying owner, its answer arriving just after.
            for (sent_at, at, market) in seen.acked_at {
                if sent_at > killed_at && market == markets.exchange {
                    first_after_kill = Some(first_after_kill.map_or(at, |first| first.min(at)));
                }
            }
            for ack in seen.acknowledged {
                acknowledged.insert(ack.0.client_ref.clone(), ack);
            }
        }
        assert!(resumed, "life {life}: betting did not resume after the owner was killed");
        let first = first_after_kill.unwrap_or_else(|| {
            panic!(
                "life {life}: no bet on the killed owner's market sent after the kill was placed"
            )
        });
        failovers_ms.push(first.duration_since(killed_at).as_millis());
        let streamed = watcher.await.expect("the stream watcher finished");
        assert!(
            streamed.iter().any(|at| *at > first),
            "life {life}: the stream on a surviving node showed no change of the market after the take-over"
        );
        // The killed node comes back (as a new node), and the bets whose answers died with it
        // are sent again through another node: one bet each, whatever happened to the first.
        nodes[owner] = Server::start_with(database_url, &log(owner), false, &flags).await;
        lost_total += lost.len();
        send_again(&nodes[(owner + 1) % NODES].base, &tokens, lost, &mut acknowledged).await;
    }
    assert_eq!(failovers_ms.len(), wanted);
    let mut sorted = failovers_ms.clone();
    sorted.sort_unstable();
    eprintln!(
        "cluster failover: {} kills of the busy market's owner (lease {lease} ms), first bet sent after the kill placed \
         on another node after p50 {} ms, p99 {} ms, max {} ms; {} bets acknowledged, {lost_total} \
         answers lost and sent again, {refused_total} refused, {:.1} s",
        sorted.len(),
        quantile(&sorted, 0.5),
        quantile(&sorted, 0.99),
        sorted[sorted.len() - 1],
        acknowledged.len(),
        run_started.elapsed().as_secs_f64()
    );
    check_bets_as_told(&store, &acknowledged).await;
    check_exposure_and_engine(&store, &nodes[2].base, &tokens, markets).await;
    let check = ledger_check(&nodes[1].base, &admin).await;
    assert_eq!(check["sound"], true, "ledger after the kills: {check}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_keep_every_acknowledged_bet_when_a_markets_owner_is_killed() {
    on_fresh_postgres("the cluster test", |url| async move {
        kill_owners_while_betting_on_three_nodes(&url).await
    })
    .await;
}

/// A node frozen (SIGSTOP) past its lease while it owns the exchange market, with a bet waiting
/// in its socket: the other node takes the market over and takes bets; when the frozen node
/// wakes, its own write is refused by the fence, and the bet it was sent is placed once, by the
/// new owner.
async fn a_frozen_owner_wakes_fenced_off(database_url: &str) {
    let dir = tempfile::tempdir().unwrap();
    let flags = ["--cluster-lease-ms", "1000"];
    let log = |i: usize| dir.path().join(format!("node{i}.log"));
    let nodes = vec![
        Server::start_with(database_url, &log(0), true, &flags).await,
        Server::start_with(database_url, &log(1), false, &flags).await,
    ];
    let store = Store::connect(database_url).await.unwrap();
    let admin = login(&nodes[0].base, "admin", "Admin@1234").await;
    let markets = create_markets(&nodes[0].base, &admin).await;
    let tokens: HashMap<&str, String> =
        HashMap::from([("demo", login(&nodes[1].base, "demo", "Demo@1234").await)]);
    let bet = |n: u32| SentBet {
        user: "demo",
        client_ref: format!("crash-frozen-{n}"),
        body: json!({ "market_id": markets.exchange, "selection_id": markets.exchange_runners[0], "side": "back",
                      "price": "2.00", "stake": 5, "persistence": "persist", "client_ref": format!("crash-frozen-{n}") }),
    };
    let client = reqwest::Client::new();
    let mut acknowledged: BTreeMap<String, (SentBet, i64, i64)> = BTreeMap::new();
    let place = |node: &Server, sent: SentBet| {
        let (client, base, token) = (client.clone(), node.base.clone(), tokens["demo"].clone());
        async move {
            match call(&client, &base, "bet/placeBet", Some(&token), &sent.body).await {
                Reply::Answer(200, answer) => {
                    let bet_id = answer["data"]["bet_id"].as_i64().unwrap();
                    let stake = stake_minor(&sent.body);
                    (sent.client_ref.clone(), (sent, bet_id, stake))
                }
                Reply::Answer(status, answer) => panic!("placeBet answered {status}: {answer}"),
                Reply::Lost => panic!("placeBet got no answer"),
            }
        }
    };
    let owner = owner_of(&store, &nodes, markets.exchange).await;
    let other = 1 - owner;
    let resource = format!("market:{}", markets.exchange);
    let frozen_id = store.owner_of(&resource).await.unwrap().expect("an owner").node_id;
    let (key, placed) = place(&nodes[owner], bet(1)).await;
    acknowledged.insert(key, placed);

    nodes[owner].signal("STOP");
    let waiting = tokio::spawn(place(&nodes[owner], bet(2)));
    let deadline = Instant::now() + Duration::from_secs(8);
    while owner_of(&store, &nodes, markets.exchange).await != other {
        assert!(Instant::now() < deadline, "nobody took the frozen node's market over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (key, placed) = place(&nodes[other], bet(3)).await;
    acknowledged.insert(key, placed);

    nodes[owner].signal("CONT");
    let (key, placed) = waiting.await.expect("the bet sent to the frozen node is answered");
    acknowledged.insert(key, placed);
    // The woken node joins again under a new id, and may take the market back as its fair
    // share; it never again owns it as the node that froze.
    let now_id = store.owner_of(&resource).await.unwrap().map(|o| o.node_id);
    assert_ne!(
        now_id.as_deref(),
        Some(frozen_id.as_str()),
        "the frozen node's old id owns the market again"
    );
    // The woken node learns it lost its lease at its next renewal, and its ownership loop (every
    // 500 ms) then stops what it ran: its bet above may be answered (through the new owner) first.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let woken_log = std::fs::read_to_string(log(owner)).unwrap();
        if woken_log.contains("cluster lease passed") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the woken node did not notice it had lost its lease: {woken_log}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    check_bets_as_told(&store, &acknowledged).await;
    check_exposure_and_engine(&store, &nodes[owner].base, &tokens, markets).await;
    let check = ledger_check(&nodes[owner].base, &admin).await;
    assert_eq!(check["sound"], true, "ledger after the freeze: {check}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_frozen_past_its_lease_cannot_write_when_it_wakes() {
    on_fresh_postgres("the frozen node test", |url| async move {
        a_frozen_owner_wakes_fenced_off(&url).await
    })
    .await;
}
