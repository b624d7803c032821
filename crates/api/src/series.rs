//! Series of a sport: `series/getSeriesHeader` (sports with their series, for the header and
//! the sidebar accordion) and `series/getSeries`.

use std::collections::BTreeSet;

use axum::extract::State;
use backlay_store::catalogue::MatchFilter;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::input::{ApiJson, FlexBool, FlexI64};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_series_header)).routes(routes!(get_series))
}

#[derive(Deserialize, ToSchema)]
pub struct SeriesHeaderRequest {
    /// 1: header (only series with an active match); 2: sidebar (every active series).
    #[schema(value_type = i64, minimum = 1, maximum = 2)]
    pub is_sidebar_call: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct SeriesItem {
    pub series_id: i64,
    pub name: String,
    pub sport_id: i64,
}

#[derive(Serialize, ToSchema)]
pub struct SportWithSeries {
    pub sport_id: i64,
    pub name: String,
    pub series: Vec<SeriesItem>,
}

#[utoipa::path(post, path = "/series/getSeriesHeader", tag = "catalogue", request_body = SeriesHeaderRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<SportWithSeries>>), (status = 400), (status = 401)))]
async fn get_series_header(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<SeriesHeaderRequest>,
) -> ApiResult<Vec<SportWithSeries>> {
    let only_with_matches = match body.is_sidebar_call.0 {
        1 => true,
        2 => false,
        _ => {
            return Err(AppError::field(
                "is_sidebar_call",
                "is_sidebar_call must be 1 (header) or 2 (sidebar).",
            ))
        }
    };
    let store = &state.store;
    let sports = store.sports(None, Some(true)).await?;
    let series = store.series(None, Some(true)).await?;
    let with_matches: BTreeSet<i64> = if only_with_matches {
        store
            .matches(&MatchFilter {
                is_active: Some(true),
                listed_only: true,
                ..MatchFilter::default()
            })
            .await?
            .iter()
            .map(|m| m.series_id)
            .collect()
    } else {
        BTreeSet::new()
    };
    let answer = sports
        .into_iter()
        .map(|sport| SportWithSeries {
            series: series
                .iter()
                .filter(|s| {
                    s.sport_id == sport.sport_id
                        && (!only_with_matches || with_matches.contains(&s.series_id))
                })
                .map(|s| SeriesItem {
                    series_id: s.series_id,
                    name: s.name.clone(),
                    sport_id: s.sport_id,
                })
                .collect(),
            sport_id: sport.sport_id,
            name: sport.name,
        })
        .filter(|sport| !only_with_matches || !sport.series.is_empty())
        .collect();
    Ok(ok(answer))
}

#[derive(Deserialize, ToSchema)]
pub struct SeriesRequest {
    #[schema(value_type = i64)]
    pub sport_id: FlexI64,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub is_active: Option<FlexBool>,
}

#[utoipa::path(post, path = "/series/getSeries", tag = "catalogue", request_body = SeriesRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<SeriesItem>>), (status = 400), (status = 401)))]
async fn get_series(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<SeriesRequest>,
) -> ApiResult<Vec<SeriesItem>> {
    let series = state.store.series(Some(body.sport_id.0), body.is_active.map(|a| a.0)).await?;
    Ok(ok(series
        .into_iter()
        .map(|s| SeriesItem { series_id: s.series_id, name: s.name, sport_id: s.sport_id })
        .collect()))
}
