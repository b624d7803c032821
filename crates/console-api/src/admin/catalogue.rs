//! The catalogue: sports, series and matches, a match going in play, its score.

use backlay_api::operator_context;

use axum::extract::State;
use backlay_core::score::ScoreInput;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::parse_iso;
use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{present, ApiJson, FlexBool, FlexI64};
use backlay_live::LiveScore;
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{self as operator, CreateMatch, MatchStateUpdate};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_sport))
        .routes(routes!(create_series))
        .routes(routes!(create_match))
        .routes(routes!(match_in_play))
        .routes(routes!(match_score))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateSportRequest {
    #[schema(value_type = i64)]
    pub sport_id: FlexI64,
    pub name: String,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub order: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub is_active: Option<FlexBool>,
}

#[derive(Serialize, ToSchema)]
pub struct CreatedId {
    pub id: i64,
}

#[utoipa::path(post, path = "/admin/sport/create", tag = "admin", request_body = CreateSportRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CreatedId>), (status = 400), (status = 403), (status = 409)))]
async fn create_sport(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CreateSportRequest>,
) -> ApiResult<CreatedId> {
    let ctx = operator_context(&state, operator, ip);
    let sport = operator::create_sport(
        &ctx,
        body.sport_id.0,
        &body.name,
        body.order.map_or(100, |o| o.0),
        body.is_active.is_none_or(|a| a.0),
    )
    .await?;
    Ok(ok_with(format!("{} created.", sport.name), CreatedId { id: sport.sport_id }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateSeriesRequest {
    #[schema(value_type = i64)]
    pub sport_id: FlexI64,
    pub name: String,
    /// 1: listed in the cups menu.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub is_featured: Option<FlexBool>,
}

#[utoipa::path(post, path = "/admin/series/create", tag = "admin", request_body = CreateSeriesRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CreatedId>), (status = 400), (status = 403), (status = 404)))]
async fn create_series(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CreateSeriesRequest>,
) -> ApiResult<CreatedId> {
    let ctx = operator_context(&state, operator, ip);
    let id = operator::create_series(
        &ctx,
        body.sport_id.0,
        &body.name,
        body.is_featured.is_some_and(|f| f.0),
    )
    .await?;
    Ok(ok_with("Series created.", CreatedId { id }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateMatchRequest {
    #[schema(value_type = i64)]
    pub series_id: FlexI64,
    pub name: String,
    /// Scheduled start, ISO-8601 with a zone, e.g. 2026-11-23T14:00:00Z.
    #[schema(format = DateTime)]
    pub open_date: String,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub in_play: Option<FlexBool>,
    #[serde(default)]
    pub venue: Option<String>,
    #[serde(default)]
    pub country_code: Option<String>,
}

#[utoipa::path(post, path = "/admin/match/create", tag = "admin", request_body = CreateMatchRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CreatedId>), (status = 400), (status = 403), (status = 404)))]
async fn create_match(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CreateMatchRequest>,
) -> ApiResult<CreatedId> {
    let open_date_ms = parse_iso(&body.open_date).ok_or_else(|| {
        AppError::field(
            "open_date",
            "open_date must be an ISO-8601 time with a zone, e.g. 2026-11-23T14:00:00Z.",
        )
    })?;
    for (field, value, max) in
        [("venue", &body.venue, 100), ("country_code", &body.country_code, 2)]
    {
        if value.as_ref().is_some_and(|v| v.chars().count() > max) {
            return Err(AppError::field(
                field,
                format!("{field} must be at most {max} characters."),
            ));
        }
    }
    let ctx = operator_context(&state, operator, ip);
    let id = operator::create_match(
        &ctx,
        CreateMatch {
            series_id: body.series_id.0,
            name: body.name,
            open_date_ms,
            in_play: body.in_play.is_some_and(|p| p.0),
            venue: body.venue,
            country_code: body.country_code.map(|c| c.to_uppercase()),
            upstream_ref: None,
        },
    )
    .await?;
    Ok(ok_with("Match created.", CreatedId { id }))
}

#[derive(Deserialize, ToSchema)]
pub struct InPlayRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
    #[schema(value_type = i64, minimum = 0, maximum = 1)]
    pub in_play: FlexBool,
}

/// Turns a match in play: unmatched LAPSE orders on its markets lapse, bet delays start. The
/// match's streams get a `score` event with the new `in_play`.
#[utoipa::path(post, path = "/admin/match/inPlay", tag = "admin", request_body = InPlayRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403), (status = 404)))]
async fn match_in_play(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<InPlayRequest>,
) -> ApiResult<Option<String>> {
    let ctx = operator_context(&state, operator, ip);
    operator::set_match_in_play(&ctx, &state.engine, body.match_id.0, body.in_play.0).await?;
    // The match's pages hear it at once (their In-Play badge), as they hear a score.
    let the_match = state.store.match_by_id(body.match_id.0).await?;
    state.live_books.publish_score(&LiveScore::of(&the_match));
    Ok(ok_with(
        if body.in_play.0 { "The match is in play." } else { "The match is not in play." },
        None,
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct MatchScoreRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
    /// The whole score now (its `sport` says which kind); left out: unchanged; null: cleared.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<ScoreInput>)]
    pub score: Option<Option<ScoreInput>>,
    /// How the match ended, e.g. "Chennai Super Kings won by 12 runs"; left out: unchanged;
    /// null: cleared.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub result: Option<Option<String>>,
}

/// Sets a match's live score and/or its result (admin only): what a feed, the demo or the
/// console calls. The match's streams get a `score` event.
#[utoipa::path(post, path = "/admin/match/score", tag = "admin", request_body = MatchScoreRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<LiveScore>), (status = 400), (status = 403), (status = 404)))]
async fn match_score(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<MatchScoreRequest>,
) -> ApiResult<LiveScore> {
    if body.score.is_none() && body.result.is_none() {
        return Err(AppError::field("score", "Give a score, a result or both."));
    }
    let ctx = operator_context(&state, operator, ip);
    let update = MatchStateUpdate { score: body.score, result: body.result };
    let live = operator::set_match_state(&ctx, &state.live_books, body.match_id.0, update).await?;
    Ok(ok_with("The match's score is set.", live))
}
