//! A stream connection's state machine: `connection` first, then authentication within
//! [`AUTH_TIMEOUT_MS`], then requests, live events, conflated changes, heartbeats and session
//! checks until either side ends it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use backlay_store::bets::BetRow;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio::time::Instant;

use super::lines::{LineReader, Writer};
use super::market::{self, MarketSnapshot, SentMarket};
use super::orders;
use super::protocol::{
    self, MarketFilter, MarketSubscription, OrderSubscription, Refusal, Request,
};
use super::registry::Registry;
use super::{
    AUTH_TIMEOUT_MS, MAX_CONNECTIONS_PER_USER, MAX_IMAGE_ORDERS, MAX_MARKETS,
    MAX_REMEMBERED_ORDERS, REQUEST_BACKLOG, SESSION_CHECK_MS,
};
use crate::{market_type_code, session_user, Caller};
use backlay_kit::clock::now_ms;
use backlay_live::{LiveBook, LiveEvent};
use backlay_operator::AppState;

/// A market subscription and what this connection was sent of each market.
struct Markets {
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

/// An order subscription and the state of each order this connection was sent.
struct Orders {
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

pub(super) struct Connection {
    state: AppState,
    registry: Arc<Registry>,
    connection_id: String,
    _permit: Option<OwnedSemaphorePermit>,
    clk: u64,
    /// Whether each market seen is one the bot API shows (exchange markets).
    shown: HashMap<i64, bool>,
}

/// Why a connection ends: a refusal to send (with the request's id), or nothing to say.
type End = Option<(Option<i64>, Refusal)>;

impl Connection {
    pub(super) fn new(
        state: AppState,
        registry: Arc<Registry>,
        connection_id: String,
        permit: Option<OwnedSemaphorePermit>,
    ) -> Connection {
        Connection {
            state,
            registry,
            connection_id,
            _permit: permit,
            clk: 0,
            shown: HashMap::new(),
        }
    }

    fn next_clk(&mut self) -> String {
        self.clk += 1;
        format!("{}", self.clk)
    }

    pub(super) async fn serve<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(
        mut self,
        stream: S,
    ) {
        let (reader, writer) = tokio::io::split(stream);
        let mut out = Writer::new(writer);
        // Lines are read by a task of their own, so that waiting for one never loses half of it.
        let (requests_tx, mut requests) = mpsc::channel::<Result<String, Refusal>>(REQUEST_BACKLOG);
        let reading = tokio::spawn(async move {
            let mut lines = LineReader::new(reader);
            loop {
                let next = lines.next().await;
                let last = !matches!(next, Ok(Some(_)));
                let Some(item) = next.transpose() else { return };
                if requests_tx.send(item).await.is_err() || last {
                    return;
                }
            }
        });
        let end = self.run(&mut out, &mut requests).await;
        if let Some((id, refusal)) = end {
            let _ = out.send(&protocol::failure(id, &self.connection_id, &refusal)).await;
        }
        let _ = out.shutdown().await;
        reading.abort();
    }

    async fn run<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        requests: &mut mpsc::Receiver<Result<String, Refusal>>,
    ) -> End {
        if out.send(&protocol::connection(&self.connection_id)).await.is_err() {
            return None;
        }
        let auth = tokio::time::timeout(Duration::from_millis(AUTH_TIMEOUT_MS), requests.recv());
        let line = match auth.await {
            Err(_) => {
                return Some((
                    None,
                    Refusal::new(
                        "TIMEOUT",
                        format!(
                            "Authenticate within {} seconds of connecting.",
                            AUTH_TIMEOUT_MS / 1000
                        ),
                    ),
                ))
            }
            Ok(None) => return None,
            Ok(Some(Err(refusal))) => return Some((None, refusal)),
            Ok(Some(Ok(line))) => line,
        };
        let (id, token) = match protocol::parse(&line) {
            Err(end) => return Some(end),
            Ok(Request::Authentication { id, session, .. }) => (id, session),
            Ok(other) => {
                return Some((
                    other.id(),
                    Refusal::new(
                        "NOT_AUTHORIZED",
                        "Authenticate first (op authentication with appKey and session).",
                    ),
                ))
            }
        };
        let caller = match session_user(&self.state, &token).await {
            Ok(caller) => caller,
            Err(err) => return Some((id, Refusal::new(err.code, err.details))),
        };
        let Some(_slot) = self.registry.take_user_slot(caller.user.id) else {
            return Some((id, Refusal::new("MAX_CONNECTION_LIMIT_EXCEEDED", format!("At most {MAX_CONNECTIONS_PER_USER} stream connections per account at once."))));
        };
        let available = self.registry.remaining_for(caller.user.id);
        if out.send(&protocol::success(id, Some(available))).await.is_err() {
            return None;
        }
        self.authenticated(out, requests, &caller, &token).await
    }

    async fn authenticated<W: AsyncWrite + Unpin>(
        &mut self,
        out: &mut Writer<W>,
        requests: &mut mpsc::Receiver<Result<String, Refusal>>,
        caller: &Caller,
        token: &str,
    ) -> End {
        let mut events = self.state.live_books.subscribe();
        let mut markets: Option<Markets> = None;
        let mut orders: Option<Orders> = None;
        let mut session_check = Instant::now() + Duration::from_millis(SESSION_CHECK_MS);
        let stopping = self.state.stopping.clone();
        loop {
            let wake = [
                Some(session_check),
                markets.as_ref().and_then(|m| m.flush_at),
                markets
                    .as_ref()
                    .map(|m| m.last_sent + Duration::from_millis(m.subscription.heartbeat_ms)),
                orders.as_ref().and_then(|o| o.flush_at),
                orders
                    .as_ref()
                    .map(|o| o.last_sent + Duration::from_millis(o.subscription.heartbeat_ms)),
            ]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(session_check);
            tokio::select! {
                () = stopping.cancelled() => return None,
                request = requests.recv() => {
                    let line = match request {
                        None => return None,
                        Some(Err(refusal)) => return Some((None, refusal)),
                        Some(Ok(line)) => line,
                    };
                    match protocol::parse(&line) {
                        Err(end) => return Some(end),
                        Ok(Request::Authentication { id, .. } | Request::Heartbeat { id }) => {
                            if out.send(&protocol::success(id, None)).await.is_err() {
                                return None;
                            }
                        }
                        Ok(Request::Markets { id, subscription }) => {
                            match self.subscribe_markets(out, id, *subscription).await {
                                Ok(Some(subscribed)) => markets = Some(subscribed),
                                Ok(None) => return None,
                                Err(refusal) => return Some((id, refusal)),
                            }
                        }
                        Ok(Request::Orders { id, subscription }) => {
                            match self.subscribe_orders(out, id, subscription, caller).await {
                                Ok(Some(subscribed)) => orders = Some(subscribed),
                                Ok(None) => return None,
                                Err(refusal) => return Some((id, refusal)),
                            }
                        }
                    }
                }
                event = events.recv() => match event {
                    Ok(LiveEvent::Book(book)) => {
                        if let Some(markets) = markets.as_mut() {
                            self.market_changed(markets, &book).await;
                        }
                        if let Some(orders) = orders.as_mut() {
                            if book.users.contains(&caller.user.id) {
                                orders.dirty.insert(book.market_id);
                                orders.flush_at.get_or_insert(Instant::now() + Duration::from_millis(orders.subscription.conflate_ms));
                            }
                        }
                    }
                    Ok(LiveEvent::Score(..)) => {}
                    Ok(LiveEvent::Resync) | Err(RecvError::Lagged(_)) => {
                        if let Some(markets) = markets.as_mut() {
                            markets.dirty.extend(markets.sent.keys().map(|id| (*id, None)));
                            markets.flush_at.get_or_insert(Instant::now());
                        }
                        if let Some(orders) = orders.as_mut() {
                            orders.everything_dirty = true;
                            orders.flush_at.get_or_insert(Instant::now());
                        }
                    }
                    Err(RecvError::Closed) => return None,
                },
                () = tokio::time::sleep_until(wake) => {}
            }
            let now = Instant::now();
            if let Some(markets) = markets.as_mut() {
                if markets.flush_at.is_some_and(|at| at <= now)
                    && self.flush_markets(out, markets).await.is_err()
                {
                    return None;
                }
                if markets.last_sent + Duration::from_millis(markets.subscription.heartbeat_ms)
                    <= now
                {
                    let heartbeat = json!({ "op": "mcm", "id": markets.id, "clk": self.next_clk(), "pt": now_ms(), "ct": "HEARTBEAT" });
                    if out.send(&heartbeat).await.is_err() {
                        return None;
                    }
                    markets.last_sent = Instant::now();
                }
            }
            if let Some(orders) = orders.as_mut() {
                if orders.flush_at.is_some_and(|at| at <= now)
                    && self.flush_orders(out, orders, caller.user.id).await.is_err()
                {
                    return None;
                }
                if orders.last_sent + Duration::from_millis(orders.subscription.heartbeat_ms) <= now
                {
                    let heartbeat = json!({ "op": "ocm", "id": orders.id, "clk": self.next_clk(), "pt": now_ms(), "ct": "HEARTBEAT" });
                    if out.send(&heartbeat).await.is_err() {
                        return None;
                    }
                    orders.last_sent = Instant::now();
                }
            }
            if session_check <= now {
                session_check = now + Duration::from_millis(SESSION_CHECK_MS);
                match session_user(&self.state, token).await {
                    Ok(still) if still.user.id == caller.user.id => {}
                    Ok(_) => {
                        return Some((
                            None,
                            Refusal::new(
                                "INVALID_SESSION_INFORMATION",
                                "The session changed hands: log in again.",
                            ),
                        ))
                    }
                    Err(err) if err.code == "UNEXPECTED_ERROR" => {} // the database, not the session: check again later
                    Err(err) => return Some((None, Refusal::new(err.code, err.details))),
                }
            }
        }
    }

    /// Whether the bot API shows this market (an exchange market), remembered per connection.
    async fn is_shown(&mut self, market_id: i64) -> bool {
        if let Some(shown) = self.shown.get(&market_id) {
            return *shown;
        }
        let shown = matches!(self.state.store.market(market_id).await, Ok(row) if market_type_code(row.setup.market_type).is_some());
        if self.shown.len() < MAX_REMEMBERED_ORDERS {
            self.shown.insert(market_id, shown);
        }
        shown
    }

    async fn market_changed(&mut self, markets: &mut Markets, book: &Arc<LiveBook>) {
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

    /// Subscribes (replacing any earlier market subscription): the status, then the image.
    /// `Ok(None)`: the connection is gone.
    async fn subscribe_markets<W: AsyncWrite + Unpin>(
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

    async fn subscribe_orders<W: AsyncWrite + Unpin>(
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
}

fn subscription_limit() -> Refusal {
    Refusal::new(
        "SUBSCRIPTION_LIMIT_EXCEEDED",
        format!("A subscription covers at most {MAX_MARKETS} markets: narrow the marketFilter."),
    )
}
