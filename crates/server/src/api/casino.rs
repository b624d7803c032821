//! `casino/getCasinoSport`: the casino categories, sorted by order.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::error::{ok, ApiResult, Envelope};
use crate::session::CurrentUser;
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_casino_sport))
}

#[derive(Serialize, ToSchema)]
pub struct CasinoSportItem {
    /// E.g. "matka", "worldcasino".
    pub sport_id: String,
    pub name: String,
    pub is_active: i64,
    pub order: i64,
}

#[utoipa::path(get, path = "/casino/getCasinoSport", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<CasinoSportItem>>), (status = 401)))]
async fn get_casino_sport(State(state): State<AppState>, _user: CurrentUser) -> ApiResult<Vec<CasinoSportItem>> {
    let sports = state.store.casino_sports().await?;
    Ok(ok(sports
        .into_iter()
        .map(|s| CasinoSportItem { sport_id: s.sport_id, name: s.name, is_active: i64::from(s.is_active), order: s.display_order })
        .collect()))
}
