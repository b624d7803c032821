//! poll_load: the header's balance poll, `GET /api/user/getUserBalance`, under load from many
//! logged-in users, beside a trivial endpoint (`GET /api/health`) measured in the same run at
//! the same concurrency, against a running Backlay server (demo data on).
//!
//! Set-up, through the public API: log in as the demo agent, create `--users` clients under
//! it, fund each, log them in and change their first password (as `place_load` does). Then,
//! for each endpoint in turn (the trivial one first), `--concurrency` workers send requests
//! for `--duration-s` seconds, each on its own keep-alive HTTP/1.1 connection and waiting for
//! one answer before sending the next (a closed loop). The balance workers rotate through the
//! users' tokens, so every session is asked for, not just `--concurrency` of them. Each
//! request's latency is recorded from send to the end of the answer's body.
//!
//! The load goes through a bare `hyper` connection per worker rather than `reqwest`'s pool,
//! so that the client, which shares the machine with the server, takes as little CPU as it can.
//!
//! Only loopback addresses are accepted, and every loop is bounded in time. Prints Markdown
//! lines, which `bench/run.sh` copies into `bench/RESULTS.md`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{ensure, Context};
use backlay_bench::client::{host_and_port, millis, run_tag, Api, CpuMeter};
use backlay_bench::per_second;
use bytes::Bytes;
use clap::Parser;
use hdrhistogram::Histogram;
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::http1;
use hyper::header::{HeaderValue, AUTHORIZATION, HOST};
use hyper::Request;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;

/// Bounds on what the command line may ask for.
/// Chips given to each bench client, so that its balance is not zero.
const FUNDING_PER_USER: u64 = 10_000;
const MAX_DURATION_S: u64 = 600;
const MAX_CONCURRENCY: usize = 1_024;
const MAX_USERS: usize = 1_000;
/// One request taking longer than this counts as a transport error.
const REQUEST_TIMEOUT_S: u64 = 30;
/// Pause between the two loads, so that the first one's connections are gone.
const PAUSE_BETWEEN_S: u64 = 1;

const BALANCE_PATH: &str = "/api/user/getUserBalance";
const TRIVIAL_PATH: &str = "/api/health";

#[derive(Parser)]
#[command(
    about = "Load-test the balance poll (GET /api/user/getUserBalance) beside GET /api/health"
)]
struct Args {
    /// The server, e.g. http://127.0.0.1:8080 (loopback only).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base_url: String,
    /// How long each of the two loads runs.
    #[arg(long, default_value_t = 10)]
    duration_s: u64,
    /// Workers at once, each on its own connection, waiting for each answer.
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    /// Logged-in clients whose balances are polled.
    #[arg(long, default_value_t = 200)]
    users: usize,
    /// The server's process id, to report its CPU use during each load (from /proc).
    #[arg(long)]
    server_pid: Option<u32>,
    /// A label for the report (e.g. "SQLite").
    #[arg(long, default_value = "")]
    label: String,
    /// Balance requests per second to meet (issue 5: 20,000) ...
    #[arg(long, default_value_t = 20_000)]
    target_per_s: u64,
    /// ... with this p99, in milliseconds (issue 5: 10) ...
    #[arg(long, default_value_t = 10)]
    target_p99_ms: u64,
    /// ... or at least this share of the trivial endpoint's rate, in percent (issue 5: 50).
    #[arg(long, default_value_t = 50)]
    target_share_of_trivial_pct: u64,
}

/// What one load saw.
struct LoadReport {
    elapsed_s: f64,
    ok: Histogram<u64>,
    failed: Histogram<u64>,
    /// Status code (0: no answer) → (count, first message).
    errors: BTreeMap<u16, (u64, String)>,
    /// CPU used by the server and this client during the load.
    cpu: String,
}

impl LoadReport {
    fn per_s(&self) -> f64 {
        self.ok.len() as f64 / self.elapsed_s
    }

    fn p99_ms(&self) -> f64 {
        self.ok.value_at_quantile(0.99) as f64 / 1_000.0
    }
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, REQUEST_TIMEOUT_S * 2_000_000, 3).expect("valid bounds")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!(
        (1..=MAX_DURATION_S).contains(&args.duration_s),
        "--duration-s must be 1 to {MAX_DURATION_S}"
    );
    ensure!(
        (1..=MAX_CONCURRENCY).contains(&args.concurrency),
        "--concurrency must be 1 to {MAX_CONCURRENCY}"
    );
    ensure!((1..=MAX_USERS).contains(&args.users), "--users must be 1 to {MAX_USERS}");
    let api = Api::new(&args.base_url)?;
    let (host, port) = host_and_port(&api.base)?;
    let authority =
        if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") };

    // Set-up.
    let (health_status, health) = api.get("health", None).await?;
    ensure!(health_status == 200, "GET /api/health answered {health_status}");
    let agent = api
        .login("agent", "Agent@1234")
        .await
        .context("log-in as the demo agent (is the server running with --demo?)")?;
    let setup_started = Instant::now();
    let tokens = api.make_clients(&agent, &run_tag(), args.users, FUNDING_PER_USER).await?;
    eprintln!(
        "poll_load: {} clients logged in in {:.1} s",
        tokens.len(),
        setup_started.elapsed().as_secs_f64()
    );
    // Every token answers before the load starts.
    for token in &tokens {
        let (status, envelope) = api.get("user/getUserBalance", Some(token)).await?;
        ensure!(status == 200, "getUserBalance answered {status}: {}", envelope["message"]);
    }
    let tokens: Arc<[String]> = tokens.into();

    // Load: the trivial endpoint, then the balance.
    let trivial = run_load(&authority, TRIVIAL_PATH, None, &args).await?;
    tokio::time::sleep(Duration::from_secs(PAUSE_BETWEEN_S)).await;
    let balance = run_load(&authority, BALANCE_PATH, Some(tokens), &args).await?;

    // Report.
    let label = if args.label.is_empty() { String::new() } else { format!("{}: ", args.label) };
    println!(
        "- {label}{} workers (one keep-alive connection each, closed loop), {} s per endpoint; {} logged-in clients, each worker rotating through their tokens",
        args.concurrency, args.duration_s, args.users
    );
    report("GET /api/user/getUserBalance", &balance);
    report("GET /api/health", &trivial);
    let database = health["data"]["database"].as_str();
    println!(
        "  - {}",
        match database {
            Some(state) => format!(
                "/api/health is not free: it runs `SELECT 1` on the database pool (it answered `database: {state}`); getUserBalance makes two pool queries (the session by token hash, joined to its user, then the ledger account)"
            ),
            None => "/api/health did not say whether it checks the database".to_string(),
        }
    );
    let ratio = if trivial.per_s() > 0.0 { balance.per_s() / trivial.per_s() } else { 0.0 };
    println!("- **balance / trivial: {:.1}%** of the requests per second", ratio * 100.0);
    let absolute = balance.per_s() >= args.target_per_s as f64
        && !balance.ok.is_empty()
        && balance.p99_ms() <= args.target_p99_ms as f64;
    let relative = ratio * 100.0 >= args.target_share_of_trivial_pct as f64;
    let verdict = if absolute || relative { "met" } else { "missed" };
    println!(
        "- target: ≥ {} req/s with p99 ≤ {} ms ({}), or at least {}% of the trivial endpoint's rate ({}): **{verdict}**",
        per_second(args.target_per_s as f64),
        args.target_p99_ms,
        if absolute { "met" } else { "missed" },
        args.target_share_of_trivial_pct,
        if relative { "met" } else { "missed" },
    );
    Ok(())
}

fn report(name: &str, load: &LoadReport) {
    println!(
        "- **{name}: {} req/s** ({} answered 200 in {:.1} s; {} refused or failed)",
        per_second(load.per_s()),
        load.ok.len(),
        load.elapsed_s,
        load.failed.len()
    );
    if !load.ok.is_empty() {
        println!(
            "  - latency of 200s: p50 {}, p95 {}, **p99 {}**, p99.9 {}, max {}",
            millis(load.ok.value_at_quantile(0.50)),
            millis(load.ok.value_at_quantile(0.95)),
            millis(load.ok.value_at_quantile(0.99)),
            millis(load.ok.value_at_quantile(0.999)),
            millis(load.ok.max())
        );
    }
    println!("  - CPU during the load: {}", load.cpu);
    if load.errors.is_empty() {
        println!("  - errors: none");
    } else {
        let errors: Vec<String> = load
            .errors
            .iter()
            .map(|(status, (count, message))| {
                let status =
                    if *status == 0 { "no answer".to_string() } else { status.to_string() };
                format!("{status}: {count} (first: {message})")
            })
            .collect();
        println!("  - errors by status: {}", errors.join("; "));
    }
}

/// `--concurrency` workers on `path` for `--duration-s`; with `tokens`, each request carries
/// the next token of the worker's rotation.
async fn run_load(
    authority: &str,
    path: &'static str,
    tokens: Option<Arc<[String]>>,
    args: &Args,
) -> anyhow::Result<LoadReport> {
    let cpu = CpuMeter::start(args.server_pid.as_slice());
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.duration_s);
    let mut workers = Vec::with_capacity(args.concurrency);
    for worker in 0..args.concurrency {
        let (authority, tokens) = (authority.to_string(), tokens.clone());
        let concurrency = args.concurrency;
        workers.push(tokio::spawn(async move {
            run_worker(&authority, path, tokens, worker, concurrency, deadline).await
        }));
    }
    let mut load = LoadReport {
        elapsed_s: 0.0,
        ok: histogram(),
        failed: histogram(),
        errors: BTreeMap::new(),
        cpu: String::new(),
    };
    for worker in workers {
        let report = worker.await?;
        load.ok.add(&report.ok)?;
        load.failed.add(&report.failed)?;
        for (status, (count, message)) in report.errors {
            load.errors.entry(status).or_insert((0, message)).0 += count;
        }
    }
    load.elapsed_s = started.elapsed().as_secs_f64();
    load.cpu = cpu.describe();
    Ok(load)
}

/// One worker: its own connection (reopened after a transport error), one request at a time.
async fn run_worker(
    authority: &str,
    path: &'static str,
    tokens: Option<Arc<[String]>>,
    worker: usize,
    concurrency: usize,
    deadline: Instant,
) -> LoadReport {
    let mut report = LoadReport {
        elapsed_s: 0.0,
        ok: histogram(),
        failed: histogram(),
        errors: BTreeMap::new(),
        cpu: String::new(),
    };
    let headers: Vec<Option<HeaderValue>> = match &tokens {
        // Worker w asks for users w, w + concurrency, w + 2 × concurrency, … in turn.
        Some(tokens) => (worker..tokens.len().max(worker + 1))
            .step_by(concurrency)
            .map(|index| {
                HeaderValue::from_str(&format!("Bearer {}", tokens[index % tokens.len()])).ok()
            })
            .collect(),
        None => vec![None],
    };
    let mut sender: Option<http1::SendRequest<Empty<Bytes>>> = None;
    let mut k = 0_usize;
    while Instant::now() < deadline {
        let started = Instant::now();
        let outcome = tokio::time::timeout(
            Duration::from_secs(REQUEST_TIMEOUT_S),
            one_request(&mut sender, authority, path, headers[k % headers.len()].as_ref()),
        )
        .await
        .unwrap_or_else(|_| Err("timed out".to_string()));
        k += 1;
        let micros = (started.elapsed().as_micros() as u64).max(1);
        match outcome {
            Ok((200, _)) => report.ok.saturating_record(micros),
            Ok((status, body)) => {
                report.failed.saturating_record(micros);
                let message = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["message"].as_str().map(str::to_string))
                    .unwrap_or_else(|| String::from_utf8_lossy(&body).chars().take(200).collect());
                report.errors.entry(status).or_insert((0, message)).0 += 1;
            }
            Err(message) => {
                sender = None;
                report.failed.saturating_record(micros);
                report.errors.entry(0).or_insert((0, message)).0 += 1;
                // Do not spin on a refused connection.
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
    report
}

/// Sends one GET on the worker's connection (opening it first when there is none); answers
/// the status and the body.
async fn one_request(
    sender: &mut Option<http1::SendRequest<Empty<Bytes>>>,
    authority: &str,
    path: &str,
    authorization: Option<&HeaderValue>,
) -> Result<(u16, Bytes), String> {
    if sender.is_none() {
        let stream = TcpStream::connect(authority).await.map_err(|e| format!("connect: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (opened, connection) =
            http1::handshake(TokioIo::new(stream)).await.map_err(|e| format!("handshake: {e}"))?;
        tokio::spawn(connection);
        *sender = Some(opened);
    }
    let connection = sender.as_mut().expect("opened above");
    connection.ready().await.map_err(|e| e.to_string())?;
    let mut request = Request::get(path).header(HOST, authority);
    if let Some(authorization) = authorization {
        request = request.header(AUTHORIZATION, authorization);
    }
    let request = request.body(Empty::new()).map_err(|e| e.to_string())?;
    let response = connection.send_request(request).await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("reading the answer: {e}"))?
        .to_bytes();
    Ok((status, body))
}
