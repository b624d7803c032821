//! `backlay serve` as an operator runs it, stopped with SIGTERM and starved of file
//! descriptors: shutdown ends live streams at once, lets a request in flight finish, cuts a
//! half-sent one at the grace period and exits; every bet acknowledged stays stored; a static
//! path too long for the file system is a 404 with nothing logged at ERROR; 600 half-open
//! connections under a 512-file limit do not stop the server serving; a second server on the
//! same SQLite file is refused while `backlay admin` still works beside the first.
//!
//! Each test starts the binary on a port it picks itself with a fresh SQLite file, talks to it over plain
//! sockets (a stream and a half-sent request need them), signals it by process id with
//! `kill`, and bounds every wait in time.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "support/printed_address.rs"]
mod printed_address;

/// How long a server may take to seed the demo and answer /api/health.
const START_TIMEOUT: Duration = Duration::from_secs(60);

struct Backlay {
    child: Child,
    port: u16,
    stderr_path: PathBuf,
}

impl Drop for Backlay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `backlay serve` with the demo on `dir/serve.db` (markets, no feed, no casino), logging
/// to `dir/<name>.log`, through `sh -c` when `shell_prefix` asks (a `ulimit`).
fn start(
    dir: &Path,
    name: &str,
    extra: &[&str],
    env: &[(&str, &str)],
    shell_prefix: Option<&str>,
) -> Backlay {
    let stderr_path = dir.join(format!("{name}.log"));
    let database_url = format!("sqlite://{}", dir.join("serve.db").display());
    let mut args: Vec<String> = [
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--database-url",
        &database_url,
        "--demo",
        "--no-demo-feed",
        "--no-casino",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    let binary = env!("CARGO_BIN_EXE_backlay");
    let mut command = match shell_prefix {
        Some(prefix) => {
            let mut command = Command::new("sh");
            command
                .arg("-c")
                .arg(format!("{prefix} && exec \"$0\" \"$@\""))
                .arg(binary)
                .args(&args);
            command
        }
        None => {
            let mut command = Command::new(binary);
            command.args(&args);
            command
        }
    };
    command
        .env("BACKLAY_LOG", "info,sqlx=warn")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr_path).unwrap());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("backlay starts");
    let address = printed_address::watch(&mut child);
    let started = Instant::now();
    let port = printed_address::wait(&mut child, &address, START_TIMEOUT).map(|a| a.port());
    let mut server = Backlay { child, port: *port.as_ref().unwrap_or(&0), stderr_path };
    if let Err(why) = port {
        panic!("{why}: {}", server.log());
    }
    while started.elapsed() < START_TIMEOUT {
        if let Some(status) = server.child.try_wait().unwrap() {
            panic!("backlay exited at start ({status}): {}", server.log());
        }
        if matches!(server.call("GET", "/api/health", None, None), Ok((200, _))) {
            return server;
        }
        thread::sleep(Duration::from_millis(100));
    }
    panic!("backlay did not become healthy: {}", server.log());
}

impl Backlay {
    fn log(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Value)> {
        request(self.port, method, path, token, body, None)
    }

    /// A call that must answer 200; answers `data`.
    #[track_caller]
    fn ok(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let (status, answer) =
            self.call("POST", path, token, Some(&body)).expect("the server answers");
        assert_eq!(status, 200, "{path}: {answer}");
        answer["data"].clone()
    }

    fn login(&self, user_name: &str, password: &str) -> String {
        let data = self.ok(
            "/api/user/login",
            None,
            json!({ "user_name": user_name, "password": password }),
        );
        data["token"].as_str().expect("a token").to_string()
    }

    fn terminate(&self) {
        let status =
            Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success(), "kill -TERM {}", self.child.id());
    }

    /// Waits up to `limit` for a line of the log holding every one of `parts`; answers it.
    fn log_line(&self, parts: &[&str], limit: Duration) -> Option<String> {
        let started = Instant::now();
        while started.elapsed() < limit {
            let log = self.log();
            if let Some(line) = log.lines().find(|line| parts.iter().all(|p| line.contains(p))) {
                return Some(line.to_string());
            }
            thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Tries to connect until a connection is refused, for at most `limit`; answers whether the
    /// server was still running when it was. (A connection that gets in before the listener
    /// closes is dropped at once: shutdown closes an idle connection.)
    fn refuses_connections_within(&mut self, limit: Duration) -> Option<bool> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if TcpStream::connect(("127.0.0.1", self.port)).is_err() {
                return Some(self.child.try_wait().unwrap().is_none());
            }
            thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Waits until `since + limit` for the process to exit; answers its status and how long
    /// after `since` it exited.
    fn exited_within(&mut self, since: Instant, limit: Duration) -> Option<(ExitStatus, Duration)> {
        while since.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some((status, since.elapsed()));
            }
            thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

/// One request on its own connection, with `x-request-id` when `request_id` names one; answers
/// the status and the JSON body (or `null`).
fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
    request_id: Option<&str>,
) -> std::io::Result<(u16, Value)> {
    let mut socket = TcpStream::connect(("127.0.0.1", port))?;
    socket.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let id = request_id.map(|id| format!("x-request-id: {id}\r\n")).unwrap_or_default();
    write!(
        socket,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}{id}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = Vec::new();
    socket.read_to_end(&mut answer)?;
    let answer = String::from_utf8_lossy(&answer);
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let json = answer
        .split_once("\r\n\r\n")
        .and_then(|(_, body)| serde_json::from_str(body).ok())
        .unwrap_or(Value::Null);
    Ok((status, json))
}

/// A fresh match with one exchange market (two runners) open for bets, with `delay_s` of bet
/// delay in play (and in play when the delay is not 0). Answers (match, market, selection).
fn open_market(server: &Backlay, admin: &str, delay_s: u32) -> (i64, i64, i64) {
    let series =
        server.ok("/api/series/getSeries", Some(admin), json!({ "sport_id": 4, "is_active": 1 }));
    let series_id = series[0]["series_id"].as_i64().expect("a demo series");
    let open_date = "2030-01-01T12:00:00Z";
    let the_match = server.ok(
        "/api/admin/match/create",
        Some(admin),
        json!({ "series_id": series_id, "name": "Owls v Hawks", "open_date": open_date }),
    );
    let match_id = the_match["id"].as_i64().unwrap();
    let market = server.ok(
        "/api/admin/market/create",
        Some(admin),
        json!({ "match_id": match_id, "type": "match_odds", "name": "Match Odds", "runners": ["Owls", "Hawks"], "bet_delay_s": delay_s }),
    );
    let market_id = market["market_id"].as_i64().unwrap();
    server.ok(
        "/api/admin/market/status",
        Some(admin),
        json!({ "market_id": market_id, "status": "open" }),
    );
    if delay_s > 0 {
        server.ok(
            "/api/admin/match/inPlay",
            Some(admin),
            json!({ "match_id": match_id, "in_play": true }),
        );
    }
    (match_id, market_id, market["selection_ids"][0].as_i64().unwrap())
}

/// A back bet at 5.0 that no one matches: it rests in the book.
fn bet(market_id: i64, selection_id: i64, client_ref: &str) -> Value {
    json!({ "market_id": market_id, "selection_id": selection_id, "side": "back", "price": 5.0, "stake": 100,
        "persistence": "persist", "client_ref": client_ref })
}

/// The bet ids of the user's unmatched bets.
fn resting_bets(server: &Backlay, token: &str) -> Vec<i64> {
    let open = server.ok("/api/bet/openBets", Some(token), json!({}));
    open["unmatched"].as_array().unwrap().iter().map(|b| b["bet_id"].as_i64().unwrap()).collect()
}

/// Opens a match's live stream on its own socket and reads up to its first event.
fn open_stream(server: &Backlay, token: &str, match_id: i64) -> TcpStream {
    let ticket = server.ok("/api/stream/ticket", Some(token), json!({}))["ticket"]
        .as_str()
        .unwrap()
        .to_string();
    let mut socket = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    socket.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        socket,
        "GET /api/stream?match_id={match_id}&ticket={ticket} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 8192];
    while !seen.contains("event: snapshot") {
        let n = socket.read(&mut buffer).expect("the stream sends its snapshot");
        assert!(n > 0, "the stream closed before its snapshot: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    socket
}

/// Reads the stream until the server closes it; answers how long that took.
fn stream_closed_within(mut socket: TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    socket.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    let mut buffer = [0u8; 8192];
    while started.elapsed() < limit {
        match socket.read(&mut buffer) {
            Ok(0) => return Some(started.elapsed()),
            Ok(_) => {}
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return Some(started.elapsed()),
        }
    }
    None
}

/// A connection that sent a whole request's headers and part of its body.
fn half_sent_request(server: &Backlay) -> TcpStream {
    let mut socket = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    socket
        .write_all(b"POST /api/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user_name\"")
        .unwrap();
    socket
}

fn assert_no_errors_logged(server: &Backlay) {
    let log = server.log();
    let errors: Vec<&str> = log.lines().filter(|line| line.contains("ERROR")).collect();
    assert!(errors.is_empty(), "ERROR lines in the log:\n{}", errors.join("\n"));
}

#[test]
fn sigterm_ends_a_live_stream_at_once_and_exits_keeping_every_acknowledged_bet() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>web</title>").unwrap();
    let web_dir = web.display().to_string();
    let mut server = start(dir.path(), "first", &["--web-dir", &web_dir], &[], None);
    let admin = server.login("admin", "Admin@1234");
    let demo = server.login("demo", "Demo@1234");
    let (match_id, market_id, selection_id) = open_market(&server, &admin, 0);
    let acknowledged =
        server.ok("/api/bet/placeBet", Some(&demo), bet(market_id, selection_id, "before-sigterm"))
            ["bet_id"]
            .as_i64()
            .unwrap();

    // A static path segment too long for the file system: a 404, and nothing at ERROR.
    let long = format!("/{}", "a".repeat(300));
    let (status, _) = server.call("GET", &long, None, None).unwrap();
    assert_eq!(status, 404);
    let (status, _) = server.call("GET", &format!("/assets{long}.js"), None, None).unwrap();
    assert_eq!(status, 404);

    let stream = open_stream(&server, &demo, match_id);
    let signalled = Instant::now();
    server.terminate();
    // The default grace is 10 s: the stream must not use it up.
    let closed =
        stream_closed_within(stream, Duration::from_secs(5)).expect("the stream ended at shutdown");
    assert!(closed < Duration::from_secs(2), "the stream ended only after {closed:?}");
    let (status, after) = server
        .exited_within(signalled, Duration::from_secs(8))
        .unwrap_or_else(|| panic!("still running 8 s after SIGTERM: {}", server.log()));
    assert!(status.success(), "{status}: {}", server.log());
    assert!(after < Duration::from_secs(3), "exited {after:?} after SIGTERM");
    assert_no_errors_logged(&server);

    // On the same database the acknowledged bet is there.
    let restarted = start(dir.path(), "second", &["--web-dir", &web_dir], &[], None);
    let demo = restarted.login("demo", "Demo@1234");
    assert!(resting_bets(&restarted, &demo).contains(&acknowledged), "bet {acknowledged} was lost");
}

#[test]
fn sigterm_lets_a_request_in_flight_finish_and_cuts_a_half_sent_one_at_the_grace_period() {
    let dir = tempfile::tempdir().unwrap();
    let grace = Duration::from_secs(3);
    // tower_http at debug logs a line as each request starts: the sign that the bet is in.
    let mut server = start(
        dir.path(),
        "first",
        &["--web-dir", "/nonexistent", "--body-timeout-seconds", "60"],
        &[
            ("BACKLAY_SHUTDOWN_GRACE_SECONDS", "3"),
            ("BACKLAY_LOG", "info,sqlx=warn,tower_http=debug"),
        ],
        None,
    );
    let admin = server.login("admin", "Admin@1234");
    let demo = server.login("demo", "Demo@1234");
    // A 2 s bet delay: the bet is still in flight when the signal comes.
    let (_, market_id, selection_id) = open_market(&server, &admin, 2);
    let _half_sent = half_sent_request(&server);

    let port = server.port;
    let in_flight = {
        let body = bet(market_id, selection_id, "in-flight");
        let demo = demo.clone();
        thread::spawn(move || {
            let answer = request(
                port,
                "POST",
                "/api/bet/placeBet",
                Some(&demo),
                Some(&body),
                Some("in-flight-bet"),
            );
            (answer, Instant::now())
        })
    };
    // The signal comes once the server has taken the bet's request (its whole body goes in the
    // same write as its headers) and started serving it.
    server
        .log_line(&["in-flight-bet", "started processing request"], Duration::from_secs(10))
        .unwrap_or_else(|| panic!("the bet's request never reached the server: {}", server.log()));
    let signalled = Instant::now();
    server.terminate();
    match server.refuses_connections_within(Duration::from_secs(2)) {
        Some(true) => {}
        Some(false) => panic!("new connections were refused only once the server had exited"),
        None => panic!("a new connection was still accepted 2 s into shutdown"),
    }

    let (answer, answered_at) = in_flight.join().unwrap();
    let (status, body) = answer.expect("the bet in flight was answered");
    assert_eq!(status, 200, "{body}");
    assert!(
        answered_at > signalled,
        "the bet was answered before the signal: the test did not test shutdown"
    );
    let bet_id = body["data"]["bet_id"].as_i64().unwrap();

    let limit = grace + Duration::from_secs(5);
    let (status, after) = server
        .exited_within(signalled, limit)
        .unwrap_or_else(|| panic!("still running {limit:?} after SIGTERM: {}", server.log()));
    assert!(status.success(), "{status}: {}", server.log());
    // The half-sent request held it to the grace period, and no longer.
    assert!(
        after >= grace - Duration::from_millis(500),
        "exited after {after:?}, before the grace period"
    );
    assert!(after < grace + Duration::from_secs(2), "exited only after {after:?}");
    assert_no_errors_logged(&server);

    let restarted = start(dir.path(), "second", &["--web-dir", "/nonexistent"], &[], None);
    let demo = restarted.login("demo", "Demo@1234");
    assert!(
        resting_bets(&restarted, &demo).contains(&bet_id),
        "bet {bet_id}, answered during shutdown, was lost"
    );
}

#[test]
fn six_hundred_half_open_connections_under_a_512_file_limit_do_not_stop_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(
        dir.path(),
        "starved",
        &["--web-dir", "/nonexistent", "--header-timeout-seconds", "2"],
        &[],
        Some("ulimit -n 512"),
    );
    let mut held = Vec::new();
    for _ in 0..600 {
        let mut socket = TcpStream::connect(("127.0.0.1", server.port))
            .expect("connections queue, never refused");
        socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n").unwrap();
        held.push(socket);
    }
    // Served once the half-open ones time out (2 s each, the cap's worth at a time).
    let started = Instant::now();
    let (status, body) = server.call("GET", "/api/health", None, None).expect("health answers");
    assert_eq!(status, 200, "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "health answered only after {:?}",
        started.elapsed()
    );
    let log = server.log();
    assert!(!log.contains("Too many open files"), "{log}");
    assert!(
        log.contains("serving at most 256 at once"),
        "the cap was not fitted to the limit: {log}"
    );
    drop(held);
}

#[test]
fn a_second_server_on_one_sqlite_file_is_refused_and_admin_commands_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let first = start(dir.path(), "first", &[], &[], None);
    let database_url = format!("sqlite://{}", dir.path().join("serve.db").display());
    let second = Command::new(env!("CARGO_BIN_EXE_backlay"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database-url", &database_url])
        .args(["--no-demo-feed", "--no-casino"])
        .env("BACKLAY_LOG", "warn")
        .output()
        .expect("backlay runs");
    let message = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "the second server must not start: {message}");
    assert!(
        message.contains("another Backlay server is using the database")
            && message.contains("serve.db.lock")
            && message.contains("PostgreSQL"),
        "{message}"
    );
    // An operator's command opens the database beside the running server.
    let minted = Command::new(env!("CARGO_BIN_EXE_backlay"))
        .args(["admin", "mint", "--to", "admin", "--amount", "100"])
        .env("DATABASE_URL", &database_url)
        .env("BACKLAY_LOG", "error")
        .output()
        .expect("backlay runs");
    assert!(minted.status.success(), "{}", String::from_utf8_lossy(&minted.stderr));
    // The first is untouched.
    assert!(matches!(first.call("GET", "/api/health", None, None), Ok((200, _))));
}
