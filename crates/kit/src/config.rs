//! Server configuration. The `backlay` binary fills it from flags and their environment twins
//! (ARCHITECTURE.md §9); tests build it directly.

use std::net::SocketAddr;
use std::path::PathBuf;

use backlay_casino::dealing::Pace;

use crate::secret_key::SecretKeySource;
use crate::throttle::ThrottlePolicy;

pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/backlay.db";
pub const DEFAULT_WEB_DIR: &str = "web/dist";
/// How long a log-in lasts.
pub const DEFAULT_SESSION_TTL_MS: i64 = 24 * 60 * 60 * 1000;
/// How long a connection may take to send a request's headers (and stay idle between requests).
pub const DEFAULT_HEADER_TIMEOUT_S: u64 = 10;
/// How long a request's body may take to arrive, from the end of its headers.
pub const DEFAULT_BODY_TIMEOUT_S: u64 = 10;
/// Connections served at once; more wait in the listen queue.
pub const DEFAULT_MAX_CONNECTIONS: usize = 4096;
/// How long shutdown waits for requests in flight before it closes what is left.
pub const DEFAULT_SHUTDOWN_GRACE_S: u64 = 10;
/// How long a node of a cluster stays alive to the others without renewing its lease
/// (`cluster`): a dead node's markets move within about this.
pub const DEFAULT_CLUSTER_LEASE_MS: i64 = 3_000;
/// The Betfair-compatible stream's port when only `--addr` is given: beside the HTTP port's
/// host, on the port HTTPS alternates usually take.
pub const DEFAULT_BETFAIR_STREAM_PORT: u16 = 8443;

/// Backups the server takes by itself: one every `every` into `dir`, the newest `keep` kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupSchedule {
    pub dir: PathBuf,
    pub every: std::time::Duration,
    pub keep: usize,
}

/// How many times a round's stakes a game provider may credit it, unless configured: more
/// than any game of the built-in provider or the usual slot pays (roulette's straight up pays
/// 36 times the stake).
pub const DEFAULT_PROVIDER_MAX_WIN_MULTIPLE: i64 = 1_000;

/// The casino runner's default betting window (`backlay_casino_runtime::runner`).
pub const DEFAULT_BETTING_WINDOW_MS: i64 = 30_000;
/// The casino runner's default time a result stays on the table before the next round opens:
/// long enough to read the winner and one's own win.
pub const DEFAULT_RESULT_PAUSE_MS: i64 = 10_000;

/// The Betfair-compatible Exchange Stream (`backlay_betfair::stream`): a TLS listener of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetfairStreamConfig {
    /// Where it listens (port 0 picks one).
    pub addr: SocketAddr,
    /// The operator's certificate chain and private key (PEM). Both or neither: with neither,
    /// a self-signed pair is made at first start and kept (`betfair::stream::tls`).
    pub cert_file: Option<PathBuf>,
    pub key_file: Option<PathBuf>,
    /// The address is the default, not one the operator gave: when it cannot be bound (another
    /// server on this machine has it), the server starts without the stream and says so,
    /// rather than not at all.
    pub default_addr: bool,
}

/// `Debug` prints the database URL without its password (the secret key source prints no key).
#[derive(Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub database_url: String,
    /// The built web app (`index.html` and its assets).
    pub web_dir: PathBuf,
    pub session_ttl_ms: i64,
    /// Take the client address from `X-Forwarded-For` (only behind a proxy you run).
    pub trust_forwarded_for: bool,
    /// With `trust_forwarded_for`: how many proxies of yours append to `X-Forwarded-For`; the
    /// client's address is that many entries from the right (`session::ClientIp`).
    pub trusted_proxy_hops: usize,
    pub throttle: ThrottlePolicy,
    /// The clock safer gambling's rules read (a limit's cooling-off, a break's end): the wall
    /// clock; tests keep a clone and move it forward instead of waiting a day.
    pub clock: crate::clock::Clock,
    /// Run the in-house casino's rounds (`casino::runner`): on with the demo in the binary;
    /// tests choose.
    pub casino: bool,
    /// How long a casino round takes bets (tests shorten it).
    pub casino_betting_window_ms: i64,
    /// How long a casino result stays on the table before the next round opens.
    pub casino_result_pause_ms: i64,
    /// How fast a closed round's cards are dealt before the result (`backlay_casino::dealing`).
    pub casino_deal_pace: Pace,
    /// Run only these casino games (client or rules codes); empty: every active game.
    pub casino_games: Vec<String>,
    /// The most a game provider may credit a round, as a multiple of what it debited in it
    /// (`--provider-max-win-multiple`): a leaked provider secret cannot mint chips past it.
    pub provider_max_win_multiple: i64,
    /// The origin browsers reach this server at (`https://bet.example.com`), where the
    /// built-in casino provider's pages are served and framed from. `None`: `http://` and the
    /// address the server bound (fine on one machine; set it behind a proxy or on 0.0.0.0).
    pub public_url: Option<String>,
    /// A bearer token Prometheus scrapes `GET /metrics` with (`--metrics-token`); without one,
    /// only an admin's session reads it.
    pub metrics_token: Option<String>,
    /// Backups the server takes by itself (`--backup-every`); `None`: none.
    pub backups: Option<BackupSchedule>,
    /// A connection must send a request's headers within this (the first request, and each
    /// next one on a kept-alive connection, so it also closes idle connections).
    pub header_timeout_ms: u64,
    /// A request's body must arrive whole within this after its headers.
    pub body_timeout_ms: u64,
    /// Connections served at once; further ones wait in the listen queue until one closes.
    pub max_connections: usize,
    /// At shutdown, how long requests in flight may take to finish before their connections
    /// are closed (live streams end at once).
    pub shutdown_grace_ms: u64,
    /// The key that seals TOTP and providers' secrets in the database (`secret_key`), and the
    /// calls between the nodes of a cluster.
    pub secret_key: SecretKeySource,
    /// On PostgreSQL (a cluster of one or more nodes): the base URL the other nodes reach this
    /// one at, to send it the calls of the markets it owns. `None`: `http://` and the address
    /// the server bound (right when that is not 0.0.0.0).
    pub node_url: Option<String>,
    /// On PostgreSQL: the node's lease (`cluster`).
    pub cluster_lease_ms: i64,
    /// On PostgreSQL: the most connections the server's pools open (a third for writes); the
    /// live relay takes 3 more. Every node of a cluster has its own, within PostgreSQL's
    /// `max_connections`.
    pub database_connections: u32,
    /// The Betfair-compatible Exchange Stream; `None`: not served. The binary serves it by
    /// default (`--betfair-stream-addr`); tests that want it ask.
    pub betfair_stream: Option<BetfairStreamConfig>,
    /// Upstream feeds of events, markets, prices and scores (`--feed`, crates/feed-runtime);
    /// `None`: none.
    pub feed: Option<FeedConfig>,
}

/// Where an upstream feed reads from (`--feed SPEC`).
#[derive(Clone, Debug, PartialEq)]
pub enum FeedSource {
    /// `betfair-file:PATH`: a recorded Exchange Stream, a file or a folder of them.
    BetfairFile(PathBuf),
    /// `betfair-stream:HOST:PORT`: a live Exchange Stream over TLS (Betfair's, or another
    /// Backlay's), reached as [`FeedConfig::stream`] says.
    BetfairStream { host: String, port: u16 },
}

const FEED_SPECS: &str = "betfair-file:PATH (a recorded Exchange Stream file or folder) or betfair-stream:HOST:PORT (a live Exchange Stream)";

impl FeedSource {
    /// Reads a `--feed` spec.
    pub fn parse(spec: &str) -> Result<FeedSource, String> {
        let spec = spec.trim();
        match spec.split_once(':') {
            Some(("betfair-file", path)) if !path.trim().is_empty() => {
                Ok(FeedSource::BetfairFile(PathBuf::from(path.trim())))
            }
            Some(("betfair-file", _)) => {
                Err("betfair-file: needs the recording's path, as betfair-file:PATH".into())
            }
            Some(("betfair-stream", address)) => {
                let address = address.trim();
                let (host, port) = address
                    .rsplit_once(':')
                    .and_then(|(host, port)| Some((host, port.parse::<u16>().ok()?)))
                    .filter(|(host, port)| !host.is_empty() && *port > 0)
                    .ok_or_else(|| {
                        format!(
                            "betfair-stream:{address} needs the stream's host and port, as betfair-stream:stream-api.betfair.com:443"
                        )
                    })?;
                let host = host.trim_start_matches('[').trim_end_matches(']').to_owned();
                Ok(FeedSource::BetfairStream { host, port })
            }
            _ => Err(format!("{spec:?} is not a feed: give {FEED_SPECS}")),
        }
    }

    /// The spec it was read from, as the feed's figures show it.
    pub fn spec(&self) -> String {
        match self {
            FeedSource::BetfairFile(path) => format!("betfair-file:{}", path.display()),
            FeedSource::BetfairStream { host, port } if host.contains(':') => {
                format!("betfair-stream:[{host}]:{port}")
            }
            FeedSource::BetfairStream { host, port } => format!("betfair-stream:{host}:{port}"),
        }
    }
}

/// How a feed reaches a live Exchange Stream (every `betfair-stream:` source).
#[derive(Clone, Default, PartialEq)]
pub struct StreamAccess {
    /// Sent as `appKey` in the stream's authentication and `X-Application` at log-in.
    pub app_key: String,
    /// A session token to authenticate with (`--feed-session-token`).
    pub session_token: Option<String>,
    /// Or a log-in: user, password and the identity service's URL (its `login` is posted to).
    pub login: Option<StreamLogin>,
    /// Which markets to subscribe to (`--feed-markets`).
    pub markets: StreamMarketFilter,
    /// Extra certificates (PEM) to trust besides the system's, such as another Backlay's
    /// self-signed stream certificate (`--feed-ca`).
    pub ca_files: Vec<PathBuf>,
    /// Asked of the upstream: a heartbeat after this long without a change (500–5000 ms).
    pub heartbeat_ms: u32,
    /// Asked of the upstream: changes within this long sent as one (0–120000 ms).
    pub conflate_ms: u32,
}

impl StreamAccess {
    /// What a live stream needs that is not given (an application key, and a session token or
    /// a log-in), in the flags' words; `None` when a stream can be reached.
    pub fn missing(&self) -> Option<&'static str> {
        if self.app_key.is_empty() {
            return Some("--feed-app-key (the application key to reach it with)");
        }
        if self.session_token.is_none() && self.login.is_none() {
            return Some(
                "--feed-session-token, or --feed-user, --feed-password and --feed-identity-url to log in",
            );
        }
        None
    }
}

impl std::fmt::Debug for StreamAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamAccess")
            .field("app_key", &self.app_key)
            .field("session_token", &self.session_token.as_ref().map(|_| "<secret>"))
            .field("login", &self.login)
            .field("markets", &self.markets)
            .field("ca_files", &self.ca_files)
            .field("heartbeat_ms", &self.heartbeat_ms)
            .field("conflate_ms", &self.conflate_ms)
            .finish()
    }
}

/// A log-in to the upstream's identity service for a session token.
#[derive(Clone, PartialEq)]
pub struct StreamLogin {
    pub user: String,
    pub password: String,
    /// Ends with `/`; `login` is posted to it (Betfair's interactive log-in, as
    /// betfairlightweight's `login_interactive`).
    pub identity_url: String,
}

impl std::fmt::Debug for StreamLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamLogin")
            .field("user", &self.user)
            .field("password", &"<secret>")
            .field("identity_url", &self.identity_url)
            .finish()
    }
}

/// The stream's `marketFilter` (`--feed-markets`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamMarketFilter {
    pub market_ids: Vec<String>,
    pub event_type_ids: Vec<String>,
    pub market_types: Vec<String>,
    pub country_codes: Vec<String>,
}

impl StreamMarketFilter {
    /// Reads `--feed-markets` items, each told apart by its form: `1.234` a market id, `7` an
    /// event type id, `GB` (two capitals) a country, `WIN` or `MATCH_ODDS` a market type.
    pub fn parse(items: &[String]) -> Result<StreamMarketFilter, String> {
        let mut filter = StreamMarketFilter::default();
        for item in items.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
            let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            let is_upper = |b: u8| b.is_ascii_uppercase() || b == b'_';
            match item.split_once('.') {
                Some((left, right)) if digits(left) && digits(right) => {
                    filter.market_ids.push(item.to_owned())
                }
                None if digits(item) => filter.event_type_ids.push(item.to_owned()),
                None if item.len() == 2 && item.bytes().all(|b| b.is_ascii_uppercase()) => {
                    filter.country_codes.push(item.to_owned())
                }
                None if item.bytes().all(is_upper) => filter.market_types.push(item.to_owned()),
                _ => {
                    return Err(format!(
                        "{item:?} is not a market id (1.234), an event type id (7), a country (GB) or a market type (WIN)"
                    ))
                }
            }
        }
        Ok(filter)
    }

    pub fn is_empty(&self) -> bool {
        self.market_ids.is_empty()
            && self.event_type_ids.is_empty()
            && self.market_types.is_empty()
            && self.country_codes.is_empty()
    }
}

/// When a feed's market closes with its winners, who settles it (`--feed-settle`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FeedSettle {
    /// At once, by the same settlement as a trader's result.
    #[default]
    Auto,
    /// Held, suspended, for an operator to declare the result the feed gave.
    Confirm,
}

/// The feeds a server runs, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct FeedConfig {
    /// Every source; the recordings among them play as one timeline in publish-time order.
    pub sources: Vec<FeedSource>,
    /// Recordings' pace: 1 the recorded pace, 10 ten times faster, 0 as fast as they can go.
    pub speed: f64,
    /// Stop recordings before the first message published after this (`pt`, ms).
    pub until_pt: Option<i64>,
    /// `listMarketCatalogue` answers (JSON files) naming markets and runners.
    pub catalogues: Vec<PathBuf>,
    pub settle: FeedSettle,
    /// The house offers the upstream's sizes scaled by this percentage (1–1000).
    pub size_percent: u32,
    /// The most the house offers at one price (minor units); `None`: no cap.
    pub max_level_minor: Option<i64>,
    /// Chips minted for the house account when the feed first makes it (minor units).
    pub bankroll_minor: i64,
    /// The most the house may stand to lose in one market (minor units); `None`: no cap.
    pub max_exposure_minor: Option<i64>,
    /// Each mirrored match-odds market also gets a bookmaker market whose rates follow the
    /// upstream's best prices, widened by this percentage; `None`: no bookmaker markets.
    pub bookmaker_margin_percent: Option<u32>,
    /// How the live streams among the sources are reached.
    pub stream: StreamAccess,
    /// A live stream silent (not even a heartbeat) this long has its markets suspended here
    /// until it speaks again.
    pub silence: std::time::Duration,
}

/// `--feed-silence`'s default, in seconds.
pub const DEFAULT_FEED_SILENCE_SECS: u64 = 15;

/// `--feed-bankroll`'s default: 1,00,00,000.00.
pub const DEFAULT_FEED_BANKROLL_MINOR: i64 = 1_00_00_000_00;

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("database_url", &backlay_store::url_without_password(&self.database_url))
            .field("web_dir", &self.web_dir)
            .field("session_ttl_ms", &self.session_ttl_ms)
            .field("trust_forwarded_for", &self.trust_forwarded_for)
            .field("trusted_proxy_hops", &self.trusted_proxy_hops)
            .field("throttle", &self.throttle)
            .field("casino", &self.casino)
            .field("casino_betting_window_ms", &self.casino_betting_window_ms)
            .field("casino_result_pause_ms", &self.casino_result_pause_ms)
            .field("casino_deal_pace", &self.casino_deal_pace)
            .field("casino_games", &self.casino_games)
            .field("provider_max_win_multiple", &self.provider_max_win_multiple)
            .field("public_url", &self.public_url)
            .field("metrics_token", &self.metrics_token.as_ref().map(|_| "<redacted>"))
            .field("backups", &self.backups)
            .field("header_timeout_ms", &self.header_timeout_ms)
            .field("body_timeout_ms", &self.body_timeout_ms)
            .field("max_connections", &self.max_connections)
            .field("shutdown_grace_ms", &self.shutdown_grace_ms)
            .field("secret_key", &self.secret_key)
            .field("node_url", &self.node_url)
            .field("cluster_lease_ms", &self.cluster_lease_ms)
            .field("database_connections", &self.database_connections)
            .field("betfair_stream", &self.betfair_stream)
            .field("feed", &self.feed)
            .finish()
    }
}

/// Checks a public URL: `http(s)://host[:port]`, no path, query or credentials; answers it
/// without a trailing `/`.
pub fn parse_public_url(text: &str) -> Result<String, String> {
    let url = text.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| format!("{text:?} is not a public URL such as https://bet.example.com (http or https, no path)"))?;
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) if !rest.ends_with(']') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = !host.is_empty()
        && (host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            || (host.starts_with('[')
                && host.ends_with(']')
                && host[1..host.len() - 1].chars().all(|c| c.is_ascii_hexdigit() || c == ':')));
    if !host_ok || port.is_some_and(|p| p.parse::<u16>().is_err()) {
        return Err(format!(
            "{text:?} is not a public URL such as https://bet.example.com (http or https, no path)"
        ));
    }
    Ok(url.to_lowercase())
}

impl Config {
    /// Defaults for everything but the database.
    pub fn with_database(database_url: impl Into<String>) -> Config {
        Config {
            addr: DEFAULT_ADDR.parse().expect("valid default address"),
            database_url: database_url.into(),
            web_dir: PathBuf::from(DEFAULT_WEB_DIR),
            session_ttl_ms: DEFAULT_SESSION_TTL_MS,
            trust_forwarded_for: false,
            trusted_proxy_hops: 1,
            throttle: ThrottlePolicy::default(),
            clock: crate::clock::Clock::default(),
            casino: false,
            casino_betting_window_ms: DEFAULT_BETTING_WINDOW_MS,
            casino_result_pause_ms: DEFAULT_RESULT_PAUSE_MS,
            casino_deal_pace: Pace::DEFAULT,
            casino_games: Vec::new(),
            provider_max_win_multiple: DEFAULT_PROVIDER_MAX_WIN_MULTIPLE,
            public_url: None,
            metrics_token: None,
            backups: None,
            header_timeout_ms: DEFAULT_HEADER_TIMEOUT_S * 1000,
            body_timeout_ms: DEFAULT_BODY_TIMEOUT_S * 1000,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            shutdown_grace_ms: DEFAULT_SHUTDOWN_GRACE_S * 1000,
            secret_key: SecretKeySource::BesideDatabase,
            node_url: None,
            cluster_lease_ms: DEFAULT_CLUSTER_LEASE_MS,
            database_connections: backlay_store::DEFAULT_POSTGRES_CONNECTIONS,
            betfair_stream: None,
            feed: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        parse_public_url, Config, FeedConfig, FeedSettle, FeedSource, StreamAccess, StreamLogin,
        StreamMarketFilter,
    };
    use crate::secret_key::SecretKeySource;

    #[test]
    fn feed_specs_read_files_and_streams() {
        assert_eq!(
            FeedSource::parse(" betfair-file:tests/feeds/x.bz2 ").unwrap(),
            FeedSource::BetfairFile("tests/feeds/x.bz2".into())
        );
        let stream = FeedSource::parse("betfair-stream:stream-api.betfair.com:443").unwrap();
        assert_eq!(
            stream,
            FeedSource::BetfairStream { host: "stream-api.betfair.com".into(), port: 443 }
        );
        assert_eq!(stream.spec(), "betfair-stream:stream-api.betfair.com:443");
        let v6 = FeedSource::parse("betfair-stream:[::1]:8443").unwrap();
        assert_eq!(v6, FeedSource::BetfairStream { host: "::1".into(), port: 8443 });
        assert_eq!(v6.spec(), "betfair-stream:[::1]:8443");
        for bad in [
            "betfair-stream:host",
            "betfair-stream::443",
            "betfair-stream:h:0",
            "betfair-stream:h:x",
        ] {
            let err = FeedSource::parse(bad).unwrap_err();
            assert!(err.contains("host and port"), "{bad}: {err}");
        }
        assert!(FeedSource::parse("http://x").unwrap_err().contains("betfair-stream:HOST:PORT"));
    }

    #[test]
    fn market_filters_tell_ids_types_and_countries_apart() {
        let items: Vec<String> =
            ["1.23", "7", "GB", "WIN", " MATCH_ODDS", ""].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            StreamMarketFilter::parse(&items).unwrap(),
            StreamMarketFilter {
                market_ids: vec!["1.23".into()],
                event_type_ids: vec!["7".into()],
                market_types: vec!["WIN".into(), "MATCH_ODDS".into()],
                country_codes: vec!["GB".into()],
            }
        );
        for bad in ["1.2.3", "win", "1.x", "G-B"] {
            assert!(StreamMarketFilter::parse(&[bad.to_string()]).is_err(), "{bad}");
        }
        assert!(StreamMarketFilter::parse(&[]).unwrap().is_empty());
    }

    #[test]
    fn debug_prints_no_feed_password_or_session() {
        let mut config = Config::with_database("sqlite://x.db");
        config.feed = Some(FeedConfig {
            sources: vec![FeedSource::BetfairStream { host: "h".into(), port: 1 }],
            speed: 1.0,
            until_pt: None,
            catalogues: Vec::new(),
            settle: FeedSettle::Auto,
            size_percent: 100,
            max_level_minor: None,
            bankroll_minor: 1,
            max_exposure_minor: None,
            bookmaker_margin_percent: None,
            stream: StreamAccess {
                app_key: "key".into(),
                session_token: Some("tok-3nTr0py".into()),
                login: Some(StreamLogin {
                    user: "mirror".into(),
                    password: "pa55-w0rd".into(),
                    identity_url: "https://id/".into(),
                }),
                ..StreamAccess::default()
            },
            silence: std::time::Duration::from_secs(15),
        });
        let printed = format!("{config:?}");
        assert!(!printed.contains("tok-3nTr0py") && !printed.contains("pa55-w0rd"), "{printed}");
        assert!(printed.contains("mirror"), "{printed}");
    }

    #[test]
    fn debug_prints_no_password_and_no_key() {
        let mut config = Config::with_database("postgres://backlay:s3cret@db:5432/backlay");
        config.secret_key = SecretKeySource::Text("a2V5LW1hdGVyaWFs".into());
        let printed = format!("{config:?}");
        assert!(!printed.contains("s3cret"), "{printed}");
        assert!(!printed.contains("a2V5LW1hdGVyaWFs"), "{printed}");
        assert!(printed.contains("postgres://backlay:***@db:5432/backlay"), "{printed}");
    }

    #[test]
    fn public_urls_are_origins() {
        assert_eq!(
            parse_public_url("https://Bet.Example.com/").unwrap(),
            "https://bet.example.com"
        );
        assert_eq!(parse_public_url("http://127.0.0.1:8080").unwrap(), "http://127.0.0.1:8080");
        assert_eq!(parse_public_url("http://[::1]:8080").unwrap(), "http://[::1]:8080");
        assert!(parse_public_url("bet.example.com").is_err());
        assert!(parse_public_url("https://bet.example.com/path").is_err());
        assert!(parse_public_url("https://user@bet.example.com").is_err());
        assert!(parse_public_url("https://bet.example.com:99999").is_err());
    }
}
