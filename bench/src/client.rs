//! What the HTTP load tools share: set-up through the public JSON API with `reqwest` (log in,
//! create and log in bench clients, pick a demo match), a check that the server is on this
//! machine, and small formatting and OS helpers.
//!
//! `place_load`, `poll_load` and `stream_fanout` all use these.

use std::net::IpAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, ensure, Context};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

/// One set-up request taking longer than this is an error.
pub const SETUP_TIMEOUT_S: u64 = 30;
/// Set-up calls in flight at once (each log-in and password change hashes with argon2).
pub const SETUP_PARALLELISM: usize = 4;
/// The bench clients' first password, changed at once to [`BENCH_PASSWORD`].
const FIRST_PASSWORD: &str = "First@123";
const BENCH_PASSWORD: &str = "Bench@1234";

/// The JSON API of one server.
#[derive(Clone)]
pub struct Api {
    pub http: Client,
    pub base: String,
}

impl Api {
    /// A client for set-up calls against `base_url` (loopback only).
    pub fn new(base_url: &str) -> anyhow::Result<Api> {
        let base = base_url.trim_end_matches('/').to_string();
        check_loopback(&base)?;
        let http = Client::builder()
            .timeout(Duration::from_secs(SETUP_TIMEOUT_S))
            .pool_max_idle_per_host(SETUP_PARALLELISM * 2)
            .tcp_nodelay(true)
            .build()?;
        Ok(Api { http, base })
    }

    /// POSTs `body` and answers the envelope's `data`; any status but 200 is an error.
    pub async fn call(
        &self,
        path: &str,
        token: Option<&str>,
        body: Value,
    ) -> anyhow::Result<Value> {
        let mut request = self.http.post(format!("{}/api/{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.with_context(|| format!("POST /api/{path}"))?;
        let status = response.status();
        let envelope: Value =
            response.json().await.with_context(|| format!("reading the answer of /api/{path}"))?;
        if status != StatusCode::OK {
            bail!("POST /api/{path} answered {status}: {}", envelope["message"]);
        }
        Ok(envelope["data"].clone())
    }

    /// GETs `path` (under /api) and answers the status and the whole envelope.
    pub async fn get(&self, path: &str, token: Option<&str>) -> anyhow::Result<(u16, Value)> {
        let mut request = self.http.get(format!("{}/api/{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.with_context(|| format!("GET /api/{path}"))?;
        let status = response.status().as_u16();
        let envelope: Value = response.json().await.unwrap_or(Value::Null);
        Ok((status, envelope))
    }

    pub async fn login(&self, user_name: &str, password: &str) -> anyhow::Result<String> {
        let data = self
            .call("user/login", None, json!({ "user_name": user_name, "password": password }))
            .await?;
        Ok(data["token"].as_str().context("token in the log-in answer")?.to_string())
    }

    /// A demo match, cricket first: one in play when `in_play` is true (else any), one not in
    /// play when false (else any).
    pub async fn pick_match(&self, token: &str, in_play: bool) -> anyhow::Result<i64> {
        let cricket = self.call("match/getMatches", Some(token), json!({ "sport_id": 4 })).await?;
        let all = self.call("match/getMatches", Some(token), json!({})).await?;
        let matches: Vec<&Value> =
            cricket.as_array().into_iter().chain(all.as_array()).flatten().collect();
        let chosen = matches
            .iter()
            .find(|m| m["in_play"] == in_play)
            .or_else(|| matches.first())
            .context("the server has no matches: start it with --demo")?;
        chosen["match_id"].as_i64().context("match_id")
    }

    /// Creates `users` clients under the agent, gives each `funding` chips and logs them in
    /// (each changes its first password, as a real first log-in does); answers their tokens.
    pub async fn make_clients(
        &self,
        agent: &str,
        tag: &str,
        users: usize,
        funding: u64,
    ) -> anyhow::Result<Vec<String>> {
        in_chunks(users, SETUP_PARALLELISM, |index| self.make_client(agent, tag, index, funding))
            .await
    }

    async fn make_client(
        &self,
        agent: &str,
        tag: &str,
        index: usize,
        funding: u64,
    ) -> anyhow::Result<String> {
        let user_name = format!("b{tag}u{index}");
        let created = self
            .call(
                "admin/user/create",
                Some(agent),
                json!({ "user_name": user_name, "password": FIRST_PASSWORD, "role": "client" }),
            )
            .await?;
        let user_id = created["user_id"].as_i64().context("user_id")?;
        self.call(
            "admin/user/transfer",
            Some(agent),
            json!({ "user_id": user_id, "amount": funding, "direction": "deposit", "remark": "bench" }),
        )
        .await?;
        let token = self.login(&user_name, FIRST_PASSWORD).await?;
        self.call(
            "user/changePassword",
            Some(&token),
            json!({ "master_password": FIRST_PASSWORD, "new_password": BENCH_PASSWORD, "confirm_password": BENCH_PASSWORD }),
        )
        .await?;
        Ok(token)
    }
}

/// `make(0)`, …, `make(count - 1)`, `at_once` at a time (each chunk awaited whole before the
/// next), their answers in order; the first error stops it.
pub async fn in_chunks<T, Fut>(
    count: usize,
    at_once: usize,
    make: impl Fn(usize) -> Fut,
) -> anyhow::Result<Vec<T>>
where
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let mut answers = Vec::with_capacity(count);
    for chunk_start in (0..count).step_by(at_once.max(1)) {
        let chunk = (chunk_start..count.min(chunk_start + at_once)).map(&make);
        for answer in futures::future::join_all(chunk).await {
            answers.push(answer?);
        }
    }
    Ok(answers)
}

/// Refuses anything but a loopback server: these tools send load.
pub fn check_loopback(base: &str) -> anyhow::Result<()> {
    let (host, _) = host_and_port(base)?;
    let loopback = host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    ensure!(
        loopback,
        "--base-url must be a loopback address (127.0.0.0/8, localhost or [::1]), not {host:?}"
    );
    Ok(())
}

/// `http://127.0.0.1:8080/…` → ("127.0.0.1", 8080); the port defaults to 80.
pub fn host_and_port(base: &str) -> anyhow::Result<(String, u16)> {
    let rest = base.strip_prefix("http://").context("--base-url must start with http://")?;
    let authority = rest.split('/').next().unwrap_or_default();
    let (host, port) = if let Some(bracketed) = authority.strip_prefix('[') {
        let (host, after) = bracketed.split_once(']').context("an unclosed [ in --base-url")?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(port) => port.parse().with_context(|| format!("the port in {base:?}"))?,
        None => 80,
    };
    Ok((host.to_string(), port))
}

/// A short tag unique per run, for market and user names.
pub fn run_tag() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{:x}", (nanos / 1_000_000) as u64 & 0xFFFF_FFFF)
}

/// `1234` µs → `1.23 ms`.
pub fn millis(micros: u64) -> String {
    format!("{:.2} ms", micros as f64 / 1_000.0)
}

/// Raises this process's open-files limit to its hard limit; answers (soft, hard) after.
pub fn raise_open_files_limit() -> (u64, u64) {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return (0, 0);
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
    (limit.rlim_cur as u64, limit.rlim_max as u64)
}

/// A process's resident memory (VmRSS in /proc/PID/status), in KiB; `None` when unreadable.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// CPU time (user + system) a process has used so far, in seconds, from /proc/PID/stat;
/// `None` when unreadable.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After "pid (comm) ": state is field 3, utime field 14, stime field 15.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    seconds_of_ticks(ticks)
}

/// Clock ticks (the unit of /proc's CPU times) in seconds.
fn seconds_of_ticks(ticks: f64) -> Option<f64> {
    // SAFETY: sysconf only reads a configuration value.
    let ticks_per_s = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (ticks_per_s > 0).then(|| ticks / ticks_per_s as f64)
}

/// CPU seconds the whole machine has been busy (all cores, every process, the kernel) since it
/// started, from the first line of /proc/stat; `None` when unreadable.
pub fn machine_busy_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let fields: Vec<f64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal …: busy is all but idle and iowait.
    let busy: f64 =
        fields.iter().take(8).enumerate().filter(|(i, _)| *i != 3 && *i != 4).map(|(_, v)| v).sum();
    seconds_of_ticks(busy)
}

/// The CPU seconds of every process of `pids` summed; `None` when there are none or one cannot
/// be read.
fn servers_cpu_seconds(pids: &[u32]) -> Option<f64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|pid| cpu_seconds(*pid)).sum()
}

/// CPU used by the servers (when given) and by this process between two readings.
#[derive(Clone)]
pub struct CpuMeter {
    /// The servers measured together (the nodes of a cluster on this machine, or one server).
    server_pids: Vec<u32>,
    server: Option<f64>,
    client: Option<f64>,
    machine: Option<f64>,
    at: std::time::Instant,
}

impl CpuMeter {
    pub fn start(server_pids: &[u32]) -> CpuMeter {
        CpuMeter {
            server_pids: server_pids.to_vec(),
            server: servers_cpu_seconds(server_pids),
            client: cpu_seconds(std::process::id()),
            machine: machine_busy_seconds(),
            at: std::time::Instant::now(),
        }
    }

    /// The servers' CPU since `start`, in cores (CPU seconds per second), summed.
    pub fn server_cores(&self) -> Option<f64> {
        let elapsed = self.at.elapsed().as_secs_f64().max(1e-3);
        Some((servers_cpu_seconds(&self.server_pids)? - self.server?) / elapsed)
    }

    /// "server 1.62 cores, this client 0.31 cores, the rest of the machine (the database, …)
    /// 0.05 cores (of 2)" since `start`.
    pub fn describe(&self) -> String {
        let elapsed = self.at.elapsed().as_secs_f64().max(1e-3);
        let cores = |before: Option<f64>, after: Option<f64>| -> String {
            match (before, after) {
                (Some(before), Some(after)) => format!("{:.2} cores", (after - before) / elapsed),
                _ => "n/a".to_string(),
            }
        };
        let servers = match self.server_pids.len() {
            1 => "server".to_string(),
            n => format!("{n} servers"),
        };
        let server_now = servers_cpu_seconds(&self.server_pids);
        let client_now = cpu_seconds(std::process::id());
        // What the servers and this client did not use of what the machine did: the database
        // on the same machine, and whatever else runs there.
        let rest = match (self.machine, machine_busy_seconds(), self.server, server_now) {
            (Some(m0), Some(m1), Some(s0), Some(s1)) => {
                let client = client_now.zip(self.client).map_or(0.0, |(c1, c0)| c1 - c0);
                format!(
                    ", the rest of the machine (the database, …) {:.2} cores",
                    ((m1 - m0) - (s1 - s0) - client).max(0.0) / elapsed
                )
            }
            _ => String::new(),
        };
        format!(
            "{servers} {}, this client {}{rest} (of {})",
            cores(self.server, server_now),
            cores(self.client, client_now),
            std::thread::available_parallelism().map_or(0, |n| n.get())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_and_port_reads_the_base_url() {
        assert_eq!(host_and_port("http://127.0.0.1:8080").unwrap(), ("127.0.0.1".into(), 8080));
        assert_eq!(host_and_port("http://localhost/x").unwrap(), ("localhost".into(), 80));
        assert_eq!(host_and_port("http://[::1]:9/").unwrap(), ("::1".into(), 9));
        assert!(check_loopback("http://10.0.0.1:80").is_err());
        assert!(check_loopback("http://127.0.0.2:80").is_ok());
    }

    #[test]
    fn rss_and_cpu_of_this_process_are_read() {
        assert!(rss_kib(std::process::id()).is_some_and(|kib| kib > 0));
        assert!(cpu_seconds(std::process::id()).is_some_and(|s| s >= 0.0));
        // The machine's busy time grows while this test spins.
        let before = machine_busy_seconds().expect("/proc/stat is read");
        let spin = std::time::Instant::now();
        while spin.elapsed() < std::time::Duration::from_millis(100) {
            std::hint::black_box(0);
        }
        let after = machine_busy_seconds().expect("/proc/stat is read");
        assert!(after > before, "{before} then {after}");
    }
}
