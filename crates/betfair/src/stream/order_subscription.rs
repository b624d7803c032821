//! A connection's order subscription: an image of the client's live orders, then each order
//! whose state changed, read again in the markets that live events name for the client.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use backlay_store::bets::BetRow;
use serde_json::{json, Value};
use tokio::io::AsyncWrite;
use tokio::time::Instant;

use super::connection::Connection;
use super::lines::Writer;
use super::orders;
use super::protocol::{self, OrderSubscription, Refusal};
use super::{MAX_IMAGE_ORDERS, MAX_REMEMBERED_ORDERS};
use crate::Caller;
use backlay_kit::clock::now_ms;

/// An order subscription and the state of each order this connection was sent.
pub(super) struct Orders {
    id: Option<i64>,
    subscription: OrderSubscription,
    /// By bet id: the order's market and its `uo` as last sent.
    sent: HashMap<i64, (i64, Value)>,
    dirty: HashSet<i64>,
    /// Re-read every order (after missed events).
    everything_dirty: bool,
    flush_at: Option<Instant>,
    last_sent: Instant,
}

impl Orders {
    /// When something is next due: the conflated changes, or else a heartbeat.
    pub(super) fn due_at(&self) -> Instant {
        super::due_at(self.last_sent, self.subscription.heartbeat_ms, self.flush_at)
    }

    /// The client's bets in this market changed: its orders there are read again, conflated.
    pub(super) fn changed_in(&mut self, market_id: i64) {
        self.dirty.insert(market_id);
        self.flush_at
            .get_or_insert(Instant::now() + Duration::from_millis(self.subscription.conflate_ms));
    }

    /// Events were missed: every order is read afresh, now.
    pub(super) fn missed_events(&mut self) {
        self.everything_dirty = true;
        self.flush_at.get_or_insert(Instant::now());
    }
}

impl Connection {
    pub(super) async fn subscribe_orders<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        id: Option<i64>,
        subscription: OrderSubscription,
        caller: &Caller,
    ) -> Result<Option<Orders>, Refusal> {
        let bets = self
            .state
            .store
            .live_bets_of_user(caller.user.id, None, MAX_IMAGE_ORDERS)
            .await
            .map_err(|err| {
                tracing::error!("Betfair stream: reading orders failed: {err}");
                Refusal::new(
                    "UNEXPECTED_ERROR",
                    "Something went wrong on our side; subscribe again.",
                )
            })?
            .into_iter()
            .map(|(bet, _)| bet)
            .collect();
        let image: Vec<orders::Order> = self
            .orders_of(bets)
            .await
            .into_iter()
            .filter(|o| orders::wanted(o, subscription.strategy_refs.as_ref()))
            .collect();
        if out.send(&protocol::success(id, None)).await.is_err() {
            return Ok(None);
        }
        let clk = self.next_clk();
        let message = json!({
            "op": "ocm", "id": id, "initialClk": clk, "clk": clk,
            "conflateMs": subscription.conflate_ms, "heartbeatMs": subscription.heartbeat_ms,
            "pt": now_ms(), "ct": "SUB_IMAGE", "oc": orders::market_changes(&image, true),
        });
        if out.send(&message).await.is_err() {
            return Ok(None);
        }
        Ok(Some(Orders {
            id,
            subscription,
            sent: image.into_iter().map(|o| (o.bet_id, (o.market_id, o.uo))).collect(),
            dirty: HashSet::new(),
            everything_dirty: false,
            flush_at: None,
            last_sent: Instant::now(),
        }))
    }

    /// The orders of these bets (exchange bets only), with their fills.
    async fn orders_of(&mut self, bets: Vec<BetRow>) -> Vec<orders::Order> {
        let mut shown_bets = Vec::new();
        for bet in bets {
            if self.is_shown(bet.market_id).await {
                shown_bets.push(bet);
            }
        }
        let ids: Vec<i64> = shown_bets.iter().map(|b| b.bet_id).collect();
        let fills = match self.state.store.fill_summaries(&ids).await {
            Ok(fills) => fills,
            Err(err) => {
                tracing::warn!("Betfair stream: reading fills failed: {err}");
                Default::default()
            }
        };
        shown_bets.iter().filter_map(|bet| orders::order(bet, fills.get(&bet.bet_id))).collect()
    }

    async fn flush_orders<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        orders: &mut Orders,
        user_id: i64,
    ) -> Result<(), ()> {
        orders.flush_at = None;
        let mut market_ids: HashSet<i64> = orders.dirty.drain().collect();
        let mut bets: Vec<BetRow> = Vec::new();
        if std::mem::take(&mut orders.everything_dirty) {
            match self.state.store.live_bets_of_user(user_id, None, MAX_IMAGE_ORDERS).await {
                Ok(live) => market_ids.extend(live.iter().map(|(bet, _)| bet.market_id)),
                Err(err) => tracing::warn!("Betfair stream: reading orders failed: {err}"),
            }
            // And the markets of orders sent still working, which may have ended since.
            market_ids.extend(
                orders
                    .sent
                    .values()
                    .filter(|(_, uo)| uo["status"] == "E")
                    .map(|(market_id, _)| *market_id),
            );
        }
        for market_id in market_ids {
            match self.state.store.bets_of_user_in_market(user_id, market_id).await {
                Ok(found) => bets.extend(found),
                Err(err) => {
                    tracing::warn!(market_id, "Betfair stream: reading orders failed: {err}")
                }
            }
        }
        let changed: Vec<orders::Order> = self
            .orders_of(bets)
            .await
            .into_iter()
            .filter(|o| orders::wanted(o, orders.subscription.strategy_refs.as_ref()))
            .filter(|o| orders.sent.get(&o.bet_id).is_none_or(|(_, uo)| *uo != o.uo))
            .collect();
        if changed.is_empty() {
            return Ok(());
        }
        if orders.sent.len() + changed.len() > MAX_REMEMBERED_ORDERS {
            orders.sent.clear();
        }
        orders.sent.extend(changed.iter().map(|o| (o.bet_id, (o.market_id, o.uo.clone()))));
        let message = json!({
            "op": "ocm", "id": orders.id, "clk": self.next_clk(), "pt": now_ms(),
            "oc": orders::market_changes(&changed, false),
        });
        out.send(&message).await?;
        orders.last_sent = Instant::now();
        Ok(())
    }

    /// Sends what is due at `now`: the changes conflated, then a heartbeat if nothing went for
    /// the subscription's heartbeatMs. An error: the connection is gone.
    pub(super) async fn send_orders_due<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        orders: &mut Orders,
        user_id: i64,
        now: Instant,
    ) -> Result<(), ()> {
        if orders.flush_at.is_some_and(|at| at <= now) {
            self.flush_orders(out, orders, user_id).await?;
        }
        if orders.last_sent + Duration::from_millis(orders.subscription.heartbeat_ms) <= now {
            let heartbeat = json!({ "op": "ocm", "id": orders.id, "clk": self.next_clk(), "pt": now_ms(), "ct": "HEARTBEAT" });
            out.send(&heartbeat).await?;
            orders.last_sent = Instant::now();
        }
        Ok(())
    }
}
