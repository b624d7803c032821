//! The live stream of a match's markets over Server-Sent Events.
//!
//! A browser's `EventSource` cannot send an `Authorization` header, so the page first asks
//! `POST stream/ticket` (with its session) for a short-lived ticket and opens
//! `GET stream?match_id=…&ticket=…`. The stream sends a `snapshot` event with every market of
//! the match, then a `market` event for each market that changed, coalesced: at most one event
//! per market per [`COALESCE_MS`] (5 a second). Books are public: no positions, no orders of
//! anyone — a user's own figures come from `match/matchDetail`. A listener that falls behind
//! gets a fresh snapshot.

use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::sync::Mutex;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::stream::{self, Stream};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::matches::{market_book_by_id, market_books, MarketBook};
use crate::clock::now_ms;
use crate::engine::MarketChange;
use crate::error::{ok, ApiResult, AppError, Envelope, OrNotFound};
use crate::session::{new_token, token_hash, CurrentUser};
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ticket)).routes(routes!(match_stream))
}

/// Changes to one market within this window go out as one event.
pub const COALESCE_MS: u64 = 200;
/// How long a ticket opens streams for.
pub const TICKET_TTL_MS: i64 = 60_000;
/// Bound on live tickets; past it, expired ones are dropped and then the oldest.
const MAX_TICKETS: usize = 100_000;

/// Stream tickets in memory: hash → (user id, expiry).
#[derive(Default, Debug)]
pub struct StreamTickets {
    tickets: Mutex<HashMap<String, (i64, i64)>>,
}

impl StreamTickets {
    fn issue(&self, user_id: i64, now_ms: i64) -> String {
        let ticket = new_token();
        let mut tickets = self.tickets.lock().expect("ticket lock");
        if tickets.len() >= MAX_TICKETS {
            tickets.retain(|_, (_, expires)| *expires > now_ms);
            while tickets.len() >= MAX_TICKETS {
                let oldest = tickets.iter().min_by_key(|(_, (_, expires))| *expires).map(|(k, _)| k.clone());
                match oldest {
                    Some(key) => tickets.remove(&key),
                    None => break,
                };
            }
        }
        tickets.insert(token_hash(&ticket), (user_id, now_ms + TICKET_TTL_MS));
        ticket
    }

    /// The user a live ticket was issued to. A ticket may open several streams until it
    /// expires, so `EventSource`'s own reconnects work.
    fn user_of(&self, ticket: &str, now_ms: i64) -> Option<i64> {
        let tickets = self.tickets.lock().expect("ticket lock");
        tickets.get(&token_hash(ticket)).filter(|(_, expires)| *expires > now_ms).map(|(user, _)| *user)
    }
}

#[derive(Serialize, ToSchema)]
pub struct TicketData {
    pub ticket: String,
    pub expires_in_s: i64,
}

#[utoipa::path(post, path = "/stream/ticket", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = Envelope<TicketData>), (status = 401)))]
async fn ticket(State(state): State<AppState>, CurrentUser(authed): CurrentUser) -> ApiResult<TicketData> {
    let ticket = state.stream_tickets.issue(authed.user.id, now_ms());
    Ok(ok(TicketData { ticket, expires_in_s: TICKET_TTL_MS / 1000 }))
}

/// Events: `snapshot` (data: all markets of the match) and `market` (data: one market).
#[utoipa::path(get, path = "/stream", tag = "catalogue",
    params(("match_id" = i64, Query, description = "The match"), ("ticket" = String, Query, description = "From stream/ticket")),
    responses((status = 200, description = "text/event-stream of `snapshot` and `market` events", body = Vec<MarketBook>),
        (status = 400), (status = 401), (status = 404)))]
async fn match_stream(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let ticket = query.get("ticket").map(String::as_str).unwrap_or_default();
    if state.stream_tickets.user_of(ticket, now_ms()).is_none() {
        return Err(AppError::Unauthorized("The stream ticket is missing or expired: ask stream/ticket for a new one.".into()));
    }
    let match_id: i64 = query
        .get("match_id")
        .and_then(|m| m.trim().parse().ok())
        .ok_or_else(|| AppError::field("match_id", "match_id must be a match's id."))?;
    let the_match = state.store.match_by_id(match_id).await.or_not_found(|| format!("There is no match with id {match_id}."))?;
    // Subscribe before the snapshot so no change between the two is missed.
    let changes = state.engine.subscribe();
    let snapshot = market_books(&state, match_id, the_match.in_play, None).await?;
    let first = Event::default().event("snapshot").json_data(&snapshot).unwrap_or_default();
    let follow = stream::unfold((state, changes, match_id, the_match.in_play), |(state, mut changes, match_id, in_play)| async move {
        let (changed, lagged) = next_changes(&mut changes, match_id).await?;
        let events = if lagged {
            let snapshot = market_books(&state, match_id, in_play, None).await.unwrap_or_default();
            vec![Event::default().event("snapshot").json_data(&snapshot).unwrap_or_default()]
        } else {
            let mut events = Vec::new();
            for market_id in changed {
                if let Some(book) = market_book_by_id(&state, market_id, in_play, None).await {
                    events.push(Event::default().event("market").json_data(&book).unwrap_or_default());
                }
            }
            events
        };
        Some((stream::iter(events.into_iter().map(Ok)), (state, changes, match_id, in_play)))
    });
    use futures::StreamExt;
    let events = stream::once(async move { Ok(first) }).chain(follow.flatten());
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// Waits for the next change of this match's markets, then gathers every change within
/// [`COALESCE_MS`]. `None` when the engine is gone; `lagged` when changes were missed.
async fn next_changes(
    changes: &mut tokio::sync::broadcast::Receiver<MarketChange>,
    match_id: i64,
) -> Option<(BTreeSet<i64>, bool)> {
    let mut changed = BTreeSet::new();
    loop {
        match changes.recv().await {
            Ok(change) if change.match_id == match_id => {
                changed.insert(change.market_id);
                break;
            }
            Ok(_) => continue,
            Err(RecvError::Lagged(_)) => return Some((changed, true)),
            Err(RecvError::Closed) => return None,
        }
    }
    let window = tokio::time::sleep(Duration::from_millis(COALESCE_MS));
    tokio::pin!(window);
    loop {
        tokio::select! {
            _ = &mut window => return Some((changed, false)),
            received = changes.recv() => match received {
                Ok(change) if change.match_id == match_id => { changed.insert(change.market_id); }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => return Some((changed, true)),
                Err(RecvError::Closed) => return Some((changed, false)),
            },
        }
    }
}
