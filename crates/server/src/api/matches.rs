//! Matches: `match/getMatches`, `match/searchByMatchNameHeader`, `match/getCupsForMenu`.

use std::collections::BTreeMap;

use axum::extract::State;
use backlay_store::catalogue::{Match, MatchFilter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::series::SeriesItem;
use crate::clock::iso_utc;
use crate::error::{ok, ApiResult, AppError, Envelope};
use crate::input::{ApiJson, FlexBool, FlexI64};
use crate::session::CurrentUser;
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_matches))
        .routes(routes!(search_by_match_name_header))
        .routes(routes!(get_cups_for_menu))
}

/// Most results one search answers.
pub const SEARCH_LIMIT: i64 = 50;
pub const SEARCH_MAX_CHARS: usize = 50;

#[derive(Deserialize, ToSchema, Default)]
pub struct MatchesRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub sport_id: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub series_id: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub is_active: Option<FlexBool>,
}

#[derive(Serialize, ToSchema)]
pub struct MatchItem {
    pub match_id: i64,
    pub name: String,
    pub match_name: String,
    /// Scheduled start, ISO-8601 UTC (the same as `open_date`; both names are in the spec).
    #[serde(rename = "match_Date")]
    pub match_date: String,
    pub open_date: String,
    pub sport_id: i64,
    pub sport_name: String,
    pub series_id: i64,
    pub series_name: String,
    pub is_active: i64,
    pub in_play: bool,
    pub has_fancy: bool,
    pub has_bookmaker: bool,
    /// Match-odds summary (best back and lay per runner) once the match has an exchange market.
    #[schema(value_type = Option<Object>)]
    pub odds: Option<serde_json::Value>,
}

impl From<Match> for MatchItem {
    fn from(m: Match) -> MatchItem {
        let open_date = iso_utc(m.open_date_ms);
        MatchItem {
            match_id: m.match_id,
            match_name: m.name.clone(),
            name: m.name,
            match_date: open_date.clone(),
            open_date,
            sport_id: m.sport_id,
            sport_name: m.sport_name,
            series_id: m.series_id,
            series_name: m.series_name,
            is_active: i64::from(m.is_active),
            in_play: m.in_play,
            has_fancy: false,
            has_bookmaker: false,
            odds: None,
        }
    }
}

/// In-play matches first, then by start time.
#[utoipa::path(post, path = "/match/getMatches", tag = "catalogue", request_body = MatchesRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<MatchItem>>), (status = 400), (status = 401)))]
async fn get_matches(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<MatchesRequest>,
) -> ApiResult<Vec<MatchItem>> {
    let filter = MatchFilter {
        sport_id: body.sport_id.map(|s| s.0),
        series_id: body.series_id.map(|s| s.0),
        is_active: body.is_active.map(|a| a.0),
    };
    let matches = state.store.matches(&filter).await?;
    Ok(ok(matches.into_iter().map(MatchItem::from).collect()))
}

#[derive(Deserialize, ToSchema)]
pub struct SearchRequest {
    pub search: String,
}

#[derive(Serialize, ToSchema)]
pub struct SearchHit {
    pub match_id: i64,
    pub match_name: String,
    pub open_date: String,
    pub sport_id: i64,
    pub series_id: i64,
}

/// Active matches whose name contains the text, ignoring case, grouped by sport name.
#[utoipa::path(post, path = "/match/searchByMatchNameHeader", tag = "catalogue", request_body = SearchRequest, security(("bearer" = [])),
    responses((status = 200, description = "Sport name → matches", body = Envelope<BTreeMap<String, Vec<SearchHit>>>), (status = 400), (status = 401)))]
async fn search_by_match_name_header(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<SearchRequest>,
) -> ApiResult<BTreeMap<String, Vec<SearchHit>>> {
    let text = body.search.trim();
    if text.is_empty() {
        return Err(AppError::field("search", "Type part of a match name to search."));
    }
    if text.chars().count() > SEARCH_MAX_CHARS {
        return Err(AppError::field("search", format!("Search text must be at most {SEARCH_MAX_CHARS} characters.")));
    }
    let mut grouped: BTreeMap<String, Vec<SearchHit>> = BTreeMap::new();
    for m in state.store.search_matches(text, SEARCH_LIMIT).await? {
        grouped.entry(m.sport_name.clone()).or_default().push(SearchHit {
            match_id: m.match_id,
            match_name: m.name,
            open_date: iso_utc(m.open_date_ms),
            sport_id: m.sport_id,
            series_id: m.series_id,
        });
    }
    Ok(ok(grouped))
}

/// Featured series ("cups") for the menu.
#[utoipa::path(get, path = "/match/getCupsForMenu", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<SeriesItem>>), (status = 401)))]
async fn get_cups_for_menu(State(state): State<AppState>, _user: CurrentUser) -> ApiResult<Vec<SeriesItem>> {
    let series = state.store.featured_series().await?;
    Ok(ok(series.into_iter().map(|s| SeriesItem { series_id: s.series_id, name: s.name, sport_id: s.sport_id }).collect()))
}
