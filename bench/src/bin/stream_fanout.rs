//! stream_fanout: many subscribers on one match's live stream (`GET /api/stream`, Server-Sent
//! Events) while a driver changes one of its markets at a steady rate; measures how long each
//! change takes to reach every subscriber, and the server's memory per connection.
//!
//! Set-up, through the public API: log in as the demo admin, agent and client (their sessions
//! ask for stream tickets in turn, a fresh one every [`TICKET_REUSE`] streams or
//! [`TICKET_REFRESH_S`] seconds); pick a demo match, in play when there is one; create a fancy
//! market on it, open it and post its first line (line_no 0).
//!
//! Then `--subscribers` streams are opened, `--connect-parallelism` at a time, each on its own
//! TCP connection with a minimal HTTP/1.1 client ([`backlay_bench::sse`]: a GET written by
//! hand; the chunked body and the `event:`/`data:` lines parsed as they arrive, nothing else
//! kept), so that 10,000 streams cost the client little memory. A stream counts as connected
//! once its first event (the `snapshot`) has arrived. The server's resident memory (VmRSS of
//! `--server-pid`) is read before the first stream opens and once all are connected.
//!
//! The driver then posts the fancy's rates (`POST /api/admin/market/rates`) every
//! `--interval-ms` for `--duration-s` (waiting for each answer), change k setting line_no = k,
//! and records when each answered 200; it runs on a thread and runtime of its own, so that the
//! subscribers' reading does not delay its clock. Every subscriber notes, for each event that carries the fancy (a `market`
//! event, or a `snapshot` after falling behind), the line it shows and when it was read. The
//! server coalesces a market's changes (at most one event per market per 200 ms), so an event
//! may carry several changes at once: change k counts as delivered to a subscriber by the
//! first event showing line_no ≥ k, and its **delivery latency** is that event's read time
//! minus the time the driver got the 200 for change k. Latencies are gathered over every
//! change and every subscriber. Other events (other markets, unknown event names) are counted
//! and otherwise ignored.
//!
//! Only loopback addresses are accepted, and every loop is bounded in time and count. Prints
//! Markdown lines, which `bench/run.sh` copies into `bench/RESULTS.md`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{ensure, Context};
use backlay_bench::client::{
    host_and_port, millis, raise_open_files_limit, rss_kib, run_tag, Api, CpuMeter,
};
use backlay_bench::sse::{self, EventReader, READ_BUFFER};
use clap::Parser;
use hdrhistogram::Histogram;
use serde_json::{json, Value};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::sync::{watch, Mutex, Semaphore};

/// Bounds on what the command line may ask for.
const MAX_SUBSCRIBERS: usize = 50_000;
const MAX_DURATION_S: u64 = 600;
const MAX_CONNECT_PARALLELISM: usize = 1_024;
/// The fancy's line may not pass the server's maximum (100,000).
const MAX_CHANGES: u64 = 90_000;
/// A ticket opens this many streams before the next is asked for ...
const TICKET_REUSE: usize = 1_000;
/// ... or for this long (tickets live 60 s).
const TICKET_REFRESH_S: u64 = 20;
/// Changes a driver request may take before it counts as failed.
const DRIVER_TIMEOUT_S: u64 = 30;
/// Settling time between the last stream connecting and reading the server's memory.
const SETTLE_MS: u64 = 1_000;

#[derive(Parser)]
#[command(
    about = "Open many SSE subscribers on one match, change a market steadily, measure delivery latency and server memory"
)]
struct Args {
    /// The server, e.g. http://127.0.0.1:8080 (loopback only).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base_url: String,
    /// Streams open at once on the match.
    #[arg(long, default_value_t = 10_000)]
    subscribers: usize,
    /// How long the driver changes the market, once all streams are open.
    #[arg(long, default_value_t = 30)]
    duration_s: u64,
    /// One change every this many milliseconds. The default, 4 a second, stays under the
    /// stream's cap of 5 events a second per market, so the latency measured is the fan-out's
    /// own and not the cap's deliberate wait (try 100 to see the cap at work).
    #[arg(long, default_value_t = 250)]
    interval_ms: u64,
    /// Streams being opened at once (each until its first event arrives).
    #[arg(long, default_value_t = 64)]
    connect_parallelism: usize,
    /// A stream not connected this long after the first one was started counts as failed.
    #[arg(long, default_value_t = 300)]
    connect_timeout_s: u64,
    /// After the last change, how long the subscribers keep reading.
    #[arg(long, default_value_t = 2_000)]
    drain_ms: u64,
    /// The server's process id, to read its memory (VmRSS) from /proc; without it, memory is
    /// not measured.
    #[arg(long)]
    server_pid: Option<u32>,
    /// A label for the report (e.g. "SQLite").
    #[arg(long, default_value = "")]
    label: String,
    /// Delivery p99 to meet, in milliseconds (issue 5: 250).
    #[arg(long, default_value_t = 250)]
    target_p99_ms: u64,
    /// Server memory per connection to meet, in KB (issue 5: 30).
    #[arg(long, default_value_t = 30)]
    target_kb_per_connection: u64,
}

/// Stream tickets from a few sessions, in turn, each reused for many streams.
struct Tickets {
    api: Api,
    tokens: Vec<String>,
    /// (ticket, when issued, streams opened with it, tickets issued so far).
    current: Mutex<(String, Instant, usize, usize)>,
}

impl Tickets {
    async fn get(&self) -> anyhow::Result<String> {
        let mut current = self.current.lock().await;
        if current.0.is_empty()
            || current.2 >= TICKET_REUSE
            || current.1.elapsed() >= Duration::from_secs(TICKET_REFRESH_S)
        {
            let token = &self.tokens[current.3 % self.tokens.len()];
            let data = self.api.call("stream/ticket", Some(token), json!({})).await?;
            let ticket = data["ticket"].as_str().context("ticket in the answer")?;
            *current = (ticket.to_string(), Instant::now(), 0, current.3 + 1);
        }
        current.2 += 1;
        Ok(current.0.clone())
    }
}

/// What every subscriber shares.
struct Shared {
    authority: String,
    match_id: i64,
    market_id: i64,
    /// The clock every time is measured on (µs since this instant).
    origin: Instant,
    connect_deadline: Instant,
    tickets: Tickets,
    permits: Semaphore,
    connected: AtomicUsize,
    failed: AtomicUsize,
}

impl Shared {
    fn now_us(&self) -> u32 {
        self.origin.elapsed().as_micros().min(u32::MAX as u128) as u32
    }
}

/// What one subscriber saw.
#[derive(Default)]
struct SubscriberReport {
    connected: bool,
    /// Why it failed to connect, or why the stream ended before the run did.
    failure: Option<String>,
    events: u32,
    snapshots: u32,
    /// Events that carried the bench fancy.
    fancy_events: u32,
    /// (line_no, µs since origin) each time the fancy's line went up; the first is from the
    /// snapshot at connection.
    seen: Vec<(u32, u32)>,
}

impl SubscriberReport {
    fn on_event(&mut self, name: &[u8], data: &[u8], market_id: i64, at_us: u32) {
        self.events += 1;
        let line = match name {
            b"snapshot" => {
                self.snapshots += 1;
                serde_json::from_slice::<Value>(data)
                    .ok()
                    .and_then(|value| line_in(&value, market_id, 0))
            }
            b"market" => market_line(data, market_id),
            _ => None,
        };
        if let Some(line) = line {
            self.fancy_events += 1;
            let line = line.clamp(0, u32::MAX as i64) as u32;
            if self.seen.last().is_none_or(|(last, _)| line > *last) {
                self.seen.push((line, at_us));
            }
        }
    }
}

/// The bench fancy's line_no in a `market` event, without parsing the whole book when it is
/// another market's: the book starts `{"market_id":ID,`.
fn market_line(data: &[u8], market_id: i64) -> Option<i64> {
    const PREFIX: &[u8] = b"{\"market_id\":";
    if let Some(rest) = data.strip_prefix(PREFIX) {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let id: i64 = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
        if id != market_id {
            return None;
        }
        const LINE: &[u8] = b"\"line_no\":";
        let at = rest.windows(LINE.len()).position(|w| w == LINE)?;
        let value = &rest[at + LINE.len()..];
        let digits = value.iter().take_while(|b| b.is_ascii_digit()).count();
        return std::str::from_utf8(&value[..digits]).ok()?.parse().ok();
    }
    // Another shape: parse it.
    serde_json::from_slice::<Value>(data).ok().and_then(|value| line_in(&value, market_id, 0))
}

/// The line_no of the market `market_id` anywhere in `value` (a book, a list of books, or an
/// object holding them), a few levels deep.
fn line_in(value: &Value, market_id: i64, depth: u32) -> Option<i64> {
    if depth > 3 {
        return None;
    }
    match value {
        Value::Object(object)
            if object.get("market_id").and_then(Value::as_i64) == Some(market_id) =>
        {
            object.get("line_no").and_then(Value::as_i64)
        }
        Value::Object(object) => object.values().find_map(|v| line_in(v, market_id, depth + 1)),
        Value::Array(items) => items.iter().find_map(|v| line_in(v, market_id, depth + 1)),
        _ => None,
    }
}

/// One subscriber: opens its stream (holding a connect permit until the first event), then
/// reads until told to stop.
async fn subscribe(shared: Arc<Shared>, mut stop: watch::Receiver<bool>) -> SubscriberReport {
    let mut report = SubscriberReport::default();
    let opened = tokio::time::timeout_at(shared.connect_deadline.into(), async {
        let _permit = shared.permits.acquire().await.map_err(|e| e.to_string())?;
        open_stream(&shared, &mut report).await
    })
    .await
    .unwrap_or_else(|_| Err("not connected before --connect-timeout-s".to_string()));
    let (mut stream, mut reader) = match opened {
        Ok(opened) => opened,
        Err(failure) => {
            report.failure = Some(failure);
            shared.failed.fetch_add(1, Ordering::Relaxed);
            return report;
        }
    };
    report.connected = true;
    shared.connected.fetch_add(1, Ordering::Relaxed);
    let mut buffer = vec![0_u8; READ_BUFFER];
    loop {
        tokio::select! {
            biased;
            _ = stop.changed() => break,
            read = stream.read(&mut buffer) => match read {
                Ok(0) => {
                    report.failure = Some("closed by the server during the run".into());
                    break;
                }
                Ok(n) => {
                    let at = shared.now_us();
                    let mut on_event = |name: &[u8], data: &[u8]| {
                        report.on_event(name, data, shared.market_id, at);
                    };
                    if !reader.feed(&buffer[..n], &mut on_event) {
                        report.failure = Some("the stream's body ended during the run".into());
                        break;
                    }
                }
                Err(err) => {
                    report.failure = Some(format!("read: {}", err.kind()));
                    break;
                }
            },
        }
    }
    report
}

/// Connects, sends the GET, reads the headers and the body up to the first event.
async fn open_stream(
    shared: &Shared,
    report: &mut SubscriberReport,
) -> Result<(TcpStream, EventReader), String> {
    let ticket = shared.tickets.get().await.map_err(|e| format!("ticket: {e:#}"))?;
    let path = format!("/api/stream?match_id={}&ticket={ticket}", shared.match_id);
    let (mut stream, mut reader, body) = sse::connect(&shared.authority, &path).await?;
    let mut buffer = vec![0_u8; READ_BUFFER];
    let at = shared.now_us();
    reader.feed(&body, &mut |name, data| report.on_event(name, data, shared.market_id, at));
    while report.events == 0 {
        let n = stream.read(&mut buffer).await.map_err(|e| format!("read: {}", e.kind()))?;
        if n == 0 {
            return Err("closed before the first event".into());
        }
        let at = shared.now_us();
        let mut on_event = |name: &[u8], data: &[u8]| {
            report.on_event(name, data, shared.market_id, at);
        };
        if !reader.feed(&buffer[..n], &mut on_event) {
            return Err("the body ended before the first event".into());
        }
    }
    Ok((stream, reader))
}

/// What the driver did: for change k (1-based), when its 200 came (µs since origin).
struct DriverReport {
    acked_at_us: Vec<Option<u32>>,
    round_trip: Histogram<u64>,
    errors: BTreeMap<String, u64>,
    elapsed_s: f64,
}

async fn drive(
    api: Api,
    admin: String,
    market_id: i64,
    args_interval_ms: u64,
    duration_s: u64,
    origin: Instant,
) -> DriverReport {
    let mut report = DriverReport {
        acked_at_us: vec![None],
        round_trip: histogram(),
        errors: BTreeMap::new(),
        elapsed_s: 0.0,
    };
    let started = Instant::now();
    let deadline = started + Duration::from_secs(duration_s);
    let mut ticks = tokio::time::interval(Duration::from_millis(args_interval_ms));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for k in 1..=MAX_CHANGES {
        ticks.tick().await;
        if Instant::now() >= deadline {
            break;
        }
        let sent = Instant::now();
        let answer = tokio::time::timeout(
            Duration::from_secs(DRIVER_TIMEOUT_S),
            api.call(
                "admin/market/rates",
                Some(&admin),
                json!({ "market_id": market_id, "line_no": k, "rate_no": 100, "line_yes": k + 1, "rate_yes": 100 }),
            ),
        )
        .await;
        let acked = origin.elapsed().as_micros().min(u32::MAX as u128) as u32;
        report.round_trip.saturating_record((sent.elapsed().as_micros() as u64).max(1));
        match answer {
            Ok(Ok(_)) => report.acked_at_us.push(Some(acked)),
            Ok(Err(err)) => {
                report.acked_at_us.push(None);
                *report
                    .errors
                    .entry(format!("{err:#}").chars().take(160).collect())
                    .or_default() += 1;
            }
            Err(_) => {
                report.acked_at_us.push(None);
                *report.errors.entry("timed out".into()).or_default() += 1;
            }
        }
    }
    report.elapsed_s = started.elapsed().as_secs_f64();
    report
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600 * 1_000_000, 3).expect("valid bounds")
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!(
        (1..=MAX_SUBSCRIBERS).contains(&args.subscribers),
        "--subscribers must be 1 to {MAX_SUBSCRIBERS}"
    );
    ensure!(
        (1..=MAX_DURATION_S).contains(&args.duration_s),
        "--duration-s must be 1 to {MAX_DURATION_S}"
    );
    ensure!((10..=60_000).contains(&args.interval_ms), "--interval-ms must be 10 to 60000");
    ensure!(
        (1..=MAX_CONNECT_PARALLELISM).contains(&args.connect_parallelism),
        "--connect-parallelism must be 1 to {MAX_CONNECT_PARALLELISM}"
    );
    ensure!((1..=3_600).contains(&args.connect_timeout_s), "--connect-timeout-s must be 1 to 3600");
    ensure!(args.drain_ms <= 60_000, "--drain-ms must be at most 60000");
    let (open_files, open_files_hard) = raise_open_files_limit();
    let api = Api::new(&args.base_url)?;
    let (host, port) = host_and_port(&api.base)?;
    let authority =
        if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") };

    // Set-up.
    let admin = api
        .login("admin", "Admin@1234")
        .await
        .context("log-in as the demo admin (is the server running with --demo?)")?;
    let agent = api.login("agent", "Agent@1234").await?;
    let demo = api.login("demo", "Demo@1234").await?;
    let match_id = api.pick_match(&demo, true).await?;
    let created = api
        .call(
            "admin/market/create",
            Some(&admin),
            json!({ "match_id": match_id, "type": "fancy", "name": format!("Bench fan-out {}", run_tag()), "bet_delay_s": 0 }),
        )
        .await?;
    let market_id = created["market_id"].as_i64().context("market_id in the answer")?;
    api.call(
        "admin/market/status",
        Some(&admin),
        json!({ "market_id": market_id, "status": "open" }),
    )
    .await?;
    api.call(
        "admin/market/rates",
        Some(&admin),
        json!({ "market_id": market_id, "line_no": 0, "rate_no": 100, "line_yes": 1, "rate_yes": 100 }),
    )
    .await?;
    eprintln!(
        "stream_fanout: fancy {market_id} on match {match_id}; opening {} streams",
        args.subscribers
    );

    // Subscribers.
    let origin = Instant::now();
    let shared = Arc::new(Shared {
        authority,
        match_id,
        market_id,
        origin,
        connect_deadline: origin + Duration::from_secs(args.connect_timeout_s),
        tickets: Tickets {
            api: api.clone(),
            tokens: vec![demo.clone(), agent.clone(), admin.clone()],
            current: Mutex::new((String::new(), Instant::now(), 0, 0)),
        },
        permits: Semaphore::new(args.connect_parallelism),
        connected: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
    });
    let rss_before = args.server_pid.and_then(rss_kib);
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut subscribers = Vec::with_capacity(args.subscribers);
    for _ in 0..args.subscribers {
        subscribers.push(tokio::spawn(subscribe(Arc::clone(&shared), stop_rx.clone())));
    }
    let mut last_progress = Instant::now();
    while shared.connected.load(Ordering::Relaxed) + shared.failed.load(Ordering::Relaxed)
        < args.subscribers
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if last_progress.elapsed() >= Duration::from_secs(10) {
            eprintln!(
                "stream_fanout: {} connected, {} failed after {:.0} s",
                shared.connected.load(Ordering::Relaxed),
                shared.failed.load(Ordering::Relaxed),
                origin.elapsed().as_secs_f64()
            );
            last_progress = Instant::now();
        }
    }
    let connect_s = origin.elapsed().as_secs_f64();
    let connected = shared.connected.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(SETTLE_MS)).await;
    let rss_connected = args.server_pid.and_then(rss_kib);
    eprintln!(
        "stream_fanout: {connected} connected in {connect_s:.1} s; driving for {} s",
        args.duration_s
    );

    // Load.
    let cpu = CpuMeter::start(args.server_pid.as_slice());
    // The driver runs on its own thread and runtime, so that its clock is not held up while
    // this process's runtime reads a wave of 10,000 events.
    let driver = {
        let (base, admin) = (api.base.clone(), admin.clone());
        let (interval_ms, duration_s) = (args.interval_ms, args.duration_s);
        tokio::task::spawn_blocking(move || -> anyhow::Result<DriverReport> {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let api = Api::new(&base)?;
                Ok(drive(api, admin, market_id, interval_ms, duration_s, origin).await)
            })
        })
        .await??
    };
    tokio::time::sleep(Duration::from_millis(args.drain_ms)).await;
    let rss_end = args.server_pid.and_then(rss_kib);
    let cpu = cpu.describe();
    let client_rss = rss_kib(std::process::id());
    let _ = stop_tx.send(true);
    let mut reports = Vec::with_capacity(subscribers.len());
    for subscriber in subscribers {
        reports.push(subscriber.await?);
    }

    // Delivery latency over every acknowledged change and every connected subscriber.
    let mut latency = histogram();
    let (mut undelivered, mut early) = (0_u64, 0_u64);
    let last_change = driver.acked_at_us.len() - 1;
    for report in reports.iter().filter(|r| r.connected) {
        let mut seen = report.seen.iter();
        // The first line seen is the snapshot's at connection, before the driver started.
        let mut delivered_up_to = seen.next().map_or(0, |(line, _)| *line as usize);
        for &(line, at_us) in seen {
            let line = (line as usize).min(last_change);
            for k in delivered_up_to + 1..=line {
                if let Some(acked) = driver.acked_at_us[k] {
                    if at_us < acked {
                        early += 1;
                    }
                    latency.saturating_record((at_us.saturating_sub(acked) as u64).max(1));
                }
            }
            delivered_up_to = delivered_up_to.max(line);
        }
        undelivered += driver.acked_at_us[(delivered_up_to + 1).min(last_change + 1)..]
            .iter()
            .filter(|a| a.is_some())
            .count() as u64;
    }
    let changes_ok = driver.acked_at_us.iter().filter(|a| a.is_some()).count();
    let connected_reports: Vec<&SubscriberReport> =
        reports.iter().filter(|r| r.connected).collect();
    let stat = |f: &dyn Fn(&SubscriberReport) -> u32| -> String {
        if connected_reports.is_empty() {
            return "n/a".into();
        }
        let values: Vec<u32> = connected_reports.iter().map(|r| f(r)).collect();
        let mean = values.iter().map(|v| *v as f64).sum::<f64>() / values.len() as f64;
        format!(
            "mean {mean:.1} (min {}, max {})",
            values.iter().min().unwrap_or(&0),
            values.iter().max().unwrap_or(&0)
        )
    };
    let lagged: u32 = connected_reports.iter().map(|r| r.snapshots.saturating_sub(1)).sum();
    let mut connect_failures: BTreeMap<String, u64> = BTreeMap::new();
    let mut run_failures: BTreeMap<String, u64> = BTreeMap::new();
    for report in &reports {
        if let Some(failure) = &report.failure {
            let kind = if report.connected { &mut run_failures } else { &mut connect_failures };
            *kind.entry(failure.clone()).or_default() += 1;
        }
    }

    // Report.
    let label = if args.label.is_empty() { String::new() } else { format!("{}: ", args.label) };
    println!(
        "- {label}{connected} of {} subscribers connected to one match's stream in {connect_s:.1} s ({} opening at a time; a minimal HTTP/1.1 client, one TCP connection each; open-files limit {open_files} of {open_files_hard}); client and server share the machine",
        args.subscribers, args.connect_parallelism
    );
    println!(
        "- driver: a fancy's line posted every {} ms for {:.1} s: {} changes answered 200{}; round trip p50 {}, p99 {}, max {}",
        args.interval_ms,
        driver.elapsed_s,
        changes_ok,
        if driver.errors.is_empty() {
            String::new()
        } else {
            format!(
                ", failed: {}",
                driver.errors.iter().map(|(e, n)| format!("{n} × {e}")).collect::<Vec<_>>().join("; ")
            )
        },
        millis(driver.round_trip.value_at_quantile(0.5)),
        millis(driver.round_trip.value_at_quantile(0.99)),
        millis(driver.round_trip.max())
    );
    if latency.is_empty() {
        println!("- **delivery latency: nothing delivered**");
    } else {
        println!(
            "- **delivery latency (driver's 200 → the first event showing the change, every change × every subscriber): p50 {}, p99 {}**, p99.9 {}, max {}; {} deliveries, {} not delivered by the end of the run{}",
            millis(latency.value_at_quantile(0.5)),
            millis(latency.value_at_quantile(0.99)),
            millis(latency.value_at_quantile(0.999)),
            millis(latency.max()),
            latency.len(),
            undelivered,
            if early > 0 { format!(", {early} read before the driver's 200 (counted as 0)") } else { String::new() }
        );
    }
    println!("- CPU while the driver ran: {cpu}");
    println!(
        "- events per subscriber: {}; of them carrying the bench fancy: {}; {} fresh snapshots after falling behind",
        stat(&|r| r.events),
        stat(&|r| r.fancy_events),
        lagged
    );
    let failures = |map: &BTreeMap<String, u64>| -> String {
        if map.is_empty() {
            "none".into()
        } else {
            map.iter().map(|(e, n)| format!("{n} × {e}")).collect::<Vec<_>>().join("; ")
        }
    };
    println!(
        "- connections that failed: {} ({}); ended during the run: {} ({})",
        connect_failures.values().sum::<u64>(),
        failures(&connect_failures),
        run_failures.values().sum::<u64>(),
        failures(&run_failures)
    );
    let per_connection_kb = match (rss_before, rss_connected) {
        (Some(before), Some(after)) if connected > 0 => {
            let per = (after as f64 - before as f64) / connected as f64;
            println!(
                "- **server memory: {per:.1} KB per connection** (VmRSS {} before the first stream, {} with {connected} connected, {} at the end of the run); the client's own VmRSS: {}",
                mib(before),
                mib(after),
                rss_end.map_or("n/a".into(), mib),
                client_rss.map_or("n/a".into(), mib)
            );
            Some(per)
        }
        _ => {
            println!("- server memory: not measured (no --server-pid, or nothing connected)");
            None
        }
    };
    let latency_met = !latency.is_empty()
        && connected == args.subscribers
        && latency.value_at_quantile(0.99) <= args.target_p99_ms * 1_000;
    let memory_met = per_connection_kb.map(|kb| kb <= args.target_kb_per_connection as f64);
    let verdict = |met: bool| if met { "met" } else { "missed" };
    println!(
        "- target: delivery p99 ≤ {} ms and ≤ {} KB per connection: **{}** (latency {}{}, memory {})",
        args.target_p99_ms,
        args.target_kb_per_connection,
        verdict(latency_met && memory_met == Some(true)),
        verdict(latency_met),
        if connected < args.subscribers { ", not every subscriber connected" } else { "" },
        memory_met.map_or("not measured", verdict)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How the events arrive on the wire, across reads, is `sse`'s own test; this one is what
    /// a subscriber makes of each event.
    #[test]
    fn the_report_counts_events_and_each_new_line_of_the_bench_market() {
        let events: [(&[u8], &str); 5] = [
            (b"snapshot", r#"[{"market_id":7,"line_no":3},{"market_id":8,"line_no":1}]"#),
            (b"market", r#"{"market_id":7,"line_no":5}"#),
            (b"market", r#"{"market_id":8,"line_no":9}"#),
            (b"mine", r#"{"market_id":7,"line_no":99}"#),
            (b"market", r#"{"market_id":7,"line_no":4}"#),
        ];
        let mut report = SubscriberReport::default();
        for (name, data) in events {
            report.on_event(name, data.as_bytes(), 7, 1);
        }
        assert_eq!(report.events, 5);
        assert_eq!(report.snapshots, 1);
        assert_eq!(report.fancy_events, 3);
        assert_eq!(report.seen, vec![(3, 1), (5, 1)]);
    }

    #[test]
    fn market_line_reads_only_the_bench_market() {
        assert_eq!(market_line(br#"{"market_id":12,"x":1,"line_no":40,"book":[]}"#, 12), Some(40));
        assert_eq!(market_line(br#"{"market_id":120,"line_no":40}"#, 12), None);
        assert_eq!(market_line(br#"{"book":{"market_id":12,"line_no":41}}"#, 12), Some(41));
    }
}
