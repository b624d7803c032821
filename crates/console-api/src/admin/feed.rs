//! The upstream feeds (`--feed`, crates/feed-runtime): what each reads, how far it is, what it
//! refused, and the markets it mirrors here; the operator adds a live stream, pauses, resumes
//! and removes feeds (admin only, audited).

use axum::extract::State;
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_api::operator_context;
use backlay_kit::clock::now_ms;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::ApiJson;
use backlay_operator::feeds::{FeedMode, FeedStatus};
use backlay_operator::session::{Authed, ClientIp, Operator};
use backlay_operator::AppState;
use backlay_store::added_feeds::AddedFeedState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(feed_status))
        .routes(routes!(add_feed))
        .routes(routes!(pause_feed))
        .routes(routes!(remove_feed))
}

#[derive(Serialize, ToSchema)]
pub struct FeedStatusData {
    pub feeds: Vec<FeedItem>,
    /// Why a live stream cannot be added from the console here (the server was started
    /// without a feed's stream access); null when it can.
    #[schema(required = true)]
    pub cannot_add: Option<String>,
}

/// One feed.
#[derive(Serialize, ToSchema)]
pub struct FeedItem {
    /// The feed's id, for pause and remove.
    pub id: usize,
    /// What it reads: `betfair-file:PATH`, several joined by commas when they play as one, or
    /// `betfair-stream:HOST:PORT`.
    pub source: String,
    /// connecting (a live stream connecting or reconnecting), running, paused, finished (a
    /// recording at its end or at --feed-until-pt), removed, or failed.
    pub state: String,
    /// Lines read and applied.
    pub messages: u64,
    /// Lines refused, and the first one's reason with its file and line.
    pub refused: u64,
    #[schema(required = true)]
    pub first_refusal: Option<String>,
    /// The last market the feed could not make or move here, and why.
    #[schema(required = true)]
    pub last_error: Option<String>,
    /// The publish time of the last message applied (ms since the epoch).
    #[schema(required = true)]
    pub last_pt: Option<i64>,
    /// How far behind the upstream it acts (live feeds; ms).
    #[schema(required = true)]
    pub lag_ms: Option<i64>,
    pub markets: Vec<FeedMarketItem>,
}

/// An upstream market and the market it is here.
#[derive(Serialize, ToSchema)]
pub struct FeedMarketItem {
    pub upstream_market_id: String,
    pub market_id: i64,
    pub match_id: i64,
    /// The upstream's state: OPEN, SUSPENDED, CLOSED, INACTIVE.
    pub status: String,
    pub runners: Vec<FeedRunnerItem>,
}

#[derive(Serialize, ToSchema)]
pub struct FeedRunnerItem {
    pub upstream_selection_id: i64,
    pub selection_id: i64,
    pub name: String,
}

impl FeedItem {
    fn of(id: usize, feed: FeedStatus) -> FeedItem {
        FeedItem {
            id,
            source: feed.source,
            state: feed.state.as_str().to_owned(),
            messages: feed.messages,
            refused: feed.refused,
            first_refusal: feed.first_refusal,
            last_error: feed.last_error,
            last_pt: feed.last_pt,
            lag_ms: feed.lag_ms,
            markets: feed
                .markets
                .into_iter()
                .map(|market| FeedMarketItem {
                    upstream_market_id: market.upstream_market_id,
                    market_id: market.market_id,
                    match_id: market.match_id,
                    status: market.status,
                    runners: market
                        .runners
                        .into_iter()
                        .map(|runner| FeedRunnerItem {
                            upstream_selection_id: runner.upstream_selection_id,
                            selection_id: runner.selection_id,
                            name: runner.name,
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

fn admin_only(authed: &Authed) -> Result<(), AppError> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin can read and steer the feeds.".into()));
    }
    Ok(())
}

/// Every feed this server runs, as it stands (admin only).
#[utoipa::path(get, path = "/admin/feed/status", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<FeedStatusData>), (status = 401), (status = 403)))]
async fn feed_status(
    State(state): State<AppState>,
    Operator(authed): Operator,
) -> ApiResult<FeedStatusData> {
    admin_only(&authed)?;
    Ok(ok(FeedStatusData {
        feeds: state
            .feeds
            .all()
            .into_iter()
            .enumerate()
            .map(|(id, feed)| FeedItem::of(id, feed))
            .collect(),
        cannot_add: cannot_add(&state),
    }))
}

/// Why a live stream cannot be added when no feed runtime runs here.
const NO_FEEDS: &str = "This server runs no feeds: start it with a feed's settings (--feed-app-key and a log-in or session token) to add live streams; in a cluster, the node that leads runs them.";

fn cannot_add(state: &AppState) -> Option<String> {
    match state.feeds.control() {
        Some(control) => control.cannot_add(),
        None => Some(NO_FEEDS.into()),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct AddFeedRequest {
    /// `betfair-stream:HOST:PORT`: a live Exchange Stream, reached with the server's stream
    /// access (its app key and log-in). Recordings are given at start, not from the console.
    pub source: String,
    /// The markets to mirror: market ids (1.234), event type ids (7), countries (GB) and market
    /// types (WIN), separated by commas.
    pub markets: String,
}

/// Starts a live stream feed (admin only, audited). It is kept: the server (a cluster's leading
/// node) starts it again at its next start, until it is removed.
#[utoipa::path(post, path = "/admin/feed/add", tag = "admin", request_body = AddFeedRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<FeedItem>), (status = 400), (status = 401), (status = 403), (status = 422)))]
async fn add_feed(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<AddFeedRequest>,
) -> ApiResult<FeedItem> {
    admin_only(&operator.0)?;
    let source = body.source.trim();
    if source.is_empty() {
        return Err(AppError::field("source", "Give the stream as betfair-stream:HOST:PORT."));
    }
    let markets: Vec<String> = body
        .markets
        .split(',')
        .map(|item| item.trim().to_owned())
        .filter(|item| !item.is_empty())
        .collect();
    if markets.is_empty() {
        return Err(AppError::field(
            "markets",
            "Say which markets to mirror: market ids (1.234), event type ids (7), countries (GB) or market types (WIN).",
        ));
    }
    // The runtime says why it cannot (no stream access, stopping) as it refuses.
    let control = state.feeds.control().ok_or_else(|| AppError::Unprocessable(NO_FEEDS.into()))?;
    let id = control.add_stream(source, &markets).map_err(AppError::Unprocessable)?;
    // Kept with its audit row, so that a restart runs it again; a feed that could not be kept
    // is stopped rather than left running unrecorded.
    let added_by = operator.0.user.id;
    let ctx = operator_context(&state, operator, ip);
    let recorded: Result<i64, AppError> = async {
        let mut writer = state.store.begin_write().await?;
        let added = writer.add_feed(source, &markets, added_by, now_ms()).await?;
        ctx.audit(
            &mut writer,
            "feed.add",
            format!("feed {id}"),
            serde_json::json!({ "source": source, "markets": markets }),
        )
        .await?;
        writer.commit().await?;
        Ok(added)
    }
    .await;
    match recorded {
        Ok(added) => state.feeds.set_added_id(id, added),
        Err(err) => {
            let _ = state.feeds.set_mode(id, FeedMode::Removed);
            return Err(err);
        }
    }
    let feed = state.feeds.get(id).expect("just added");
    Ok(ok_with(format!("Feed {id} started: {}.", feed.source), FeedItem::of(id, feed)))
}

#[derive(Deserialize, ToSchema)]
pub struct PauseFeedRequest {
    pub id: usize,
    /// true to pause (its markets suspended), false to resume.
    pub paused: bool,
}

/// Pauses a feed (reading held, a live stream disconnected, its markets suspended and the
/// house's orders pulled) or resumes it (its markets brought back to the upstream's state);
/// admin only, audited.
#[utoipa::path(post, path = "/admin/feed/pause", tag = "admin", request_body = PauseFeedRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<FeedItem>), (status = 400), (status = 401), (status = 403), (status = 404), (status = 409)))]
async fn pause_feed(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<PauseFeedRequest>,
) -> ApiResult<FeedItem> {
    let mode = if body.paused { FeedMode::Paused } else { FeedMode::Running };
    let (action, done) =
        if body.paused { ("feed.pause", "paused") } else { ("feed.resume", "resumed") };
    steer(&state, operator, ip, body.id, mode, action, done).await
}

#[derive(Deserialize, ToSchema)]
pub struct RemoveFeedRequest {
    pub id: usize,
}

/// Stops a feed for good: its markets are left suspended, for the operator to settle or void
/// by hand (a feed added again later joins them). Admin only, audited.
#[utoipa::path(post, path = "/admin/feed/remove", tag = "admin", request_body = RemoveFeedRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<FeedItem>), (status = 400), (status = 401), (status = 403), (status = 404), (status = 409)))]
async fn remove_feed(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<RemoveFeedRequest>,
) -> ApiResult<FeedItem> {
    steer(&state, operator, ip, body.id, FeedMode::Removed, "feed.remove", "removed").await
}

async fn steer(
    state: &AppState,
    operator: Operator,
    ip: ClientIp,
    id: usize,
    mode: FeedMode,
    action: &str,
    done: &str,
) -> ApiResult<FeedItem> {
    admin_only(&operator.0)?;
    let feed =
        state.feeds.get(id).ok_or_else(|| AppError::NotFound(format!("There is no feed {id}.")))?;
    state.feeds.set_mode(id, mode).map_err(AppError::Conflict)?;
    let ctx = operator_context(state, operator, ip);
    let mut writer = state.store.begin_write().await?;
    if let Some(added) = state.feeds.added_id(id) {
        let kept = match mode {
            FeedMode::Running => AddedFeedState::Running,
            FeedMode::Paused => AddedFeedState::Paused,
            FeedMode::Removed => AddedFeedState::Removed,
        };
        writer.set_added_feed_state(added, kept).await?;
    }
    ctx.audit(
        &mut writer,
        action,
        format!("feed {id}"),
        serde_json::json!({ "source": feed.source }),
    )
    .await?;
    writer.commit().await?;
    let feed = state.feeds.get(id).expect("a feed stays on the board");
    Ok(ok_with(format!("Feed {id} {done}."), FeedItem::of(id, feed)))
}
