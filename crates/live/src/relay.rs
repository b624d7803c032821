//! Live data across nodes: several `backlay serve` processes on one PostgreSQL database each
//! serve live streams (`GET /api/stream`), but a market's changes happen on the one node whose
//! engine runs it, and a casino table's rounds on the one node whose runner deals it. This
//! relay sends every live event a node PRODUCES to the other nodes with PostgreSQL's
//! `NOTIFY`, and feeds every event it hears from them into its own [`LiveBooks`] broadcast and
//! [`RoundEvents`], exactly as if produced here, so a stream neither knows nor cares which node
//! made an event. SQLite is one node: it relays nothing and starts no relay.
//!
//! What goes out is what a node made itself: the books its own [`LiveBooks`] coalesced from
//! its own engine's changes (so at most one every [`COALESCE_MS`](crate::COALESCE_MS)
//! per market, as the streams of the owner send them), the scores it set, its runner's round
//! news. Events heard from another node are never sent on (no echo between nodes), and each
//! notice carries the sending node's random id, so the sender skips its own when
//! `LISTEN` hands them back. Each event is serialised once, on its node: the books and news are
//! already JSON, and a notice wraps them as they are.
//!
//! A notice on the channel [`CHANNEL`] is one JSON object:
//!
//! ```text
//! {"node":"9f2c…","seq":41,"event":{"book":{"match_id":3,"market_id":17,"users":[5],"book":{…MarketBook…},"list":null}}}
//! {"node":"9f2c…","seq":42,"event":{"score":{"match_id":3,"sport_id":4,"score":{…LiveScore…}}}}
//! {"node":"9f2c…","seq":43,"event":{"round":{"game_id":4,"round_pk":88,"phase":"dealt","news":{…RoundEvent…}}}}
//! {"node":"9f2c…","seq":44,"event":"resync"}
//! {"node":"9f2c…","seq":45,"event":{"stored":1207}}
//! ```
//!
//! `seq` makes every notice unique: PostgreSQL delivers only one of several identical payloads
//! sent in one transaction, which would drop a book that changed back to an earlier state.
//! A `NOTIFY` payload must be shorter than 8000 bytes; a notice longer than
//! [`INLINE_MAX_BYTES`] (the book of a 20-runner race) is stored in `live_relay_payloads` and
//! only its row id is notified (`stored`), in the same statement; listeners read the row by id.
//! Rows older than [`STORED_RETAIN_MS`] are deleted by the sender, so that table stays small.
//!
//! Limits: a node's events wait in a bounded queue ([`OUTBOX_CAPACITY`]); when it is full (the
//! database is slow or unreachable) events are dropped, not queued, and once sending works again
//! a `resync` notice tells the other nodes' streams to take a fresh snapshot. One connection
//! listens per node; when it drops it is reconnected (with a growing pause, up to
//! [`RECONNECT_MAX_MS`]) and this node's streams are sent [`LiveEvent::Resync`], since notices
//! sent meanwhile are lost. Casino streams have no resync: a table page refetches its table at
//! its next round event, a few seconds later.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use backlay_casino_store::casino::RoundPhase;
use serde::Deserialize;
use serde_json::value::RawValue;
use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::books::{LiveBook, LiveBooks, LiveEvent};
use crate::round_events::{RoundEvents, RoundNews};

/// The PostgreSQL notification channel every node of one database sends and listens on.
pub const CHANNEL: &str = "backlay_live";
/// Notices up to this size go in the `NOTIFY` itself (PostgreSQL's limit is 7999 bytes).
pub const INLINE_MAX_BYTES: usize = 7_900;
/// Events of this node waiting to be sent; past it they are dropped and a resync follows.
pub const OUTBOX_CAPACITY: usize = 4_096;
/// Notices sent in one statement at most.
const BATCH_MAX: usize = 256;
/// How long a stored notice is kept for the listeners to read.
pub const STORED_RETAIN_MS: i64 = 60_000;
/// How often the sender deletes stored notices past [`STORED_RETAIN_MS`] (when it stored any).
const PRUNE_EVERY: Duration = Duration::from_secs(10);
/// The longest pause between two attempts to reconnect the listener, or to send again.
pub const RECONNECT_MAX_MS: u64 = 5_000;
/// Connections of the relay's own pool: one sends, one reads stored notices.
const RELAY_CONNECTIONS: u32 = 2;

/// A live event this node produced, to be sent to the other nodes.
#[derive(Debug)]
pub(crate) enum Outgoing {
    Book(Arc<LiveBook>),
    Score { match_id: i64, sport_id: i64, json: Arc<str> },
    Round { game_id: i64, news: Arc<RoundNews> },
}

/// Where this node's producers ([`LiveBooks`], [`RoundEvents`]) put the events they made. It
/// never waits: when the queue is full the event is dropped and the other nodes are told to
/// resync once sending catches up.
#[derive(Clone, Debug)]
pub(crate) struct Outbox {
    queue: mpsc::Sender<Outgoing>,
    /// Set when an event was dropped (queue full, or a send failed): a resync notice is owed.
    missed: Arc<AtomicBool>,
}

impl Outbox {
    pub(crate) fn send(&self, event: Outgoing) {
        match self.queue.try_send(event) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => self.missed.store(true, Ordering::Release),
            // The relay stopped with the server: nobody to tell.
            Err(TrySendError::Closed(_)) => {}
        }
    }

    /// Events made here were lost before reaching the outbox (the coalescing task fell
    /// behind the engine): the other nodes' streams must resync too.
    pub(crate) fn owe_resync(&self) {
        self.missed.store(true, Ordering::Release);
    }
}

/// This process's id on the channel: random, new at every start.
fn new_node_id() -> String {
    format!("{:016x}", rand::random::<u64>())
}

/// Starts relaying this node's live events to the other nodes of the PostgreSQL database at
/// `database_url`, and theirs to this node's streams, until `stopping` is cancelled.
/// Fails when the database cannot be reached or listened to.
pub async fn start(
    database_url: &str,
    live_books: &Arc<LiveBooks>,
    round_events: &Arc<RoundEvents>,
    stopping: CancellationToken,
) -> anyhow::Result<()> {
    let node: Arc<str> = new_node_id().into();
    let pool = PgPoolOptions::new()
        .max_connections(RELAY_CONNECTIONS)
        .acquire_timeout(Duration::from_secs(30))
        .connect(database_url)
        .await?;
    let listener = listen(database_url).await?;
    let (queue, outgoing) = mpsc::channel(OUTBOX_CAPACITY);
    let missed = Arc::new(AtomicBool::new(false));
    let outbox = Outbox { queue, missed: missed.clone() };
    live_books.relay_to(outbox.clone());
    round_events.relay_to(outbox);
    let peers = Peers {
        node: node.clone(),
        pool: pool.clone(),
        live_books: live_books.clone(),
        round_events: round_events.clone(),
    };
    tokio::spawn(send_loop(pool, node.clone(), outgoing, missed, stopping.clone()));
    tokio::spawn(listen_loop(database_url.to_string(), listener, peers, stopping));
    tracing::info!(node = &*node, "relaying live events to and from the other nodes");
    Ok(())
}

async fn listen(database_url: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect(database_url).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

// ---------------------------------------------------------------------------------------------
// Sending

/// Sends this node's events as they come, in batches, until `stopping` or until every
/// producer is gone.
async fn send_loop(
    pool: PgPool,
    node: Arc<str>,
    mut outgoing: mpsc::Receiver<Outgoing>,
    missed: Arc<AtomicBool>,
    stopping: CancellationToken,
) {
    let mut seq: u64 = 0;
    let mut batch = Vec::with_capacity(BATCH_MAX);
    let mut last_prune = Instant::now();
    let mut stored_since_prune = false;
    let mut pause_ms = 0;
    loop {
        let owed_resync = missed.load(Ordering::Acquire);
        tokio::select! {
            () = stopping.cancelled() => return,
            received = outgoing.recv_many(&mut batch, BATCH_MAX) => {
                if received == 0 {
                    return;
                }
            }
            // A resync owed after a failed send goes out even if nothing else comes.
            () = tokio::time::sleep(Duration::from_millis(pause_ms.max(100))), if owed_resync => {}
        }
        let mut notices: Vec<String> = batch
            .drain(..)
            .map(|event| {
                seq += 1;
                encode(&node, seq, &event)
            })
            .collect();
        if missed.swap(false, Ordering::AcqRel) {
            seq += 1;
            notices.push(format!(r#"{{"node":"{node}","seq":{seq},"event":"resync"}}"#));
        }
        match notify_all(&pool, &node, &mut seq, &notices).await {
            Ok(stored) => {
                stored_since_prune |= stored;
                pause_ms = 0;
            }
            Err(err) => {
                tracing::warn!("cannot send live events to the other nodes: {err}");
                missed.store(true, Ordering::Release);
                pause_ms = (pause_ms * 2).clamp(250, RECONNECT_MAX_MS);
                tokio::time::sleep(Duration::from_millis(pause_ms)).await;
            }
        }
        if stored_since_prune && last_prune.elapsed() >= PRUNE_EVERY {
            let pruned = sqlx::query(
                "DELETE FROM live_relay_payloads \
                 WHERE created_at_ms < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $1",
            )
            .bind(STORED_RETAIN_MS)
            .execute(&pool)
            .await;
            if let Err(err) = pruned {
                tracing::warn!("cannot delete old stored live events: {err}");
            }
            last_prune = Instant::now();
            stored_since_prune = false;
        }
    }
}

/// Notifies `notices` in order: each run of small ones in one statement, each big one stored
/// and its id notified in one statement. Answers whether any was stored.
async fn notify_all(
    pool: &PgPool,
    node: &str,
    seq: &mut u64,
    notices: &[String],
) -> Result<bool, sqlx::Error> {
    let mut stored = false;
    let mut rest = notices;
    while let Some(first) = rest.first() {
        if first.len() > INLINE_MAX_BYTES {
            *seq += 1;
            // The notice is stored and its id notified by one statement: both are visible to
            // the listeners at the same commit.
            let pointer_start = format!(r#"{{"node":"{node}","seq":{seq},"event":{{"stored":"#);
            sqlx::query(
                "WITH stored AS ( \
                     INSERT INTO live_relay_payloads (created_at_ms, payload) \
                     VALUES ((extract(epoch FROM clock_timestamp()) * 1000)::bigint, $2) \
                     RETURNING id) \
                 SELECT pg_notify($1, $3 || id || '}}') FROM stored",
            )
            .bind(CHANNEL)
            .bind(first)
            .bind(pointer_start)
            .execute(pool)
            .await?;
            stored = true;
            rest = &rest[1..];
        } else {
            let run = rest.iter().take_while(|n| n.len() <= INLINE_MAX_BYTES).count();
            sqlx::query("SELECT pg_notify($1, notice) FROM unnest($2::text[]) AS notice")
                .bind(CHANNEL)
                .bind(&rest[..run])
                .execute(pool)
                .await?;
            rest = &rest[run..];
        }
    }
    Ok(stored)
}

/// One event as a notice (see the module docs), its JSON parts copied in as they are.
fn encode(node: &str, seq: u64, event: &Outgoing) -> String {
    let event = match event {
        Outgoing::Book(book) => {
            let users: Vec<String> = book.users.iter().map(i64::to_string).collect();
            format!(
                r#"{{"book":{{"match_id":{},"market_id":{},"users":[{}],"book":{},"list":{}}}}}"#,
                book.match_id,
                book.market_id,
                users.join(","),
                book.json,
                book.list_json.as_deref().unwrap_or("null"),
            )
        }
        Outgoing::Score { match_id, sport_id, json } => {
            format!(r#"{{"score":{{"match_id":{match_id},"sport_id":{sport_id},"score":{json}}}}}"#)
        }
        Outgoing::Round { game_id, news } => format!(
            r#"{{"round":{{"game_id":{game_id},"round_pk":{},"phase":"{}","news":{}}}}}"#,
            news.round_pk,
            news.phase.as_str(),
            news.json
        ),
    };
    format!(r#"{{"node":"{node}","seq":{seq},"event":{event}}}"#)
}

// ---------------------------------------------------------------------------------------------
// Listening

/// A notice as it arrives (`seq` is not read: it only makes notices unique).
#[derive(Deserialize)]
struct Notice {
    event: NoticeEvent,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum NoticeEvent {
    Book {
        match_id: i64,
        market_id: i64,
        users: Vec<i64>,
        book: Box<RawValue>,
        list: Option<Box<RawValue>>,
    },
    Score {
        match_id: i64,
        sport_id: i64,
        score: Box<RawValue>,
    },
    Round {
        game_id: i64,
        round_pk: i64,
        phase: RoundPhase,
        news: Box<RawValue>,
    },
    Resync,
    /// A notice too big to notify, stored in `live_relay_payloads` under this id.
    Stored(i64),
}

/// What the listener hands the other nodes' events to.
struct Peers {
    /// This node's id: its own notices come back and are skipped.
    node: Arc<str>,
    /// Reads stored notices.
    pool: PgPool,
    live_books: Arc<LiveBooks>,
    round_events: Arc<RoundEvents>,
}

impl Peers {
    /// Feeds one notice to this node's streams.
    async fn deliver(&self, notice: &str) {
        if is_from(&self.node, notice) {
            return;
        }
        let event = match serde_json::from_str::<Notice>(notice) {
            Ok(Notice { event: NoticeEvent::Stored(id) }) => match self.read_stored(id).await {
                Some(Notice { event: NoticeEvent::Stored(_) }) | None => {
                    // Gone already (read too late) or unreadable: streams take a fresh snapshot.
                    NoticeEvent::Resync
                }
                Some(stored) => stored.event,
            },
            Ok(notice) => notice.event,
            Err(err) => {
                tracing::warn!("a live event from another node does not parse: {err}");
                return;
            }
        };
        match event {
            NoticeEvent::Book { match_id, market_id, users, book, list } => {
                let book = LiveBook {
                    match_id,
                    market_id,
                    json: raw_to_arc(&book),
                    list_json: list.as_deref().map(raw_to_arc),
                    users,
                };
                self.live_books.deliver_from_peer(LiveEvent::Book(Arc::new(book)));
            }
            NoticeEvent::Score { match_id, sport_id, score } => {
                self.live_books.deliver_from_peer(LiveEvent::Score(
                    match_id,
                    sport_id,
                    raw_to_arc(&score),
                ));
            }
            NoticeEvent::Round { game_id, round_pk, phase, news } => {
                let news = RoundNews { round_pk, phase, json: raw_to_arc(&news) };
                self.round_events.deliver_from_peer(game_id, news);
            }
            NoticeEvent::Resync | NoticeEvent::Stored(_) => {
                self.live_books.deliver_from_peer(LiveEvent::Resync);
            }
        }
    }

    async fn read_stored(&self, id: i64) -> Option<Notice> {
        let payload: Option<String> =
            match sqlx::query_scalar("SELECT payload FROM live_relay_payloads WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await
            {
                Ok(payload) => payload,
                Err(err) => {
                    tracing::warn!("cannot read stored live event {id}: {err}");
                    None
                }
            };
        let Some(payload) = payload else {
            tracing::warn!("stored live event {id} is gone");
            return None;
        };
        serde_json::from_str(&payload)
            .map_err(|err| tracing::warn!("stored live event {id} does not parse: {err}"))
            .ok()
    }
}

/// True when `notice` was sent by `node`: read from its start, before parsing anything.
fn is_from(node: &str, notice: &str) -> bool {
    notice
        .strip_prefix(r#"{"node":""#)
        .and_then(|rest| rest.strip_prefix(node))
        .is_some_and(|rest| rest.starts_with('"'))
}

fn raw_to_arc(raw: &RawValue) -> Arc<str> {
    Arc::from(raw.get())
}

/// Hands the other nodes' notices to this node's streams until `stopping`; reconnects when
/// the connection drops, then tells the streams to resync.
async fn listen_loop(
    database_url: String,
    mut listener: PgListener,
    peers: Peers,
    stopping: CancellationToken,
) {
    loop {
        let received = tokio::select! {
            () = stopping.cancelled() => return,
            received = listener.try_recv() => received,
        };
        match received {
            Ok(Some(notification)) => peers.deliver(notification.payload()).await,
            Ok(None) => {
                // The connection dropped and PgListener has already reconnected and listens
                // again: what was sent meanwhile is lost.
                tracing::warn!("the live events listener reconnected; streams resync");
                peers.live_books.deliver_from_peer(LiveEvent::Resync);
            }
            Err(err) => {
                tracing::warn!("the live events listener failed: {err}; reconnecting");
                let mut pause_ms = 250;
                listener = loop {
                    tokio::select! {
                        () = stopping.cancelled() => return,
                        () = tokio::time::sleep(Duration::from_millis(pause_ms)) => {}
                    }
                    match listen(&database_url).await {
                        Ok(listener) => break listener,
                        Err(err) => {
                            tracing::warn!("cannot listen for live events yet: {err}");
                            pause_ms = (pause_ms * 2).min(RECONNECT_MAX_MS);
                        }
                    }
                };
                tracing::info!("the live events listener reconnected; streams resync");
                peers.live_books.deliver_from_peer(LiveEvent::Resync);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(json: &str) -> Arc<LiveBook> {
        Arc::new(LiveBook {
            match_id: 3,
            market_id: 17,
            json: json.into(),
            list_json: Some(r#"{"match_id":3}"#.into()),
            users: vec![5, 9],
        })
    }

    #[test]
    fn a_book_notice_carries_the_books_json_as_it_is() {
        let notice = encode("ab12", 41, &Outgoing::Book(book(r#"{"market_id":17,"x":[1, 2]}"#)));
        assert_eq!(
            notice,
            r#"{"node":"ab12","seq":41,"event":{"book":{"match_id":3,"market_id":17,"users":[5,9],"book":{"market_id":17,"x":[1, 2]},"list":{"match_id":3}}}}"#
        );
        let Notice { event: NoticeEvent::Book { match_id, market_id, users, book, list } } =
            serde_json::from_str(&notice).unwrap()
        else {
            panic!("not a book");
        };
        assert_eq!((match_id, market_id, users), (3, 17, vec![5, 9]));
        assert_eq!(book.get(), r#"{"market_id":17,"x":[1, 2]}"#, "not re-serialised");
        assert_eq!(list.unwrap().get(), r#"{"match_id":3}"#);
    }

    #[test]
    fn score_round_resync_and_stored_notices_parse() {
        let score = encode(
            "ab12",
            1,
            &Outgoing::Score { match_id: 3, sport_id: 4, json: r#"{"in_play":true}"#.into() },
        );
        assert!(matches!(
            serde_json::from_str::<Notice>(&score).unwrap().event,
            NoticeEvent::Score { match_id: 3, sport_id: 4, score } if score.get() == r#"{"in_play":true}"#
        ));
        let news = Arc::new(RoundNews {
            round_pk: 88,
            phase: RoundPhase::Dealt,
            json: r#"{"game_code":"dt6"}"#.into(),
        });
        let round = encode("ab12", 2, &Outgoing::Round { game_id: 4, news });
        assert!(matches!(
            serde_json::from_str::<Notice>(&round).unwrap().event,
            NoticeEvent::Round { game_id: 4, round_pk: 88, phase: RoundPhase::Dealt, .. }
        ));
        let resync = r#"{"node":"ab12","seq":3,"event":"resync"}"#;
        assert!(matches!(
            serde_json::from_str::<Notice>(resync).unwrap().event,
            NoticeEvent::Resync
        ));
        // As the SQL of notify_all builds it: the pointer's start, the id, `}}`.
        let stored = format!(r#"{{"node":"ab12","seq":4,"event":{{"stored":{}}}}}"#, 1207);
        assert!(matches!(
            serde_json::from_str::<Notice>(&stored).unwrap().event,
            NoticeEvent::Stored(1207)
        ));
    }

    #[test]
    fn a_node_knows_its_own_notices_by_their_start() {
        let own = encode("ab12", 1, &Outgoing::Book(book("{}")));
        let other = encode("ab123", 1, &Outgoing::Book(book("{}")));
        assert!(is_from("ab12", &own));
        assert!(!is_from("ab12", &other), "a longer id that starts the same is another node");
        assert!(is_from("ab123", &other));
    }
}
