//! The upstream feeds (`--feed`, crates/feed-runtime): what each reads, how far it is, what it
//! refused, and the markets it mirrors here (admin only).

use axum::extract::State;
use backlay_store::users::Role;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_operator::feeds::FeedStatus;
use backlay_operator::session::Operator;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(feed_status))
}

#[derive(Serialize, ToSchema)]
pub struct FeedStatusData {
    pub feeds: Vec<FeedItem>,
}

/// One feed.
#[derive(Serialize, ToSchema)]
pub struct FeedItem {
    /// What it reads: `betfair-file:PATH`, several joined by commas when they play as one, or
    /// `betfair-stream:HOST:PORT`.
    pub source: String,
    /// connecting (a live stream connecting or reconnecting), running, finished (a recording
    /// at its end or at --feed-until-pt), or failed.
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

impl From<FeedStatus> for FeedItem {
    fn from(feed: FeedStatus) -> FeedItem {
        FeedItem {
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

/// Every feed this server runs, as it stands (admin only).
#[utoipa::path(get, path = "/admin/feed/status", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<FeedStatusData>), (status = 401), (status = 403)))]
async fn feed_status(
    State(state): State<AppState>,
    Operator(authed): Operator,
) -> ApiResult<FeedStatusData> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin can read the feeds.".into()));
    }
    Ok(ok(FeedStatusData { feeds: state.feeds.all().into_iter().map(FeedItem::from).collect() }))
}
