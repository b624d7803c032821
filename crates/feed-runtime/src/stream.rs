//! A live Exchange Stream as a feed's source (`betfair-stream:HOST:PORT`): Betfair's, or another
//! Backlay's (issue 17 serves the same protocol).
//!
//! One task a stream: it connects over TLS, reads the `connection` line, authenticates with the
//! application key and a session token (given, or from a log-in at the identity service's
//! `login`, as betfairlightweight's `login_interactive`), subscribes to the markets of
//! `--feed-markets` with every ladder field, and hands each line to the feed's mirroring task
//! over the same bounded channel a recording's reader uses. When the mirroring falls behind,
//! the task waits on the channel and the upstream's socket backs up: memory stays bounded, and
//! Betfair drops a reader that lags far behind, which this task answers as any other drop.
//!
//! After a drop (a closed or failed connection, or nothing, not even a heartbeat, for three
//! heartbeat periods) it reconnects with back-off ([`FIRST_RETRY`] doubling to
//! [`LAST_RETRY`], back to the first once a subscription's image has arrived), resubscribing
//! with the `initialClk` and `clk` it last saw: Betfair answers with the changes since
//! (`RESUB_DELTA`), Backlay with a fresh image; either way the mirror ends right. A refused
//! session (expired, logged out) is logged in again when a log-in was given. The engine never
//! waits on any of this: the feed is one more caller of it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use backlay_feed::message::{ChangeType, Message};
use backlay_feed::recording::{Entry, Line, MAX_LINE_BYTES};
use backlay_kit::config::{StreamAccess, StreamMarketFilter};
use backlay_operator::feeds::{FeedBoard, FeedMode, FeedState};
use serde::Deserialize;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch};
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};
use tokio_rustls::TlsConnector;

/// The first wait before reconnecting; it doubles at each failure up to [`LAST_RETRY`].
pub const FIRST_RETRY: Duration = Duration::from_millis(500);
pub const LAST_RETRY: Duration = Duration::from_secs(30);
/// Connecting, the TLS handshake, the log-in and each answer before the subscription's image.
const STEP_TIMEOUT: Duration = Duration::from_secs(10);
/// Nothing for this many heartbeat periods is a drop.
const HEARTBEATS_MISSED: u32 = 3;
/// The subscription's `ladderLevels`-free fields: the whole ladder, trades, volumes, the last
/// traded price and the market's definition (the feed mirrors and quotes all of it).
const FIELDS: [&str; 5] =
    ["EX_ALL_OFFERS", "EX_TRADED", "EX_TRADED_VOL", "EX_LTP", "EX_MARKET_DEF"];

/// One live stream and how to reach it.
pub struct Stream {
    pub host: String,
    pub port: u16,
    /// As the feed's figures and refusals name it (`betfair-stream:HOST:PORT`).
    pub spec: String,
    pub access: Arc<StreamAccess>,
    pub tls: Arc<ClientConfig>,
}

/// The TLS set-up of every live stream and log-in: the system's trusted certificates and those
/// of `--feed-ca`, through rustls with the ring provider (as the stream's own listener).
pub fn tls_config(ca_files: &[PathBuf]) -> anyhow::Result<Arc<ClientConfig>> {
    let mut roots = RootCertStore::empty();
    let native = rustls_native_certs::load_native_certs();
    for cert in native.certs {
        // A system certificate rustls cannot read is one fewer to trust, not a failure.
        let _ = roots.add(cert);
    }
    for path in ca_files {
        let pem = std::fs::read(path)
            .with_context(|| format!("--feed-ca {}: cannot be read", path.display()))?;
        let certs = rustls_pemfile::certs(&mut pem.as_slice())
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("--feed-ca {}: not PEM certificates", path.display()))?;
        anyhow::ensure!(!certs.is_empty(), "--feed-ca {}: holds no certificate", path.display());
        for cert in certs {
            roots.add(cert).with_context(|| {
                format!("--feed-ca {}: a certificate rustls cannot use", path.display())
            })?;
        }
    }
    anyhow::ensure!(
        !roots.is_empty(),
        "this system trusts no certificates (no CA bundle found): give the upstream's with --feed-ca"
    );
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Where a stream resumes after a drop.
#[derive(Clone, Debug, Default)]
struct Resume {
    initial_clk: Option<String>,
    clk: Option<String>,
}

/// Why a connection ended.
#[derive(Debug)]
enum Ended {
    /// The mirroring task is gone: the server stops.
    FeedStopped,
    /// The operator paused or removed the feed.
    Steered,
    /// Refused by the upstream: its code and words.
    Refused {
        code: String,
        message: String,
    },
    Failed(anyhow::Error),
}

impl From<anyhow::Error> for Ended {
    fn from(err: anyhow::Error) -> Ended {
        Ended::Failed(err)
    }
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::FeedStopped => f.write_str("the feed stopped"),
            Ended::Steered => f.write_str("steered by the operator"),
            Ended::Refused { code, message } => {
                write!(f, "refused by the upstream: {code}: {message}")
            }
            Ended::Failed(err) => write!(f, "{err:#}"),
        }
    }
}

/// The codes that say the session token is no good (a fresh log-in may mend it).
const SESSION_REFUSALS: [&str; 3] = ["INVALID_SESSION_INFORMATION", "NO_SESSION", "NOT_AUTHORIZED"];

/// Reads the stream until the mirroring task ends or the operator removes the feed,
/// reconnecting as needed and disconnected while paused; the feed's figures (board entry
/// `index`) say whether it is connected and the last failure.
pub async fn read(
    stream: Stream,
    lines: mpsc::Sender<Entry>,
    board: Arc<FeedBoard>,
    index: usize,
    mut mode: watch::Receiver<FeedMode>,
) {
    let http = reqwest::Client::builder()
        .use_preconfigured_tls((*stream.tls).clone())
        .timeout(STEP_TIMEOUT)
        .build();
    let http = match http {
        Ok(http) => http,
        Err(err) => {
            board.update(index, |s| {
                s.state = FeedState::Failed;
                s.last_error = Some(format!("no HTTP client for the log-in: {err}"));
            });
            return;
        }
    };
    let mut token = stream.access.session_token.clone();
    let mut resume = Resume::default();
    let mut retry = FIRST_RETRY;
    let mut line = 0u64;
    loop {
        // Disconnected while paused; gone once removed.
        match mode.wait_for(|wanted| *wanted != FeedMode::Paused).await.map(|m| *m) {
            Ok(FeedMode::Running) => {}
            _ => return,
        }
        board.update(index, |s| shown(s, FeedState::Connecting));
        let session =
            Session { token: &mut token, resume: &mut resume, retry: &mut retry, line: &mut line };
        let ended = tokio::select! {
            ended = connection(&stream, &http, session, &lines, &board, index) => ended,
            _ = mode.wait_for(|wanted| *wanted != FeedMode::Running) => Ended::Steered,
        };
        match &ended {
            Ended::FeedStopped => return,
            Ended::Steered => continue,
            // A refused session: log in afresh, when a log-in was given.
            Ended::Refused { code, .. }
                if SESSION_REFUSALS.contains(&code.as_str()) && stream.access.login.is_some() =>
            {
                token = None;
            }
            _ => {}
        }
        tracing::warn!(feed = %stream.spec, retry_in_ms = retry.as_millis() as u64, "feed: stream dropped: {ended}");
        board.update(index, |s| s.last_error = Some(format!("{}: {ended}", stream.spec)));
        // The wait before the next attempt ends early when the operator steers the feed.
        tokio::select! {
            () = tokio::time::sleep(retry) => {}
            _ = mode.wait_for(|wanted| *wanted != FeedMode::Running) => {}
        }
        retry = (retry * 2).min(LAST_RETRY);
        if lines.is_closed() {
            return;
        }
    }
}

/// The connection's state on the board, unless the operator's (paused, removed) stands: the
/// mirroring task writes those, and a connection ending as they land must not hide them.
fn shown(status: &mut backlay_operator::feeds::FeedStatus, state: FeedState) {
    if !matches!(status.state, FeedState::Paused | FeedState::Removed) {
        status.state = state;
    }
}

/// What a stream keeps across its connections.
struct Session<'a> {
    token: &'a mut Option<String>,
    resume: &'a mut Resume,
    /// The wait before the next attempt.
    retry: &'a mut Duration,
    /// Lines read, for the refusals' line numbers.
    line: &'a mut u64,
}

/// One connection, from connecting to its end.
async fn connection(
    stream: &Stream,
    http: &reqwest::Client,
    session: Session<'_>,
    lines: &mpsc::Sender<Entry>,
    board: &FeedBoard,
    index: usize,
) -> Ended {
    let Session { token, resume, retry, line } = session;
    let session = match token {
        Some(token) => token.clone(),
        None => {
            let Some(login) = &stream.access.login else {
                return Ended::Failed(anyhow::anyhow!("no session token and no log-in"));
            };
            match log_in(http, &stream.access.app_key, login).await {
                Ok(fresh) => token.insert(fresh).clone(),
                Err(err) => return Ended::Failed(err),
            }
        }
    };
    let (mut reader, mut writer) = match connect(stream).await {
        Ok(halves) => halves,
        Err(err) => return Ended::Failed(err),
    };
    let heartbeat = Duration::from_millis(u64::from(stream.access.heartbeat_ms));
    let silence = heartbeat * HEARTBEATS_MISSED;
    let mut subscribed = false;
    // Betfair answers in order, so both requests go at once: then come the connection line,
    // the two statuses and the image.
    let auth = json!({"op": "authentication", "id": 1, "appKey": stream.access.app_key, "session": session});
    let requests = async {
        send(&mut writer, &auth).await?;
        send(&mut writer, &subscription(&stream.access, resume)).await
    };
    match tokio::time::timeout(STEP_TIMEOUT, requests).await {
        Ok(Ok(())) => {}
        Ok(Err(err)) => return Ended::Failed(err.context("sending the log-in and subscription")),
        Err(_) => {
            return Ended::Failed(anyhow::anyhow!(
                "the upstream took no requests for {STEP_TIMEOUT:?}"
            ))
        }
    }
    loop {
        let wait = if subscribed { silence } else { STEP_TIMEOUT };
        let read = tokio::time::timeout(wait, read_line(&mut reader)).await;
        let read = match read {
            Ok(Ok(read)) => read,
            Ok(Err(err)) => {
                return Ended::Failed(anyhow::Error::from(err).context("reading the stream"))
            }
            Err(_) => {
                return Ended::Failed(anyhow::anyhow!(
                    "nothing from the upstream for {} ms (not even a heartbeat)",
                    wait.as_millis()
                ))
            }
        };
        let Some(line_read) = read else {
            return Ended::Failed(anyhow::anyhow!("the upstream closed the connection"));
        };
        *line += 1;
        let Some(message) = line_read.message() else { continue };
        match &message {
            Ok(Message::Other { op, .. }) if op == "status" => {
                let Line::Text(text) = &line_read else { continue };
                let status: StatusLine = serde_json::from_str(text).unwrap_or_default();
                if status.status_code.as_deref() == Some("FAILURE")
                    || status.connection_closed == Some(true)
                {
                    return Ended::Refused {
                        code: status.error_code.unwrap_or_else(|| "CONNECTION_CLOSED".into()),
                        message: status.error_message.unwrap_or_default(),
                    };
                }
                continue;
            }
            Ok(Message::Other { .. }) => continue, // `connection`, and what the feed does not use
            Ok(Message::Market(change)) => {
                if change.initial_clk.is_some() {
                    resume.initial_clk.clone_from(&change.initial_clk);
                }
                if change.clk.is_some() {
                    resume.clk.clone_from(&change.clk);
                }
                if !subscribed && change.change_type != ChangeType::Heartbeat {
                    subscribed = true;
                    *retry = FIRST_RETRY;
                    board.update(index, |s| shown(s, FeedState::Running));
                    tracing::info!(feed = %stream.spec, "feed: stream subscribed");
                }
            }
            _ => {}
        }
        let entry = Entry { source: PathBuf::from(&stream.spec), line: *line, message };
        if lines.send(entry).await.is_err() {
            return Ended::FeedStopped;
        }
    }
}

type Reader = BufReader<tokio::io::ReadHalf<tokio_rustls::client::TlsStream<TcpStream>>>;
type Writer = tokio::io::WriteHalf<tokio_rustls::client::TlsStream<TcpStream>>;

async fn connect(stream: &Stream) -> anyhow::Result<(Reader, Writer)> {
    let address = (stream.host.as_str(), stream.port);
    let tcp = tokio::time::timeout(STEP_TIMEOUT, TcpStream::connect(address))
        .await
        .map_err(|_| {
            anyhow::anyhow!(
                "no connection to {}:{} within {STEP_TIMEOUT:?}",
                stream.host,
                stream.port
            )
        })?
        .with_context(|| format!("connecting to {}:{}", stream.host, stream.port))?;
    tcp.set_nodelay(true)?;
    let name = ServerName::try_from(stream.host.clone())
        .with_context(|| format!("{:?} is not a host name TLS can check", stream.host))?;
    let tls = tokio::time::timeout(
        STEP_TIMEOUT,
        TlsConnector::from(Arc::clone(&stream.tls)).connect(name, tcp),
    )
    .await
    .map_err(|_| anyhow::anyhow!("no TLS handshake within {STEP_TIMEOUT:?}"))?
    .context("the TLS handshake (is the upstream's certificate trusted? --feed-ca adds one)")?;
    let (read, write) = tokio::io::split(tls);
    Ok((BufReader::new(read), write))
}

/// The subscription request: the filter, every ladder field, and where to resume.
fn subscription(access: &StreamAccess, resume: &Resume) -> serde_json::Value {
    let StreamMarketFilter { market_ids, event_type_ids, market_types, country_codes } =
        &access.markets;
    let mut filter = serde_json::Map::new();
    for (key, values) in [
        ("marketIds", market_ids),
        ("eventTypeIds", event_type_ids),
        ("marketTypes", market_types),
        ("countryCodes", country_codes),
    ] {
        if !values.is_empty() {
            filter.insert(key.into(), json!(values));
        }
    }
    let mut request = json!({
        "op": "marketSubscription",
        "id": 2,
        "marketFilter": filter,
        "marketDataFilter": {"fields": FIELDS},
        "heartbeatMs": access.heartbeat_ms,
        "conflateMs": access.conflate_ms,
        "segmentationEnabled": false,
    });
    if let (Some(initial_clk), Some(clk)) = (&resume.initial_clk, &resume.clk) {
        request["initialClk"] = json!(initial_clk);
        request["clk"] = json!(clk);
    }
    request
}

async fn send(writer: &mut Writer, request: &serde_json::Value) -> anyhow::Result<()> {
    let mut line = serde_json::to_vec(request)?;
    line.extend_from_slice(b"\r\n");
    writer.write_all(&line).await?;
    writer.flush().await?;
    Ok(())
}

/// Reads one line (without its end), bounded by [`MAX_LINE_BYTES`] as a recording's lines are;
/// `None` at the end of the stream.
async fn read_line(reader: &mut Reader) -> std::io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let limit = MAX_LINE_BYTES as u64 + 2;
    let read = (&mut *reader).take(limit).read_until(b'\n', &mut bytes).await?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && read as u64 >= limit {
        // Skip the rest of the long line, a bounded piece at a time.
        let mut rest = Vec::with_capacity(64 * 1024);
        loop {
            rest.clear();
            let more = (&mut *reader).take(64 * 1024).read_until(b'\n', &mut rest).await?;
            if more == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(Line::TooLong));
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    Ok(Some(Line::of_bytes(bytes)))
}

/// A stream's `status` line.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatusLine {
    status_code: Option<String>,
    error_code: Option<String>,
    error_message: Option<String>,
    connection_closed: Option<bool>,
}

/// The identity service's answer to `login`.
#[derive(Deserialize)]
struct LoginAnswer {
    #[serde(default)]
    token: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    error: String,
}

/// A session token from the identity service (Betfair's interactive log-in).
async fn log_in(
    http: &reqwest::Client,
    app_key: &str,
    login: &backlay_kit::config::StreamLogin,
) -> anyhow::Result<String> {
    let url = format!("{}login", login.identity_url);
    let answer = http
        .post(&url)
        .header("X-Application", app_key)
        .header("Accept", "application/json")
        .form(&[("username", login.user.as_str()), ("password", login.password.as_str())])
        .send()
        .await
        .with_context(|| format!("logging in at {url}"))?;
    let code = answer.status();
    let body: LoginAnswer = answer.json().await.with_context(|| {
        format!("the log-in at {url} answered {code} without Betfair's log-in JSON")
    })?;
    anyhow::ensure!(
        body.status == "SUCCESS" && !body.token.is_empty(),
        "the log-in at {url} as {} was refused: {} {}",
        login.user,
        body.status,
        body.error
    );
    Ok(body.token)
}
