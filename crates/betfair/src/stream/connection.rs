//! A stream connection's state machine: `connection` first, then authentication within
//! [`AUTH_TIMEOUT_MS`], then requests, live events, conflated changes, heartbeats and session
//! checks until either side ends it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio::time::Instant;

use super::lines::{LineReader, Writer};
use super::market_subscription::Markets;
use super::order_subscription::Orders;
use super::protocol::{self, Refusal, Request};
use super::registry::{PendingSlot, Registry};
use super::{
    AUTH_TIMEOUT_MS, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_USER, MAX_REMEMBERED_ORDERS,
    REQUEST_BACKLOG, SESSION_CHECK_MS,
};
use crate::{market_type_code, session_user, Caller};
use backlay_live::LiveEvent;
use backlay_operator::AppState;

/// One client's connection, from `connection` to its end; its place among the pending, then
/// among [`MAX_CONNECTIONS`] (the permit), is given back when it drops.
pub(super) struct Connection {
    pub(super) state: AppState,
    pub(super) registry: Arc<Registry>,
    connection_id: String,
    /// Its place among the connections not yet authenticated, until it authenticates.
    pending: Option<PendingSlot>,
    /// Its place among the authenticated, from then on.
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
        pending: PendingSlot,
    ) -> Connection {
        Connection {
            state,
            registry,
            connection_id,
            pending: Some(pending),
            _permit: None,
            clk: 0,
            shown: HashMap::new(),
        }
    }

    pub(super) fn next_clk(&mut self) -> String {
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
        // Authenticated: from pending to a place among the connections served, if there is one.
        let Some(permit) = self.registry.take_connection() else {
            return Some((id, Refusal::new("MAX_CONNECTION_LIMIT_EXCEEDED", format!("The stream serves at most {MAX_CONNECTIONS} connections at once: try again shortly."))));
        };
        self._permit = Some(permit);
        self.pending = None;
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
                markets.as_ref().map(Markets::due_at),
                orders.as_ref().map(Orders::due_at),
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
                        // Authenticating again with the same session is harmless; with
                        // another, it would look as if the connection had changed hands.
                        Ok(Request::Authentication { id, session, .. }) if session != token => {
                            return Some((id, Refusal::new("NOT_AUTHORIZED", "This connection is authenticated with another session: open a connection of its own for it.")));
                        }
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
                                orders.changed_in(book.market_id);
                            }
                        }
                    }
                    Ok(LiveEvent::Score(..)) => {}
                    Ok(LiveEvent::Resync) | Err(RecvError::Lagged(_)) => {
                        if let Some(markets) = markets.as_mut() {
                            markets.missed_events();
                        }
                        if let Some(orders) = orders.as_mut() {
                            orders.missed_events();
                        }
                    }
                    Err(RecvError::Closed) => return None,
                },
                () = tokio::time::sleep_until(wake) => {}
            }
            let now = Instant::now();
            if let Some(markets) = markets.as_mut() {
                if self.send_markets_due(out, markets, now).await.is_err() {
                    return None;
                }
            }
            if let Some(orders) = orders.as_mut() {
                if self.send_orders_due(out, orders, caller.user.id, now).await.is_err() {
                    return None;
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
    pub(super) async fn is_shown(&mut self, market_id: i64) -> bool {
        if let Some(shown) = self.shown.get(&market_id) {
            return *shown;
        }
        let shown = matches!(self.state.store.market(market_id).await, Ok(row) if market_type_code(row.setup.market_type).is_some());
        if self.shown.len() < MAX_REMEMBERED_ORDERS {
            self.shown.insert(market_id, shown);
        }
        shown
    }
}
