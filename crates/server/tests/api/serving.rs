//! How the server holds its connections (`backlay_server::serve`) and serves the web app
//! (`web.rs`), over raw sockets where a well-behaved client would hide the point: requests that
//! never finish, the connection cap, and the static files' status codes, encodings, cache
//! headers and Content-Security-Policy. The transport does not touch the database, so these run
//! on SQLite only. (Shutdown is tested on the binary: crates/backlay/tests/serve.rs.)

use std::io::ErrorKind;
use std::path::Path;
use std::time::{Duration, Instant};

use backlay_kit::config::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{spawn_app_with, Db, TestApp};

/// Longest any test here waits for the server to act, whatever it is waiting for.
const PATIENCE: Duration = Duration::from_secs(8);

async fn app_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    spawn_app_with(Db::Sqlite, adjust).await.expect("SQLite always runs")
}

/// `127.0.0.1:port` of the app.
fn address(app: &TestApp) -> String {
    app.base.trim_start_matches("http://").trim_end_matches("/api").to_string()
}

fn root(app: &TestApp) -> String {
    app.base.trim_end_matches("/api").to_string()
}

/// Reads until the server closes the connection, for at most `PATIENCE`; answers what it sent
/// and how long it took, or `None` if it was still open at the end.
async fn read_until_closed(socket: &mut TcpStream) -> Option<(String, Duration)> {
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let left = PATIENCE.checked_sub(started.elapsed())?;
        match tokio::time::timeout(left, socket.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0)) => {
                return Some((String::from_utf8_lossy(&received).into_owned(), started.elapsed()))
            }
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
            // A reset is the server closing too.
            Ok(Err(err)) if err.kind() == ErrorKind::ConnectionReset => {
                return Some((String::from_utf8_lossy(&received).into_owned(), started.elapsed()))
            }
            Ok(Err(err)) => panic!("read failed: {err}"),
        }
    }
}

/// Reads one whole answer (its headers, then `Content-Length` bytes of body) from a connection
/// that stays open, for at most `PATIENCE`.
async fn read_answer(socket: &mut TcpStream) -> Option<String> {
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&received);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    if name.eq_ignore_ascii_case("content-length") {
                        value.trim().parse().ok()
                    } else {
                        None
                    }
                })
                .unwrap_or(0);
            if body.len() >= length {
                return Some(text.into_owned());
            }
        }
        let left = PATIENCE.checked_sub(started.elapsed())?;
        match tokio::time::timeout(left, socket.read(&mut buffer)).await {
            Ok(Ok(n)) if n > 0 => received.extend_from_slice(&buffer[..n]),
            _ => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_headers_never_end_is_closed_within_the_header_timeout() {
    let app = app_with(|config| config.header_timeout_ms = 1_000).await;
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let (answer, after) =
        read_until_closed(&mut socket).await.expect("the server closed the connection");
    assert!(after < Duration::from_secs(4), "closed only after {after:?}");
    assert!(!answer.contains("200 OK"), "{answer}");

    // The same timer closes a kept-alive connection that goes quiet after an answer.
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let (answer, after) =
        read_until_closed(&mut socket).await.expect("the idle connection was closed");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(after < Duration::from_secs(4), "closed only after {after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_shorter_than_its_content_length_is_refused_and_closed_within_the_body_timeout() {
    let app = app_with(|config| {
        config.body_timeout_ms = 1_000;
        config.header_timeout_ms = 30_000;
    })
    .await;
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    socket
        .write_all(b"POST /api/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user_na")
        .await
        .unwrap();
    let (answer, after) =
        read_until_closed(&mut socket).await.expect("the server closed the connection");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("could not be read"), "{answer}");
    assert!(after < Duration::from_secs(4), "closed only after {after:?}");

    // A body dripped a byte at a time meets the same deadline: it is for the whole body.
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    socket
        .write_all(b"POST /api/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let mut closed = false;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if socket.write_all(b" ").await.is_err() {
            closed = true;
            break;
        }
        let mut buffer = [0u8; 1024];
        if let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_millis(1), socket.read(&mut buffer)).await
        {
            assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 400"));
            closed = true;
            break;
        }
    }
    assert!(closed, "a dripping body still held its connection after {:?}", started.elapsed());
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "refused only after {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_wait_until_one_closes_and_are_then_served() {
    let app = app_with(|config| {
        config.max_connections = 3;
        config.header_timeout_ms = 30_000;
    })
    .await;
    // Three connections the server has taken: each has had a request answered and is kept
    // alive, waiting for the next one.
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut socket = TcpStream::connect(address(&app)).await.unwrap();
        socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        let answer = read_answer(&mut socket).await.expect("a connection within the cap is served");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        held.push(socket);
    }
    let mut waiting =
        TcpStream::connect(address(&app)).await.expect("the kernel queues the connection");
    waiting
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = [0u8; 1024];
    let early = tokio::time::timeout(Duration::from_secs(1), waiting.read(&mut buffer)).await;
    assert!(early.is_err(), "a fourth connection was served while three held the cap: {early:?}");

    drop(held);
    let (answer, _) = read_until_closed(&mut waiting).await.expect("served once a slot was free");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // And the server goes on serving.
    let health = app.get("health", None).await;
    health.expect(200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_stream_outlives_the_header_and_body_timeouts() {
    let app = app_with(|config| {
        config.header_timeout_ms = 1_000;
        config.body_timeout_ms = 1_000;
    })
    .await;
    let demo = app.login("demo", "Demo@1234").await;
    let ticket = app.post("stream/ticket", Some(&demo), serde_json::json!({})).await;
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    let request = format!("GET /api/stream?match_id=1&ticket={ticket} HTTP/1.1\r\nHost: x\r\n\r\n");
    socket.write_all(request.as_bytes()).await.unwrap();
    let started = Instant::now();
    let mut received = String::new();
    let mut buffer = [0u8; 8192];
    while started.elapsed() < Duration::from_secs(3) {
        match tokio::time::timeout(Duration::from_millis(200), socket.read(&mut buffer)).await {
            Err(_) => {}
            Ok(Ok(0)) | Ok(Err(_)) => {
                panic!("the stream was closed after {:?}: {received}", started.elapsed())
            }
            Ok(Ok(n)) => received.push_str(&String::from_utf8_lossy(&buffer[..n])),
        }
    }
    assert!(
        received.starts_with("HTTP/1.1 200") && received.contains("event: snapshot"),
        "{received}"
    );
}

// ---------------------------------------------------------------------------------------------
// The web app

/// A small build: the page and one hashed asset with its brotli and gzip copies (their bytes
/// are labels, not real compression: the test checks which file was sent).
fn write_build(dir: &Path) {
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>the build</title>").unwrap();
    std::fs::write(dir.join("assets/app-0a1b2c.js"), "console.log('plain');").unwrap();
    std::fs::write(dir.join("assets/app-0a1b2c.js.br"), "brotli bytes").unwrap();
    std::fs::write(dir.join("assets/app-0a1b2c.js.gz"), "gzip bytes").unwrap();
}

async fn web_app() -> (TestApp, tempfile::TempDir) {
    let build = tempfile::tempdir().unwrap();
    write_build(build.path());
    let web_dir = build.path().to_path_buf();
    let app = app_with(move |config| config.web_dir = web_dir).await;
    (app, build)
}

async fn fetch(
    app: &TestApp,
    path: &str,
    accept_encoding: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, String) {
    let mut request = app.client.get(format!("{}{path}", root(app)));
    if let Some(encodings) = accept_encoding {
        request = request.header("accept-encoding", encodings);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}

fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assets_are_sent_precompressed_and_cached_for_a_year_and_the_page_is_revalidated() {
    let (app, build) = web_app().await;
    let asset = "/assets/app-0a1b2c.js";
    for (accepts, encoding, body) in [
        (Some("gzip, deflate, br"), "br", "brotli bytes"),
        (Some("gzip"), "gzip", "gzip bytes"),
        (None, "", "console.log('plain');"),
    ] {
        let (status, headers, text) = fetch(&app, asset, accepts).await;
        assert_eq!(status, 200, "{accepts:?}");
        assert_eq!(header(&headers, "content-encoding"), encoding, "{accepts:?}");
        assert_eq!(text, body, "{accepts:?}");
        assert_eq!(header(&headers, "content-type"), "text/javascript");
        assert_eq!(header(&headers, "cache-control"), "public, max-age=31536000, immutable");
        assert_eq!(header(&headers, "vary"), "accept-encoding");
    }
    // A missing asset is a 404 that no one may keep.
    let (status, headers, _) = fetch(&app, "/assets/app-ffffff.js", Some("br")).await;
    assert_eq!(status, 404);
    assert_eq!(header(&headers, "cache-control"), "no-cache");

    // The page: revalidated at every visit, the same from `/`, `/index.html` and a deep link,
    // and answered from memory (a change on disk is not seen until a restart).
    std::fs::write(build.path().join("index.html"), "changed on disk").unwrap();
    for path in ["/", "/index.html", "/some/deep/link"] {
        let (status, headers, text) = fetch(&app, path, Some("gzip, br")).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(text, "<!doctype html><title>the build</title>", "{path}");
        assert_eq!(header(&headers, "cache-control"), "no-cache", "{path}");
        assert_eq!(header(&headers, "content-type"), "text/html; charset=utf-8", "{path}");
        assert!(!headers.contains_key("content-encoding"), "{path}");
    }
    // A file that is not in the build is a 404, not the page.
    assert_eq!(fetch(&app, "/logo.png", None).await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_file_error_on_a_static_path_is_a_404() {
    let (app, _build) = web_app().await;
    let long = "a".repeat(300);
    for path in [
        format!("/{long}"),
        format!("/{long}.js"),
        format!("/assets/{long}.js"),
        format!("/assets/{long}/x.js"),
        "/assets/app-0a1b2c.js/inside".to_string(),
        "/assets/".to_string(),
        "/assets/..%2f..%2fetc%2fpasswd".to_string(),
    ] {
        let (status, _, text) = fetch(&app, &path, Some("br, gzip")).await;
        assert_eq!(status, 404, "{path}: {text}");
        assert_eq!(text, "Not found", "{path}");
    }
}

/// `name → values` of a Content-Security-Policy.
fn directives(policy: &str) -> std::collections::BTreeMap<String, Vec<String>> {
    policy
        .split(';')
        .filter_map(|directive| {
            let mut words = directive.split_whitespace();
            Some((words.next()?.to_string(), words.map(str::to_string).collect()))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_carries_a_strict_policy_whose_frames_follow_the_casino_allow_list() {
    let (app, _build) = web_app().await;
    let own = root(&app);
    let (_, headers, _) = fetch(&app, "/", None).await;
    let policy = header(&headers, "content-security-policy").to_string();
    assert_eq!(
        policy,
        format!(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; font-src 'self' data:; \
             connect-src 'self'; frame-src {own}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        )
    );
    let d = directives(&policy);
    assert_eq!(d["script-src"], ["'self'"]);
    assert_eq!(d["style-src"], ["'self'"]);
    assert_eq!(d["object-src"], ["'none'"]);
    assert_eq!(d["base-uri"], ["'none'"]);
    assert_eq!(d["frame-ancestors"], ["'none'"]);
    assert_eq!(d["frame-src"], [own.as_str()]);
    assert_eq!(header(&headers, "x-frame-options"), "DENY");
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");

    // The operator adds a provider: pages loaded after it may frame its games.
    let admin = app.login("admin", "Admin@1234").await;
    app.post(
        "admin/settings",
        Some(&admin),
        serde_json::json!({ "casino_frame_origins": "https://games.example.com" }),
    )
    .await
    .expect(200);
    let started = Instant::now();
    let frames = loop {
        let (_, headers, _) = fetch(&app, "/", None).await;
        let frames = directives(header(&headers, "content-security-policy"))["frame-src"].clone();
        if frames.len() > 1 || started.elapsed() > PATIENCE {
            break frames;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(frames, ["https://games.example.com".to_string(), own.clone()]);

    // The built-in provider's page keeps its own policy: framed by the app, nothing else.
    let (status, headers, _) = fetch(&app, "/provider/play", None).await;
    assert_eq!(status, 200);
    let provider = directives(header(&headers, "content-security-policy"));
    assert_eq!(provider["frame-ancestors"], ["'self'".to_string(), own]);
    assert_eq!(header(&headers, "x-frame-options"), "SAMEORIGIN");
}

/// A request's answer, and whether it tells the client to close the connection.
fn says_close(answer: &str) -> bool {
    let head = answer.split_once("\r\n\r\n").map_or(answer, |(head, _)| head);
    head.lines().any(|line| line.eq_ignore_ascii_case("connection: close"))
}

/// An answer given without reading the request's body (refused before it, or the body too
/// long) says `Connection: close`, and the connection closes; an answer to a body read whole
/// keeps the connection for the next request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_that_leaves_the_body_unread_says_connection_close() {
    let app = app_with(|_| {}).await;
    let body = format!("{{\"pad\":\"{}\"}}", "x".repeat(2_000));
    let post = |path: &str, token: Option<&str>, body: &str| {
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };

    // 401: refused before its body is read.
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    socket.write_all(post("/api/bet/placeBet", None, &body).as_bytes()).await.unwrap();
    let answer = read_answer(&mut socket).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    assert!(says_close(&answer), "{answer}");
    assert!(read_until_closed(&mut socket).await.is_some(), "and the connection closes");

    // 413: a body past the limit, most of it left unread.
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    let token = app.demo().await;
    let huge = format!("{{\"pad\":\"{}\"}}", "x".repeat(backlay_kit::input::MAX_BODY_BYTES * 4));
    socket.write_all(post("/api/bet/placeBet", Some(&token), &huge).as_bytes()).await.ok();
    let answer = read_answer(&mut socket).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(says_close(&answer), "{answer}");

    // A body read whole (a wrong password): the connection serves the next request.
    let mut socket = TcpStream::connect(address(&app)).await.unwrap();
    let login = r#"{"user_name":"demo","password":"Wrong@1234"}"#;
    socket.write_all(post("/api/user/login", None, login).as_bytes()).await.unwrap();
    let answer = read_answer(&mut socket).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer}");
    assert!(!says_close(&answer), "{answer}");
    socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let next = read_answer(&mut socket).await.expect("the next answer on the same connection");
    assert!(next.starts_with("HTTP/1.1 200"), "{next}");
}
