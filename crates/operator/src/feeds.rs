//! The upstream feeds' figures, as the operator reads them (`GET admin/feed/status`): the feed's
//! tasks (crates/feed-runtime) write them, the console reads them. They live here, in the state
//! every edge reaches, because the console's crate sits below nothing that runs feeds.

use std::sync::Mutex;

/// Every feed this server runs, in the order started.
#[derive(Debug, Default)]
pub struct FeedBoard {
    feeds: Mutex<Vec<FeedStatus>>,
}

/// One feed, as it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct FeedStatus {
    /// What it reads ("betfair-file:tests/feeds/flumine/1.197931750", …).
    pub source: String,
    pub state: FeedState,
    /// Lines read and applied to the mirror.
    pub messages: u64,
    /// Lines refused (not JSON, a price off the ladder, a market never defined …).
    pub refused: u64,
    /// The first refusal's reason, with its file and line.
    pub first_refusal: Option<String>,
    /// The last failure to act on the mirror here (a market that could not be made or moved).
    pub last_error: Option<String>,
    /// The publish time of the last message applied (`pt`, ms).
    pub last_pt: Option<i64>,
    /// How far behind the upstream's publish time it acts, for a live feed (ms).
    pub lag_ms: Option<i64>,
    pub markets: Vec<FeedMarket>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedState {
    /// A live stream connecting, logging in or subscribing (after a drop too).
    Connecting,
    Running,
    /// A recording played to its end (or to `--feed-until-pt`).
    Finished,
    Failed,
}

impl FeedState {
    pub fn as_str(self) -> &'static str {
        match self {
            FeedState::Connecting => "connecting",
            FeedState::Running => "running",
            FeedState::Finished => "finished",
            FeedState::Failed => "failed",
        }
    }
}

/// An upstream market and the market it is here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedMarket {
    pub upstream_market_id: String,
    pub market_id: i64,
    pub match_id: i64,
    /// The upstream's state (OPEN, SUSPENDED, CLOSED …).
    pub status: String,
    pub runners: Vec<FeedRunner>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedRunner {
    pub upstream_selection_id: i64,
    pub selection_id: i64,
    pub name: String,
}

impl FeedBoard {
    /// Adds a feed; its index is how its task updates it.
    pub fn add(&self, status: FeedStatus) -> usize {
        let mut feeds = self.feeds.lock().expect("feed board lock");
        feeds.push(status);
        feeds.len() - 1
    }

    pub fn update(&self, index: usize, change: impl FnOnce(&mut FeedStatus)) {
        if let Some(feed) = self.feeds.lock().expect("feed board lock").get_mut(index) {
            change(feed);
        }
    }

    /// Every feed as it stands.
    pub fn all(&self) -> Vec<FeedStatus> {
        self.feeds.lock().expect("feed board lock").clone()
    }
}

impl FeedStatus {
    pub fn new(source: String) -> FeedStatus {
        FeedStatus {
            source,
            state: FeedState::Running,
            messages: 0,
            refused: 0,
            first_refusal: None,
            last_error: None,
            last_pt: None,
            lag_ms: None,
            markets: Vec::new(),
        }
    }
}
