//! A connection's market subscription: which markets it covers (a filter, checked again for
//! markets that open later), their image, and the changes conflated after live events, each
//! market read once per event for all the connections ([`Registry`]).
//!
//! [`Registry`]: super::registry::Registry

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::io::AsyncWrite;
use tokio::time::Instant;

use super::connection::Connection;
use super::lines::Writer;
use super::market::{self, MarketSnapshot, SentMarket};
use super::protocol::{self, MarketFilter, MarketSubscription, Refusal};
use super::{MAX_MARKETS, MAX_REMEMBERED_ORDERS};
use crate::market_type_code;
use backlay_kit::clock::now_ms;
use backlay_live::LiveBook;

/// A market subscription and what this connection was sent of each market.
pub(super) struct Markets {
    id: Option<i64>,
    subscription: MarketSubscription,
    /// Every market covered; `None` until its image went.
    sent: HashMap<i64, Option<SentMarket>>,
    /// Markets seen in events and found not to pass the filter (filter-based subscriptions).
    passed_over: HashSet<i64>,
    /// Markets changed since the last message, with the event that said so (`None`: read
    /// afresh, after missed events).
    dirty: HashMap<i64, Option<Arc<LiveBook>>>,
    flush_at: Option<Instant>,
    last_sent: Instant,
}

impl Markets {
    /// When something is next due: the conflated changes, or else a heartbeat.
    pub(super) fn due_at(&self) -> Instant {
        super::due_at(self.last_sent, self.subscription.heartbeat_ms, self.flush_at)
    }

    /// Events were missed: every market covered is read afresh, now.
    pub(super) fn missed_events(&mut self) {
        self.dirty.extend(self.sent.keys().map(|id| (*id, None)));
        self.flush_at.get_or_insert(Instant::now());
    }
}

impl Connection {
    /// Subscribes (replacing any earlier market subscription): the status, then the image.
    /// `Ok(None)`: the connection is gone.
    pub(super) async fn subscribe_markets<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        id: Option<i64>,
        subscription: MarketSubscription,
    ) -> Result<Option<Markets>, Refusal> {
        let covered = self.covered(&subscription.filter).await?;
        let mut mc = Vec::new();
        let mut sent = HashMap::new();
        for market_id in covered {
            let snapshot = self.snapshot(market_id).await;
            match snapshot {
                Some(snapshot) => {
                    let (item, state) = market::change(&snapshot, None, &subscription.fields);
                    mc.extend(item);
                    sent.insert(market_id, Some(state));
                }
                None => {
                    sent.insert(market_id, None);
                }
            }
        }
        if out.send(&protocol::success(id, None)).await.is_err() {
            return Ok(None);
        }
        let clk = self.next_clk();
        let image = json!({
            "op": "mcm", "id": id, "initialClk": clk, "clk": clk,
            "conflateMs": subscription.conflate_ms, "heartbeatMs": subscription.heartbeat_ms,
            "pt": now_ms(), "ct": "SUB_IMAGE", "mc": mc,
        });
        if out.send(&image).await.is_err() {
            return Ok(None);
        }
        Ok(Some(Markets {
            id,
            subscription,
            sent,
            passed_over: HashSet::new(),
            dirty: HashMap::new(),
            flush_at: None,
            last_sent: Instant::now(),
        }))
    }

    pub(super) async fn market_changed(&mut self, markets: &mut Markets, book: &Arc<LiveBook>) {
        let market_id = book.market_id;
        let covered = if markets.sent.contains_key(&market_id) {
            true
        } else if markets.subscription.filter.market_ids.is_some()
            || markets.passed_over.contains(&market_id)
            || markets.sent.len() >= MAX_MARKETS
        {
            false
        } else {
            // A market that opened after the subscription, under a filter that names no markets.
            let passes = self.passes(&markets.subscription.filter, market_id).await;
            if passes {
                markets.sent.insert(market_id, None);
            } else if markets.passed_over.len() < MAX_REMEMBERED_ORDERS {
                markets.passed_over.insert(market_id);
            }
            passes
        };
        if covered {
            markets.dirty.insert(market_id, Some(book.clone()));
            markets.flush_at.get_or_insert(
                Instant::now() + Duration::from_millis(markets.subscription.conflate_ms),
            );
        }
    }

    async fn passes(&mut self, filter: &MarketFilter, market_id: i64) -> bool {
        if !self.is_shown(market_id).await {
            return false;
        }
        let Ok(row) = self.state.store.market(market_id).await else { return false };
        if row.status.is_settled() {
            return false;
        }
        let Ok(event) = self.state.store.match_by_id(row.setup.match_id).await else {
            return false;
        };
        let within =
            |set: &Option<HashSet<i64>>, id: i64| set.as_ref().is_none_or(|s| s.contains(&id));
        let named = |set: &Option<HashSet<String>>, value: Option<&str>| {
            set.as_ref().is_none_or(|s| value.is_some_and(|v| s.contains(&v.to_uppercase())))
        };
        within(&filter.market_ids, market_id)
            && within(&filter.event_type_ids, event.sport_id)
            && within(&filter.event_ids, event.match_id)
            && named(&filter.market_types, market_type_code(row.setup.market_type))
            && named(&filter.betting_types, Some("ODDS"))
            && named(&filter.country_codes, event.country_code.as_deref())
            && named(&filter.venues, event.venue.as_deref())
    }

    /// The markets a subscription covers now.
    async fn covered(&mut self, filter: &MarketFilter) -> Result<Vec<i64>, Refusal> {
        let candidates: Vec<i64> = match &filter.market_ids {
            Some(ids) => {
                let mut ids: Vec<i64> = ids.iter().copied().collect();
                ids.sort_unstable();
                ids
            }
            None => {
                let live = self.state.store.live_markets().await.map_err(|err| {
                    tracing::error!("Betfair stream: reading the markets failed: {err}");
                    Refusal::new(
                        "UNEXPECTED_ERROR",
                        "Something went wrong on our side; subscribe again.",
                    )
                })?;
                live.into_iter()
                    .filter(|m| market_type_code(m.setup.market_type).is_some())
                    .map(|m| m.setup.market_id)
                    .collect()
            }
        };
        if filter.market_ids.is_some() && candidates.len() > MAX_MARKETS {
            return Err(subscription_limit());
        }
        let mut covered = Vec::new();
        for market_id in candidates {
            if self.passes(filter, market_id).await
                || (filter.market_ids.is_some() && self.is_shown(market_id).await)
            {
                covered.push(market_id);
                if covered.len() > MAX_MARKETS {
                    return Err(subscription_limit());
                }
            }
        }
        Ok(covered)
    }

    /// The market as it is after `event`: read once for every connection that got the same
    /// event (a market read is five queries, and on a cluster a call to its owner).
    async fn snapshot_after(
        &self,
        market_id: i64,
        event: Option<Arc<LiveBook>>,
    ) -> Option<Arc<MarketSnapshot>> {
        if let Some(event) = &event {
            if let Some(snapshot) = self.registry.snapshot_read_after(market_id, event) {
                return Some(snapshot);
            }
        }
        let snapshot = Arc::new(self.snapshot(market_id).await?);
        if let Some(event) = event {
            self.registry.keep_snapshot(market_id, event, snapshot.clone());
        }
        Some(snapshot)
    }

    async fn snapshot(&self, market_id: i64) -> Option<MarketSnapshot> {
        match market::read_snapshot(&self.state, market_id).await {
            Ok(snapshot) => snapshot,
            Err(err) => {
                tracing::warn!(market_id, "Betfair stream: reading the market failed: {err:#}");
                None
            }
        }
    }

    async fn flush_markets<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        markets: &mut Markets,
    ) -> Result<(), ()> {
        markets.flush_at = None;
        let mut dirty: Vec<(i64, Option<Arc<LiveBook>>)> = markets.dirty.drain().collect();
        dirty.sort_unstable_by_key(|(market_id, _)| *market_id);
        let mut mc = Vec::new();
        for (market_id, event) in dirty {
            let Some(snapshot) = self.snapshot_after(market_id, event).await else { continue };
            let before = markets.sent.get(&market_id).and_then(Option::as_ref);
            let (item, state) = market::change(&snapshot, before, &markets.subscription.fields);
            mc.extend(item);
            markets.sent.insert(market_id, Some(state));
        }
        if mc.is_empty() {
            return Ok(());
        }
        let message = json!({ "op": "mcm", "id": markets.id, "clk": self.next_clk(), "pt": now_ms(), "mc": mc });
        out.send(&message).await?;
        markets.last_sent = Instant::now();
        Ok(())
    }

    /// Sends what is due at `now`: the changes conflated, then a heartbeat if nothing went for
    /// the subscription's heartbeatMs. An error: the connection is gone.
    pub(super) async fn send_markets_due<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        markets: &mut Markets,
        now: Instant,
    ) -> Result<(), ()> {
        if markets.flush_at.is_some_and(|at| at <= now) {
            self.flush_markets(out, markets).await?;
        }
        if markets.last_sent + Duration::from_millis(markets.subscription.heartbeat_ms) <= now {
            let heartbeat = json!({ "op": "mcm", "id": markets.id, "clk": self.next_clk(), "pt": now_ms(), "ct": "HEARTBEAT" });
            out.send(&heartbeat).await?;
            markets.last_sent = Instant::now();
        }
        Ok(())
    }
}

fn subscription_limit() -> Refusal {
    Refusal::new(
        "SUBSCRIPTION_LIMIT_EXCEEDED",
        format!("A subscription covers at most {MAX_MARKETS} markets: narrow the marketFilter."),
    )
}
