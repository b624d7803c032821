//! The test harness: `spawn_app(Db::…)` starts the real server on a random port against a fresh
//! SQLite file or a fresh PostgreSQL database (created here, dropped when the app is dropped),
//! seeded with the demo data, and `TestApp` has one helper per kind of call.
//!
//! PostgreSQL comes from `BACKLAY_TEST_POSTGRES_URL` (default: the `test` database on
//! 127.0.0.1:5432 as user postgres). When it is unreachable the PostgreSQL half of each test is
//! skipped with a note, except under `CI=true`, where that is a failure.

use std::sync::atomic::{AtomicU32, Ordering};

use backlay_demo::Demo;
use backlay_kit::config::Config;
use backlay_kit::secret_key::SecretKeySource;
use backlay_server::Server;
use backlay_store::secrets::Keyring;
use reqwest::StatusCode;
use serde_json::Value;
use sqlx::Connection;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    config: Config,
    demo: Demo,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<()>>,
    _dir: tempfile::TempDir,
    postgres_db: Option<String>,
    /// Where the Betfair stream listens, when the test asked for it (`Config::betfair_stream`).
    pub betfair_stream_addr: Option<std::net::SocketAddr>,
}

fn postgres_admin_url() -> String {
    std::env::var("BACKLAY_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

fn with_database(url: &str, database: &str) -> String {
    let (base, _) = url.rsplit_once('/').expect("a postgres URL ends in /database");
    format!("{base}/{database}")
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// The test databases' names start so, then the test process's id: `backlay_test_<pid>_<n>_<random>`.
const TEST_DATABASE_PREFIX: &str = "backlay_test_";

/// Set once the databases left behind by earlier runs were dropped.
static LEFTOVERS_DROPPED: tokio::sync::OnceCell<()> = tokio::sync::OnceCell::const_new();

/// A fresh PostgreSQL database for one test, or `None` when PostgreSQL is unreachable outside CI.
pub(crate) async fn fresh_postgres() -> Option<(String, String)> {
    let admin_url = postgres_admin_url();
    let mut conn = match sqlx::PgConnection::connect(&admin_url).await {
        Ok(conn) => conn,
        Err(err) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("PostgreSQL at {admin_url} is unreachable under CI=true: {err}")
        }
        Err(err) => {
            eprintln!("note: skipping the PostgreSQL half of this test: {admin_url} is unreachable ({err})");
            return None;
        }
    };
    LEFTOVERS_DROPPED.get_or_init(|| drop_leftovers(&mut conn)).await;
    let template = MIGRATED_TEMPLATE.get_or_init(|| migrated_template(&admin_url, &mut conn)).await;
    let name = format!(
        "{TEST_DATABASE_PREFIX}{}_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        rand::random::<u32>()
    );
    sqlx::query(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
        .execute(&mut conn)
        .await
        .expect("create test database");
    // These tests check what the server does, not PostgreSQL's durability (the crash-safety
    // tests, on databases of their own, do): a commit here need not wait for its WAL to reach
    // the disk. Transactions, locks and isolation are PostgreSQL's as ever.
    sqlx::query(&format!("ALTER DATABASE {name} SET synchronous_commit = off"))
        .execute(&mut conn)
        .await
        .expect("configure test database");
    Some((with_database(&admin_url, &name), name))
}

/// The database each test's is copied from, migrated: made once per test process.
static MIGRATED_TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// A database with every migration applied, `backlay_test_<pid>_template_<random>`, that the tests'
/// databases are copied from (`CREATE DATABASE … TEMPLATE`): the server that starts on a copy
/// finds its migrations applied. Migrating each test's database afresh took about half a
/// second of PostgreSQL's work per test; with the copy the API tests took 250 s instead of 290
/// (bench/RESULTS.md, 2026-11-28). Left for the next run's sweep, as a test database is
/// ([`drop_leftovers`]).
async fn migrated_template(admin_url: &str, conn: &mut sqlx::PgConnection) -> String {
    // Random too: the sweep before it keeps a leftover of a run whose process id this one
    // reuses, as it keeps this run's own.
    let name =
        format!("{TEST_DATABASE_PREFIX}{}_template_{}", std::process::id(), rand::random::<u32>());
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut *conn)
        .await
        .expect("create the template database");
    let store = backlay_store::Store::connect_with(&with_database(admin_url, &name), 4)
        .await
        .expect("connect to the template database");
    store.migrate().await.expect("migrate the template database");
    // A database is copied only while nobody is connected to it.
    store.close().await;
    name
}

/// Drops the test databases of test processes that are gone: a test's database is dropped in
/// the background when it ends (see `Drop for TestApp`), and those still being dropped when the
/// process exits are left behind. Only where a process can be looked up (`/proc`).
async fn drop_leftovers(conn: &mut sqlx::PgConnection) {
    if !std::path::Path::new("/proc/self").exists() {
        return;
    }
    let pattern = format!("{}%", TEST_DATABASE_PREFIX.replace('_', "\\_"));
    let names: Vec<String> =
        sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE $1")
            .bind(pattern)
            .fetch_all(&mut *conn)
            .await
            .unwrap_or_default();
    for name in names {
        let pid = name.strip_prefix(TEST_DATABASE_PREFIX).and_then(|rest| rest.split('_').next());
        let gone = pid.is_some_and(|pid| !std::path::Path::new(&format!("/proc/{pid}")).exists());
        if gone {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut *conn)
                .await;
        }
    }
}

pub async fn spawn_app(db: Db) -> Option<TestApp> {
    spawn_app_with(db, |_| {}).await
}

/// Starts the app with the demo data, after letting the test adjust the configuration.
pub async fn spawn_app_with(db: Db, adjust: impl FnOnce(&mut Config)) -> Option<TestApp> {
    spawn_app_with_demo(db, test_demo(), adjust).await
}

/// The demo the tests start with: its data, without the markets (tests that need them ask)
/// and without the feed.
pub fn test_demo() -> Demo {
    Demo { seed: true, markets: false, ..Demo::default() }
}

/// Starts the app with this much of the demo, after letting the test adjust the configuration.
/// The database connections of a test server on PostgreSQL (the fewest the store opens: two
/// for writes, two for reads), so that eight tests at once, each server with its 3 for live
/// data, hold at most 56 of PostgreSQL's connections, and `make test` with the fuzzer's server and
/// the crash-safety tests beside them stays within 80 (README, "Tests"; the default limit is 100).
pub const TEST_DATABASE_CONNECTIONS: u32 = 4;

pub async fn spawn_app_with_demo(
    db: Db,
    demo: Demo,
    adjust: impl FnOnce(&mut Config),
) -> Option<TestApp> {
    let dir = tempfile::tempdir().expect("temp dir");
    let (database_url, postgres_db) = match db {
        Db::Sqlite => (format!("sqlite://{}", dir.path().join("backlay.db").display()), None),
        Db::Postgres => {
            let (url, name) = fresh_postgres().await?;
            (url, Some(name))
        }
    };
    let mut config = Config::with_database(database_url);
    // SQLite keeps the embedded default (the key file beside the database, made on first start);
    // PostgreSQL must be given one.
    if db == Db::Postgres {
        config.secret_key =
            SecretKeySource::File { path: dir.path().join("secret.key"), create: true };
        config.database_connections = TEST_DATABASE_CONNECTIONS;
    }
    config.addr = "127.0.0.1:0".parse().unwrap();
    config.web_dir = dir.path().join("no-web-build");
    adjust(&mut config);
    let (base, shutdown, handle, betfair_stream_addr) = start(config.clone(), demo.clone()).await;
    Some(TestApp {
        base,
        betfair_stream_addr,
        client: reqwest::Client::new(),
        config,
        demo,
        shutdown: Some(shutdown),
        server: Some(handle),
        _dir: dir,
        postgres_db,
    })
}

/// A started server: its API's base URL, how to stop it, its task, its Betfair stream's address.
type Started = (
    String,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
    Option<std::net::SocketAddr>,
);

async fn start(config: Config, demo: Demo) -> Started {
    let server = Server::build_with(config, demo.start_hooks()).await.expect("server starts");
    let base = format!("http://{}/api", server.local_addr());
    let betfair_stream_addr = server.betfair_stream_addr();
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        server
            .run(async {
                let _ = stopped.await;
            })
            .await
            .expect("server runs");
    });
    (base, shutdown, handle, betfair_stream_addr)
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(server) = self.server.take() {
            server.abort();
        }
        if let Some(name) = self.postgres_db.take() {
            // Drop is not async: drop the database from a thread with its own runtime, in the
            // background (a DROP DATABASE takes about a second, which the test need not wait
            // for; one left behind at the process's exit is dropped by the next run).
            let admin_url = postgres_admin_url();
            std::thread::spawn(move || {
                let runtime =
                    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
                runtime.block_on(async move {
                    if let Ok(mut conn) = sqlx::PgConnection::connect(&admin_url).await {
                        let _ =
                            sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                                .execute(&mut conn)
                                .await;
                    }
                });
            });
        }
    }
}

/// An answer: HTTP status and the JSON envelope.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Answer {
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }

    pub fn message(&self) -> &str {
        self.body["message"].as_str().unwrap_or_default()
    }

    /// `data.errors[field]` of a 400.
    pub fn field_error(&self, field: &str) -> &str {
        self.body["data"]["errors"][field].as_str().unwrap_or_default()
    }

    /// Asserts the status and the envelope's `status` flag, and returns self.
    #[track_caller]
    pub fn expect(&self, status: u16) -> &Answer {
        assert_eq!(self.status.as_u16(), status, "unexpected answer: {}", self.body);
        assert_eq!(
            self.body["status"],
            Value::Bool(status == 200),
            "envelope status wrong: {}",
            self.body
        );
        assert!(
            self.body.get("message").is_some_and(Value::is_string),
            "no message: {}",
            self.body
        );
        self
    }
}

impl TestApp {
    /// The app's database, for tests that drive server internals (the casino's round steps)
    /// beside the HTTP API.
    pub fn database_url(&self) -> &str {
        &self.config.database_url
    }

    /// The configuration the server runs with (to start another on the same database).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The server's secret key file.
    pub fn secret_key_path(&self) -> std::path::PathBuf {
        match &self.config.secret_key {
            SecretKeySource::BesideDatabase => {
                backlay_kit::secret_key::beside_database(&self.config.database_url)
            }
            SecretKeySource::File { path, .. } => path.clone(),
            SecretKeySource::Text(_) => panic!("the tests give the key in a file"),
        }
    }

    /// The app's database with the server's keys, for tests that read secrets beside the API.
    pub async fn store(&self) -> backlay_store::Store {
        let keyring =
            Keyring::load_file(&self.secret_key_path()).expect("the server made its key file");
        backlay_store::Store::connect(self.database_url())
            .await
            .unwrap()
            .with_keyring(std::sync::Arc::new(keyring))
    }

    /// Stops the server (its database stays, for another server to start on).
    pub async fn stop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(server) = self.server.take() {
            server.abort();
            let _ = server.await;
        }
    }

    /// Stops the server as the binary does on a signal: its live streams and Betfair stream
    /// connections end, requests in flight finish (within `bound`, then it is aborted).
    pub async fn stop_gracefully(&mut self, bound: std::time::Duration) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(mut server) = self.server.take() {
            if tokio::time::timeout(bound, &mut server).await.is_err() {
                server.abort();
            }
        }
    }

    /// Stops the server and starts a new one on the same database (on a new port).
    pub async fn restart(&mut self) {
        self.stop().await;
        let (base, shutdown, handle, betfair_stream_addr) =
            start(self.config.clone(), self.demo.clone()).await;
        self.base = base;
        self.betfair_stream_addr = betfair_stream_addr;
        self.shutdown = Some(shutdown);
        self.server = Some(handle);
    }

    /// [`TestApp::restart`] with the configuration adjusted first.
    pub async fn restart_with(&mut self, adjust: impl FnOnce(&mut Config)) {
        adjust(&mut self.config);
        self.restart().await;
    }

    /// A second node on this app's database, served on another port, as a second server behind
    /// a load balancer. On PostgreSQL a second `Server`, a node of the cluster that takes its
    /// share of the markets. On SQLite, where a second server is refused (one per file), an
    /// `AppState` of its own (throttle, engine, live streams): what is shared between nodes is
    /// the same on both engines. It stops when dropped; this app must outlive it.
    pub async fn second_node(&self) -> TestApp {
        let (base, shutdown, handle, betfair_stream_addr) = if self.postgres_db.is_some() {
            start(self.config.clone(), self.demo.clone()).await
        } else {
            let (base, shutdown, handle) = self.second_app_state().await;
            (base, shutdown, handle, None)
        };
        TestApp {
            base,
            betfair_stream_addr,
            client: reqwest::Client::new(),
            config: self.config.clone(),
            demo: self.demo.clone(),
            shutdown: Some(shutdown),
            server: Some(handle),
            _dir: tempfile::tempdir().expect("temp dir"),
            postgres_db: None,
        }
    }

    /// [`TestApp::second_node`] on SQLite: an `AppState` served on a port of its own.
    async fn second_app_state(
        &self,
    ) -> (String, tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut config = self.config.clone();
        config.addr = listener.local_addr().unwrap();
        let limits = backlay_server::serve::Limits {
            header_timeout_ms: config.header_timeout_ms,
            body_timeout_ms: config.body_timeout_ms,
            max_connections: config.max_connections,
            shutdown_grace_ms: config.shutdown_grace_ms,
        };
        let passwords = backlay_kit::password::Passwords::for_this_machine();
        let state = backlay_operator::AppState::new(self.store().await, config.clone(), passwords)
            .await
            .expect("the second node starts");
        let stopping = state.stopping.clone();
        let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
        let router = backlay_server::app(state).await.unwrap();
        let handle = tokio::spawn(async move {
            let stopped = async {
                let _ = stopped.await;
            };
            backlay_server::serve::run(listener, router, limits, stopped, stopping).await;
        });
        (format!("http://{}/api", config.addr), shutdown, handle)
    }

    async fn send(&self, request: reqwest::RequestBuilder, token: Option<&str>) -> Answer {
        let request = match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        };
        let response = request.send().await.expect("request sent");
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.expect("body read");
        let body =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        Answer { status, body, headers }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        self.send(self.client.get(format!("{}/{path}", self.base)), token).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        self.send(self.client.post(format!("{}/{path}", self.base)).json(&body), token).await
    }

    /// Posts `body` and reads the answer as text, whatever it is (a CSV download):
    /// (status, content type, content disposition, text).
    pub async fn download(
        &self,
        path: &str,
        token: Option<&str>,
        body: Value,
    ) -> (StatusCode, String, String, String) {
        let mut request = self.client.post(format!("{}/{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request sent");
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string()
        };
        let (content_type, disposition) = (header("content-type"), header("content-disposition"));
        let status = response.status();
        (status, content_type, disposition, response.text().await.expect("body read"))
    }

    /// Posts raw bytes as JSON (for malformed-body tests).
    pub async fn post_raw(
        &self,
        path: &str,
        token: Option<&str>,
        body: impl Into<reqwest::Body>,
    ) -> Answer {
        let request = self
            .client
            .post(format!("{}/{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        self.send(request, token).await
    }

    /// The OpenAPI document the server serves at `/api/openapi.json`.
    pub async fn openapi(&self) -> Value {
        self.client
            .get(format!("{}/openapi.json", self.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    pub async fn login_answer(&self, user_name: &str, password: &str) -> Answer {
        self.post(
            "user/login",
            None,
            serde_json::json!({ "user_name": user_name, "password": password }),
        )
        .await
    }

    /// Sends a log-in on a task of its own, so that many of them are on the wire at once
    /// whatever the test awaits meanwhile.
    pub fn spawn_login(&self, user_name: &str, password: &str) -> tokio::task::JoinHandle<Answer> {
        let request = self
            .client
            .post(format!("{}/user/login", self.base))
            .json(&serde_json::json!({ "user_name": user_name, "password": password }));
        tokio::spawn(async move {
            let response = request.send().await.expect("request sent");
            let status = response.status();
            let headers = response.headers().clone();
            let text = response.text().await.expect("body read");
            let body = serde_json::from_str(&text)
                .unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
            Answer { status, body, headers }
        })
    }

    /// Logs in and returns the token; panics when the log-in fails.
    pub async fn login(&self, user_name: &str, password: &str) -> String {
        let answer = self.login_answer(user_name, password).await;
        answer.expect(200);
        answer.data()["token"].as_str().expect("token").to_string()
    }

    pub async fn admin(&self) -> String {
        self.login("admin", "Admin@1234").await
    }

    pub async fn agent(&self) -> String {
        self.login("agent", "Agent@1234").await
    }

    pub async fn demo(&self) -> String {
        self.login("demo", "Demo@1234").await
    }

    /// total_balance of the token's user, in minor units.
    pub async fn balance_minor(&self, token: &str) -> i64 {
        let answer = self.get("user/getUserBalance", Some(token)).await;
        answer.expect(200);
        minor(&answer.data()["total_balance"])
    }

    /// The id of a user by name, through the operator list.
    pub async fn user_id(&self, admin_token: &str, user_name: &str) -> i64 {
        let answer = self
            .post("admin/user/list", Some(admin_token), serde_json::json!({ "limit": 100 }))
            .await;
        answer.expect(200);
        answer.data()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["user_name"] == user_name)
            .unwrap_or_else(|| panic!("no user {user_name}"))["user_id"]
            .as_i64()
            .unwrap()
    }

    /// Creates a user as `operator` and returns (id, token after the forced password change).
    pub async fn new_user(
        &self,
        operator_token: &str,
        user_name: &str,
        role: &str,
    ) -> (i64, String) {
        let answer = self
            .post(
                "admin/user/create",
                Some(operator_token),
                serde_json::json!({ "user_name": user_name, "password": "First@123", "role": role }),
            )
            .await;
        answer.expect(200);
        let id = answer.data()["user_id"].as_i64().unwrap();
        let token = self.login(user_name, "First@123").await;
        self.post(
            "user/changePassword",
            Some(&token),
            serde_json::json!({ "master_password": "First@123", "new_password": "Second@123", "confirm_password": "Second@123" }),
        )
        .await
        .expect(200);
        (id, token)
    }

    /// Creates a market as the admin on `match_id` (`body` as `admin/market/create` takes it)
    /// and opens it; returns (market_id, selection ids).
    pub async fn open_market(
        &self,
        admin_token: &str,
        match_id: i64,
        mut body: serde_json::Value,
    ) -> (i64, Vec<i64>) {
        body["match_id"] = serde_json::json!(match_id);
        let created = self.post("admin/market/create", Some(admin_token), body).await;
        created.expect(200);
        let market_id = created.data()["market_id"].as_i64().unwrap();
        let selections = created.data()["selection_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().unwrap())
            .collect();
        self.set_market_status(admin_token, market_id, "open").await;
        (market_id, selections)
    }

    /// Sets a market's status as the admin (`open`, `suspended`, `ball_running`); it must take.
    pub async fn set_market_status(&self, admin_token: &str, market_id: i64, status: &str) {
        self.post(
            "admin/market/status",
            Some(admin_token),
            serde_json::json!({ "market_id": market_id, "status": status }),
        )
        .await
        .expect(200);
    }

    /// Market `market_id` of match `match_id` as `token`'s match page has it (its runners with
    /// that user's positions).
    pub async fn match_market(&self, token: &str, match_id: i64, market_id: i64) -> Value {
        let detail = self
            .post("match/matchDetail", Some(token), serde_json::json!({ "match_id": match_id }))
            .await;
        detail.expect(200);
        detail.data()["markets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["market_id"] == market_id)
            .unwrap_or_else(|| {
                panic!("market {market_id} is not on match {match_id}: {}", detail.body)
            })
            .clone()
    }

    /// Asserts the ledger invariants through the operator API.
    pub async fn assert_ledger_sound(&self, admin_token: &str) {
        let answer = self.get("admin/ledger/check", Some(admin_token)).await;
        answer.expect(200);
        assert_eq!(answer.data()["sound"], true, "ledger not sound: {}", answer.body);
        assert_eq!(minor(&answer.data()["total"]), 0);
    }
}

/// A JSON money number (2 decimals) as minor units.
pub fn minor(value: &Value) -> i64 {
    let number = value.as_f64().unwrap_or_else(|| panic!("not a number: {value}"));
    (number * 100.0).round() as i64
}

/// Runs an async test body once against SQLite and once against PostgreSQL.
#[macro_export]
macro_rules! both_databases {
    // With the configuration adjusted by `$adjust` (a `fn(&mut Config)`).
    ($name:ident, $adjust:expr) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                if let Some(app) =
                    $crate::common::spawn_app_with($crate::common::Db::Sqlite, $adjust).await
                {
                    super::$name(app).await;
                }
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(app) =
                    $crate::common::spawn_app_with($crate::common::Db::Postgres, $adjust).await
                {
                    super::$name(app).await;
                }
            }
        }
    };
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                if let Some(app) = $crate::common::spawn_app($crate::common::Db::Sqlite).await {
                    super::$name(app).await;
                }
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(app) = $crate::common::spawn_app($crate::common::Db::Postgres).await {
                    super::$name(app).await;
                }
            }
        }
    };
}

/// Reads SSE events from a streaming response until one satisfies `done` (or times out).
pub async fn read_until(
    response: &mut reqwest::Response,
    buffer: &mut String,
    done: impl Fn(&str, &Value) -> bool,
) -> (String, Value) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let event = block
                .lines()
                .find_map(|l| l.strip_prefix("event:"))
                .map(str::trim)
                .unwrap_or("message")
                .to_string();
            let data: String =
                block.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
            if data.is_empty() {
                continue;
            }
            let value: Value = serde_json::from_str(&data).unwrap();
            if done(&event, &value) {
                return (event, value);
            }
        }
        let chunk = tokio::time::timeout_at(deadline, response.chunk())
            .await
            .expect("an event in time")
            .unwrap()
            .expect("stream open");
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
}
