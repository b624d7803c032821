//! The live stream over Server-Sent Events: one match's markets, the match lists' odds, or one
//! casino table's rounds.
//!
//! A browser's `EventSource` cannot send an `Authorization` header, so the page first asks
//! `POST stream/ticket` (with its session) for a short-lived ticket and opens
//! `GET stream?match_id=…&ticket=…`, `GET stream?list=<sport id|all>&ticket=…` or
//! `GET stream?casino=<game_code>&ticket=…`.
//!
//! A match stream sends a `snapshot` event with every market of the match, then a `market`
//! event for each market that changed, coalesced: at most one event per market per
//! [`COALESCE_MS`](backlay_live::COALESCE_MS) (5 a second), the first change after a quiet
//! spell at once. After the snapshot comes a `score` event with the match's live state
//! ([`LiveScore`]: in play or not, score, result), and another each time an operator or feed
//! sets it (`admin/match/score`). Books are public: no positions, no orders of anyone. When the listener's own bets,
//! positions or exposure in a market changed (their bet matched, lapsed, settled…) a `mine`
//! event `{"market_id": …}` follows, carrying nothing else: the page then asks
//! `match/matchDetail`, `bet/openBets` and the balance for its own figures. A listener that
//! falls behind gets a fresh snapshot.
//!
//! A list stream (`GET stream?list=<sport id|all>&ticket=…`) keeps the home and sport pages'
//! prices live: a `snapshot` event with the match-odds line ([`ListOdds`]: best back and lay
//! with sizes per runner, and the market's status) of every active match of the sport (or of
//! all), and a `score` event for each of those matches with a score or result set (the list
//! shows in-play scores: one set between the page's fetch of the list and the stream's start
//! would otherwise be missing until the next), then an `odds` event with one match's line
//! whenever it changes, coalesced per market like the match stream's `market` events, and a
//! `score` event whenever one is set. A listener that falls behind gets a fresh snapshot and
//! the scores again.
//!
//! Every stream also sends the listener's own notices (`notices.rs`: a bet of theirs matched
//! later, lapsed, cancelled by the exchange, settled or voided) as `notice` events, each a
//! [`NoticeItem`], as they are made; `GET stream?notices=1&ticket=…` sends those alone (the
//! app keeps one open on pages that have no other stream). Notices made before the stream
//! opened are not sent: `GET user/notices` lists them.
//!
//! A casino stream sends a `round` event ([`RoundEvent`](backlay_live::round_events::RoundEvent)) with the
//! game's current round on connect, then one each time the runner takes a step (opened,
//! closed, dealt, settled): only the round and its phase, never the seed or anyone's bets. The
//! page refetches `casino/roundState` on each. A listener that falls behind skips to the
//! newest step.
//!
//! A ticket is stored (its hash) in the database, so a stream opens on any node whichever
//! issued the ticket. The one task that serialises the engine's changes for every stream is in
//! [`backlay_live`]; the casino's steps come serialised from [`backlay_live::round_events::RoundEvents`].
//!
//! Every stream ends when the server starts shutting down ([`AppState::stopping`]), and when
//! its user is locked, on its own or with its branch ([`backlay_live::stream_locks`]: the users holding
//! streams on a server are checked together every `LOCK_CHECK_MS`).

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use backlay_core::exchange::MarketType;
use backlay_store::catalogue::MatchFilter;
use futures::stream::{self, BoxStream, Stream, StreamExt};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_casino_store::CasinoReads;
use backlay_kit::clock::now_ms;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope, OrNotFound};
use backlay_live::market_book::{market_books, ListOdds, OddsSummary};
use backlay_live::round_events::{newest, RoundNews};
use backlay_live::{LiveBook, LiveEvent, LiveScore, TICKET_TTL_MS};
use backlay_operator::session::{new_token, token_hash, CurrentUser};
use backlay_operator::AppState;

use crate::notices::NoticeItem;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ticket)).routes(routes!(live_stream))
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
    let (ticket, now) = (new_token(), now_ms());
    state
        .store
        .insert_stream_ticket(authed.user.id, &token_hash(&ticket), now, now + TICKET_TTL_MS)
        .await?;
    Ok(ok(TicketData { ticket, expires_in_s: TICKET_TTL_MS / 1000 }))
}

/// What a stream follows.
enum Subject {
    Match(i64),
    /// A casino game's client or rules code, as given.
    Casino(String),
    /// The match lists: one sport's active matches, or every sport's (`None`).
    List(Option<i64>),
    /// The caller's own notices alone (`notices=1`).
    Notices,
}

/// Longest casino game code a stream may ask for.
const MAX_GAME_CODE_CHARS: usize = 32;

impl Subject {
    fn parse(query: &HashMap<String, String>) -> Result<Subject, AppError> {
        let given: Vec<&str> = ["match_id", "casino", "list", "notices"]
            .into_iter()
            .filter(|name| query.contains_key(*name))
            .collect();
        if given.len() > 1 {
            return Err(AppError::field(
                given[1],
                format!(
                    "Give one of match_id, casino, list or notices, not {}: a stream follows one of them.",
                    given.join(" and ")
                ),
            ));
        }
        if let Some(code) = query.get("casino") {
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
            return Ok(Subject::Casino(code.to_string()));
        }
        if let Some(list) = query.get("list") {
            let list = list.trim();
            if list.eq_ignore_ascii_case("all") {
                return Ok(Subject::List(None));
            }
            return list
                .parse()
                .ok()
                .filter(|id: &i64| *id > 0)
                .map(|id| Subject::List(Some(id)))
                .ok_or_else(|| {
                    AppError::field(
                        "list",
                        "list must be a sport's id, e.g. 4, or all for every sport.",
                    )
                });
        }
        if let Some(notices) = query.get("notices") {
            if notices.trim() != "1" {
                return Err(AppError::field(
                    "notices",
                    "notices=1 follows your own notices alone.",
                ));
            }
            return Ok(Subject::Notices);
        }
        query.get("match_id").and_then(|m| m.trim().parse().ok()).map(Subject::Match).ok_or_else(|| {
            AppError::field(
                "match_id",
                "match_id must be a match's id (or give casino=<game code>, list=<sport id|all> or notices=1).",
            )
        })
    }
}

type LiveEvents = BoxStream<'static, Result<Event, Infallible>>;

/// Match events: `snapshot` (data: all markets of the match), `score` (data: a [`LiveScore`]),
/// `market` (data: one market) and `mine` (data: `{"market_id"}`, only to the user whose
/// figures there changed). Casino events:
/// `round` (data: a [`RoundEvent`](crate::casino::RoundEvent)). List events: `snapshot` (data:
/// every listed match's [`ListOdds`]), `odds` (data: one `ListOdds`) and `score` (data: a
/// [`LiveScore`] of a match of the list's sport). Every stream: `notice` (data: a
/// [`NoticeItem`], only to its bettor); `notices=1` sends those alone.
#[utoipa::path(get, path = "/stream", tag = "catalogue",
    params(("match_id" = Option<i64>, Query, description = "The match (or give casino or list)"),
        ("casino" = Option<String>, Query, description = "A casino game's code, e.g. dt6 (or give match_id or list)"),
        ("list" = Option<String>, Query, description = "The match lists: a sport's id, or all (or give match_id or casino)"),
        ("notices" = Option<String>, Query, description = "1: the caller's own notices alone (or give match_id, casino or list)"),
        ("ticket" = String, Query, description = "From stream/ticket")),
    responses((status = 200, description = "Server-Sent Events, never ending: for a match `snapshot` (data: every market, \
        each a MarketBook), `score` (data: a LiveScore, after the snapshot and whenever the score or result is set), \
        `market` (data: one MarketBook) and `mine` (data: {\"market_id\"}) events; for a casino game \
        `round` events (data: a RoundEvent each); for a list `snapshot` (data: every listed match's ListOdds), `odds` \
        (data: one ListOdds) and `score` (data: the LiveScore of a match of the list's sport, when set) events; \
        on every stream `notice` events (data: a NoticeItem, the caller's own), and those alone with notices=1", content_type = "text/event-stream", body = String),
        (status = 400), (status = 401), (status = 404)))]
async fn live_stream(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let ticket = query.get("ticket").map(String::as_str).unwrap_or_default();
    // A ticket may open several streams until it expires, so `EventSource`'s own reconnects work.
    let user_id =
        state.store.stream_ticket_user(&token_hash(ticket), now_ms()).await?.ok_or_else(|| {
            AppError::Unauthorized(
                "The stream ticket is missing or expired: ask stream/ticket for a new one.".into(),
            )
        })?;
    // A stream never ends by itself: it ends when the server starts shutting down, so that
    // shutdown does not wait on it (the page's EventSource reconnects to the next server), or
    // when its user is locked.
    let stopping = state.stopping.clone().cancelled_owned();
    let ends = futures::future::select(
        Box::pin(stopping),
        Box::pin(Arc::clone(&state.stream_locks).until_locked(user_id)),
    );
    let notices = NoticeFollower::start(&state, user_id).await?;
    let events = match Subject::parse(&query)? {
        Subject::Match(match_id) => match_events(state, notices, match_id).await?,
        Subject::Casino(code) => {
            // The casino's rounds come apart from the engine's changes, which tell of notices.
            let rounds = casino_events(state.clone(), &code).await?;
            stream::select(rounds, notice_events(state, notices)).boxed()
        }
        Subject::List(sport_id) => list_events(state, notices, sport_id).await?,
        Subject::Notices => notice_events(state, notices),
    };
    // Counted open until the stream is dropped (the client went, or it ended).
    let subscriber = backlay_kit::metrics::StreamSubscriber::open();
    let events = events.take_until(ends).map(move |event| {
        let _counted = &subscriber;
        event
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

async fn match_events(
    state: AppState,
    notices: NoticeFollower,
    match_id: i64,
) -> Result<LiveEvents, AppError> {
    let user_id = notices.user_id;
    let the_match = state
        .store
        .match_by_id(match_id)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    // Subscribe before the snapshot so no change between the two is missed.
    let events = state.live_books.subscribe();
    let snapshot = snapshot_event(&state, match_id, the_match.in_play).await?;
    let score = score_event(&LiveScore::of(&the_match));
    let follow = stream::unfold(
        (state, events, the_match.in_play, notices),
        move |(state, mut events, in_play, mut notices)| async move {
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
                        out.extend(notices.on_book(&state, &book).await);
                        break out;
                    }
                    // The bettor's bets in another match's market.
                    Ok(LiveEvent::Book(book)) => {
                        let out = notices.on_book(&state, &book).await;
                        if !out.is_empty() {
                            break out;
                        }
                    }
                    Ok(LiveEvent::Score(id, _, json)) if id == match_id => {
                        break vec![Event::default().event("score").data(&*json)];
                    }
                    missed @ (Err(RecvError::Lagged(_)) | Ok(LiveEvent::Resync)) => {
                        if missed.is_err() {
                            backlay_kit::metrics::stream_lagged("web");
                        }
                        // A score may have been missed too: send the current one after the books.
                        let mut out: Vec<Event> = snapshot_event(&state, match_id, in_play)
                            .await
                            .map(|e| vec![e])
                            .unwrap_or_default();
                        if let Ok(the_match) = state.store.match_by_id(match_id).await {
                            out.push(score_event(&LiveScore::of(&the_match)));
                        }
                        out.extend(notices.catch_up(&state).await);
                        break out;
                    }
                    Ok(_) => continue,
                    Err(RecvError::Closed) => return None,
                }
            };
            Some((stream::iter(out.into_iter().map(Ok)), (state, events, in_play, notices)))
        },
    );
    let first = stream::iter([Ok(snapshot), Ok(score)]);
    Ok(first.chain(follow.flatten()).boxed())
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
    if !game.is_active {
        return Err(super::casino::table_switched_off(&game));
    }
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
            let received = events.recv().await;
            if matches!(received, Err(RecvError::Lagged(_))) {
                backlay_kit::metrics::stream_lagged("web");
            }
            let news = match received {
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

/// Most match-odds markets a list stream remembers as listed or not; past it, it forgets the
/// ones not listed (they are looked up again if they change).
const MAX_REMEMBERED_MARKETS: usize = 100_000;

/// The match lists' odds: a `snapshot` with the line of every listed match (active, of the
/// sport or of all), then an `odds` event each time one of those lines changes, coalesced as
/// [`backlay_live::LiveBooks`] coalesces every market. A match's line is its first live
/// match-odds market, as in `match/getMatches`. A market the stream has not met yet (created
/// after it opened) makes it read again which markets are the lines.
async fn list_events(
    state: AppState,
    notices: NoticeFollower,
    sport_id: Option<i64>,
) -> Result<LiveEvents, AppError> {
    if let Some(id) = sport_id {
        if state.store.sports(Some(id), None).await?.is_empty() {
            return Err(AppError::NotFound(format!("There is no sport with id {id}.")));
        }
    }
    // Subscribe before the snapshot so no change between the two is missed.
    let events = state.live_books.subscribe();
    let lines = list_lines(&state, sport_id).await?;
    let first = list_snapshot(&state, sport_id, &lines).await?;
    let follow = stream::unfold(
        (state, events, lines, notices),
        move |(state, mut events, mut lines, mut notices)| async move {
            let out = loop {
                match events.recv().await {
                    Ok(LiveEvent::Book(book)) => {
                        let mut out = notices.on_book(&state, &book).await;
                        let Some(line) = &book.list_json else {
                            if out.is_empty() {
                                continue;
                            }
                            break out;
                        };
                        if !lines.contains_key(&book.market_id) {
                            if lines.len() >= MAX_REMEMBERED_MARKETS {
                                lines.retain(|_, listed| *listed);
                            }
                            if let Ok(fresh) = list_lines(&state, sport_id).await {
                                lines.extend(fresh);
                            }
                            lines.entry(book.market_id).or_insert(false);
                        }
                        if lines.get(&book.market_id) == Some(&true) {
                            out.insert(0, Event::default().event("odds").data(&**line));
                        }
                        if !out.is_empty() {
                            break out;
                        }
                    }
                    // A listed match's score: the list shows it on in-play rows.
                    Ok(LiveEvent::Score(_, sport, json)) if sport_id.is_none_or(|s| s == sport) => {
                        break vec![Event::default().event("score").data(&*json)];
                    }
                    Ok(LiveEvent::Score(..)) => continue,
                    missed @ (Err(RecvError::Lagged(_)) | Ok(LiveEvent::Resync)) => {
                        if missed.is_err() {
                            backlay_kit::metrics::stream_lagged("web");
                        }
                        let mut again = Vec::new();
                        if let Ok(fresh) = list_lines(&state, sport_id).await {
                            lines = fresh;
                            if let Ok(snapshot) = list_snapshot(&state, sport_id, &lines).await {
                                again = snapshot;
                            }
                        }
                        again.extend(notices.catch_up(&state).await);
                        if !again.is_empty() {
                            break again;
                        }
                    }
                    Err(RecvError::Closed) => return None,
                }
            };
            Some((stream::iter(out.into_iter().map(Ok)), (state, events, lines, notices)))
        },
    )
    .flatten();
    Ok(stream::iter(first.into_iter().map(Ok)).chain(follow).boxed())
}

/// The caller's notices as a stream follows them: the newest sent, and the new ones read when
/// the engine says the caller's figures in a market changed (a notice is written in the same
/// transaction as its change, so it is there to read when the change is told), or when the
/// stream may have missed changes. Only the caller's own are ever read.
pub(crate) struct NoticeFollower {
    user_id: i64,
    /// The newest notice sent, or the newest there was when the stream opened: older ones are
    /// listed by `GET user/notices`, not sent again.
    sent_id: i64,
}

impl NoticeFollower {
    async fn start(state: &AppState, user_id: i64) -> Result<NoticeFollower, AppError> {
        Ok(NoticeFollower { user_id, sent_id: state.store.newest_notice_id(user_id).await? })
    }

    /// The `notice` events of a market's change, if the caller's figures there changed.
    async fn on_book(&mut self, state: &AppState, book: &LiveBook) -> Vec<Event> {
        if book.users.binary_search(&self.user_id).is_err() {
            return Vec::new();
        }
        self.catch_up(state).await
    }

    /// A `notice` event for each notice after the newest sent (at most a page; the rest at the
    /// next change). A failed read sends nothing now; the next change reads again.
    async fn catch_up(&mut self, state: &AppState) -> Vec<Event> {
        let Ok(new) = state.store.notices_after(self.user_id, self.sent_id).await else {
            return Vec::new();
        };
        if let Some(last) = new.last() {
            self.sent_id = last.id;
        }
        new.iter()
            .map(|notice| {
                Event::default()
                    .event("notice")
                    .json_data(NoticeItem::of(notice))
                    .unwrap_or_default()
            })
            .collect()
    }
}

/// A stream of the caller's notices alone (`notices=1`), and the notices beside a casino
/// table's rounds.
fn notice_events(state: AppState, notices: NoticeFollower) -> LiveEvents {
    let events = state.live_books.subscribe();
    stream::unfold((state, events, notices), |(state, mut events, mut notices)| async move {
        let out = loop {
            let received = events.recv().await;
            let out = match received {
                Ok(LiveEvent::Book(book)) => notices.on_book(&state, &book).await,
                Ok(LiveEvent::Resync) | Err(RecvError::Lagged(_)) => notices.catch_up(&state).await,
                Ok(LiveEvent::Score(..)) => continue,
                Err(RecvError::Closed) => return None,
            };
            if !out.is_empty() {
                break out;
            }
        };
        Some((stream::iter(out.into_iter().map(Ok)), (state, events, notices)))
    })
    .flatten()
    .boxed()
}

/// Every live match-odds market → whether it is a listed match's line (its match is active, of
/// the sport, and this is the match's first live match-odds market).
async fn list_lines(
    state: &AppState,
    sport_id: Option<i64>,
) -> Result<HashMap<i64, bool>, AppError> {
    let mut unlined: HashSet<i64> =
        state.store.matches(&listed(sport_id)).await?.into_iter().map(|m| m.match_id).collect();
    let mut lines = HashMap::new();
    // Ordered by market id, so the first of a match's match-odds markets is met first.
    for (match_id, market_id, market_type) in state.store.live_market_types().await? {
        if market_type == MarketType::MatchOdds {
            lines.insert(market_id, unlined.remove(&match_id));
        }
    }
    Ok(lines)
}

/// The `snapshot` of a list (the line of each listed market that is running), then a `score`
/// for each listed match of the sport with a score or result set.
async fn list_snapshot(
    state: &AppState,
    sport_id: Option<i64>,
    lines: &HashMap<i64, bool>,
) -> Result<Vec<Event>, AppError> {
    let mut snapshot = Vec::new();
    for (&market_id, _) in lines.iter().filter(|(_, listed)| **listed) {
        if let Ok(view) = state.engine.view(market_id, None).await {
            snapshot.push(ListOdds { match_id: view.setup.match_id, odds: OddsSummary::of(&view) });
        }
    }
    snapshot.sort_by_key(|line| line.match_id);
    let mut events =
        vec![Event::default().event("snapshot").json_data(&snapshot).unwrap_or_default()];
    for listed in state.store.matches(&listed(sport_id)).await? {
        if listed.score.is_some() || listed.result.is_some() {
            events.push(score_event(&LiveScore::of(&listed)));
        }
    }
    Ok(events)
}

/// The matches a list shows: active, not finished, of the sport (or of all).
fn listed(sport_id: Option<i64>) -> MatchFilter {
    MatchFilter { sport_id, is_active: Some(true), listed_only: true, ..MatchFilter::default() }
}

fn round_event(news: &RoundNews) -> Event {
    Event::default().event("round").data(&*news.json)
}

fn score_event(score: &LiveScore) -> Event {
    Event::default().event("score").json_data(score).unwrap_or_default()
}

async fn snapshot_event(state: &AppState, match_id: i64, in_play: bool) -> Result<Event, AppError> {
    let snapshot = market_books(&state.store, &state.engine, match_id, in_play, None).await?;
    Ok(Event::default().event("snapshot").json_data(&snapshot).unwrap_or_default())
}
