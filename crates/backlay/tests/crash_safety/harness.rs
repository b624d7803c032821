//! The harness: the real `backlay serve` as a process ([`Server`]), calls to it that tell a lost
//! answer from a refusal ([`call`]), the bettors, the markets they bet on, log-in, and a fresh
//! PostgreSQL database per test ([`on_fresh_postgres`]).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use backlay_store::Store;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::printed_address;

/// How long a (re)start may take before the test gives up.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Bets a bettor sends at most in one life of the server.
const BETS_PER_LIFE_MAX: usize = 300;
const EXCHANGE_PRICES: [&str; 4] = ["1.95", "2.00", "2.04", "2.10"];

fn server_binary() -> PathBuf {
    std::env::var_os("BACKLAY_CRASH_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_backlay")))
}

/// One life of the server process.
pub struct Server {
    child: Child,
    pub base: String,
}

impl Server {
    /// Starts `backlay serve` with `extra` flags on a port it picks itself (see
    /// `printed_address`) and waits for `/api/health`.
    pub async fn start_with(database_url: &str, log: &Path, first: bool, extra: &[&str]) -> Server {
        let log_file = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        let mut command = Command::new(server_binary());
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--database-url", database_url])
            .args(["--no-demo-feed", "--no-casino", "--web-dir", "/nonexistent"])
            // PostgreSQL needs a secret key named; every life of the server uses the same one.
            .arg("--secret-key-file")
            .arg(log.with_file_name("secret.key"))
            .arg("--create-secret-key")
            .arg(if first { "--demo" } else { "--no-demo" })
            // Small pools, and two PostgreSQL tests at a time (`POSTGRES_TESTS`): with more,
            // the servers of these tests and of `make test`'s other suites passed PostgreSQL's
            // limit of 100 connections (log-ins went unanswered while the pools waited).
            .args(["--database-connections", "6"])
            .args(extra)
            .env("BACKLAY_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(log_file);
        let mut child = command.spawn().expect("the server binary starts");
        let address = printed_address::watch(&mut child);
        // No base until the server prints the address it bound.
        let mut server = Server { child, base: String::new() };
        let client = reqwest::Client::new();
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!(
                    "the server exited at start ({status}); its errors: {:?}; its log's end: {}",
                    log_errors(log, 5),
                    log_tail(log, 20)
                );
            }
            assert!(Instant::now() < deadline, "the server did not come up in {START_TIMEOUT:?}");
            if let Ok(addr) = address.try_recv() {
                server.base = format!("http://{addr}/api");
            }
            if server.base.is_empty() {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            let health = client
                .get(format!("{}/health", server.base))
                .timeout(Duration::from_secs(2))
                .send()
                .await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends a signal by name (STOP, CONT) with kill(1).
    pub fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill(1) runs");
        assert!(sent.success(), "SIG{name} was not sent");
    }

    /// SIGKILL: no chance to flush, finish a request or say goodbye.
    pub fn kill9(&mut self) {
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

/// The server's ERROR lines in `log` without their time and colours, each once with how many
/// times it came, the first `max` of them: what a failing test shows of what the server saw.
pub fn log_errors(log: &Path, max: usize) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut counted: Vec<(String, usize)> = Vec::new();
    for line in text.lines().map(without_colours) {
        let Some((_time, message)) = line.split_once(" ERROR ") else { continue };
        match counted.iter_mut().find(|(seen, _)| seen == message) {
            Some((_, n)) => *n += 1,
            None => counted.push((message.to_string(), 1)),
        }
    }
    counted.into_iter().take(max).map(|(message, n)| format!("{n}× {message}")).collect()
}

/// The last `lines` lines of the server's log `log`, without colours.
fn log_tail(log: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let all: Vec<String> = text.lines().map(without_colours).collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// A log line without its ANSI colour codes (`ESC [ … m`).
fn without_colours(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| *c == 'm');
        } else {
            plain.push(c);
        }
    }
    plain
}

/// What a call's answer was, or that none came (the server died under it).
pub enum Reply {
    Answer(u16, Value),
    /// 503: the server cannot do it now (its database is unreachable, the market is reloading
    /// or moving), and says when to try again (Retry-After, in seconds; `None` when missing).
    /// What was asked is not known to be done: a bet is sent again with the same `client_ref`.
    Unavailable {
        retry_after: Option<Duration>,
        body: Value,
    },
    Lost,
}

impl Reply {
    /// The `data` of a 200 answer; any other answer fails the test, saying what `what` got.
    pub fn data(self, what: &str) -> Value {
        match self {
            Reply::Answer(200, body) => body["data"].clone(),
            Reply::Answer(status, body) => panic!("{what} answered {status}: {body}"),
            Reply::Unavailable { body, .. } => panic!("{what} answered 503: {body}"),
            Reply::Lost => panic!("{what}: no answer"),
        }
    }
}

/// POSTs `body` as JSON to `base/path`.
pub async fn call(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Reply {
    send(client.post(format!("{base}/{path}")).json(body), token).await
}

/// GETs `base/path`.
pub async fn get(client: &reqwest::Client, base: &str, path: &str, token: Option<&str>) -> Reply {
    send(client.get(format!("{base}/{path}")), token).await
}

async fn send(mut request: reqwest::RequestBuilder, token: Option<&str>) -> Reply {
    request = request.timeout(Duration::from_secs(10));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let Ok(response) = request.send().await else {
        return Reply::Lost;
    };
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok()?.parse().ok())
        .map(Duration::from_secs);
    let Ok(text) = response.text().await else {
        return Reply::Lost;
    };
    let body =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
    if status == 503 {
        Reply::Unavailable { retry_after, body }
    } else {
        Reply::Answer(status, body)
    }
}

/// The longest a bettor waits after a 503 before it goes on, whatever Retry-After says.
const BACK_OFF_MAX: Duration = Duration::from_secs(2);

/// How long to back off after a 503: its Retry-After (1 s if it named none), at most
/// [`BACK_OFF_MAX`].
pub fn back_off(retry_after: Option<Duration>) -> Duration {
    retry_after.unwrap_or(Duration::from_secs(1)).min(BACK_OFF_MAX)
}

/// The markets the bettors use.
#[derive(Clone, Copy)]
pub struct Markets {
    pub exchange: i64,
    pub exchange_runners: [i64; 2],
    pub bookmaker: i64,
    pub bookmaker_runners: [i64; 2],
}

/// A bet as sent, kept to send again with the same `client_ref` if its answer was lost.
#[derive(Clone)]
pub struct SentBet {
    pub user: &'static str,
    pub client_ref: String,
    pub body: Value,
}

/// What one user's bettor saw in one life of the server (or one round of faults).
#[derive(Default)]
pub struct Seen {
    /// client_ref → (bet id, stake in minor units), from 200 answers.
    pub acknowledged: Vec<(SentBet, i64, i64)>,
    /// When each acknowledged bet was sent and when its answer came, and its market.
    pub acked_at: Vec<(Instant, Instant, i64)>,
    /// Bets not known to be placed, to send again with their `client_ref`: the answer was lost
    /// (the server died under it), or was a 503 (or a 500, which fails the test anyway).
    pub unknown: Vec<SentBet>,
    /// Bets whose answer was lost.
    pub lost: usize,
    /// 503s, to placeBet and cancelBet.
    pub unavailable: usize,
    /// 503s without a Retry-After header.
    pub no_retry_after: usize,
    /// Bets refused (4xx): not placed, and so told.
    pub refused: usize,
    /// Every 5xx answer but a 503, as "path: status body": the API never owes one.
    pub server_errors: Vec<String>,
}

impl Seen {
    /// Notes an answer a bettor must never get (a 5xx but a 503).
    pub fn server_error(&mut self, path: &str, status: u16, body: &Value) {
        self.server_errors.push(format!("{path}: {status} {body}"));
    }

    /// Notes a 503 and answers how long to back off.
    pub fn unavailable(&mut self, retry_after: Option<Duration>) -> Duration {
        self.unavailable += 1;
        self.no_retry_after += usize::from(retry_after.is_none());
        back_off(retry_after)
    }
}

pub fn stake_minor(body: &Value) -> i64 {
    body["stake"].as_i64().expect("whole stakes") * 100
}

/// Places and cancels bets until the server dies, the bound is reached or `stop` says so,
/// counting each bet acknowledged on `acks`. A 503 is "not known to be done": the bet is kept
/// to send again with its `client_ref` (never counted as refused), and the bettor backs off by
/// the answer's Retry-After before it goes on. A 500 is noted (it fails the test at the end)
/// and otherwise taken as a 503 without a Retry-After.
#[allow(clippy::too_many_arguments)] // a test's worker: each argument is one thing it is given
pub async fn bettor(
    base: String,
    user: &'static str,
    token: String,
    markets: Markets,
    seed: u64,
    life: u32,
    acks: watch::Sender<usize>,
    mut stop: watch::Receiver<bool>,
) -> Seen {
    let client = reqwest::Client::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seen = Seen::default();
    let mut mine: Vec<i64> = Vec::new();
    for n in 0..BETS_PER_LIFE_MAX {
        if *stop.borrow() {
            break;
        }
        let mut pause = None;
        if !mine.is_empty() && rng.gen_bool(0.15) {
            let bet_id = mine[rng.gen_range(0..mine.len())];
            match call(&client, &base, "bet/cancelBet", Some(&token), &json!({ "bet_id": bet_id }))
                .await
            {
                Reply::Lost => break,
                Reply::Unavailable { retry_after, .. } => {
                    pause = Some(seen.unavailable(retry_after))
                }
                Reply::Answer(status, body) if status >= 500 => {
                    seen.server_error("cancelBet", status, &body);
                    pause = Some(back_off(None));
                }
                Reply::Answer(..) => {}
            }
        } else {
            let sent = random_bet(&mut rng, user, format!("crash-{user}-{life}-{n}"), markets);
            let sent_at = Instant::now();
            match call(&client, &base, "bet/placeBet", Some(&token), &sent.body).await {
                Reply::Lost => {
                    seen.lost += 1;
                    seen.unknown.push(sent);
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
                Reply::Unavailable { retry_after, .. } => {
                    pause = Some(seen.unavailable(retry_after));
                    seen.unknown.push(sent);
                }
                Reply::Answer(status, answer) if status >= 500 => {
                    seen.server_error("placeBet", status, &answer);
                    pause = Some(back_off(None));
                    seen.unknown.push(sent);
                }
                Reply::Answer(..) => seen.refused += 1,
            }
        }
        if let Some(wait) = pause {
            let _ = tokio::time::timeout(wait, stop.wait_for(|stop| *stop)).await;
        }
    }
    seen
}

/// A bet on one of the markets, drawn from `rng`: three in four on the exchange market at a
/// price near evens, the rest on the bookmaker market at its posted rate.
fn random_bet(
    rng: &mut rand::rngs::StdRng,
    user: &'static str,
    client_ref: String,
    markets: Markets,
) -> SentBet {
    let side = if rng.gen_bool(0.5) { "back" } else { "lay" };
    let runner = rng.gen_range(0..2);
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
    SentBet { user, client_ref, body }
}

/// What the bettors of a test were told over all its lives (or rounds of faults) and the
/// resends, and what went wrong on the way.
#[derive(Default)]
pub struct Tally {
    /// client_ref → (the bet as sent, its id, its stake in minor units), from 200 answers.
    pub acknowledged: BTreeMap<String, (SentBet, i64, i64)>,
    /// Bets not known to be placed yet, to send again ([`send_again`]).
    pub unknown: Vec<SentBet>,
    /// Bets sent again so far.
    pub sent_again: usize,
    pub lost: usize,
    pub unavailable: usize,
    pub no_retry_after: usize,
    pub refused: usize,
    pub server_errors: Vec<String>,
    /// What went wrong that the end checks cannot see (betting that did not resume, a health
    /// answer that lied), one sentence each.
    pub problems: Vec<String>,
}

impl Tally {
    /// Adds what one bettor saw.
    pub fn add(&mut self, seen: Seen) {
        for ack in seen.acknowledged {
            self.acknowledged.insert(ack.0.client_ref.clone(), ack);
        }
        self.unknown.extend(seen.unknown);
        self.lost += seen.lost;
        self.unavailable += seen.unavailable;
        self.no_retry_after += seen.no_retry_after;
        self.refused += seen.refused;
        self.server_errors.extend(seen.server_errors);
    }

    /// Notes a problem, printing it as it is found.
    pub fn problem(&mut self, problem: String) {
        eprintln!("problem: {problem}");
        self.problems.push(problem);
    }
}

/// Reads a reader makes at most, one every 100 ms: longer than any round of faults.
const READS_MAX: usize = 1_000;

/// Reads what a bettor's pages read (balance, open bets, exposure, the match page) through
/// `base` until `stop` says so or the node dies: during a fault each answer must be a 200 or a
/// 503 with a Retry-After, never a 500.
pub async fn reader(
    base: String,
    token: String,
    match_id: i64,
    stop: watch::Receiver<bool>,
) -> Seen {
    let client = reqwest::Client::new();
    let mut seen = Seen::default();
    let match_page = json!({ "match_id": match_id });
    for n in 0..READS_MAX {
        if *stop.borrow() {
            break;
        }
        let (path, reply) = match n % 4 {
            0 => (
                "user/getUserBalance",
                get(&client, &base, "user/getUserBalance", Some(&token)).await,
            ),
            1 => (
                "bet/openBets",
                call(&client, &base, "bet/openBets", Some(&token), &json!({})).await,
            ),
            2 => (
                "bet/getExposureDetail",
                get(&client, &base, "bet/getExposureDetail", Some(&token)).await,
            ),
            _ => (
                "match/matchDetail",
                call(&client, &base, "match/matchDetail", Some(&token), &match_page).await,
            ),
        };
        match reply {
            Reply::Lost => break,
            // Counted with the bets' 503s only when it lacks its Retry-After.
            Reply::Unavailable { retry_after: None, .. } => seen.no_retry_after += 1,
            Reply::Unavailable { .. } => {}
            Reply::Answer(status, body) if status >= 500 => seen.server_error(path, status, &body),
            Reply::Answer(..) => {}
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    seen
}

/// Logs in (sessions outlive restarts: they are stored).
pub async fn login(base: &str, user: &str, password: &str) -> String {
    let body = json!({ "user_name": user, "password": password });
    let data = call(&reqwest::Client::new(), base, "user/login", None, &body).await;
    data.data(&format!("log-in of {user}"))["token"].as_str().unwrap().to_string()
}

pub async fn admin_call(base: &str, admin: &str, path: &str, body: Value) -> Value {
    call(&reqwest::Client::new(), base, path, Some(admin), &body).await.data(path)
}

/// An exchange market and a bookmaker market on the demo's in-play match, with no bet delay
/// (a delay only stretches each life without changing what is stored).
pub async fn create_markets(base: &str, admin: &str) -> Markets {
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
pub const LEASE_FLAGS: [&str; 2] = ["--cluster-lease-ms", "1000"];

/// The bettors of one round, one per user of [`USERS`], running until `stop` says so (or
/// their server dies): their handles, and the count of bets they were told of.
pub struct Round {
    pub bettors: Vec<tokio::task::JoinHandle<Seen>>,
    pub acked: watch::Receiver<usize>,
    pub stop: watch::Sender<bool>,
}

/// Waits (bounded by `within`) until the bettors have been told of `at_least` bets; false when
/// they were not in time (or all stopped first). The count is read at once and never held: a
/// borrow of it held on would stop the bettors.
pub async fn told_of_within(
    acked: &mut watch::Receiver<usize>,
    at_least: usize,
    within: Duration,
) -> bool {
    matches!(tokio::time::timeout(within, acked.wait_for(|n| *n >= at_least)).await, Ok(Ok(_)))
}

/// Starts a [`Round`]: the `i`th user bets through `base_of(i)`, its `client_ref`s named by
/// `life_of(i)` (unique per user and life).
pub fn spawn_bettors(
    base_of: impl Fn(usize) -> String,
    tokens: &HashMap<&str, String>,
    markets: Markets,
    rng: &mut impl Rng,
    life_of: impl Fn(usize) -> u32,
) -> Round {
    let (acks, acked) = watch::channel(0);
    let (stop, stopped) = watch::channel(false);
    let bettors = USERS
        .iter()
        .enumerate()
        .map(|(i, (user, _))| {
            tokio::spawn(bettor(
                base_of(i),
                user,
                tokens[user].clone(),
                markets,
                rng.gen(),
                life_of(i),
                acks.clone(),
                stopped.clone(),
            ))
        })
        .collect();
    Round { bettors, acked, stop }
}

pub const USERS: [(&str, &str); 3] =
    [("demo", "Demo@1234"), ("demo2", "Demo@1234"), ("maker", "Maker@1234")];

/// How long the bets sent again may keep answering 503, all of them together, before the test
/// gives up on those left.
const SEND_AGAIN_WAIT: Duration = Duration::from_secs(30);

/// Sends again, through `base`, the bets not known to be placed (their answer was lost, or was
/// a 503), each with its `client_ref`, noting the answers: a bet stored before its answer was
/// lost answers as first placed, one not stored is placed now. One bet either way. A 503 is
/// tried again after its Retry-After, for up to [`SEND_AGAIN_WAIT`] in all.
pub async fn send_again(base: &str, tokens: &HashMap<&str, String>, tally: &mut Tally) {
    let client = reqwest::Client::new();
    let unknown = std::mem::take(&mut tally.unknown);
    tally.sent_again += unknown.len();
    let deadline = Instant::now() + SEND_AGAIN_WAIT;
    let mut given_up = Vec::new();
    for sent in unknown {
        if Instant::now() > deadline {
            given_up.push(sent.client_ref);
            continue;
        }
        loop {
            let reply =
                call(&client, base, "bet/placeBet", Some(&tokens[sent.user]), &sent.body).await;
            let wait = match reply {
                Reply::Answer(200, answer) => {
                    let bet_id = answer["data"]["bet_id"].as_i64().unwrap();
                    let stake = stake_minor(&sent.body);
                    tally.acknowledged.insert(sent.client_ref.clone(), (sent, bet_id, stake));
                    break;
                }
                Reply::Answer(status, answer) if status >= 500 => {
                    tally.server_errors.push(format!("placeBet sent again: {status} {answer}"));
                    back_off(None)
                }
                Reply::Answer(..) => {
                    tally.refused += 1;
                    break;
                }
                Reply::Unavailable { retry_after, .. } => {
                    tally.unavailable += 1;
                    tally.no_retry_after += usize::from(retry_after.is_none());
                    back_off(retry_after)
                }
                Reply::Lost => panic!("{base} did not answer a bet sent again"),
            };
            if Instant::now() + wait > deadline {
                given_up.push(sent.client_ref);
                break;
            }
            tokio::time::sleep(wait).await;
        }
    }
    if !given_up.is_empty() {
        tally.problem(format!(
            "{} bets sent again still answered a 5xx after {SEND_AGAIN_WAIT:?}: {}",
            given_up.len(),
            given_up.join(", ")
        ));
    }
}

pub async fn match_of(store: &Store, market: i64) -> i64 {
    store.market(market).await.unwrap().setup.match_id
}

pub async fn user_id_of(store: &Store, name: &str) -> i64 {
    store.user_id_by_name(name).await.unwrap().expect("a demo user")
}

/// The PostgreSQL database the tests create theirs from, and the nemesis cuts from.
pub fn postgres_admin_url() -> String {
    std::env::var("BACKLAY_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

static DATABASES: AtomicU32 = AtomicU32::new(0);

/// The PostgreSQL tests that may run at once: each starts up to three servers, and all of them
/// together (with the API tests' and the fuzzer's servers, which `make test` runs beside them)
/// would pass PostgreSQL's 100 connections; one at a time holds at most 3 servers × (6 + 3)
/// (README, "Tests").
static POSTGRES_TESTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// A fresh PostgreSQL database for one test, dropped after `run`; `None` (the test is skipped,
/// saying so) when PostgreSQL is unreachable outside CI.
pub async fn on_fresh_postgres<F, Fut>(what: &str, run: F)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    use sqlx::Connection;
    let _slot = POSTGRES_TESTS.acquire().await.expect("the semaphore is never closed");
    let admin_url = postgres_admin_url();
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
    // A test that cut the database's connections lets them in again when it ends (db_cuts);
    // should it not have, DROP DATABASE would still work, but say so here all the same.
    let _ = sqlx::query(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"))
        .execute(&mut conn)
        .await;
    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut conn)
        .await;
}

/// Nodes of the cluster test.
pub const NODES: usize = 3;

/// The index of the node that owns `market` now, waiting (bounded) for one to.
pub async fn owner_of(store: &Store, nodes: &[Server], market: i64) -> usize {
    let owner = owner_within(store, nodes, market, Duration::from_secs(30)).await;
    owner.unwrap_or_else(|| panic!("no live node owns market {market}")).0
}

/// The index and node id of the node that owns `market`, once one of `nodes` does, within
/// `wait`. (Both from one lookup: a node that has just joined is given markets one at a time,
/// so two lookups may see two owners.)
pub async fn owner_within(
    store: &Store,
    nodes: &[Server],
    market: i64,
    wait: Duration,
) -> Option<(usize, String)> {
    let deadline = Instant::now() + wait;
    loop {
        // An error (the test's own connection cut by a fault) is asked again, as "no owner".
        if let Ok(Some(owner)) = store.owner_of(&format!("market:{market}")).await {
            if let Some(index) = nodes.iter().position(|n| n.base.starts_with(&owner.url)) {
                return Some((index, owner.node_id));
            }
        }
        if Instant::now() > deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
