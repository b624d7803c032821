//! The live stream over Server-Sent Events: one match's markets, or one casino table's rounds.
//!
//! A browser's `EventSource` cannot send an `Authorization` header, so the page first asks
//! `POST stream/ticket` (with its session) for a short-lived ticket and opens
//! `GET stream?match_id=…&ticket=…` or `GET stream?casino=<game_code>&ticket=…`.
//!
//! A match stream sends a `snapshot` event with every market of the match, then a `market`
//! event for each market that changed, coalesced: at most one event per market per
//! [`COALESCE_MS`] (5 a second), the first change after a quiet spell at once.
//! Books are public: no positions, no orders of anyone. When the listener's own bets,
//! positions or exposure in a market changed (their bet matched, lapsed, settled…) a `mine`
//! event `{"market_id": …}` follows, carrying nothing else: the page then asks
//! `match/matchDetail`, `bet/openBets` and the balance for its own figures. A listener that
//! falls behind gets a fresh snapshot.
//!
//! A casino stream sends a `round` event ([`RoundEvent`](crate::casino::RoundEvent)) with the
//! game's current round on connect, then one each time the runner takes a step (opened,
//! closed, dealt, settled): only the round and its phase, never the seed or anyone's bets. The
//! page refetches `casino/roundState` on each. A listener that falls behind skips to the
//! newest step.
//!
//! One task, [`LiveBooks`], turns the engine's changes (each carrying the market's public book
//! as it was after the change) into events, serialising each book once however many listen;
//! the casino's steps come serialised from [`crate::casino::RoundEvents`].
//!
//! Every stream ends when the server starts shutting down ([`AppState::stopping`]).

use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::stream::{self, BoxStream, Stream, StreamExt};
use serde::Serialize;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::casino::round_events::{newest, RoundNews};
use crate::clock::now_ms;
use crate::engine::{Engine, MarketChange, MarketView};
use crate::error::{ok, ApiResult, AppError, Envelope, OrNotFound};
use crate::market_book::{market_books, public_book};
use crate::session::{new_token, token_hash, CurrentUser};
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ticket)).routes(routes!(live_stream))
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
                let oldest =
                    tickets.iter().min_by_key(|(_, (_, expires))| *expires).map(|(k, _)| k.clone());
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
        tickets
            .get(&token_hash(ticket))
            .filter(|(_, expires)| *expires > now_ms)
            .map(|(user, _)| *user)
    }
}

#[derive(Serialize, ToSchema)]
pub struct TicketData {
    pub ticket: String,
    pub expires_in_s: i64,
}

#[utoipa::path(post, path = "/stream/ticket", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = Envelope<TicketData>), (status = 401)))]
async fn ticket(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<TicketData> {
    let ticket = state.stream_tickets.issue(authed.user.id, now_ms());
    Ok(ok(TicketData { ticket, expires_in_s: TICKET_TTL_MS / 1000 }))
}

/// What a stream follows.
enum Subject {
    Match(i64),
    /// A casino game's client or rules code, as given.
    Casino(String),
}

/// Longest casino game code a stream may ask for.
const MAX_GAME_CODE_CHARS: usize = 32;

impl Subject {
    fn parse(query: &HashMap<String, String>) -> Result<Subject, AppError> {
        match (query.get("match_id"), query.get("casino")) {
            (Some(_), Some(_)) => Err(AppError::field(
                "casino",
                "Give match_id or casino, not both: a stream follows one of them.",
            )),
            (None, Some(code)) => {
                let code = code.trim();
                let valid = !code.is_empty()
                    && code.chars().count() <= MAX_GAME_CODE_CHARS
                    && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
                if !valid {
                    return Err(AppError::field(
                        "casino",
                        "casino must be a casino game's code, e.g. dt6 or teen20.",
                    ));
                }
                Ok(Subject::Casino(code.to_string()))
            }
            (match_id, None) => {
                match_id.and_then(|m| m.trim().parse().ok()).map(Subject::Match).ok_or_else(|| {
                    AppError::field(
                        "match_id",
                        "match_id must be a match's id (or give casino=<game code>).",
                    )
                })
            }
        }
    }
}

type LiveEvents = BoxStream<'static, Result<Event, Infallible>>;

/// Match events: `snapshot` (data: all markets of the match), `market` (data: one market) and
/// `mine` (data: `{"market_id"}`, only to the user whose figures there changed). Casino events:
/// `round` (data: a [`RoundEvent`](crate::casino::RoundEvent)).
#[utoipa::path(get, path = "/stream", tag = "catalogue",
    params(("match_id" = Option<i64>, Query, description = "The match (or give casino)"),
        ("casino" = Option<String>, Query, description = "A casino game's code, e.g. dt6 (or give match_id)"),
        ("ticket" = String, Query, description = "From stream/ticket")),
    responses((status = 200, description = "Server-Sent Events, never ending: for a match `snapshot` (data: every market, \
        each a MarketBook), `market` (data: one MarketBook) and `mine` (data: {\"market_id\"}) events; for a casino game \
        `round` events (data: a RoundEvent each)", content_type = "text/event-stream", body = String),
        (status = 400), (status = 401), (status = 404)))]
async fn live_stream(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let ticket = query.get("ticket").map(String::as_str).unwrap_or_default();
    let user_id = state.stream_tickets.user_of(ticket, now_ms()).ok_or_else(|| {
        AppError::Unauthorized(
            "The stream ticket is missing or expired: ask stream/ticket for a new one.".into(),
        )
    })?;
    // A stream never ends by itself: it ends when the server starts shutting down, so that
    // shutdown does not wait on it (the page's EventSource reconnects to the next server).
    let stopping = state.stopping.clone().cancelled_owned();
    let events = match Subject::parse(&query)? {
        Subject::Match(match_id) => match_events(state, user_id, match_id).await?,
        Subject::Casino(code) => casino_events(state, &code).await?,
    };
    Ok(Sse::new(events.take_until(stopping)).keep_alive(KeepAlive::default()))
}

async fn match_events(
    state: AppState,
    user_id: i64,
    match_id: i64,
) -> Result<LiveEvents, AppError> {
    let the_match = state
        .store
        .match_by_id(match_id)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    // Subscribe before the snapshot so no change between the two is missed.
    let events = state.live_books.subscribe();
    let snapshot = snapshot_event(&state, match_id, the_match.in_play).await?;
    let follow = stream::unfold(
        (state, events, the_match.in_play),
        move |(state, mut events, in_play)| async move {
            let out = loop {
                match events.recv().await {
                    Ok(LiveEvent::Book(book)) if book.match_id == match_id => {
                        let mut out = vec![Event::default().event("market").data(&*book.json)];
                        if book.users.binary_search(&user_id).is_ok() {
                            out.push(
                                Event::default()
                                    .event("mine")
                                    .data(format!("{{\"market_id\":{}}}", book.market_id)),
                            );
                        }
                        break out;
                    }
                    Err(RecvError::Lagged(_)) | Ok(LiveEvent::Resync) => {
                        break snapshot_event(&state, match_id, in_play)
                            .await
                            .map(|e| vec![e])
                            .unwrap_or_default();
                    }
                    Ok(_) => continue,
                    Err(RecvError::Closed) => return None,
                }
            };
            Some((stream::iter(out.into_iter().map(Ok)), (state, events, in_play)))
        },
    );
    Ok(stream::once(async move { Ok(snapshot) }).chain(follow.flatten()).boxed())
}

/// The game's current round as a `round` event, then one per step the runner takes. Only
/// news newer than the last sent goes out, so a step taken between the subscription and the
/// read of the current round is not sent twice or out of order.
async fn casino_events(state: AppState, code: &str) -> Result<LiveEvents, AppError> {
    let game = state
        .store
        .casino_game_by_code(code)
        .await
        .or_not_found(|| format!("There is no casino game {code}."))?;
    // Subscribe before reading the current round so no step between the two is missed.
    let events = state.round_events.subscribe(game.id);
    let current = state
        .store
        .latest_casino_round(game.id)
        .await?
        .map(|round| RoundNews::new(&game.game_code, &round, round.phase));
    let sent = current.as_ref().map(|news| (news.round_pk, news.phase));
    let first = stream::iter(current.map(|news| Ok(round_event(&news))));
    let follow = stream::unfold((events, sent), |(mut events, sent)| async move {
        loop {
            let news = match events.recv().await {
                Ok(news) => news,
                // Fell behind: the newest step is all the page needs (it refetches the table).
                Err(RecvError::Lagged(_)) => match newest(&mut events) {
                    Some(news) => news,
                    None => continue,
                },
                Err(RecvError::Closed) => return None,
            };
            if news.is_newer_than(sent) {
                let sent = Some((news.round_pk, news.phase));
                return Some((Ok(round_event(&news)), (events, sent)));
            }
        }
    });
    Ok(first.chain(follow).boxed())
}

fn round_event(news: &RoundNews) -> Event {
    Event::default().event("round").data(&*news.json)
}

async fn snapshot_event(state: &AppState, match_id: i64, in_play: bool) -> Result<Event, AppError> {
    let snapshot = market_books(state, match_id, in_play, None).await?;
    Ok(Event::default().event("snapshot").json_data(&snapshot).unwrap_or_default())
}

/// What [`LiveBooks`] sends its listeners.
#[derive(Clone, Debug)]
pub enum LiveEvent {
    /// A market's public book, serialised.
    Book(Arc<LiveBook>),
    /// Changes were missed: every listener should take a fresh snapshot.
    Resync,
}

#[derive(Debug)]
pub struct LiveBook {
    pub match_id: i64,
    pub market_id: i64,
    /// The `MarketBook` as JSON.
    pub json: Arc<str>,
    /// Users whose own figures in this market changed since the last event, ascending.
    pub users: Vec<i64>,
}

/// Events a slow listener may fall behind by before it gets a fresh snapshot.
const LIVE_BACKLOG: usize = 4096;

/// The one task between the engine's changes and every stream: coalesces changes per market,
/// reads each changed market's public book once, serialises it once and broadcasts it.
#[derive(Debug)]
pub struct LiveBooks {
    events: broadcast::Sender<LiveEvent>,
}

impl LiveBooks {
    /// Starts the task; it ends when the engine does.
    pub fn start(engine: &Engine) -> Arc<LiveBooks> {
        let (events, _) = broadcast::channel(LIVE_BACKLOG);
        tokio::spawn(coalesce(engine.subscribe(), events.clone()));
        Arc::new(LiveBooks { events })
    }

    pub fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.events.subscribe()
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
            let book = LiveBook {
                match_id: change.match_id,
                market_id,
                json,
                users: change.users.into_iter().collect(),
            };
            let _ = events.send(LiveEvent::Book(Arc::new(book)));
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
