//! Log-in storms against the real `backlay` binary (issue 11, findings 1 and 2): the server's
//! memory, read from `/proc/<pid>/status`, stays flat while 200 log-ins arrive at once, because
//! at most one argon2 hash (19 MiB) per core runs and a bounded few wait; and a burst from one
//! address gets no more password checks than the address's limit.
//!
//! Each test starts its own server on a fresh SQLite file, behind a pretend proxy
//! (`--trust-forwarded-for`), so that each log-in can come from an address of its own, and stops
//! it by its pid when done.

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "support/printed_address.rs"]
mod printed_address;

/// A `backlay serve` child process, killed on drop.
struct Server {
    child: Child,
    base: String,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start() -> Server {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_backlay"))
            .args(["serve", "--addr", "127.0.0.1:0", "--demo", "--no-demo-feed", "--no-casino"])
            .args(["--web-dir", "/nonexistent", "--trust-forwarded-for"])
            .env("DATABASE_URL", format!("sqlite://{}", dir.path().join("storm.db").display()))
            .env("BACKLAY_LOG", "error")
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let address = printed_address::watch(&mut child);
        let addr = match printed_address::wait(&mut child, &address, Duration::from_secs(60)) {
            Ok(addr) => addr,
            Err(why) => {
                let _ = child.kill();
                panic!("{why}");
            }
        };
        Server { child, base: format!("http://{addr}/api"), _dir: dir }
    }

    async fn wait_healthy(&self, client: &reqwest::Client) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(answer) = client.get(format!("{}/health", self.base)).send().await {
                if answer.status().is_success() {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the server did not become healthy in 60 s");
    }

    /// A `VmRSS` / `VmHWM` line of the server's `/proc/<pid>/status`, in KiB.
    fn memory_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server is running");
        let line = status
            .lines()
            .find(|l| l.starts_with(field))
            .unwrap_or_else(|| panic!("no {field} in /proc/<pid>/status"));
        line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a number of kB")
    }
}

/// A log-in from `address` (as the proxy saw it): status, `Retry-After` seconds, body.
async fn log_in(
    client: &reqwest::Client,
    base: &str,
    user_name: &str,
    password: &str,
    address: &str,
) -> (u16, Option<u64>, Value) {
    let answer = client
        .post(format!("{base}/user/login"))
        .header("x-forwarded-for", address)
        .json(&json!({ "user_name": user_name, "password": password }))
        .send()
        .await
        .expect("the server answers");
    let status = answer.status().as_u16();
    let retry_after = answer
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    (status, retry_after, answer.json().await.expect("a JSON envelope"))
}

async fn admin_token(client: &reqwest::Client, base: &str) -> String {
    let (status, _, body) = log_in(client, base, "admin", "Admin@1234", "192.0.2.1").await;
    assert_eq!(status, 200, "{body}");
    body["data"]["token"].as_str().unwrap().to_string()
}

fn mib(kib: u64) -> u64 {
    kib / 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_stays_flat_under_200_log_ins_at_once() {
    let server = Server::start();
    let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    server.wait_healthy(&client).await;

    // 40 clients, each logging in five times at once (the most one name may have in flight),
    // each log-in from an address of its own: 200 right passwords, all let in by the throttle.
    let admin = admin_token(&client, &server.base).await;
    for i in 0..40 {
        let created = client
            .post(format!("{}/admin/user/create", server.base))
            .bearer_auth(&admin)
            .json(&json!({ "user_name": format!("storm{i}"), "password": "Storm@1234", "role": "client" }))
            .send()
            .await
            .unwrap();
        assert_eq!(created.status().as_u16(), 200, "{}", created.text().await.unwrap());
    }

    let before_kib = server.memory_kib("VmRSS:");
    let started = Instant::now();
    let mut storm = tokio::task::JoinSet::new();
    for i in 0..200 {
        let (client, base) = (client.clone(), server.base.clone());
        storm.spawn(async move {
            let (user_name, address) =
                (format!("storm{}", i % 40), format!("198.51.{}.{}", i / 200, i % 200 + 1));
            // A client told the server is busy comes back when Retry-After says; bounded.
            let mut busy = 0;
            for _ in 0..200 {
                let (status, retry_after, body) =
                    log_in(&client, &base, &user_name, "Storm@1234", &address).await;
                match status {
                    200 => return (busy, started.elapsed()),
                    503 | 429 => {
                        busy += 1;
                        let wait_s = retry_after
                            .unwrap_or_else(|| panic!("{status} without Retry-After: {body}"));
                        assert!(wait_s <= 2, "a busy server asks for a short wait: {wait_s} s");
                        tokio::time::sleep(Duration::from_secs(wait_s)).await;
                    }
                    _ => panic!("log-in {i}: {status} {body}"),
                }
            }
            panic!("log-in {i} was refused 200 times");
        });
    }
    let mut refusals = 0;
    let mut slowest = Duration::ZERO;
    while let Some(done) = storm.join_next().await {
        let (busy, took) = done.unwrap();
        refusals += busy;
        slowest = slowest.max(took);
    }
    let peak_kib = server.memory_kib("VmHWM:");
    let after_kib = server.memory_kib("VmRSS:");
    eprintln!(
        "200 log-ins at once: all logged in within {:.1} s after {refusals} busy answers (503/429, retried after Retry-After); \
         server memory before {} MiB, peak {} MiB, after {} MiB",
        slowest.as_secs_f64(),
        mib(before_kib),
        mib(peak_kib),
        mib(after_kib)
    );
    // Unbounded, each of the 200 took its own 19 MiB at once (5.7 GiB was measured). Bounded, the
    // peak is the start-up's plus the few hashes one per core lets run.
    assert!(peak_kib < 256 * 1024, "peak {} MiB: memory must stay flat", mib(peak_kib));
    assert!(
        after_kib < before_kib + 64 * 1024,
        "after {} MiB against {} MiB before",
        mib(after_kib),
        mib(before_kib)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_200_from_one_address_gets_at_most_its_limit_of_checks() {
    let server = Server::start();
    let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    server.wait_healthy(&client).await;

    let before_kib = server.memory_kib("VmRSS:");
    let mut burst = tokio::task::JoinSet::new();
    for i in 0..200 {
        let (client, base) = (client.clone(), server.base.clone());
        // Every name different, so only the address's limit (30 failures) stands in the way.
        burst.spawn(async move {
            log_in(&client, &base, &format!("guess{i}"), "Wrong@1234", "203.0.113.66").await
        });
    }
    let mut counts: BTreeMap<u16, usize> = BTreeMap::new();
    while let Some(done) = burst.join_next().await {
        let (status, retry_after, body) = done.unwrap();
        *counts.entry(status).or_default() += 1;
        match status {
            400 => assert_eq!(body["message"], "Incorrect user name or password."),
            429 | 503 => assert!(
                retry_after.is_some_and(|s| s > 0),
                "{status} says when to come back: {body}"
            ),
            _ => panic!("unexpected {status}: {body}"),
        }
    }
    let peak_kib = server.memory_kib("VmHWM:");
    eprintln!(
        "200 wrong log-ins at once from one address: {counts:?} (400 = password checked); server memory before {} MiB, peak {} MiB",
        mib(before_kib),
        mib(peak_kib)
    );
    let checked = counts.get(&400).copied().unwrap_or(0);
    assert!(checked <= 30, "at most the address's 30 checks: {counts:?}");
    let (status, _, _) = log_in(&client, &server.base, "demo", "Demo@1234", "203.0.113.67").await;
    assert_eq!(status, 200, "another address is not blocked");
}
