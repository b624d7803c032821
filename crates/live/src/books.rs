//! What the live streams (`GET /api/stream`) are made of, outside any one request: how long the
//! tickets that open them last ([`TICKET_TTL_MS`]; they are stored in the database,
//! `backlay_store::tickets`, so that any node opens a stream with a ticket another issued), and
//! the one task, [`LiveBooks`], that turns the engine's
//! changes (each carrying the market's public book as it was after the change) into events,
//! coalescing changes per market ([`COALESCE_MS`]) and serialising each book once however many
//! listen (and, for a match-odds market, its line in the match lists once too). A match's
//! score and result ([`LiveScore`]) go out on the same channel when set
//! ([`LiveBooks::publish_score`]), uncoalesced: a score changes once a ball at most.
//!
//! On PostgreSQL the books and scores this node produces are also sent to the other nodes of
//! the database, and theirs come in as if produced here ([`crate::relay`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use backlay_core::score::{Score, ScoreInput, ScoreView};
use backlay_store::catalogue::Match;
use serde::Serialize;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;
use utoipa::ToSchema;

use crate::market_book::{public_book, ListOdds, OddsSummary};
use crate::relay::{Outbox, Outgoing};
use backlay_core::exchange::MarketType;
use backlay_engine::{Engine, MarketChange, MarketView};

/// Changes to one market within this window go out as one event.
pub const COALESCE_MS: u64 = 200;
/// How long a ticket opens streams for.
pub const TICKET_TTL_MS: i64 = 60_000;
/// What [`LiveBooks`] sends its listeners.
#[derive(Clone, Debug)]
pub enum LiveEvent {
    /// A market's public book, serialised.
    Book(Arc<LiveBook>),
    /// A match's score or result changed: (match id, its sport, the [`LiveScore`] as JSON).
    Score(i64, i64, Arc<str>),
    /// Changes were missed: every listener should take a fresh snapshot.
    Resync,
}

#[derive(Debug)]
pub struct LiveBook {
    pub match_id: i64,
    pub market_id: i64,
    /// The `MarketBook` as JSON.
    pub json: Arc<str>,
    /// A match-odds market only: its line in the match lists, a `ListOdds` as JSON.
    pub list_json: Option<Arc<str>>,
    /// Users whose own figures in this market changed since the last event, ascending.
    pub users: Vec<i64>,
}

/// The `score` event of a match stream: the match's live state as it now is.
#[derive(Serialize, ToSchema, Debug)]
pub struct LiveScore {
    pub match_id: i64,
    pub sport_id: i64,
    /// The match is being played now (not before the off, not once it has ended).
    pub in_play: bool,
    /// Null until a score was set.
    #[schema(required = true)]
    pub score: Option<ScoreView>,
    /// How the match ended; null until declared.
    #[schema(required = true)]
    pub result: Option<String>,
}

impl LiveScore {
    /// The live state of a match as read from the store.
    pub fn of(the_match: &Match) -> LiveScore {
        LiveScore {
            match_id: the_match.match_id,
            sport_id: the_match.sport_id,
            in_play: is_in_play(the_match),
            score: stored_score(the_match).map(|score| score.view()),
            result: the_match.result.clone(),
        }
    }
}

/// In play means being played now: marked in play, no result declared, markets not all settled.
pub fn is_in_play(the_match: &Match) -> bool {
    the_match.in_play && the_match.result.is_none() && !the_match.finished
}

/// The match's stored score, checked again on the way out (a row written by hand that no
/// longer parses is logged and shown as no score).
pub fn stored_score(the_match: &Match) -> Option<Score> {
    let json = the_match.score.as_deref()?;
    let parsed = serde_json::from_str::<ScoreInput>(json)
        .map_err(|err| err.to_string())
        .and_then(|input| Score::parse(input).map_err(|err| format!("{}: {err}", err.field)));
    match parsed {
        Ok(score) => Some(score),
        Err(err) => {
            tracing::warn!(match_id = the_match.match_id, "stored score does not parse: {err}");
            None
        }
    }
}

/// Events a slow listener may fall behind by before it gets a fresh snapshot.
const LIVE_BACKLOG: usize = 4096;

/// The one task between the engine's changes and every stream: coalesces changes per market,
/// reads each changed market's public book once, serialises it once and broadcasts it.
#[derive(Debug)]
pub struct LiveBooks {
    events: broadcast::Sender<LiveEvent>,
    /// Where the books and scores made here go to reach the other nodes (PostgreSQL only).
    relay: Arc<OnceLock<Outbox>>,
}

impl LiveBooks {
    /// Starts the task; it ends when the engine does.
    pub fn start(engine: &Engine) -> Arc<LiveBooks> {
        let (events, _) = broadcast::channel(LIVE_BACKLOG);
        let relay = Arc::new(OnceLock::new());
        tokio::spawn(coalesce(engine.subscribe(), events.clone(), relay.clone()));
        Arc::new(LiveBooks { events, relay })
    }

    /// From now on, also sends the books and scores made here to the other nodes.
    pub(crate) fn relay_to(&self, outbox: Outbox) {
        let _ = self.relay.set(outbox);
    }

    /// An event another node made, to this node's streams only (never sent on).
    pub(crate) fn deliver_from_peer(&self, event: LiveEvent) {
        let _ = self.events.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.events.subscribe()
    }

    /// Sends a match's new score and result to its streams, serialised once.
    pub fn publish_score(&self, score: &LiveScore) {
        let json: Arc<str> = serde_json::to_string(score).unwrap_or_default().into();
        if let Some(relay) = self.relay.get() {
            relay.send(Outgoing::Score {
                match_id: score.match_id,
                sport_id: score.sport_id,
                json: json.clone(),
            });
        }
        // No listener is no error: the score is stored, a stream reads it when it opens.
        let _ = self.events.send(LiveEvent::Score(score.match_id, score.sport_id, json));
    }
}

/// A market changed since its last event.
struct Pending {
    match_id: i64,
    users: BTreeSet<i64>,
    due: Instant,
    /// The latest public book.
    view: Arc<MarketView>,
}

async fn coalesce(
    mut changes: broadcast::Receiver<MarketChange>,
    events: broadcast::Sender<LiveEvent>,
    relay: Arc<OnceLock<Outbox>>,
) {
    let window = Duration::from_millis(COALESCE_MS);
    let mut last_sent: HashMap<i64, Instant> = HashMap::new();
    let mut pending: HashMap<i64, Pending> = HashMap::new();
    loop {
        let next_due = pending.values().map(|p| p.due).min();
        tokio::select! {
            received = changes.recv() => match received {
                Ok(change) => {
                    // The first change after a quiet spell goes at once; later ones wait out the window.
                    let due = last_sent.get(&change.market_id).map_or_else(Instant::now, |sent| *sent + window);
                    let entry = pending
                        .entry(change.market_id)
                        .or_insert_with(|| Pending { match_id: change.match_id, users: BTreeSet::new(), due, view: change.view.clone() });
                    entry.users.extend(change.users.iter().copied());
                    entry.view = change.view;
                }
                Err(RecvError::Lagged(_)) => {
                    let _ = events.send(LiveEvent::Resync);
                    if let Some(relay) = relay.get() {
                        relay.owe_resync();
                    }
                }
                Err(RecvError::Closed) => return,
            },
            () = sleep_until_due(next_due) => {}
        }
        let now = Instant::now();
        let ready: Vec<i64> =
            pending.iter().filter(|(_, p)| p.due <= now).map(|(market, _)| *market).collect();
        for market_id in ready {
            let Some(change) = pending.remove(&market_id) else { continue };
            last_sent.insert(market_id, now);
            let book = public_book(&change.view);
            let json: Arc<str> = serde_json::to_string(&book).unwrap_or_default().into();
            let list_json = (change.view.setup.market_type == MarketType::MatchOdds).then(|| {
                let line =
                    ListOdds { match_id: change.match_id, odds: OddsSummary::of(&change.view) };
                Arc::<str>::from(serde_json::to_string(&line).unwrap_or_default())
            });
            let book = LiveBook {
                match_id: change.match_id,
                market_id,
                json,
                list_json,
                users: change.users.into_iter().collect(),
            };
            let book = Arc::new(book);
            if let Some(relay) = relay.get() {
                relay.send(Outgoing::Book(book.clone()));
            }
            let _ = events.send(LiveEvent::Book(book));
        }
        // Forget markets quiet for longer than the window: their next change goes at once anyway.
        last_sent.retain(|_, sent| now.duration_since(*sent) < window);
    }
}

async fn sleep_until_due(due: Option<Instant>) {
    match due {
        Some(due) => tokio::time::sleep_until(due).await,
        None => std::future::pending().await,
    }
}
