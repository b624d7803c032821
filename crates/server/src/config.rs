//! Server configuration. The `backlay` binary fills it from flags and their environment twins
//! (ARCHITECTURE.md §9); tests build it directly.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::throttle::ThrottlePolicy;

pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/backlay.db";
pub const DEFAULT_WEB_DIR: &str = "web/dist";
/// How long a log-in lasts.
pub const DEFAULT_SESSION_TTL_MS: i64 = 24 * 60 * 60 * 1000;

#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub database_url: String,
    /// Seed demo data into an empty database.
    pub demo: bool,
    /// With the demo: also markets with the market-maker's liquidity (tests that do not need
    /// them turn this off to start faster).
    pub demo_markets: bool,
    /// Run the demo feed: play the demo's matches and races, keep the market-maker quoting,
    /// settle what finishes and schedule more (`demo::scheduler`). Needs the demo's `maker`.
    pub demo_feed: bool,
    /// How many times faster than the wall clock the demo feed's time runs (1 in the product;
    /// tests use e.g. 60 to watch a match in seconds).
    pub demo_feed_speed: u32,
    /// The built web app (`index.html` and its assets).
    pub web_dir: PathBuf,
    pub session_ttl_ms: i64,
    /// Take the client address from `X-Forwarded-For` (only behind a proxy you run).
    pub trust_forwarded_for: bool,
    pub throttle: ThrottlePolicy,
    /// Run the in-house casino's rounds (`casino::runner`): on with the demo in the binary;
    /// tests choose.
    pub casino: bool,
    /// How long a casino round takes bets (tests shorten it).
    pub casino_betting_window_ms: i64,
    /// How long a casino result stays on the table before the next round opens.
    pub casino_result_pause_ms: i64,
    /// Run only these casino games (client or rules codes); empty: every active game.
    pub casino_games: Vec<String>,
}

impl Config {
    /// Defaults for everything but the database.
    pub fn with_database(database_url: impl Into<String>) -> Config {
        Config {
            addr: DEFAULT_ADDR.parse().expect("valid default address"),
            database_url: database_url.into(),
            demo: false,
            demo_markets: true,
            demo_feed: false,
            demo_feed_speed: 1,
            web_dir: PathBuf::from(DEFAULT_WEB_DIR),
            session_ttl_ms: DEFAULT_SESSION_TTL_MS,
            trust_forwarded_for: false,
            throttle: ThrottlePolicy::default(),
            casino: false,
            casino_betting_window_ms: crate::casino::DEFAULT_BETTING_WINDOW_MS,
            casino_result_pause_ms: crate::casino::DEFAULT_RESULT_PAUSE_MS,
            casino_games: Vec::new(),
        }
    }
}
