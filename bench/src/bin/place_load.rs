//! place_load: placeBet end to end over HTTP against a running Backlay server (demo data on).
//!
//! Set-up, all through the public API: log in as admin, agent and demo; find a demo match
//! (one not in play, so no bet delay could apply); create a fresh match-odds market on it
//! (min stake 1.00, bet delay 0) and open it; create `--users` clients under the agent, fund
//! each, log them in and change their first password. Then `--concurrency` workers place bets
//! in a loop for `--duration-s` seconds (or until `--count` bets were sent): each alternates
//! BACK and LAY at 1.98, 2.00 or 2.02 on one of the two runners, stakes 2.00–20.00, so that
//! some bets match and some rest; every bet has its own `client_ref`. Each request's latency
//! is recorded from send to the end of the answer's body.
//!
//! When the server answers `GET /api/admin/engine/stats` (`{data: {commits, bets}}`), the
//! load starts once the counters have stood still for 6 s (the demo's market maker posts in
//! the background after start-up, waiting out in-play bet delays), the counters are read before and after, and bets per commit is
//! printed; otherwise "n/a". The counters are the whole engine's, so any other bets placed on
//! the server during the run count too.
//!
//! Many markets (issue 31): `--markets N` creates N such markets on the match and each bet goes
//! to one of them at random; `--resting N` first rests N orders spread over them (a BACK at
//! 5.0–9.0 or a LAY at 1.20–1.50, stake 2.00, never reached by the load's prices), so that the
//! books hold what a busy exchange's do. The report gives the seeding's rate as well.
//!
//! Several servers of one cluster (issue 16: nodes on one PostgreSQL) are loaded by giving
//! `--base-url` once per node: the set-up goes through the first, worker w sends its bets to
//! node w mod n (sessions are stored, so a log-in is good on every node), and the engine
//! counters are read on every node and summed. Each node counts only the bets its own engine
//! placed (a bet sent to a node that does not own the market is forwarded to the owner and
//! counted there), so the sum is the cluster's bets per commit; the per-node counts are printed
//! too, showing which node's engine did the work.
//!
//! With several nodes, the load starts once the markets are spread over them (each node's
//! `backlay_markets_running` from `/metrics`, read with the admin's session, differs by at most
//! one; a node gives up one market a tick while it holds more than its share), waiting at most
//! [`MAX_BALANCE_WAIT_S`]. `--rotate-nodes` sends each worker's bets to every node in turn
//! instead and reports each node's latency: run with one market and one worker, the owner
//! answers fastest, and the others' extra is what forwarding a bet costs.
//!
//! Only loopback addresses are accepted, and every loop is bounded in time and count.
//! Prints Markdown lines, which `bench/run.sh` and `bench/cluster.sh` copy into `bench/RESULTS.md`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{ensure, Context};
use backlay_bench::client::{
    check_loopback, in_chunks, millis, run_tag, Api, CpuMeter, SETUP_PARALLELISM,
};
use backlay_bench::per_second;
use clap::Parser;
use hdrhistogram::Histogram;
use reqwest::Client;
use serde_json::{json, Value};

/// Bounds on what the command line may ask for.
const MAX_DURATION_S: u64 = 600;
const MAX_COUNT: u64 = 10_000_000;
const MAX_CONCURRENCY: usize = 1_024;
const MAX_USERS: usize = 200;
const MAX_NODES: usize = 16;
const MAX_MARKETS: usize = 2_000;
const MAX_RESTING: usize = 200_000;
/// One request taking longer than this counts as a transport error.
const REQUEST_TIMEOUT_S: u64 = 30;
/// Chips given to each bench client: far more than its bets can ever reserve.
const FUNDING_PER_USER: u64 = 200_000;
/// The load starts once the engine's counters stood still this long (longer than the demo's
/// in-play bet delay) ...
const QUIET_S: u64 = 6;
/// ... or after this long at most.
const MAX_QUIET_WAIT_S: u64 = 60;
/// How long the load waits for a cluster's markets to spread over its nodes.
const MAX_BALANCE_WAIT_S: u64 = 120;

#[derive(Parser)]
#[command(about = "Load-test placeBet over HTTP against a running Backlay server on this machine")]
struct Args {
    /// The server, e.g. http://127.0.0.1:8080 (loopback only); once per node to load several
    /// nodes of one cluster (set-up goes through the first).
    #[arg(long = "base-url", default_value = "http://127.0.0.1:8080")]
    base_urls: Vec<String>,
    /// How long the workers place bets.
    #[arg(long, default_value_t = 20)]
    duration_s: u64,
    /// Stop after this many bets (sent), if before the duration ends.
    #[arg(long)]
    count: Option<u64>,
    /// Workers placing bets at once (each waits for its answer before the next bet).
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    /// Client accounts the workers share (worker w bets as user w mod users).
    #[arg(long, default_value_t = 16)]
    users: usize,
    /// Markets to spread the bets over (each a fresh match-odds market with two runners).
    #[arg(long, default_value_t = 1)]
    markets: usize,
    /// Orders to rest on those markets before the load, never matched by it.
    #[arg(long, default_value_t = 0)]
    resting: usize,
    /// Each worker sends its bets to every node in turn (not only to node w mod n), and the
    /// report gives each node's latency.
    #[arg(long)]
    rotate_nodes: bool,
    /// The server's process id, to report its CPU during the load and the bets it places per
    /// core; given once per node for a cluster on this machine (their CPU summed).
    #[arg(long)]
    server_pid: Vec<u32>,
    /// A label for the report (e.g. "SQLite").
    #[arg(long, default_value = "")]
    label: String,
    /// Accepted bets per second to meet (issue 3: 2,000 on SQLite, 1,000 on PostgreSQL).
    #[arg(long)]
    target_bets_per_s: Option<u64>,
    /// p99 latency of accepted bets to meet, in milliseconds (issue 3: 50).
    #[arg(long, default_value_t = 50)]
    target_p99_ms: u64,
    /// Bets per commit to meet, when the server counts commits (issue 3: 5).
    #[arg(long, default_value_t = 5)]
    target_bets_per_commit: u64,
}

/// What one worker saw.
struct WorkerReport {
    ok_latency_us: Histogram<u64>,
    /// Accepted bets' latency per node (index into the nodes).
    per_node_us: Vec<Histogram<u64>>,
    error_latency_us: Histogram<u64>,
    /// Status code (0: no answer) → (count, first message).
    errors: BTreeMap<u16, (u64, String)>,
    /// "matched", "partially_matched", "unmatched" → count.
    outcomes: BTreeMap<String, u64>,
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
        args.count.is_none_or(|c| (1..=MAX_COUNT).contains(&c)),
        "--count must be 1 to {MAX_COUNT}"
    );
    ensure!(
        (1..=MAX_CONCURRENCY).contains(&args.concurrency),
        "--concurrency must be 1 to {MAX_CONCURRENCY}"
    );
    ensure!((1..=MAX_USERS).contains(&args.users), "--users must be 1 to {MAX_USERS}");
    ensure!((1..=MAX_MARKETS).contains(&args.markets), "--markets must be 1 to {MAX_MARKETS}");
    ensure!(args.resting <= MAX_RESTING, "--resting must be at most {MAX_RESTING}");
    ensure!(
        (1..=MAX_NODES).contains(&args.base_urls.len()),
        "--base-url must be given 1 to {MAX_NODES} times"
    );
    let http = Client::builder()
        .timeout(Duration::from_secs(REQUEST_TIMEOUT_S))
        .pool_max_idle_per_host(args.concurrency + SETUP_PARALLELISM)
        .tcp_nodelay(true)
        .build()?;
    let mut nodes = Vec::with_capacity(args.base_urls.len());
    for base_url in &args.base_urls {
        let base = base_url.trim_end_matches('/').to_string();
        check_loopback(&base)?;
        nodes.push(Api { http: http.clone(), base });
    }
    let api = nodes[0].clone();

    // Set-up.
    let admin = api
        .login("admin", "Admin@1234")
        .await
        .context("log-in as the demo admin (is the server running with --demo?)")?;
    let agent = api.login("agent", "Agent@1234").await?;
    let demo = api.login("demo", "Demo@1234").await?;
    let match_id = api.pick_match(&demo, false).await?;
    let tag = run_tag();
    let setup_started = Instant::now();
    let markets = create_markets(&api, &admin, match_id, &tag, args.markets).await?;
    let stats_at_setup = cluster_stats(&nodes, &admin).await?;
    let tokens = api.make_clients(&agent, &tag, args.users, FUNDING_PER_USER).await?;
    eprintln!(
        "place_load: {} market(s) on match {match_id}; {} clients ready in {:.1} s",
        markets.len(),
        tokens.len(),
        setup_started.elapsed().as_secs_f64()
    );
    let seeding = if args.resting > 0 {
        let seeded = rest_orders(&api, &tokens, &markets, args.resting, &tag).await?;
        eprintln!("place_load: {seeded}");
        Some(seeded)
    } else {
        None
    };
    let markets = Arc::new(markets);

    // The demo's market maker posts its liquidity in the background, waiting out the in-play
    // bet delay (5 s); let it finish, so that its bets neither compete nor count.
    let quiet_started = Instant::now();
    let (mut stats_before, mut last_change) = (stats_at_setup, setup_started);
    while stats_before.is_some()
        && last_change.elapsed() < Duration::from_secs(QUIET_S)
        && quiet_started.elapsed() < Duration::from_secs(MAX_QUIET_WAIT_S)
    {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = cluster_stats(&nodes, &admin).await?;
        if now != stats_before {
            (stats_before, last_change) = (now, Instant::now());
        }
    }

    let balance = if nodes.len() > 1 { wait_for_balance(&nodes, &admin).await? } else { None };

    // Load.
    let sent = Arc::new(AtomicU64::new(0));
    let cpu = CpuMeter::start(&args.server_pid);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.duration_s);
    let mut workers = Vec::with_capacity(args.concurrency);
    for worker in 0..args.concurrency {
        let nodes = if args.rotate_nodes {
            nodes.clone()
        } else {
            vec![nodes[worker % nodes.len()].clone()]
        };
        let token = tokens[worker % tokens.len()].clone();
        let sent = Arc::clone(&sent);
        let (count, tag, markets) = (args.count, tag.clone(), Arc::clone(&markets));
        workers.push(tokio::spawn(async move {
            run_worker(&nodes, &token, &markets, worker, &tag, deadline, count, &sent).await
        }));
    }
    let mut reports = Vec::with_capacity(workers.len());
    for worker in workers {
        reports.push(worker.await?);
    }
    let elapsed_s = started.elapsed().as_secs_f64();
    let (cpu_text, server_cores) = (cpu.describe(), cpu.server_cores());
    let stats_after = cluster_stats(&nodes, &admin).await?;

    // Report.
    let mut ok = histogram();
    let mut per_node: Vec<Histogram<u64>> = nodes.iter().map(|_| histogram()).collect();
    let mut failed = histogram();
    let mut errors: BTreeMap<u16, (u64, String)> = BTreeMap::new();
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    for report in reports {
        ok.add(&report.ok_latency_us)?;
        if args.rotate_nodes {
            for (total, node) in per_node.iter_mut().zip(&report.per_node_us) {
                total.add(node)?;
            }
        }
        failed.add(&report.error_latency_us)?;
        for (status, (count, message)) in report.errors {
            let entry = errors.entry(status).or_insert((0, message));
            entry.0 += count;
        }
        for (outcome, count) in report.outcomes {
            *outcomes.entry(outcome).or_default() += count;
        }
    }
    let label = if args.label.is_empty() { String::new() } else { format!("{}: ", args.label) };
    let spread = if nodes.len() > 1 {
        format!(" spread over {} nodes (worker w on node w mod {})", nodes.len(), nodes.len())
    } else {
        String::new()
    };
    let on = if markets.len() == 1 {
        "one match-odds market (2 runners)".to_string()
    } else {
        format!("{} match-odds markets (2 runners each), each bet on one at random", markets.len())
    };
    println!(
        "- {label}{} workers over {} clients{spread}, {:.1} s, {on}, BACK/LAY at 1.98–2.02",
        args.concurrency,
        tokens.len(),
        elapsed_s
    );
    if let Some(seeded) = &seeding {
        println!("- before the load: {seeded}");
    }
    if let Some(balance) = &balance {
        println!("- markets running on each node at the start: {balance}");
    }
    println!(
        "- **accepted bets/s: {}** ({} bets answered 200; {} requests refused or failed)",
        per_second(ok.len() as f64 / elapsed_s),
        ok.len(),
        failed.len()
    );
    if !ok.is_empty() {
        println!(
            "- **latency of accepted bets: p50 {}, p95 {}, p99 {}**, p99.9 {}, max {}",
            millis(ok.value_at_quantile(0.50)),
            millis(ok.value_at_quantile(0.95)),
            millis(ok.value_at_quantile(0.99)),
            millis(ok.value_at_quantile(0.999)),
            millis(ok.max())
        );
    }
    if !args.server_pid.is_empty() {
        let per_core = server_cores
            .filter(|c| *c > 0.0)
            .map_or("n/a".to_string(), |cores| per_second(ok.len() as f64 / elapsed_s / cores));
        println!("- CPU during the load: {cpu_text}; **bets per server core-second: {per_core}** (the database's own CPU, on PostgreSQL, not counted)");
    }
    if args.rotate_nodes && nodes.len() > 1 {
        print_forwarding(&nodes, &per_node);
    }
    let outcome_text: Vec<String> =
        outcomes.iter().map(|(outcome, count)| format!("{outcome} {count}")).collect();
    println!(
        "- answers: {}",
        if outcome_text.is_empty() { "none".to_string() } else { outcome_text.join(", ") }
    );
    if errors.is_empty() {
        println!("- errors: none");
    } else {
        println!(
            "- errors by status (latency p50 {}, max {}):",
            millis(failed.value_at_quantile(0.5)),
            millis(failed.max())
        );
        for (status, (count, message)) in &errors {
            let status = if *status == 0 { "no answer".to_string() } else { status.to_string() };
            println!("  - {status}: {count} (first: {message})");
        }
    }
    let bets_per_commit = match (stats_before.as_deref().map(sum), stats_after.as_deref().map(sum))
    {
        (Some((commits_before, bets_before)), Some((commits_after, bets_after))) => {
            let commits = commits_after.saturating_sub(commits_before);
            let bets = bets_after.saturating_sub(bets_before);
            let ratio = (commits > 0).then(|| bets as f64 / commits as f64);
            let text =
                ratio.map_or_else(|| "n/a (no commits counted)".to_string(), |r| format!("{r:.2}"));
            let others = bets.saturating_sub(ok.len());
            let others = if others > 0 {
                format!("; {others} of them not from this load")
            } else {
                String::new()
            };
            let nodes_summed = if nodes.len() > 1 { ", summed over the nodes" } else { "" };
            println!("- **bets per commit: {text}** ({bets} bets in {commits} commits, from /api/admin/engine/stats{nodes_summed}{others})");
            if let (true, Some(before), Some(after)) =
                (nodes.len() > 1, &stats_before, &stats_after)
            {
                let per_node: Vec<String> = nodes
                    .iter()
                    .zip(before.iter().zip(after))
                    .map(|(node, ((commits_before, bets_before), (commits_after, bets_after)))| {
                        format!(
                            "{}: {} bets in {} commits",
                            node.base,
                            bets_after.saturating_sub(*bets_before),
                            commits_after.saturating_sub(*commits_before)
                        )
                    })
                    .collect();
                println!("- placed by each node's engine: {}", per_node.join("; "));
            }
            ratio
        }
        _ => {
            println!("- bets per commit: n/a (the server has no /api/admin/engine/stats)");
            None
        }
    };
    if let Some(target_bets_per_s) = args.target_bets_per_s {
        let bets_per_s = ok.len() as f64 / elapsed_s;
        let p99_ms = ok.value_at_quantile(0.99) as f64 / 1_000.0;
        let verdict = |met: bool| if met { "met" } else { "missed" };
        println!(
            "- target: ≥ {} bets/s: **{}**; p99 ≤ {} ms: **{}**; ≥ {} bets per commit: **{}**",
            per_second(target_bets_per_s as f64),
            verdict(bets_per_s >= target_bets_per_s as f64),
            args.target_p99_ms,
            verdict(!ok.is_empty() && p99_ms <= args.target_p99_ms as f64),
            args.target_bets_per_commit,
            bets_per_commit
                .map_or("not measured", |r| verdict(r >= args.target_bets_per_commit as f64)),
        );
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn run_worker(
    nodes: &[Api],
    token: &str,
    markets: &[BenchMarket],
    worker: usize,
    tag: &str,
    deadline: Instant,
    count: Option<u64>,
    sent: &AtomicU64,
) -> WorkerReport {
    const PRICES: [&str; 3] = ["1.98", "2.00", "2.02"];
    let mut report = WorkerReport {
        ok_latency_us: histogram(),
        per_node_us: nodes.iter().map(|_| histogram()).collect(),
        error_latency_us: histogram(),
        errors: BTreeMap::new(),
        outcomes: BTreeMap::new(),
    };
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(worker as u64 + 1) | 1;
    let mut next_random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let urls: Vec<String> =
        nodes.iter().map(|node| format!("{}/api/bet/placeBet", node.base)).collect();
    for k in 0_u64.. {
        let node = (k as usize + worker) % nodes.len();
        if Instant::now() >= deadline
            || count.is_some_and(|limit| sent.fetch_add(1, Ordering::Relaxed) >= limit)
        {
            break;
        }
        let side = if (k + worker as u64) % 2 == 0 { "back" } else { "lay" };
        // One market: each worker keeps to one runner (half the workers on each), as before
        // there were many.
        let (market_id, runner) = if markets.len() == 1 {
            (markets[0].market_id, markets[0].runners[worker % 2])
        } else {
            let market = &markets[(next_random() % markets.len() as u64) as usize];
            (market.market_id, market.runners[(next_random() % 2) as usize])
        };
        let body = json!({
            "market_id": market_id,
            "selection_id": runner,
            "side": side,
            "price": PRICES[(next_random() % 3) as usize],
            "stake": format!("{}.00", 2 + next_random() % 19),
            "persistence": "lapse",
            "client_ref": format!("{tag}-{worker}-{k}"),
        });
        let started = Instant::now();
        let answer = nodes[node].http.post(&urls[node]).bearer_auth(token).json(&body).send().await;
        let (status, text) = match answer {
            Ok(response) => {
                let status = response.status();
                match response.text().await {
                    Ok(text) => (status.as_u16(), text),
                    Err(err) => (0, format!("reading the answer: {err}")),
                }
            }
            Err(err) => (0, err.to_string()),
        };
        let micros = (started.elapsed().as_micros() as u64).max(1);
        if status == 200 {
            report.ok_latency_us.saturating_record(micros);
            report.per_node_us[node].saturating_record(micros);
            let outcome = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v["data"]["status"].as_str().map(str::to_string))
                .unwrap_or_else(|| "(unreadable)".into());
            *report.outcomes.entry(outcome).or_default() += 1;
        } else {
            report.error_latency_us.saturating_record(micros);
            let message = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v["message"].as_str().map(str::to_string))
                .unwrap_or_else(|| text.chars().take(200).collect());
            report.errors.entry(status).or_insert((0, message)).0 += 1;
        }
    }
    report
}

/// Every node's (commits, bets), in the order of `nodes`, or `None` when one has no counters.
async fn cluster_stats(nodes: &[Api], admin: &str) -> anyhow::Result<Option<Vec<(u64, u64)>>> {
    let mut all = Vec::with_capacity(nodes.len());
    for node in nodes {
        match engine_stats(node, admin).await? {
            Some(stats) => all.push(stats),
            None => return Ok(None),
        }
    }
    Ok(Some(all))
}

/// Waits until the nodes run numbers of markets at most one apart (read from each node's
/// `/metrics`), for at most [`MAX_BALANCE_WAIT_S`]; answers how they stood.
async fn wait_for_balance(nodes: &[Api], admin: &str) -> anyhow::Result<Option<String>> {
    let started = Instant::now();
    loop {
        let mut running = Vec::with_capacity(nodes.len());
        for node in nodes {
            let text = node
                .http
                .get(format!("{}/metrics", node.base))
                .bearer_auth(admin)
                .send()
                .await?
                .text()
                .await?;
            let count = text.lines().find_map(|line| {
                line.strip_prefix("backlay_markets_running ").and_then(|v| v.trim().parse().ok())
            });
            let Some(count) = count else { return Ok(None) }; // a server without metrics
            running.push(count);
        }
        let (least, most): (u64, u64) =
            (*running.iter().min().unwrap_or(&0), *running.iter().max().unwrap_or(&0));
        let waited = started.elapsed();
        if most - least <= 1 || waited >= Duration::from_secs(MAX_BALANCE_WAIT_S) {
            let counts: Vec<String> = running.iter().map(u64::to_string).collect();
            let verdict = if most - least <= 1 { "spread" } else { "NOT spread" };
            return Ok(Some(format!(
                "{} ({verdict} after {:.1} s)",
                counts.join(" / "),
                waited.as_secs_f64()
            )));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Each node's latency, and what forwarding adds: the fastest node is taken to own the market
/// (one market, one worker), the median of the others' p50 less its p50 is the extra.
fn print_forwarding(nodes: &[Api], per_node: &[Histogram<u64>]) {
    let mut p50s = Vec::with_capacity(nodes.len());
    for (node, latency) in nodes.iter().zip(per_node) {
        if latency.is_empty() {
            continue;
        }
        println!(
            "- via {}: {} bets, p50 {}, p99 {}",
            node.base,
            latency.len(),
            millis(latency.value_at_quantile(0.5)),
            millis(latency.value_at_quantile(0.99))
        );
        p50s.push(latency.value_at_quantile(0.5));
    }
    p50s.sort_unstable();
    if p50s.len() >= 2 {
        let others = &p50s[1..];
        let extra = others[others.len() / 2].saturating_sub(p50s[0]);
        println!(
            "- **forwarding adds p50 {}** (the others' median p50 less the fastest node's, taken as the owner)",
            millis(extra)
        );
    }
}

/// A market the load bets on.
struct BenchMarket {
    market_id: i64,
    runners: [i64; 2],
}

/// Creates and opens `count` match-odds markets (min stake 1.00, no bet delay) on the match.
async fn create_markets(
    api: &Api,
    admin: &str,
    match_id: i64,
    tag: &str,
    count: usize,
) -> anyhow::Result<Vec<BenchMarket>> {
    let create = |index: usize| async move {
        let created = api
            .call(
                "admin/market/create",
                Some(admin),
                json!({ "match_id": match_id, "type": "match_odds", "name": format!("Bench {tag} #{index}"),
                        "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }),
            )
            .await?;
        let market_id = created["market_id"].as_i64().context("market_id in the answer")?;
        let runners: Vec<i64> = created["selection_ids"]
            .as_array()
            .context("selection_ids")?
            .iter()
            .filter_map(Value::as_i64)
            .collect();
        let runners: [i64; 2] =
            runners.try_into().map_err(|r| anyhow::anyhow!("expected two runners, got {r:?}"))?;
        api.call(
            "admin/market/status",
            Some(admin),
            json!({ "market_id": market_id, "status": "open" }),
        )
        .await?;
        anyhow::Ok(BenchMarket { market_id, runners })
    };
    in_chunks(count, SETUP_PARALLELISM, create).await
}

/// Rests `count` orders over the markets, round robin (BACKs at 5.0–9.0 and LAYs at 1.20–1.50,
/// stake 2.00: the load's 1.98–2.02 never reaches them), 64 at a time; answers what it did.
async fn rest_orders(
    api: &Api,
    tokens: &[String],
    markets: &[BenchMarket],
    count: usize,
    tag: &str,
) -> anyhow::Result<String> {
    const IN_FLIGHT: usize = 64;
    const BACK_PRICES: [&str; 5] = ["5.0", "6.0", "7.0", "8.0", "9.0"];
    const LAY_PRICES: [&str; 4] = ["1.2", "1.3", "1.4", "1.5"];
    let started = Instant::now();
    let place = |index: usize| async move {
        let market = &markets[index % markets.len()];
        let round = index / markets.len();
        let (side, price) = if round % 2 == 0 {
            ("back", BACK_PRICES[(round / 2) % BACK_PRICES.len()])
        } else {
            ("lay", LAY_PRICES[(round / 2) % LAY_PRICES.len()])
        };
        let placed = api
            .call(
                "bet/placeBet",
                Some(&tokens[index % tokens.len()]),
                json!({ "market_id": market.market_id, "selection_id": market.runners[round % 2],
                        "side": side, "price": price, "stake": "2.00", "persistence": "persist",
                        "client_ref": format!("{tag}-rest-{index}") }),
            )
            .await?;
        ensure!(placed["status"] == "unmatched", "a resting order matched: {placed}");
        anyhow::Ok(())
    };
    in_chunks(count, IN_FLIGHT, place).await?;
    let took = started.elapsed().as_secs_f64();
    Ok(format!(
        "{count} orders rested over {} markets in {took:.1} s ({} bets/s, {IN_FLIGHT} in flight)",
        markets.len(),
        per_second(count as f64 / took)
    ))
}

/// The cluster's (commits, bets): the sum of its nodes' counters.
fn sum(per_node: &[(u64, u64)]) -> (u64, u64) {
    per_node.iter().fold((0, 0), |(commits, bets), (c, b)| (commits + c, bets + b))
}

/// (commits, bets) from one node's engine counters, or `None` when the server has none.
async fn engine_stats(api: &Api, admin: &str) -> anyhow::Result<Option<(u64, u64)>> {
    let (status, envelope) = api.get("admin/engine/stats", Some(admin)).await?;
    if status != 200 {
        return Ok(None);
    }
    let data = &envelope["data"];
    Ok(data["commits"].as_u64().zip(data["bets"].as_u64()))
}
