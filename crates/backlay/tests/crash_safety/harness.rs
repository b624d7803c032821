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
    /// Starts `backlay serve` on a free port with `extra` flags and waits for `/api/health`.
    pub async fn start_with(database_url: &str, log: &Path, first: bool, extra: &[&str]) -> Server {
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

/// What a call's answer was, or that none came (the server died under it).
pub enum Reply {
    Answer(u16, Value),
    Lost,
}

pub async fn call(
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

/// What one user's bettor saw in one life of the server.
#[derive(Default)]
pub struct Seen {
    /// client_ref → (bet id, stake in minor units), from 200 answers.
    pub acknowledged: Vec<(SentBet, i64, i64)>,
    /// When each acknowledged bet was sent and when its answer came, and its market.
    pub acked_at: Vec<(Instant, Instant, i64)>,
    pub lost: Vec<SentBet>,
    pub refused: usize,
}

pub fn stake_minor(body: &Value) -> i64 {
    body["stake"].as_i64().expect("whole stakes") * 100
}

/// Places and cancels bets until the server dies, the bound is reached or `stop` says so,
/// counting each bet acknowledged on `acks`.
#[allow(clippy::too_many_arguments)] // a test's worker: each argument is one thing it is given
pub async fn bettor(
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
pub async fn login(base: &str, user: &str, password: &str) -> String {
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

pub async fn admin_call(base: &str, admin: &str, path: &str, body: Value) -> Value {
    match call(&reqwest::Client::new(), base, path, Some(admin), &body).await {
        Reply::Answer(200, body) => body["data"].clone(),
        Reply::Answer(status, body) => panic!("{path}: {status} {body}"),
        Reply::Lost => panic!("{path}: no answer"),
    }
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

pub const USERS: [(&str, &str); 3] =
    [("demo", "Demo@1234"), ("demo2", "Demo@1234"), ("maker", "Maker@1234")];

/// Sends again, through `base`, the bets whose answers were lost, each with its `client_ref`,
/// noting the answers: a bet stored before its answer was lost answers as first placed, one
/// not stored is placed now. One bet either way.
pub async fn send_again(
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
pub async fn match_of(store: &Store, market: i64) -> i64 {
    store.market(market).await.unwrap().setup.match_id
}

pub async fn user_id_of(store: &Store, name: &str) -> i64 {
    store.user_id_by_name(name).await.unwrap().expect("a demo user")
}

static DATABASES: AtomicU32 = AtomicU32::new(0);

/// A fresh PostgreSQL database for one test, dropped after `run`; `None` (the test is skipped,
/// saying so) when PostgreSQL is unreachable outside CI.
pub async fn on_fresh_postgres<F, Fut>(what: &str, run: F)
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

/// Nodes of the cluster test.
pub const NODES: usize = 3;

/// The index of the node that owns `market` now, waiting (bounded) for one to.
pub async fn owner_of(store: &Store, nodes: &[Server], market: i64) -> usize {
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
