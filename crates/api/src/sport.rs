//! `sport/getSports`: the sports list (top navigation and sidebar).

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok, ApiResult, Envelope};
use backlay_kit::input::{ApiJson, FlexBool, FlexI64};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_sports))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct SportsRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub sport_id: Option<FlexI64>,
    /// 1: only active sports; 0: only inactive; absent: all.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub is_active: Option<FlexBool>,
}

#[derive(Serialize, ToSchema)]
pub struct SportItem {
    pub sport_id: i64,
    pub name: String,
    pub is_active: i64,
    pub order: i64,
}

#[utoipa::path(post, path = "/sport/getSports", tag = "catalogue", request_body = SportsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<SportItem>>), (status = 401)))]
async fn get_sports(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<SportsRequest>,
) -> ApiResult<Vec<SportItem>> {
    let sports =
        state.store.sports(body.sport_id.map(|s| s.0), body.is_active.map(|a| a.0)).await?;
    Ok(ok(sports
        .into_iter()
        .map(|s| SportItem {
            sport_id: s.sport_id,
            name: s.name,
            is_active: i64::from(s.is_active),
            order: s.display_order,
        })
        .collect()))
}
