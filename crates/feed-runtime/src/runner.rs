//! The feeds at work: every feed of the server (those of the command line and those the
//! console adds) shares one [`Hub`]: the catalogue, the settings, one house.
//!
//! Each feed has two tasks. A live stream is read by a task of its own ([`crate::stream`]); a
//! recording is read on a thread of its own (file reads and decompression block), paced by
//! its publish times (`--feed-speed`) and stopped at `--feed-until-pt`; it hands each line over
//! a channel of [`CHANNEL_LINES`] to the async task that mirrors it. When the mirroring falls
//! behind, the reader waits on the full channel: memory stays bounded whatever the recording's
//! length, and placement never waits on the feed (the feed is one more caller of the engine).
//!
//! The mirroring task applies what arrived to the [`Mirror`], then acts once per market that
//! moved, however many of its lines came together (changes coalesce): the market is made or
//! joined ([`catalogue::ensure_market`]), the house's orders pulled if the upstream is not open,
//! the market brought to the upstream's state ([`lifecycle::sync`]) and, while both are open,
//! the house's orders brought to the upstream's ladder ([`liquidity::wanted`]); then the scores
//! and races that moved ([`crate::scores`]). A market that cannot be made or moved is logged and
//! noted in the feed's figures; the feed goes on with the others. The operator's pause and
//! removal ([`FeedMode`]) and a live stream's silence suspend the feed's markets.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use backlay_core::exchange::{MarketStatus, MarketType};
use backlay_engine::RatesUpdate;
use backlay_feed::message::{
    MarketDefinition, MarketStatus as UpstreamStatus, Message, RunnerStatus,
};
use backlay_feed::recording::{Entry, Pace, Timeline};
use backlay_feed::Mirror;
use backlay_kit::config::{FeedConfig, FeedSource, StreamAccess, StreamMarketFilter};
use backlay_kit::error::AppError;
use backlay_operator::feeds::{
    FeedControl, FeedMarket, FeedMode, FeedRunner, FeedState, FeedStatus,
};
use backlay_operator::house_orders::{requote_market, House, HouseOrder};
use backlay_operator::AppState;
use backlay_store::added_feeds::AddedFeedState;
use tokio::sync::{mpsc, watch};
use tokio_rustls::rustls::ClientConfig;

use crate::catalogue::{self, Catalogue, LinkedMarket};
use crate::lifecycle::{self, Moved};
use crate::liquidity::{self, HouseTerms};
use crate::stream::{self, Stream};

/// Lines in flight between the reader and the mirroring task.
pub const CHANNEL_LINES: usize = 1024;
/// The most lines the mirroring task applies before it acts on the markets they moved.
const LINES_PER_PASS: usize = 256;
/// The house re-quotes a market at most this often, and within this of its ladder moving (each
/// upstream size change at a level is a cancel and a new order: re-quoting after every line
/// churned thousands of bets a race).
pub const REQUOTE_EVERY: Duration = Duration::from_millis(250);
/// How often a paced reader waiting for a line's time looks whether it should stop.
const STOP_CHECK: Duration = Duration::from_millis(200);

/// The running feeds: stop them with [`FeedHandle::stop`]; dropped, they stop reading.
pub struct FeedHandle {
    hub: Arc<Hub>,
}

impl Drop for FeedHandle {
    fn drop(&mut self) {
        self.hub.stop_reading();
        let indexes = self.hub.indexes.lock().expect("feed hub lock").clone();
        self.hub.state.feeds.stopped(&indexes, STOPPED_HERE);
    }
}

/// Why a feed still going shows removed once its runtime stopped.
const STOPPED_HERE: &str = "stopped on this server: it is stopping, or, in a cluster, another node leads now and runs the feeds";

impl FeedHandle {
    /// Stops reading; what was read is still mirrored.
    pub async fn stop(self) {
        self.hub.stop_reading();
        let mirrors = std::mem::take(&mut *self.hub.mirrors.lock().expect("feed hub lock"));
        for mirror in mirrors {
            let _ = mirror.await;
        }
    }
}

/// One feed's lines on their way to its mirroring task.
struct Input {
    /// Its entry in the feeds' figures.
    index: usize,
    received: mpsc::Receiver<Entry>,
    /// A live stream's: silent this long, its markets are suspended here.
    silence: Option<Duration>,
    /// What the operator wants of the feed.
    mode: watch::Receiver<FeedMode>,
}

/// Every feed of this server, those of the command line and those the console adds: they
/// share the catalogue, the terms and one house.
struct Hub {
    /// Itself, for the console's adds (the board holds it weakly: the server's handle owns it).
    me: std::sync::Weak<Hub>,
    state: AppState,
    catalogue: Catalogue,
    config: FeedConfig,
    /// The live streams' TLS set-up, made with the first stream.
    tls: Mutex<Option<Arc<ClientConfig>>>,
    /// The house, made (or found) for the first feed; `None` inside: it could not be.
    house: tokio::sync::OnceCell<Option<House>>,
    stop: Arc<AtomicBool>,
    streams: Mutex<Vec<tokio::task::AbortHandle>>,
    mirrors: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// The feeds it runs, by their index on the board.
    indexes: Mutex<Vec<usize>>,
}

/// Whether [`start`] could start the feeds the configuration gives: the catalogue read, each
/// recording opened. A cluster's node checks this as it starts, and runs the feed only while it
/// leads.
pub fn check(config: &FeedConfig) -> anyhow::Result<()> {
    Catalogue::load(&config.catalogues).map_err(|e| anyhow::anyhow!("--feed-catalogue: {e:#}"))?;
    let paths: Vec<&std::path::Path> = recordings(config).collect();
    if !paths.is_empty() {
        Timeline::open(&paths).map_err(|e| anyhow::anyhow!("--feed: {e}"))?;
    }
    Ok(())
}

/// The recordings the configuration gives (its live streams are not).
fn recordings(config: &FeedConfig) -> impl Iterator<Item = &std::path::Path> {
    config.sources.iter().filter_map(|source| match source {
        FeedSource::BetfairFile(path) => Some(path.as_path()),
        FeedSource::BetfairStream { .. } => None,
    })
}

/// Starts the feeds the configuration gives: its recordings as one timeline, each live stream
/// as a feed of its own, all quoting through one house; and lets the console add live streams
/// with the same settings. Fails at once, with the reason, on a recording, catalogue or
/// certificate that cannot be read.
pub fn start(state: AppState, config: &FeedConfig) -> anyhow::Result<FeedHandle> {
    let catalogue = Catalogue::load(&config.catalogues)
        .map_err(|e| anyhow::anyhow!("--feed-catalogue: {e:#}"))?;
    let hub = Arc::new_cyclic(|me| Hub {
        me: me.clone(),
        state: state.clone(),
        catalogue,
        config: config.clone(),
        tls: Mutex::new(None),
        house: tokio::sync::OnceCell::new(),
        stop: Arc::new(AtomicBool::new(false)),
        streams: Mutex::new(Vec::new()),
        mirrors: Mutex::new(Vec::new()),
        indexes: Mutex::new(Vec::new()),
    });
    let paths: Vec<PathBuf> = recordings(config).map(PathBuf::from).collect();
    if !paths.is_empty() {
        hub.add_recordings(&paths)?;
    }
    for source in &config.sources {
        if let FeedSource::BetfairStream { host, port } = source {
            hub.add_stream(host, *port, config.stream.markets.clone())?;
        }
    }
    let control: Arc<dyn FeedControl> = Arc::clone(&hub) as Arc<dyn FeedControl>;
    state.feeds.install(Arc::downgrade(&control));
    tokio::spawn(Arc::clone(&hub).restore_added());
    Ok(FeedHandle { hub })
}

impl Hub {
    fn stop_reading(&self) {
        self.stop.store(true, Ordering::Relaxed);
        for stream in self.streams.lock().expect("feed hub lock").iter() {
            stream.abort();
        }
    }

    /// Recordings played as one timeline, by a reader thread of their own.
    fn add_recordings(self: &Arc<Self>, paths: &[PathBuf]) -> anyhow::Result<usize> {
        let refs: Vec<&std::path::Path> = paths.iter().map(PathBuf::as_path).collect();
        let timeline = Timeline::open(&refs).map_err(|e| anyhow::anyhow!("--feed: {e}"))?;
        let source = paths
            .iter()
            .map(|p| FeedSource::BetfairFile(p.clone()).spec())
            .collect::<Vec<_>>()
            .join(",");
        let (index, mode) = self.state.feeds.add(FeedStatus::new(source.clone()));
        self.indexes.lock().expect("feed hub lock").push(index);
        let pace = Pace { speed: self.config.speed, until_pt: self.config.until_pt };
        let (lines, received) = mpsc::channel(CHANNEL_LINES);
        let (stop, reader_mode) = (Arc::clone(&self.stop), mode.clone());
        std::thread::Builder::new()
            .name("feed-reader".into())
            .spawn(move || read(timeline, pace, lines, &stop, reader_mode))?;
        tracing::info!(%source, speed = pace.speed, until_pt = ?pace.until_pt, "feed: started");
        self.spawn_mirror(Input { index, received, silence: None, mode });
        Ok(index)
    }

    /// A live stream, read by a task of its own.
    fn add_stream(
        self: &Arc<Self>,
        host: &str,
        port: u16,
        markets: StreamMarketFilter,
    ) -> anyhow::Result<usize> {
        let tls = {
            let mut made = self.tls.lock().expect("feed hub lock");
            match &*made {
                Some(tls) => Arc::clone(tls),
                None => Arc::clone(made.insert(stream::tls_config(&self.config.stream.ca_files)?)),
            }
        };
        let spec = FeedSource::BetfairStream { host: host.to_owned(), port }.spec();
        let (index, mode) = self.state.feeds.add(FeedStatus::new(spec.clone()));
        self.indexes.lock().expect("feed hub lock").push(index);
        let (lines, received) = mpsc::channel(CHANNEL_LINES);
        tracing::info!(source = %spec, ?markets, "feed: started");
        let access = Arc::new(StreamAccess { markets, ..self.config.stream.clone() });
        let stream = Stream { host: host.to_owned(), port, spec, access, tls };
        let board = Arc::clone(&self.state.feeds);
        let reader = tokio::spawn(stream::read(stream, lines, board, index, mode.clone()));
        self.streams.lock().expect("feed hub lock").push(reader.abort_handle());
        self.spawn_mirror(Input { index, received, silence: Some(self.config.silence), mode });
        Ok(index)
    }

    /// Starts again the live feeds an admin added from the console and did not remove
    /// (`added_feeds`), paused if they were. One that cannot start (this server has no stream
    /// access) is logged, and kept for a start that can.
    async fn restore_added(self: Arc<Self>) {
        let added = match self.state.store.added_feeds().await {
            Ok(added) => added,
            Err(err) => {
                tracing::error!("feed: the feeds added from the console cannot be read: {err}");
                return;
            }
        };
        for feed in added {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let board = &self.state.feeds;
            match FeedControl::add_stream(&*self, &feed.source, &feed.markets) {
                Ok(index) => {
                    board.set_added_id(index, feed.id);
                    if feed.state == AddedFeedState::Paused {
                        // Just added, running: pausing it cannot be refused.
                        let _ = board.set_mode(index, FeedMode::Paused);
                    }
                    tracing::info!(source = %feed.source, state = %feed.state, "feed: added from the console, started again");
                }
                Err(why) => tracing::error!(
                    source = %feed.source,
                    "feed: a feed added from the console cannot start on this server: {why}"
                ),
            }
        }
    }

    fn spawn_mirror(self: &Arc<Self>, input: Input) {
        let task = tokio::spawn(mirror(Arc::clone(self), input));
        self.mirrors.lock().expect("feed hub lock").push(task);
    }

    /// The house every feed quotes through, made (or found) once.
    async fn house(&self, index: usize) -> Option<House> {
        let config = &self.config;
        let house = self
            .house
            .get_or_init(|| async {
                match liquidity::ensure_house(
                    &self.state,
                    config.bankroll_minor,
                    config.max_exposure_minor,
                )
                .await
                {
                    Ok(house) => Some(house),
                    Err(err) => {
                        tracing::warn!("feed: no house account, so no house liquidity: {err}");
                        self.state.feeds.update(index, |status| {
                            status.last_error = Some(format!("the house account: {err}"));
                        });
                        None
                    }
                }
            })
            .await;
        *house
    }
}

impl FeedControl for Hub {
    fn add_stream(&self, source: &str, markets: &[String]) -> Result<usize, String> {
        if let Some(reason) = self.cannot_add() {
            return Err(reason);
        }
        let Ok(FeedSource::BetfairStream { host, port }) = FeedSource::parse(source) else {
            return Err(format!(
                "{source:?} is not a live stream: give betfair-stream:HOST:PORT (recordings are given when the server starts)"
            ));
        };
        let markets = StreamMarketFilter::parse(markets)?;
        let hub = self.me.upgrade().ok_or("The server is stopping.")?;
        hub.add_stream(&host, port, markets).map_err(|err| format!("{err:#}"))
    }

    fn cannot_add(&self) -> Option<String> {
        if self.stop.load(Ordering::Relaxed) {
            return Some("The server is stopping.".into());
        }
        self.config.stream.missing().map(|missing| {
            format!(
                "This server has no stream access: start it with {missing} to add live streams."
            )
        })
    }
}

/// The reader thread: every line in timeline order, each at its time; held while the operator
/// pauses the feed (its pace resumes where it was), ended when they remove it.
fn read(
    mut timeline: Timeline,
    pace: Pace,
    lines: mpsc::Sender<Entry>,
    stop: &AtomicBool,
    mode: watch::Receiver<FeedMode>,
) {
    let started = Instant::now();
    let mut held = Duration::ZERO;
    let mut first_pt = None;
    while let Some(pt) = timeline.next_pt() {
        if !pace.plays(pt) || stop.load(Ordering::Relaxed) {
            break;
        }
        loop {
            match *mode.borrow() {
                FeedMode::Running => break,
                FeedMode::Removed => return,
                FeedMode::Paused => {}
            }
            if stop.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(STOP_CHECK);
            held += STOP_CHECK;
        }
        let due = started + held + Duration::from_millis(pace.due_after_ms(&mut first_pt, pt));
        while let Some(wait) = due.checked_duration_since(Instant::now()) {
            if stop.load(Ordering::Relaxed) || *mode.borrow() != FeedMode::Running {
                break;
            }
            std::thread::sleep(wait.min(STOP_CHECK));
        }
        if *mode.borrow() != FeedMode::Running {
            continue; // held (or removed) while waiting: the line waits with it
        }
        let Some(entry) = timeline.next_entry() else { break };
        if lines.blocking_send(entry).is_err() {
            return; // the mirroring task ended: the server stops
        }
    }
}

/// The mirroring task of one feed.
async fn mirror(hub: Arc<Hub>, input: Input) {
    let Input { index, mut received, silence, mut mode } = input;
    let state = &hub.state;
    let house = hub.house(index).await;
    let mut quotes = house.map(|house| HouseQuotes::new(house, &hub.config));
    let mut upstream = Mirror::default();
    let mut followed: Vec<Followed> = Vec::new();
    let mut batch = Vec::with_capacity(LINES_PER_PASS);
    let mut heard_at = Instant::now();
    let mut silenced = false;
    // Paused by the operator: the lines that still come are mirrored, the markets left
    // suspended until resumed.
    let mut held = false;
    loop {
        // Wait for more lines only until an owed quote falls due, or a live stream's silence
        // runs out, or the operator steers the feed.
        let quote_due = quotes.as_ref().filter(|_| !held).and_then(HouseQuotes::next_due);
        let silence_due = silence
            .filter(|_| !silenced && !held)
            .map(|after| after.saturating_sub(heard_at.elapsed()));
        let wait = quote_due.into_iter().chain(silence_due).min();
        let lines = async {
            match wait {
                Some(wait) => {
                    tokio::time::timeout(wait, received.recv_many(&mut batch, LINES_PER_PASS))
                        .await
                        .ok()
                }
                None => Some(received.recv_many(&mut batch, LINES_PER_PASS).await),
            }
        };
        let woke = tokio::select! {
            changed = mode.changed() => Woke::Steered(changed.is_ok()),
            lines = lines => Woke::Lines(lines),
        };
        let mut moved = BTreeSet::new();
        let received_lines = match woke {
            Woke::Lines(lines) => lines,
            Woke::Steered(false) => None,
            Woke::Steered(true) => {
                let wanted = *mode.borrow_and_update();
                match wanted {
                    FeedMode::Paused if !held => {
                        held = true;
                        let said =
                            suspend_all(state, house, &mut followed, "paused by the operator")
                                .await;
                        state.feeds.update(index, |status| {
                            status.state = FeedState::Paused;
                            status.last_error = Some(format!("{said} until it is resumed"));
                        });
                    }
                    FeedMode::Running if held => {
                        held = false;
                        heard_at = Instant::now();
                        resync_all(&mut followed, &mut moved);
                        state.feeds.update(index, |status| {
                            if status.state == FeedState::Paused {
                                status.state = FeedState::Running;
                            }
                            status.last_error = None;
                        });
                    }
                    FeedMode::Removed => {
                        return removed(state, house, &mut followed, index).await;
                    }
                    _ => {}
                }
                None
            }
        };
        if received_lines == Some(0) {
            // The reader ended: at the recording's end, or because the feed was removed (which
            // may be seen here before the steering itself).
            if *mode.borrow() == FeedMode::Removed {
                return removed(state, house, &mut followed, index).await;
            }
            break;
        }
        if received_lines.is_some() {
            heard_at = Instant::now();
            if silenced {
                // Heard again: every market is brought back to the upstream's state, which a
                // resubscription's delta may not repeat.
                silenced = false;
                resync_all(&mut followed, &mut moved);
            }
        } else if let Some(after) =
            silence.filter(|after| !silenced && !held && heard_at.elapsed() >= *after)
        {
            silenced = true;
            let why = format!("nothing from the upstream for {} s", after.as_secs());
            let said = suspend_all(state, house, &mut followed, &why).await;
            state.feeds.update(index, |status| {
                status.last_error = Some(format!("{said} until it is heard again"));
            });
        }
        let mut scored = BTreeSet::new();
        let mut racing = BTreeSet::new();
        let (mut messages, mut refused, mut first_refusal) = (0u64, 0u64, None);
        for entry in batch.drain(..) {
            let (source, line) = (entry.source, entry.line);
            match entry.message.and_then(|message: Message| upstream.apply(message)) {
                Ok(applied) => {
                    messages += 1;
                    moved.extend(applied.markets);
                    scored.extend(applied.scores);
                    racing.extend(applied.races);
                }
                Err(refusal) => {
                    refused += 1;
                    first_refusal.get_or_insert_with(|| {
                        format!("{} line {line}: {refusal}", source.display())
                    });
                }
            }
        }
        let mut last_error = None;
        if held {
            moved.clear(); // left suspended until resumed
        }
        for market_id in moved {
            let Some(definition) = upstream.market(&market_id).and_then(|m| m.definition()) else {
                continue;
            };
            match follow(&hub, house, &mut followed, &market_id, definition).await {
                Ok((steps, quote)) => {
                    if let Some(quotes) = quotes.as_mut().filter(|_| quote) {
                        quotes.owed.insert(market_id.clone());
                    }
                    tracing::debug!(market = %market_id, ?steps, "feed: market synced");
                }
                Err(err) => {
                    tracing::warn!(market = %market_id, "feed: market not synced: {err}");
                    last_error = Some(format!("market {market_id}: {err}"));
                }
            }
        }
        // After the markets, so that a score's match has been made when its market came first.
        for event_id in scored {
            let Some(score) = upstream.score(&event_id) else { continue };
            if let Err(err) = crate::scores::post_score(state, score).await {
                tracing::warn!(event = %event_id, "feed: score not posted: {err}");
                last_error = Some(format!("score of event {event_id}: {err}"));
            }
        }
        // Once a market: the race is off.
        for followed in
            followed.iter_mut().filter(|f| !f.off && racing.contains(&f.link.upstream_market_id))
        {
            match crate::scores::race_off(state, &followed.link).await {
                Ok(()) => followed.off = true,
                Err(err) => {
                    let market_id = &followed.link.upstream_market_id;
                    tracing::warn!(market = %market_id, "feed: race not turned in play: {err}");
                    last_error = Some(format!("race of market {market_id}: {err}"));
                }
            }
        }
        if let Some(quotes) = quotes.as_mut().filter(|_| !held) {
            if let Err(err) = quotes.quote_due(state, &upstream, &followed, false).await {
                last_error = Some(err);
            }
        }
        let markets = board_markets(&upstream, &followed);
        let last_pt = upstream.pt();
        // A live stream's lag: how long after the upstream published its last message the
        // feed had acted on it.
        let lag_ms = last_pt.filter(|_| silence.is_some()).map(|pt| now_ms().saturating_sub(pt));
        if let Some(lag_ms) = lag_ms {
            backlay_kit::metrics::feed_lag(index, lag_ms);
        }
        state.feeds.update(index, |status| {
            status.messages += messages;
            status.refused += refused;
            if status.first_refusal.is_none() {
                status.first_refusal = first_refusal;
            }
            if last_error.is_some() {
                status.last_error = last_error;
            }
            status.last_pt = last_pt;
            if lag_ms.is_some() {
                status.lag_ms = lag_ms;
            }
            status.markets = markets;
        });
    }
    if let Some(quotes) = quotes.as_mut() {
        if let Err(err) = quotes.quote_due(state, &upstream, &followed, true).await {
            state.feeds.update(index, |status| status.last_error = Some(err));
        }
    }
    let status = state.feeds.get(index);
    tracing::info!(
        messages = status.as_ref().map(|s| s.messages),
        refused = status.as_ref().map(|s| s.refused),
        "feed: finished"
    );
    state.feeds.update(index, |status| status.state = FeedState::Finished);
}

/// The house's quoting: which markets' ladders moved since it last quoted them, and when it
/// last did.
struct HouseQuotes {
    house: House,
    terms: HouseTerms,
    /// The bookmaker twins' margin, when there are twins.
    bookmaker_margin_percent: Option<u32>,
    owed: BTreeSet<String>,
    quoted_at: HashMap<String, Instant>,
    /// The rates last posted on each twin (by its market id here): only a change is posted.
    posted_rates: HashMap<i64, liquidity::BookmakerRates>,
}

impl HouseQuotes {
    fn new(house: House, config: &FeedConfig) -> HouseQuotes {
        HouseQuotes {
            house,
            terms: HouseTerms {
                size_percent: config.size_percent,
                max_level_minor: config.max_level_minor,
            },
            bookmaker_margin_percent: config.bookmaker_margin_percent,
            owed: BTreeSet::new(),
            quoted_at: HashMap::new(),
            posted_rates: HashMap::new(),
        }
    }

    /// How long until the first owed quote falls due; `None` when none is owed.
    fn next_due(&self) -> Option<Duration> {
        self.owed
            .iter()
            .map(|id| {
                self.quoted_at
                    .get(id)
                    .map_or(Duration::ZERO, |at| REQUOTE_EVERY.saturating_sub(at.elapsed()))
            })
            .min()
    }

    /// Re-quotes the owed markets, each at most every [`REQUOTE_EVERY`] (the mirroring loop
    /// wakes when one falls due), or all of them with `flush` (the reader ended: the house's
    /// book ends as the upstream's stands). Every change between two quotes is in the second:
    /// the ladder quoted is the mirror's latest.
    async fn quote_due(
        &mut self,
        state: &AppState,
        upstream: &Mirror,
        followed: &[Followed],
        flush: bool,
    ) -> Result<(), String> {
        let mut last_error = None;
        let due: Vec<String> = self
            .owed
            .iter()
            .filter(|id| {
                flush || self.quoted_at.get(*id).is_none_or(|at| at.elapsed() >= REQUOTE_EVERY)
            })
            .cloned()
            .collect();
        for market_id in due {
            self.owed.remove(&market_id);
            self.quoted_at.insert(market_id.clone(), Instant::now());
            let (Some(market), Some(f)) = (
                upstream.market(&market_id),
                followed.iter().find(|f| f.link.upstream_market_id == market_id),
            ) else {
                continue;
            };
            let quoted = async {
                if f.ended || !open_here(state, &f.link).await? {
                    return Ok(());
                }
                let wanted = liquidity::wanted(&f.link, market, self.terms);
                requote(state, self.house, &f.link, &wanted).await?;
                if let (Some(twin), Some(margin)) = (&f.bookmaker, self.bookmaker_margin_percent) {
                    let rates = liquidity::bookmaker_rates(twin, market, margin);
                    let posted = self.posted_rates.get(&twin.market_id);
                    if posted != Some(&rates) && open_here(state, twin).await? {
                        // Not audited (no operator acted), as the house's orders are not.
                        let update = RatesUpdate::Bookmaker(rates.clone());
                        state.engine.set_rates(twin.market_id, update, None).await?;
                        self.posted_rates.insert(twin.market_id, rates);
                    }
                }
                Ok::<_, AppError>(())
            }
            .await;
            if let Err(err) = quoted {
                tracing::warn!(market = %market_id, "feed: house not re-quoted: {err}");
                last_error = Some(format!("market {market_id}: {err}"));
            }
        }
        last_error.map_or(Ok(()), Err)
    }
}

/// Acts on one upstream market that moved: made or joined here (with its bookmaker twin when
/// asked for), the house's orders pulled if the upstream is not open, the market (and its twin)
/// brought to the upstream's state when that changed. Answers what the lifecycle did and
/// whether the house should quote it (both sides open).
async fn follow(
    hub: &Hub,
    house: Option<House>,
    followed: &mut Vec<Followed>,
    market_id: &str,
    definition: &MarketDefinition,
) -> Result<(Vec<Moved>, bool), AppError> {
    let (state, settle) = (&hub.state, hub.config.settle);
    let followed = match followed.iter().position(|f| f.link.upstream_market_id == market_id) {
        Some(at) => &mut followed[at],
        None => {
            let link =
                catalogue::ensure_market(state, &hub.catalogue, market_id, definition).await?;
            followed.push(Followed::new(link));
            followed.last_mut().expect("pushed")
        }
    };
    let wants_twin = hub.config.bookmaker_margin_percent.is_some()
        && followed.link.market_type == MarketType::MatchOdds;
    if wants_twin && followed.bookmaker.is_none() {
        followed.bookmaker =
            Some(catalogue::ensure_bookmaker(state, &followed.link, definition).await?);
    }
    if followed.ended {
        return Ok((Vec::new(), false));
    }
    let link = &followed.link;
    let removed = definition
        .runners
        .iter()
        .filter(|r| matches!(r.status, RunnerStatus::Removed | RunnerStatus::RemovedVacant))
        .count();
    let upstream_state = (definition.status, definition.in_play, definition.bet_delay_s, removed);
    let open_upstream = definition.status == UpstreamStatus::Open;
    let mut steps = Vec::new();
    if followed.synced != Some(upstream_state) {
        // The house's orders are pulled before the market here is suspended or settled.
        if let Some(house) = house.filter(|_| !open_upstream) {
            if open_here(state, link).await? {
                requote(state, house, link, &[]).await?;
            }
        }
        // Both the market and its bookmaker twin are brought along, whatever either answers
        // (a result held for an operator holds both).
        let exchange = lifecycle::sync(state, link, definition, settle).await;
        let twin = match &followed.bookmaker {
            Some(twin) => Some(lifecycle::sync(state, twin, definition, settle).await),
            None => None,
        };
        steps = exchange?;
        twin.transpose()?;
        followed.synced = Some(upstream_state);
        followed.ended = steps
            .iter()
            .any(|step| matches!(step, Moved::Ended | Moved::Settled(_) | Moved::Voided));
    }
    // Quoted while both sides are open, at most every REQUOTE_EVERY.
    Ok((steps, open_upstream && !followed.ended))
}

/// The operator removed the feed: its markets suspended for good, the figures saying so.
async fn removed(state: &AppState, house: Option<House>, followed: &mut [Followed], index: usize) {
    let said = suspend_all(state, house, followed, "removed by the operator").await;
    state.feeds.update(index, |status| {
        status.state = FeedState::Removed;
        status.last_error = Some(format!("{said}, for an operator to settle or void"));
    });
}

/// What woke the mirroring task.
enum Woke {
    /// Lines (their count; 0: the reader ended), or `None`: a wait ran out.
    Lines(Option<usize>),
    /// The operator steered the feed (`false`: the board is gone).
    Steered(bool),
}

/// Every market the feed follows, to be brought back to the upstream's state.
fn resync_all(followed: &mut [Followed], moved: &mut BTreeSet<String>) {
    for f in followed.iter_mut().filter(|f| !f.ended) {
        f.synced = None;
        moved.insert(f.link.upstream_market_id.clone());
    }
}

/// The house's orders pulled and every market the feed follows suspended here (the stream fell
/// silent, or the operator paused or removed the feed), until it is brought back. Answers what
/// the feed's figures say of it.
async fn suspend_all(
    state: &AppState,
    house: Option<House>,
    followed: &mut [Followed],
    why: &str,
) -> String {
    let mut failed = Vec::new();
    for f in followed.iter_mut().filter(|f| !f.ended) {
        f.synced = None;
        let suspended = async {
            if let Some(twin) = &f.bookmaker {
                if open_here(state, twin).await? {
                    lifecycle::suspend(state, twin).await?;
                }
            }
            if !open_here(state, &f.link).await? {
                return Ok(());
            }
            if let Some(house) = house {
                requote(state, house, &f.link, &[]).await?;
            }
            lifecycle::suspend(state, &f.link).await
        }
        .await;
        if let Err(err) = suspended {
            tracing::warn!(market = %f.link.upstream_market_id, "feed: market not suspended: {err}");
            failed.push(format!("market {}: {err}", f.link.upstream_market_id));
        }
    }
    tracing::warn!("feed: {why}: its markets suspended");
    let mut said = format!("{why}: its markets suspended");
    if !failed.is_empty() {
        said.push_str(&format!(" (not suspended: {})", failed.join("; ")));
    }
    said
}

/// Now, in milliseconds since the epoch (the upstream's `pt` is).
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

async fn open_here(state: &AppState, link: &LinkedMarket) -> Result<bool, AppError> {
    Ok(state.store.market(link.market_id).await?.status == MarketStatus::Open)
}

/// Brings the house's orders in a market to `wanted`; refusals (a level the house cannot fund)
/// are logged, the rest stands.
async fn requote(
    state: &AppState,
    house: House,
    link: &LinkedMarket,
    wanted: &[HouseOrder],
) -> Result<(), AppError> {
    let requoted = requote_market(state, house, link.match_id, link.market_id, wanted).await?;
    if let Some(first) = requoted.refused.first() {
        tracing::warn!(
            market = %link.upstream_market_id,
            refused = requoted.refused.len(),
            "feed: house orders refused: {first}"
        );
    }
    Ok(())
}

/// A market the feed follows here, and what it last did with it: the lifecycle acts only when
/// the upstream's state changed, and nothing more once the market here is settled or void.
struct Followed {
    link: LinkedMarket,
    /// Its bookmaker twin (`--feed-bookmaker-margin`, match-odds markets).
    bookmaker: Option<LinkedMarket>,
    /// The runners as the feed's figures show them, read once.
    runners: Vec<FeedRunner>,
    /// The upstream's (status, in play, bet delay, runners removed) the market was last
    /// brought to: a change to any of them is synced (a non-runner while the market stays open
    /// too).
    synced: Option<(UpstreamStatus, bool, u32, usize)>,
    ended: bool,
    /// Its race was seen running and its match turned in play.
    off: bool,
}

impl Followed {
    fn new(link: LinkedMarket) -> Followed {
        let runners = board_runners(&link);
        Followed { link, bookmaker: None, runners, synced: None, ended: false, off: false }
    }
}

/// A linked market's runners as the feed's figures show them.
fn board_runners(link: &LinkedMarket) -> Vec<FeedRunner> {
    let mut runners: Vec<FeedRunner> = link
        .runners
        .iter()
        .map(|(&upstream_selection_id, &selection_id)| FeedRunner {
            upstream_selection_id,
            selection_id,
            name: link.runner_names.get(&selection_id).cloned().unwrap_or_default(),
        })
        .collect();
    runners.sort_by_key(|r| r.selection_id);
    runners
}

/// The feed's markets for its figures: the upstream's state and the runners here.
fn board_markets(upstream: &Mirror, followed: &[Followed]) -> Vec<FeedMarket> {
    let mut markets = Vec::with_capacity(followed.len());
    for f in followed {
        let status = upstream
            .market(&f.link.upstream_market_id)
            .and_then(|m| m.status())
            .map_or("UNKNOWN", |s| s.betfair_name())
            .to_owned();
        markets.push(FeedMarket {
            upstream_market_id: f.link.upstream_market_id.clone(),
            market_id: f.link.market_id,
            match_id: f.link.match_id,
            status: status.clone(),
            runners: f.runners.clone(),
        });
        // Its bookmaker twin, under the twin's own reference ("1.23/bookmaker").
        if let Some(twin) = &f.bookmaker {
            markets.push(FeedMarket {
                upstream_market_id: twin.upstream_market_id.clone(),
                market_id: twin.market_id,
                match_id: twin.match_id,
                status,
                runners: board_runners(twin),
            });
        }
    }
    markets
}
