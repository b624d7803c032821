//! Public news of the rounds, for the live stream (`GET stream?casino=…`): each step the
//! [`runner`](super::runner) takes is published here as a small [`RoundEvent`], so a table page
//! can refetch `casino/roundState` when something happened instead of asking every second.
//!
//! An event says only which round of which game reached which phase (and, while betting, when
//! it closes): never the seed, the deal or anyone's bets. The page asks `casino/roundState` for
//! those, which serves the seed only once the round is dealt and only the caller's own bets.
//!
//! Example: Dragon Tiger's runner opens `dt1day-1795356000000`, closes it 30 s later, deals and
//! settles it; a listener of `dt6` receives
//!
//! ```text
//! {"game_code":"dt6","round_id":"dt1day-1795356000000","phase":"betting","close_at":"2026-11-22T14:00:30.000Z"}
//! {"game_code":"dt6","round_id":"dt1day-1795356000000","phase":"closed"}
//! {"game_code":"dt6","round_id":"dt1day-1795356000000","phase":"dealt"}
//! {"game_code":"dt6","round_id":"dt1day-1795356000000","phase":"settled"}
//! ```
//!
//! One bounded broadcast channel per game, created when first used (so no more channels than
//! games): the runner never waits for a listener, and a listener that falls more than
//! [`ROUND_BACKLOG`] events behind skips to the newest — the page refetches the whole table on
//! any event anyway.
//!
//! On PostgreSQL the news of this node's runner is also sent to the other nodes of the
//! database, and theirs comes in as if published here ([`crate::relay`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use backlay_casino_store::casino::{CasinoRound, RoundPhase};
use serde::Serialize;
use tokio::sync::broadcast::{self, error::TryRecvError};
use utoipa::ToSchema;

use crate::relay::{Outbox, Outgoing};
use backlay_kit::clock::iso_utc;

/// Events per game a listener may fall behind by before it skips to the newest.
pub const ROUND_BACKLOG: usize = 16;

/// What a listener is sent: a round reached a phase.
#[derive(Serialize, ToSchema, Debug, Clone, PartialEq, Eq)]
pub struct RoundEvent {
    /// The game's client code (`dt6`), however the listener named the game.
    pub game_code: String,
    pub round_id: String,
    /// Betting (the round opened), closed, dealt or settled.
    pub phase: RoundPhase,
    /// When betting closes (RFC 3339): only while the round is betting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close_at: Option<String>,
}

/// A published [`RoundEvent`], serialised once however many listen, with what a listener
/// needs to tell newer news from older.
#[derive(Debug)]
pub struct RoundNews {
    /// The round's row id: a later round of a game has a larger one.
    pub round_pk: i64,
    pub phase: RoundPhase,
    /// The [`RoundEvent`] as JSON.
    pub json: Arc<str>,
}

impl RoundNews {
    /// The news that `round` of the game `game_code` is in `phase`.
    pub fn new(game_code: &str, round: &CasinoRound, phase: RoundPhase) -> RoundNews {
        let event = RoundEvent {
            game_code: game_code.to_string(),
            round_id: round.round_id.clone(),
            phase,
            close_at: (phase == RoundPhase::Betting).then(|| iso_utc(round.close_at_ms)),
        };
        RoundNews {
            round_pk: round.id,
            phase,
            json: serde_json::to_string(&event).unwrap_or_default().into(),
        }
    }

    /// True when this is later news than `sent` (a later round, or a later phase of the same).
    pub fn is_newer_than(&self, sent: Option<(i64, RoundPhase)>) -> bool {
        sent.is_none_or(|sent| (self.round_pk, self.phase) > sent)
    }
}

/// The channels between the runner and the streams, one per game id.
#[derive(Debug, Default)]
pub struct RoundEvents {
    channels: Mutex<HashMap<i64, broadcast::Sender<Arc<RoundNews>>>>,
    /// Where this node's runner's news goes to reach the other nodes (PostgreSQL only).
    relay: OnceLock<Outbox>,
}

impl RoundEvents {
    fn channel(&self, game_id: i64) -> broadcast::Sender<Arc<RoundNews>> {
        let mut channels = self.channels.lock().expect("round events lock");
        channels.entry(game_id).or_insert_with(|| broadcast::channel(ROUND_BACKLOG).0).clone()
    }

    /// Tells the game's listeners (if any; never waits for them), on every node.
    pub fn publish(&self, game_id: i64, news: RoundNews) {
        let news = Arc::new(news);
        if let Some(relay) = self.relay.get() {
            relay.send(Outgoing::Round { game_id, news: news.clone() });
        }
        let _ = self.channel(game_id).send(news);
    }

    /// From now on, also sends the news published here to the other nodes.
    pub(crate) fn relay_to(&self, outbox: Outbox) {
        let _ = self.relay.set(outbox);
    }

    /// News another node's runner published, to this node's listeners only (never sent on).
    pub(crate) fn deliver_from_peer(&self, game_id: i64, news: RoundNews) {
        let _ = self.channel(game_id).send(Arc::new(news));
    }

    /// Listens to one game's rounds from now on.
    pub fn subscribe(&self, game_id: i64) -> broadcast::Receiver<Arc<RoundNews>> {
        self.channel(game_id).subscribe()
    }
}

/// After a listener lagged: the newest news still in its channel, skipping the rest (`None`
/// when nothing is waiting).
pub fn newest(events: &mut broadcast::Receiver<Arc<RoundNews>>) -> Option<Arc<RoundNews>> {
    let mut newest = None;
    loop {
        match events.try_recv() {
            Ok(news) => newest = Some(news),
            Err(TryRecvError::Lagged(_)) => continue,
            Err(TryRecvError::Empty | TryRecvError::Closed) => return newest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(id: i64) -> CasinoRound {
        CasinoRound {
            id,
            round_id: format!("dt1day-{id}"),
            game_id: 4,
            kind: "dt1day".into(),
            commitment: "c".repeat(64),
            secret_seed_hex: "5eed".repeat(16),
            phase: RoundPhase::Betting,
            opened_at_ms: 0,
            close_at_ms: 1_795_356_030_000,
            bet_count: 0,
            staked_minor: 0,
            deal_json: None,
            result_json: None,
            winner: None,
            dealt_at_ms: None,
            paid_minor: None,
            settled_at_ms: None,
        }
    }

    #[test]
    fn an_event_names_the_round_and_its_phase_and_never_the_seed() {
        let betting = RoundNews::new("dt6", &round(7), RoundPhase::Betting);
        let value: serde_json::Value = serde_json::from_str(&betting.json).unwrap();
        assert_eq!(
            value,
            serde_json::json!({ "game_code": "dt6", "round_id": "dt1day-7", "phase": "betting", "close_at": iso_utc(1_795_356_030_000) })
        );
        let dealt = RoundNews::new("dt6", &round(7), RoundPhase::Dealt);
        assert_eq!(&*dealt.json, r#"{"game_code":"dt6","round_id":"dt1day-7","phase":"dealt"}"#);
        assert!(!dealt.json.contains("5eed"));
    }

    #[test]
    fn newer_news_is_a_later_round_or_a_later_phase() {
        let closed = RoundNews::new("dt6", &round(7), RoundPhase::Closed);
        assert!(closed.is_newer_than(None));
        assert!(closed.is_newer_than(Some((7, RoundPhase::Betting))));
        assert!(!closed.is_newer_than(Some((7, RoundPhase::Closed))));
        assert!(!closed.is_newer_than(Some((7, RoundPhase::Dealt))));
        assert!(closed.is_newer_than(Some((6, RoundPhase::Settled))));
    }

    #[tokio::test]
    async fn a_lagging_listener_skips_to_the_newest() {
        let events = RoundEvents::default();
        let mut listener = events.subscribe(4);
        let mut other_game = events.subscribe(5);
        for id in 1..=(ROUND_BACKLOG as i64 + 5) {
            events.publish(4, RoundNews::new("dt6", &round(id), RoundPhase::Betting));
        }
        assert!(matches!(listener.recv().await, Err(broadcast::error::RecvError::Lagged(_))));
        assert_eq!(newest(&mut listener).unwrap().round_pk, ROUND_BACKLOG as i64 + 5);
        assert!(newest(&mut listener).is_none());
        assert!(newest(&mut other_game).is_none(), "another game's listener heard nothing");
    }
}
