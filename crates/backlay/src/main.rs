//! `backlay`: the exchange server and its operator console.
//!
//! ```text
//! backlay serve            start the server (API, web app), migrating and seeding as needed
//! backlay migrate          apply database migrations and exit
//! backlay admin …          operator actions straight on the database (create users, chips …)
//! backlay casino verify …  recompute a casino round from its revealed seed
//! backlay openapi          print the API's OpenAPI document (as /api/openapi.json serves it)
//! ```
//! Every flag has an environment twin (`BACKLAY_ADDR`, `DATABASE_URL`, `BACKLAY_DEMO`,
//! `BACKLAY_DEMO_FEED`, `BACKLAY_WEB_DIR`, `BACKLAY_PUBLIC_URL` …); see `backlay help serve`.
//! The twins of on/off flags all take 1/0, true/false, yes/no or on/off, in any case.

mod admin;
mod casino;
mod feed;
mod market;
mod open_files;

use std::net::SocketAddr;
use std::path::PathBuf;

use backlay_casino::dealing::Pace;
use backlay_demo::{Demo, DEMO_LOGINS};
use backlay_kit::config::{
    BetfairStreamConfig, DEFAULT_ADDR, DEFAULT_BETFAIR_STREAM_PORT, DEFAULT_BODY_TIMEOUT_S,
    DEFAULT_DATABASE_URL, DEFAULT_HEADER_TIMEOUT_S, DEFAULT_MAX_CONNECTIONS,
    DEFAULT_SHUTDOWN_GRACE_S, DEFAULT_WEB_DIR,
};
use backlay_kit::config::{
    Config, FeedConfig, FeedSettle, FeedSource, StreamAccess, StreamLogin, StreamMarketFilter,
};
use backlay_kit::secret_key::SecretKeySource;
use backlay_server::Server;
use backlay_store::{url_without_password, Engine, Store};
use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "backlay",
    version,
    about = "Backlay betting exchange: server and operator console"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start the server: JSON API under /api, the web app at /.
    Serve(Box<ServeArgs>),
    /// Apply database migrations and exit.
    Migrate(DatabaseArgs),
    /// Operator actions on the database (no server needed).
    Admin(admin::AdminArgs),
    /// The in-house casino: recompute a round from its revealed seed.
    Casino(casino::CasinoArgs),
    /// Recorded Exchange Stream files: what they hold at a moment.
    Feed(feed::FeedArgs),
    /// Print the API's OpenAPI document, as /api/openapi.json serves it (no database needed).
    Openapi,
}

#[derive(Args, Clone)]
pub struct DatabaseArgs {
    /// sqlite://path/to/file.db (created when missing) or postgres://user@host/db.
    // hide_env_values: `--help` would otherwise print the URL it found, password and all.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    pub database_url: String,
}

/// The key that seals TOTP secrets and providers' signing secrets in the database. The key may
/// also be given in the environment as BACKLAY_SECRET_KEY (base64; several comma-separated, the
/// first sealing).
#[derive(Args, Clone)]
pub struct SecretKeyArgs {
    /// The secret key file (default for SQLite: beside the database, e.g. data/backlay.key,
    /// created on first start; PostgreSQL needs this or BACKLAY_SECRET_KEY).
    #[arg(long, env = "BACKLAY_SECRET_KEY_FILE")]
    pub secret_key_file: Option<PathBuf>,
    /// Create the --secret-key-file when it does not exist yet (env BACKLAY_CREATE_SECRET_KEY=1/0).
    #[arg(long)]
    pub create_secret_key: bool,
}

impl SecretKeyArgs {
    pub fn source(&self) -> anyhow::Result<SecretKeySource> {
        let create =
            switch(self.create_secret_key, false, "BACKLAY_CREATE_SECRET_KEY")?.unwrap_or(false);
        let text = std::env::var("BACKLAY_SECRET_KEY").ok().filter(|text| !text.trim().is_empty());
        match (&self.secret_key_file, text) {
            (Some(_), Some(_)) => anyhow::bail!("give the secret key one way: --secret-key-file (BACKLAY_SECRET_KEY_FILE) or BACKLAY_SECRET_KEY, not both"),
            (None, _) if create => anyhow::bail!("--create-secret-key (BACKLAY_CREATE_SECRET_KEY) needs --secret-key-file: where to create the key"),
            (Some(path), None) => Ok(SecretKeySource::File { path: path.clone(), create }),
            (None, Some(text)) => Ok(SecretKeySource::Text(text)),
            (None, None) => Ok(SecretKeySource::BesideDatabase),
        }
    }
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "BACKLAY_ADDR", default_value = DEFAULT_ADDR)]
    addr: SocketAddr,
    #[command(flatten)]
    database: DatabaseArgs,
    #[command(flatten)]
    secret_key: SecretKeyArgs,
    /// Seed demo data into an empty database (default: on for the embedded SQLite database;
    /// env BACKLAY_DEMO=1/0).
    #[arg(long, overrides_with = "no_demo")]
    demo: bool,
    /// Never seed demo data.
    #[arg(long)]
    no_demo: bool,
    /// Run the demo feed: matches played ball by ball, the market-maker quoting, races run,
    /// results settled (default: on whenever the demo is; env BACKLAY_DEMO_FEED=1/0).
    #[arg(long, overrides_with = "no_demo_feed")]
    demo_feed: bool,
    /// Never run the demo feed (the demo data stays as seeded).
    #[arg(long)]
    no_demo_feed: bool,
    /// How many times faster than real time the demo feed runs.
    #[arg(long, env = "BACKLAY_DEMO_FEED_SPEED", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=3600))]
    demo_feed_speed: u32,
    /// Run the in-house casino's rounds (default: on whenever the demo is; env BACKLAY_CASINO=1/0).
    #[arg(long, overrides_with = "no_casino")]
    casino: bool,
    /// Never run casino rounds.
    #[arg(long)]
    no_casino: bool,
    /// How long a casino round takes bets, in seconds.
    #[arg(long, env = "BACKLAY_CASINO_WINDOW_SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(5..=600))]
    casino_window_seconds: u32,
    /// How long a casino result stays on the table before the next round opens, in seconds.
    #[arg(long, env = "BACKLAY_CASINO_RESULT_SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=120))]
    casino_result_seconds: u32,
    /// The time between two cards while a casino round is dealt, in milliseconds (a whole
    /// deal takes at most 9 s: long deals go faster).
    #[arg(long, env = "BACKLAY_CASINO_CARD_MS", default_value_t = 1_200, value_parser = clap::value_parser!(u32).range(100..=5_000))]
    casino_card_ms: u32,
    /// The most a game provider may credit a round, as a multiple of the stakes it debited in
    /// it: a credit past it is refused (`credit_over_limit`) and logged as an error.
    #[arg(long, env = "BACKLAY_PROVIDER_MAX_WIN_MULTIPLE", default_value_t = backlay_kit::config::DEFAULT_PROVIDER_MAX_WIN_MULTIPLE, value_parser = clap::value_parser!(i64).range(1..=1_000_000))]
    provider_max_win_multiple: i64,
    /// The built web app.
    #[arg(long, env = "BACKLAY_WEB_DIR", default_value = DEFAULT_WEB_DIR)]
    web_dir: PathBuf,
    /// How long a log-in lasts, in hours.
    #[arg(long, env = "BACKLAY_SESSION_TTL_HOURS", default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..=720))]
    session_ttl_hours: u32,
    /// Take client addresses from X-Forwarded-For (only behind your own reverse proxy): the
    /// right-most entry, the one your proxy appended (env BACKLAY_TRUST_FORWARDED_FOR=1/0).
    #[arg(long)]
    trust_forwarded_for: bool,
    /// With --trust-forwarded-for: how many proxies of yours, one behind the other, append to
    /// X-Forwarded-For; the client's address is that many entries from the right.
    #[arg(long, env = "BACKLAY_TRUSTED_PROXY_HOPS", value_parser = clap::value_parser!(u8).range(1..=16))]
    trusted_proxy_hops: Option<u8>,
    /// The origin browsers reach this server at (https://bet.example.com), where the built-in
    /// casino provider's games are served and framed from (default: http://<addr>).
    #[arg(long, env = "BACKLAY_PUBLIC_URL", value_parser = public_url)]
    public_url: Option<String>,
    /// The bearer token Prometheus scrapes `GET /metrics` with (at least 32 characters; keep it
    /// secret). Without it only an admin's session reads the metrics.
    #[arg(long, env = "BACKLAY_METRICS_TOKEN", value_parser = metrics_token, hide_env_values = true)]
    metrics_token: Option<String>,
    /// Take a backup every this many minutes (as `backlay admin backup`), into --backup-dir.
    #[arg(long, env = "BACKLAY_BACKUP_EVERY", value_parser = clap::value_parser!(u32).range(1..=10_080))]
    backup_every: Option<u32>,
    /// Where scheduled backups go (default: `backups` beside a SQLite database; PostgreSQL
    /// needs it).
    #[arg(long, env = "BACKLAY_BACKUP_DIR")]
    backup_dir: Option<std::path::PathBuf>,
    /// How many scheduled backups to keep (the oldest beyond are deleted).
    #[arg(long, env = "BACKLAY_BACKUP_KEEP", default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    backup_keep: u32,
    /// Seconds a connection may take to send a request's headers; also how long a kept-alive
    /// connection may stay idle between requests.
    #[arg(long, env = "BACKLAY_HEADER_TIMEOUT_SECONDS", default_value_t = DEFAULT_HEADER_TIMEOUT_S, value_parser = clap::value_parser!(u64).range(1..=300))]
    header_timeout_seconds: u64,
    /// Seconds a request's body may take to arrive whole, from the end of its headers.
    #[arg(long, env = "BACKLAY_BODY_TIMEOUT_SECONDS", default_value_t = DEFAULT_BODY_TIMEOUT_S, value_parser = clap::value_parser!(u64).range(1..=300))]
    body_timeout_seconds: u64,
    /// Connections served at once; more wait in the listen queue. Set `ulimit -n` to at least
    /// twice this plus 256 (lowered to fit the open-files limit, with a warning).
    #[arg(long, env = "BACKLAY_MAX_CONNECTIONS", default_value_t = DEFAULT_MAX_CONNECTIONS as u64, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,
    /// Seconds shutdown waits for requests in flight before it closes their connections (live
    /// streams end at once).
    #[arg(long, env = "BACKLAY_SHUTDOWN_GRACE_SECONDS", default_value_t = DEFAULT_SHUTDOWN_GRACE_S, value_parser = clap::value_parser!(u64).range(0..=300))]
    shutdown_grace_seconds: u64,
    /// On PostgreSQL, where the other servers of the cluster reach this one (http://10.0.0.5:8080;
    /// default: http://<addr>). Give it when --addr is 0.0.0.0.
    #[arg(long, env = "BACKLAY_NODE_URL", value_parser = public_url)]
    node_url: Option<String>,
    /// On PostgreSQL, milliseconds a server of the cluster stays alive to the others without
    /// renewing its lease: a dead server's markets move to the others within about this.
    #[arg(long, env = "BACKLAY_CLUSTER_LEASE_MS", default_value_t = backlay_kit::config::DEFAULT_CLUSTER_LEASE_MS, value_parser = clap::value_parser!(i64).range(1000..=60000))]
    cluster_lease_ms: i64,
    /// On PostgreSQL, the most database connections this server opens (a third of them for
    /// writes), plus 3 for live data across the cluster. Keep the sum over every node under
    /// PostgreSQL's max_connections.
    #[arg(long, env = "BACKLAY_DATABASE_CONNECTIONS", default_value_t = backlay_store::DEFAULT_POSTGRES_CONNECTIONS, value_parser = clap::value_parser!(u32).range(i64::from(backlay_store::MIN_POSTGRES_CONNECTIONS)..=1000))]
    database_connections: u32,
    /// Where the Betfair-compatible Exchange Stream (TLS) listens: host:port, or `off`
    /// (default: --addr's host on port 8443, or on a free port when --addr's port is 0; when
    /// that default is taken, the server starts without the stream and says so).
    #[arg(long, env = "BACKLAY_BETFAIR_STREAM_ADDR")]
    betfair_stream_addr: Option<String>,
    /// The stream's certificate chain (PEM); with --betfair-stream-key. Without both, a
    /// self-signed pair is made at first start and kept beside the database (SQLite) or the
    /// secret key file (PostgreSQL).
    #[arg(long, env = "BACKLAY_BETFAIR_STREAM_CERT")]
    betfair_stream_cert: Option<PathBuf>,
    /// The stream's private key (PEM); with --betfair-stream-cert.
    #[arg(long, env = "BACKLAY_BETFAIR_STREAM_KEY")]
    betfair_stream_key: Option<PathBuf>,
    /// An upstream feed of events, markets, prices and scores: betfair-file:PATH, a recorded
    /// Betfair Exchange Stream (plain, .gz or .bz2; a file or a folder). Repeatable; several
    /// recordings play as one timeline in publish-time order. The markets they hold are made
    /// here, move as upstream and are settled with the recorded result (docs/operating.md).
    #[arg(long = "feed", env = "BACKLAY_FEED", value_delimiter = ',')]
    feeds: Vec<String>,
    /// A recording's pace: 1 as recorded, 10 ten times faster, 0 as fast as it goes.
    #[arg(long, env = "BACKLAY_FEED_SPEED", default_value_t = 1.0)]
    feed_speed: f64,
    /// Stop the recordings before the first message published after this moment (their
    /// `pt`, ms since the epoch), leaving every market as it was then.
    #[arg(long, env = "BACKLAY_FEED_UNTIL_PT")]
    feed_until_pt: Option<i64>,
    /// listMarketCatalogue answers (JSON files or folders) naming the feed's markets and runners.
    #[arg(long = "feed-catalogue", env = "BACKLAY_FEED_CATALOGUE", value_delimiter = ',')]
    feed_catalogues: Vec<PathBuf>,
    /// Who settles a feed's market when it closes with its winners: `auto` (at once) or
    /// `confirm` (suspended, for an operator to declare the result).
    #[arg(long, env = "BACKLAY_FEED_SETTLE", default_value = "auto")]
    feed_settle: String,
    /// The house offers the upstream's sizes scaled by this percentage.
    #[arg(long, env = "BACKLAY_FEED_SIZE_PERCENT", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1000))]
    feed_size_percent: u32,
    /// The most the house offers at one price, in rupees (default: no cap).
    #[arg(long, env = "BACKLAY_FEED_MAX_LEVEL_SIZE")]
    feed_max_level_size: Option<String>,
    /// Chips minted for the feed's house account when it is first made, in rupees.
    #[arg(long, env = "BACKLAY_FEED_BANKROLL", default_value = "10000000")]
    feed_bankroll: String,
    /// The most the feed's house may stand to lose in one market, in rupees (its resting
    /// orders counted as matched); it quotes no more there once it is reached (default: no cap).
    #[arg(long, env = "BACKLAY_FEED_MAX_EXPOSURE")]
    feed_max_exposure: Option<String>,
    /// Each mirrored match-odds market also gets a bookmaker market whose rates follow the
    /// upstream's best prices ((price − 1) × 100), widened by this margin in percent (0–50).
    #[arg(long, env = "BACKLAY_FEED_BOOKMAKER_MARGIN", value_parser = clap::value_parser!(u32).range(0..=50))]
    feed_bookmaker_margin: Option<u32>,
    /// A live stream (betfair-stream:HOST:PORT): the application key it is reached with.
    #[arg(long, env = "BACKLAY_FEED_APP_KEY")]
    feed_app_key: Option<String>,
    /// A live stream: a session token to authenticate with (or log in with --feed-user).
    #[arg(long, env = "BACKLAY_FEED_SESSION_TOKEN", hide_env_values = true)]
    feed_session_token: Option<String>,
    /// A live stream: the account to log in with at --feed-identity-url for a session token.
    #[arg(long, env = "BACKLAY_FEED_USER")]
    feed_user: Option<String>,
    /// A live stream: --feed-user's password.
    #[arg(long, env = "BACKLAY_FEED_PASSWORD", hide_env_values = true)]
    feed_password: Option<String>,
    /// A live stream: the identity service whose `login` gives the session token
    /// (https://identitysso.betfair.com/api/ for Betfair, http://HOST:PORT/betfair/identity/
    /// for another Backlay).
    #[arg(long, env = "BACKLAY_FEED_IDENTITY_URL")]
    feed_identity_url: Option<String>,
    /// A live stream: the markets to mirror, by market id (1.234), event type id (7), country
    /// (GB) or market type (WIN, MATCH_ODDS); comma-separated.
    #[arg(long, env = "BACKLAY_FEED_MARKETS", value_delimiter = ',')]
    feed_markets: Vec<String>,
    /// A live stream: certificates (PEM) to trust besides the system's, such as another
    /// Backlay's self-signed stream certificate.
    #[arg(long = "feed-ca", env = "BACKLAY_FEED_CA", value_delimiter = ',')]
    feed_ca: Vec<PathBuf>,
    /// A live stream: the heartbeat asked of the upstream, in milliseconds.
    #[arg(long, env = "BACKLAY_FEED_HEARTBEAT_MS", default_value_t = 5000, value_parser = clap::value_parser!(u32).range(500..=5000))]
    feed_heartbeat_ms: u32,
    /// A live stream: changes within this many milliseconds sent as one by the upstream.
    #[arg(long, env = "BACKLAY_FEED_CONFLATE_MS", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=120000))]
    feed_conflate_ms: u32,
    /// A live stream silent this many seconds (not even a heartbeat) has its markets suspended
    /// here until it speaks again.
    #[arg(long, env = "BACKLAY_FEED_SILENCE", default_value_t = backlay_kit::config::DEFAULT_FEED_SILENCE_SECS, value_parser = clap::value_parser!(u64).range(1..=3600))]
    feed_silence: u64,
}

/// A positive amount of rupees given on the command line, in minor units.
fn rupees(flag: &str, text: &str) -> anyhow::Result<i64> {
    let amount = backlay_core::money::Money::parse_decimal(text.trim())
        .map_err(|e| anyhow::anyhow!("{flag}: {text:?} is not an amount of rupees: {e}"))?;
    anyhow::ensure!(amount.is_positive(), "{flag} must be more than 0, not {text}");
    Ok(amount.minor())
}

impl ServeArgs {
    /// The feed's settings; `None` without `--feed` or `--feed-app-key`.
    fn feed(&self) -> anyhow::Result<Option<FeedConfig>> {
        // Stream access alone (no --feed) runs no feed yet but lets the console add streams.
        if self.feeds.is_empty() && self.feed_app_key.is_none() {
            return Ok(None);
        }
        let sources = self
            .feeds
            .iter()
            .map(|spec| FeedSource::parse(spec).map_err(|e| anyhow::anyhow!("--feed: {e}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        if !self.feed_speed.is_finite() || self.feed_speed < 0.0 {
            anyhow::bail!(
                "--feed-speed must be 0 (as fast as it goes) or more, not {}",
                self.feed_speed
            );
        }
        let settle = match self.feed_settle.trim() {
            "auto" => FeedSettle::Auto,
            "confirm" => FeedSettle::Confirm,
            other => anyhow::bail!("--feed-settle must be auto or confirm, not {other:?}"),
        };
        let stream = self.feed_stream_access(&sources)?;
        Ok(Some(FeedConfig {
            sources,
            speed: self.feed_speed,
            until_pt: self.feed_until_pt,
            catalogues: self.feed_catalogues.clone(),
            settle,
            size_percent: self.feed_size_percent,
            max_level_minor: self
                .feed_max_level_size
                .as_deref()
                .map(|text| rupees("--feed-max-level-size", text))
                .transpose()?,
            bankroll_minor: rupees("--feed-bankroll", &self.feed_bankroll)?,
            max_exposure_minor: self
                .feed_max_exposure
                .as_deref()
                .map(|text| rupees("--feed-max-exposure", text))
                .transpose()?,
            bookmaker_margin_percent: self.feed_bookmaker_margin,
            stream,
            silence: std::time::Duration::from_secs(self.feed_silence),
        }))
    }

    /// How the live streams among `sources` are reached: checked only when there is one.
    fn feed_stream_access(&self, sources: &[FeedSource]) -> anyhow::Result<StreamAccess> {
        let markets = StreamMarketFilter::parse(&self.feed_markets)
            .map_err(|e| anyhow::anyhow!("--feed-markets: {e}"))?;
        let given = |value: &Option<String>| {
            value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned)
        };
        let login = match (
            given(&self.feed_user),
            given(&self.feed_password),
            given(&self.feed_identity_url),
        ) {
            (Some(user), Some(password), Some(url)) => {
                let identity_url = if url.ends_with('/') { url } else { format!("{url}/") };
                anyhow::ensure!(
                    identity_url.starts_with("https://") || identity_url.starts_with("http://"),
                    "--feed-identity-url must be an http:// or https:// URL, not {identity_url:?}"
                );
                Some(StreamLogin { user, password, identity_url })
            }
            (None, None, None) => None,
            _ => anyhow::bail!(
                "--feed-user, --feed-password and --feed-identity-url go together: give all three to log in, or --feed-session-token"
            ),
        };
        let access = StreamAccess {
            app_key: given(&self.feed_app_key).unwrap_or_default(),
            session_token: given(&self.feed_session_token),
            login,
            markets,
            ca_files: self.feed_ca.clone(),
            heartbeat_ms: self.feed_heartbeat_ms,
            conflate_ms: self.feed_conflate_ms,
        };
        if sources.iter().any(|s| matches!(s, FeedSource::BetfairStream { .. })) {
            if let Some(missing) = access.missing() {
                anyhow::bail!("a betfair-stream feed needs {missing}");
            }
            anyhow::ensure!(
                !access.markets.is_empty(),
                "a betfair-stream feed needs --feed-markets: which markets to mirror (market ids, event type ids, countries or market types)"
            );
        }
        Ok(access)
    }

    /// The Betfair stream's settings; `None` when `off`.
    fn betfair_stream(&self) -> anyhow::Result<Option<BetfairStreamConfig>> {
        let (addr, default_addr) = match self.betfair_stream_addr.as_deref().map(str::trim) {
            Some(text) if text.eq_ignore_ascii_case("off") => return Ok(None),
            Some(text) if !text.is_empty() => {
                let addr = text.parse::<SocketAddr>().map_err(|_| {
                    anyhow::anyhow!(
                        "--betfair-stream-addr (BACKLAY_BETFAIR_STREAM_ADDR) must be host:port such as 0.0.0.0:8443, or off; not {text:?}"
                    )
                })?;
                (addr, false)
            }
            // A server on a free port (tests, scripts) gets a free stream port too.
            _ if self.addr.port() == 0 => (SocketAddr::new(self.addr.ip(), 0), true),
            _ => (SocketAddr::new(self.addr.ip(), DEFAULT_BETFAIR_STREAM_PORT), true),
        };
        if self.betfair_stream_cert.is_some() != self.betfair_stream_key.is_some() {
            anyhow::bail!(
                "--betfair-stream-cert and --betfair-stream-key (BACKLAY_BETFAIR_STREAM_CERT/_KEY) go together: give both or neither"
            );
        }
        Ok(Some(BetfairStreamConfig {
            addr,
            cert_file: self.betfair_stream_cert.clone(),
            key_file: self.betfair_stream_key.clone(),
            default_addr,
        }))
    }
}

fn metrics_token(text: &str) -> Result<String, String> {
    let token = text.trim();
    if token.len() < 32 || !token.chars().all(|c| c.is_ascii_graphic()) {
        return Err(
            "a metrics token is at least 32 visible characters (e.g. `openssl rand -hex 32`)"
                .into(),
        );
    }
    Ok(token.to_owned())
}

fn public_url(text: &str) -> Result<String, String> {
    backlay_kit::config::parse_public_url(text)
}

/// The on/off settings of `serve`, each from its flag pair or its environment twin, all read
/// before anything else so that a mistyped one is reported first.
struct Switches {
    demo: bool,
    demo_feed: bool,
    casino: bool,
    trust_forwarded_for: bool,
    secret_key: SecretKeySource,
}

impl ServeArgs {
    fn switches(&self) -> anyhow::Result<Switches> {
        let demo = switch(self.demo, self.no_demo, "BACKLAY_DEMO")?;
        let demo_feed = switch(self.demo_feed, self.no_demo_feed, "BACKLAY_DEMO_FEED")?;
        let casino = switch(self.casino, self.no_casino, "BACKLAY_CASINO")?;
        let trust_forwarded_for =
            switch(self.trust_forwarded_for, false, "BACKLAY_TRUST_FORWARDED_FOR")?
                .unwrap_or(false);
        let secret_key = self.secret_key.source()?;
        if self.trusted_proxy_hops.is_some() && !trust_forwarded_for {
            anyhow::bail!(
                "--trusted-proxy-hops (BACKLAY_TRUSTED_PROXY_HOPS) counts the proxies whose X-Forwarded-For entries are trusted: it needs --trust-forwarded-for"
            );
        }
        // The demo is on by default for the embedded SQLite database; the feed and the casino
        // follow the demo unless set.
        let demo = match demo {
            Some(on) => on,
            None => backlay_store::engine_of(&self.database.database_url)? == Engine::Sqlite,
        };
        Ok(Switches {
            demo,
            demo_feed: demo_feed.unwrap_or(demo),
            casino: casino.unwrap_or(demo),
            trust_forwarded_for,
            secret_key,
        })
    }
}

/// An on/off flag pair with its environment twin; `None` when neither is set.
pub fn switch(on: bool, off: bool, env: &str) -> anyhow::Result<Option<bool>> {
    if on {
        return Ok(Some(true));
    }
    if off {
        return Ok(Some(false));
    }
    match std::env::var(env) {
        Ok(value) => parse_switch(env, &value),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(value)) => {
            anyhow::bail!("{env} must be {SWITCH_FORMS}, not {value:?}")
        }
    }
}

const SWITCH_FORMS: &str = "1/0, true/false, yes/no or on/off";

/// The forms every on/off environment twin takes, in any case; empty is unset.
fn parse_switch(env: &str, value: &str) -> anyhow::Result<Option<bool>> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(Some(true)),
        "0" | "false" | "no" | "off" => Ok(Some(false)),
        "" => Ok(None),
        _ => anyhow::bail!("{env} must be {SWITCH_FORMS}, not {value:?}"),
    }
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("BACKLAY_LOG")
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal: a log file or a collector gets plain lines
        // (scripts count ` WARN ` and ` ERROR ` in them). NO_COLOR turns them off anywhere.
        .with_ansi(
            std::io::IsTerminal::is_terminal(&std::io::stderr())
                && std::env::var_os("NO_COLOR").is_none(),
        )
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve(*args).await,
        Command::Migrate(args) => migrate(args).await,
        Command::Admin(args) => admin::run(args).await,
        Command::Casino(args) => casino::run(args).await,
        Command::Feed(args) => feed::run(args),
        Command::Openapi => openapi(),
    };
    if let Err(err) = result {
        eprintln!("backlay: {err:#}");
        std::process::exit(1);
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let Switches { demo, demo_feed, casino, trust_forwarded_for, secret_key } = args.switches()?;
    let betfair_stream = args.betfair_stream()?;
    let feed = args.feed()?;
    let mut config = Config::with_database(args.database.database_url.clone());
    config.addr = args.addr;
    let demo_settings =
        Demo { seed: demo, feed: demo_feed, feed_speed: args.demo_feed_speed, ..Demo::default() };
    config.casino = casino;
    config.casino_betting_window_ms = i64::from(args.casino_window_seconds) * 1000;
    config.casino_result_pause_ms = i64::from(args.casino_result_seconds) * 1000;
    config.casino_deal_pace = Pace { step_ms: i64::from(args.casino_card_ms), ..Pace::DEFAULT };
    config.provider_max_win_multiple = args.provider_max_win_multiple;
    config.web_dir = args.web_dir.clone();
    config.session_ttl_ms = i64::from(args.session_ttl_hours) * 60 * 60 * 1000;
    config.trust_forwarded_for = trust_forwarded_for;
    config.trusted_proxy_hops = usize::from(args.trusted_proxy_hops.unwrap_or(1));
    config.public_url = args.public_url.clone();
    config.metrics_token = args.metrics_token.clone();
    config.backups = match args.backup_every {
        None => None,
        Some(minutes) => {
            let dir = match (&args.backup_dir, backlay_store::engine_of(&config.database_url)?) {
                (Some(dir), _) => dir.clone(),
                (None, backlay_store::Engine::Sqlite) => {
                    let db =
                        std::path::PathBuf::from(backlay_store::sqlite_path(&config.database_url));
                    db.parent().unwrap_or(std::path::Path::new(".")).join("backups")
                }
                (None, backlay_store::Engine::Postgres) => {
                    anyhow::bail!("--backup-every on PostgreSQL needs --backup-dir: where to write the backups")
                }
            };
            Some(backlay_kit::config::BackupSchedule {
                dir,
                every: std::time::Duration::from_secs(u64::from(minutes) * 60),
                keep: args.backup_keep as usize,
            })
        }
    };
    config.header_timeout_ms = args.header_timeout_seconds * 1000;
    config.body_timeout_ms = args.body_timeout_seconds * 1000;
    config.max_connections = open_files::fit_connections(usize::try_from(args.max_connections)?);
    config.shutdown_grace_ms = args.shutdown_grace_seconds * 1000;
    config.node_url = args.node_url.clone();
    config.cluster_lease_ms = args.cluster_lease_ms;
    config.database_connections = args.database_connections;
    config.secret_key = secret_key;
    config.betfair_stream = betfair_stream;
    config.feed = feed;
    let server = Server::build_with(config, demo_settings.start_hooks()).await?;
    let addr = server.local_addr();
    println!("Backlay is running at http://{addr}/  (API: http://{addr}/api, OpenAPI: http://{addr}/api/openapi.json)");
    // Scripts read the port from this line (tests/betfair/run.sh): keep its form.
    match server.betfair_stream_addr() {
        Some(stream) => println!("Betfair stream (TLS) at {stream}"),
        None => println!("Betfair stream: off"),
    }
    println!("Database: {}", url_without_password(&args.database.database_url));
    if demo {
        println!("Demo log-ins:");
        for (user_name, password, role) in DEMO_LOGINS {
            println!("  {role:<13} {user_name:<8} / {password}");
        }
    }
    if demo_feed {
        println!("Demo feed: on (matches played ball by ball, prices moving, results settled; --no-demo-feed to stop it)");
    }
    server.run(shutdown_signal()).await
}

/// Pretty JSON with a final newline: the form of the web app's committed snapshot
/// (web/src/api/openapi.json, written by `npm run gen:api` there).
fn openapi() -> anyhow::Result<()> {
    let document = backlay_server::openapi_document();
    println!("{}", serde_json::to_string_pretty(&document)?);
    Ok(())
}

async fn migrate(args: DatabaseArgs) -> anyhow::Result<()> {
    let store = Store::connect(&args.database_url).await?;
    store.migrate().await?;
    println!("Database {} is up to date.", url_without_password(&args.database_url));
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    eprintln!("backlay: shutting down");
}

#[cfg(test)]
mod tests {
    use super::parse_switch;

    #[test]
    fn switches_take_the_same_forms_in_any_case() {
        for on in ["1", "true", "TRUE", "Yes", "on", " On "] {
            assert_eq!(parse_switch("X", on).unwrap(), Some(true), "{on:?}");
        }
        for off in ["0", "false", "False", "NO", "off", "OFF\n"] {
            assert_eq!(parse_switch("X", off).unwrap(), Some(false), "{off:?}");
        }
        assert_eq!(parse_switch("X", " ").unwrap(), None);
        let refused = parse_switch("BACKLAY_DEMO", "maybe").unwrap_err().to_string();
        assert_eq!(
            refused,
            "BACKLAY_DEMO must be 1/0, true/false, yes/no or on/off, not \"maybe\""
        );
    }
}
