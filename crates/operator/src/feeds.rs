//! The upstream feeds' figures, as the operator reads them (`GET admin/feed/status`): the feed's
//! tasks (crates/feed-runtime) write them, the console reads them. They live here, in the state
//! every edge reaches, because the console's crate sits below nothing that runs feeds.
//!
//! The console also steers them here: each feed's [`FeedMode`] (running, paused, removed) is a
//! watch its tasks follow, and adding one goes through the [`FeedControl`] the feed runtime
//! installs at start.

use std::sync::{Arc, Mutex, Weak};

use tokio::sync::watch;

/// Every feed this server runs, in the order started (a feed's index is its id).
#[derive(Default)]
pub struct FeedBoard {
    feeds: Mutex<Vec<Entry>>,
    /// Held weakly: the server's feed handle owns the runtime, and the runtime holds the state
    /// that holds this board. Installed again by each start (a cluster's node that leads again).
    control: Mutex<Option<Weak<dyn FeedControl>>>,
}

impl std::fmt::Debug for FeedBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FeedBoard").field("feeds", &self.all()).finish_non_exhaustive()
    }
}

struct Entry {
    status: FeedStatus,
    mode: watch::Sender<FeedMode>,
    /// Its row in `added_feeds` when an admin added it from the console.
    added_id: Option<i64>,
}

/// What the operator wants of a feed; its tasks follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedMode {
    Running,
    /// Reading held (a live stream disconnected), its markets suspended until resumed.
    Paused,
    /// Stopped for good; its markets left suspended for the operator.
    Removed,
}

/// Starts feeds the console adds (the feed runtime, which the console's crate cannot reach).
pub trait FeedControl: Send + Sync {
    /// Starts a live stream feed (`betfair-stream:HOST:PORT`) of the markets `markets` names,
    /// with the server's stream access; answers its id, or why not (for the operator).
    fn add_stream(&self, source: &str, markets: &[String]) -> Result<usize, String>;
    /// Why the console cannot add a live stream here, if it cannot.
    fn cannot_add(&self) -> Option<String>;
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
    /// Held by the operator.
    Paused,
    /// Stopped by the operator.
    Removed,
    /// A recording played to its end (or to `--feed-until-pt`).
    Finished,
    Failed,
}

impl FeedState {
    /// Finished, failed or removed: nothing more to steer.
    pub const fn has_ended(self) -> bool {
        matches!(self, FeedState::Finished | FeedState::Failed | FeedState::Removed)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FeedState::Connecting => "connecting",
            FeedState::Running => "running",
            FeedState::Paused => "paused",
            FeedState::Removed => "removed",
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
    /// Adds a feed; its index is its id, how its tasks update it and how they learn what the
    /// operator wants of it.
    pub fn add(&self, status: FeedStatus) -> (usize, watch::Receiver<FeedMode>) {
        let (mode, wanted) = watch::channel(FeedMode::Running);
        let mut feeds = self.feeds.lock().expect("feed board lock");
        feeds.push(Entry { status, mode, added_id: None });
        (feeds.len() - 1, wanted)
    }

    /// Notes the `added_feeds` row of a feed an admin added.
    pub fn set_added_id(&self, index: usize, added_id: i64) {
        if let Some(feed) = self.feeds.lock().expect("feed board lock").get_mut(index) {
            feed.added_id = Some(added_id);
        }
    }

    /// The `added_feeds` row of a feed, when an admin added it from the console.
    pub fn added_id(&self, index: usize) -> Option<i64> {
        self.feeds.lock().expect("feed board lock").get(index).and_then(|f| f.added_id)
    }

    /// The feeds a runtime ran here stopped with it (the server stopping, or a cluster's node
    /// that no longer leads): each still going is shown removed, with `why` as its last error.
    /// Its tasks are not told to remove it (which would suspend its markets under the next
    /// leader's feed): they end as their input does.
    pub fn stopped(&self, indexes: &[usize], why: &str) {
        let mut feeds = self.feeds.lock().expect("feed board lock");
        for index in indexes {
            if let Some(feed) = feeds.get_mut(*index) {
                if !feed.status.state.has_ended() {
                    feed.status.state = FeedState::Removed;
                    feed.status.last_error = Some(why.to_owned());
                }
            }
        }
    }

    pub fn update(&self, index: usize, change: impl FnOnce(&mut FeedStatus)) {
        if let Some(feed) = self.feeds.lock().expect("feed board lock").get_mut(index) {
            change(&mut feed.status);
        }
    }

    /// Every feed as it stands.
    pub fn all(&self) -> Vec<FeedStatus> {
        self.feeds.lock().expect("feed board lock").iter().map(|f| f.status.clone()).collect()
    }

    pub fn get(&self, index: usize) -> Option<FeedStatus> {
        self.feeds.lock().expect("feed board lock").get(index).map(|f| f.status.clone())
    }

    /// Asks a feed's tasks to run, pause or stop. Refused (with words for the operator) for a
    /// feed that does not exist, has ended, or is already so.
    pub fn set_mode(&self, index: usize, wanted: FeedMode) -> Result<(), String> {
        let feeds = self.feeds.lock().expect("feed board lock");
        let feed = feeds.get(index).ok_or_else(|| format!("There is no feed {index}."))?;
        let now = *feed.mode.borrow();
        if now == FeedMode::Removed || feed.status.state.has_ended() {
            return Err(format!("Feed {index} ({}) has ended.", feed.status.source));
        }
        if now == wanted {
            let said = if wanted == FeedMode::Paused { "paused" } else { "running" };
            return Err(format!("Feed {index} is already {said}."));
        }
        feed.mode.send_replace(wanted);
        Ok(())
    }

    /// The feed runtime's hand, for the console to add feeds with.
    pub fn install(&self, control: Weak<dyn FeedControl>) {
        *self.control.lock().expect("feed board lock") = Some(control);
    }

    /// `None` when no feed runtime runs (or it has stopped).
    pub fn control(&self) -> Option<Arc<dyn FeedControl>> {
        self.control.lock().expect("feed board lock").as_ref().and_then(Weak::upgrade)
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
