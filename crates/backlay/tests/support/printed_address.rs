//! The address a `backlay serve --addr 127.0.0.1:0` bound, read from the line it prints.
//!
//! The tests let the server pick its own port (port 0) rather than picking a free one first
//! and passing it: a port picked and let go is free only until something else takes it, and
//! the server binds only after migrating and seeding the demo (seconds on PostgreSQL under
//! `make test`'s load), long enough for another suite's server or an outgoing connection to
//! take it. The server then failed at start, or the test talked to somebody else's server
//! (fresh-clone CI runs, crash_safety's PostgreSQL kill test).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::Child;
use std::sync::mpsc;

/// What the server prints once it listens (crates/backlay/src/main.rs keeps this form).
const RUNNING_AT: &str = "Backlay is running at http://";

/// Takes the child's standard output (spawned with `Stdio::piped()`) and reads it on a thread:
/// the receiver gets the address from the "Backlay is running at" line; everything the server
/// prints after is read and dropped, so that it never blocks on a full pipe.
pub fn watch(child: &mut Child) -> mpsc::Receiver<SocketAddr> {
    let stdout = child.stdout.take().expect("the server's stdout is piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if let Some(addr) =
                line.strip_prefix(RUNNING_AT).and_then(|rest| rest.split('/').next())
            {
                let _ = tx.send(addr.parse().expect("the printed address parses"));
            }
        }
    });
    rx
}

/// Waits, at most `timeout`, for the address from [`watch`]; an error says why none came (the
/// server exited, with its status, or the time ran out).
#[allow(
    dead_code,
    reason = "crash_safety's harness is async: it polls the receiver in its own loop"
)]
pub fn wait(
    child: &mut Child,
    address: &mpsc::Receiver<SocketAddr>,
    timeout: std::time::Duration,
) -> Result<SocketAddr, String> {
    let deadline = std::time::Instant::now() + timeout;
    while std::time::Instant::now() < deadline {
        if let Ok(addr) = address.recv_timeout(std::time::Duration::from_millis(50)) {
            return Ok(addr);
        }
        if let Some(status) = child.try_wait().expect("the server's status can be read") {
            return Err(format!("the server exited at start ({status})"));
        }
    }
    Err(format!("the server printed no address in {timeout:?}"))
}
